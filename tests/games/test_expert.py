"""The expert bots: they read only their seat's view, replay exactly from a seed, and play legal
moves through whole games. (How strong they are is measured in bench/bots.py, not here.)"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from longhall.server.appliance.board import UNKNOWN_PI, board_model, core_share, expert_share
from longhall.server.cli import budget_from_env, main
from longhall.server.cli.simulate import play_game
from longhall.server.games.eketorp import SPEC as EKETORP
from longhall.server.games.eketorp import expert as ek_expert
from longhall.server.games.playout import playout
from longhall.server.games.rng import Rng
from longhall.server.games.search import set_scale
from longhall.server.games.vikings_on_board import SPEC as VIKINGS
from longhall.server.games.vikings_on_board import expert as vob_expert
from longhall.server.table.gamedata import default_config

from .eketorp.helpers import eketorp
from .states import comparable

PLAYOUTS = 6  # enough to exercise the search; kept small for a busy machine


def _advance(spec: Any, st: Any, stop: Any, seed: int, limit: int = 5000) -> Any:
    """Play greedy moves until ``stop(st)`` holds."""
    bots = [spec.bots["greedy"](seed + s) for s in range(st.players)]
    for _ in range(limit):
        if stop(st):
            return st
        active = st.active_seats()
        if not active:
            st.apply(None, st.legal_actions(None)[0])
            continue
        seat = active[0]
        st.apply(seat, bots[seat].choose(st, seat))
    raise AssertionError("the position never came")


def _secrets_differ(a: Any, b: Any, keys: tuple[str, ...]) -> bool:
    da, db = comparable(a), comparable(b)
    return any(da[k] != db[k] for k in keys)


def _eketorp_card_choice() -> tuple[Any, int]:
    """Round 2 or later, a fight whose opponent has chosen a card in secret; seat = who chooses."""
    st = EKETORP.new(default_config("eketorp", 4), 41)

    def stop(s: Any) -> bool:
        fight = s.fight
        return (
            s.phase == "choose"
            and s.round >= 2
            and fight["played"][0] is not None
            and fight["played"][1] is None
            and len(set(s.hands[fight["b"]])) > 1
        )

    st = _advance(EKETORP, st, stop, 5)
    return st, st.fight["b"]


def _eketorp_planning() -> tuple[Any, int]:
    """Round 2's planning, with two seats already committed to secret plans."""
    st = EKETORP.new(default_config("eketorp", 4), 42)
    st = _advance(EKETORP, st, lambda s: s.phase == "planning" and s.round == 2, 6)
    bots = [EKETORP.bots["greedy"](s) for s in range(4)]
    for seat in (0, 1):
        while not st.committed[seat]:
            st.apply(seat, bots[seat].choose(st, seat))
    return st, 2


@pytest.mark.parametrize("position", [_eketorp_card_choice, _eketorp_planning])
def test_eketorp_expert_decides_from_its_seats_view_only(position: Any) -> None:
    """R3, R5.9: other hands, other plans, the draw pile and the deck are drawn again; the same
    seed must give the same decision, and the same worlds to think in."""
    st, seat = position()
    before = comparable(st)
    for k in range(3):
        other = EKETORP.resample_hidden(st, seat, random.Random(k))
        assert _secrets_differ(st, other, ("hands", "draw", "deck", "plans"))
        assert other.hands[seat] == st.hands[seat]
        world_a = ek_expert.determinize(st, seat, Rng(99))
        world_b = ek_expert.determinize(other, seat, Rng(99))
        assert comparable(world_a) == comparable(world_b)
        one = ek_expert.ExpertBot(17, PLAYOUTS).choose(st, seat)
        two = ek_expert.ExpertBot(17, PLAYOUTS).choose(other, seat)
        assert one == two
        assert one in st.legal_actions(seat)
    assert comparable(st) == before  # it thinks in copies: the game itself is untouched


