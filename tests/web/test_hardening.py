"""Attacks from a device on the table's Wi-Fi, against a real ``longhall serve``.

Every attack is bounded in count and time and runs on loopback only. A "phone on the Wi-Fi" is
played by a client address of 127.0.0.0/8 other than 127.0.0.1: only 127.0.0.1 and ::1, the Pi's
own kiosk browser, are exempt from the per-address caps.
"""

from __future__ import annotations

import json
import socket
import sqlite3
import struct
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
import socketio

from longhall.server.web.transport.sessions import JOIN_GRACE

from ..support import Phone, ServerProcess, refusal_code

PHONE_ADDRESS = "127.0.0.9"  # a phone on the Wi-Fi, as far as the server can tell


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    srv = ServerProcess(tmp_path_factory.mktemp("hardening"), "--rate-limit", "1")
    srv.start()
    yield srv
    srv.stop()


def raw_http(port: int, request: bytes, source: str = PHONE_ADDRESS, timeout: float = 10) -> bytes:
    """Send one raw HTTP request from ``source`` and return the whole answer."""
    with socket.create_connection(
        ("127.0.0.1", port), timeout=timeout, source_address=(source, 0)
    ) as sock:
        sock.sendall(request)
        chunks = []
        while True:
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                break
            if not chunk:
                break
            chunks.append(chunk)
            if b"\r\n\r\n" in b"".join(chunks) and b"Content-Length: 0" in chunks[0]:
                break
        return b"".join(chunks)


# -- 8. the event named "*" ---------------------------------------------------------------------


def test_the_event_named_star_is_refused_and_spends_no_one_elses_tokens(
    server: ServerProcess,
) -> None:
    """The event ``*`` is python-socketio's catch-all, which takes the client's first argument
    as the connection id: it must answer with an error, never act as another phone."""
    victim = Phone(server.url, {"code": _code(server)}, "victim").connect()
    attacker = Phone(server.url, {"code": _code(server)}, "attacker").connect()
    try:
        answer = attacker.sio.call("*", 12345, timeout=10)
        assert answer["error"]["code"] == "unknown_event"
        victim_sid = victim.sio.get_sid("/")
        for _ in range(4):  # the server allows 1 event a second, in bursts of 2
            attacker.sio.call("*", victim_sid, timeout=10)
        # the victim's own tokens are untouched: its first request is served
        assert "version" in victim.sio.call("snapshot", timeout=10)
        assert "you" in victim.sio.call("snapshot", timeout=10)
    finally:
        victim.disconnect()
        attacker.disconnect()
    assert "Traceback" not in server.log.read_text()


def _code(server: ServerProcess) -> str:
    con = sqlite3.connect(server.data_dir / "longhall.sqlite3")
    try:
        return str(con.execute("SELECT value FROM meta WHERE key = 'table_code'").fetchone()[0])
    finally:
        con.close()


# -- 9. smaller ones ----------------------------------------------------------------------------


def test_a_nul_in_a_static_path_is_not_found(server: ServerProcess) -> None:
    for path in ("/static/a%00.js", "/phone/%00", "/table/x%00y.css"):
        assert requests.get(server.url + path, timeout=5).status_code == 404
    assert "Traceback" not in server.log.read_text()


def test_a_newline_in_a_command_type_cannot_forge_a_log_line(server: ServerProcess) -> None:
    phone = Phone(server.url, {"code": _code(server)}, "forger").connect()
    marker = uuid.uuid4().hex[:8]  # the log keeps 20 characters of a type
    try:
        answer = phone.sio.call(
            "command",
            {"type": f"x\nFORGED {marker}", "id": "1", "version": 0},
            timeout=10,
        )
        assert answer["ok"] is False
    finally:
        phone.disconnect()
    phone = Phone(server.url, {"code": _code(server)}, "witness").connect()  # a later log line
    phone.disconnect()
    lines = server.log.read_text().splitlines()
    assert not [line for line in lines if line.startswith(f"FORGED {marker}")]
    assert any(f"FORGED {marker}" in line for line in lines)  # logged, escaped, on one line


