"""Vikings Gone Wild through the pages: the table display and three phones (two of them 360
pixels wide), in four languages (the phones in English, French and German, the table display in
Dutch, each with every word it needs), from the lobby to the final bonus split; a reload of every
phone and of the table display at every phase; the table display readable at 1920x1080 and
1280x720; and no held mission or uncommitted attack value ever reaching another seat, in any
message of the whole game or in the table display's page (W1.2, D3, D14)."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from ..support import ServerProcess
from .conftest import Watched, open_phone, screenshot, tap_until, wait_until
from .test_catalogs import catalog
from .test_table_display import MEASURE

pytestmark = pytest.mark.slow

# attack values no other figure of the game reaches (the track ends at 30), one per attack, so
# that a value found anywhere can only come from its own attack
FIRST_ATTACK = 50
UNDEAD_PER_TURN = 4
PHASE = "document.body.dataset.phase"
PROMPTS = "[...document.querySelectorAll('[data-prompt]')].map((e) => e.dataset.prompt).join()"
COMMITTED: list[int] = []  # the attack values the phones committed, in order


def has(page: Any, selector: str) -> bool:
    return page.query_selector(selector) is not None


def tap(page: Any, selector: str, wait: bool = True) -> None:
    """Tap and, for a step the table answers, wait until the page has the new version."""
    version = page.evaluate("document.body.dataset.version")
    with contextlib.suppress(Exception):  # the page redrew under the finger: the loop looks again
        page.tap(selector, timeout=3000)
    if wait:
        with contextlib.suppress(TimeoutError):
            wait_until(page, f"document.body.dataset.version !== '{version}'", timeout=5)


def action(kind: str) -> str:
    return f'[data-action*=\'"type":"{kind}"\']:not([disabled])'


# what a phone may offer its player, looked for in one go at each step (and whether it waits for
# the table's answer)
OFFERS = [
    "[data-prompt=table_bonus] [data-lay]",
    *(action(kind) for kind in ("take_mission", "tiebreak", "store", "store_done", "keep")),
    *("#vgw-claim", "#vgw-defend", "[data-prompt=turn]"),
]
OFFERED = """(offers) => [
  ...(document.body.dataset.pending === 'true' ? ['pending'] : []),
  ...offers.filter((selector) => document.querySelector(selector)),
]"""


class Player:
    """What one phone does, as a player would: a short plan for each of its turns."""

    def __init__(self, phone: Watched, seat: int) -> None:
        self.phone = phone
        self.seat = seat
        self.turns: dict[str, dict[str, int]] = {}
        self.undone = False
        self.defended = 0
        self.attacks = 0
        self.used: set[str] = set()

    def step(self) -> bool:
        """Do one thing the phone offers now; False when it waits for someone else."""
        page = self.phone.page
        offers = set(page.evaluate(OFFERED, OFFERS))  # one look at the screen
        if "pending" in offers:
            return False
        if "[data-prompt=table_bonus] [data-lay]" in offers:  # the start player (W1.3, D20)
            if "bonus_named" not in self.used:
                page.fill("#vgw-name-bonus_6", "Brewmaster")
                tap(page, "[data-name-bonus=bonus_6]")
                self.used.add("bonus_named")
                return True
            for card in ("explorer", "bonus_6", "builder", "miner"):
                if has(page, f"[data-lay={card}]:not(.chosen):not([disabled])"):
                    tap(page, f"[data-lay={card}]")
                    return True
            tap(page, action("bonus_laid"))
            self.used.add("bonus_cards")
            return True
        if action("take_mission") in offers:
            tap(page, action("take_mission"))
            self.used.add("mission")
            return True
        if "#vgw-claim" in offers:
            for selector in ("[data-bonus]:nth-of-type(1)", "[data-bonus]:nth-of-type(3)"):
                if self.seat == 0 or selector.endswith("(1)"):
                    tap(page, selector, wait=False)
            tap(page, "#vgw-claim")
            self.used.add("bonus")
            return True
        if action("tiebreak") in offers:
            tap(page, action("tiebreak"))
            return True
        if "#vgw-defend" in offers:
            self.defended += 1
            if self.defended % 2:
                page.fill("#vgw-def-cards", "1")
                page.fill("#vgw-def-value", "2")
                assert "+ 2 (" in page.inner_text(".vgw-defend .vgw-sum")  # its arithmetic
                tap(page, "#vgw-defend")
            else:
                tap(page, "#vgw-decline", wait=False)  # "no defence" takes a second tap
                tap(page, action("defend"))
            self.used.add("defend")
            return True
        if action("store") in offers:
            tap(page, action("store"))
            self.used.add("store")
            return True
        if action("store_done") in offers:
            tap(page, action("store_done"))
            return True
        if action("keep") in offers:
            tap(page, f"{action('keep')}:last-of-type")
            self.used.add("keep")
            return True
        if "[data-prompt=turn]" in offers:
            return self.turn(page)
        return False

    def turn(self, page: Any) -> bool:
        key = page.inner_text(".roundbar span")
        done = self.turns.setdefault(key, {"undead": 0, "build": 0, "attack": 0, "mission": 0})
        if done["build"] == 0 and has(page, action("build")):
            done["build"] = 1
            tap(page, action("build"))
            self.used.add("build")
            if not self.undone and has(page, action("undo")):
                self.undone = True  # take it back once, then build again
                tap(page, action("undo"))
                self.used.add("undo")
                done["build"] = 0
            return True
        if has(page, action("upgrade")):
            tap(page, action("upgrade"))
            self.used.add("upgrade")
            return True
        if done["mission"] == 0 and has(page, action("complete_mission")):
            done["mission"] = 1
            tap(page, action("complete_mission"))
            self.used.add("complete_mission")
            return True
        if done["undead"] < UNDEAD_PER_TURN and has(page, action("undead_river")):
            done["undead"] += 1
            tap(page, action("undead_river"))
            self.used.add("undead")
            return True
        if has(page, action("undead_board")):
            tap(page, action("undead_board"))
            return True
        if done["attack"] == 0 and has(page, "[data-target]:not([disabled])"):
            done["attack"] = 1
            return self.attack(page)
        tap(page, action("end_turn"))
        return True

    def attack(self, page: Any) -> bool:
        """Target player, then building, then its numbers once, then value and cards, commit."""
        ready = "document.querySelector('#vgw-attack-value, #vgw-save-numbers')"
        try:
            tap(page, "[data-target]:not([disabled])", wait=False)
            wait_until(page, "document.querySelector('[data-building]')", timeout=5)
            tap(page, "[data-building]:last-child", wait=False)
            wait_until(page, ready, timeout=5)
            if "numbers" not in self.used and has(page, "[data-edit-numbers]"):
                tap(page, "[data-edit-numbers]", wait=False)  # a card's numbers corrected once
                wait_until(page, "document.querySelector('#vgw-save-numbers')", timeout=5)
            if has(page, "#vgw-save-numbers"):
                page.fill("#vgw-defence", "3")
                # the most a card may give (W4.9, D1): attacks won bring the end mark nearer,
                # a whole game in fewer turns
                page.fill("#vgw-reward-points", "9")
                tap(page, "#vgw-save-numbers")
                self.used.add("numbers")
                wait_until(page, "document.querySelector('#vgw-attack-value')", timeout=5)
        except TimeoutError:
            return True  # redrawn by an update: the next step looks again
        if not has(page, "#vgw-attack-value"):
            return True  # redrawn by an update: the next step looks again
        value = FIRST_ATTACK + len(COMMITTED)
        COMMITTED.append(value)
        page.fill("#vgw-attack-value", str(value))
        page.fill("#vgw-attack-cards", "3")
        tap(page, "#vgw-commit")
        self.attacks += 1
        self.used.add("attack")
        return True


def numbers_at(node: Any, keys: set[str], path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every (path, number) in a message under a key among ``keys``."""
    found: list[tuple[Any, ...]] = []
    if isinstance(node, dict):
        for key, child in node.items():
            if key in keys and isinstance(child, int):
                found.append(((*path, key), child))
            found += numbers_at(child, keys, (*path, key))
    elif isinstance(node, list):
        for i, child in enumerate(node):
            found += numbers_at(child, keys, (*path, i))
    return found


