"""A page's first load asks for each file once: what its ``<head>`` preloads (the modules,
tests/test_preloads.py, and the English catalog every page falls back on) is the very response the
page's own code then uses, not a second download beside it. A phone in Dutch loads its own
catalog too, and shows the join form in Dutch."""

from __future__ import annotations

import json
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
