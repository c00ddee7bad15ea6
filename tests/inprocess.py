"""An in-process Longhall on a real SQLite file, and phones as Flask-SocketIO test clients."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest

from longhall.server.games.api import GameState
from longhall.server.games.eketorp import EketorpState
from longhall.server.table.connections import Identity
from longhall.server.table.service import Table
from longhall.server.web.app import Longhall
from tests.support import apply_patch


def power_cut(lh: Longhall, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stop ``lh`` as a power cut would leave its store: without the stop's snapshot, so that
    the next start replays the records since the last one."""
    monkeypatch.setattr(lh.table, "keep_snapshot", lambda: None)
    lh.stop()


class Client:
    """A Socket.IO test client that remembers every message it received."""

    def __init__(
        self, longhall: Longhall, auth: dict[str, Any] | None = None, address: str | None = None
    ) -> None:
        """``address``: where it connects from (127.0.0.1 is the Pi's own kiosk browser)."""
        self.lh = longhall
        flask_client = None
        if address is not None:
            flask_client = longhall.app.test_client()
            flask_client.environ_base["REMOTE_ADDR"] = address
        self.sio = longhall.socketio.test_client(
            longhall.app, auth=auth, flask_test_client=flask_client
        )
        self.messages: list[dict[str, Any]] = []
        # the message as the messages so far make it, and how many of them it was made from
        self._latest: dict[str, Any] | None = None
        self._applied = 0
        self.token: str | None = None
        self.seat: int | None = None

    @property
    def connected(self) -> bool:
        return bool(self.sio.is_connected())

    def pump(self) -> list[dict[str, Any]]:
        if self.connected:
            got: list[dict[str, Any]] = self.sio.get_received()
        else:  # what arrived before the server hung up
            got, self.sio.queue = list(self.sio.queue), []
        self.messages.extend(got)
        return got

    def last(self) -> dict[str, Any]:
        """The newest snapshot or update, patches applied (a gap would fail the test)."""
        self.pump()
        latest = self._latest
        for message in self.messages[self._applied :]:
            body: Any = message["args"][0] if message["args"] else None  # JSON
            if message["name"] in ("snapshot", "update"):
                latest = body
            elif message["name"] == "patch" and latest is not None:
                assert body["base"] == latest["seq"], "a patch that does not follow"
                latest = apply_patch(latest, body["ops"])
        self._latest, self._applied = latest, len(self.messages)
        if latest is None:
            raise AssertionError("no snapshot received")
        return latest

    def send(
        self, kind: str, version: int | None = None, cid: str | None = None, **fields: Any
    ) -> dict[str, Any]:
        payload = {
            "type": kind,
            "id": cid or uuid.uuid4().hex,
            "version": version if version is not None else self.lh.table.data.version,
            **fields,
        }
        ack: dict[str, Any] = self.sio.emit("command", payload, callback=True)
        self.pump()
        return ack

    def act(self, **action: Any) -> dict[str, Any]:
        return self.send("act", action=action)

    def join(self, name: str, colour: str = "") -> dict[str, Any]:
        ack = self.send("join", name=name, colour=colour)
        if ack["ok"]:
            self.token, self.seat = ack["token"], ack["seat"]
        return ack


def game(table: Table) -> GameState:
    """The table's game, for a test that started one."""
    assert table.game is not None, "no game is running"
    return table.game


def eketorp(table: Table) -> EketorpState:
    """The table's game as the Eketorp state a test set up."""
    state = table.game
    assert isinstance(state, EketorpState), state
    return state


def seated(longhall: Longhall, names: list[str]) -> list[Client]:
    """Phones that joined, in order (the first is the host)."""
    phones = []
    for name in names:
        phone = Client(longhall, {"code": longhall.table.data.code})
        assert phone.join(name)["ok"]
        phones.append(phone)
    return phones


# the ``guest`` fixture: connects one more phone that has not joined
Guest = Callable[[], Client]


def play_until(table: Table, phones: list[Client], done: Callable[[GameState], bool]) -> None:
    """Play the running game on until ``done(game)``: each move the choice of a greedy bot for
    the seat, sent from that seat's phone (a seated phone of ``phones``), and NEXT pressed when
    only the table may go on. For a test to start at the phase it is about (seeded games play
    alike: the bots' seeds come from the seat)."""
    spec = table.spec
    by_seat = {phone.seat: phone for phone in phones if phone.seat is not None}
    bots = {seat: spec.bots["greedy"](seat) for seat in by_seat}
    while not done(state := game(table)):
        assert table.data.status == "playing", "the game ended first"
        active = state.active_seats()
        if active:
            seat = active[0]
            ack = by_seat[seat].act(**bots[seat].choose(state, seat))
        else:
            ack = table.press_next()
        assert ack["ok"], ack


def finish(table: Table, totals: list[int], winners: list[int]) -> None:
    """Seed the end of the running game: the engine is told it is over with these scores, and
    one legal move (a real command, journalled) ends it as the table ends any game."""
    state = game(table)
    # the game's own scores as they stand (their breakdown as the pages draw it), other totals
    scores = [{**score, "total": t} for score, t in zip(state.scores(), totals, strict=True)]
    active = state.active_seats()
    seat = active[0] if active else None
    action = state.legal_actions(seat)[0]
    who = Identity("bot", seat) if seat is not None else Identity("button")
    command = {
        "type": "act" if seat is not None else "table",
        "id": f"seed-finish-{table.data.version:04d}",
        "version": table.data.version,
        "action": action,
    }
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(type(state), "scores", lambda self: scores)
        mp.setattr(type(state), "winners", lambda self: winners)
        mp.setattr(type(state), "is_over", lambda self: True)
        ack = table.submit(who, command)
    assert ack["ok"], ack
    assert table.data.status == "over"
