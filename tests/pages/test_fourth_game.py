"""A fourth game that exists only in the tests (``tests/fourth_game``: Tally) is played through
the lobby, a real server and both pages, with nothing of Longhall changed to host it.

A game is one package: its engine, its two page modules and its catalogs, registered in the
registry's list. Here the registration is the only line of code outside that folder.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..support import ServerProcess
from .conftest import Watched, open_phone, tap_until, wait_until

pytestmark = pytest.mark.slow


@pytest.fixture
def tally_server(tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(
        tmp_path, "--rate-limit", "1000", "--seed", "7", module="tests.fourth_game.serve"
    )
    proc.start()
    yield proc
    proc.stop()


def test_a_fourth_game_plays_through_the_lobby_and_both_pages(
    browser: Any, tally_server: ServerProcess
) -> None:
    table_context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en")
    table = Watched(table_context.new_page(), "table")
    table.page.goto(tally_server.url + "/")
    table.page.wait_for_selector("#join-url")
    join_url = table.page.inner_text("#join-url")
    anna = open_phone(browser, join_url, "Anna", "en")
    bert = open_phone(browser, join_url, "Bert", "de")
    host = anna.page

    # the lobby offers it, in its own words, with its option drawn by its own module
    tap_until(host, "[data-game=tally]", "document.querySelector('[data-game=tally].chosen')")
    assert "Tally" in host.inner_text("[data-game=tally]")
    tap_until(host, "[data-goal='20']", "document.querySelector('[data-goal=\"20\"].chosen')")
    wait_until(table.page, "document.querySelector('.game-facts').dataset.game === 'tally'")
    wait_until(table.page, "document.querySelector('#tally-goal')?.textContent === 'Goal: 20'")
    tap_until(host, "#start", "document.body.dataset.status === 'playing'")

    # each phone plays from its own hand; the table display shows the tally, never a hand
    pages = [host, bert.page]
    for _ in range(40):
        if table.page.evaluate("document.body.dataset.status") == "over":
            break
        for page in pages:
            wait_until(page, "document.body.dataset.pending !== 'true'")
            if page.query_selector("#tally-turn"):
                version = page.evaluate("document.body.dataset.version")
                moved = f"document.body.dataset.version > {version}"
                tap_until(page, "#tally-hand [data-action]", moved)
    wait_until(table.page, "document.body.dataset.status === 'over'")
    wait_until(table.page, "document.querySelector('#tally-result') !== null")
    assert "reached the goal" in table.page.inner_text("#tally-result")
    assert "Ziel" in bert.page.inner_text("body") or "Gewonnen" in bert.page.inner_text("body")
    # the table display got nobody's hand, in any message
    for _, message in table.messages:
        game = message.get("game")
        assert game is None or game["private"] is None
    for watched in (anna, bert, table):
        assert watched.errors == [], watched.errors
        assert "⟦" not in watched.text()
    table_context.close()
    host.context.close()
    bert.page.context.close()
