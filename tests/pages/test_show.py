"""show() in server/static/common.js: an update changes on the screen only what it changed.

Both pages draw every update afresh with h() and hand it to show(); what the screen keeps is what
a throttled Pi kiosk or an old phone does not have to style and lay out again, and what a player
is doing (a field being typed in, the button under a finger) stays. Each case is checked on the
elements themselves: one marked before an update must be the very element on the screen after.
"""

from __future__ import annotations

from typing import Any

import pytest

from ..support import ServerProcess

pytestmark = pytest.mark.slow

# Draws ``before`` then ``after`` (lists of [tag, attrs, text]) into a box of their own with
# show(); returns, for each element on the screen after, its text and the place it had before if
# it is an element drawn then (by a mark set in between), else null.
RUN = """async ([before, after]) => {
  const { h, show } = await import("/static/common.js");
  const make = (items) => items.map(([tag, attrs, text]) => h(tag, attrs, text));
  const box = document.createElement("div");
  document.body.append(box);
  show(box, make(before));
  Array.from(box.children).forEach((el, i) => { el.mark = i; });
  show(box, make(after));
  const out = Array.from(box.children).map((el) => [el.textContent, el.mark ?? null]);
  box.remove();
  return out;
}"""


@pytest.fixture(scope="module")
def page(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    server = ServerProcess(tmp_path_factory.mktemp("show"))
    server.start()
    context = browser.new_context()
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#join-url")
    yield page
    context.close()
    server.stop()


def lines(*texts: str) -> list[list[Any]]:
    return [["li", {}, text] for text in texts]


def test_a_line_added_ahead_keeps_the_lines_already_shown(page: Any) -> None:
    """A log shows its newest line first: the new line is put in, the others stay as they are
    (not each rewritten with its neighbour's text), and the oldest one drops off the end."""
    got = page.evaluate(RUN, [lines("c", "b", "a"), lines("d", "c", "b")])
    assert got == [["d", None], ["c", 0], ["b", 1]]


def test_a_line_gone_from_the_front_keeps_the_rest(page: Any) -> None:
    """A list that drops its first element and adds one at the end keeps the elements between."""
    got = page.evaluate(RUN, [lines("a", "b", "c"), lines("b", "c", "d")])
    assert got == [["b", 1], ["c", 2], ["d", None]]


def test_a_changed_text_is_changed_in_its_element(page: Any) -> None:
    got = page.evaluate(RUN, [lines("a", "b", "c"), lines("a", "B", "c")])
    assert got == [["a", 0], ["B", 1], ["c", 2]]


def test_another_element_in_a_place_replaces_the_one_there(page: Any) -> None:
    got = page.evaluate(RUN, [lines("a", "b"), [["li", {}, "a"], ["p", {}, "b"]]])
    assert got == [["a", 0], ["b", None]]


def test_an_element_that_looks_the_same_takes_its_new_handler(page: Any) -> None:
    """Equal on the screen is not enough for a button: the tap must do what the update says."""
    clicked = page.evaluate("""async () => {
      const { h, show } = await import("/static/common.js");
      window.clicked = [];
      const box = document.createElement("div");
      document.body.append(box);
      show(box, [h("button", { onclick: () => window.clicked.push("old") }, "go")]);
      const button = box.firstChild;
      show(box, [h("button", { onclick: () => window.clicked.push("new") }, "go")]);
      box.firstChild.click();
      show(box, [h("button", {}, "go")]); // the same look, and no handler any more
      box.firstChild.click();
      const same = box.firstChild === button;
      box.remove();
      return [same, window.clicked];
    }""")
    assert clicked == [True, ["new"]]


def test_a_field_being_typed_in_keeps_its_text_when_a_line_comes_ahead_of_it(page: Any) -> None:
    kept = page.evaluate("""async () => {
      const { h, show } = await import("/static/common.js");
      const box = document.createElement("div");
      document.body.append(box);
      const screen = (lines) => [...lines.map((l) => h("p", {}, l)), h("input", { id: "typed" })];
      show(box, screen(["a"]));
      const input = box.querySelector("#typed");
      input.focus();
      input.value = "Ann";
      show(box, screen(["b", "a"]));
      const after = box.querySelector("#typed");
      const out = [after === input, after.value, document.activeElement === input,
        Array.from(box.children, (el) => el.textContent)];
      box.remove();
      return out;
    }""")
    assert kept == [True, "Ann", True, ["b", "a", ""]]


def test_an_element_in_use_stays_when_one_comes_or_goes_ahead_of_it(page: Any) -> None:
    """A field with its text and a box the player opened stay the very elements on the screen
    when a note comes ahead of them, and when it goes again."""
    got = page.evaluate("""async () => {
      const { h, show } = await import("/static/common.js");
      const box = document.createElement("div");
      document.body.append(box);
      const screen = (note) => [note ? h("p", {}, "note") : null, h("input", { id: "typed" }),
        h("details", { ontoggle: () => {} }, h("summary", {}, "more"))];
      show(box, screen(false));
      const [input, details] = [box.querySelector("input"), box.querySelector("details")];
      input.value = "Ann";
      details.open = true;
      const kept = () => box.querySelector("input") === input && input.value === "Ann"
        && box.querySelector("details") === details && details.open;
      show(box, screen(true));
      const ahead = kept();
      show(box, screen(false));
      const out = [ahead, kept(), Array.from(box.children, (el) => el.tagName)];
      box.remove();
      return out;
    }""")
    assert got == [True, True, ["INPUT", "DETAILS"]]


# Draws ``before`` then ``after`` (lists of [tag, id]; a field and a button are in use) with
# show(), the last element of ``before`` being typed in; returns, for each element on the screen
# after, its tag and id, whether it is an element drawn before (and which), and its text.
IN_USE = """async ([before, after]) => {
  const { h, show } = await import("/static/common.js");
  const make = (items) => items.map(([tag, id]) => h(tag, { id: id || undefined,
    onclick: tag === "button" ? () => {} : undefined }, tag === "p" ? "note" : ""));
  const box = document.createElement("div");
  document.body.append(box);
  show(box, make(before));
  Array.from(box.children).forEach((el, i) => { el.mark = i; });
  box.lastChild.value = "typed";
  show(box, make(after));
  const out = Array.from(box.children, (el) => [el.tagName + (el.id ? "#" + el.id : ""),
    el.mark ?? null, el.value ?? null]);
  box.remove();
  return out;
}"""


def test_one_changed_ahead_of_elements_in_use_keeps_each_where_it_was(page: Any) -> None:
    """Where a new element takes the place of an old one ahead of elements in use (fields, a
    button), those stay, each the one it was: a field's text never moves to another field."""
    two = page.evaluate(IN_USE, [[["input", ""], ["input", ""]], [["p", ""], ["input", ""]]])
    assert two == [["P", None, None], ["INPUT", 1, "typed"]]
    button = page.evaluate(IN_USE, [[["p", ""], ["button", ""]], [["button", ""], ["button", ""]]])
    assert button[1][1] == 1  # the button that was there stays, after the new one
    # a field without an id is not taken for the one after a new field of its kind: its text
    # does not show in a field it was not typed in
    got = page.evaluate(IN_USE, [[["input", ""]], [["input", "x"], ["input", ""]]])
    assert [tag for tag, _, _ in got] == ["INPUT#x", "INPUT"]
    assert "typed" not in [value for _, _, value in got]


def test_a_changed_style_reaches_the_element_despite_the_content_security_policy(
    page: Any,
) -> None:
    """The pages' Content-Security-Policy blocks a style attribute written as text: a style a
    redraw changes (a grid's columns, a castle site's measured room) goes through the CSSOM, on the
    element already on the screen."""
    got = page.evaluate(
        """async () => {
          const { h, show } = await import("/static/common.js");
          const draw = (width) => [h("div", { style: { width, "--room-h": width } }, "x")];
          const box = document.createElement("div");
          document.body.append(box);
          show(box, draw("10px"));
          const first = box.firstChild;
          show(box, draw("20px"));
          const el = box.firstChild;
          const out = [el === first, el.style.width, el.style.getPropertyValue("--room-h")];
          box.remove();
          return out;
        }"""
    )
    assert got == [True, "20px", "20px"]
