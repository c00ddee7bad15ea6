"""A short game of each of the three games on a phone in WebKit (every iPhone) and in Firefox (some
Android phones), as the other page tests play them in Chromium: the phone joins, each game starts
and is drawn, the player taps the first thing their phone offers and sees the table's answer, and
the page logs no error. One browser session per engine plays all three games (engines.py)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ..support import Phone, ServerProcess
from .engines import LANGUAGE_MENU, Engine, Firefox, WebKit, missing, readable_menu, wait_for

pytestmark = pytest.mark.slow

GAMES = ("eketorp", "vikings_on_board", "vikings_gone_wild")
# what a player may tap now: a move of their own, or NEXT
CLICKABLE = "[data-action]:not([disabled]):not([aria-disabled=true]), [data-table]:not([disabled])"
SLOW = 60.0  # seconds: only a stuck page or server takes this long


@pytest.fixture(params=["webkit", "firefox"])
def engine(request: pytest.FixtureRequest) -> Iterator[Engine]:
    lacking = missing()
    if lacking:
        pytest.fail(f"missing Debian packages {lacking}: ./run tests installs them")
    started: Engine = WebKit() if request.param == "webkit" else Firefox()
    yield started
    started.close()


def test_a_short_game_of_each_game(engine: Engine, tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, "--bot-delay", "0.05", "--rate-limit", "1000", "--seed", "7")
    server.start()
    try:
        play_each_game(engine, server)
    finally:
        server.stop()


def play_each_game(engine: Engine, server: ServerProcess) -> None:
    lobby = Phone(server.url).connect()
    code, join_url = lobby.current["table"]["code"], lobby.current["table"]["join_url"]
    lobby.disconnect()
    host = Phone(server.url, {"code": code}, name="Anna").connect()
    assert host.join("Anna")["ok"]
    assert host.command("add_bot", bot="random")["ok"]
    assert host.command("botify", seat=0, bot="greedy")["ok"]  # the host's seat plays itself

    engine.goto(join_url)  # the phone joins as a player does: a name, a tap
    wait_for(engine, "document.querySelector('#name') !== null", SLOW)
    agent = engine.evaluate("navigator.userAgent")  # the engine it says it is, not a Chromium
    assert "Chrome" not in agent and ("Firefox/" in agent or "AppleWebKit" in agent), agent
    look = engine.evaluate(LANGUAGE_MENU)
    assert readable_menu(look), f"{engine.name}: the language menu: {look}"
    engine.type("#name", "Bram")
    engine.tap("#join")
    wait_for(engine, "document.querySelectorAll('.seat-row').length === 3", SLOW)
    # the host's commands name the version they were decided on: one that has seen Bram join
    host.wait(lambda view: len(view["table"]["seats"]) == 3, timeout=SLOW)

    for game in GAMES:
        started = time.monotonic()
        assert host.command("set_game", game=game)["ok"]
        # Bram starts: in Vikings Gone Wild the start player first says which bonus cards lie
        # on the table (a game may have changed the seats' order)
        names = [seat["name"] for seat in host.current["table"]["seats"]]
        assert host.command("set_start_player", seat=names.index("Bram"))["ok"]
        assert host.command("start")["ok"]
        # the game's screen is drawn, then Bram's phone offers him something (bots move first)
        wait_for(engine, "document.body.dataset.phase !== ''", SLOW)
        wait_for(engine, f"document.querySelector({CLICKABLE!r}) !== null", SLOW)
        tap_until_answered(engine)
        assert host.command("end_game")["ok"]
        wait_for(engine, "document.body.dataset.status === 'over'", SLOW)
        print(f"{engine.name}: {game} in {time.monotonic() - started:.1f} s")
    assert engine.errors() == [], f"{engine.name}: {engine.errors()}"
    host.disconnect()


def tap_until_answered(engine: Engine, tries: int = 3) -> None:
    """Tap what the phone offers and wait for the table's answer; tap again if an update redrew
    the page under the finger (the tap was lost)."""
    for attempt in range(tries):
        version = engine.evaluate("document.body.dataset.version")
        engine.tap(CLICKABLE)
        try:
            wait_for(engine, f"document.body.dataset.version !== {version!r}", 5)
            return
        except TimeoutError:
            if attempt == tries - 1:
                raise
