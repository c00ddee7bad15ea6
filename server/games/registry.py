"""The games Longhall can host, by name."""

from __future__ import annotations

from .eketorp import SPEC as EKETORP
from .spec import GameSpec
from .vikings_gone_wild import SPEC as VIKINGS_GONE_WILD
from .vikings_on_board import SPEC as VIKINGS_ON_BOARD

GAMES: dict[str, GameSpec] = {
    spec.name: spec for spec in (EKETORP, VIKINGS_ON_BOARD, VIKINGS_GONE_WILD)
}


def get(name: str) -> GameSpec:
    """Return a game's spec or raise KeyError with the known names."""
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(sorted(GAMES))}") from None