def pending_values(watched: list[Watched]) -> dict[str, int]:
    """Each committed attack's value by its fingerprint, from its attacker's and its defender's
    own messages (D3)."""
    out = {}
    for phone in watched:
        for _, message in phone.messages:
            game = message.get("game")
            own = game and game.get("private") and game["private"]["attack"]
            if game and own:
                attacker = game["public"]["attack"]["attacker"]
                fingerprint = message["table"]["fingerprints"][str(attacker)]
                out[fingerprint] = own["attack"]
    return out


def check_secrecy(watched: Watched, seat: int | None, values: dict[str, int]) -> int:
    """No message this page received holds another seat's missions, or an attack value before
    its defender answered unless this page is its attacker's or its defender's (D3); return how
    many messages were checked."""
    checked = 0
    previous: dict[str, Any] = {}
    for _, message in watched.messages:
        game = message.get("game")
        if not game or game.get("game") != "vikings_gone_wild":
            continue
        checked += 1
        pub = game["public"]
        if seat is None:
            assert game["private"] is None
        else:
            assert game["seat"] == seat
            own = game["private"]["attack"]
            assert own is None or (
                pub["attack"] and seat in (pub["attack"]["attacker"], pub["attack"]["target"])
            )
        for s in pub["seats"]:  # how many missions each holds, never which (W1.2, D14)
            assert "missions" not in s and set(s) >= {"missions_held", "missions_done"}
        for event in pub["log"]:
            assert event["e"] != "mission_taken" or set(event) == {"e", "seat", "held", "turn"}
        attack = pub["attack"]
        if attack is not None:
            assert set(attack) == {"attacker", "target", "building", "card", "cards"}
            fingerprint = message["table"]["fingerprints"].get(str(attack["attacker"]))
            value = values.get(fingerprint)
            if seat not in (attack["attacker"], attack["target"]) and value is not None:
                # the value may stand in what this page already had (an earlier attack's reveal
                # or log line with the same number), but nothing may bring it in while pending
                found = [p for p, v in numbers_at(message, {"attack", "value"}) if v == value]
                had = [p for p, v in numbers_at(previous, {"attack", "value"}) if v == value]
                assert len(found) <= len(had), (
                    f"{watched.name}: the uncommitted attack value at {found}"
                )
        previous = message
    return checked


