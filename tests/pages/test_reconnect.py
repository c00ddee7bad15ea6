"""A phone that goes offline in any phase blocks input, says so, reconnects by itself when the
network is back and resumes exactly where it was."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from ..support import ServerProcess
from .conftest import Watched, open_phone, screenshot, tap_until, wait_until
from .test_game import CLICKABLE, tap_something

pytestmark = pytest.mark.slow

PHASES = {
    "planning",
    "reveal",
    "pick",
    "swap",
    "choose",
    "loot",
    "sharing",
    "building",
    "round_end",
}


def private_picture(page: Any) -> tuple[str, str]:
    """The version the phone has drawn and what its own board shows then (the phase, the hand in
    the footer), read at once: the page may redraw between two reads, and take the hand away."""
    return tuple(
        page.evaluate(
            """() => [document.body.dataset.version, `${document.body.dataset.phase}|`
              + (document.querySelector(".athand")?.innerText ?? "")]"""
        )
    )


def test_a_phone_goes_offline_in_every_phase_and_comes_back(
    browser: Any, server: ServerProcess
) -> None:
    rnd = random.Random(5)
    table_context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en")
    table = Watched(table_context.new_page(), "table")
    table.page.goto(server.url + "/")
    table.page.wait_for_selector("#join-url")
    url = table.page.inner_text("#join-url")
    phones = [open_phone(browser, url, name, "en") for name in ("Anna", "Bram", "Carla")]
    host = phones[0].page
    tap_until(host, "[data-bot=greedy]", "document.querySelectorAll('.seat-row').length === 4")
    tap_until(host, "#start", "document.body.dataset.status === 'playing'")
    for phone in phones:
        wait_until(phone.page, "document.body.dataset.status === 'playing'")

    tested: set[str] = set()
    deadline = time.monotonic() + 480
    while tested < PHASES and time.monotonic() < deadline:
        if table.page.evaluate("document.body.dataset.status") != "playing":
            break
        moved = False
        for phone in rnd.sample(phones, len(phones)):
            # each phase is tried before this phone's tap can end it (a bot never presses NEXT)
            phase = phone.page.evaluate("document.body.dataset.phase")
            if phase in PHASES and phase not in tested:
                tested.add(phase)
                offline_and_back(phone, phase)
                moved = True
                continue
            moved = tap_something(phone, rnd) or moved
        if not moved:
            time.sleep(0.05)
    assert {"planning", "reveal", "pick", "choose", "building", "round_end"} <= tested, tested
    for page in [table, *phones]:
        assert page.errors == [], f"console errors on {page.name}: {page.errors}"


def offline_and_back(phone: Watched, phase: str) -> None:
    page = phone.page
    screenshot(page, f"phone-en-{phase}")
    version, before = private_picture(page)
    page.context.set_offline(True)
    page.wait_for_selector(".offline", timeout=10000)  # the page says so ...
    assert page.evaluate("document.body.dataset.online") == "false"
    target = page.query_selector(CLICKABLE)
    if target is not None:  # ... and blocks input
        with pytest.raises(PlaywrightError, match=r"intercepts pointer events|Timeout"):
            target.tap(timeout=800, trial=True)
    screenshot(page, f"phone-offline-{phase}")
    page.context.set_offline(False)
    wait_until(page, "document.body.dataset.online === 'true'", timeout=20)
    page.wait_for_selector(".offline", state="detached", timeout=10000)
    now, after = private_picture(page)
    if now == version:
        assert after == before  # redrawn from the snapshot, exactly as it was
