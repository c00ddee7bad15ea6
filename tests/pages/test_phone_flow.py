"""The phone page through the moments of a game a player must understand without a manual.

Most tests here put the phone exactly where they need it: the page's Socket.IO client is replaced
by a stand-in (a few lines of JavaScript) that passes every command to the real Eketorp engine in
this process and brings back the reader's real view, as the server would. So a test can set up a
loot with two grassy stacks or a fight over an empty field, tap as a player would, and check what
the engine received (the stand-in and its Phone driver: phone_driver.py). What the phone's shell
does in every game (the lobby's colour box, new screens, a finger's hold, the screen kept on) is
in test_phone_shell.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from longhall.server.games.api import IllegalAction
from longhall.server.games.eketorp import EketorpState

from ..games.eketorp.helpers import (
    BLUE,
    GREEN,
    RED,
    YELLOW,
    clear_fields,
    new_game,
    plan,
    play_out,
    set_castle,
    set_field,
    set_hand,
    siege,
)
from ..support import ServerProcess
from .conftest import screenshot, tap_until, wait_until
from .phone_driver import COUNT_C, TIMES, Phone, no_wider_than_the_phone

pytestmark = pytest.mark.slow


# -- 1. the final score -------------------------------------------------------------------------


def test_the_final_score_says_why_and_reads_on_a_360px_phone(
    browser: Any, files_server: ServerProcess
) -> None:
    st = play_out(new_game(4, seed=3), seed=4)
    scores = st.scores()
    phone = Phone(browser, files_server, st, status="over")
    phone.result = {
        "scores": scores,
        "winners": st.winners(),
        "seats": phone.table()["seats"],
        "status": "finished",
        "game": "eketorp",
    }
    phone.push()
    page = phone.page
    page.wait_for_selector(".score-card")
    screenshot(page, "phone-final-360")
    no_wider_than_the_phone(page)
    # why the game ended, as the table display says it (R6.4)
    assert st.result is not None
    if st.result["reason"] == "complete":
        castle = st.result["castles"][0]
        name = phone.table()["seats"][castle["seat"]]["name"]
        why = f"{name}\u2019s castle holds {castle['stones']} stones"
    else:
        why = f"The last material card was played: the game ends after round {st.round}."
    assert why in page.inner_text(".final .end-reason")
    cards = page.query_selector_all(".score-card")
    assert len(cards) == 4
    totals = [int(c.get_attribute("data-seat") or -1) for c in cards]
    ordered = sorted(range(4), key=lambda s: -scores[s]["total"])
    assert [scores[s]["total"] for s in totals] == [scores[s]["total"] for s in ordered]
    # the best total is on the first screen, and every card shows every category in full
    first = page.query_selector(".score-card .total").bounding_box()
    assert first["y"] + first["height"] <= 640 and first["x"] + first["width"] <= 360
    for card in cards:
        score = scores[int(card.get_attribute("data-seat") or -1)]
        assert card.query_selector(".total").inner_text().split()[-1] == str(score["total"])
        for category, part in score["breakdown"].items():
            row = card.query_selector(f"tr[data-category={category}]")
            count, points = (row.query_selector(x).inner_text() for x in (".count", ".points"))
            assert points == str(part["points"])
            if category != "complete":
                assert count.startswith(f"{part['count']} {TIMES}"), (category, count)
            box = row.bounding_box()
            assert box["x"] + box["width"] <= 360

    # the host's start button says what it does: a rematch, or the game chosen since
    assert page.inner_text("#start") == "Rematch with these seats"
    eketorp_table = phone.table

    def another_game_chosen() -> dict[str, Any]:
        table = eketorp_table()
        table["game"], table["games"] = "vikings_on_board", ["eketorp", "vikings_on_board"]
        table["lobby_games"]["vikings_on_board"] = {
            **table["lobby_games"]["eketorp"],
            **{"min_players": 2, "max_players": 4, "options": []},
        }
        return table

    phone.table = another_game_chosen  # type: ignore[method-assign]
    phone.push()
    wait_until(page, "document.querySelector('#start').textContent.includes('Vikings on Board')")
    assert page.inner_text("#start") == "Start Vikings on Board with these seats"
    phone.no_errors()


# -- 4. stones read as points, never as field letters -------------------------------------------


def test_stones_show_their_points_and_a_shape_never_a_letter(
    browser: Any, files_server: ServerProcess
) -> None:
    st = new_game(4)
    clear_fields(st)
    set_field(st, "A", grass=2)
    set_field(st, "C", wood=3)  # in French "bois": a B on field C, before
    set_field(st, "D", clay=1)
    set_field(st, "G", stone=1)
    phone = Phone(browser, files_server, st, lang="fr")
    page = phone.page
    page.wait_for_selector("[data-dest=C] .stone")
    chips = page.evaluate(
        """() => [...document.querySelectorAll('.stone:not(.none)')].map((el) => {
             const kind = [...el.classList].find((c) => c.startsWith('stone-')).slice(6);
             const css = getComputedStyle(el), before = getComputedStyle(el, '::before');
             return [kind, el.textContent, css.borderRadius + '|' + before.clipPath];
           })"""
    )
    values = {"grass": "1", "wood": "2", "clay": "3", "stone": "4"}
    assert {kind for kind, _, _ in chips} == set(values)
    shapes: dict[str, set[str]] = {}
    for kind, text, shape in chips:
        assert text == values[kind]
        shapes.setdefault(kind, set()).add(shape)
    assert all(len(s) == 1 for s in shapes.values())  # one shape per kind of stone ...
    assert len({next(iter(s)) for s in shapes.values()}) == 4  # ... and four different ones
    assert page.inner_text("[data-dest=C]").split() == ["C", "2", "2", "2"]
    assert "Les pierres et leur valeur" in page.inner_text(".legend")
    screenshot(page, "phone-fr-stones")
    phone.no_errors()


# -- 3. loot: where each stone comes from ---------------------------------------------------------


def loot_ready(damage: int) -> EketorpState:
    """Blue has won a siege on Red's boat (sites 3 and 4, both with grass on top) by ``damage``."""
    st = new_game(4)
    clear_fields(st)
    set_castle(st, RED, [[], [], ["stone", "grass", "grass"], ["wood", "grass"], [], []])
    plan(st, {RED: {"A": st.home[RED]}, BLUE: {siege(RED, "boat"): 1}})  # no defender
    set_hand(st, BLUE, [damage, 1, 1, 2])
    set_hand(st, RED, [3, 2, 2, 1])
    st.apply(BLUE, {"type": "siege", "field": siege(RED, "boat")})
    while st.phase == "swap":
        st.apply(st.active_seats()[0], {"type": "keep"})
    st.apply(BLUE, {"type": "play", "card": damage})
    st.apply(RED, {"type": "play", "card": 3})  # counts 0: no defender
    assert st.phase == "loot" and st.last_fight and st.last_fight["damage"] == damage
    return st


