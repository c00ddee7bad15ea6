"""Vikings on Board at the table: what a whole game with three phones found, each checked on the
real pages at the moment it happens (a game set up at that phase, not played to it)."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from longhall.server.games.vikings_on_board import VikingsState
from longhall.server.games.vikings_on_board import rules as R

from ..games.vikings_on_board.helpers import (
    BLUE,
    GREEN,
    RED,
    arrange,
    end_turn_with_stern,
    go,
    make_active,
    new_game,
    piece,
    reckon,
    set_prow,
)
from ..support import ServerProcess
from .conftest import Watched, open_phone, screenshot, tap_until, wait_until
from .games_driver import VobPage
from .test_table_display import MEASURE

pytestmark = pytest.mark.slow

Q, X = "\u2019", "\u00d7"  # the pages' apostrophe and multiplication sign


def all_sailed(st: VikingsState, seat: int) -> None:
    """Every hull piece of ``seat``'s colour has left the harbour on drakkars 0 and 1."""
    mine = [st.colours[seat] * R.HULL_PIECES + k for k in range(R.HULL_PIECES)]
    arrange(st, {0: mine[:3], 1: mine[3:]})
    st.sailed, st.sterns = [0, 1], R.DRAKKARS - 3


def test_with_no_hull_piece_in_port_the_phone_gives_the_true_reason(
    browser: Any, files_server: ServerProcess
) -> None:
    # V2.2, V3.2, V3.3: Promotion and Change drakkar are impossible because none of the player's
    # hull pieces is left in port, not because they stand at their prows or lack room
    st = new_game(3)
    all_sailed(st, 0)
    make_active(st, 0)
    phone = VobPage(browser, files_server, st, 0)
    for building in ("promotion", "change_drakkar"):
        verdict = phone.text(f".vob-choice[data-building={building}] .verdict")
        assert verdict == "not possible: none of your hull pieces is left in port", verdict
    # where pieces are in port, the reason stays the one that holds
    assert "no other drakkar has room" not in phone.text(".vob-choice[data-building=move]")
    phone.no_errors()
    phone.close()


def rect(page: Any, selector: str) -> dict[str, float]:
    box = page.query_selector(selector).bounding_box()
    assert box is not None, selector
    return dict(box)


def apart(a: dict[str, float], b: dict[str, float]) -> bool:
    """Two boxes that do not overlap."""
    return (
        a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
        or a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
    )


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_the_away_and_stand_in_banners_cover_nothing_of_the_board(
    browser: Any, files_server: ServerProcess, size: tuple[int, int]
) -> None:
    # Bram's phone is gone and a bot plays for Carla: it is said at the foot of the table display,
    # and covers neither the market nor the piles' line; nor does the stand-in's line alone
    st = new_game(3)
    table = VobPage(browser, files_server, st, None, size=size, away={1}, stand_ins={2})
    page = table.page
    banner = table.text(".away-banner")
    assert "Bram: phone gone" in banner and "Carla: a bot plays for now" in banner
    for banner, away in ((".away-banner", {1}), (".standin-banner", set())):
        table.table_args["away"] = away
        table.show()
        for part in (".vob-market", ".vob-market p", ".vob-harbour", ".vob-todo"):
            assert apart(rect(page, banner), rect(page, part)), (banner, part)
        assert rect(page, banner)["y"] + rect(page, banner)["height"] <= size[1]
    table.no_errors()
    table.close()


