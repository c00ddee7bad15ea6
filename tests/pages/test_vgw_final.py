"""Vikings Gone Wild from the second turn to the final screen, as the phones and the table display
show it: who holds the first player token, then passes it left (W1.5, W2.8); a player whose
produce no Reserve can take is told it is lost (W2.5, D9); a tie settled by the tie-break is
explained on the table display and the phones, and the tied player who lost it is never
ranked "1." beside the winner (W9.6, D17); both say why the game ended (W9.3)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from ..support import Phone, ServerProcess
from .conftest import Watched, open_phone, wait_until

pytestmark = pytest.mark.slow

BOB, ANNA = 0, 1


def version(phone: Phone) -> int:
    latest = phone.latest
    assert latest is not None
    return int(latest["version"])


def at(watched: Watched, seen: int) -> None:
    """Wait until the page has drawn the table's version ``seen``."""
    wait_until(watched.page, f"Number(document.body.dataset.version) >= {seen}")


def public(phone: Phone) -> dict[str, Any]:
    latest = phone.latest
    assert latest is not None
    view: dict[str, Any] = latest["game"]["public"]
    return view


def next_(bob: Phone, times: int = 1) -> None:
    for _ in range(times):
        ack = bob.command("table", action={"type": "next"})
        assert ack["ok"], ack


def tap(watched: Watched, selector: str, bob: Phone) -> None:
    """Anna taps what her screen shows now; Bob's connection sees the table move on."""
    seen = version(bob)
    at(watched, seen)
    watched.page.tap(selector)
    bob.wait(lambda v: v["version"] > seen)


def test_the_token_lost_produce_and_a_settled_tie_are_told(
    browser: Any, server: ServerProcess
) -> None:
    lobby = Phone(server.url).connect()
    code = lobby.current["table"]["code"]
    lobby.disconnect()
    bob = Phone(server.url, {"code": code}, name="Bob").connect()
    assert bob.join("Bob")["ok"]  # the host, seat 0, the start player
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en")
    table = Watched(context.new_page(), "table display")
    table.page.goto(server.url + "/")
    table.page.wait_for_selector("#join-url")
    anna = open_phone(browser, table.page.inner_text("#join-url"), "Anna", "en")
    bob.wait(lambda v: len(v["table"]["seats"]) == 2)  # Bob's next command sees Anna seated
    chosen = bob.command("set_game", game="vikings_gone_wild")
    assert chosen["ok"], chosen
    assert bob.command("start")["ok"]
    assert bob.command("act", action={"type": "first_game_bonus"})["ok"]
    next_(bob, 2)  # production, draw
    at(table, version(bob))
    at(anna, version(bob))
    assert "null" not in anna.page.inner_text("main")  # no missing panel shown as a word
    assert table.page.get_attribute(".vgw-village .vgw-first", "data-first") == str(BOB)
    assert anna.page.inner_text(".vgw-first").endswith("Bob holds the first player token")

    # turn 1: Anna builds a Brewery, which produces from the next turn on (W3.4)
    assert bob.command("act", action={"type": "end_turn"})["ok"]
    at(anna, version(bob))
    tap(anna, '[data-action=\'{"type":"build","kind":"brewery"}\']', bob)
    tap(anna, '[data-action=\'{"type":"end_turn"}\']', bob)
    next_(bob, 2)  # storage, end: the token passes left (W2.8)
    next_(bob, 2)  # production of turn 2, draw
    at(anna, version(bob))
    at(table, version(bob))
    assert table.page.get_attribute(".vgw-village .vgw-first", "data-first") == str(ANNA)
    assert anna.page.inner_text(".vgw-first").endswith("Anna holds the first player token")

    # a town hall's level is a label that never breaks in two, on either screen
    for watched in (table, anna):
        lines = watched.page.evaluate(
            "[...document.querySelectorAll('.vgw-hall-name')].map((e) => e.getClientRects().length)"
        )
        assert lines and set(lines) == {1}, watched.name

    # turn 2: Anna's beer has no Reserve to go to; both reach the end mark (host corrections)
    for seat in (BOB, ANNA):
        fix = {"type": "correct", "seat": seat, "what": "score", "building": 0, "value": 40}
        assert bob.command("host_act", action={**fix, "reason": "end of the evening"})["ok"]
    tap(anna, '[data-action=\'{"type":"end_turn"}\']', bob)
    assert bob.command("act", action={"type": "end_turn"})["ok"]
    assert public(bob)["phase"] == "storage"
    at(anna, version(bob))
    assert anna.page.get_attribute("[data-lost]", "data-lost") == "beer"
    assert "this is lost when the phase ends: 1 beer" in anna.page.inner_text("[data-lost]")
    next_(bob, 2)  # storage, end (no Drakkar: nobody is asked, W9.3)
    assert public(bob)["phase"] == "bonus"

    # the bonus: nobody meets any card, so 40-40; the tie-break card is met by Bob alone
    assert bob.command("act", action={"type": "bonus", "meets": [False] * 4})["ok"]
    at(anna, version(bob))
    tap(anna, "#vgw-claim", bob)
    assert public(bob)["phase"] == "tiebreak"
    assert bob.command("act", action={"type": "tiebreak", "meets": True})["ok"]
    at(anna, version(bob))
    tap(anna, '[data-action=\'{"type":"tiebreak","meets":false}\']', bob)
    final = public(bob)
    assert final["phase"] == "over" and final["result"]["winners"] == [BOB]
    card = final["tiebreak"]["rounds"][0]["card"]
    at(anna, version(bob))
    at(table, version(bob))
    ranks = {
        seat: anna.page.inner_text(f".score-card[data-seat='{seat}'] .rank") for seat in (0, 1)
    }
    assert ranks == {BOB: "1.", ANNA: "2."}  # equal points, but the tie was settled
    why = "A player reached the end mark of 40 VP: that turn was played to its end"
    for watched in (anna, table):  # why the game ended (W9.3)
        assert watched.page.inner_text(".end-reason").startswith(why), watched.name
    told = anna.page.inner_text(".vgw-tiebreak-result")
    on_table = table.page.inner_text(".final")
    for page_text in (told, on_table):  # the phone names a player with their symbol
        assert re.search(r"Tied on 40 VP: (\S+ )?Bob, (\S+ )?Anna\.", page_text), page_text
        met = f"Tie-break card {card_name(table, card)}: met by "
        assert re.search(re.escape(met) + r"(\S+ )?Bob\.", page_text), page_text

    for watched in (table, anna):
        assert watched.errors == [], f"{watched.name}: {watched.errors}"
    context.close()
    anna.page.context.close()
    bob.disconnect()


def card_name(table: Watched, card: str) -> str:
    """A bonus card's name in the page's language."""
    return str(
        table.page.evaluate(
            "async (id) => (await import('/static/common.js')).t(`vgw.bonus.${id}`)", card
        )
    )