def test_loot_is_tapped_stone_by_stone_from_the_top_then_one_is_kept(
    browser: Any, files_server: ServerProcess
) -> None:
    st = loot_ready(5)
    phone = Phone(browser, files_server, st, seat=BLUE, lang="nl")
    page = phone.page
    page.wait_for_selector(".loot-site")
    assert "Bouwplaats 3" in phone.text() and "Bouwplaats 4" in phone.text()
    assert "Nog niets weggehaald" in phone.text()
    assert page.query_selector_all(".keep") == []
    # every stone is named with its site: the two grassy tops are no longer alike
    labels = [b.get_attribute("aria-label") for b in page.query_selector_all(".loot .stone-button")]
    assert len(labels) == 5 and all("Bouwplaats" in label for label in labels)

    def tap(site: int, level: int) -> None:
        page.tap(f".stone-button[data-site='{site}'][data-level='{level}']")
        phone.settle()

    tap(3, 1)  # the lower grass of site 3: both grass come off
    assert page.get_attribute(".stone-button[data-site='3'][data-level='2']", "aria-pressed") == (
        "true"
    )
    assert "2 van 5" in page.inner_text(".loot-sum")
    # D13: a won siege removes one or two stones, never more: a third is out of reach
    assert page.is_disabled(".stone-button[data-site='4'][data-level='1']")
    assert page.is_disabled(".stone-button[data-site='3'][data-level='0']")
    assert [b.inner_text() for b in page.query_selector_all(".keep")] == ["1 gras houden"]
    tap(3, 1)  # put the lower grass back
    tap(3, 2)  # and the upper one: nothing removed
    tap(4, 0)  # the wood of site 4, with the grass on it: 1 + 2 = 3
    assert "3 van 5" in page.inner_text(".loot-sum")
    assert page.is_disabled(".stone-button[data-site='3'][data-level='2']")  # a third stone
    keeps = page.query_selector_all(".keep")
    assert [k.inner_text() for k in keeps] == ["1 gras houden", "2 hout houden"]
    screenshot(page, "phone-nl-loot")
    page.tap(".keep >> nth=1")
    wait_until(page, "document.body.dataset.phase !== 'loot'")
    assert phone.actions()[-1] == {"type": "loot", "take": [[4, 1], [4, 0]], "keep": "wood"}
    assert st.castles[RED][2:4] == [["stone", "grass", "grass"], []]
    assert st.carry[BLUE] == ["wood"]
    assert phone.refused == []
    phone.no_errors()


