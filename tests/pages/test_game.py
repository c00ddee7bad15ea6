"""A whole game of Eketorp through the pages: the table display and three phones in Chromium,
three bots, from the QR code to the final scores, in four languages, with nothing leaking."""

from __future__ import annotations

import contextlib
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
import requests

from longhall.server.games.registry import GAMES
from longhall.server.qr import qr_svg

from ..support import ServerProcess, replay_states
from .conftest import Watched, open_phone, screenshot, tap_until, wait_until

pytestmark = pytest.mark.slow

CLICKABLE = "[data-action]:not([disabled]):not([aria-disabled=true]), [data-table]:not([disabled])"


def settled(page: Any) -> None:
    wait_until(page, "document.body.dataset.pending !== 'true'", timeout=10)


def tap_something(phone: Watched, rnd: random.Random) -> bool:
    """Tap one of the things this phone may do now, as a player would; False if nothing."""
    page = phone.page
    candidates = page.query_selector_all(CLICKABLE)
    # what each offers, read in one look (not one round trip to the browser each)
    offers = page.evaluate(
        "(els) => els.map((e) => [e.getAttribute('data-action'), e.getAttribute('data-table')])",
        candidates,
    )
    choices = []
    for element, (raw, table) in zip(candidates, offers, strict=True):
        kind = json.loads(raw)["type"] if raw else table
        if kind in ("uncommit", "take_back") and rnd.random() > 0.05:
            continue  # now and then a player changes their mind
        choices.append(element)
    if not choices:
        return False
    version = page.evaluate("document.body.dataset.version")
    choice = rnd.choice(choices)
    try:
        choice.tap(timeout=3000)
    except Exception:  # the page redrew under our finger: look again
        return True
    settled(page)
    changed = f"document.body.dataset.version !== '{version}'"
    wait_until(page, f"{changed} || document.body.dataset.pending === 'false'")
    return True


def assert_nothing_leaked(
    pages: list[Watched], seats: dict[str, int | None], db: Path, game_id: int
) -> int:
    """Every game view a page received is exactly its reader's view of the state then."""
    states = replay_states(db, game_id)
    spec = GAMES["eketorp"]
    checked = 0
    for page in pages:
        seat = seats[page.name]
        for _, body in page.messages:
            if body["game"] is None or body["table"]["game_id"] != game_id:
                continue
            expected = json.loads(json.dumps(spec.view(states[body["steps"]], seat)))
            assert body["game"] == expected, f"{page.name} received something else than its view"
            checked += 1
    return checked


@pytest.mark.slow(seconds=80)
def test_a_whole_game_through_the_pages(browser: Any, server: ServerProcess) -> None:
    rnd = random.Random(2)
    table_context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en")
    table = Watched(table_context.new_page(), "table")
    table.page.goto(server.url + "/")
    table.page.wait_for_selector("#join-url")
    join_url = table.page.inner_text("#join-url")
    # the QR code on the table display encodes exactly the address written beside it
    svg = requests.get(server.url + "/qr/join.svg", timeout=5).text
    assert svg == qr_svg(join_url)
    screenshot(table.page, "table-lobby-empty")

    # three players in three languages; one phone is the smallest supported (360x640)
    phones = [
        open_phone(browser, join_url, "Anna", "nl"),
        open_phone(browser, join_url, "Bram", "fr", small=True),
        open_phone(browser, join_url, "Carla", "de"),
    ]
    host = phones[0].page
    for n, bot in enumerate(("greedy", "greedy", "random"), start=4):
        tap_until(
            host, f"[data-bot={bot}]", f"document.querySelectorAll('.seat-row').length === {n}"
        )
    wait_until(table.page, "document.querySelectorAll('.seats li').length === 6")
    screenshot(table.page, "table-lobby")
    screenshot(host, "phone-lobby-host")
    tap_until(host, "#start", "document.body.dataset.status === 'playing'")
    for phone in phones:
        wait_until(phone.page, "document.body.dataset.status === 'playing'")
    seats = {"table": None, "Anna": 0, "Bram": 1, "Carla": 2}

    seen: set[str] = set()
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        status, version = table.page.evaluate(
            "[document.body.dataset.status, document.body.dataset.version]"
        )
        if status == "over":
            break
        for phone in phones:
            phase = phone.page.evaluate("document.body.dataset.phase")
            if phase and phase not in seen and phone is phones[0]:
                seen.add(phase)
                screenshot(phone.page, f"phone-{phase}")
                screenshot(table.page, f"table-{phase}")
        moved = False
        for phone in rnd.sample(phones, len(phones)):
            moved = tap_something(phone, rnd) or moved
        for page in [table, *phones]:
            assert "⟦" not in page.text(), f"a missing translation on {page.name}"
        unmarked, ok, bad = table.page.evaluate(
            "[[...document.querySelectorAll('.castle .plan')]"
            ".filter(plan => !plan.querySelector('.check')).length,"
            " document.querySelectorAll('.check.ok').length,"
            " document.querySelectorAll('.check.bad').length]"
        )
        assert unmarked == 0, "a revealed plan without its fingerprint check"
        table.checked_ok += ok
        table.checked_bad += bad
        if not moved:  # the bots are moving: the table display's next update, not a poll
            with contextlib.suppress(TimeoutError):
                wait_until(table.page, f"document.body.dataset.version !== '{version}'", 0.5)
    else:
        raise AssertionError("the game did not end")

    table.page.wait_for_selector(".scores")
    screenshot(table.page, "table-final")
    # the table display checked every revealed plan and card against its fingerprint
    assert table.checked_ok > 0 and table.checked_bad == 0
    for phone in phones:
        # an event, not a timing: the bound only ends a stuck page (a suite under full load once
        # took more than the default 30 s to draw a phone's final score)
        phone.page.wait_for_selector(".score-card", timeout=120_000)
    screenshot(phones[0].page, "phone-final")
    final = table.page.inner_text(".scores")
    for name in ("Anna", "Bram", "Carla"):
        assert name in final
    # every phase reached Anna's phone: what it was sent, not what a look at its screen happened
    # to catch (under load a phase as short as the round's end can come and go between two looks)
    sent = {body["game"]["public"]["phase"] for _, body in phones[0].messages if body["game"]}
    assert {"planning", "pick", "choose", "building", "round_end"} <= sent

    for page in [table, *phones]:
        assert page.errors == [], f"console errors on {page.name}: {page.errors}"
    game_id = json.loads(json.dumps(table.messages[-1][1]))["table"]["game_id"]
    checked = assert_nothing_leaked(
        [table, *phones], seats, server.data_dir / "longhall.sqlite3", game_id
    )
    assert checked > 200
    # the table display never received a private part
    assert all(
        body["game"] is None or body["game"]["private"] is None for _, body in table.messages
    )
    # tokens stay in their own phone
    tokens = [
        p.page.evaluate(
            "Object.entries(localStorage)"
            ".filter(([k]) => k.startsWith('longhall.token')).map(([, v]) => v)[0]"
        )
        for p in phones
    ]
    for page in [table, *phones]:
        text = json.dumps(page.messages)
        for token in tokens:
            assert token not in text
