"""The server's layers only point down, and no two modules import each other, even lazily.

The contract, highest layer first: a module may import modules of its own package (a folder of
``server/``, or ``hardware/``) and of any layer below its own, never above or beside it. Every
import counts: at the top of a module, inside a function and under ``TYPE_CHECKING`` alike, so a
lazy import cannot hide a cycle. Inside one game's package (``server/games/<game>/``) modules may
lean on each other; everywhere else the module graph has no cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"server": "longhall.server", "hardware": "longhall.hardware"}

LAYERS: list[tuple[str, ...]] = [
    ("longhall.server.cli",),
    ("longhall.server.web",),
    ("longhall.server.appliance", "longhall.hardware"),
    ("longhall.server.table",),
    (
        "longhall.server.games",
        "longhall.server.store",
        "longhall.server.config",
        "longhall.server.qr",
    ),
]
GAME_PACKAGES = "longhall.server.games."


def modules() -> dict[str, Path]:
    """Every module of the project, by the name it is imported as."""
    found = {}
    for folder, package in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join((package, *parts))] = path
    return found


def imports(name: str, path: Path, known: set[str]) -> Iterator[str]:
    """The project's modules ``name`` imports, wherever in the file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:
                if f"{base}.{alias.name}" in known:  # a module: from .pkg import module
                    yield f"{base}.{alias.name}"
                elif base in known:
                    yield base


def graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: set(imports(name, path, known)) - {name} for name, path in found.items()}


def layer(module: str) -> tuple[int, str]:
    """The module's layer (0 is the highest) and the package it belongs to in that layer."""
    for index, packages in enumerate(LAYERS):
        for package in packages:
            if module == package or module.startswith(package + "."):
                return index, package
    raise AssertionError(f"{module} is in no layer: add it to LAYERS in tests/test_layers.py")


def test_every_import_points_down_the_layers() -> None:
    edges = graph()
    assert not edges.pop("longhall.server"), "the package's own __init__ holds only its docstring"
    wrong = []
    for module, targets in edges.items():
        level, package = layer(module)
        for target in sorted(targets):
            to_level, to_package = layer(target)
            if to_package != package and to_level <= level:
                wrong.append(f"{module} imports {target}")
    assert not wrong, "imports against the layers (docs/design.md):\n" + "\n".join(wrong)


def test_no_modules_import_each_other_outside_a_game() -> None:
    edges = graph()
    # Tarjan's strongly connected components: each one of more than a module is a cycle
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def game_of(module: str) -> str | None:
        if not module.startswith(GAME_PACKAGES):
            return None
        rest = module[len(GAME_PACKAGES) :].split(".")
        return rest[0] if len(rest) > 1 else None

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in edges[node]:
            if game_of(node) is not None and game_of(node) == game_of(target):
                continue  # inside one game's package
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    assert not cycles, f"modules that import each other: {cycles}"


def test_the_contract_sees_the_imports_it_judges() -> None:
    """The checks above can fail: the graph holds the imports this project is known to make."""
    edges = graph()
    assert "longhall.server.table.service" in edges["longhall.server.table.bots"]
    assert "longhall.server.table.commands" in edges["longhall.server.table.service"]
    assert "longhall.server.store.store" in edges["longhall.server.store"]
    # a lazy import counts like any other
    assert "longhall.hardware.adapter" in edges["longhall.server.web.app"]
    assert layer("longhall.server.web.app") < layer("longhall.hardware.adapter")