def test_a_tapped_stone_can_be_put_back(browser: Any, files_server: ServerProcess) -> None:
    st = loot_ready(2)
    phone = Phone(browser, files_server, st, seat=BLUE)
    page = phone.page
    page.wait_for_selector(".loot-site")
    page.tap(".stone-button[data-site='3'][data-level='1']")
    phone.settle()
    assert "worth 2 of 2" in page.inner_text(".loot-sum")
    assert page.is_disabled(".stone-button[data-site='4'][data-level='1']")  # 3 > 2
    page.tap(".stone-button[data-site='3'][data-level='1']")  # put the lower one back
    phone.settle()
    assert "worth 1 of 2" in page.inner_text(".loot-sum")
    page.tap(".stone-button[data-site='4'][data-level='1']")
    phone.settle()
    page.tap(".keep")
    wait_until(page, "document.body.dataset.phase !== 'loot'")
    assert phone.actions()[-1] == {"type": "loot", "take": [[3, 2], [4, 1]], "keep": "grass"}
    phone.no_errors()


# -- 5. what a fight or siege can win --------------------------------------------------------------


def test_each_fight_and_siege_says_what_it_can_win(
    browser: Any, files_server: ServerProcess
) -> None:
    st = new_game(4)
    clear_fields(st)
    set_field(st, "B", wood=1)
    set_castle(st, BLUE, [["grass"], [], [], [], [], []])
    set_castle(st, GREEN, [[], [], [], [], ["clay", "wood"], ["grass"]])
    plan(
        st,
        {
            RED: {
                "A": 1,
                "B": 1,
                siege(BLUE, "catapult"): 1,
                siege(BLUE, "boat"): 1,
                siege(GREEN, "ram"): 1,
            },
            BLUE: {"A": 1, "B": 1},
            YELLOW: {"B": 1, siege(BLUE, "catapult"): 1},
        },
    )
    assert st.phase == "pick" and st.turn == RED
    phone = Phone(browser, files_server, st, seat=RED)
    page = phone.page
    page.wait_for_selector(".fight-place")

    def block(field: str) -> str:
        return str(page.inner_text(f".fight-place[data-field='{field}']"))

    assert "Nothing to win here: no stones" in block("A")
    assert "3 vikings here. At stake:" in block("B")
    assert page.inner_text(".fight-place[data-field='B'] .stake .chips") == "2"
    assert "both building sites are empty" in block(siege(BLUE, "boat"))
    assert "The winner besieges" in block(siege(BLUE, "catapult"))
    green = f".fight-place[data-field='{siege(GREEN, 'ram')}']"
    assert "Loot, up to the damage, from the tops of sites 5 and 6" in page.inner_text(green)
    stacks = page.query_selector_all(f"{green} .site")
    assert [s.get_attribute("data-site") for s in stacks] == ["5", "6"]
    assert [s.inner_text().split() for s in stacks] == [["3", "2", "5"], ["1", "6"]]
    # whom to fight, under each place
    assert page.inner_text(".fight-place[data-field='A'] .options") == "Fight ● Bot ●"
    screenshot(page, "phone-pick-stakes")
    no_wider_than_the_phone(page)
    phone.no_errors()


# -- 6. the amulet swap: its cost, then the new hand -----------------------------------------------


