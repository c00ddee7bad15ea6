"""The server under a handshake flood and a slowloris from the Wi-Fi, over loopback.

A real ``longhall serve``; attackers on 127.0.0.0/8 addresses other than 127.0.0.1 (the server
takes those for phones on the Wi-Fi; 127.0.0.1 is the kiosk, exempt from per-address caps).

- handshake flood: 16 clients of one address send Engine.IO long-polling handshakes as fast as
  they can for ``--seconds``, then 16 clients of 16 addresses; the server's threads and resident
  memory are sampled throughout, and the memory 10 s after the flood stops.
- slowloris: 64 half-sent requests from one address, and 64 from 64 addresses, held for
  ``--seconds``; ``/healthz`` is asked throughout.
- WebSocket handshakes closed at once (each on a fresh server, warmed up as a night's phones
  leave it): 16 clients from one address, from four, and each time from another of 500, for
  ``--seconds``; a seated phone and the kiosk connect while it runs; the memory 60 s after.
  Then 2,000 spectators that connect, take their snapshot and leave; the memory 45 s after.

Figures printed: peak threads and RSS against the idle server (a ratio), RSS 10 s later, and how
many ``/healthz`` requests were answered in time (5 s) while each attack ran; for the WebSocket
floods, peak threads and RSS, whether the phone and the kiosk got in, and RSS a minute later.

Run: ``.venv/bin/python bench/attack.py [--seconds 20]``.
"""

from __future__ import annotations

import argparse
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import contextlib

from bench.engine import machine
from tests.support import RawWebSocket, ServerProcess
from tests.web import test_floods as floods


def status(pid: int) -> tuple[int, float]:
    """The process's threads and resident memory (MB)."""
    fields = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
    )
    return int(fields["Threads"]), int(fields["VmRSS"].split()[0]) / 1024


class Sampler(threading.Thread):
    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.peak_threads = 0
        self.peak_rss = 0.0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(0.1):
            threads, rss = status(self.pid)
            self.peak_threads = max(self.peak_threads, threads)
            self.peak_rss = max(self.peak_rss, rss)


def healthz_watch(url: str, until: threading.Event, counts: dict[str, int]) -> None:
    while not until.is_set():
        try:
            ok = requests.get(url + "/healthz", timeout=5).ok
        except requests.RequestException:
            ok = False
        counts["ok" if ok else "failed"] += 1
        until.wait(0.5)


def handshakes(port: int, source: str, until: float, counts: dict[str, int]) -> None:
    request = (
        f"GET /socket.io/?EIO=4&transport=polling HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        "Connection: close\r\n\r\n"
    ).encode()
    while time.monotonic() < until:
        try:
            with socket.create_connection(
                ("127.0.0.1", port), timeout=5, source_address=(source, 0)
            ) as sock:
                sock.sendall(request)
                answer = sock.recv(64)
        except OSError:
            counts["error"] += 1
            continue
        counts["accepted" if answer.startswith(b"HTTP/1.1 200") else "refused"] += 1


def flood(server: ServerProcess, sources: list[str], seconds: float) -> None:
    pid = server.proc.pid  # type: ignore[union-attr]
    idle_threads, idle_rss = status(pid)
    sampler = Sampler(pid)
    sampler.start()
    done = threading.Event()
    health = {"ok": 0, "failed": 0}
    watcher = threading.Thread(target=healthz_watch, args=(server.url, done, health))
    watcher.start()
    counts = {"accepted": 0, "refused": 0, "error": 0}
    until = time.monotonic() + seconds
    clients = [
        threading.Thread(
            target=handshakes, args=(server.port, sources[i % len(sources)], until, counts)
        )
        for i in range(16)
    ]
    for c in clients:
        c.start()
    for c in clients:
        c.join()
    done.set()
    watcher.join()
    time.sleep(10)
    sampler.stop.set()
    sampler.join()
    after_threads, after_rss = status(pid)
    print(
        f"  {len(sources)} address(es), {seconds:.0f} s: {sum(counts.values())} handshakes "
        f"({counts['accepted']} accepted, {counts['refused']} refused, {counts['error']} errors)\n"
        f"    threads: idle {idle_threads}, peak {sampler.peak_threads} "
        f"({sampler.peak_threads / idle_threads:.1f}x), 10 s after {after_threads}\n"
        f"    RSS: idle {idle_rss:.1f} MB, peak {sampler.peak_rss:.1f} MB "
        f"({sampler.peak_rss / idle_rss:.2f}x), 10 s after {after_rss:.1f} MB "
        f"({after_rss / idle_rss:.2f}x)\n"
        f"    /healthz during the flood: {health['ok']} answered, {health['failed']} not in 5 s"
    )


