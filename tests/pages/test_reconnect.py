"""A phone that goes offline in any phase blocks input, says so, reconnects by itself when the
network is back and resumes exactly where it was. Each phase is seeded: four players' game is
played on in-process to the phase, then the server started on its store."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from longhall.server.appliance.addresses import lan_address
from longhall.server.config import Settings
from longhall.server.games.api import GameState
from longhall.server.web.app import create_app
from longhall.server.web.limits import is_kiosk
from tests.inprocess import play_until, seated

from ..support import Phone, ServerProcess, free_port, refusal_code
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


def seed_at(data_dir: Path, phase: str) -> tuple[str, int, dict[int, str]]:
    """Four players' Eketorp, played on to ``phase`` (with seed 0 every phase comes within 150
    moves; loot and sharing in the second round). Returns the table code, the seat whose phone
    goes offline (one that has something to decide there, if any has) and every seat's token."""
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
        tokens = {p.seat: p.token for p in phones if p.seat is not None and p.token is not None}
        return lh.table.data.code, active[0] if active else 0, tokens
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


SCREEN = "document.querySelector('main.screen')?.innerText ?? ''"


@pytest.mark.parametrize("phase", list(PHASES))
def test_a_phone_goes_offline_and_comes_back(browser: Any, tmp_path: Path, phase: str) -> None:
    """Offline, the phone says so and takes no tap; back, it is sent the table as it is now
    and draws it. In planning another player places a viking meanwhile (the phone must catch
    up); elsewhere nobody plays, and the phone comes back to the very screen it left."""
    code, seat, tokens = seed_at(tmp_path, phase)
    server = ServerProcess(tmp_path)
    context = browser.new_context(**PHONE, locale="en")
    try:
        server.start()
        phone = Watched(context.new_page(), f"phone in {phase}")
        page = phone.page
        page.goto(f"{server.url}/join/{code}")
        page.evaluate(f"localStorage.setItem('longhall.token.{code}', '{tokens[seat]}')")
        page.reload()
        wait_until(page, f"document.body.dataset.phase === '{phase}'")
        wait_until(page, "document.body.dataset.pending !== 'true'")
        screenshot(page, f"phone-en-{phase}")
        version, before = private_picture(page)
        screen = page.evaluate(SCREEN)
        target = page.query_selector(CLICKABLE)  # what this phone may do here, online
        assert target is not None, "nothing to do on this phone"
        page.context.set_offline(True)
        page.wait_for_selector(".offline", timeout=10000)  # the page says so ...
        assert page.evaluate("document.body.dataset.online") == "false"
        with pytest.raises(PlaywrightError, match=r"intercepts pointer events|Timeout"):
            target.tap(timeout=800, trial=True)  # ... and takes no tap
        screenshot(page, f"phone-offline-{phase}")
        if phase == "planning":  # meanwhile another player places a viking
            other = Phone(server.url, {"token": tokens[(seat + 1) % len(tokens)]}).connect()
            place = next(a for a in other.current["game"]["legal"] if a["type"] == "place")
            assert other.command("act", action=place)["ok"]
            other.disconnect()
        heard = len(phone.messages)
        page.context.set_offline(False)
        wait_until(page, "document.body.dataset.online === 'true'", timeout=20)
        page.wait_for_selector(".offline", state="detached", timeout=10000)
        # the table as it is now is sent again on the new connection, and drawn
        deadline = time.monotonic() + 10
        while not [m for e, m in phone.messages[heard:] if e == "snapshot"]:
            assert time.monotonic() < deadline, "no snapshot after coming back"
            page.wait_for_timeout(50)
        now = [m for e, m in phone.messages[heard:] if e == "snapshot"][-1]["version"]
        wait_until(page, f"document.body.dataset.version === '{now}'")
        if phase == "planning":
            assert now > int(version)
            assert private_picture(page)[1] == before  # the same phase, its own hand as it was
        else:
            assert now == int(version)
            assert private_picture(page) == (version, before)
            assert page.evaluate(SCREEN) == screen
        page.wait_for_selector(".offline", state="detached")
        target = page.query_selector(CLICKABLE)
        assert target is not None
        target.tap(trial=True)  # and it takes taps again
        assert phone.errors == [], f"console errors: {phone.errors}"
    finally:
        context.close()
        server.stop()


