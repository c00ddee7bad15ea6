"""Small things a player would notice on the phone page."""

from __future__ import annotations

import time
from typing import Any

import pytest

from ..support import Phone, ServerProcess
from .conftest import PHONE, Watched, open_phone, tap_until, wait_until
from .engines import LANGUAGE_MENU, readable_menu
from .test_table_display import join_as_host

pytestmark = pytest.mark.slow


def test_typing_a_name_survives_other_players_sitting_down(
    browser: Any, server: ServerProcess
) -> None:
    table = Watched(browser.new_context().new_page(), "table")
    table.page.goto(server.url + "/")
    table.page.wait_for_selector("#join-url")
    url = table.page.inner_text("#join-url")
    typist = Watched(browser.new_context(**PHONE, locale="en").new_page(), "typist")
    typist.page.goto(url)
    typist.page.wait_for_selector("#name")
    typist.page.tap("#name")
    typist.page.keyboard.type("Fri")
    seen = typist.page.evaluate("document.body.dataset.version")
    open_phone(browser, url, "Bram", "en")  # an update reaches the typist
    wait_until(typist.page, f"document.body.dataset.version !== '{seen}'")
    assert typist.page.evaluate("document.activeElement.id") == "name"
    typist.page.keyboard.type("da")
    assert typist.page.input_value("#name") == "Frida"
    typist.page.tap("#join")
    wait_until(typist.page, "document.querySelectorAll('.seat-row').length === 2")
    assert "Frida" in typist.text()
    # the language menu reads on the dark page, on the phone and on the table display
    for page in (typist.page, table.page):
        look = page.evaluate(LANGUAGE_MENU)
        assert readable_menu(look), look
    assert typist.errors == [] and table.errors == []


def test_the_help_and_the_hand_are_always_at_hand(browser: Any, server: ServerProcess) -> None:
    table = browser.new_context().new_page()
    table.goto(server.url + "/")
    table.wait_for_selector("#join-url")
    url = table.inner_text("#join-url")
    anna = open_phone(browser, url, "Anna", "en")
    for seats, bot in enumerate(("greedy", "random"), start=2):
        # tapped again if a redraw took the button from under the finger
        rows = f"document.querySelectorAll('.seat-row').length === {seats}"
        tap_until(anna.page, f"[data-bot={bot}]", rows)
    anna.page.tap("#start")
    wait_until(anna.page, "document.body.dataset.phase === 'planning'")
    anna.page.tap("button[aria-label='Rules help']")
    assert "Place every viking" in anna.page.inner_text(".sheet")
    anna.page.tap(".sheet .close")
    anna.page.tap(".athand-hand")
    sheet = anna.page.inner_text(".sheet")
    assert "My castle" in sheet and "Amulets: 5" in sheet
    assert anna.errors == []


def test_the_pages_sha256_and_canonical_json_match_the_server(
    browser: Any, server: ServerProcess
) -> None:
    """The table display checks fingerprints itself; its hash must be the server's."""
    import hashlib

    from longhall.server.table import fingerprints

    page = browser.new_context().new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#join-url")
    samples = ["", "abc", "x" * 55, "y" * 56, "z" * 64, "é✓ viking", "q" * 1000]
    got = page.evaluate(
        "async (xs) => { const m = await import('/static/sha256.js'); return xs.map(m.sha256); }",
        samples,
    )
    assert got == [hashlib.sha256(s.encode()).hexdigest() for s in samples]
    salt = fingerprints.new_salt()
    plan = {"castle": 2, "A": 3, "siege:1:boat": 1}
    reveal: dict[str, Any] = {
        "seat": 0,
        "salt": salt,
        "hash": fingerprints.digest(salt, plan),
        "content": plan,
    }
    ok = page.evaluate(
        "async ([r, shown]) => (await import('/static/sha256.js')).verifyReveal(r, shown)",
        [reveal, reveal["hash"][: fingerprints.SHORT]],
    )
    tampered = page.evaluate(
        "async (r) => (await import('/static/sha256.js')).verifyReveal(r, null)",
        {**reveal, "content": {**plan, "A": 2, "B": 1}},
    )
    assert ok is True and tampered is False


