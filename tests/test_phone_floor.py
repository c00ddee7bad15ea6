"""The oldest phones Longhall supports (README, "The phones"): iOS 15 (Safari 15.0), and on Android
Chrome or Firefox 89. The phone's page and the files it shares with the table display use nothing
newer: each feature below came to Safari after the floor, so a phone at the floor could not start
the page, lay it out or play a game with it (iOS 15.3 and older throw on ``findLastIndex`` in the
middle of a sailing, for instance).

Safari is the last of the three engines to ship each of these, so its version is the one kept.
What the floor already has stays allowed: ``inset`` and ``gap`` on flex containers (14.5), top-level
``await`` in a module and ``aspect-ratio`` (15.0).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FLOOR = (15, 0)  # iOS and its Safari
# the phone's own files, and what it loads from the shared static folder (the vendored Socket.IO
# client is built for older browsers than these and is checked by its own release)
FOLDERS = ("phone_ui", "server/static")
SKIP = ("server/static/vendor",)

# (pattern, what it is, the Safari version that brought it)
JS = [
    (r"\.findLast(Index)?\(", "Array.prototype.findLast/findLastIndex", (15, 4)),
    (r"\.at\(", "Array.prototype.at / String.prototype.at", (15, 4)),
    (r"\bstructuredClone\(", "structuredClone", (15, 4)),
    (r"\bObject\.hasOwn\(", "Object.hasOwn", (15, 4)),
    (r"\.showModal\(", "the <dialog> element", (15, 4)),
    (r"\.(toSorted|toReversed|toSpliced)\(", "Array's copying methods", (16, 0)),
    (r"\bAbortSignal\.timeout\(", "AbortSignal.timeout", (16, 0)),
    (r"\(\?<[=!]", "look-behind in a regular expression", (16, 4)),
    (r"\bstatic\s*\{", "a class's static block", (16, 4)),
    (r"\bArray\.fromAsync\(", "Array.fromAsync", (16, 4)),
    (r"\b(Object|Map)\.groupBy\(", "Object.groupBy / Map.groupBy", (17, 4)),
    (r"\bPromise\.withResolvers\(", "Promise.withResolvers", (17, 4)),
    (r"\brequestIdleCallback\(", "requestIdleCallback (never in Safari)", (99, 0)),
]
CSS = [
    (r":has\(", "the :has() selector", (15, 4)),
    (r"@layer\b", "cascade layers", (15, 4)),
    (r":focus-visible\b", "the :focus-visible selector", (15, 4)),
    (r"\baccent-color\s*:", "accent-color", (15, 4)),
    (r"\d(dvh|svh|lvh|dvw|svw|lvw)\b", "the dynamic viewport units", (15, 4)),
    (r"(?<!-webkit-)\bappearance\s*:", "appearance without -webkit-appearance", (15, 4)),
    (r"@container\b|\bcontainer-type\s*:", "container queries", (16, 0)),
    (r"\boverscroll-behavior", "overscroll-behavior", (16, 0)),
    (r"\bsubgrid\b", "subgrid", (16, 0)),
    (r"\bcolor-mix\(", "color-mix()", (16, 2)),
    (r"@property\b", "@property", (16, 4)),
    (r"\d(lh|rlh)\b", "the line-height units", (16, 4)),
    (r"&", "CSS nesting", (17, 2)),
    (r"\btext-wrap\s*:", "text-wrap", (17, 4)),
    (r"(?<!-webkit-)\bbackdrop-filter\s*:", "backdrop-filter without its prefix", (18, 0)),
    (r"\bcontent-visibility\s*:", "content-visibility", (18, 0)),
]


def code_of(path: Path, text: str | None = None) -> str:
    """The file's code without its comments (a comment may name a feature it avoids)."""
    if text is None:
        text = path.read_text(encoding="utf-8")
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    if path.suffix == ".js":
        text = re.sub(r"(?m)(^|[^:\"'\\])//.*$", r"\1", text)
    return text


def newer_than_the_floor(path: Path, text: str) -> list[str]:
    found = []
    for pattern, what, since in JS if path.suffix == ".js" else CSS:
        if since <= FLOOR:
            continue
        for match in re.finditer(pattern, text):
            # "appearance" is allowed beside the prefixed form Safari 15.0 reads
            if what.startswith("appearance") and _prefixed_beside(text, match.start()):
                continue
            line = text.count("\n", 0, match.start()) + 1
            found.append(f"{path.relative_to(ROOT)}:{line}: {what} (Safari {since[0]}.{since[1]})")
    return found


def _prefixed_beside(css: str, at: int) -> bool:
    """Whether the rule holding ``at`` also sets -webkit-appearance."""
    start = css.rfind("{", 0, at)
    end = css.find("}", at)
    return "-webkit-appearance" in css[start:end]


def phone_files() -> list[Path]:
    files = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            relative = str(path.relative_to(ROOT))
            if path.suffix in (".js", ".css") and not relative.startswith(SKIP):
                files.append(path)
    return files


def test_the_phone_uses_nothing_newer_than_its_oldest_phone() -> None:
    files = phone_files()
    assert len(files) >= 10, files  # the scan reads the phone's files, not an empty list
    found = [line for path in files for line in newer_than_the_floor(path, code_of(path))]
    assert not found, "newer than iOS 15.0:\n" + "\n".join(found)


def test_the_scan_finds_what_it_looks_for() -> None:
    """Each pattern catches its feature as code writes it, and a comment is not code."""
    js = ROOT / "phone_ui" / "x.js"
    css = ROOT / "phone_ui" / "x.css"
    code = "const i = log.findLastIndex((e) => e); // log.at(-1) in a comment\nlist.at(-1);"
    assert [f.split(": ")[1] for f in newer_than_the_floor(js, code_of(js, code))] == [
        "Array.prototype.findLast/findLastIndex (Safari 15.4)",
        "Array.prototype.at / String.prototype.at (Safari 15.4)",
    ]
    style = ".a:has(b) { inset: 0; gap: 4px; }\nselect { appearance: none; }\n"
    style += "button { -webkit-appearance: none; appearance: none; }"
    assert [f.split(": ")[1] for f in newer_than_the_floor(css, code_of(css, style))] == [
        "the :has() selector (Safari 15.4)",
        "appearance without -webkit-appearance (Safari 15.4)",
    ]


def test_the_readme_states_the_floor() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"iOS {FLOOR[0]}" in readme and "Chrome or Firefox 89" in readme
