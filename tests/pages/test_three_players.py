"""With 3 players the table display uses the whole screen: no left column and
no empty quarter, larger castles, and in the fourth quarter the middle of the board drawn as the
board draws it: the material fields A-G as squares with their stones and vikings on them, and the
field hospital's stations beside them (R0.9). With 4 to 6 players the screen stays as it was.

The table display is shown crowded tables built with the real engine (stones left on the fields
under a new card's, every castle with stacks, vikings in the hospital and on every kind of place)
through the stand-in for its Socket.IO client, and measured in four languages at both sizes."""

from __future__ import annotations

from typing import Any

import pytest

from longhall.server.games.eketorp import EketorpState
from longhall.server.games.eketorp import rules as R

from ..games.eketorp.helpers import clear_fields, new_game, plan, set_castle, set_field, siege
from ..support import ServerProcess
from .conftest import ARTIFACTS, screenshot
from .phone_driver import TableDisplay
from .test_table_display import LANGUAGES, MEASURE, SIZES

pytestmark = pytest.mark.slow

STACKS = [
    ["clay", "wood", "wood"],
    ["wood", "grass", "grass"],
    ["grass"],
    [],
    ["wood", "wood"],
    ["grass", "wood", "grass"],
]


def crowded(players: int) -> EketorpState:
    """A table in the fights of a late round: every field with stones left from earlier rounds
    (clay and stone stay, R7.2) under the new card's, vikings on most fields, sieges, defenders,
    and vikings on each station of the field hospital."""
    st = new_game(players, seed=players)
    clear_fields(st)
    set_field(st, "A", wood=3, stone=1, clay=1)
    set_field(st, "B", grass=4)
    set_field(st, "C", clay=2, stone=1, grass=3)
    set_field(st, "E", wood=1)
    set_field(st, "F", grass=2)
    set_field(st, "G", clay=1)
    for seat in range(players):
        set_castle(st, seat, STACKS)
        st.hospital[seat] = [1, 1, 1]  # wounded in earlier rounds (R5.10)
        st.home[seat] -= 3
    plans = {}
    for seat in range(players):
        free = st.home[seat]
        wanted = {"A": 2, "C": 1, "F": 1, siege((seat + 1) % players, "boat"): 1}
        while sum(wanted.values()) > free:  # 6 players have fewer vikings (R0.2)
            wanted.popitem()
        plans[seat] = wanted
    plan(st, plans)
    assert st.phase == "pick"
    return st


# The boxes of what the middle holds, the field squares with their pieces, the hospital.
BOXES = """() => {
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.width, r.height];
  };
  const middle = document.querySelector('.board > .castles');
  const count = (el, selector) => [...el.querySelectorAll(selector)].reduce((sum, piece) => {
    const group = piece.closest('.group');
    const times = group && group.querySelector('.times');
    return sum + (times ? Number(times.textContent.replace('\u00d7', '')) : 1);
  }, 0);
  const stones = (el) => Object.fromEntries(['grass', 'wood', 'clay', 'stone']
    .map((s) => [s, count(el, '.stone-' + s)]).filter(([, n]) => n));
  return {
    screen: [window.innerWidth, window.innerHeight],
    middle: box(middle),
    left: document.querySelectorAll('.board > .left').length,
    castles: [...middle.querySelectorAll('.castle')].map(box),
    map: [...middle.querySelectorAll('.board-map')].map(box),
    squares: [...middle.querySelectorAll('.board-map .field-square')].map((f) => ({
      field: f.dataset.field,
      box: box(f),
      letter: f.querySelector('.field-letter').textContent,
      stones: stones(f),
      vikings: count(f, '.viking-token'),
    })),
    stations: [...middle.querySelectorAll('.board-map .hospital .station')].map((s) => ({
      box: box(s), vikings: count(s, '.viking-token'),
    })),
    lists: document.querySelectorAll('.fields-panel').length,
  };
}"""


def cover(boxes: list[list[float]], area: list[float]) -> float:
    """The share of ``area`` that the (non-overlapping) ``boxes`` cover."""
    left, top, width, height = area
    inside = 0.0
    for x, y, w, h in boxes:
        dx = min(x + w, left + width) - max(x, left)
        dy = min(y + h, top + height) - max(y, top)
        inside += max(dx, 0) * max(dy, 0)
    return inside / (width * height)


