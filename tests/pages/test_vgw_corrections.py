"""Vikings Gone Wild: the host corrects a score from the host sheet, and the table display's log
tells everyone what was corrected and why; a defender's "no defence" takes a second tap (W5.2)."""

from __future__ import annotations

from typing import Any

import pytest

from ..support import ServerProcess
from .conftest import Watched, tap_until, wait_until
from .test_game import open_phone

pytestmark = pytest.mark.slow


def version(phone: Watched) -> int:
    return int(phone.page.evaluate("document.body.dataset.version"))


def test_the_host_corrects_a_score_with_a_reason_the_log_shows(
    browser: Any, server: ServerProcess
) -> None:
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en")
    table = Watched(context.new_page(), "table")
    table.page.goto(server.url + "/")
    table.page.wait_for_selector("#join-url")
    join_url = table.page.inner_text("#join-url")
    anna, bob = (open_phone(browser, join_url, name, "fr") for name in ("Anna", "Bob"))
    host = anna.page
    tap_until(host, "[data-game=vikings_gone_wild]", "document.querySelector('[data-end-mark]')")
    tap_until(host, "#start", "document.body.dataset.status === 'playing'")
    # Anna, the start player, lays the first game's bonus cards (W1.3)
    tap_until(
        host, "[data-action*=first_game_bonus]", "document.body.dataset.phase === 'production'"
    )

    host.tap("button[aria-label=Hôte]")
    wait_until(host, "document.querySelector('.vgw-fix')")
    host.click(".vgw-fix summary")
    host.select_option("#vgw-fix-seat", "1")
    host.fill("#vgw-fix-value", "3")
    host.fill("#vgw-fix-reason", "mission oubliée")
    before = version(bob)
    host.tap("#vgw-fix-send")
    wait_until(bob.page, f"document.body.dataset.version > {before}")
    wait_until(table.page, "document.body.innerText.includes('mission oubliée')")
    assert "0 → 3" in table.page.inner_text("body")
    for watched in (table, anna, bob):
        assert watched.errors == [], f"{watched.name}: {watched.errors}"
    context.close()
    for phone in (anna, bob):
        phone.page.context.close()
