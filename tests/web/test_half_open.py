"""A half-open client (its TCP connection alive, the client silent: it neither reads nor answers
pings, as a phone that left the Wi-Fi) is dropped by Engine.IO's heartbeat: its seat shows
offline to everyone, and the server lets go of the connection (its reading thread and its slot)
instead of waiting for TCP to give up on it a quarter of an hour later.

The heartbeat is shortened for the test (tests/web/short_heartbeat.py); nothing is timed: the
test waits for the update that shows the seat offline and for the server to close the socket.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..support import Phone, RawWebSocket, ServerProcess

WAIT = 60.0  # seconds before the test gives up on a stuck server


def shows(view: dict[str, Any], seat: int, connected: bool) -> bool:
    """Whether the view has ``seat`` (an update may still be on its way) online or offline."""
    seats = view["table"]["seats"]
    return seat < len(seats) and bool(seats[seat]["connected"]) is connected


def test_a_silent_client_is_dropped_and_its_seat_shows_offline(tmp_path: Path) -> None:
    os.environ["LONGHALL_TEST_PING"] = "1"
    try:
        server = ServerProcess(tmp_path, module="tests.web.short_heartbeat")
        server.start()
    finally:
        del os.environ["LONGHALL_TEST_PING"]
    phones: list[Phone] = []
    silent: RawWebSocket | None = None
    try:
        lobby = Phone(server.url).connect()
        code = lobby.current["table"]["code"]
        lobby.disconnect()
        host = Phone(server.url, {"code": code}, name="host").connect()  # answers every ping
        phones.append(host)
        assert host.join("Astrid")["ok"]
        guest = Phone(server.url, {"code": code}, name="guest").connect()
        assert guest.join("Bjorn")["ok"]
        token, seat = guest.token, guest.seat
        guest.disconnect()
        assert seat is not None
        host.wait(lambda v: shows(v, seat, connected=False), WAIT)
        # the guest's seat opened again, on a bare WebSocket that will go silent
        silent = RawWebSocket(server.port, timeout=WAIT)
        assert silent.receive().startswith("0")  # engine.io open
        silent.send("40" + json.dumps({"token": token}))
        host.wait(lambda v: shows(v, seat, connected=True), WAIT)
        # from here the client reads nothing and answers no ping: only the heartbeat can tell
        host.wait(lambda v: shows(v, seat, connected=False), WAIT)
        # and the server let go of the connection: what it had sent, then the end of the stream
        silent.sock.settimeout(WAIT)  # bounds a stuck server only
        while silent.sock.recv(65536):
            pass
        assert host.sio.connected  # the host, who answered every ping, is still here
    finally:
        if silent is not None:
            silent.close()
        for phone in phones:
            phone.disconnect()
        server.stop()


def test_a_silent_client_is_dropped_when_the_wall_clock_is_set_back(tmp_path: Path) -> None:
    """NTP sets the wall clock of a Pi that booted with a wrong time back an hour: a phone gone
    silent stayed "online" for over a minute. Every liveness decision is on the monotonic
    clock (tests/web/shifted_clock.py sets the server's wall clock back), and so is how long a
    phone has been away: one gone before the clock went back is not away "for -59 minutes"."""
    fifo = tmp_path / "clock"
    os.mkfifo(fifo)
    os.environ["LONGHALL_TEST_PING"] = "2"  # seconds: the host answers in time on a busy machine
    os.environ["LONGHALL_TEST_CLOCK"] = str(fifo)
    try:
        (tmp_path / "data").mkdir()
        server = ServerProcess(tmp_path / "data", module="tests.web.shifted_clock")
        server.start()
    finally:
        del os.environ["LONGHALL_TEST_PING"], os.environ["LONGHALL_TEST_CLOCK"]
    silent: RawWebSocket | None = None
    host: Phone | None = None
    try:
        code = Phone(server.url).connect().current["table"]["code"]
        host = Phone(server.url, {"code": code}, name="host").connect()  # answers every ping
        assert host.join("Astrid")["ok"]
        guest = Phone(server.url, {"code": code}, name="guest").connect()
        assert guest.join("Bjorn")["ok"]
        token, seat = guest.token, guest.seat
        guest.disconnect()
        assert seat is not None
        gone = Phone(server.url, {"code": code}, name="gone").connect()
        assert gone.join("Cara")["ok"]
        gone_seat = gone.seat
        gone.disconnect()  # away from now on, before the clock goes back
        assert gone_seat is not None
        silent = RawWebSocket(server.port, timeout=WAIT).join({"token": token})
        host.wait(lambda v: shows(v, seat, connected=True), WAIT)
        while silent.receive() != "2":  # the server's ping, which it will never hear answered
            pass
        with fifo.open("w") as f:  # the wall clock goes back an hour, now
            f.write("back\n")
        # two seconds later the ping is late: found silent within seconds, not in an hour
        host.wait(lambda v: shows(v, seat, connected=False), 30)
        assert host.sio.connected  # the host, who answered every ping, is still here
        table = host.current["table"]
        away_for = table["now"] - table["seats"][gone_seat]["away_since"]
        assert 0 <= away_for < WAIT, table
    finally:
        if silent is not None:
            silent.close()
        if host is not None:
            host.disconnect()
        server.stop()
