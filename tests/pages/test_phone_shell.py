"""The phone page's shell, what a player meets in every game: the lobby's box to change colour, a
new screen that opens at its top, a finger on the glass that holds the redraw only as long as a
tap and no longer than its click, and the screen kept on while a game is played.

Most tests put the phone where they need it through the stand-in server (phone_driver.py, as in
test_phone_flow.py); the last plays against a real server (the game starts, the screen keeps on).
"""

from __future__ import annotations

from typing import Any

import pytest

from ..games.eketorp.helpers import BLUE, RED, new_game, plan
from ..support import ServerProcess
from .conftest import open_phone, screenshot, tap_until, wait_until
from .phone_driver import Phone

pytestmark = pytest.mark.slow


def test_the_box_to_change_colour_stays_as_the_player_left_it_across_updates(
    browser: Any, files_server: ServerProcess
) -> None:
    """Another player joining redraws the lobby: a box the player opened to choose a colour
    stays open (it closed under their finger), and one they closed stays closed."""
    phone = Phone(browser, files_server, new_game(4), status="lobby")
    page = phone.page
    is_open = "document.querySelector('details.profile').open"
    page.tap("details.profile summary")
    wait_until(page, is_open)
    for opened in (True, False):
        phone.push()  # an update: the lobby is drawn again
        wait_until(page, f"document.body.dataset.version === '{phone.version}'")
        assert page.evaluate(is_open) is opened
        if opened:
            page.tap("details.profile summary")  # and the player closes it
            wait_until(page, f"!{is_open}")
    # a redraw between the tap and the box's toggle event (which comes a moment later) too
    for opened in (True, False):
        assert page.evaluate(TAP_AND_REDRAW) == [opened, opened]
    phone.no_errors()


# the host taps the box of earlier games closed; once the page has heard of it (its toggle event)
CLOSE_HISTORY = """async () => {
  const box = document.querySelector('details.history');
  const told = new Promise((heard) => box.addEventListener('toggle', heard, { once: true }));
  box.querySelector('summary').click();
  await told;
}"""


def test_the_host_s_box_of_earlier_games_stays_as_the_host_left_it(
    browser: Any, files_server: ServerProcess
) -> None:
    """The host opens the box of earlier games (its list is asked for) and closes it again:
    the next update leaves it closed."""
    phone = Phone(browser, files_server, new_game(4), status="lobby")
    page = phone.page
    is_open = "document.querySelector('details.history').open"
    page.tap("details.history summary")
    wait_until(page, "document.querySelector('details.history p.muted')")  # none yet
    assert page.evaluate(is_open)
    page.evaluate(CLOSE_HISTORY)
    phone.push()
    wait_until(page, f"document.body.dataset.version === '{phone.version}'")
    assert not page.evaluate(is_open)
    assert [c["type"] for c in phone.commands] == ["history"]
    phone.no_errors()


# the summary tapped and the page redrawn at once, before the toggle event can come; then again
# once it came, and once the copy of the box that redraw built (and never showed) has had its own
# toggle event: whether the box is open each time
TAP_AND_REDRAW = """async () => {
  const { render } = await import('/phone/page.js');
  const box = () => document.querySelector('details.profile');
  box().querySelector('summary').click();
  render();
  const first = box().open;
  await new Promise((told) => box().addEventListener('toggle', told, { once: true }));
  await new Promise((later) => setTimeout(later, 50));
  render();
  return [first, box().open];
}"""


# -- 2. a new screen opens at its top -----------------------------------------------------------


def test_a_new_screen_opens_at_its_top_but_updates_keep_the_place(
    browser: Any, files_server: ServerProcess
) -> None:
    st = new_game(4)
    phone = Phone(browser, files_server, st, status="lobby")
    page = phone.page
    page.wait_for_selector("#start")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert page.evaluate("window.scrollY") > 100  # the host scrolled down to Start
    phone.status = "playing"
    phone.push()  # the game starts
    wait_until(page, "document.body.dataset.phase === 'planning'")
    assert page.evaluate("window.scrollY") == 0
    page.evaluate("window.scrollTo(0, 400)")
    phone.others(BLUE, {"type": "place", "to": "A"})  # an ordinary update
    version = page.evaluate("document.body.dataset.version")
    assert version == str(phone.version) and page.evaluate("window.scrollY") == 400
    # a finger on the glass holds the redraw (the button under it stays), even of a new phase
    page.dispatch_event("body", "pointerdown")
    plan(st, {}, reveal=False)  # everyone commits ...
    phone.push()  # ... and the phase changes
    assert page.evaluate("document.body.dataset.version") == version
    page.dispatch_event("body", "pointerup")
    wait_until(page, "document.body.dataset.phase === 'reveal'")
    assert page.evaluate("window.scrollY") == 0
    phone.no_errors()


def test_a_thumb_resting_on_the_glass_does_not_freeze_the_screen(
    browser: Any, files_server: ServerProcess
) -> None:
    """A player holding the phone with a thumb on the glass still sees the game move on: the
    redraw waits for the finger only as long as a tap lasts."""
    st = new_game(4)
    phone = Phone(browser, files_server, st)
    page = phone.page
    wait_until(page, "document.body.dataset.phase === 'planning'")
    page.dispatch_event("body", "pointerdown")  # and it stays there
    plan(st, {}, reveal=False)  # everyone commits ...
    phone.push()  # ... and the phase changes
    wait_until(page, "document.body.dataset.phase === 'reveal'")
    phone.no_errors()


