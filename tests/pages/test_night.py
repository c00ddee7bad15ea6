"""The night in Chromium: between games the table display shows the night so far and each phone
its own night; at its end the table display sums it up with a chart and a QR code to the night's
page, which a phone can keep. Two finished games are seeded in the store (no game is played)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from longhall.server.config import Settings
from longhall.server.web.app import create_app
from tests.inprocess import finish, seated

from ..support import ServerProcess
from .conftest import PHONE, Watched, screenshot, tap_until, wait_until

BOB_PHONE = "bobs-phone-identity-0123456789"
NO_OVERFLOW = (
    "document.documentElement.scrollWidth <= window.innerWidth"
    " && document.documentElement.scrollHeight <= window.innerHeight"
)


def text(page: Any, selector: str) -> str:
    """An element's text now (the pages redraw from each message: no waiting on one element)."""
    found = f"document.querySelector({selector!r})"
    return str(page.evaluate(f"{found}.innerText ?? {found}.textContent"))


def seed_night(data_dir: Path) -> tuple[str, str]:
    """A night of two finished games: Eketorp with Anna, Bob and Cara (Bob and Cara share the
    win: Anna 0, Bob 1½, Cara 1½), then Vikings on Board without Cara and with a greedy bot
    (Anna 1, Bob 2, the bot 0: Bob 3½ in all). Returns the table code and Anna's token."""
    lh = create_app(Settings(data_dir=data_dir, gpio="off", bot_delay=60))
    try:
        anna, bob, cara = seated(lh, ["Anna", "Bob", "Cara"])
        assert anna.send("start")["ok"]
        finish(lh.table, [30, 42, 42], [1, 2])
        assert anna.send("remove_seat", seat=2)["ok"]
        assert anna.send("set_game", game="vikings_on_board")["ok"]
        assert anna.send("add_bot", bot="greedy")["ok"]
        assert anna.send("start")["ok"]
        finish(lh.table, [7, 9, 2], [1])
        assert bob.send("remember", phone=BOB_PHONE)["ok"]  # Bob's phone asks to be remembered
        assert anna.send("remove_seat", seat=1)["ok"]  # and Bob goes home
        assert anna.token is not None
        return lh.table.data.code, anna.token
    finally:
        lh.stop()


