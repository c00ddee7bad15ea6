"""The table display as the Pi's kiosk shows it, in real Chromium: the appliance's standing
notices in the table display's language, no pointer, and a sign of life for the health check."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
import requests

from longhall.server.appliance.storage import volatile_store

from ..support import ROOT, ServerProcess
from .conftest import Watched, wait_until

CATALOG = json.loads((ROOT / "server" / "static" / "i18n" / "de.json").read_text("utf-8"))


@pytest.mark.skipif(not Path("/dev/shm").is_dir(), reason="no /dev/shm (tmpfs) here")
def test_the_kiosk_warns_of_a_store_lost_at_power_off(browser: Any, tmp_path: Path) -> None:
    data = Path(tempfile.mkdtemp(prefix="longhall-store-", dir="/dev/shm"))
    mount = volatile_store(data)
    if mount is None:
        shutil.rmtree(data)
        pytest.skip("/dev/shm is not a RAM file system here")
    server = ServerProcess(data)
    server.log = tmp_path / "server.log"
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        server.start()
        page = context.new_page()
        watched = Watched(page, "kiosk")
        page.goto(server.url + "/?kiosk=1&lang=de")
        page.wait_for_selector(".appliance-notice[data-code=store_volatile]")
        expected = CATALOG["notices"]["store_volatile"].replace("{fstype}", mount.fstype)
        assert page.inner_text(".appliance-notice") == expected
        # no pointer anywhere on the kiosk
        assert page.evaluate("getComputedStyle(document.body).cursor") == "none"
        assert page.evaluate("getComputedStyle(document.querySelector('#app')).cursor") == "none"
        # the page said it runs: the health check reads how long ago
        wait_until(page, "document.documentElement.classList.contains('kiosk')")
        age = requests.get(server.url + "/appliance/kiosk-alive", timeout=10).json()["age"]
        for _ in range(100):
            if age is not None:
                break
            page.wait_for_timeout(100)  # the first sign of life is on its way
            age = requests.get(server.url + "/appliance/kiosk-alive", timeout=10).json()["age"]
        assert age is not None
        assert watched.errors == []

        # any other screen is no kiosk: it keeps its pointer and says nothing
        other = context.new_page()
        other.goto(server.url + "/?lang=de")
        other.wait_for_selector(".appliance-notice")
        assert other.evaluate("getComputedStyle(document.body).cursor") != "none"
    finally:
        context.close()
        server.stop()
        shutil.rmtree(data, ignore_errors=True)
