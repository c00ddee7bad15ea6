"""The table display as the Pi's kiosk shows it, in real Chromium: the appliance's standing
notices in the table display's language, no pointer, and a sign of life for the health check."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
import requests

from longhall.server.appliance.storage import volatile_store

from ..support import ROOT, ServerProcess
from .conftest import PHONE, Watched, wait_until

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

        # and every phone shows the notice too, above its screen
        code = page.evaluate("document.querySelector('#join-url').textContent.split('/join/')[1]")
        phone_context = browser.new_context(**PHONE, locale="de")
        phone = phone_context.new_page()
        phone.goto(f"{server.url}/join/{code}")
        phone.wait_for_selector(".standing-notice[data-code=store_volatile]")
        assert phone.inner_text(".standing-notice") == expected
        phone_context.close()
    finally:
        context.close()
        server.stop()
        shutil.rmtree(data, ignore_errors=True)


def test_the_kiosk_starts_on_a_local_page_that_waits_for_the_server(
    browser: Any, tmp_path: Path
) -> None:
    """The screen is never black: the kiosk's first page is a file that says Longhall is
    starting, says what to do when the server does not come, and opens the table display once
    it answers."""
    server = ServerProcess(tmp_path / "data")
    server.data_dir.mkdir()
    server.log = tmp_path / "server.log"
    base = server.url
    made = subprocess.run(
        [sys.executable, str(ROOT / "systemd" / "kiosk-starting"), str(tmp_path / "run"), base,
         "--language", "de", "--wait", "1"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        page.goto(made.stdout.strip())  # file:///.../starting.html, no server yet
        assert page.inner_text("h1") == CATALOG["starting"]["title"]
        page.wait_for_selector("#trouble.shown")  # after wait= seconds: what to do
        trouble = page.inner_text("#trouble")
        assert CATALOG["starting"]["trouble_1"] in trouble and "journalctl -u longhall" in trouble
        server.start()  # the server comes at last: the table display replaces the page
        page.wait_for_url(f"{base}/?kiosk=1&lang=de", timeout=60_000)
        page.wait_for_selector("#join-url")
        assert page.evaluate("document.documentElement.classList.contains('kiosk')")
    finally:
        context.close()
        server.stop()


IDLE_SECONDS = 15.0  # long enough for three of the kiosk's signs of life and many heartbeats


def written_files(pids: list[int], folders: list[Path]) -> dict[str, tuple[int, int, int]]:
    """Every regular file the processes hold open (unlinked ones too, such as a heartbeat file)
    and every file in the folders: its modification and change times and its size."""
    found: dict[str, tuple[int, int, int]] = {}
    for pid in pids:
        fds = Path(f"/proc/{pid}/fd")
        for fd in fds.iterdir() if fds.exists() else []:
            try:
                info = os.stat(fd)  # follows the link to the open file, even an unlinked one
                name = os.readlink(fd)
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode):
                found[name] = (info.st_mtime_ns, info.st_ctime_ns, info.st_size)
    for folder in folders:
        for path in folder.rglob("*"):
            if path.is_file():
                info = path.stat()
                found[str(path)] = (info.st_mtime_ns, info.st_ctime_ns, info.st_size)
    return found


def test_an_idle_table_writes_no_file(browser: Any, tmp_path: Path) -> None:
    """While the table sleeps (the kiosk's page open, nobody playing), the server writes no file:
    no heartbeat file, no log line, and not the store either. On a Pi that is an SD card that is
    not worn all night (docs/pi-setup.md has the check on a real Pi, for an hour)."""
    data = tmp_path / "data"
    data.mkdir()
    server = ServerProcess(data)
    server.log = tmp_path / "server.log"
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        server.start()
        page = context.new_page()
        page.goto(server.url + "/?kiosk=1")
        page.wait_for_selector("#join-url")
        age = None
        while age is None:  # the kiosk's first sign of life has come
            page.wait_for_timeout(100)
            age = requests.get(server.url + "/appliance/kiosk-alive", timeout=10).json()["age"]
        before = written_files(server.pids(), [data, tmp_path])
        page.wait_for_timeout(IDLE_SECONDS * 1000)
        after = written_files(server.pids(), [data, tmp_path])
        assert requests.get(server.url + "/appliance/kiosk-alive", timeout=10).json()["age"] < 10
        changed = sorted(name for name, seen in after.items() if before.get(name) != seen)
        assert changed == [], f"written while idle for {IDLE_SECONDS:g} s: {changed}"
    finally:
        context.close()
        server.stop()
