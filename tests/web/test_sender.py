"""One sender writes every WebSocket message of the table (server/web/transport/sender.py). A
screen that stops reading must hold up nobody, and must still get every message, in order, once it
reads again."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import queue
import socket
import struct
import threading
import time
import zlib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from engineio import packet as engineio_packet
from socketio import packet as socketio_packet
from wsproto.frame_protocol import Opcode, RsvBits

from longhall.server.config import Settings
from longhall.server.games.api import progress_actions
from longhall.server.web.transport import deflate
from longhall.server.web.transport.frames import FrameSocket
from longhall.server.web.transport.sender import DirectWebSocket, Sender

from ..support import Phone, RawWebSocket, ServerProcess, apply_patch

WAIT = 30.0  # seconds before a test gives up on something that should come at once


class RawScreen(RawWebSocket):
    """A table display with a tiny receive buffer that can stop reading (as a phone on a weak
    Wi-Fi does) while it keeps answering engine.io's pings."""

    def __init__(self, port: int) -> None:
        super().__init__(port, receive_buffer=2048)
        self.stop = threading.Event()

    def keep_alive(self) -> None:
        """Answer engine.io's pings without reading them: a pong any time will do."""
        while not self.stop.wait(1.0):
            self.send("3")

    def close(self) -> None:
        self.stop.set()
        super().close()


def test_a_screen_that_stops_reading_holds_up_nobody_and_loses_nothing(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, "--bot-delay", "0", "--rate-limit", "100000", "--seed", "4")
    server.start()
    screen: RawScreen | None = None
    try:
        lobby = Phone(server.url).connect()
        code = lobby.current["table"]["code"]
        lobby.disconnect()
        host = Phone(server.url, {"code": code}, name="host").connect()
        assert host.join("Astrid")["ok"]
        for _ in range(2):
            assert host.command("add_bot", bot="random")["ok"]
        screen = RawScreen(server.port)
        assert screen.receive().startswith("0")  # engine.io open
        screen.send("40")  # Socket.IO connect, as the table display
        pending: list[Any] = []  # the snapshot (before or after Socket.IO's connect answer)
        connected = False
        while not (connected and pending):
            text = screen.receive()
            connected = connected or text.startswith("40")
            if text.startswith("42"):
                pending.append(json.loads(text[2:]))
        threading.Thread(target=screen.keep_alive, daemon=True).start()
        # the screen reads no more; the host plays on with two bots until the server has
        # found the screen's buffer full (or the game ends)
        assert host.command("start")["ok"]
        for _ in range(2000):
            view = host.latest
            assert view is not None
            if view["table"]["status"] != "playing" or "reads slowly" in server.log.read_text():
                break
            legal = progress_actions(view["game"]["legal"])
            # a bot may have moved first: a refusal changes nothing, and the host looks again
            if legal:
                host.command("act", action=legal[0])
            elif view["game"]["public"]["table_actions"]:
                action = {"type": view["game"]["public"]["table_actions"][0]}
                host.command("table", action=action)
            else:  # the bots' turn: their moves arrive as updates
                version = view["version"]
                host.wait(lambda v, t=version: v["version"] > t)
                continue
        assert "reads slowly" in server.log.read_text(), "the screen's buffer never filled"
        final = host.current["version"]
        # now the screen reads: every message, in order, each patch on the one before it
        last: dict[str, Any] | None = None
        deadline = time.monotonic() + 120  # bounds a stuck server only
        while last is None or last["version"] < final:
            assert time.monotonic() < deadline, "the screen never caught up"
            if not pending:
                text = screen.receive()
                if not text.startswith("42"):
                    continue  # pings and the like
                pending.append(json.loads(text[2:]))
            event, body = pending.pop(0)
            if event == "patch":
                assert last is not None and body["base"] == last["seq"], "a patch out of order"
                last = {**apply_patch(last, body["ops"]), "seq": body["seq"]}
            elif event in ("snapshot", "update"):
                last = body
        assert last["version"] >= final
    finally:
        if screen is not None:
            screen.close()
        server.stop()


