"""A game is one package: outside its engine package, its two page modules and its catalogs, no
code names it but the registry's list. Adding a game touches those and nothing else (a fourth
game, ``tests/fourth_game``, is played through everything by ``tests/pages/test_fourth_game.py``).
Comments and docstrings may name a game as an example; code may not."""

from __future__ import annotations

import ast
import contextlib
import io
import re
import tokenize
from pathlib import Path

from longhall.server.games.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("server", "hardware", "phone_ui", "table_display", "systemd")
TOP = ("run", "setup.py", "pyproject.toml")
CODE = (".py", ".js")


def game_files(game: str) -> set[Path]:
    """What belongs to one game: its package, its page modules, its catalogs."""
    own = set((ROOT / "server" / "games" / game).rglob("*"))
    own |= set((ROOT / "server" / "static" / "i18n" / game).rglob("*"))
    for folder in ("phone_ui/games", "table_display/games", "server/static/games"):
        own |= set((ROOT / folder).glob(f"{game}.*"))
    return own


def code_of(path: Path) -> str:
    """The file's code, without its comments and docstrings."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        docstrings = set()
        for node in ast.walk(ast.parse(text)):
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
                value = body[0].value
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    docstrings.add(value.lineno)
        kept = []
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                continue
            if token.type == tokenize.STRING and token.start[0] in docstrings:
                continue
            kept.append(token.string)
        return " ".join(kept)
    if path.suffix in (".js", ".css"):
        return re.sub(r"/\*.*?\*/|(?<![:\"'])//[^\n]*", " ", text, flags=re.S)
    return re.sub(r"(?m)^\s*#.*$", " ", text)  # shell, TOML, systemd units


def test_no_code_outside_a_game_names_it() -> None:
    names = {game: {game, spec.title} for game, spec in GAMES.items()}
    allowed = {ROOT / "server" / "games" / "registry.py"}
    files = [p for folder in PRODUCT for p in (ROOT / folder).rglob("*") if p.is_file()]
    files += [ROOT / name for name in TOP]
    found = []
    for path in files:
        if path in allowed or path.suffix in (".png", ".mp4", ".webm", ".pyc"):
            continue
        if "vendor" in path.parts or "__pycache__" in path.parts:
            continue
        code = None
        for game, words in names.items():
            if path in game_files(game):
                continue
            code = code if code is not None else code_of(path).lower()
            for word in words:
                if re.search(rf"\b{re.escape(word.lower())}\b", code):
                    found.append(f"{path.relative_to(ROOT)} names {word!r}")
    assert not found, "\n".join(found)


def literals(path: Path) -> set[str]:
    """The string literals of a file's code (Python's, or quoted in JavaScript)."""
    code = code_of(path)
    if path.suffix == ".py":
        tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
        found = set()
        for token in tokens:
            if token.type == tokenize.STRING and token.string in code:
                with contextlib.suppress(ValueError, SyntaxError):
                    value = ast.literal_eval(token.string)
                    found |= {value} if isinstance(value, str) else set()
        return found
    return set(re.findall(r"[\"'`]([A-Za-z0-9_]+)[\"'`]", code))


def test_no_code_outside_a_game_names_its_options_or_actions() -> None:
    """What a game declares for the hub (its lobby options, its earlier lobby records, the
    actions the host may make for a seat) is named in its own files only: the hub reads them
    from its ``SPEC``."""
    declared = {
        game: {o.name for o in spec.lobby.options}
        | set(spec.lobby.earlier)
        | spec.proxy_actions
        | spec.host_enters
        | spec.host_actions
        for game, spec in GAMES.items()
    }
    files = [p for folder in PRODUCT for p in (ROOT / folder).rglob("*") if p.suffix in CODE]
    found = []
    for path in files:
        if "vendor" in path.parts:
            continue
        strings = literals(path)
        for game, names in declared.items():
            if path not in game_files(game):
                where = path.relative_to(ROOT)
                found += [f"{where} names {name!r} of {game}" for name in names & strings]
    assert not found, "\n".join(found)


def test_the_check_finds_a_name_in_code() -> None:
    """The check above can fail: a game named in code is found, in a comment it is not."""
    assert "eketorp" in code_of(ROOT / "server" / "games" / "registry.py")
    bots = ROOT / "server" / "table" / "bots.py"
    assert "Eketorp" in bots.read_text() and "Eketorp" not in code_of(bots)  # a docstring
