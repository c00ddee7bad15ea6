"""Vikings on Board through the pages: the table display and phones in Chromium, from the lobby
to the final score; every action kind tapped on the harbour drawing, a reload at every kind of
step, and no barrel value anywhere but on its owner's phone until the final score (V2.6)."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest

from ..support import ServerProcess
from .conftest import Watched, open_phone, screenshot, wait_until
from .test_table_display import MEASURE

pytestmark = pytest.mark.slow

# a player's own moves, and NEXT through a sailing's steps (any player, as the table's button)
CLICKABLE = "[data-action]:not([disabled]), [data-table]:not([disabled])"
# every action a player takes on the phone in a 2-player game (V2-V4)
ACTION_KINDS = {
    "go",
    "back",
    "promote",
    "pick_piece",
    "to_drakkar",
    "swap_with",
    "pick_barrel",
    "to_zone",
    "place_chest",
    "raise",
    "bonus_viking",
    "sail",
    "table:next",  # V4.2, V4.3: the sailing shown one step per NEXT
}


def value_paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a message where a key named "value" is."""
    found = []
    if isinstance(node, dict):
        for key, child in node.items():
            if key == "value":
                found.append((*path, key))
            found += value_paths(child, (*path, key))
    elif isinstance(node, list):
        for i, child in enumerate(node):
            found += value_paths(child, (*path, i))
    return found


def check_secrecy(watched: Watched, seat: int | None) -> int:
    """No message this page received holds another seat's barrel (values, private part) before
    the final score; return how many messages were checked."""
    checked = 0
    for _, message in watched.messages:
        game = message.get("game")
        if not game or game.get("game") != "vikings_on_board":
            continue
        checked += 1
        if seat is None:
            assert game["private"] is None
        else:
            assert game["seat"] == seat
            assert game["private"] is None or len(game["private"]["barrels"]) == 4
        for path in value_paths(message):
            if path[:3] == ("game", "private", "barrels"):
                continue  # the reader's own barrels
            if path[:3] == ("game", "public", "log"):
                event = game["public"]["log"][path[3]]
                assert event["e"] == "raise", event  # a market value
                continue
            raise AssertionError(f"{watched.name}: a value at {path}")
    return checked


def own_values(watched: Watched) -> list[int]:
    """This phone's barrel values, from its own messages."""
    for _, message in reversed(watched.messages):
        game = message.get("game")
        if game and game.get("private"):
            return sorted(b["value"] for b in game["private"]["barrels"])
    raise AssertionError("no private view")


def dom_barrel_values(page: Any) -> int:
    """How many barrel values the page shows."""
    return int(page.evaluate("document.querySelectorAll('.vob-barrel-chip, .own-value').length"))


def choose(phone: Watched, rnd: random.Random, used: set[str], buildings: set[str]) -> bool:
    """Tap one thing this phone may do now, preferring what has not been done yet."""
    page = phone.page
    options = []
    elements = page.query_selector_all(CLICKABLE)
    # every element's action read in one go
    attributes = page.evaluate(
        "(els) => els.map((e) => [e.dataset.action, e.dataset.table])", elements
    )
    for element, (raw, table) in zip(elements, attributes, strict=True):
        action = json.loads(raw) if raw else {"type": f"table:{table}"}
        kind = action.get("type")
        fresh = kind not in used or (kind == "go" and action["building"] not in buildings)
        if kind == "back" and "back" in used:
            continue  # going back once is enough: the game must move on
        options.append((fresh, element, action))
    if not options:
        return False
    fresh = [o for o in options if o[0]]
    _, element, action = rnd.choice(fresh or options)
    version = page.evaluate("document.body.dataset.version")
    try:
        element.tap(timeout=3000)
    except Exception:  # the page redrew under our finger: look again
        return True
    used.add(action["type"])
    if action["type"] == "go":
        buildings.add(action["building"])
    # refused (a toast says why) or the table moved on: look again
    with contextlib.suppress(TimeoutError):
        wait_until(page, f"document.body.dataset.version !== '{version}'", timeout=5)
    return True


