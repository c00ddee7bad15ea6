"""Data files the games read (loaded here, outside the pure engines) and default game configs."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from .games.api import IllegalAction

EKETORP_DECK_NAME = "eketorp-material-cards.json"


def read_json_resource(package: str, name: str) -> Any:
    """Read a JSON file shipped inside a game package."""
    return json.loads(resources.files(package).joinpath(name).read_text(encoding="utf-8"))


def load_material_cards(path: str | Path | None = None, data_dir: str | Path | None = None) -> Any:
    """Return Eketorp's material deck: ``path``, else ``<data_dir>/eketorp-material-cards.json``
    if a user put one there, else the house deck shipped with Longhall (D1)."""
    source: Path | None = Path(path) if path else None
    if source is None and data_dir is not None:
        candidate = Path(data_dir) / EKETORP_DECK_NAME
        if candidate.exists():
            source = candidate
    if source is None:
        data = read_json_resource("server.games.eketorp", "material_cards.json")
    else:
        try:
            data = json.loads(source.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise IllegalAction(
                "bad_config", f"Cannot read the material deck {source}: {exc}", reason=str(exc)
            ) from exc
    return data["cards"] if isinstance(data, dict) and "cards" in data else data


def eketorp_config(
    players: int,
    *,
    start_player: int = 0,
    deck: str = "house",
    deck_file: str | Path | None = None,
    data_dir: str | Path | None = None,
) -> dict[str, Any]:
    """Return a config for a new game of Eketorp, with the material deck filled in (D1)."""
    config: dict[str, Any] = {"players": players, "start_player": start_player, "deck": deck}
    if deck == "house":
        config["material_cards"] = load_material_cards(deck_file, data_dir)
    return config


# Per game: a function (players, start_player=..., data_dir=..., **options) -> complete config.
CONFIG_BUILDERS: dict[str, Callable[..., dict[str, Any]]] = {
    "eketorp": eketorp_config,
}


def default_config(game: str, players: int, **options: Any) -> dict[str, Any]:
    """Return a complete config for a new game of ``game`` with its data files filled in."""
    return CONFIG_BUILDERS[game](players, **options)
