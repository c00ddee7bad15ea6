"""With 3 players the table display uses the whole screen (issue 12, item 7): the material
fields take the quarter the castles leave free, drawn as tiles as the board draws them."""

from __future__ import annotations

from typing import Any

import pytest

from ..support import Phone, ServerProcess
from .conftest import Watched, wait_until

pytestmark = pytest.mark.slow

SLOW = 120.0  # seconds: only a stuck page or server takes this long

BOXES = """() => {
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.width, r.height];
  };
  const middle = document.querySelector('.castles');
  return {
    middle: box(middle),
    castles: [...middle.querySelectorAll('.castle')].map(box),
    fields: [...middle.querySelectorAll('.board-fields')].map(box),
    tiles: [...middle.querySelectorAll('.board-fields .field')].map((f) => f.dataset.field),
    left_fields: document.querySelectorAll('.left .fields-panel').length,
  };
}"""


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_three_castles_and_the_fields_fill_the_middle(
    browser: Any, server: ServerProcess, size: tuple[int, int]
) -> None:
    lobby = Phone(server.url).connect()
    code = lobby.latest["table"]["code"]  # type: ignore[index]
    lobby.disconnect()
    host = Phone(server.url, {"code": code}, name="Anna").connect()
    assert host.join("Anna")["ok"]
    for bot in ("greedy", "random"):
        assert host.command("add_bot", bot=bot)["ok"]
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="en")
    table = Watched(context.new_page(), "table display")
    page = table.page
    page.goto(server.url + "/")
    assert host.command("start")["ok"]
    wait_until(page, "document.body.dataset.phase === 'planning'", timeout=SLOW)
    found = page.evaluate(BOXES)
    assert found["left_fields"] == 0 and found["tiles"] == list("ABCDEFG")
    (fields,) = found["fields"]
    castle_area = found["castles"][0][2] * found["castles"][0][3]
    # the fourth quarter holds the fields, as large as a castle: no quarter left empty
    assert fields[2] * fields[3] >= 0.8 * castle_area
    used = sum(w * h for _, _, w, h in found["castles"]) + fields[2] * fields[3]
    assert used >= 0.85 * found["middle"][2] * found["middle"][3]
    assert table.errors == []
    host.disconnect()
    context.close()
