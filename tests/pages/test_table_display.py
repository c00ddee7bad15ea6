"""The table display fits its screen: 1920x1080 and 1280x720, in four languages, with 3 and 6
players, from the lobby through planning and the fights to the final score.

Nothing may stick out of the screen or out of its panel, no text may be cut off, no translation
may be missing, Eketorp's stones fill their building sites, nothing may be animated without end,
and the page may log no error. A Python Socket.IO client is the one human player (the host), so
the test decides when the game waits: the table display is measured only while the game waits for
that player or for NEXT, when nothing moves under the measuring tape. There the host sets the
table display's language to each language in turn, as a host may from the lobby or the host's
sheet during a game: one page follows the game, not one per language (four pages drawing every
update of a whole game were most of this test's time). Between two situations the page draws in
the language set last, German, and a console error there fails the test too."""

from __future__ import annotations

import random
from typing import Any

import pytest

from longhall.server.games.api import progress_actions

from ..support import Phone, ServerProcess
from .conftest import ARTIFACTS, Watched, screenshot

pytestmark = pytest.mark.slow

LANGUAGES = ("en", "nl", "fr", "de")
SIZES = ((1920, 1080), (1280, 720))
# every situation the table display must show well; each is measured in an early and a late round
MUST_SEE = {"lobby", "planning", "fight", "over"}

# Everything that does not fit or cannot be read, as sentences. Text is at least about 24px at
# 1080p (and as much of the screen at 720p). An element "sticks out" when its box leaves the
# screen or its panel; it "is cut off" when its content is bigger than its box (scrollWidth or
# scrollHeight beyond clientWidth or clientHeight), whether its overflow is hidden or visible.
# A container marked data-whole-lines (the log) may hide whole children that do not fit, never
# part of one.
MEASURE = """async () => {
  // the screen as it is painted: after a resize, the room of the boxes is measured before the
  // paint (table_display/page.js), so the next frame is awaited first
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
  const problems = [];
  const W = window.innerWidth, H = window.innerHeight, slack = 1;
  const least = H * 0.0215; // the smallest text: about 24px on a 1080p screen
  const doc = document.documentElement;
  if (doc.scrollWidth > W || doc.scrollHeight > H) {
    problems.push(`the page is ${doc.scrollWidth}x${doc.scrollHeight}, bigger than the screen`);
  }
  const say = (el) => {
    const names = (el.getAttribute("class") || "").trim(); // an SVG's too
    const cls = names ? "." + names.split(/\\s+/).join(".") : "";
    const text = (el.textContent || "").replace(/\\s+/g, " ").trim().slice(0, 40);
    return `<${el.tagName.toLowerCase()}${cls}> "${text}"`;
  };
  const inside = (r, box) => r.left >= box.left - slack && r.top >= box.top - slack
    && r.right <= box.right + slack && r.bottom <= box.bottom + slack;
  const apart = (r, box) => r.right <= box.left + slack || r.left >= box.right - slack
    || r.bottom <= box.top + slack || r.top >= box.bottom - slack;
  const hidden = new Set();
  for (const box of document.querySelectorAll("[data-whole-lines]")) {
    const outer = box.getBoundingClientRect();
    for (const child of box.children) {
      const r = child.getBoundingClientRect();
      if (apart(r, outer)) {
        hidden.add(child);
      } else if (!inside(r, outer)) {
        problems.push(`${say(child)} is cut in half at the edge of ${say(box)}`);
      }
    }
  }
  const screen = { left: 0, top: 0, right: W, bottom: H };
  for (const el of document.querySelectorAll("#app *")) {
    if (hidden.has(el) || [...hidden].some((h) => h.contains(el))) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (!inside(r, screen)) {
      const at = [r.left, r.top, r.right, r.bottom].map(Math.round);
      problems.push(`${say(el)} sticks out of the screen (${at})`);
    }
    const panel = el.parentElement && el.parentElement.closest(".panel");
    if (panel && !inside(r, panel.getBoundingClientRect())) {
      problems.push(`${say(el)} sticks out of its panel ${say(panel)}`);
    }
    if (el.hasAttribute("data-whole-lines") || el instanceof SVGElement) continue;
    const style = getComputedStyle(el);
    const text = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (text && parseFloat(style.fontSize) < least) {
      problems.push(`${say(el)} is too small to read across the table: ${style.fontSize}`);
    }
    if (style.display === "inline" || el.clientWidth === 0) continue;
    if (el.scrollWidth > el.clientWidth + slack || el.scrollHeight > el.clientHeight + slack) {
      problems.push(`${say(el)} is cut off: ${el.scrollWidth}x${el.scrollHeight} in`
        + ` ${el.clientWidth}x${el.clientHeight} (overflow ${style.overflow})`);
    }
  }
  // Eketorp's stones fill the room their building site has (up to 2.6rem; 3.4rem with three
  // players), as the site's room is now, not as it was when it was last measured
  const rem = parseFloat(getComputedStyle(doc).fontSize);
  const most = (document.querySelector("#app.players-3") ? 3.4 : 2.6) * rem;
  for (const sites of document.querySelectorAll(".castle .sites")) {
    const box = sites.getBoundingClientRect(), pad = getComputedStyle(sites);
    const w = box.width - parseFloat(pad.paddingLeft) - parseFloat(pad.paddingRight);
    const h = box.height - parseFloat(pad.paddingTop) - parseFloat(pad.paddingBottom);
    const room = Math.min((h - 1.7 * rem) / 3.2, w / 2 - .35 * rem);
    const chip = Math.min(Math.max(1.1 * rem, room), most);
    for (const stone of sites.querySelectorAll(".stone")) {
      const high = stone.getBoundingClientRect().height;
      if (Math.abs(high - chip) > 0.5) {
        const sizes = `${high.toFixed(1)}px high, its site has room for ${chip.toFixed(1)}px`;
        problems.push(`${say(stone)} is ${sizes}`);
      }
    }
  }
  if (document.body.innerText.includes("\\u27e6")) problems.push("a missing translation (\\u27e6)");
  // nothing moves without end: an endless animation keeps the kiosk's browser drawing every
  // frame, and on a Pi each update waits behind it (docs/performance-history.md, "The pages")
  for (const animation of document.getAnimations()) {
    const effect = animation.effect;
    if (effect && effect.target && effect.getTiming().iterations === Infinity) {
      const what = `${say(effect.target)}${effect.pseudoElement || ""}`;
      const name = animation.animationName || "by a script";
      problems.push(`${what} is animated without end (${name})`);
    }
  }
  return problems;
}"""