def test_choosing_vikings_on_board_asks_nobody_who_starts_and_tells_of_a_changed_colour(
    browser: Any, server: ServerProcess
) -> None:
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en")
    table = Watched(context.new_page(), "table display")
    table.page.goto(server.url + "/")
    table.page.wait_for_selector("#join-url")
    phone = open_phone(browser, table.page.inner_text("#join-url"), "Anna", "en")
    host = phone.page
    host.tap("details.profile summary")  # Anna takes white, a castle Vikings on Board has not
    tap_until(
        host,
        ".profile .swatch.colour-white",
        "!!document.querySelector('.swatch.chosen.colour-white')",
    )
    tap_until(host, "[data-bot=greedy]", "document.querySelectorAll('.seat-row').length === 2")
    # Eketorp asks who starts (R1.4: the oldest player)
    wait_until(table.page, "document.querySelectorAll('.seats.big li').length === 2")
    assert host.query_selector(".tag.start") and table.page.query_selector(".tag.start")
    assert "choose who starts" in host.inner_text("#app")

    vikings = "document.querySelector('[data-game=vikings_on_board].chosen')"
    tap_until(host, "[data-game=vikings_on_board]", vikings)
    wait_until(
        table.page, "document.querySelector('.game-facts').dataset.game === 'vikings_on_board'"
    )
    # V1.2: the first player is drawn, so nobody is asked or shown as starting
    assert host.query_selector(".tag.start") is None
    assert table.page.query_selector(".tag.start") is None
    assert "Starts" not in [b.inner_text() for b in host.query_selector_all(".seat-row button")]
    assert "Vikings on Board draws who starts." in host.inner_text("#app")
    # the colour Anna chose is not in this game: she is told which she plays, and so is the table
    said = "Vikings on Board has no white: you play blue in it."
    assert host.inner_text(".recoloured") == f"{said} Choose another colour below if you like."
    wait_until(table.page, "!!document.querySelector('.recoloured')")
    assert (
        table.page.inner_text(".recoloured")
        == "Vikings on Board has no white: ● Anna plays blue in it."
    )

    # back to Eketorp: white is hers again, and nothing more is said
    tap_until(
        host, "[data-game=eketorp]", "!!document.querySelector('.swatch.chosen.colour-white')"
    )
    assert host.query_selector(".recoloured") is None
    wait_until(table.page, "!document.querySelector('.recoloured')")
    assert phone.errors == [] and table.errors == []
    host.context.close()
    context.close()


def test_the_phone_names_a_chosen_piece_s_drakkar_and_the_table_says_to_move_a_viking_back(
    browser: Any, files_server: ServerProcess
) -> None:
    st = new_game(3)  # Anna red ▲, Bram green ◆, Carla blue ●
    table = VobPage(browser, files_server, st, None)
    anna = VobPage(browser, files_server, st, RED)

    # Anna chooses Change drakkar and a piece: her phone says which drakkar it is in (V3.3)
    go(st, RED, "change_drakkar")
    mine = piece(RED, 0)
    st.apply(RED, {"type": "pick_piece", "piece": mine})
    anna.show()
    where = st.locate(mine)
    assert where is not None
    assert anna.text(".vob-prompt .chosen") == (
        f"Chosen: red{Q}s 1-shield hull piece, in drakkar {where + 1}"
    )
    # she goes back: her viking stood on the building, and the table says to move it back
    origin = R.BUILDINGS[st.step["from"]] if st.step else ""
    anna.page.tap("text=Choose another building")
    wait_until(anna.page, "document.body.dataset.phase === 'turn'")
    table.show()
    named = {"first_player": "First player", "promotion": "Promotion", "tavern_1": "Tavern 1"}
    assert table.text(".vob-todo li.newest") == (
        f"▲ Anna{Q}s viking goes back from Change drakkar to {named[origin]}: move it back."
    )

    for page in (table, anna):
        page.no_errors()
        page.close()