def drawn_step(page: Any) -> tuple[int, str]:
    """The version the phone shows and what kind of step it is at, read together (an update may
    land between two reads), for the reloads."""
    version, kind = page.evaluate(
        "(() => { const b = document.body.dataset; const p = document.querySelector("
        "'.vob-prompt h2'); return [Number(b.version), b.phase + ':' + (p && b.phase === 'act'"
        " ? p.textContent : '')]; })()"
    )
    return int(version), str(kind)


RANKED = ".vob-sailing .vob-influence"
TODO = "[...document.querySelectorAll('.vob-todo li')].map((li) => li.textContent)"


def reload_table_keeps_the_moves(page: Any) -> None:
    """What to move on the physical board reads the same after a reload: a moved hull piece's
    line still names the drakkar it came from (nobody acts meanwhile: no bots in this game)."""
    version = page.evaluate("document.body.dataset.version")
    before = page.evaluate(TODO)
    assert any("from drakkar" in line for line in before), before
    page.reload()
    wait_until(page, f"document.body.dataset.version === '{version}'", timeout=60)
    page.wait_for_selector(".vob-todo li")
    assert page.evaluate(TODO) == before


def start_vikings(host: Any, seats: int) -> None:
    wait_until(host, f"document.querySelectorAll('.seat-row').length === {seats}")
    host.tap("[data-game=vikings_on_board]")
    wait_until(host, "document.querySelector('[data-game=vikings_on_board].chosen')")
    host.tap("#start")
    wait_until(host, "document.body.dataset.status === 'playing'", timeout=60)


@pytest.mark.slow(seconds=90)
def test_a_whole_two_player_game_with_two_phones(browser: Any, server: ServerProcess) -> None:
    rnd = random.Random(5)
    table_context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en")
    table = Watched(table_context.new_page(), "table")
    table.page.goto(server.url + "/")
    table.page.wait_for_selector("#join-url")
    join_url = table.page.inner_text("#join-url")
    phones = [
        open_phone(browser, join_url, "Anna", "en"),
        open_phone(browser, join_url, "Bram", "fr", small=True),  # a 360 px phone
    ]
    start_vikings(phones[0].page, 2)
    wait_until(table.page, "document.querySelector('.vob-harbour')", timeout=60)
    screenshot(table.page, "vob-table-start")

    used: set[str] = set()
    buildings: set[str] = set()
    reloaded: set[str] = set()
    shots: set[str] = set()
    for _ in range(1500):
        if table.page.evaluate("document.body.dataset.status") == "over":
            break
        acted = False
        for seat, phone in enumerate(phones):
            page = phone.page
            drawn, kind = drawn_step(page)
            if page.query_selector(CLICKABLE) is None:
                continue
            if kind not in reloaded:  # a reload at every kind of step draws it back the same
                page.reload()
                # waits, not timings: generous for a machine shared by many jobs
                wait_until(page, "document.body.dataset.online === 'true'", timeout=60)
                back = f"Number(document.body.dataset.version) >= {drawn}"
                # its phase is set by the draw that shows the game's screen (its module loaded)
                wait_until(page, f"{back} && !!document.body.dataset.phase", timeout=60)
                now, again = drawn_step(page)
                if now > drawn:
                    continue  # the game moved on meanwhile (the other phone's move on its way)
                assert again == kind
                reloaded.add(kind)
                if kind not in shots:
                    shots.add(kind)
                    label = kind.replace(":", "-").replace(" ", "_")
                    screenshot(page, f"vob-phone-{seat}-{label}")
            # a player's barrel values are on their phone only; nothing is wider than the phone
            assert dom_barrel_values(page) >= 1
            width = page.viewport_size["width"]
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            acted = choose(phone, rnd, used, buildings) or acted
        if not acted:
            table.page.wait_for_timeout(50)
        if "vob-table-sailing" not in shots and table.page.query_selector(RANKED):
            shots.add("vob-table-sailing")  # a sailing's reckoning: counted, ranked, the bet paid
            screenshot(table.page, "vob-table-sailing")
        if "table-reload" not in shots and "from drakkar" in table.page.inner_text(".vob-todo"):
            shots.add("table-reload")
            reload_table_keeps_the_moves(table.page)
        assert dom_barrel_values(table.page) == 0  # the table display never shows one
    else:
        raise AssertionError("the game did not end")

    assert used >= ACTION_KINDS, ACTION_KINDS - used
    assert {"vob-table-sailing", "table-reload"} <= shots, shots
    assert len(buildings) == 11, buildings
    wait_until(table.page, "document.querySelector('.final')", timeout=15)
    screenshot(table.page, "vob-table-final")
    for phone in phones:
        wait_until(phone.page, "document.querySelector('.final')", timeout=15)
    screenshot(phones[0].page, "vob-phone-final")
    final = table.page.inner_text(".final")
    assert "Barrels won" in final and "Chests" in final
    # why the game ended (V5.1), on the table display and on every phone, in its language
    assert "The 7th drakkar has sailed" in table.page.inner_text(".final .end-reason")
    assert "The 7th drakkar has sailed" in phones[0].page.inner_text(".final .end-reason")
    assert "Le 7e drakkar est parti" in phones[1].page.inner_text(".final .end-reason")
    # the shields are lifted: every player's barrels won count in the public scores
    for phone in phones:
        assert check_secrecy(phone, phones.index(phone)) > 50
    assert check_secrecy(table, None) > 50
    assert own_values(phones[0]) == own_values(phones[1]) == [1, 2, 3, 4]  # D1
    for watched in (*phones, table):
        assert watched.errors == [], f"{watched.name}: {watched.errors}"
    table_context.close()
    for phone in phones:
        phone.page.context.close()