def test_a_phone_whose_seat_was_taken_while_it_slept_offers_to_join_again(
    browser: Any, server: ServerProcess
) -> None:
    """The server refuses the stored token (``kicked``: the host sent this phone away); the page
    says why, forgets the token as a seat (instead of showing 'offline' for ever) and lets the
    player join again once the host lets the phone back in."""
    table = browser.new_context().new_page()
    table.goto(server.url + "/")
    table.wait_for_selector("#join-url")
    url = table.inner_text("#join-url")
    anna = open_phone(browser, url, "Anna", "en")
    bram = open_phone(browser, url, "Bram", "en")
    wait_until(anna.page, "document.querySelectorAll('.seat-row').length === 2")
    context = bram.page.context
    bram.page.close()  # the phone sleeps ...
    anna.page.get_by_role("button", name="Send away").last.tap()  # ... and the host removes Bram
    # the table has sent him away: his phone is in the host's list of phones kept out
    wait_until(anna.page, "document.querySelector('#barred') !== null")
    assert anna.page.evaluate("document.querySelectorAll('.seat-row').length") == 1
    woken = Watched(context.new_page(), "bram again")
    asked: list[Any] = []  # each time the phone asks the table again, a new WebSocket
    woken.page.on("websocket", lambda ws: asked.append(ws))
    woken.page.goto(url)
    woken.wait_for_text("Sent away by the host")
    code = url.rsplit("/", 1)[1]
    assert woken.page.evaluate(f"localStorage.getItem('longhall.token.{code}')") is None
    before = len(asked)
    woken.page.get_by_role("button", name="Join the table").tap()  # still kept out
    # the phone asks again and is refused again (the screen shows only the answer to that
    # second ask): otherwise the host could let the phone back in before it asked again
    deadline = time.monotonic() + 10
    while len(asked) == before:
        assert time.monotonic() < deadline, "the phone did not ask the table again"
        woken.page.wait_for_timeout(50)
    woken.wait_for_text("Sent away by the host")
    anna.page.get_by_role("button", name="Let back in").tap()
    wait_until(anna.page, "document.querySelector('#barred') === null")
    woken.page.get_by_role("button", name="Join the table").tap()
    woken.page.wait_for_selector("#name")
    woken.page.fill("#name", "Bram")
    woken.page.tap("#join")
    wait_until(anna.page, "document.querySelectorAll('.seat-row').length === 2")
    assert woken.errors == [] and anna.errors == []


def test_the_host_sets_the_table_display_s_language_from_the_phone(
    browser: Any, server: ServerProcess
) -> None:
    table = Watched(browser.new_context(locale="en").new_page(), "table")
    table.page.goto(server.url + "/")
    table.page.wait_for_selector("#join-url")
    anna = open_phone(browser, table.page.inner_text("#join-url"), "Anna", "en")
    # the host's phone shows the choice once the table has it (a tap an update redrew under the
    # finger is tapped again, as a player would)
    dutch = "[data-table-lang=nl]"
    tap_until(anna.page, dutch, f"!!document.querySelector('{dutch}.chosen')")
    # the language is loaded, then the screen drawn in it at the next frame
    table.wait_for_text("Scan met je telefoon om mee te spelen")
    assert "⟦" not in table.text()
    assert table.page.evaluate("document.documentElement.lang") == "nl"
    assert anna.page.evaluate("document.documentElement.lang") == "en"  # the phone keeps its own
    auto = "[data-table-lang=auto]"  # back to the table browser's language
    tap_until(anna.page, auto, f"!!document.querySelector('{auto}.chosen')")
    table.wait_for_text("Scan to join with your phone")
    assert table.page.evaluate("document.documentElement.lang") == "en"
    assert table.errors == [] and anna.errors == []