def waiting_value(phone: Watched) -> tuple[int, int] | None:
    """(version, value) of this phone's attack still waiting for its answer, if any."""
    for _, message in reversed(phone.messages):
        game = message.get("game")
        if game and game.get("private") is not None:
            own = game["private"]["attack"]
            # the attacker's own attack, not the one its defender is told of
            mine = own and game["public"]["attack"]["attacker"] == game["seat"]
            return (message["version"], own["attack"]) if mine else None
    return None


def table_text_without_fingerprints(page: Any) -> str:
    """The table display's words, each text apart, without fingerprints and the address."""
    return str(
        page.evaluate(
            "(() => { const out = []; const walk = document.createTreeWalker(document.body,"
            " NodeFilter.SHOW_TEXT); while (walk.nextNode()) { const n = walk.currentNode;"
            " if (!n.parentElement.closest('code, .check, .join-hint')) out.push(n.data); }"
            " return out.join(' | '); })()"
        )
    )


def untranslated(page: Any) -> str | None:
    """A catalog key shown instead of its words (⟦key⟧), if any."""
    text = str(page.evaluate("document.body.innerText"))
    at = text.find("\u27e6")
    return None if at < 0 else text[at : at + 60]


def reload(page: Any, phase: str) -> tuple[str, str]:
    """Reload a page in ``phase``; return its prompts before and after (the same screen, unless
    the table moved on meanwhile: an update may be on its way as the page reloads)."""
    version, prompt = page.evaluate(f"[Number(document.body.dataset.version), {PROMPTS}]")
    page.reload()
    # bounds for a stuck page, not timings: a reload under a whole suite with every core busy
    # once took over 10 s to load the page's modules and connect
    wait_until(page, "document.body.dataset.online === 'true'", 30)
    back = f"Number(document.body.dataset.version) >= {version}"
    drawn = f"!!{PHASE} || document.body.dataset.status === 'over'"
    wait_until(page, f"{back} && ({drawn})", 30)
    now, after = page.evaluate(f"[Number(document.body.dataset.version), {PROMPTS}]")
    return prompt, after if now == version and page.evaluate(PHASE) == phase else prompt