def test_the_swap_states_its_cost_and_then_shows_the_new_hand(
    browser: Any, files_server: ServerProcess
) -> None:
    st = new_game(4)
    clear_fields(st)
    plan(st, {RED: {"A": 1}, BLUE: {"A": 1}})
    set_hand(st, RED, [1, 1, 2, 3])
    st.apply(RED, {"type": "fight", "field": "A", "opponent": BLUE})
    assert st.phase == "swap"
    phone = Phone(browser, files_server, st, seat=RED)
    page = phone.page
    page.wait_for_selector(".cost")
    assert page.inner_text(".cost") == ("Costs 4 amulets, that is 4 points at the end. You have 5.")
    before = st.hands[RED]
    tap_until(page, '[data-action=\'{"type":"swap"}\']', "document.querySelector('.swapped')")
    assert st.amulets[RED] == 1 and len(st.hands[RED]) == len(before) == 4
    assert page.inner_text(".swapped") == "You swapped your hand for 4 amulets. Your new hand:"
    shown = [int(c) for c in page.inner_text(".hand.new").split()]
    assert shown == st.hands[RED]
    while st.phase == "swap":  # Blue (a bot) decides
        phone.others(BLUE, {"type": "keep"})
    wait_until(page, "document.body.dataset.phase === 'choose'")
    assert "Your new hand" in phone.text()
    played = [int(c) for c in page.inner_text(".hand.new").split()]
    assert played == st.hands[RED] and page.query_selector_all(".hand.new .card-button")
    screenshot(page, "phone-after-swap")
    phone.no_errors()


# -- 8. moving a placed viking ---------------------------------------------------------------------


def count_at(page: Any, place: str) -> str:
    box = page.query_selector(f"[data-place='{place}'] .dest-count")
    return box.inner_text().strip() if box else ""


def test_a_placed_viking_moves_with_two_taps(browser: Any, files_server: ServerProcess) -> None:
    st = new_game(4)
    phone = Phone(browser, files_server, st, seat=RED)
    page = phone.page
    page.wait_for_selector("[data-dest=A]")
    home = st.home[RED]
    for n in range(1, home + 1):
        page.tap("[data-dest=A]")
        phone.settle()
        assert count_at(page, "A") == f"{TIMES}{n}"
    assert "All placed" in page.inner_text(".plan-status")
    # every viking is placed and they all stand on A: a tap on B moves one there at once
    page.tap("[data-dest=B]")
    phone.settle()
    assert st.plans[RED] == {"A": home - 1, "B": 1}
    # pick one up (the count beside it), then put it down
    page.tap("[data-place=A] .dest-count")
    phone.settle()
    assert "Moving a viking from field A" in page.inner_text(".plan-status")
    page.tap("[data-dest=C]")
    phone.settle()
    assert st.plans[RED] == {"A": home - 2, "B": 1, "C": 1}
    # a tap on an empty place when vikings stand on several: which one goes there?
    page.tap("[data-dest=D]")
    phone.settle()
    assert "Which viking goes to field D?" in page.inner_text(".plan-status")
    page.tap("[data-dest=B]")
    phone.settle()
    assert st.plans[RED] == {"A": home - 2, "C": 1, "D": 1}
    # onto a siege field, then a second one there: one per siege field, refused at once
    ram = siege(BLUE, "ram")
    page.tap("[data-place=A] .dest-count")
    phone.settle()
    page.tap(f"[data-dest='{ram}']")
    phone.settle()
    assert st.plans[RED] == {"A": home - 3, "C": 1, "D": 1, ram: 1}
    page.tap("[data-place=A] .dest-count")
    phone.settle()
    page.tap(f"[data-dest='{ram}']", force=True)  # greyed out, but a player may still tap it
    page.wait_for_selector(".toast-error")
    assert "one per siege field" in page.inner_text(".toast")
    assert st.plans[RED] == {"A": home - 3, "C": 1, "D": 1, ram: 1}
    assert phone.refused == []
    assert [a["type"] for a in phone.actions()[home:]] == ["unplace", "place"] * 4
    page.tap("#commit")
    wait_until(page, "document.querySelector('#commit') === null")
    assert st.committed[RED]
    phone.no_errors()


# where each place of the planning board stands on the page, and how tall it is
PLACES = """() => [...document.querySelectorAll('.dest')].map((dest) => {
  const box = dest.getBoundingClientRect();
  return [dest.dataset.place, box.top + scrollY, box.height];
})"""