def dutch_on_its_way(browser: Any, server: ServerProcess) -> tuple[Any, Watched, Phone, list[Any]]:
    """A table display in English whose host (a Python client) has just chosen Dutch, the Dutch
    catalog's request held (in the list returned) until the test lets it go on."""
    context = browser.new_context(locale="en")
    table = Watched(context.new_page(), "table")
    table.page.goto(server.url + "/")
    table.page.wait_for_selector("#join-url")
    host = join_as_host(server, "Anna")
    held: list[Any] = []
    table.page.route("**/static/i18n/nl.json", lambda route: held.append(route))
    with table.page.expect_request("**/static/i18n/nl.json"):
        assert host.command("set_language", lang="nl")["ok"]
    return context, table, host, held


def test_the_table_display_takes_the_language_the_host_chose_last(
    browser: Any, server: ServerProcess
) -> None:
    """The host chooses Dutch, then French at once, and Dutch's catalog comes last (a slow
    request): the table display stays in French."""
    context, table, host, held = dutch_on_its_way(browser, server)
    assert host.command("set_language", lang="fr")["ok"]
    table.wait_for_text("Scannez pour jouer avec votre téléphone")
    with table.page.expect_event("requestfinished", lambda r: r.url.endswith("/nl.json")):
        held[0].continue_()
    # the catalog read, and whatever the page makes of it drawn: two frames on
    table.page.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() =>"
        " requestAnimationFrame(() => setTimeout(done))))"
    )
    assert table.page.evaluate("document.documentElement.lang") == "fr"
    assert "Scannez pour jouer avec votre téléphone" in table.text()
    host.disconnect()
    assert table.errors == []
    context.close()


def test_updates_while_a_language_is_on_its_way_do_not_ask_for_it_again(
    browser: Any, server: ServerProcess
) -> None:
    """The host chooses Dutch; while its catalog is on its way the table sends more updates (a
    game's moves come faster than a slow Wi-Fi's answer): the page waits for that one catalog,
    not for a new request per update, and is in Dutch once it comes."""
    context, table, host, held = dutch_on_its_way(browser, server)
    for bot in ("greedy", "random"):  # two updates the table display draws meanwhile
        assert host.command("add_bot", bot=bot)["ok"]
    wait_until(table.page, "document.querySelectorAll('.seats li').length === 3")
    held[0].continue_()
    table.wait_for_text("Scan met je telefoon om mee te spelen")
    assert len(held) == 1, f"the Dutch catalog was asked for {len(held)} times"
    host.disconnect()
    assert table.errors == []
    context.close()


# The page is told it is in front again ("focus") right after it sent its Socket.IO connect,
# before the table can have answered it: a microtask runs before any message that comes in.
FOCUS_WHILE_CONNECTING = """
const send = WebSocket.prototype.send;
window.connectsSent = 0;
WebSocket.prototype.send = function (data) {
  send.call(this, data);
  if (typeof data === "string" && data.startsWith("40")) {
    window.connectsSent += 1;
    if (window.connectsSent === 1) queueMicrotask(() => window.dispatchEvent(new Event("focus")));
  }
};
"""


def test_a_page_woken_while_it_connects_connects_once(browser: Any, server: ServerProcess) -> None:
    """A reloaded page is often told it is shown or in front while its connection is still being
    made: it must not ask to connect twice (the table refuses the second, and the refusal ended
    the first too: the page stayed offline for good)."""
    context = browser.new_context()
    context.add_init_script(FOCUS_WHILE_CONNECTING)
    table = Watched(context.new_page(), "table")
    table.page.goto(server.url + "/")
    wait_until(table.page, "document.body.dataset.online === 'true'")
    table.page.wait_for_selector("#join-url")
    assert table.page.evaluate("window.connectsSent") == 1
    assert table.errors == []
    context.close()