def slowloris(server: ServerProcess, sources: list[str], seconds: float) -> None:
    held: list[socket.socket] = []
    for i in range(64):
        try:
            sock = socket.create_connection(
                ("127.0.0.1", server.port), timeout=5, source_address=(sources[i % len(sources)], 0)
            )
            sock.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n".encode())
            held.append(sock)
        except OSError:
            pass  # refused: the cap per address
    done = threading.Event()
    health = {"ok": 0, "failed": 0}
    watcher = threading.Thread(target=healthz_watch, args=(server.url, done, health))
    watcher.start()
    deadline = time.monotonic() + seconds
    line = 0
    while time.monotonic() < deadline:  # a header line every 2 s, as in the issue
        for sock in held:
            with contextlib.suppress(OSError):
                sock.sendall(f"X-Line-{line}: 1\r\n".encode())
        line += 1
        time.sleep(2)
    done.set()
    watcher.join()
    for sock in held:
        sock.close()
    print(
        f"  {len(sources)} address(es), 64 half-sent requests for {seconds:.0f} s: "
        f"/healthz {health['ok']} answered, {health['failed']} not in 5 s"
    )


def websocket_flood(label: str, address_of: floods.AddressOf, seconds: float) -> None:
    """Handshakes closed at once, on a fresh server, as tests/web/test_floods.py runs them."""
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp))
        server.start()
        try:
            pid = server.proc.pid  # type: ignore[union-attr]
            _, token = floods.seated_token(server)
            warm = floods.warmed_up(server)
            floods.FLOOD_SECONDS = seconds
            got_in: list[str] = []

            def during() -> None:
                started = time.monotonic()
                try:
                    floods.the_table_is_reachable(server, token)
                    got_in.append(f"yes, in {time.monotonic() - started:.1f} s")
                except Exception as err:
                    got_in.append(f"no ({type(err).__name__})")

            with floods.Peaks(pid) as peaks:
                count = floods.flood(floods.handshake_and_close(server.port), address_of, during)
            ended = time.monotonic()
            time.sleep(max(0.0, ended + 60 - time.monotonic()))
            threads, rss = floods.threads_and_memory(pid)
            print(
                f"  {label}, {seconds:.0f} s: {count} handshakes; threads peak {peaks.threads}, "
                f"{threads} a minute later; RSS warm {warm} MB, peak {peaks.memory} MB, "
                f"{rss} MB a minute later; phone and kiosk during it: {got_in[0]}"
            )
        finally:
            server.stop()


def come_and_go(count: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp))
        server.start()
        try:
            pid = server.proc.pid  # type: ignore[union-attr]
            warm = floods.warmed_up(server)

            def cycles(n: int) -> None:
                for _ in range(n):
                    RawWebSocket(server.port, timeout=20).join({}).close()

            with floods.Peaks(pid) as peaks:
                clients = [threading.Thread(target=cycles, args=(count // 4,)) for _ in range(4)]
                for c in clients:
                    c.start()
                for c in clients:
                    c.join()
            time.sleep(45)
            print(
                f"  {count} spectators come and go: threads peak {peaks.threads}; RSS warm {warm} "
                f"MB, peak {peaks.memory} MB, {floods.threads_and_memory(pid)[1]} MB 45 s later"
            )
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    one = ["127.0.0.9"]
    many = [f"127.0.2.{n}" for n in range(1, 65)]
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp))
        server.start()
        try:
            print("handshake flood (Engine.IO long-polling handshakes):")
            flood(server, one, args.seconds)
            flood(server, many[:16], args.seconds)
            print("slowloris (a header line every 2 s):")
            slowloris(server, one, args.seconds)
            slowloris(server, many, args.seconds)
        finally:
            server.stop()
    print("WebSocket handshakes closed at once (16 clients):")
    websocket_flood("one address", lambda worker, n: "127.0.0.10", args.seconds)
    websocket_flood("four addresses", lambda worker, n: f"127.0.0.{10 + worker % 4}", args.seconds)
    websocket_flood(
        "500 addresses",
        lambda worker, n: f"127.0.{4 + (worker + 16 * n) // 250 % 2}.{1 + (worker + 16 * n) % 250}",
        args.seconds,
    )
    come_and_go(2000)


if __name__ == "__main__":
    main()
