"""A game's whole boundary: everything the hub knows of a game is what its ``SPEC`` declares.

A game lives in its own package (``server/games/<name>/``): its rules engine, its data files, and
this declaration of what the rest of Longhall needs from it: how to make and restore a game, what
each reader may see of it, its bots, its lobby (colours, playing time, options) and how a new
game's config is made, the moves the host may make for an absent seat, and what the table's
lights and buzzer show of it. Beside the package, a game has its two page modules
(``phone_ui/games/<name>.js``, ``table_display/games/<name>.js``) and its catalogs
(``server/static/i18n/<name>/``); its name appears nowhere else but in the registry's list.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .api import JSON, BotFactory, GameState, Seat
from .cues import Cues
from .lobby import Configure, DataFile, Lobby


@dataclass(frozen=True)
class GameSpec:
    """Everything the hub needs to know about one game."""

    name: str
    title: str
    min_players: int
    max_players: int
    package: str  # the Python package holding the game and its data files
    new: Callable[[Mapping[str, Any], int], GameState]
    from_dict: Callable[[Mapping[str, Any]], GameState]
    # what every reader may see (the same for all of them), and what only one seat may see
    public_view: Callable[[Any], JSON]
    private_view: Callable[[Any, int], JSON]
    bots: Mapping[str, BotFactory]
    lobby: Lobby
    configure: Configure
    cues: Cues
    # For the conformance tests: a copy of the state in which everything hidden from ``seat``
    # (other hands, the draw pile's order, unrevealed choices, the RNG) is drawn again.
    resample_hidden: Callable[[Any, Seat, random.Random], Any]
    # For the conformance tests: a list of broken invariants (conservation of pieces, bounds).
    check_invariants: Callable[[Any], list[str]]
    data: tuple[DataFile, ...] = ()
    # Secret choices committed but not yet revealed, by seat (the table fingerprints them).
    commitments: Callable[[Any], dict[int, Any]] = field(default=lambda state: {})
    # What the table keeps from a game for its next ones, as lobby options of the same name,
    # each a mapping merged entry by entry (Vikings Gone Wild: the card numbers entered, D1).
    kept: Callable[[Any], dict[str, dict[str, Any]]] = field(default=lambda state: {})
    # Moves the host may make for a seat whose phone is away or that a bot plays, and of those
    # the ones a bot never makes itself (they need what only the people at the table see).
    proxy_actions: frozenset[str] = frozenset()
    host_enters: frozenset[str] = frozenset()
    # What the host may do as the table in any phase (a correction), besides NEXT.
    host_actions: frozenset[str] = frozenset()

    def view(self, state: Any, seat: Seat, public: JSON | None = None) -> JSON:
        """Everything ``seat`` (None: the table display) may know, and nothing else: the only
        way state leaves the engine. ``public``, if given, is ``public_view(state)`` computed
        once for every reader."""
        return {
            "game": self.name,
            "seat": seat,
            "public": self.public_view(state) if public is None else public,
            "private": None if seat is None else self.private_view(state, seat),
            "legal": state.legal_actions(seat),
            # what NEXT would do now (public): the table's own steps, the same for every reader
            "table_steps": state.legal_actions(None),
        }
