"""Each page names in its ``<head>`` every module its first screen needs (``modulepreload``), so
that the browser asks for them all at once. Without it, an import is found only once the file that
holds it has arrived: over a phone's Wi-Fi each level of the import tree found late cost a round
trip and a parse before the first screen (bench/pages.py, docs/performance.md). A module loaded
with ``import()`` (a game's, once the table plays it) is not on that path and is not preloaded.
Safari before 17 ignores the hint and loads the tree as before. The English catalog, which every
page loads as its fallback, is preloaded too (tests/pages/test_first_load.py checks that the
page's own request uses it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# the addresses the server gives each folder (server/web/pages.py)
FOLDERS = {"/phone/": "phone_ui/", "/table/": "table_display/", "/static/": "server/static/"}
PAGES = ("phone_ui/index.html", "table_display/index.html")
ENGLISH = '<link rel="preload" href="/static/i18n/en.json" as="fetch" crossorigin="anonymous">'
IMPORT = re.compile(r"""^\s*(?:import|export)\s+(?:[^"';]*?\s+from\s+)?["']([^"']+)["']""", re.M)


def file_of(url: str) -> Path:
    for prefix, folder in FOLDERS.items():
        if url.startswith(prefix):
            return ROOT / folder / url[len(prefix) :]
    raise AssertionError(f"{url}: no folder serves it")


def url_of(path: Path) -> str:
    relative = path.relative_to(ROOT).as_posix()
    for prefix, folder in FOLDERS.items():
        if relative.startswith(folder):
            return prefix + relative[len(folder) :]
    raise AssertionError(f"{path}: no address serves it")


def static_imports(url: str) -> set[str]:
    """Every module that ``url`` imports, directly or through another, as addresses."""
    found: set[str] = set()
    todo = [url]
    while todo:
        here = file_of(todo.pop())
        for target in IMPORT.findall(here.read_text(encoding="utf-8")):
            path = (here.parent / target).resolve() if target.startswith(".") else file_of(target)
            address = url_of(path)
            if address not in found:
                found.add(address)
                todo.append(address)
    return found


@pytest.mark.parametrize("page", PAGES)
def test_the_first_screens_modules_are_all_preloaded(page: str) -> None:
    html = (ROOT / page).read_text(encoding="utf-8")
    (entry,) = re.findall(r'<script type="module" src="([^"]+)"', html)
    preloaded = set(re.findall(r'<link rel="modulepreload" href="([^"]+)"', html))
    needed = static_imports(entry)
    missing, unused = sorted(needed - preloaded), sorted(preloaded - needed)
    assert not missing, f"{page} should also preload {missing}"
    assert not unused, f"{page} preloads {unused}, which its first screen never imports"
    assert ENGLISH in html, f"{page} should preload the English catalog"
