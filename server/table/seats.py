"""Seats at the table: who sits where, with which colour and symbol."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import asdict, dataclass
from typing import Any, Literal

# The seats' colours; each also has a symbol, so colour is never the only cue.
COLOURS: dict[str, str] = {
    "red": "▲",
    "blue": "●",
    "yellow": "■",
    "green": "◆",
    "white": "★",
    "black": "✚",
}
BOT_KINDS = ("greedy", "random", "expert")
OccupantKind = Literal["human", "bot"]


def new_token() -> str:
    """A seat token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def new_player() -> str:
    """A player's key in the night's standings: random, public, and nothing to log in with."""
    return secrets.token_hex(4)


def hash_token(token: str) -> str:
    """Tokens are kept hashed: the store never holds one a thief could present."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Occupant:
    """Who sits in one seat: a player's phone or a bot (a seat's number is its place in the
    table's list; ``longhall.server.games.api.Seat`` is that number)."""

    name: str
    colour: str
    kind: OccupantKind = "human"
    bot: str | None = None  # greedy | random for bots
    token_hash: str | None = None  # humans only
    vacant: bool = False  # a human seat whose phone was sent away during a game
    # the colour the player chose, while the chosen game has no such colour and the seat plays
    # another (given back by a game that has it and where it is free; a colour chosen ends it)
    colour_was: str | None = None
    # who sits here for the night's standings: drawn when they sit down, it follows the player
    # through the seats' moves and the night's games (public; never a token)
    player: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Occupant:
        return cls(**data)

    def public(self) -> dict[str, Any]:
        """What everyone may know about this seat (never the token)."""
        return {
            "name": self.name,
            "colour": self.colour,
            "symbol": COLOURS.get(self.colour, "?"),
            "kind": self.kind,
            "bot": self.bot,
            "vacant": self.vacant,
            "colour_was": self.colour_was,
        }