def test_eketorp_determinize_keeps_what_the_seat_knows_and_counts() -> None:
    st, seat = _eketorp_card_choice()
    world = ek_expert.determinize(st, seat, Rng(3))
    assert world.hands[seat] == st.hands[seat]
    assert [len(h) for h in world.hands] == [len(h) for h in st.hands]
    assert len(world.draw) == len(st.draw) and world.discards == st.discards
    assert world.castles == st.castles and world.board == st.board
    others = [s for s in range(st.n) if s != seat]
    unseen = st.draw + st.general + [c for s in others for c in st.hands[s]]
    dealt = world.draw + world.general + [c for s in others for c in world.hands[s]]
    assert world.fight is not None and st.fight is not None
    assert sorted([*dealt, world.fight["played"][0]]) == sorted([*unseen, st.fight["played"][0]])
    # the seat's own hand is what it knows: change it and the worlds change
    mine = st.clone()
    mine.hands[seat], mine.draw[0] = [*mine.hands[seat][1:], mine.draw[0]], mine.hands[seat][0]
    assert comparable(ek_expert.determinize(mine, seat, Rng(3))) != comparable(world)


def test_vikings_expert_decides_from_its_seats_view_only() -> None:
    """V3.4, V2.6: other seats' barrel values and chests, and the piles, are drawn again."""
    st = VIKINGS.new(default_config("vikings_on_board", 3), 43)

    def stop(s: Any) -> bool:
        if s.phase != "turn" or len(s.in_port()) > 6 or not any(s.chests):
            return False
        seat = s.active_seats()[0]
        return len(s.legal_actions(seat)) > 1

    st = _advance(VIKINGS, st, stop, 7)
    seat = st.active_seats()[0]
    for k in range(3):
        other = VIKINGS.resample_hidden(st, seat, random.Random(k))
        assert _secrets_differ(st, other, ("barrels", "piles", "chests"))
        assert other.barrels[seat] == st.barrels[seat]
        world_a = vob_expert.determinize(st, seat, Rng(5))
        world_b = vob_expert.determinize(other, seat, Rng(5))
        assert comparable(world_a) == comparable(world_b)
        one = vob_expert.ExpertBot(23, PLAYOUTS).choose(st, seat)
        assert one == vob_expert.ExpertBot(23, PLAYOUTS).choose(other, seat)
        assert one in st.legal_actions(seat)


@pytest.mark.parametrize(("spec", "players"), [(EKETORP, 3), (VIKINGS, 2)])
def test_an_expert_game_replays_exactly_from_its_seed(spec: Any, players: int) -> None:
    config = default_config(spec.name, players)
    kinds = ["expert"] + ["greedy"] * (players - 1)

    def make(kind: str, seed: int) -> Any:
        return spec.bots[kind](seed, 3) if kind == "expert" else spec.bots[kind](seed)

    first, n1 = play_game(spec, config, 61, kinds, make)
    again, n2 = play_game(spec, config, 61, kinds, make)
    assert first.is_over() and n1 == n2
    assert first.to_dict() == again.to_dict()  # the same moves, the same log
    assert not spec.check_invariants(first)


def test_the_budget_is_a_setting() -> None:
    try:
        assert budget_from_env({"LONGHALL_EXPERT_PLAYOUTS": "12"}) == 12
        assert ek_expert.ExpertBot(1).playouts == 12 and vob_expert.ExpertBot(1).playouts == 12
        assert ek_expert.ExpertBot(1, 5).playouts == 5
        assert budget_from_env({"LONGHALL_EXPERT_PLAYOUTS": "many"}) is None
        assert ek_expert.ExpertBot(1).playouts == ek_expert.DEFAULT_PLAYOUTS
        assert vob_expert.ExpertBot(1).playouts == vob_expert.DEFAULT_PLAYOUTS
    finally:
        budget_from_env({})


