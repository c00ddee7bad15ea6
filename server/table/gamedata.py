"""Data files the games read (loaded here, outside the pure engines) and default game configs."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from ..games.api import IllegalAction

EKETORP_DECK_NAME = "eketorp-material-cards.json"


def read_json_resource(package: str, name: str) -> Any:
    """Read a JSON file shipped inside a game package."""
    return json.loads(resources.files(package).joinpath(name).read_text(encoding="utf-8"))


def load_data_file(
    what: str,
    package: str,
    resource: str,
    user_name: str,
    path: str | Path | None = None,
    data_dir: str | Path | None = None,
) -> Any:
    """Read a game's data file: ``path``, else ``<data_dir>/<user_name>`` if a user put one
    there, else the file shipped inside the game's package."""
    source: Path | None = Path(path) if path else None
    if source is None and data_dir is not None:
        candidate = Path(data_dir) / user_name
        if candidate.exists():
            source = candidate
    if source is None:
        return read_json_resource(package, resource)
    try:
        return json.loads(source.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise IllegalAction(
            "bad_config", f"Cannot read the {what} {source}: {exc}", reason=str(exc)
        ) from exc


def load_material_cards(path: str | Path | None = None, data_dir: str | Path | None = None) -> Any:
    """Return Eketorp's material deck: ``path``, else ``<data_dir>/eketorp-material-cards.json``
    if a user put one there, else the house deck shipped with Longhall (D1)."""
    data = load_data_file(
        "material deck",
        "longhall.server.games.eketorp",
        "material_cards.json",
        EKETORP_DECK_NAME,
        path,
        data_dir,
    )
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


VIKINGS_COMPONENTS_NAME = "vikings-on-board-components.json"


def load_vikings_components(
    path: str | Path | None = None, data_dir: str | Path | None = None
) -> Any:
    """Return Vikings on Board's barrels, hull pieces and chests (D1-D3): ``path``, else
    ``<data_dir>/vikings-on-board-components.json`` if a user put one there, else the data shipped
    with Longhall."""
    data = load_data_file(
        "component data",
        "longhall.server.games.vikings_on_board",
        "components.json",
        VIKINGS_COMPONENTS_NAME,
        path,
        data_dir,
    )
    if isinstance(data, dict):
        data = {k: v for k, v in data.items() if k != "about"}
    return data


def vikings_on_board_config(
    players: int,
    *,
    start_player: int = 0,
    colours: list[str] | None = None,
    deck_file: str | Path | None = None,
    data_dir: str | Path | None = None,
) -> dict[str, Any]:
    """Return a config for a new game of Vikings on Board, with its components filled in (D1-D3).

    ``deck_file`` (``longhall simulate --deck``) names a component data file; ``start_player`` is
    accepted like every game's but unused: the turn order is drawn at random (V1.2).
    """
    config: dict[str, Any] = {
        "players": players,
        "components": load_vikings_components(deck_file, data_dir),
    }
    if colours is not None:
        config["colours"] = colours
    return config


VIKINGS_GONE_WILD_CARDS_NAME = "vikings-gone-wild-cards.json"


def load_vikings_gone_wild_cards(
    path: str | Path | None = None, data_dir: str | Path | None = None
) -> Any:
    """Return Vikings Gone Wild's card names and counts (W0): ``path``, else
    ``<data_dir>/vikings-gone-wild-cards.json`` if a group put one there, else the house file."""
    return load_data_file(
        "card data",
        "longhall.server.games.vikings_gone_wild",
        "cards.json",
        VIKINGS_GONE_WILD_CARDS_NAME,
        path,
        data_dir,
    )


def vikings_gone_wild_config(
    players: int,
    *,
    start_player: int = 0,
    deck_file: str | Path | None = None,
    data_dir: str | Path | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Return a config for a new game of Vikings Gone Wild, with its card data filled in (W0).

    ``options`` pass on ``end_mark``, ``bonus`` and ``numbers`` (the card numbers a group entered
    before, D1); ``deck_file`` (``longhall simulate --deck``) names a card data file.
    """
    config: dict[str, Any] = {
        "players": players,
        "first_player": start_player,
        "cards": load_vikings_gone_wild_cards(deck_file, data_dir),
    }
    config.update(options)
    return config


# Per game: a function (players, start_player=..., data_dir=..., **options) -> complete config.
CONFIG_BUILDERS: dict[str, Callable[..., dict[str, Any]]] = {
    "eketorp": eketorp_config,
    "vikings_on_board": vikings_on_board_config,
    "vikings_gone_wild": vikings_gone_wild_config,
}


def default_config(game: str, players: int, **options: Any) -> dict[str, Any]:
    """Return a complete config for a new game of ``game`` with its data files filled in."""
    return CONFIG_BUILDERS[game](players, **options)
