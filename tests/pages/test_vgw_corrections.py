"""Vikings Gone Wild: the host corrects a score from the host sheet, and the table display's log
tells everyone what was corrected and why. (A defender's two-tap "no defence", W5.2, is in
test_vikings_gone_wild.py.)"""

from __future__ import annotations

from typing import Any

import pytest

from ..support import ServerProcess
from .conftest import TwoPlayerVikingsGoneWild, version, wait_until

pytestmark = pytest.mark.slow


def test_the_host_corrects_a_score_with_a_reason_the_log_shows(
    browser: Any, server: ServerProcess
) -> None:
    game = TwoPlayerVikingsGoneWild(browser, server, table_lang="en", phone_lang="fr")
    table, bob, host = game.table, game.bob, game.host

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
    game.close()