@pytest.mark.slow(seconds=55)
def test_a_four_player_game_with_one_phone_and_three_bots(
    browser: Any, server: ServerProcess
) -> None:
    rnd = random.Random(9)
    table_context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="de")
    table = Watched(table_context.new_page(), "table")
    table.page.goto(server.url + "/")
    table.page.wait_for_selector("#join-url")
    join_url = table.page.inner_text("#join-url")
    phone = open_phone(browser, join_url, "Anna", "nl")
    host = phone.page
    for n in range(2, 5):
        host.tap("[data-bot=greedy]" if n % 2 else "[data-bot=random]")
        wait_until(host, f"document.querySelectorAll('.seat-row').length === {n}")
    start_vikings(host, 4)
    used: set[str] = set()
    buildings: set[str] = set()
    problems: set[str] = set()
    for i in range(800):
        if table.page.evaluate("document.body.dataset.status") == "over":
            break
        if not choose(phone, rnd, used, buildings):
            host.wait_for_timeout(50)
        assert dom_barrel_values(table.page) == 0
        if i % 10 == 0:  # everything fits and reads across the table, at 720p and 1080p
            for width, height in ((1280, 720), (1920, 1080)):
                table.page.set_viewport_size({"width": width, "height": height})
                problems |= {f"{width}: {p}" for p in table.page.evaluate(MEASURE)}
            table.page.set_viewport_size({"width": 1280, "height": 720})
    else:
        raise AssertionError("the game did not end")
    wait_until(table.page, "document.querySelector('.final')", timeout=15)
    screenshot(table.page, "vob-table-final-4p-1280")
    assert check_secrecy(phone, 0) > 20 and check_secrecy(table, None) > 20
    assert not problems, sorted(problems)[:20]
    assert phone.errors == [] and table.errors == []
    table_context.close()
    host.context.close()