def test_a_forged_host_is_refused_dns_rebinding(server: ServerProcess) -> None:
    """A page of evil.example whose name now points at the Pi sends Host and Origin of
    evil.example: same origin in form, and refused for the name."""
    port = server.port
    evil = f"evil.example:{port}"
    for path in ("/", "/healthz", "/socket.io/?EIO=4&transport=polling"):
        answer = raw_http(
            port,
            f"GET {path} HTTP/1.1\r\nHost: {evil}\r\nOrigin: http://{evil}\r\n"
            "Connection: close\r\n\r\n".encode(),
        )
        assert answer.split(b"\r\n", 1)[0] == b"HTTP/1.1 421 Misdirected Request", answer[:200]
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", "127.0.0.1"):
        answer = raw_http(
            port, f"GET /healthz HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode()
        )
        assert answer.startswith(b"HTTP/1.1 200"), (host, answer[:200])
    hostname = socket.gethostname()
    # the Pi's own names: its host name, avahi's .local and the hotspot DNS's .lan (install.sh)
    for host in (hostname, f"{hostname}.local", f"{hostname.split('.')[0]}.lan"):
        answer = raw_http(
            port, f"GET /healthz HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode()
        )
        assert answer.startswith(b"HTTP/1.1 200"), (host, answer[:200])


def test_a_real_phone_still_connects(server: ServerProcess) -> None:
    phone = Phone(server.url, {"code": _code(server)}, "anna").connect()
    try:
        assert phone.latest is not None
    finally:
        phone.disconnect()


# -- 2. Engine.IO sessions without limit --------------------------------------------------------


def handshake(port: int, source: str) -> bytes:
    """One long-polling Engine.IO handshake, as a browser's Socket.IO client starts it."""
    return raw_http(
        port,
        f"GET /socket.io/?EIO=4&transport=polling HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        "Connection: close\r\n\r\n".encode(),
        source=source,
    )


