"""Six players commit their plans at once: group commit on and off, in one run, on a real server.

Each configuration runs a real ``longhall serve`` (through bench/burst_server.py, which notes
each journal write and can slow it to an SD card's pace) with six real Socket.IO phones seated in
a game of Eketorp. In each planning round every phone places its vikings (not timed); then all
six send ``commit`` at the same moment (from one thread, as fast as the sockets take them): the
burst. Timed: from the first send until the sixth answer. Counted: the journal writes (commits
of the SQLite file) per burst. The rest of the round is played out by the phones (random legal
moves, not timed), and a new game is started when one ends.

The single command alone (one phone commits, waits for the answer, uncommits) is timed too: group
commit must not make it slower.

    .venv/bin/python bench/burst.py                   # 60 bursts per configuration
    .venv/bin/python bench/burst.py --bursts 20 --slow-ms 10
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.engine import machine
from longhall.server.config import Settings
from longhall.server.games.api import progress_actions
from longhall.server.store.store import Entry, Store
from longhall.server.table.connections import Identity
from longhall.server.table.service import Table
from tests.support import Phone, ServerProcess

WAIT = 30.0


def run(group: bool, slow_ms: float, bursts: int, solos: int) -> dict[str, Any]:
    """One server, one configuration: the figures of its bursts and single commands."""
    data = Path(tempfile.mkdtemp(prefix="longhall-burst-"))
    env = {"LONGHALL_GROUP_COMMIT": "1" if group else "0", "BURST_WRITE_MS": str(slow_ms)}
    saved = {key: os.environ.get(key) for key in env}
    os.environ.update(env)  # the server process takes its environment from this one
    server = ServerProcess(
        data,
        "--bot-delay",
        "0",
        "--rate-limit",
        "100000",
        "--seed",
        "3",
        module="bench.burst_server",
    )
    try:
        server.start()
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    phones: list[Phone] = []
    try:
        phones = seat_six(server)
        rnd = random.Random(5)
        times, writes, together, refused = [], [], [], []
        for _ in range(bursts):
            advance(phones, rnd)
            for phone in phones:
                plan(phone)
            settle(phones)
            before = count_writes(server)
            took, sent, accepted = burst(phones, "commit")
            times.append(took)
            together.append(sent)
            refused.append(sent - accepted)
            settle(phones)
            writes.append(count_writes(server) - before)
        advance(phones, rnd)
        for phone in phones[1:]:
            plan(phone)
        phone = phones[0]
        for _ in range(2):
            assert phone.command("act", action={"type": "place", "to": "castle"})["ok"]
        alone = []
        for _ in range(solos):  # one viking placed and taken back, again and again
            for kind in ("unplace", "place"):
                started = time.perf_counter()
                ack = phone.sio.call("command", payload(phone, kind), timeout=WAIT)
                alone.append(time.perf_counter() - started)
                assert ack["ok"], ack
                settle(phones)
        return {
            "times": times,
            "writes": writes,
            "refused": refused,
            "together": together,
            "alone": alone,
        }
    finally:
        for phone in phones:
            phone.disconnect()
        server.stop()


class QuickStore(Store):
    """A real store whose writes cost nothing: what is left is the command's own path."""

    def write(self, entries: list[Entry]) -> None:
        self.commits += 1


def path_alone(group: bool, commands: int) -> list[float]:
    """The seconds one command alone spends in ``Table.submit`` (in this process, six seats,
    one player placing and taking back a viking), its write taking no time: what group
    commit's bookkeeping adds to a command that has no one to share its write with."""
    data = Path(tempfile.mkdtemp(prefix="longhall-path-"))
    store = QuickStore(data / "longhall.sqlite3")
    settings = Settings(data_dir=data, gpio="off", seed=3, group_commit=group)
    table = Table(store, settings, lambda ops, stream: None)
    seats = []
    for i in range(6):
        who = table.connect(f"phone{i}", {"code": table.data.code})
        table.welcome(who)
        ack = table.submit(
            who,
            {
                "type": "join",
                "id": f"join-{i:04d}",
                "version": table.data.version,
                "name": f"P{i}",
                "colour": "",
            },
        )
        seats.append(Identity("seat", ack["seat"], f"phone{i}"))
        table.connections.by_sid[f"phone{i}"] = seats[-1]
    host = seats[table.data.host or 0]
    assert table.submit(host, {"type": "start", "id": "start-game", "version": table.data.version})[
        "ok"
    ]
    times = []
    for n in range(commands):
        kind = "place" if n % 2 == 0 else "unplace"
        action = {"type": kind, ("to" if kind == "place" else "from"): "castle"}
        cmd = {"type": "act", "id": f"tap-{n:06d}", "version": table.data.version, "action": action}
        started = time.perf_counter()
        ack = table.submit(host, cmd)
        times.append(time.perf_counter() - started)
        assert ack["ok"], ack
    store.close()
    return times


def seat_six(server: ServerProcess) -> list[Phone]:
    """Six players join through the lobby and the host starts a game of Eketorp."""
    lobby = Phone(server.url).connect()
    code = lobby.latest["table"]["code"]  # type: ignore[index]
    lobby.disconnect()
    phones = []
    for i in range(6):
        phone = Phone(server.url, {"code": code}, name=f"P{i}").connect()
        assert phone.join(f"P{i}")["ok"]
        phones.append(phone)
    settle(phones)
    assert phones[0].command("start")["ok"]
    settle(phones)
    return phones


def plan(phone: Phone) -> None:
    """Place this player's vikings, one tap at a time, until only the commit is left to do."""
    while True:
        view = phone.latest
        assert view is not None
        legal = progress_actions(view["game"]["legal"])
        if not legal or any(a["type"] == "commit" for a in legal):
            return
        assert phone.command("act", action=legal[0])["ok"]


