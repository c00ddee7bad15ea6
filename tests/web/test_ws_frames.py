"""A WebSocket ping is answered from the connection's reading thread while other threads write
its messages: the pong must never land inside another frame (server/wsframes.py).

A real server and a raw client that asks for many snapshots and reads none of them, until the
server finds its buffer full and is part-way through a frame; then the client sends pings (each
answered at once by the reading thread) and reads everything: every frame must parse, every
answer be whole, and every ping be answered, in order.
"""

from __future__ import annotations

import json
import os
import struct
import time
from pathlib import Path
from typing import Any

from ..support import RawWebSocket, ServerProcess

WAIT = 60.0  # seconds before the test gives up on a stuck server
REQUESTS = 200  # snapshots asked for (each a few KB): far more than the buffers on the way hold
PINGS = 400  # in each round
BURST = 60  # of them sent before the screen reads again
ROUNDS = 5


class PingingScreen(RawWebSocket):
    """A table display over a bare socket that sends WebSocket pings and reads every frame."""

    def ping(self, payload: bytes) -> None:
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        with self.write_lock:
            self.sock.sendall(bytes((0x89, 0x80 | len(payload))) + mask + masked)

    def frame(self) -> tuple[int, bytes]:
        """The next frame, whole: (its first byte, its payload). Fails on anything a server may
        not send: a fragment, a masked or compressed frame, an unknown opcode."""
        first, second = self._exact(2)
        assert first in (0x81, 0x8A, 0x88), f"not a whole text, pong or close frame: {first:#x}"
        assert not second & 0x80, "a masked frame from the server"
        size = second & 0x7F
        if size == 126:
            (size,) = struct.unpack("!H", self._exact(2))
        elif size == 127:
            (size,) = struct.unpack("!Q", self._exact(8))
        assert size < 1 << 24, f"a frame of {size} bytes: the stream is corrupt"
        return first, self._exact(size)


def test_pongs_never_land_inside_a_frame_being_written(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, "--rate-limit", "100000")
    server.start()
    screen = PingingScreen(server.port, receive_buffer=2048)
    try:
        assert screen.receive().startswith("0")  # engine.io open
        screen.send("40")  # Socket.IO connect, as the table display
        while not screen.receive().startswith("40"):
            pass
        for round_ in range(ROUNDS):
            # many snapshots asked for, none read: the server's buffer fills, and (the first
            # time) the sender is left part-way through a frame, its rest handed to the
            # screen's own writer, which then blocks on the full buffer
            for n in range(REQUESTS):
                screen.send(f"42{n}" + json.dumps(["snapshot"]))
            deadline = time.monotonic() + WAIT
            while "reads slowly" not in server.log.read_text():
                assert time.monotonic() < deadline, "the screen's buffer never filled"
                time.sleep(0.05)  # the server's log, looked at until it tells: not a timing
            read_all(screen, round_)
    finally:
        screen.close()
        server.stop()


def read_all(screen: PingingScreen, round_: int) -> None:
    """Send pings (each answered by the reading thread as soon as it is read: a burst now, and
    one more for each frame read while the rest streams in) and read every frame: every
    snapshot asked for must come whole, and every ping be answered, in order."""
    pings = [f"ping {round_}.{i:04}".encode() for i in range(PINGS)]
    for payload in pings[:BURST]:
        screen.ping(payload)
    sent = BURST
    answers: dict[int, Any] = {}
    pongs: list[bytes] = []
    while len(answers) < REQUESTS or len(pongs) < PINGS:
        first, payload = screen.frame()
        if sent < PINGS:
            screen.ping(pings[sent])
            sent += 1
        assert first != 0x88, "the server closed the WebSocket"
        if first == 0x8A:
            pongs.append(payload)
            continue
        text = payload.decode()  # a frame with a pong inside it is not UTF-8, or not JSON
        if text.startswith("2"):  # engine.io's ping: answer it
            screen.send("3")
        elif text.startswith("43"):
            digits = len(text) - len(text[2:].lstrip("0123456789"))
            n = int(text[2:digits])
            (snapshot,) = json.loads(text[digits:])
            assert snapshot["table"]["status"] == "lobby" and isinstance(snapshot["version"], int)
            answers[n] = snapshot
        elif text.startswith("42"):
            json.loads(text[2:])  # an update or a notice: whole JSON
    assert sorted(answers) == list(range(REQUESTS))
    assert pongs == pings