def test_sessions_are_capped_per_address_and_in_all_and_expire_unjoined(
    server: ServerProcess,
) -> None:
    """Each handshake starts a session: sessions are capped per address and in all (beyond it
    the one that waited longest without joining makes room: a phone's handshake is never
    turned away by a crowd), and one that never joins the table is closed, so a flood of
    handshakes cannot hold the Pi's memory."""
    port = server.port
    # A silent session is closed JOIN_GRACE (10 s) after its handshake: however slow this
    # machine, in t seconds at most cap * (1 + t // JOIN_GRACE) handshakes can be accepted.
    started = time.monotonic()
    answers = [handshake(port, PHONE_ADDRESS) for _ in range(40)]
    windows = 1 + int((time.monotonic() - started) // JOIN_GRACE)
    accepted = [a for a in answers if a.startswith(b"HTTP/1.1 200")]
    assert 8 <= len(accepted) <= 8 * windows  # SESSIONS_PER_ADDRESS
    assert all(a.startswith(b"HTTP/1.1 401") for a in answers if a not in accepted)
    # many addresses: each address's cap holds, and no more than 128 sessions are open at once
    others = [f"127.0.1.{n}" for n in range(1, 17)]
    started = time.monotonic()
    elsewhere = [handshake(port, address) for address in others for _ in range(12)]
    windows = 1 + int((time.monotonic() - started) // JOIN_GRACE)
    opened = [session_id(a) for a in elsewhere if a.startswith(b"HTTP/1.1 200")]
    assert len(opened) <= 16 * 8 * windows
    if windows == 1:
        assert len(opened) == 16 * 8  # none refused for the others' sake ...
        # ... the phone's, which waited longest, made room for them
        assert not any(session_open(port, session_id(a)) for a in accepted)
    assert sum(session_open(port, sid) for sid in opened) <= 128
    assert server.health()["status"] == "ok"  # the pages still answer
    # the sessions never joined the table: they are closed after a few seconds, and the address
    # may open new ones
    deadline = time.monotonic() + 60
    while not handshake(port, PHONE_ADDRESS).startswith(b"HTTP/1.1 200"):
        assert time.monotonic() < deadline, "the unjoined sessions were never closed"
        time.sleep(0.5)
    while True:  # and a real phone joins, once the sessions of the other addresses are closed
        try:
            phone = Phone(server.url, {"code": _code(server)}, "late").connect()
            break
        except socketio.exceptions.ConnectionError:
            assert time.monotonic() < deadline, "the unjoined sessions were never closed"
            time.sleep(0.5)
    phone.disconnect()


def session_id(answer: bytes) -> str:
    """The Engine.IO session a handshake's answer opened."""
    return answer.split(b'"sid":"', 1)[1].split(b'"', 1)[0].decode()


def session_open(port: int, sid: str) -> bool:
    """Whether a session is open (it is then closed: Engine.IO's close packet)."""
    answer = raw_http(
        port,
        f"POST /socket.io/?EIO=4&transport=polling&sid={sid} HTTP/1.1\r\n"
        f"Host: 127.0.0.1:{port}\r\nContent-Type: text/plain\r\nContent-Length: 1\r\n"
        "Connection: close\r\n\r\n1".encode(),
        source="127.0.0.1",
    )
    return answer.startswith(b"HTTP/1.1 200")


# -- 3. malformed frames on a bare WebSocket ----------------------------------------------------


def ws_frame(text: str) -> bytes:
    """One masked WebSocket text frame, as a client sends it."""
    payload = text.encode()
    mask = b"\x01\x02\x03\x04"
    assert len(payload) < 126
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + mask + masked


def bare_websocket(port: int, code: str, source: str = PHONE_ADDRESS) -> socket.socket:
    """A WebSocket to the server that has joined the table as a guest, without any library."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    sock.sendall(
        f"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(4096)
    assert head.startswith(b"HTTP/1.1 101"), head[:100]
    sock.sendall(ws_frame("40" + json.dumps({"code": code})))
    return sock


def closed_by_server(sock: socket.socket, timeout: float = 30) -> bool:
    """Whether the server ends the connection (Engine.IO's close packet, or the socket closes)."""
    sock.settimeout(1)
    deadline = time.monotonic() + timeout
    seen = b""
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        except OSError:
            return True
        if not chunk:
            return True
        seen += chunk
        if b"\x81\x011" in seen or b"\x88" in seen:  # Engine.IO CLOSE, or a WebSocket close
            return True
    return False


@pytest.mark.parametrize("garbage", ["43[", "42[1]"])
def test_malformed_frames_close_the_connection_and_log_a_count(
    server: ServerProcess, garbage: str
) -> None:
    """A stream of malformed frames closes the connection with one log line counting them,
    not a traceback per frame (which could fill the SD card)."""
    before = server.log.read_text()
    sock = bare_websocket(server.port, _code(server))
    try:
        for _ in range(200):
            try:
                sock.sendall(ws_frame(garbage))
            except OSError:
                break  # closed already
        assert closed_by_server(sock)
    finally:
        sock.close()
    # the log of the attack: a few lines, no traceback
    deadline = time.monotonic() + 20
    while "unreadable messages" not in server.log.read_text()[len(before) :]:
        assert time.monotonic() < deadline, server.log.read_text()[len(before) :][-2000:]
        time.sleep(0.2)
    written = server.log.read_text()[len(before) :]
    assert "Traceback" not in written
    assert len(written.splitlines()) <= 10, written[-2000:]


# -- 1. slowloris -------------------------------------------------------------------------------


def half_sent(port: int, source: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    sock.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow: 1\r\n".encode())
    return sock


def test_half_sent_requests_take_no_thread_and_are_closed(tmp_path: Path) -> None:
    """Requests whose head never finishes (a slowloris) hold no worker thread and are closed:
    the pages and ``/healthz`` answer meanwhile."""
    server = ServerProcess(tmp_path)
    server.start()
    held: list[socket.socket] = []
    try:
        # more than the server's 64 threads, from one phone and from the Pi itself
        held += [half_sent(server.port, PHONE_ADDRESS) for _ in range(40)]
        held += [half_sent(server.port, "127.0.0.1") for _ in range(40)]
        assert server.health()["status"] == "ok"
        assert requests.get(server.url + "/", timeout=30).ok
        phone = Phone(server.url, {"code": _code(server)}, "anna").connect()
        phone.disconnect()
        # a head sent in pieces, within the time allowed, is served as usual
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            for piece in (b"GET /healthz HTTP/1.1\r\n", b"Host: 127.0.0.1\r\n", b"\r\n"):
                sock.sendall(piece)
                time.sleep(0.05)
            assert sock.recv(4096).startswith(b"HTTP/1.1 200")
        # every half-sent request is closed: the phone's beyond its cap at once, the rest when
        # their time is up
        for sock in held:
            sock.settimeout(60)
            try:
                answer = sock.recv(4096)
            except ConnectionResetError:
                answer = b""
            assert answer == b"" or answer.startswith(b"HTTP/1.1 408 Request Timeout\r\n")
    finally:
        for sock in held:
            sock.close()
        server.stop()


# -- 9. a WebSocket that vanishes while the server closes it ------------------------------------


def test_abrupt_disconnects_leave_no_traceback(server: ServerProcess) -> None:
    """A client that asks to close, then resets the connection at once, may leave the socket
    closed under a thread still writing to it: nothing is lost, and no traceback is logged."""
    before = len(server.log.read_text())
    code = _code(server)
    for _ in range(800):
        sock = bare_websocket(server.port, code, source="127.0.0.1")  # joined as a guest
        sock.sendall(ws_frame("1"))  # Engine.IO close
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()  # a reset, as when a phone's Wi-Fi drops
    # the server has handled them all once it answers a new phone
    Phone(server.url, {"code": code}, "after").connect().disconnect()
    written = server.log.read_text()[before:]
    assert "Traceback" not in written and "Bad file descriptor" not in written


# -- the connection's auth ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("auth", "code"),
    [
        ('{"token": "\\ud800"}', "bad_token"),
        ('{"code": "ab\\udfffcd"}', "bad_code"),
        ('{"code": "%s", "was": "\\ud83d"}', "bad_token"),
    ],
)
def test_a_lone_surrogate_in_the_auth_is_refused_like_any_bad_auth(
    server: ServerProcess, auth: str, code: str
) -> None:
    """A lone surrogate (no phone sends one; JSON can carry it) was a traceback and a
    connection let in without a snapshot, every event answered ``rate_limited``."""
    before = len(server.log.read_text())
    auth = auth.replace("%s", _code(server))
    assert refusal_code(server.port, auth, "127.0.0.21") == code
    assert "Traceback" not in server.log.read_text()[before:]


def test_failed_auth_attempts_from_one_address_are_slowed(server: ServerProcess) -> None:
    """Wrong codes or tokens from one address were answered at full speed forever (141
    guesses a second): after a burst, that address is refused ``rate_limited`` without its
    guess being checked; another address, and the kiosk, are not held up."""
    from longhall.server.web.events import AUTH_FAILURES_BURST, AUTH_FAILURES_RATE

    guesser = "127.0.0.22"  # wrong codes; a wrong token costs the same
    started = time.monotonic()
    codes = [refusal_code(server.port, '{"code": "wrongcode"}', guesser) for _ in range(30)]
    elapsed = time.monotonic() - started
    checked = codes.count("bad_code")
    # the burst, and what the bucket refilled meanwhile (however slow this machine)
    assert checked <= AUTH_FAILURES_BURST + AUTH_FAILURES_RATE * elapsed + 1, codes
    assert codes[AUTH_FAILURES_BURST] == "rate_limited" or elapsed > 1, codes
    assert set(codes) == {"bad_code", "rate_limited"}
    # nobody else is held up
    right = json.dumps({"code": _code(server)})
    assert refusal_code(server.port, right, "127.0.0.23") == ""
    assert refusal_code(server.port, '{"code": "wrongcode"}', "127.0.0.1") == "bad_code"
