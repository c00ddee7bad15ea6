"""A phone that goes offline in any phase blocks input, says so, reconnects by itself when the
network is back and resumes exactly where it was. Each phase is seeded: four players' game is
played on in-process to the phase, then the server started on its store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from longhall.server.config import Settings
from longhall.server.games.api import GameState
from longhall.server.web.app import create_app
from tests.inprocess import play_until, seated

from ..support import ServerProcess
from .conftest import PHONE, Watched, screenshot, wait_until
from .test_game import CLICKABLE

pytestmark = pytest.mark.slow

# every phase of an Eketorp round in which a phone shows something of its own, and how many moves
# into it: a plan half made is more to resume than an empty one
PHASES = {
    "planning": 4,
    "reveal": 0,
    "pick": 0,
    "swap": 0,
    "choose": 0,
    "loot": 0,
    "sharing": 0,
    "building": 0,
    "round_end": 0,
}


def seed_at(data_dir: Path, phase: str) -> tuple[str, str]:
    """Four players' Eketorp, played on to ``phase`` (with seed 0 every phase comes within 150
    moves, in the second round). Returns the table code and the token of the phone to take
    offline: one that has something to decide there, if any has."""
    lh = create_app(Settings(data_dir=data_dir, gpio="off", seed=0, rate=1000.0))
    try:
        phones = seated(lh, ["Anna", "Bram", "Carla", "Dirk"])
        assert phones[0].send("start")["ok"]
        moves = {"n": 0}

        def there(state: GameState) -> bool:
            if state.phase != phase:
                return False
            moves["n"] += 1
            return moves["n"] > PHASES[phase]

        play_until(lh.table, phones, there)
        active = lh.table.game.active_seats() if lh.table.game else []
        token = phones[active[0] if active else 0].token
        assert token is not None
        return lh.table.data.code, token
    finally:
        lh.stop()


def private_picture(page: Any) -> tuple[str, str]:
    """The version the phone has drawn and what its own board shows then (the phase, the hand in
    the footer), read at once: the page may redraw between two reads, and take the hand away."""
    return tuple(
        page.evaluate(
            """() => [document.body.dataset.version, `${document.body.dataset.phase}|`
              + (document.querySelector(".athand")?.innerText ?? "")]"""
        )
    )


@pytest.mark.parametrize("phase", list(PHASES))
def test_a_phone_goes_offline_and_comes_back(browser: Any, tmp_path: Path, phase: str) -> None:
    code, token = seed_at(tmp_path, phase)
    server = ServerProcess(tmp_path)
    server.start()
    context = browser.new_context(**PHONE, locale="en")
    try:
        phone = Watched(context.new_page(), f"phone in {phase}")
        page = phone.page
        page.goto(f"{server.url}/join/{code}")
        page.evaluate(f"localStorage.setItem('longhall.token.{code}', '{token}')")
        page.reload()
        wait_until(page, f"document.body.dataset.phase === '{phase}'")
        wait_until(page, "document.body.dataset.pending !== 'true'")
        screenshot(page, f"phone-en-{phase}")
        version, before = private_picture(page)
        target = page.query_selector(CLICKABLE)  # what this phone may do here, online
        assert target is not None, "nothing to do on this phone"
        page.context.set_offline(True)
        page.wait_for_selector(".offline", timeout=10000)  # the page says so ...
        assert page.evaluate("document.body.dataset.online") == "false"
        with pytest.raises(PlaywrightError, match=r"intercepts pointer events|Timeout"):
            target.tap(timeout=800, trial=True)  # ... and takes no tap
        screenshot(page, f"phone-offline-{phase}")
        page.context.set_offline(False)
        wait_until(page, "document.body.dataset.online === 'true'", timeout=20)
        page.wait_for_selector(".offline", state="detached", timeout=10000)
        # nobody else plays here: the phone comes back to the very screen it left
        assert private_picture(page) == (version, before)
        assert phone.errors == [], f"console errors: {phone.errors}"
    finally:
        context.close()
        server.stop()