@pytest.mark.slow(seconds=70)
def test_a_whole_game_with_three_phones(browser: Any, server: ServerProcess) -> None:
    words = catalog("nl")  # the table display's language
    table_context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en")
    table = Watched(table_context.new_page(), "table")
    table.page.goto(server.url + "/")
    table.page.wait_for_selector("#join-url")
    join_url = table.page.inner_text("#join-url")
    phones = [
        open_phone(browser, join_url, "Anna", "en"),
        open_phone(browser, join_url, "Bram", "fr", small=True),  # 360 px phones
        open_phone(browser, join_url, "Cara", "de", small=True),
    ]
    host = phones[0].page
    wait_until(host, "document.querySelectorAll('.seat-row').length === 3")
    host.tap("[data-game=vikings_gone_wild]")
    # the game's own lobby options drawn (they move what is below them), then the host sets
    # the table display's language
    wait_until(host, "document.querySelector('[data-game=vikings_gone_wild].chosen')")
    wait_until(host, "document.querySelector('[data-end-mark-now]')")
    dutch = "[data-table-lang=nl]"
    tap_until(host, dutch, f"!!document.querySelector('{dutch}.chosen')")
    wait_until(table.page, "document.documentElement.lang === 'nl'")
    wait_until(table.page, "document.querySelector('.vgw-lobby-facts[data-end-mark=\"30\"]')")
    # the page's language is set just before the frame that draws its words
    wait_until(table.page, "document.querySelector('.game-facts').innerText.includes('spelers')")
    facts = table.page.inner_text(".game-facts")
    assert "Vikings Gone Wild" in facts and "2\u20134 spelers" in facts and "45 minuten" in facts
    host.tap("#start")
    wait_until(host, "document.body.dataset.status === 'playing'", timeout=15)
    wait_until(table.page, "document.querySelector('.vgw-track')", timeout=15)

    players = [Player(phone, seat) for seat, phone in enumerate(phones)]
    reloaded: set[tuple[int, str]] = set()
    measured: set[str] = set()
    problems: set[str] = set()
    saw_pending = False
    for _ in range(3000):
        if table.page.evaluate("document.body.dataset.status") == "over":
            break
        acted = False
        for player in players:
            page = player.phone.page
            phase = page.evaluate(PHASE)
            if phase and (player.seat, phase) not in reloaded:
                # a reload at every phase draws the same screen again (unless the table moved
                # on meanwhile), every word in the phone's language
                reloaded.add((player.seat, phase))
                prompt, after = reload(page, phase)
                assert after == prompt or not prompt, (phase, prompt, after)
                assert untranslated(page) is None, (player.seat, phase, untranslated(page))
                screenshot(page, f"vgw-phone-{player.seat}-{phase}")
            width = page.viewport_size["width"]
            assert page.evaluate("document.documentElement.scrollWidth") <= width, phase
            acted = player.step() or acted
        tphase = table.page.evaluate(PHASE)
        if tphase == "defend":
            saw_pending = True
            # the attack waiting for its answer, with its fingerprint (read in one go: the
            # table may move on between two reads)
            shown = table.page.evaluate(
                "(() => ({phase: document.body.dataset.phase, fingerprint: (document.querySelector("
                "'.vgw-fingerprint code') || {}).textContent || ''}))()"
            )
            assert shown["phase"] != "defend" or len(shown["fingerprint"]) == 8, shown
            for player in players:  # a phone's attack waiting for its answer stays off the table
                value = waiting_value(player.phone)
                text = table_text_without_fingerprints(table.page)
                if value and value[0] == int(table.page.evaluate("document.body.dataset.version")):
                    at = text.find(str(value[1]))
                    assert at < 0, text[max(0, at - 80) : at + 20]
        assert table.page.query_selector("[data-secret]") is None  # no missions on the table
        if tphase and tphase not in measured:
            measured.add(tphase)
            reload(table.page, tphase)  # the table display too draws the phase again
            assert untranslated(table.page) is None, (tphase, untranslated(table.page))
            screenshot(table.page, f"vgw-table-{tphase}")
            for w, hgt in ((1280, 720), (1920, 1080)):
                table.page.set_viewport_size({"width": w, "height": hgt})
                problems |= {f"{tphase} {w}: {p}" for p in table.page.evaluate(MEASURE)}
        if not acted:
            if has(host, "#vgw-next:not([disabled])"):
                tap(host, "#vgw-next")
            else:
                host.wait_for_timeout(50)
    else:
        raise AssertionError("the game did not end")

    assert saw_pending
    assert {"table_bonus", "production", "draw", "players", "defend", "storage", "end"} <= measured
    used = set().union(*(player.used for player in players))
    assert used >= {
        *("bonus_cards", "bonus_named", "mission", "build", "undo", "attack", "numbers"),
        *("defend", "undead", "bonus"),
    }, used
    wait_until(table.page, "document.querySelector('.final')", timeout=15)
    screenshot(table.page, "vgw-table-final")
    final = table.page.inner_text(".final")
    assert words["vgw.bonus_title"] in final
    # the 4 the start player laid, the one without a printed name by the group's name (D20)
    assert words["vgw.bonus.explorer"] in final and "Brewmaster" in final
    assert table.page.query_selector(".final .winners") is not None
    for phone in phones:
        wait_until(phone.page, "document.querySelector('.final')", timeout=15)
    screenshot(phones[1].page, "vgw-phone-final")
    for watched in (*phones, table):
        assert untranslated(watched.page) is None, watched.name
    values = pending_values(phones)
    assert len(values) >= 2
    for seat, phone in enumerate(phones):
        assert check_secrecy(phone, seat, values) > 50
    assert check_secrecy(table, None, values) > 50
    assert not problems, "\n".join(sorted(problems)[:30])
    for watched in (*phones, table):
        assert watched.errors == [], f"{watched.name}: {watched.errors}"
    table_context.close()
    for phone in phones:
        phone.page.context.close()
