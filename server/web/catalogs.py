"""Each language's catalog as the pages load it: the words every game shares, and each game's own.

The words live in one file per language for what every game shares (``server/static/i18n/``) and
one per game (``<root>/server/static/i18n/<game>/``); the pages load a single catalog per
language, merged here and kept until a file changes. A key two catalogs both hold must say the
same thing in both (``tests/pages/test_catalogs.py``): two games may share an error's words.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

_merged: dict[str, tuple[tuple[Any, ...], bytes]] = {}  # by language: the last one made
_lock = threading.Lock()


def catalog_files(lang: str, shared: Path, roots: Mapping[str, Path]) -> list[Path]:
    """The files of one language's catalog: the shared one first, then each game's."""
    games = [roots[game] / "server" / "static" / "i18n" / game / f"{lang}.json" for game in roots]
    return [shared / f"{lang}.json", *games]


def merge(into: dict[str, Any], words: Mapping[str, Any]) -> None:
    """Add ``words`` to ``into``, group by group."""
    for key, value in words.items():
        if isinstance(value, Mapping) and isinstance(into.get(key), dict):
            merge(into[key], value)
        else:
            into[key] = value


def merged_catalog(
    lang: str, shared: Path, roots: Mapping[str, Path]
) -> tuple[bytes, tuple[Any, ...]]:
    """One language's whole catalog as JSON, and what it was made from (its files' times)."""
    files = catalog_files(lang, shared, roots)
    made_from = ("catalog", lang, *((f, f.stat().st_mtime) for f in files if f.exists()))
    with _lock:
        last = _merged.get(lang)
        if last is not None and last[0] == made_from:
            return last[1], made_from
        words: dict[str, Any] = {}
        for file in files:
            if file.exists():
                merge(words, json.loads(file.read_text(encoding="utf-8")))
        body = json.dumps(words, ensure_ascii=False).encode()
        _merged[lang] = (made_from, body)
        return body, made_from
