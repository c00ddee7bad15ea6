"""After the last round the table display says why the game ended and keeps the final board
beside the scores until the host starts a rematch."""

from __future__ import annotations

from typing import Any

import pytest

from ..support import Phone, ServerProcess
from .conftest import Watched, wait_until

pytestmark = pytest.mark.slow

SLOW = 300.0  # seconds: only a stuck game takes this long


def test_the_final_board_stays_beside_the_scores_and_says_why(
    browser: Any, server: ServerProcess
) -> None:
    lobby = Phone(server.url).connect()
    code = lobby.current["table"]["code"]
    lobby.disconnect()
    host = Phone(server.url, {"code": code}, name="Anna").connect()
    assert host.join("Anna")["ok"]
    for bot in ("greedy", "random"):
        assert host.command("add_bot", bot=bot)["ok"]
    assert host.command("botify", seat=0, bot="greedy")["ok"]  # bots play every seat
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en")
    table = Watched(context.new_page(), "table display")
    page = table.page
    page.goto(server.url + "/")
    assert host.command("start")["ok"]
    seen = -1
    while host.current["table"]["status"] != "over":
        view = host.latest
        assert view is not None
        actions = view["game"]["public"]["table_actions"]
        if actions and not view["game"]["public"]["active"]:  # NEXT, pressed from the phone
            host.command("table", action={"type": actions[0]})
        elif view["version"] == seen:
            assert host.changed.wait(SLOW), "the game is stuck"
        seen = view["version"]
        host.changed.clear()
    final = host.latest
    assert final is not None
    public = final["game"]["public"]
    wait_until(page, f"Number(document.body.dataset.version) >= {final['version']}", SLOW)

    reason = page.inner_text(".end-reason")
    if public["result"]["reason"] == "complete":
        castle = public["result"]["castles"][0]
        name = final["table"]["seats"][castle["seat"]]["name"]
        assert f"{name}\u2019s castle holds {castle['stones']} stones" in reason
    else:
        assert reason == (
            "The last material card was played: the game ends after round "
            f"{public['result']['round']}."
        )
    # the final board: every castle, the last build marked, the log, beside the scores
    assert len(page.query_selector_all(".castle")) == 3
    built_last = sum(sum(s["fresh"]) for s in public["seats"])
    assert len(page.query_selector_all(".castle .stone.fresh")) == built_last
    assert page.query_selector_all(".log li")
    ranking = page.inner_text(".scores")
    for seat in final["table"]["seats"]:
        assert seat["name"] in ranking
    # the night so far in a line at the foot: one point per player finished ahead of
    night = final["table"]["night"]
    line = page.inner_text("#night-line")
    for row in night["standings"]:
        assert f"{row['place']}. " in line and row["name"] in line

    assert host.command("start")["ok"]  # the rematch: the board of the new game
    wait_until(page, "document.querySelector('.end-reason') === null", SLOW)
    assert table.errors == []
    host.disconnect()
    context.close()
