"""A page's first load asks for each file once: what its ``<head>`` preloads (the modules,
tests/test_preloads.py, and the English catalog every page falls back on) is the very response the
page's own code then uses, not a second download beside it. A phone in Dutch loads its own
catalog too, and shows the join form in Dutch."""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import urlparse

import pytest

from ..support import Phone, ServerProcess
from .conftest import PHONE, Watched, wait_until


@pytest.mark.parametrize(
    ("screen", "lang", "ready", "words"),
    [("phone", "nl", "#name", "Je naam"), ("table display", "en", "#join-url", "Scan to join")],
)
def test_a_first_load_fetches_each_file_once(
    browser: Any, server: ServerProcess, screen: str, lang: str, ready: str, words: str
) -> None:
    lobby = Phone(server.url).connect()
    code = lobby.current["table"]["code"]
    lobby.disconnect()
    options = PHONE if screen == "phone" else {"viewport": {"width": 1920, "height": 1080}}
    context = browser.new_context(**options, locale=lang)
    page = context.new_page()
    watched = Watched(page, screen)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(urlparse(request.url).path))
    page.goto(server.url + (f"/join/{code}" if screen == "phone" else "/"))
    page.wait_for_selector(ready)
    wait_until(page, f"document.body.innerText.includes({json.dumps(words)})")
    files = [path for path in asked if not path.startswith(("/socket.io/", "/qr/"))]
    twice = sorted({path for path in files if files.count(path) > 1})
    assert twice == [], f"the {screen} downloaded these twice: {twice}"
    catalogs = {"/static/i18n/en.json", f"/static/i18n/{lang}.json"}
    assert catalogs <= set(files), files
    assert watched.errors == [], watched.errors
    context.close()


# A game's module, imported as the page imports it when that game starts: once it is ready,
# whether every style sheet of the games' folders is in force
GAME_READY = """async (module) => {
  await import(module);
  const sheets = [...document.querySelectorAll("link[rel=stylesheet]")]
    .filter((link) => link.href.includes("/games/"));
  return [sheets.length, sheets.filter((link) => !link.sheet).map((link) => link.href)];
}"""


@pytest.mark.parametrize("screen", ["phone", "table display"])
def test_a_game_is_drawn_only_once_its_style_sheets_are_in_force(
    browser: Any, server: ServerProcess, screen: str
) -> None:
    # The Wi-Fi brings each game's style sheets after its module: the module is ready only once
    # they are here, so the game's first screen is never drawn unstyled (and then moved)
    lobby = Phone(server.url).connect()
    code = lobby.current["table"]["code"]
    lobby.disconnect()
    options = PHONE if screen == "phone" else {"viewport": {"width": 1920, "height": 1080}}
    page = browser.new_context(**options).new_page()

    def slow(route: Any) -> None:
        time.sleep(0.3)
        route.continue_()

    page.route("**/games/*.css", slow)
    page.goto(server.url + (f"/join/{code}" if screen == "phone" else "/"))
    page.wait_for_selector("#name" if screen == "phone" else "#join-url")
    folder = "/phone" if screen == "phone" else "/table"
    for n, game in enumerate(("eketorp", "vikings_on_board", "vikings_gone_wild"), start=1):
        count, unstyled = page.evaluate(GAME_READY, f"{folder}/games/{game}.js")
        assert count >= n and unstyled == [], (game, unstyled)
    page.context.close()