class DeflateScreen:
    """A table display over a bare WebSocket that offers permessage-deflate as browsers do."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                "GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\n"
                f"Host: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n"
            ).encode()
        )
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.sock.recv(65536)
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        self.head = head.decode().lower()
        self.inflate = zlib.decompressobj(-15)  # one for the connection, as a browser keeps
        self.compressed: list[bytes] = []  # every compressed message, as it came

    def _exact(self, n: int) -> bytes:
        while len(self.buffer) < n:
            data = self.sock.recv(65536)
            assert data, "the server closed the connection"
            self.buffer += data
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def receive(self) -> str:
        first, second = self._exact(2)
        assert first in (0x81, 0xC1), f"not a whole text frame: {first:#x}"
        size = second & 0x7F
        if size == 126:
            (size,) = struct.unpack("!H", self._exact(2))
        elif size == 127:
            (size,) = struct.unpack("!Q", self._exact(8))
        payload = self._exact(size)
        if first == 0xC1:  # compressed (RSV1)
            self.compressed.append(payload)
            payload = self.inflate.decompress(payload + b"\x00\x00\xff\xff")
        return payload.decode()

    def send(self, text: str) -> None:
        payload, mask = text.encode(), os.urandom(4)
        assert len(payload) < 126
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(bytes((0x81, 0x80 | len(payload))) + mask + masked)

    def next_event(self, prefix: str) -> Any:
        while True:
            text = self.receive()
            if text.startswith(prefix):
                return json.loads(text[len(prefix) :])


def test_large_messages_are_compressed_each_on_its_own(tmp_path: Path) -> None:
    """A screen that offers permessage-deflate gets large messages compressed and small ones as
    they are; the server keeps no context from one message to the next (it says so in the
    handshake), so the same compressed frame can go to every screen of a room."""
    server = ServerProcess(tmp_path, "--rate-limit", "100000")
    server.start()
    screens: list[DeflateScreen] = []
    try:
        for _ in range(2):
            screen = DeflateScreen(server.port)
            screens.append(screen)
            assert "permessage-deflate" in screen.head
            assert "server_no_context_takeover" in screen.head
            assert screen.receive().startswith("0")  # engine.io open: small, as it is
            screen.send("40")
        for screen in screens:
            event, snapshot = screen.next_event("42")
            assert event == "snapshot" and snapshot["table"]["status"] == "lobby"
            screen.send('421["snapshot"]')  # asked again: the answer comes large as well
            (again,) = screen.next_event("431")
            assert again["table"]["code"] == snapshot["table"]["code"]
            assert len(screen.compressed) == 2, "the snapshot and the answer came compressed"
            for payload in screen.compressed:  # each stands alone
                alone = zlib.decompressobj(-15).decompress(payload + b"\x00\x00\xff\xff")
                assert json.loads(alone[alone.index(b"[") :])[-1]["table"]["code"]
    finally:
        for screen in screens:
            screen.sock.close()
        server.stop()


def test_a_message_larger_than_allowed_is_refused_as_it_comes(tmp_path: Path) -> None:
    """A client starts a message larger than the server takes (a fragment that does not end
    it): the server closes the connection (1009) as soon as the message is too large, instead of
    keeping what comes until the message ends, however large that makes it on a 512 MB Pi."""
    server = ServerProcess(tmp_path)
    server.start()
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
    try:
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall(
            (
                "GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\n"
                f"Host: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        received = b""
        while b"\r\n\r\n" not in received:
            received += sock.recv(65536)
        assert b" 101 " in received.split(b"\r\n", 1)[0]
        limit = max(Settings().max_payload * 4, 65536)  # as server/web/app.py gives engine.io
        size = limit + 1
        mask = os.urandom(4)
        # a text frame that is not the last of its message (FIN unset), of spaces, masked
        payload = bytes(b ^ 0x20 for b in mask) * (size // 4) + bytes(
            b ^ 0x20 for b in mask[: size % 4]
        )
        sock.sendall(struct.pack("!BBQ", 0x01, 0x80 | 127, size) + mask + payload)
        closed = False
        while not closed:
            try:
                data = sock.recv(65536)
            except ConnectionResetError:
                data = b""
            received += data
            # the server's close frame (opcode 8, status 1009), or the connection gone
            closed = not data or b"\x88" in received.split(b"\r\n\r\n", 1)[1]
        if data:
            assert struct.pack("!H", 1009) in received
    finally:
        sock.close()
        server.stop()


class _Conn:
    """An engine.io socket and its WebSocket, as the sender sees them, over a socket pair."""

    def __init__(self, sid: str, bits: int | None) -> None:
        self.sid = sid
        self.ours, self.theirs = socket.socketpair()
        self.queue = type("Q", (), {"real": queue.Queue()})()
        self.ws = type("WS", (), {"deflate": bits})()
        self.ws.ws = type("Server", (), {"connected": True, "sock": self.ours})()
        self.compressed: list[bool] = []  # whether each message came compressed, in order
        self.closed, self.last_ping = False, 0.0  # what Sender.emit looks at first

    def check_ping_timeout(self) -> bool:
        return True

    def frames(self, count: int) -> list[str]:
        """The next ``count`` text messages written to this connection, inflated."""
        out: list[str] = []
        self.theirs.settimeout(WAIT)
        data = b""
        while len(out) < count:
            data += self.theirs.recv(65536)
            data = self._take(data, out)
        return out

    def written(self) -> list[str]:
        """The messages written to this connection so far and not read yet, without waiting
        (a write to a socket pair is in its other end when ``send`` returns)."""
        data = b""
        self.theirs.settimeout(None)  # with a timeout, recv would wait even with MSG_DONTWAIT
        with contextlib.suppress(BlockingIOError):
            while chunk := self.theirs.recv(65536, socket.MSG_DONTWAIT):
                data += chunk
        out: list[str] = []
        assert self._take(data, out) == b"", "a frame written in part"
        return out

    def _take(self, data: bytes, out: list[str]) -> bytes:
        """Append the whole frames at the start of ``data`` to ``out``; return the rest."""
        while len(data) >= 2:
            size, start = data[1] & 0x7F, 2
            if size == 126:
                size, start = struct.unpack("!H", data[2:4])[0], 4
            if len(data) < start + size:
                break
            compressed = bool(data[0] & 0x40)  # RSV1
            self.compressed.append(compressed)
            payload, data = data[start : start + size], data[start + size :]
            if compressed:  # inflated as a browser does (RFC 7692 7.2.2)
                payload = zlib.decompressobj(-15).decompress(payload + b"\x00\x00\xff\xff")
            out.append(payload.decode())
        return data


def test_a_connection_thread_writes_its_batch_and_leaves_compression_to_the_sender() -> None:
    """A command's batch is written by the connection's own thread when the sender is idle,
    up to the first message to compress: that one and what follows it go to the sender thread,
    and every connection still gets everything in the order it was sent."""
    sender = Sender(threading.RLock())
    # started once the batch is handed over below: a sender thread already running could take
    # the queue itself before this thread is done (it does, when idle, if it looks just then)
    sender.thread = threading.Thread(target=sender._run, daemon=True)
    writers: list[tuple[str, str]] = []
    real_write = sender._write

    def write(eio_socket: Any, ws: Any, pkt: Any, frames: Any) -> None:
        writers.append((threading.current_thread().name, pkt.data[:5]))
        real_write(eio_socket, ws, pkt, frames)

    sender._write = write  # type: ignore[method-assign]
    plain, deflating = _Conn("plain", None), _Conn("deflating", 15)
    large = "L" + "x" * (deflate.COMPRESS_FROM + 100)
    sent = ["small1", large, "small2"]
    here = threading.current_thread().name
    with sender.held(write=True):
        for text in sent:
            pkt = engineio_packet.Packet(engineio_packet.MESSAGE, text)
            for conn in (plain, deflating):
                sender.put(conn, conn.ws, pkt)
        assert writers == []  # held: nothing written before the handler is done
    sender.thread.start()  # what this thread left (from the message to compress on) goes now
    expected = ["4" + text for text in sent]
    assert plain.frames(3) == expected
    assert deflating.frames(3) == expected
    mine = [what for who, what in writers if who == here]
    # here: the small message to both and the large one to the connection that compresses
    # nothing; the sender thread: from the large one to compress on
    assert mine == ["small", "small", "Lxxxx"]
    assert len(writers) == 6
    assert all(who != here for who, _ in writers[3:])
    for conn in (plain, deflating):
        conn.ours.close()
        conn.theirs.close()


def test_a_commands_thread_writes_each_rooms_message_as_soon_as_it_is_made() -> None:
    """In a command's thread (which writes its own batch), a room's message is written as soon
    as it is made, before the next room's is: the first screens read it meanwhile. Once anything
    waits in the queue (here the command's answer, which goes when the handler is done), or
    another thread is writing, a room's message waits its turn: nothing overtakes what was sent
    before it. So do the messages published while other commands are on their way to the disk.
    A thread that does not write its own batch (a bot's move, a button) only queues."""
    sender = Sender(threading.RLock())
    table, phone = _Conn("table", None), _Conn("phone", 15)
    rooms = {"public": [table], "seat:0": [phone]}
    for conn in (table, phone):
        sender.routes[conn.sid] = conn.ws
    sio = SimpleNamespace(
        packet_class=socketio_packet.Packet,
        eio=SimpleNamespace(sockets={c.sid: c for c in (table, phone)}, ping_timeout=20.0),
        manager=SimpleNamespace(
            get_participants=lambda _, room: [(c.sid, c.sid) for c in rooms[room]]
        ),
    )
    try:
        _rooms_written_as_made(sender, sio, table, phone)
    finally:
        for conn in (table, phone):
            conn.ours.close()
            conn.theirs.close()


def _rooms_written_as_made(sender: Sender, sio: Any, table: _Conn, phone: _Conn) -> None:
    def update(seq: int) -> str:
        return f'42["patch",{{"seq":{seq}}}]'

    answer = engineio_packet.Packet(engineio_packet.MESSAGE, '30[{"ok":true}]')
    with sender.held(write=True):  # a client's message, as the transport handles it
        with sender.held():  # the table's publisher, within it
            sender.emit(sio, "patch", {"seq": 1}, "public")
        assert table.written() == [update(1)]  # written already
        sender.put(phone, phone.ws, answer)  # held until the handler is done
        sender.emit(sio, "patch", {"seq": 2}, "seat:0")
        assert phone.written() == []  # behind the answer
    assert phone.written() == ['430[{"ok":true}]', update(2)]
    assert not sender.items  # all written by this thread

    with sender.held(write=True):
        sender.writing = True  # as if the sender thread were writing
        sender.emit(sio, "patch", {"seq": 3}, "public")
        assert table.written() == []  # its turn comes after the writer's
        sender.writing = False
    assert table.written() == [update(3)]  # this thread's, once the handler is done

    with sender.held(write=True):
        with sender.held(stream=False):  # other commands are on their way to the disk
            sender.emit(sio, "patch", {"seq": 4}, "public")
        assert table.written() == []
    assert table.written() == [update(4)]  # once the handler is done

    with sender.held():  # the bot runner's or a button's thread
        sender.emit(sio, "patch", {"seq": 5}, "public")
    assert table.written() == [] and len(sender.items) == 1  # for the sender thread
    sender.thread = threading.Thread(target=sender._run, daemon=True)
    sender.thread.start()
    assert table.frames(1) == [update(5)]


def test_patches_are_compressed_only_when_much_larger_than_snapshots_are() -> None:
    """A whole message is compressed from 1 KB; a patch, sent to every room on every command,
    only from 8 KB: a round's reveal (4 to 6 KB a room) goes as it is (server/deflate.py)."""
    sender = Sender(threading.RLock())
    sender.thread = threading.Thread(target=sender._run, daemon=True)
    sender.thread.start()
    conn = _Conn("deflating", 15)
    body = "x" * 5000
    sent = [
        '2["patch",{"ops":"' + body + '"}]',  # a reveal's patch: as it is
        '2["snapshot",{"table":"' + body + '"}]',  # a snapshot of the same size: compressed
        '2["patch",{"ops":"' + body * 2 + '"}]',  # a patch over 8 KB: compressed
        '2["patch",{"ops":"small"}]',
    ]
    for text in sent:
        sender.put(conn, conn.ws, engineio_packet.Packet(engineio_packet.MESSAGE, text))
    assert conn.frames(4) == ["4" + text for text in sent]
    assert conn.compressed == [False, True, True, False]
    conn.ours.close()
    conn.theirs.close()


def test_wsprotos_own_path_compresses_by_the_same_rule() -> None:
    """What python-socketio writes through simple-websocket (wsproto's own deflate, which
    :class:`deflate.LargeOnlyDeflate` wraps) follows the same rule as the sender's frames."""
    ext = deflate.LargeOnlyDeflate()
    assert "server_no_context_takeover" in str(ext.accept("permessage-deflate"))
    server = SimpleNamespace(client=False)  # the wsproto connection, as the extension sees it
    body = b"x" * 5000
    for data, compressed in (
        (b'42["patch",{"ops":"' + body + b'"}]', False),
        (b'42["snapshot",{"table":"' + body + b'"}]', True),
        (b'42["patch",{"ops":"' + body * 2 + b'"}]', True),
    ):
        rsv, out = ext.frame_outbound(server, Opcode.TEXT, RsvBits(False, False, False), data, True)
        assert rsv.rsv1 is compressed
        assert (out == data) is not compressed


class _Ended(threading.Event):
    """A connection's "the reading thread has seen the end", noting whether anyone waited for
    it (a close that waited for a reading thread that reads nothing would wait its whole time)."""

    def __init__(self) -> None:
        super().__init__()
        self.waited = False

    def wait(self, timeout: float | None = None) -> bool:
        self.waited = True
        return self.is_set()


def _connection(receive_data: Any) -> tuple[DirectWebSocket, _Ended, list[int]]:
    """A connection whose client sent one frame, which ``receive_data`` is given."""
    shut: list[int] = []
    sock = SimpleNamespace(
        recv=lambda size: b"\x81\x05hello", send=lambda data, flags: len(data), shutdown=shut.append
    )
    direct = DirectWebSocket.__new__(DirectWebSocket)
    ended = _Ended()
    direct.ended, direct.reading, direct.close_wait = ended, False, 60.0
    direct.ws = SimpleNamespace(
        connected=True,
        input_buffer=[],
        receive_bytes=4096,
        sock=sock,
        ws=SimpleNamespace(receive_data=receive_data, send=lambda event: b"\x88\x00"),
    )
    return direct, ended, shut


def test_a_reading_thread_that_fails_lets_the_close_go_at_once() -> None:
    """Whatever ends a connection's reading thread, not only a closed socket, tells engine.io's
    writer that the connection is over: its close waits for no answer nobody would read."""

    def broken(data: bytes) -> None:
        raise ValueError("a frame nobody expected")

    direct, ended, _ = _connection(broken)
    try:
        direct.wait()
    except ValueError:
        pass
    else:
        raise AssertionError("the reading thread's error was swallowed")
    assert direct.ended.is_set() and not direct.ws.connected and not direct.reading
    direct.close()
    assert not ended.waited


def test_a_close_while_nobody_reads_shuts_the_socket_at_once() -> None:
    """engine.io's loop may leave the reading thread on an error of its own, and wait there for
    the writer: the writer's close then shuts the socket at once, waiting for no answer."""
    direct, ended, shut = _connection(lambda data: None)
    direct.close()  # the reading thread is not in wait(), and has not seen the end
    assert not ended.waited and shut == [socket.SHUT_RDWR]
    # while it reads, the close gives the client its moment to answer, then shuts
    direct, ended, shut = _connection(lambda data: None)
    direct.reading = True
    direct.close()
    assert ended.waited and shut == [socket.SHUT_RDWR]


class _Routed:
    """An engine.io socket routed through the sender: its writer thread's queue, as the sender
    sees it (``queue.real``)."""

    def __init__(self) -> None:
        self.sid = "phone"
        self.queue = SimpleNamespace(real=queue.Queue())


def _read_frames(sock: socket.socket, count: int) -> list[str]:
    """Read ``count`` whole text frames from the server's side of a socket pair."""
    data = b""
    texts: list[str] = []
    while len(texts) < count:
        chunk = sock.recv(65536)
        assert chunk, "the server's side closed"
        data += chunk
        while len(data) >= 4:
            size, start = data[1], 2
            if size == 126:
                (size,), start = struct.unpack("!H", data[2:4]), 4
            if len(data) < start + size:
                break
            assert data[0] == 0x81, "a frame cut by another"
            texts.append(data[start : start + size].decode())
            data = data[start + size :]
    return texts


def test_a_phone_that_reads_again_goes_back_to_the_sender_in_order() -> None:
    """A phone whose buffer filled got a writer of its own; once that writer has written all it
    was handed, the sender writes to the phone itself again, after it, so nothing overtakes."""
    server_side, phone_side = socket.socketpair()
    server_side.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    phone_side.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sender = Sender(threading.RLock())
    routed = _Routed()
    ws = DirectWebSocket.__new__(DirectWebSocket)
    ws.deflate, ws.handed, ws.written, ws.slowed = None, 0, 0, False

    def simple_websocket_send(message: str) -> None:  # what simple-websocket's Server does
        ws.ws.sock.sendall(deflate.frame(message.encode(), None))

    ws.ws = SimpleNamespace(connected=True, sock=FrameSocket(server_side))
    ws.ws.send = simple_websocket_send

    def engineio_writer() -> None:  # engine.io's writer thread of the phone, as it loops
        while (pkt := routed.queue.real.get()) is not None:
            ws.send(pkt.encode())

    writer = threading.Thread(target=engineio_writer, daemon=True)
    writer.start()
    packets = [
        engineio_packet.Packet(engineio_packet.MESSAGE, f"{n:04}" + "x" * 1500) for n in range(60)
    ]
    try:
        # the phone reads nothing: the sender fills its buffer and hands the rest to its writer
        sender._write_batch([(routed, ws, pkt) for pkt in packets[:30]])
        assert id(routed) in sender.slow and ws.handed > 0
        first = _read_frames(phone_side, 30)  # it reads again: its writer writes the rest
        deadline = time.monotonic() + WAIT
        while ws.written < ws.handed:  # the writer counts a packet once it is written whole
            assert time.monotonic() < deadline, "the phone's writer never wrote what it had"
            time.sleep(0.01)
        handed = ws.handed
        rest: list[str] = []
        reader = threading.Thread(target=lambda: rest.extend(_read_frames(phone_side, 30)))
        reader.start()
        sender._write_batch([(routed, ws, pkt) for pkt in packets[30:31]])
        assert id(routed) not in sender.slow  # the sender writes to it again
        sender._write_batch([(routed, ws, pkt) for pkt in packets[31:]])
        reader.join(WAIT)
        texts = first + rest
        assert [text[1:5] for text in texts] == [f"{n:04}" for n in range(60)]
        assert ws.handed >= handed  # (it may be slow again for a moment; nothing is lost)
    finally:
        routed.queue.real.put(None)
        writer.join(WAIT)
        server_side.close()
        phone_side.close()