# The join code is never cut in two; the frame around the castles the table waits for is dashed
# and has no seat's colour (a yellow frame would look like the yellow seat's).
DETAILS = """() => {
  const parts = document.querySelectorAll("#join-url .nobreak");
  const castle = document.querySelector(".castle.acting");
  const frame = castle && getComputedStyle(castle, "::after");
  return {
    code_lines: parts.length ? parts[parts.length - 1].getClientRects().length : null,
    frame: frame && [frame.borderTopStyle, frame.borderTopColor],
    seat_colours: [...document.querySelectorAll(".castle .badge .symbol")]
      .map((symbol) => getComputedStyle(symbol).backgroundColor),
  };
}"""


# Resolves when the page has drawn a version (in a game, with the game's screen) in a language,
# on the page's own change of data-version, data-phase or lang (a MutationObserver), not by
# polling against a budget: a busy machine makes the page slower, not wrong. The ceiling is only
# there so that a page that never gets there fails instead of hanging. The page sets ``lang``
# once the language's catalog is in (common.js's loadLanguage) and draws in it at the next frame
# (a draw is once a frame): so this resolves after that frame's callbacks, the draw among them.
REACHED = """([version, lang, ceiling]) => new Promise((resolve, reject) => {
  // and, in a game, its game's screen is drawn (the game's module loads after the first draw)
  const body = document.body.dataset;
  const reached = () => Number(body.version) >= version
    && (body.status !== "playing" || body.phase) && document.documentElement.lang === lang;
  const drawn = () => requestAnimationFrame(() => setTimeout(() => resolve(true)));
  if (reached()) return drawn();
  const watch = new MutationObserver(() => {
    if (reached()) { watch.disconnect(); clearTimeout(stuck); drawn(); }
  });
  const filter = (names) => ({ attributes: true, attributeFilter: names });
  watch.observe(document.body, filter(["data-version", "data-phase"]));
  watch.observe(document.documentElement, filter(["lang"]));
  const stuck = setTimeout(() => {
    watch.disconnect();
    const now = `version ${body.version} in ${document.documentElement.lang}`;
    reject(new Error(`${now}, never ${version} in ${lang}`));
  }, ceiling * 1000);
})"""
STUCK = 300.0  # seconds without the awaited change: the page is stuck, not slow


def wait_until_drawn(page: Any, version: int, lang: str) -> None:
    """Wait until the page has drawn ``version`` (or a later one) in ``lang``."""
    page.evaluate(REACHED, [version, lang, STUCK])