def advance(phones: list[Phone], rnd: random.Random) -> None:
    """Play on (random legal moves, the host's table steps) until a planning round begins,
    starting a new game when one ends."""
    host = phones[0]
    for _ in range(5000):
        view = host.latest
        assert view is not None
        if view["table"]["status"] != "playing":
            assert host.command("start")["ok"]
            settle(phones)
            continue
        game = view["game"]
        if game["public"]["phase"] == "planning":
            return
        for phone in phones:
            mine = phone.latest["game"]  # type: ignore[index]
            legal = progress_actions(mine["legal"])
            if phone.seat in mine["public"]["active"] and legal:
                phone.command("act", action=rnd.choice(legal))  # stale on a busy machine: again
                break
        else:
            steps = game["public"]["table_actions"]
            assert steps, "nobody can move"
            host.command("table", action={"type": steps[0]})
        settle(phones)
    raise RuntimeError("no planning round came")


def payload(phone: Phone, kind: str) -> dict[str, Any]:
    view = phone.latest
    assert view is not None
    action = {"type": kind}
    if kind != "commit":
        action = {**action, ("from" if kind == "unplace" else "to"): "castle"}
    return {"type": "act", "id": uuid.uuid4().hex, "version": view["version"], "action": action}


def burst(phones: list[Phone], kind: str) -> tuple[float, int, int]:
    """All six send ``kind`` at once; return the seconds until the last answer, how many sent
    it and how many were accepted (a plan decided on a view another plan changed would be
    refused as stale, as always: the phone looks again)."""
    # a player with no viking at home has nothing to plan: committed already (E2)
    ready = [p for p in phones if any(a["type"] == kind for a in legal_of(p))]
    sends = [(phone, payload(phone, kind)) for phone in ready]
    answers: list[Any] = []
    done = threading.Event()

    def answered(ack: Any) -> None:
        answers.append(ack)
        if len(answers) == len(sends):
            done.set()

    started = time.perf_counter()
    for phone, body in sends:
        phone.sio.emit("command", body, callback=answered)
    assert done.wait(WAIT)
    took = time.perf_counter() - started
    assert all(a["ok"] or a["error"]["code"] == "stale_version" for a in answers), answers
    return took, len(sends), sum(1 for a in answers if a["ok"])


def legal_of(phone: Phone) -> list[Any]:
    view = phone.latest
    assert view is not None
    legal: list[Any] = view["game"]["legal"]
    return legal


def settle(phones: list[Phone]) -> None:
    """Wait until every phone has seen the same, latest version."""
    target = max(p.latest["version"] for p in phones)  # type: ignore[index]
    for p in phones:
        p.wait(lambda v, t=target: v["version"] >= t)


def count_writes(server: ServerProcess) -> int:
    return server.log.read_text().count("journal-write ")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bursts", type=int, default=60, help="bursts per configuration")
    parser.add_argument("--solos", type=int, default=100, help="single commands per configuration")
    parser.add_argument("--path", type=int, default=400, help="commands per path run")
    parser.add_argument("--slow-ms", type=float, default=10.0, help="the slow write (SD card)")
    args = parser.parse_args()
    print(machine())
    print(
        f"6 phones commit at once, {args.bursts} bursts; one phone alone, {args.solos} commands;"
        " times in ms (all six answered / one answered)"
    )
    rows = []
    for slow in (0.0, args.slow_ms):
        # on and off alternate, so that a change in the machine's load touches both alike
        results: dict[bool, dict[str, Any]] = {}
        for group in (True, False, True, False):
            got = run(group, slow, args.bursts // 2, args.solos // 2)
            if group in results:
                for key in got:
                    results[group][key] += got[key]
            else:
                results[group] = got
        for group in (True, False):
            r = results[group]
            rows.append((slow, group, r))
    header = (
        "| write | group commit | bursts: p50 | p90 | plans per burst | commits per burst"
        " | refused per burst | alone: p50 | p90 |\n|" + " --- |" * 9
    )
    print(header)
    for slow, group, r in rows:
        disk = f"+{slow:g} ms (SD card)" if slow else "this disk"
        print(
            f"| {disk} | {'on' if group else 'off'} "
            f"| {1000 * statistics.median(r['times']):.2f} | {1000 * pct(r['times'], 0.9):.2f} "
            f"| {statistics.mean(r['together']):.2f} | {statistics.mean(r['writes']):.2f} "
            f"| {statistics.mean(r['refused']):.2f} "
            f"| {1000 * statistics.median(r['alone']):.2f} | {1000 * pct(r['alone'], 0.9):.2f} |"
        )
    # the command's own path, without the disk: group commit on and off, alternating
    path: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(5):
        for group in (True, False):
            path[group] += path_alone(group, args.path)
    on_us = 1e6 * statistics.median(path[True])
    off_us = 1e6 * statistics.median(path[False])
    print(
        f"one command alone, its write taking no time ({5 * args.path} each): "
        f"on {on_us:.0f} µs, off {off_us:.0f} µs (median), on/off = {on_us / off_us:.2f}"
    )
    for slow in (0.0, args.slow_ms):
        on = next(r for s, g, r in rows if s == slow and g)
        off = next(r for s, g, r in rows if s == slow and not g)
        print(
            f"write +{slow:g} ms: all six answered, off/on = "
            f"{statistics.median(off['times']) / statistics.median(on['times']):.2f}; "
            f"one alone, on/off = "
            f"{statistics.median(on['alone']) / statistics.median(off['alone']):.2f}"
        )


if __name__ == "__main__":
    main()