def test_a_sailing_is_read_at_once_and_moved_on_by_the_player_who_sailed(
    browser: Any, files_server: ServerProcess
) -> None:
    st = new_game(3)  # Anna red ▲, Bram green ◆, Carla blue ●
    table = VobPage(browser, files_server, st, None)
    anna = VobPage(browser, files_server, st, RED)
    bram = VobPage(browser, files_server, st, GREEN)

    # V4.2, V4.3 (example C): drakkar 5 sails; Bram bet on blue, which leads
    arrange(st, {4: [piece(BLUE, 4), piece(RED, 0), piece(GREEN, 2), piece(RED, 2)]})
    set_prow(st, 4, ["grain", "furs"])
    st.hands[GREEN].remove(2)
    st.quay[4][BLUE] = GREEN * R.BARRELS + 2
    end_turn_with_stern(st, RED)
    st.apply(RED, {"type": "sail", "drakkar": 4})
    for page in (table, anna, bram):
        page.show()
    # the whole reckoning at once: the table reads it before anyone moves on
    status = table.text(".vob-status")
    assert "● Carla 3" in status and "▲ Anna 3" in status and "◆ Bram 2" in status
    assert f"◆ Bram{Q}s barrel on blue is won back." in status
    for symbol in "▲◆●":
        assert f"{symbol} {symbol}" not in status, status
    assert table.text(".vob-next-hint").strip() == (
        f"NEXT: hand out the chests. From ▲ Anna{Q}s phone, once everyone has read it."
    )
    # only the phone of the player who sailed moves the table on; the others say who will
    assert bram.page.query_selector("#vob-next") is None
    assert "▲ Anna hands out the chests with NEXT once everyone has read this." in bram.text()
    anna.page.tap("#vob-next")
    wait_until(anna.page, "document.body.dataset.phase === 'share'")
    assert [c["action"] for c in anna.commands if c["type"] == "table"] == [{"type": "next"}]
    for page in (table, anna, bram):
        page.no_errors()
        page.close()


def test_after_the_last_sailing_the_table_keeps_its_instructions_beside_the_scores_in_rank_order(
    browser: Any, files_server: ServerProcess
) -> None:
    st = last_sailing_over(3)
    table = VobPage(browser, files_server, st, None)
    # the last sailing's instructions stay: Anna takes the two chests of drakkar 7
    sailing = table.text(".vob-sailing")
    assert "Drakkar 7 sails" in sailing
    assert "▲ Anna takes the 2 chests left on the prow, face down." in sailing
    assert table.page.query_selector(".vob-todo li") is not None
    # the scores best first (V5.3: equal totals, more chests), each cell written the same way
    scores = st.scores()
    chests = [len(c) for c in st.chests]
    ranked = sorted(range(3), key=lambda s: (-scores[s]["total"], -chests[s], s))
    rows = table.page.query_selector_all(".scores tbody tr")
    assert [int(r.get_attribute("data-seat") or -1) for r in rows] == ranked
    cells = [c.inner_text() for r in rows for c in r.query_selector_all("td")]
    for seat, row in zip(ranked, rows, strict=True):
        b = scores[seat]["breakdown"]
        texts = [c.inner_text() for c in row.query_selector_all("td")]
        for k, kind in enumerate(("furs", "grain", "metal")):
            value = st.market[kind]
            assert texts[1 + k] == f"{b[kind]['count']} {X} {value} = {b[kind]['points']}"
        count = b["barrels"]["count"]
        assert texts[4] == f"{count} barrel{'' if count == 1 else 's'}: {b['barrels']['points']}"
    assert not any(c.endswith(f"{X}") or f"{X} " in c[:2] for c in cells), cells
    # each cell and name reads on one line, nothing cut inside a word
    assert table.page.evaluate(SPLIT_WORDS, ".scores tbody") == []
    screenshot(table.page, "vob-table-final-board")
    table.no_errors()
    table.close()
    # four players in German on a 1280x720 table display: everything fits and reads
    table = VobPage(browser, files_server, last_sailing_over(4), None, lang="de", size=(1280, 720))
    # measured once the page's fonts are in and its layout has settled (a busy machine may
    # draw a first frame with a stand-in font)
    table.page.evaluate("document.fonts.ready.then(() => true)")
    with contextlib.suppress(TimeoutError):
        wait_until(table.page, f"({MEASURE})().then((problems) => problems.length === 0)")
    assert table.page.evaluate(MEASURE) == []
    table.no_errors()
    table.close()


