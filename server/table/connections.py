"""Who is connected: each open connection's identity, and the socket operations that follow a
seat that moved, was taken away or was opened on another phone.

This part of the table knows nothing of records or games: it is told what happened to the seats
(:class:`.state.Outcome`) and answers with the operations for the socket layer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

IdentityKind = Literal["seat", "guest", "public", "kiosk", "button", "bot", "auto"]
OutgoingOp = Literal["emit", "join", "leave", "disconnect"]
EventName = Literal["snapshot", "update", "patch", "notice", "replaced", "revoked", "host_claim"]
KIOSK_ROOM = "kiosk"  # the Pi's own table display, beside the public room: what only it is shown


@dataclass(frozen=True)
class Identity:
    """Who sent a command: a seat's phone, a guest about to join, a table display (``public``, or
    ``kiosk`` when it is the Pi's own screen), the table's buttons, a bot."""

    kind: IdentityKind
    seat: int | None = None
    sid: str | None = None

    @property
    def key(self) -> str:
        """Whose command ids these are: a seat's phone and the bot standing in for it each
        have their own, so a long stand-in cannot push the phone's ids out."""
        return f"{self.kind}:{self.seat}" if self.kind in ("seat", "bot") else self.kind


@dataclass
class Outgoing:
    """One thing for the socket layer to do, in order."""

    op: OutgoingOp
    target: str  # a room or a connection id
    event: EventName | None = None
    payload: Any = None


def room(seat: int | None) -> str:
    """The Socket.IO room of a seat's phone, or of everyone else."""
    return "public" if seat is None else f"seat:{seat}"


def error(code: str, message: str) -> dict[str, Any]:
    return {"code": code, "message": message, "params": {}}


class Connections:
    """The open connections of the table, by connection id."""

    def __init__(self) -> None:
        self.by_sid: dict[str, Identity] = {}

    def __contains__(self, sid: str) -> bool:
        return sid in self.by_sid

    def get(self, sid: str) -> Identity | None:
        return self.by_sid.get(sid)

    def present(self) -> set[int]:
        """The seats with a phone connected."""
        return {w.seat for w in self.by_sid.values() if w.kind == "seat" and w.seat is not None}

    def sids(self) -> dict[str, Identity]:
        """A copy, to go back to if a command fails half-way."""
        return dict(self.by_sid)

    def restore(self, saved: dict[str, Identity]) -> None:
        self.by_sid = saved

    def add(self, who: Identity) -> list[Outgoing]:
        """Note a checked connection; send away a phone that had the same seat open."""
        assert who.sid is not None
        out: list[Outgoing] = []
        if who.kind == "seat":
            for sid, other in list(self.by_sid.items()):
                if other.kind == "seat" and other.seat == who.seat:
                    message = error("replaced", "This seat was opened on another phone or tab.")
                    out += [Outgoing("emit", sid, "replaced", message), Outgoing("disconnect", sid)]
                    del self.by_sid[sid]
        self.by_sid[who.sid] = who
        out.append(
            Outgoing("join", who.sid, payload=room(who.seat if who.kind == "seat" else None))
        )
        if who.kind == "kiosk":
            out.append(Outgoing("join", who.sid, payload=KIOSK_ROOM))
        return out

    def remove(self, sid: str) -> Identity | None:
        return self.by_sid.pop(sid, None)

    def seat_guest(self, sid: str, seat: int) -> list[Outgoing]:
        """Move a guest who just joined into their seat's private room."""
        self.by_sid[sid] = Identity("seat", seat, sid)
        return [
            Outgoing("leave", sid, payload=room(None)),
            Outgoing("join", sid, payload=room(seat)),
        ]

    def revoke(self, seat: int) -> list[Outgoing]:
        """Send away the phone of a seat whose token no longer works."""
        out: list[Outgoing] = []
        for sid, who in list(self.by_sid.items()):
            if who.kind == "seat" and who.seat == seat:
                message = error(
                    "revoked", "This seat was given to someone else or removed by the host."
                )
                out += [Outgoing("emit", sid, "revoked", message), Outgoing("disconnect", sid)]
                del self.by_sid[sid]
        return out

    def renumber(self, moved: Mapping[int, int]) -> list[Outgoing]:
        """Follow seats that moved (old number -> new number) into their new rooms."""
        out: list[Outgoing] = []
        for sid, who in list(self.by_sid.items()):
            if who.kind != "seat" or who.seat is None or who.seat not in moved:
                continue
            seat = moved[who.seat]
            if seat != who.seat:
                self.by_sid[sid] = Identity("seat", seat, sid)
                out += [
                    Outgoing("leave", sid, payload=room(who.seat)),
                    Outgoing("join", sid, payload=room(seat)),
                ]
        return out