def join_as_host(server: ServerProcess, name: str) -> Phone:
    lobby = Phone(server.url).connect()
    code = lobby.current["table"]["code"]
    lobby.disconnect()
    host = Phone(server.url, {"code": code}, name=name).connect()
    assert host.join(name)["ok"]
    return host


def decide(host: Phone, rnd: random.Random) -> tuple[str, dict[str, Any]] | None:
    """The host's next command while the game waits for it (a move, or NEXT), else None."""
    view = host.latest
    assert view is not None
    pub = view["game"]["public"]
    if host.seat in pub["active"]:
        legal = progress_actions(view["game"]["legal"])
        if legal:
            return "act", {"action": rnd.choice(legal)}
    if pub["table_actions"] and not set(pub["active"]) - {host.seat}:
        return "table", {"action": {"type": pub["table_actions"][0]}}
    return None


def situation(view: dict[str, Any]) -> tuple[str, str]:
    """What the table display shows now, broadly (a fight) and exactly (its phase)."""
    pub = view["game"]["public"]
    late = "late" if pub["round"] >= pub["max_rounds"] - 1 else "early"
    if pub["fight"] is not None:
        return "fight", f"fight-{pub['phase']}-{late}"
    if pub["phase"] == "pick" and pub["last_fight"]:
        return "pick", f"pick-after-a-fight-{late}"
    return str(pub["phase"]), f"{pub['phase']}-{late}"


class TableScreens:
    """The table display, in each language the host sets in turn, resized to each screen size."""

    def __init__(self, browser: Any, url: str, host: Phone, players: int) -> None:
        self.players = players
        self.host = host
        context = browser.new_context(viewport={"width": 1920, "height": 1080})
        self.watched = Watched(context.new_page(), "table")
        self.watched.page.goto(url + "/")  # no language of its own: it follows the host's
        self.problems: list[str] = []
        self.seen: set[str] = set()  # situations measured, broadly
        self.measured: set[str] = set()  # and exactly

    def measure(self, kind: str, name: str) -> None:
        self.seen.add(kind)
        self.measured.add(name)
        page = self.watched.page
        for lang in LANGUAGES:
            answer = self.host.command("set_language", lang=lang)
            assert answer["ok"], answer
            wait_until_drawn(page, answer["version"], lang)
            for width, height in SIZES:
                page.set_viewport_size({"width": width, "height": height})
                shot = f"table-display-{self.players}p-{name}-{lang}-{width}"
                found = []
                details = page.evaluate(DETAILS)
                if kind == "lobby" and details["code_lines"] != 1:
                    found.append("the join code is not on one line")
                if kind == "planning":  # the host has not committed: the table waits for them
                    style, colour = details["frame"] or ("none", "")
                    if style != "dashed" or colour in details["seat_colours"]:
                        found.append(f"the castles waited for are framed {style} {colour}")
                found += page.evaluate(MEASURE)
                # each screen in English for a person to look at, and any screen with a problem
                if found or lang == "en":
                    screenshot(page, shot)
                self.problems += [f"{shot}: {problem}" for problem in found[:12]]
            assert self.watched.errors == [], f"console errors in {lang}: {self.watched.errors}"


@pytest.mark.slow(seconds=45)
@pytest.mark.parametrize("players", [3, 6])
def test_the_table_display_fits_both_screens_in_every_language(
    browser: Any, server: ServerProcess, players: int
) -> None:
    rnd = random.Random(players)
    host = join_as_host(server, "Anna-Katharina")
    tables = TableScreens(browser, server.url, host, players)
    for bot in ["greedy", "random"] * 3:
        if len(host.current["table"]["seats"]) < players:
            assert host.command("add_bot", bot=bot)["ok"]
    tables.measure("lobby", "lobby")
    assert host.command("start")["ok"]
    host.wait(lambda v: v["game"] is not None)

    seen = -1
    while True:
        view = host.latest
        assert view is not None
        if view["table"]["status"] == "over":
            break
        step = decide(host, rnd)
        if step is None:  # a bot is about to move: wait for its update, however slow
            if view["version"] == seen:
                assert host.changed.wait(STUCK), f"no update for {STUCK} s: the game is stuck"
            seen = view["version"]
            host.changed.clear()
            continue
        kind, name = situation(view)
        if name not in tables.measured:
            tables.measure(kind, name)
        command, fields = step
        answer = host.command(command, **fields)
        assert answer["ok"] or answer["error"]["code"] == "stale_version", answer
    host.wait(lambda v: v["table"]["status"] == "over")
    tables.measure("over", "over")
    host.disconnect()

    assert tables.seen >= MUST_SEE, tables.seen
    problems = tables.problems
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"table-display-{players}p-problems.txt").write_text("\n".join(problems) + "\n")
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:60])