def test_three_castles_and_the_board_fill_the_screen(
    browser: Any, files_server: ServerProcess
) -> None:
    st = crowded(3)
    table = TableDisplay(browser, files_server)
    table.show(st)
    for width, height in SIZES:
        table.page.set_viewport_size({"width": width, "height": height})
        found = table.page.evaluate(BOXES)
        screenshot(table.page, f"table-display-3p-board-{width}")
        # no left column: the castles and the board take the middle and the left
        assert found["left"] == 0
        middle = found["middle"]
        assert middle[0] < 0.02 * width and middle[2] > 0.7 * width
        # four quarters of the middle, each full: three castles and the board
        (board,) = found["map"]
        half_w, half_h = middle[2] / 2, middle[3] / 2
        for qx in (0, 1):
            for qy in (0, 1):
                quarter = [middle[0] + qx * half_w, middle[1] + qy * half_h, half_w, half_h]
                assert cover([*found["castles"], board], quarter) > 0.9, (qx, qy, found)
        # larger castles: each more than a third of the screen wide and 40 % of its height
        for _x, _y, w, h in found["castles"]:
            assert w > width / 3 and h > 0.4 * height, found["castles"]
        # the seven fields as spaces on the board, in rows and columns, with their stones and
        # vikings (and no list of them left anywhere); beside them the hospital's stations
        squares = found["squares"]
        assert found["lists"] == 0
        assert [s["field"] for s in squares] == list(R.FIELDS)
        assert [s["letter"] for s in squares] == list(R.FIELDS)
        for square in squares:
            field = square["field"]
            assert square["stones"] == {k: v for k, v in st.fields[field].items() if v}, square
            assert square["vikings"] == sum(st.board[field]), square
        lefts = {round(s["box"][0]) for s in squares}
        tops = {round(s["box"][1]) for s in squares}
        assert len(lefts) >= 2 and len(tops) >= 2, "the fields are drawn as a list"
        for x, y, w, h in (s["box"] for s in squares):
            assert 0.5 < w / h < 3, "a field is a strip, not a square"
            assert cover([board], [x, y, w, h]) > 0.99
        stations = found["stations"]
        assert [s["vikings"] for s in stations[:3]] == [3, 3, 3]
        assert all(cover([board], s["box"]) > 0.99 for s in stations)
    assert table.watched.errors == []
    table.close()


@pytest.mark.parametrize("players", [3, 4, 6])
def test_a_crowded_table_fits_both_screens_in_every_language(
    browser: Any, files_server: ServerProcess, players: int
) -> None:
    st = crowded(players)
    problems = []
    for lang in LANGUAGES:
        table = TableDisplay(browser, files_server, lang=lang)
        table.show(st)
        for width, height in SIZES:
            table.page.set_viewport_size({"width": width, "height": height})
            shot = f"table-display-{players}p-crowded-{lang}-{width}"
            found = table.page.evaluate(MEASURE)
            if found or lang in ("en", "de"):
                screenshot(table.page, shot)
            problems += [f"{shot}: {problem}" for problem in found[:12]]
        assert table.watched.errors == [], table.watched.errors
        table.close()
    ARTIFACTS.mkdir(exist_ok=True)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:60])


def test_the_vikings_at_home_count_the_castles_defenders(
    browser: Any, files_server: ServerProcess
) -> None:
    """After the reveal every viking stands on the board (R3.1): the castle's defenders are the
    vikings at home, beside the defenders' mark, and not "at home 0"."""
    st = new_game(3)
    plan(st, {0: {"A": 2}, 1: {"A": 2}})  # a fight over A; the rest defend their castles
    table = TableDisplay(browser, files_server)
    table.show(st)
    for seat in range(3):
        defenders = st.board[R.castle_field(seat)][seat]
        assert defenders and st.home[seat] == 0
        castle = f".castle[data-seat='{seat}']"
        at_home = table.page.inner_text(f"{castle} .stats [title='Vikings at home']")
        assert at_home.strip() == str(defenders), (seat, at_home)
        assert len(table.page.query_selector_all(f"{castle} .defenders .viking-token")) in (
            1,  # one token with its count beside it
            defenders,
        )
    assert table.watched.errors == []
    table.close()