def test_the_night_on_the_table_display_a_phone_and_the_night_s_page(
    browser: Any, tmp_path: Path
) -> None:
    code, token = seed_night(tmp_path)
    server = ServerProcess(tmp_path, "--rate-limit", "1000")
    server.start()
    try:
        display = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en")
        table = Watched(display.new_page(), "table display")
        table.page.goto(server.url + "/")
        wait_until(table.page, "document.querySelector('#night-so-far') !== null")
        so_far = text(table.page, "#night-so-far")
        assert "Eketorp" in so_far and "Vikings on Board" in so_far
        assert "one point for each player you finished ahead of" in so_far

        phone = browser.new_context(**PHONE, locale="en")
        mine = Watched(phone.new_page(), "Anna's phone")
        mine.page.goto(f"{server.url}/join/{code}")
        mine.page.evaluate(f"localStorage.setItem('longhall.token.{code}', '{token}')")
        mine.page.reload()
        wait_until(mine.page, "document.querySelector('#my-night') !== null")
        night = text(mine.page, "#my-night")
        assert night.count("you played") == 2 and "+1" in night  # Anna beat the bot
        assert "place 3 · you played · +0" in night and "place 2 · you played · +1" in night
        assert text(mine.page, ".night-standings tr.me").startswith("3")  # third of four
        assert mine.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        screenshot(mine.page, "night-phone-390px")
        # Anna takes white for Eketorp; Vikings on Board has no white: her phone says so
        page = mine.page
        chosen = "document.querySelector('button[data-game={}]').classList.contains('chosen')"
        tap_until(page, "button[data-game=eketorp]", chosen.format("eketorp"))
        page.click("details.profile summary")
        tap_until(
            page,
            ".profile .swatch.colour-white",
            "!!document.querySelector('.topbar .colour-white')",
        )
        tap_until(
            page, "button[data-game=vikings_on_board]", "!!document.querySelector('.recoloured')"
        )
        assert "Vikings on Board has no white: you play" in text(page, ".recoloured")

        # the host ends the night from the phone (the Pi stays on), after a confirmation
        tap_until(mine.page, "#end-night", "document.querySelector('#end-night-confirm') !== null")
        tap_until(mine.page, "#end-night-confirm", "document.querySelector('#night-over') !== null")
        wait_until(table.page, "document.querySelector('#night-summary img.night-chart') !== null")
        wait_until(
            table.page,
            "[...document.querySelectorAll('#night-summary img')]"
            ".every((img) => img.complete && img.naturalWidth > 0)",
        )
        summary = text(table.page, "#night-summary")
        assert "Winner of the night: Bob" in summary
        assert "Longest game:" in summary and "Closest finish:" in summary
        assert "Bob\u2019s best game" in summary or "Bob's best game" in summary
        assert f"{server.url}/night/1".split("//")[1] in summary.replace("\n", "")
        assert table.page.evaluate(NO_OVERFLOW)
        screenshot(table.page, "night-summary-1080p")
        small = browser.new_context(viewport={"width": 1280, "height": 720}, locale="de")
        at720 = Watched(small.new_page(), "table display, 720p")
        at720.page.goto(server.url + "/?lang=de")
        wait_until(at720.page, "document.querySelector('#night-summary img.night-chart') !== null")
        assert "Sieger des Abends: Bob" in text(at720.page, "#night-summary")
        assert at720.page.evaluate(NO_OVERFLOW)
        assert mine.page.get_attribute("#night-page", "href") == "/night/1"

        # the night's page, as a phone keeps it: one page, its style and chart inside it
        keep = Watched(phone.new_page(), "the night's page")
        response = keep.page.goto(server.url + "/night/1")
        assert response is not None and response.ok
        assert "script-src" not in response.headers["content-security-policy"]
        rows = keep.page.locator("table.standings tbody tr")
        assert rows.count() == 4
        assert rows.nth(0).inner_text().split("\t")[:3] == ["1", "●Bob", "3½"]
        lines = keep.page.locator("svg.night-chart polyline[stroke-width='3']")
        assert lines.count() == 4  # one line each (the pale ones also have a dark outline)
        assert "(bot)" in text(keep.page, "svg.night-chart")
        assert keep.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        screenshot(keep.page, "night-page-390px")

        # Bob's phone, back at the next night: the table offers his name and colour in one tap
        bobs = browser.new_context(**PHONE, locale="en")
        back = Watched(bobs.new_page(), "Bob's phone")
        back.page.goto(f"{server.url}/join/{code}")
        back.page.evaluate(f"localStorage.setItem('longhall.phone', '{BOB_PHONE}')")
        back.page.reload()
        wait_until(back.page, "document.querySelector('#welcome-back') !== null")
        welcome = text(back.page, "#welcome-back")
        assert "Welcome back, Bob!" in welcome and "1 night here" in welcome
        assert "Eketorp: 1 win in 1 game · Vikings on Board: 1 win in 1 game" in welcome
        assert back.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        # one tap seats him again, as Bob in blue; then he leaves the table before the next game
        # (the phone joins, then asks the table to remember it: the record follows the seat)
        tap_until(back.page, "#join-again", "document.querySelector('#leave') !== null")
        wait_until(back.page, "document.querySelector('.seats').innerText.includes('1 night here')")
        assert "Bob" in text(back.page, ".seats") and "1 night here" in text(back.page, ".seats")
        tap_until(back.page, "#leave", "document.querySelector('#leave-confirm') !== null")
        with back.page.expect_navigation():  # the phone starts again, as one that may join
            back.page.tap("#leave-confirm")
        wait_until(back.page, "document.querySelector('#welcome-back') !== null")

        # the host makes the table forget Bob: his name goes from every screen and the page
        mine.page.click("details.history summary")
        forget = "li[data-player] button.danger"
        wait_until(mine.page, f"document.querySelector({forget!r}) !== null")
        assert "Bob" in text(mine.page, "ul.remembered")
        tap_until(mine.page, forget, "document.querySelector('ul.remembered') === null")
        wait_until(
            table.page, "!document.querySelector('#night-summary').innerText.includes('Bob')"
        )
        assert "a former player" in text(table.page, "#night-summary")
        assert table.latest is not None and "Bob" not in json.dumps(table.latest)
        keep.page.reload()
        assert "Bob" not in text(keep.page, "body") and "a former player" in text(keep.page, "body")

        wide = Watched(display.new_page(), "the night's page, wide")
        wide.page.goto(server.url + "/night/1?lang=fr")
        assert "Vainqueur de la soirée\u00a0: un ancien joueur" in text(wide.page, "body")
        for watched in (table, at720, mine, keep, wide, back):
            assert watched.errors == [], (watched.name, watched.errors)
    finally:
        server.stop()