def test_simulate_accepts_expert_bots(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--game", "vikings_on_board", "--players", "2", "--bots", "expert"]
    assert main([*args, "--playouts", "2", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["bots"] == ["expert", "expert"] and lines[-1]["games"] == 1
    assert main([*args, "--playouts", "0"]) == 2
    assert "--playouts must be at least 1" in capsys.readouterr().out


def test_six_planning_experts_spend_six_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """R3: everyone plans at once. Each expert searches its plan once per round, within its
    budget, and then only places vikings: six bots cost six searches, never more."""
    calls = [0]
    real = playout  # what the expert module calls

    def counting(*args: Any, **kwargs: Any) -> int:
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(ek_expert, "playout", counting)
    st = eketorp(EKETORP.new(default_config("eketorp", 6), 44))
    bots = [ek_expert.ExpertBot(s, PLAYOUTS) for s in range(6)]
    spent = [0] * 6
    while st.phase == "planning":
        seat = st.active_seats()[0]
        before = calls[0]
        st.apply(seat, bots[seat].choose(st, seat))
        spent[seat] += calls[0] - before
    assert st.phase != "planning" and all(st.committed)
    plans = [
        len(ek_expert.candidate_plans(eketorp(EKETORP.new(default_config("eketorp", 6), 44)), s))
        for s in range(6)
    ]
    for seat in range(6):
        assert 0 < spent[seat] <= max(PLAYOUTS, plans[seat]), (seat, spent)


def test_asked_twice_about_one_position_it_thinks_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table asks a bot for its move, then again just before submitting it."""
    st, seat = _eketorp_card_choice()
    calls = [0]
    real = playout  # what the expert module calls

    def counting(*args: Any, **kwargs: Any) -> int:
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(ek_expert, "playout", counting)
    bot = ek_expert.ExpertBot(3, PLAYOUTS)
    first = bot.choose(st, seat)
    thought = calls[0]
    assert thought > 0
    assert bot.choose(st, seat) == first and calls[0] == thought
    st.apply(seat, first)  # a new position: it thinks again when asked
    if seat in st.active_seats() and len(st.legal_actions(seat)) > 1:
        bot.choose(st, seat)
        assert calls[0] > thought


def test_the_vikings_playout_policy_is_the_greedy_bot() -> None:
    """The play-outs' greedy bot (influence orders memoized, empty quays skipped) chooses what
    the greedy bot chooses (V4.2-V4.4 reckoned the same way)."""
    for players, seed in ((2, 5), (4, 6)):
        config = default_config("vikings_on_board", players)
        greedy, _ = play_game(VIKINGS, config, seed, ["greedy"] * players)
        memo = vob_expert._Memo()  # one memo for the whole game: it must never go stale

        def make(kind: str, bot_seed: int, memo: Any = memo) -> Any:
            return vob_expert._PlayoutGreedy(bot_seed, memo)

        fast, _ = play_game(VIKINGS, config, seed, ["greedy"] * players, make)
        assert fast.to_dict() == greedy.to_dict()


@pytest.mark.parametrize(
    ("model", "share"),
    [
        (b"Raspberry Pi 4 Model B Rev 1.4\0", 0.25),
        (b"Raspberry Pi 400 Rev 1.0\0", 0.25),
        (b"Raspberry Pi Zero 2 W Rev 1.0\0", 0.12),
        (b"Raspberry Pi 5 Model B Rev 1.0\0", 0.5),
        (b"Raspberry Pi Model B Plus Rev 1.2\0", UNKNOWN_PI),  # a board the table does not know
        (b"Hardkernel ODROID-C4\0", 1.0),  # not a Pi: no guess
        (None, 1.0),  # no device tree at all (a laptop, CI)
    ],
)
def test_a_pi_s_experts_play_its_share_of_their_play_outs(
    tmp_path: Path, model: bytes | None, share: float
) -> None:
    # a decision at the default budget takes at most 2 s in 19 of 20 on a Pi 4 (docs/
    # performance.md); a slower board plays the share of the play-outs that fits in that time
    tree = tmp_path / "model"
    if model is not None:
        tree.write_bytes(model)
    found = board_model(tree)
    assert core_share(found) == share
    played = expert_share(found)
    assert played == (1.0 if share >= 0.25 else pytest.approx(share / 0.165, abs=0.01))
    try:
        set_scale(played)
        assert ek_expert.ExpertBot(1).playouts == round(ek_expert.DEFAULT_PLAYOUTS * played)
        assert budget_from_env({"LONGHALL_EXPERT_PLAYOUTS": "40"}) == 40  # the host's wins
        assert vob_expert.ExpertBot(1).playouts == 40
    finally:
        set_scale(1.0)
        budget_from_env({})