def last_sailing_over(players: int) -> VikingsState:
    """A game just over: Anna sailed the 7th drakkar and took its two chests (V5.1); Carla holds
    three chests, Bram a barrel won back."""
    st = new_game(players)
    arrange(st, {6: [piece(RED, 4)]})
    set_prow(st, 6, ["metal", "furs"])
    st.sailed, st.sterns = [0, 1, 2, 3, 4, 5], 1
    st.chests[BLUE] = [st.piles[1].pop(), st.piles[1].pop(), st.piles[1].pop()]
    st.won[GREEN] = [st.hands[GREEN].pop()]
    end_turn_with_stern(st, RED)
    st.apply(RED, {"type": "sail", "drakkar": 6})
    reckon(st)
    assert st.phase == "over"  # V5.1: the 7th drakkar sailed
    return st


# Every word of the elements ``selector`` picks that the page split over two lines.
SPLIT_WORDS = """(selector) => {
  const split = [];
  for (const el of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) split.push(m[0]);
      }
    }
  }
  return split;
}"""


@pytest.mark.parametrize("lang", ["fr", "nl", "de"])
def test_building_names_never_break_inside_a_word(
    browser: Any, files_server: ServerProcess, lang: str
) -> None:
    # the village on a 1280x720 table display, and the buildings on a 390 px phone
    st = new_game(4)
    table = VobPage(browser, files_server, st, None, lang=lang, size=(1280, 720))
    assert table.page.evaluate("document.documentElement.lang") == lang
    assert table.page.evaluate(SPLIT_WORDS, ".vob-bname") == []
    village = "document.querySelector('.vob-buildings')"
    assert table.page.evaluate(f"{village}.scrollWidth <= {village}.clientWidth")
    table.close()
    phone = VobPage(browser, files_server, st, st.active_seats()[0], lang=lang)
    assert phone.page.evaluate(SPLIT_WORDS, ".vob-choice strong, .vob-choice .effect") == []
    phone.no_errors()
    phone.close()


# the harbour's drakkars, where each is on the screen
DRAKKAR_TOPS = (
    "[...document.querySelectorAll('.vob-drakkar')].map((d) => d.getBoundingClientRect().top)"
)


@pytest.mark.parametrize("scrolled", [0, 250, 450])
def test_a_piece_tapped_in_the_harbour_leaves_the_harbour_under_the_finger(
    browser: Any, files_server: ServerProcess, scrolled: int
) -> None:
    # V3.3: Anna taps the hull piece to move, then the drakkar it goes to. The answer to the first
    # tap adds lines above the harbour (the next step's prompt, "Chosen: ..."); the harbour stays
    # where it was on the screen for her second tap, and, with the page at its top, the new lines
    # are in view. Scrolled 450 px, the prompt is above the view and the browser's own scroll
    # anchoring holds the harbour: the page must not move it a second time
    st = new_game(3)
    go(st, RED, "change_drakkar")
    anna = VobPage(browser, files_server, st, RED)
    page = anna.page
    page.evaluate(f"window.scrollTo(0, {scrolled})")
    before = page.evaluate(DRAKKAR_TOPS)
    in_view = page.evaluate(
        "[...document.querySelectorAll('.vob-piece.tap')].findIndex((p) => {"
        " const r = p.getBoundingClientRect(); return r.top > 100 && r.bottom < 700; })"
    )
    assert in_view >= 0
    page.locator(".vob-piece.tap").nth(in_view).tap()
    wait_until(page, "document.querySelector('.vob-prompt .chosen') !== null")
    assert st.step is not None and st.step["piece"] is not None  # the tap was taken
    after = page.evaluate(DRAKKAR_TOPS)
    assert all(abs(a - b) < 1 for a, b in zip(before, after, strict=True)), (before, after)
    if not scrolled:  # what the answer added is on the screen, below the bar at the top
        chosen = rect(page, ".vob-prompt .chosen")
        assert chosen["y"] >= rect(page, ".topbar")["height"]
        assert chosen["y"] + chosen["height"] <= 844
    anna.no_errors()
    anna.close()
