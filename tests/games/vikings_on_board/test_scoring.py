"""Scoring and the winners (V5.2, V5.3), with the rulebook's 9-9 example."""

from __future__ import annotations

from longhall.server.games.vikings_on_board import VikingsState

from .helpers import BLUE, GREEN, RED, YELLOW, new_game, ok, play_out, set_market


def _give(st: VikingsState, seat: int, kinds: list[str]) -> None:
    """Hand ``seat`` these chests from the piles (as if won at sailings)."""
    for kind in kinds:
        pile = next(p for p in st.piles if kind in p)
        pile.remove(kind)
        st.chests[seat].append(kind)


def _win_barrels(st: VikingsState, seat: int, barrels: list[int]) -> None:
    for b in barrels:
        st.hands[seat].remove(b)
        st.won[seat].append(b)


def test_rulebook_tie_of_nine_goes_to_more_chests() -> None:
    # V5.2: blue 2 grain at 2, 1 metal at 3, 1 furs at 2 = 9; red 2 furs (4) and barrels of
    # 2 and 3 = 9. V5.3: equal scores, blue has more chests and wins.
    st = new_game(4)
    set_market(st, furs=2, grain=2, metal=3)
    _give(st, BLUE, ["grain", "grain", "metal", "furs"])
    _give(st, RED, ["furs", "furs"])
    _win_barrels(st, RED, [1, 2])  # worth 2 and 3 (D1)
    ok(st)
    scores = st.scores()
    assert scores[BLUE] == {
        "seat": BLUE,
        "total": 9,
        "breakdown": {
            "furs": {"count": 1, "points": 2},
            "grain": {"count": 2, "points": 4},
            "metal": {"count": 1, "points": 3},
            "barrels": {"count": 0, "points": 0},
        },
    }
    assert scores[RED]["total"] == 9
    assert scores[RED]["breakdown"]["barrels"] == {"count": 2, "points": 5}
    assert st.winners() == [BLUE]


def test_equal_scores_and_chests_share_the_win() -> None:
    # V5.3
    st = new_game(3)
    _give(st, RED, ["metal"])
    _give(st, GREEN, ["grain"])
    assert st.winners() == [RED, GREEN]
    _win_barrels(st, BLUE, [0])  # 1 point but no chest
    assert st.winners() == [RED, GREEN]
    st.market["grain"] = 2
    assert st.winners() == [GREEN]


def test_unwon_barrels_score_nothing() -> None:
    # V5.2: only barrels won back onto the shield score
    st = new_game(4)
    st.hands[YELLOW].remove(3)
    st.quay[0][RED] = YELLOW * 4 + 3
    assert st.scores()[YELLOW]["total"] == 0


def test_final_scores_are_public_at_the_end() -> None:
    # V5.1, V5.2: at the end every shield is lifted
    from longhall.server.games.vikings_on_board import SPEC

    st = play_out(new_game(3, seed=12))
    public = SPEC.view(st, None)["public"]
    assert public["scores"] == st.scores()
    assert public["result"]["winners"] == st.winners()
    total = sum(len(c) for c in st.chests) + len(st.box) + sum(len(p) for p in st.prows)
    assert total + len(st.piles[0]) + len(st.piles[1]) == 15
    assert len(st.sailed) == 7
