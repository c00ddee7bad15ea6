"""What each reader is sent: the table's public facts and that reader's view of the game.

A seat's phone gets its seat's view (its secret hand); the table display and spectators get the
public view. Views come from :meth:`server.records.Records.view`, the only way game state leaves
the engine.
"""

from __future__ import annotations

from typing import Any, Protocol

from . import fingerprints
from .connections import Connections, Outgoing, room
from .games.api import JSON
from .records import Records
from .seats import COLOURS


class Shown(Protocol):
    """What the messages are made of."""

    records: Records
    connections: Connections
    join_url: str
    hardware: dict[str, Any]
    hotspot: dict[str, str] | None
    lobby_games: tuple[str, ...]


class Messages:
    """Builds the snapshots, updates and notices of one table."""

    def __init__(self, table: Shown) -> None:
        self.table = table
        self.seq = 0  # numbers every update sent, so a client can tell it missed one

    def public_table(self) -> JSON:
        """The lobby and table facts everyone may see."""
        table = self.table
        data = table.records.data
        present = table.connections.present()
        seats = [
            {
                "seat": i,
                **seat.public(),
                "host": i == data.host,
                "connected": seat.kind == "bot" or i in present,
            }
            for i, seat in enumerate(data.seats)
        ]
        spec = table.records.spec
        return {
            "code": data.code,
            "join_url": table.join_url,
            "game": data.game,
            "games": list(table.lobby_games),
            "status": data.status,
            "paused": data.paused,
            "options": dict(data.options),
            "seats": seats,
            "host": data.host,
            "start_player": data.start_player,
            "min_players": spec.min_players,
            "max_players": spec.max_players,
            "colours": COLOURS,
            "game_id": data.game_id,
            "fingerprints": {
                seat: entry["hash"][: fingerprints.SHORT]
                for seat, entry in data.commitments.items()
            },
            "reveals": [dict(r) for r in data.reveals],
            "result": data.last_result,
            "hardware": dict(table.hardware),
            "hotspot": table.hotspot,
            "language": data.language,
        }

    def message_for(self, seat: int | None, public: JSON | None = None) -> JSON:
        """The full picture for one reader: the table's public facts and their view of the game."""
        records = self.table.records
        you = None if seat is None else {"seat": seat, "host": seat == records.data.host}
        return {
            "seq": self.seq,
            "version": records.data.version,
            "steps": None if records.state is None else records.state.version,
            "table": self.public_table() if public is None else public,
            "you": you,
            "game": records.view(seat),
        }

    def updates(self) -> list[Outgoing]:
        """An update for every open connection: each seat its own view, the rest the public one."""
        self.seq += 1
        public = self.public_table()  # the same for everyone: built once
        out = [
            Outgoing("emit", room(seat), "update", self.message_for(seat, public))
            for seat in sorted(self.table.connections.present())
        ]
        out.append(Outgoing("emit", room(None), "update", self.message_for(None, public)))
        return out

    def notice(self, code: str, message: str, params: dict[str, Any]) -> list[Outgoing]:
        """A short notice for every screen."""
        payload = {"code": code, "message": message, "params": params}
        seats = sorted(self.table.connections.present())
        return [
            Outgoing("emit", room(None), "notice", payload),
            *(Outgoing("emit", room(s), "notice", payload) for s in seats),
        ]
