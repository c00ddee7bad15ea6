"""The table display tells everyone whose phone has gone, for how long, and the host's two ways
out; and, once a bot stands in, for whom it plays."""

from __future__ import annotations

import re
from typing import Any

import pytest

from ..support import Phone, ServerProcess
from .conftest import Watched, wait_until

pytestmark = pytest.mark.slow

SLOW = 120.0  # seconds: only a stuck page or server takes this long


def test_the_table_display_says_whose_phone_is_gone_and_for_how_long(
    browser: Any, server: ServerProcess
) -> None:
    lobby = Phone(server.url).connect()
    code = lobby.current["table"]["code"]
    lobby.disconnect()
    host = Phone(server.url, {"code": code}, name="Anna").connect()
    assert host.join("Anna")["ok"]
    carla = Phone(server.url, {"code": code}, name="Carla").connect()
    assert carla.join("Carla")["ok"]
    assert host.command("add_bot", bot="random")["ok"]
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en")
    page = context.new_page()
    table = Watched(page, "table display")
    page.clock.install()  # the page's clock, moved on below; it runs as usual until then
    page.goto(server.url + "/")
    assert host.command("start")["ok"]
    wait_until(page, "document.body.dataset.phase === 'planning'", timeout=SLOW)
    assert page.query_selector(".away-banner") is None
    # the pictures under each castle are named once, in a legend
    legend = [li.inner_text().strip() for li in page.query_selector_all(".icon-legend li")]
    assert legend == ["Amulets", "Cards in hand", "Vikings at home", "Defenders"]
    # the bot has planned: from now on nothing changes on the table but Carla's phone
    host.wait(lambda v: v["game"]["public"]["seats"][2]["committed"], timeout=SLOW)

    carla.disconnect()  # Carla's phone goes, mid-planning
    wait_until(page, "document.querySelector('.away-banner') !== null", timeout=SLOW)
    banner = page.inner_text(".away-banner")
    # at first only that the phone is gone: "gone for 0 seconds" said nothing
    assert "Carla: phone gone\n" in banner + "\n" and "second" not in banner, banner
    # the host's two ways out, named as the host's phone names them
    assert "Anna, the host" in banner
    assert "Hand to a new phone" in banner and "Let a bot play for now" in banner
    # after a few seconds, how long; it counts on between messages (none come while the table
    # waits for Carla)
    seen = len(table.messages)
    page.clock.fast_forward(15_000)
    counted = "/for \\d+ seconds/.test(document.querySelector('.away-for').textContent)"
    wait_until(page, counted, SLOW)
    assert re.search(r"Carla: phone gone for \d+ seconds", page.inner_text(".away-banner"))
    assert len(table.messages) == seen

    # a bot standing in: the table no longer waits for the phone, and says for whom it plays
    assert host.command("botify", seat=1, bot="greedy")["ok"]
    wait_until(page, "document.querySelector('.away-banner') === null", timeout=SLOW)
    assert "Carla: a bot plays for now" in page.inner_text(".standin-banner")
    assert host.command("botify", seat=1, bot="")["ok"]  # Carla's seat is hers again
    wait_until(page, "document.querySelector('.standin-banner') === null", timeout=SLOW)
    assert table.errors == []
    host.disconnect()
    context.close()