# In one go in the page (a finger's whole tap, whatever the machine's load): the finger goes
# down on ``selector``, an update comes and its frame passes; the finger lifts and its click
# lands, and the next task runs. Returns the version drawn while the finger was down, the one
# drawn after, and whether a sheet is open.
TAP_WITH_AN_UPDATE = """async ([selector, message]) => {
  const target = document.querySelector(selector);
  const version = () => document.body.dataset.version;
  target.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true}));
  await window.__longhallPush(message, 'update');
  const held = version();
  target.dispatchEvent(new PointerEvent('pointerup', {bubbles: true}));
  target.click();
  await new Promise((next) => setTimeout(next, 0));
  return [held, version(), !!document.querySelector('.sheet')];
}"""


def test_a_tap_is_drawn_as_soon_as_its_click_is_handled(
    browser: Any, files_server: ServerProcess
) -> None:
    """The finger's hold ends with its click: the tap's own change and an update that came
    while the finger was down are drawn in the next task, not a moment after the finger lifts."""
    st = new_game(4)
    phone = Phone(browser, files_server, st)
    page = phone.page
    wait_until(page, "document.body.dataset.phase === 'planning'")
    # a tap on a spot that does nothing, then one on the help button, which opens its sheet
    for target, place in (("header .brand", "A"), ("header button.icon", "B")):
        before = page.evaluate("document.body.dataset.version")
        st.apply(BLUE, {"type": "place", "to": place})  # another player's move, on its way
        phone.advance()
        drawn = page.evaluate(TAP_WITH_AN_UPDATE, [target, phone.message()])
        assert drawn == [before, str(phone.version), target.endswith("icon")]
    phone.no_errors()


# -- 12. the screen stays on -----------------------------------------------------------------------

PLAYING = "(v => v && !v.paused && v.currentTime > 0)(document.querySelector('video.keep-awake'))"
NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock;"
NO_VIDEO = NO_WAKE_LOCK + (
    "HTMLMediaElement.prototype.play = function () {"
    " return Promise.reject(new DOMException('no', 'NotAllowedError')); };"
)


def test_without_wake_lock_a_silent_video_keeps_the_screen_on(
    browser: Any, files_server: ServerProcess
) -> None:
    st = new_game(4)
    phone = Phone(browser, files_server, st, seat=RED, init_script=NO_WAKE_LOCK)
    page = phone.page
    page.wait_for_selector("[data-dest=A]")
    assert page.query_selector("video") is None  # nothing loads before the first tap
    assert "screen timeout" not in phone.text()
    page.tap("[data-dest=A]")
    wait_until(page, PLAYING)
    # it covers the screen (Chromium's rule for a muted video), invisible and untouchable
    box = page.evaluate(
        """() => { const v = document.querySelector('video.keep-awake'), s = getComputedStyle(v);
                  const box = v.getBoundingClientRect();
                  return [v.muted, v.loop, s.opacity, s.pointerEvents, box.width, box.height]; }"""
    )
    assert box == [True, True, "0", "none", 360, 640]
    assert "screen timeout" not in phone.text()
    page.tap("[data-dest=B]")  # the page still answers taps through it
    wait_until(page, "document.querySelector('[data-dest=B]').closest('.dest.has') !== null")
    phone.status = "over"  # the game ends: the screen may sleep again
    phone.push()
    wait_until(page, "document.querySelector('video') === null")
    phone.no_errors()


def test_where_neither_works_the_player_is_told_how(
    browser: Any, files_server: ServerProcess
) -> None:
    phone = Phone(browser, files_server, new_game(4), seat=RED, init_script=NO_VIDEO)
    page = phone.page
    page.wait_for_selector("[data-dest=A]")
    assert "screen timeout" not in phone.text()
    page.tap("[data-dest=A]")
    wait_until(page, "document.querySelector('.panel.hint') !== null")
    assert "screen timeout" in phone.text() and page.query_selector("video") is None
    phone.no_errors()


# -- 2 and 12 with a real server -------------------------------------------------------------------


def test_the_game_starts_at_the_top_of_the_board_and_keeps_the_screen_on(
    browser: Any, server: ServerProcess
) -> None:
    table = browser.new_context().new_page()
    table.goto(server.url + "/")
    table.wait_for_selector("#join-url")
    url = table.inner_text("#join-url")
    anna = open_phone(browser, url, "Anna", "en", small=True)
    page = anna.page
    page.context.add_init_script(NO_WAKE_LOCK)
    page.reload()  # as over plain http on the local network: no Wake Lock API
    page.wait_for_selector(".seat-row")
    for n, bot in enumerate(("greedy", "random"), start=2):
        tap_until(
            page, f"[data-bot={bot}]", f"document.querySelectorAll('.seat-row').length === {n}"
        )
    page.evaluate("document.querySelector('#start').scrollIntoView({block: 'end'})")
    assert page.evaluate("window.scrollY") > 200
    page.tap("#start")
    wait_until(page, "document.body.dataset.phase === 'planning'")
    assert page.evaluate("window.scrollY") == 0
    screenshot(page, "phone-planning-after-start")
    page.tap("[data-dest=A]")
    wait_until(page, PLAYING)
    assert "screen timeout" not in anna.text()
    assert anna.errors == []