def test_a_viking_placed_or_taken_back_moves_no_place_on_the_board(
    browser: Any, files_server: ServerProcess
) -> None:
    """A place's first viking brings its count and take-back (R3.1: vikings on fields, one per
    siege field); their room is held while no viking stands there, so a tap moves no place
    under the player's thumb, on the fields or under the siege fields."""
    st = new_game(4)
    phone = Phone(browser, files_server, st, seat=RED)
    page = phone.page
    page.wait_for_selector("[data-dest=A]")
    before = page.evaluate(PLACES)
    ram = siege(BLUE, "ram")
    for place in ("A", ram):
        page.tap(f"[data-dest='{place}']")
        phone.settle()
    assert st.plans[RED] == {"A": 1, ram: 1}
    assert count_at(page, "A") == f"{TIMES}1"
    assert page.evaluate(PLACES) == before
    page.tap(f"[data-place='{ram}'] .take-back")
    phone.settle()
    assert st.plans[RED] == {"A": 1}
    assert page.evaluate(PLACES) == before
    # where no viking stands, its count and take-back are neither seen nor tapped
    assert not page.is_visible(f"[data-place='{ram}'] .dest-count")
    assert not page.is_visible("[data-place=B] .take-back")
    phone.no_errors()


def test_a_move_the_table_refuses_puts_the_viking_back_and_says_why(
    browser: Any, files_server: ServerProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move is two steps: the viking taken up, then put down. When the table refuses the
    second (the host paused the game in between, say), the phone puts the viking back where it
    stood, and the reason stays on the screen over that step of its own."""
    st = new_game(4)
    phone = Phone(browser, files_server, st, seat=RED)
    page = phone.page
    page.wait_for_selector("[data-dest=A]")
    page.tap("[data-dest=A]")
    phone.settle()
    apply = EketorpState.apply

    def paused_before_b(state: EketorpState, seat: int | None, action: dict[str, Any]) -> None:
        if action == {"type": "place", "to": "B"}:
            raise IllegalAction("paused", "The game is paused.")
        apply(state, seat, action)

    monkeypatch.setattr(EketorpState, "apply", paused_before_b)
    page.tap("[data-place=A] .dest-count")
    phone.settle()
    page.tap("[data-dest=B]")
    phone.settle()
    assert [a["type"] for a in phone.actions()[-3:]] == ["unplace", "place", "place"]
    assert phone.refused == ["paused"]
    assert st.plans[RED] == {"A": 1}  # back where it stood
    assert count_at(page, "A") == f"{TIMES}1"
    assert "The game is paused." in page.inner_text(".toast-error")
    phone.no_errors()


# -- 10. the 360x640 planning screen breathes ------------------------------------------------------


# what in a planning place reaches outside its box
SPILLED = """() => [...document.querySelectorAll('.dest')].flatMap((dest) => {
  const box = dest.getBoundingClientRect();
  return [...dest.querySelectorAll('*')].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.left < box.left - 0.5 || r.right > box.right + 0.5
      || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5;
  }).map((el) => `${dest.dataset.place} ${el.className}`);
})"""


def test_the_planning_screen_leaves_room_on_a_360x640_phone(
    browser: Any, files_server: ServerProcess
) -> None:
    st = new_game(4)
    for owner in (BLUE, YELLOW, GREEN):
        set_castle(st, owner, [["grass", "wood"], ["clay"], [], ["wood"], [], []])
    phone = Phone(browser, files_server, st, seat=RED)
    page = phone.page
    page.wait_for_selector(".plan-head")
    page.evaluate("window.scrollTo(0, 700)")  # while scrolling, only this stays on screen
    fixed = page.evaluate(
        """() => ['.topbar', '.plan-head', '.athand']
                 .map((s) => document.querySelector(s).getBoundingClientRect().height)"""
    )
    assert sum(fixed) <= 0.3 * 640, fixed
    chips = page.evaluate(
        """() => [...document.querySelectorAll('.siege-row .stone:not(.none)')]
                 .map((el) => el.getBoundingClientRect().width)"""
    )
    assert len(chips) == 3 * 4 and min(chips) >= 16, chips  # 4 stones on each of 3 castles
    # each place holds what it shows, nothing spills onto its neighbours: also a siege field with
    # a viking on it (its count and take-back beside it), the narrowest
    assert len(page.query_selector_all(".dest")) == 7 + 3 * 3 + 1
    assert page.evaluate(SPILLED) == []
    page.tap(".siege-row [data-dest]")
    phone.settle()
    assert page.query_selector(".siege-row .dest-count") is not None
    assert page.evaluate(SPILLED) == []
    no_wider_than_the_phone(page)
    screenshot(page, "phone-planning-360-scrolled")
    phone.no_errors()


# -- 11. small things ------------------------------------------------------------------------------


def test_the_language_menu_and_the_material_card_fit(
    browser: Any, files_server: ServerProcess
) -> None:
    st = new_game(4, deck="physical")
    assert st.phase == "materials" and st.active_seats() == [RED]
    phone = Phone(browser, files_server, st, seat=RED, lang="nl")
    page = phone.page
    page.wait_for_selector(".entry-row")
    # the whole language name shows ("Nederlands", not "Nederlar")
    room = page.evaluate(
        """() => {
             const select = document.querySelector('.lang-switch');
             const probe = document.createElement('span');
             probe.style.font = getComputedStyle(select).font;
             probe.textContent = select.selectedOptions[0].textContent;
             document.body.append(probe);
             const need = probe.getBoundingClientRect().width;
             probe.remove();
             return [select.getBoundingClientRect().width, need];
           }"""
    )
    assert room[0] >= room[1] + 16, room  # the text and the arrow
    rows = page.evaluate(
        """() => [...document.querySelectorAll('.entry-row')]
                 .map((r) => r.getBoundingClientRect().height)"""
    )
    assert len(rows) == 7 and max(rows) < 50 and max(rows) - min(rows) < 1, rows  # one line each
    page.tap("[data-field=C] .entry-add >> nth=1")
    wait_until(page, COUNT_C.format(1))
    page.tap("[data-field=C] .entry-add >> nth=1")
    wait_until(page, COUNT_C.format(2))
    assert st.card_draft == {"C": ["wood", 2]}
    page.tap("[data-field=C] .entry-remove")
    wait_until(page, COUNT_C.format(1))
    no_wider_than_the_phone(page)
    screenshot(page, "phone-nl-materials")
    phone.no_errors()


# -- 7. the rules help -----------------------------------------------------------------------------


def test_the_help_says_how_to_win_and_points_to_the_rulebook(
    browser: Any, files_server: ServerProcess
) -> None:
    phone = Phone(browser, files_server, new_game(4), seat=RED, lang="nl")
    page = phone.page
    page.tap("button[aria-label='Hulp bij de regels']")
    sheet = page.inner_text(".sheet")
    assert "planbord" in sheet and "Zo win je" in sheet and "18 stenen" in sheet
    assert "docs/" not in sheet and "gedrukte spelregels uit de doos" in sheet
    assert len(page.query_selector_all(".sheet .legend .stone")) == 4
    phone.no_errors()


# -- building: the host builds only for players whose phone is gone ------------------------------


def test_the_host_is_not_asked_to_build_for_bots(browser: Any, files_server: ServerProcess) -> None:
    st = new_game(4)
    clear_fields(st)
    set_field(st, "A", grass=3)
    plan(st, {RED: {"A": 1}, BLUE: {"A": 1}, YELLOW: {"A": 1}})
    while st.phase == "sharing":
        seat = st.active_seats()[0]
        st.apply(seat, st.legal_actions(seat)[0])
    assert st.phase == "building" and st.active_seats() == [RED, BLUE, YELLOW]
    phone = Phone(browser, files_server, st, seat=RED)  # the host; Blue and Yellow are bots
    page = phone.page
    page.wait_for_selector(".castle-build")
    assert "Build for" not in phone.text()  # bots build by themselves
    phone.away = {YELLOW}  # Yellow is a player whose phone went away
    phone.push()
    page.wait_for_selector("text=Build for ■ Carla")
    assert "Build for ● Bot ●" not in phone.text()
    phone.no_errors()


# -- 9. fewer taps in a fight ------------------------------------------------------------------


def test_one_tap_puts_a_card_down_and_a_slip_can_be_taken_back(
    browser: Any, files_server: ServerProcess
) -> None:
    st = new_game(4)
    clear_fields(st)
    plan(st, {RED: {"A": 1}, BLUE: {"A": 1}})
    set_hand(st, RED, [1, 2, 5, 6])
    set_hand(st, BLUE, [3, 3, 4, 4])
    st.apply(RED, {"type": "fight", "field": "A", "opponent": BLUE})
    assert st.phase == "swap" and st.active_seats() == [RED]
    phone = Phone(browser, files_server, st, seat=RED)
    page = phone.page
    # the card choice screen itself, with the swap on it: no tap for "keep my hand"
    page.wait_for_selector(".card-button")
    assert "Swap all 4 cards" in phone.text()
    page.tap(".card-button >> text='1'")  # a slip of the finger
    phone.settle()
    assert phone.actions() == [{"type": "keep"}]  # the hand is kept; Blue may swap next
    phone.others(BLUE, {"type": "keep"})
    wait_until(page, "document.querySelector('[data-action=\\'{\"type\":\"take_back\"}\\']')")
    phone.settle()
    assert phone.actions()[-1] == {"type": "play", "card": 1}  # it went down by itself
    page.tap('[data-action=\'{"type":"take_back"}\']')  # Blue's card is not down yet
    phone.settle()
    assert phone.actions()[-1] == {"type": "take_back"} and st.hands[RED] == [1, 2, 5, 6]
    page.tap(".card-button >> text='6'")
    phone.settle()
    phone.others(BLUE, {"type": "play", "card": 3})
    assert st.last_fight is not None and st.last_fight["cards"] == [6, 3]
    assert phone.refused == []
    phone.no_errors()


# -- 10. what a player needs to decide ---------------------------------------------------------

SIDE_OPACITY = """() => [...document.querySelectorAll('.castle-build .site')].map((site) => [
  getComputedStyle(site.querySelector('.site-button')).opacity,
  [...site.querySelectorAll('.stone')].map((s) => [s.classList.contains('ghost'),
    getComputedStyle(s).opacity])])"""


def test_defending_shows_the_own_castle_and_building_labels_the_sides(
    browser: Any, files_server: ServerProcess
) -> None:
    st = new_game(3)
    clear_fields(st)
    set_field(st, "A", grass=2)
    set_castle(st, RED, [["wood"], [], ["clay", "grass"], [], [], ["stone"]])
    phone = Phone(browser, files_server, st, seat=RED)
    page = phone.page
    # the planning board's "defend your castle" shows the castle each siege field attacks
    page.wait_for_selector("[data-place='castle'] .own-side")
    sides = page.query_selector_all("[data-place='castle'] .own-side")
    assert [s.get_attribute("data-side") for s in sides] == ["catapult", "boat", "ram"]
    assert [s.inner_text().split() for s in sides] == [
        ["catapult", "2", "1", "·", "2"],
        ["boat", "3", "1", "3", "·", "4"],
        ["ram", "·", "5", "4", "6"],
    ]
    for _ in range(2):
        st.apply(RED, {"type": "place", "to": "A"})
    plan(st, {})  # Red takes the two grass home: building
    assert st.phase == "building" and st.active_seats() == [RED]
    phone.push()
    page.wait_for_selector(".castle-build .build-side")
    labels = [b.inner_text().strip() for b in page.query_selector_all(".build-side")]
    assert labels == ["catapult", "boat", "ram"]
    # the stones already built stand full; only the proposal is faint
    for button, stones in page.evaluate(SIDE_OPACITY):
        assert button == "1"
        for ghost, opacity in stones:
            assert (float(opacity) < 1) == ghost
    phone.no_errors()


def test_a_stand_in_s_unfinished_plan_offers_the_phone_no_move(
    browser: Any, files_server: ServerProcess
) -> None:
    # the bot standing in for Red has placed every viking, not yet committed
    st = new_game(4)
    phone = Phone(browser, files_server, st, seat=RED)
    for _ in range(st.home[RED]):
        st.apply(RED, {"type": "place", "to": "A"})
    phone.stand_ins.add(RED)
    phone.push()
    wait_until(phone.page, "document.querySelector('#take-seat-back') !== null")
    enabled = "[data-action]:not([disabled]), #commit:not([disabled]), .take-back:not([disabled])"
    assert phone.page.query_selector_all(enabled) == []
    phone.no_errors()