def test_a_phone_refused_for_now_asks_again_by_itself(browser: Any, tmp_path: Path) -> None:
    """A connection the server refuses for now (``rate_limited``: too many failed attempts from
    the phone's address) was given up for good: socket.io-client tries again after a lost link,
    never after a refusal, and the phone said 'connecting' (a seated one: 'connection lost,
    retrying') until the player reloaded it. It asks again by itself, and gets in once its address
    may try again."""
    address = lan_address()  # the Pi's own browser (loopback) is never held back
    if is_kiosk(address):
        pytest.skip("this machine has no address but loopback for a phone to come from")
    port = free_port()
    server = ServerProcess(
        tmp_path, "--host", "0.0.0.0", "--public-url", f"http://{address}:{port}", port=port
    )
    server.start()
    # someone at the phone's address keeps guessing the table's code, which keeps that address
    # refused until the phone has been refused too
    refused = threading.Event()

    def guess() -> None:
        while not refused.wait(0.02):
            refusal_code(server.port, '{"code": "wrongcode"}', address)

    contexts = [browser.new_context(), browser.new_context(**PHONE, locale="en")]
    table = contexts[0].new_page()
    try:
        table.goto(server.url + "/")  # the Pi's own browser
        table.wait_for_selector("#join-url")
        url = table.inner_text("#join-url")
        assert url.startswith(f"http://{address}:{port}/join/")
        while refusal_code(server.port, '{"code": "wrongcode"}', address) != "rate_limited":
            pass
        guesser = threading.Thread(target=guess, daemon=True)
        guesser.start()
        # the address may try once a second, and the guesser takes that try a moment later:
        # a phone that comes in that moment is let in, and another one is sent
        for _ in range(5):
            phone = Watched(contexts[1].new_page(), "phone")
            phone.page.goto(url)
            deadline = time.monotonic() + 20
            while not (answer := [f for f in phone.frames if f.startswith("< 4")]):
                assert time.monotonic() < deadline, "the server never answered the phone"
                phone.page.wait_for_timeout(20)
            if '"rate_limited"' in answer[0]:
                break
            phone.page.close()
        else:
            raise AssertionError("the phone came in every time: never refused")
        refused.set()
        guesser.join()
        phone.page.wait_for_selector("#name", timeout=20_000)  # in: the table's join screen
        assert phone.page.evaluate("document.body.dataset.online") == "true"
        assert phone.errors == []
    finally:
        refused.set()
        for context in contexts:
            context.close()
        server.stop()


def test_a_game_s_files_that_fail_or_stall_do_not_hold_its_screen_back(
    browser: Any, server: ServerProcess
) -> None:
    """The table display has no one to reload it: a game's page module that failed to load (the
    server restarting, the Wi-Fi gone a moment) is asked for again until it comes, and a style
    sheet that stalls holds the game's screen back only a while (``SHEET_PATIENCE_MS``); one that
    fails is asked for again, and the screen is styled once the sheet comes."""
    from .test_table_display import join_as_host

    table = Watched(browser.new_context(viewport={"width": 1920, "height": 1080}).new_page(), "t")
    asked: list[str] = []  # each request of the module
    sheets: list[Any] = []  # each request of the sheet, held

    def module(route: Any) -> None:
        asked.append(route.request.url)
        if len(asked) <= 2:
            route.abort()  # failed twice
        else:
            route.continue_()

    table.page.route("**/table/games/eketorp.js*", module)
    table.page.route("**/table/games/eketorp.css*", lambda route: sheets.append(route))  # held
    table.page.goto(server.url + "/")
    host = join_as_host(server, "Anna")
    for _ in range(2):
        assert host.command("add_bot", bot="greedy")["ok"]
    assert host.command("start")["ok"]

    # asked for three times (after 1 and 2 s), then drawn without its sheet after its patience
    wait_until(table.page, "!!document.body.dataset.phase", timeout=30)
    # each retry at an address of its own: some browsers keep a failure for its address
    retries = ["eketorp.js", "eketorp.js?retry=1", "eketorp.js?retry=2"]
    assert [url.rsplit("/", 1)[1] for url in asked] == retries
    assert len(sheets) == 1
    styled = "getComputedStyle(document.querySelector('.castle')).display === 'flex'"
    assert table.page.evaluate(styled) is False  # the game's screen, its sheet not in force
    # the stalled request fails at last: the sheet is asked for again (after 1 s), at an address
    # of its own, and is in force once it comes
    sheets[0].abort()
    deadline = time.monotonic() + 10
    while len(sheets) < 2 and time.monotonic() < deadline:
        table.page.wait_for_timeout(50)  # the route's handler runs while Playwright waits
    assert [route.request.url.rsplit("/", 1)[1] for route in sheets] == [
        "eketorp.css", "eketorp.css?retry=1"]  # fmt: skip
    assert table.page.evaluate(styled) is False
    sheets[1].continue_()
    wait_until(table.page, styled)
    # the failed sheet's element is gone: one element for the sheet
    sheet_links = "document.querySelectorAll('link[href*=\"/table/games/eketorp.css\"]').length"
    assert table.page.evaluate(sheet_links) == 1
    # what the page said: the failures as warnings, nothing else amiss
    assert [e for e in table.errors if "Failed to load resource" not in e] == []
    host.disconnect()
