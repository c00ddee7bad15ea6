"""What making a command's record durable costs; whether that wait can overlap the work after it.

Every command's updates and answer wait until its record is on the disk (``server/store/store.py``).
This times that wait on this machine's disk, with 2 ms between one commit and the next as a
table's commands come, in fresh files next to each other:

- ``store``: the store's commit of one record (``Store.write``: WAL, ``synchronous=FULL``, the
  log laid out), as the server makes it;
- ``store-nosync+fdatasync``: the same commit with SQLite's sync turned off, then an
  ``fdatasync`` of the log file by hand (what SQLite's sync is);
- ``block+fdatasync``, ``block-O_DSYNC``, ``block-O_DIRECT``: one 4 KB block written into a file
  laid out in advance, then synced, or written synchronously (a log of our own would do this).

Then, with 0.25 ms of Python work after each commit (about what a command's seats' views and
patches take), whether the sync can run while that work is done:

- ``serial``: the store's commit, then the work (as the server does);
- ``overlap-aio``: SQLite's sync off; the log's ``fdatasync`` submitted through Linux AIO
  (``IOCB_CMD_FDSYNC``, 64-bit x86 and Arm, Linux 4.18 and later), the work done, the sync
  waited for;
- ``overlap-thread``: the same, the ``fdatasync`` run by a C thread (compiled with ``$CC``,
  ``cc`` or ``gcc`` when the machine has one that works), woken before the work and waited for
  after it, wherever the kernel runs it. A Python thread cannot do it: it would wait for the
  interpreter, held by the work;
- ``overlap-thread-pinned``: the same, with one such thread kept on each processor, and the one
  of the processor after the caller's woken: never the processor the work runs on (with two
  processors or more, numbered from 0). The figures suggest that the kernel otherwise runs the
  sync on the processor that asked for it, after the work (an AIO sync in a worker of that
  processor, a woken thread there too); that is read from the timings, not traced.

Printed per way: the median, 90th and 99th percentile of the wall time of a commit (with its
work, where there is some) and the calling thread's CPU per commit: a sync run by a C thread
or by the kernel's AIO worker is not counted in it. A way the machine cannot run (no AIO, no
working compiler) is left out, with a line saying why.

    .venv/bin/python bench/syncs.py                     # 3 rounds of 300 commits each way
    .venv/bin/python bench/syncs.py --rounds 5 --commits 500 --dir /var/lib/longhall

The files are made in ``--dir`` (the working directory unless told): it must be on the disk
to measure; a file system in memory (tmpfs, or a Pi's overlay) is refused.
"""

from __future__ import annotations

import argparse
import ctypes
import mmap
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.engine import machine
from longhall.server.store.store import Entry, Store

GAP = 0.002  # seconds between commits: a table's commands come a couple of milliseconds apart
WORK = 0.00025  # seconds of Python work after a commit (a command's views and patches)
BLOCK = 4096
RECORD = {"type": "act", "seat": 2, "action": {"type": "play", "card": 4}, "pad": "x" * 300}

# Linux AIO's system calls: (io_setup, io_destroy, io_getevents, io_submit) per machine
AIO_CALLS = {"x86_64": (206, 207, 208, 209), "aarch64": (0, 1, 4, 2)}
IOCB_CMD_FDSYNC = 3
THREAD_WAYS = ("overlap-thread", "overlap-thread-pinned")

THREAD_C = r"""
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#define MAX 64
typedef struct {
    pthread_mutex_t m;
    pthread_cond_t c;
    long asked, done;
    int fd, err, cpu;
} syncer;
static syncer all[MAX];
static int count;
static syncer *asked_of;
static void *run(void *arg) {
    syncer *s = arg;
    if (s->cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(s->cpu, &set);
        pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    }
    pthread_mutex_lock(&s->m);
    for (;;) {
        while (s->asked == s->done) pthread_cond_wait(&s->c, &s->m);
        long now = s->asked;
        int fd = s->fd;
        pthread_mutex_unlock(&s->m);
        int e = fdatasync(fd) == 0 ? 0 : errno;
        pthread_mutex_lock(&s->m);
        s->done = now;
        s->err = e;
        pthread_cond_broadcast(&s->c);
    }
    return 0;
}
/* one thread, or (pinned) one per processor, each kept on its own */
int start(int pinned) {
    count = pinned ? (int)sysconf(_SC_NPROCESSORS_ONLN) : 1;
    if (count < 1 || count > MAX) count = 1;
    for (int i = 0; i < count; i++) {
        pthread_t t;
        pthread_mutex_init(&all[i].m, 0);
        pthread_cond_init(&all[i].c, 0);
        all[i].cpu = pinned ? i : -1;
        if (pthread_create(&t, 0, run, &all[i])) return -1;
    }
    return 0;
}
/* pinned: the thread of the processor after the caller's, so never the caller's own */
void submit(int fd) {
    syncer *s = count > 1 ? &all[(sched_getcpu() + 1) % count] : &all[0];
    asked_of = s;
    pthread_mutex_lock(&s->m);
    s->fd = fd;
    s->asked++;
    pthread_cond_broadcast(&s->c);
    pthread_mutex_unlock(&s->m);
}
int wait_done(void) {
    syncer *s = asked_of;
    pthread_mutex_lock(&s->m);
    while (s->done != s->asked) pthread_cond_wait(&s->c, &s->m);
    int e = s->err;
    pthread_mutex_unlock(&s->m);
    return e;
}
"""


class IOCB(ctypes.Structure):  # struct iocb, little-endian
    _fields_ = [
        ("aio_data", ctypes.c_uint64),
        ("aio_key", ctypes.c_uint32),
        ("aio_rw_flags", ctypes.c_int32),
        ("aio_lio_opcode", ctypes.c_uint16),
        ("aio_reqprio", ctypes.c_int16),
        ("aio_fildes", ctypes.c_uint32),
        ("aio_buf", ctypes.c_uint64),
        ("aio_nbytes", ctypes.c_uint64),
        ("aio_offset", ctypes.c_int64),
        ("aio_reserved2", ctypes.c_uint64),
        ("aio_flags", ctypes.c_uint32),
        ("aio_resfd", ctypes.c_uint32),
    ]


class IOEvent(ctypes.Structure):
    _fields_ = [(name, ctypes.c_int64) for name in ("data", "obj", "res", "res2")]


def work() -> None:
    """Busy Python for WORK seconds, as a command's views and patches keep the interpreter."""
    end = time.perf_counter() + WORK
    while time.perf_counter() < end:
        pass


class AIO:
    """One fdatasync at a time through Linux AIO (raises OSError where the kernel has none)."""

    def __init__(self, fd: int) -> None:
        setup, self.destroy_call, self.getevents, self.submit_call = AIO_CALLS[platform.machine()]
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.ctx = ctypes.c_ulong(0)
        if self.libc.syscall(ctypes.c_long(setup), ctypes.c_uint(1), ctypes.byref(self.ctx)):
            raise OSError(ctypes.get_errno(), "io_setup")
        self.iocb = IOCB(aio_lio_opcode=IOCB_CMD_FDSYNC, aio_fildes=fd)
        self.list = (ctypes.POINTER(IOCB) * 1)(ctypes.pointer(self.iocb))
        self.events = (IOEvent * 1)()

    def submit(self) -> None:
        if (
            self.libc.syscall(
                ctypes.c_long(self.submit_call), self.ctx, ctypes.c_long(1), self.list
            )
            != 1
        ):
            raise OSError(ctypes.get_errno(), "io_submit")

    def wait(self) -> None:
        got = self.libc.syscall(
            ctypes.c_long(self.getevents),
            self.ctx,
            ctypes.c_long(1),
            ctypes.c_long(1),
            self.events,
            None,
        )
        if got != 1:
            raise OSError(ctypes.get_errno(), "io_getevents")
        if self.events[0].res != 0:  # the sync's own error, negated
            raise OSError(-self.events[0].res, "fdatasync through AIO")

    def close(self) -> None:
        self.libc.syscall(ctypes.c_long(self.destroy_call), self.ctx)


def aio_works(where: Path) -> str | None:
    """Why this machine cannot sync through Linux AIO, or None if it can."""
    if platform.machine() not in AIO_CALLS or sys.maxsize <= 2**32:
        bits = sys.maxsize.bit_length() + 1
        return f"no AIO system calls known for {platform.machine()} ({bits}-bit Python)"
    probe = where / "aio-probe"
    probe.write_bytes(b"x")
    fd = os.open(probe, os.O_RDONLY)
    try:
        aio = AIO(fd)
        try:
            aio.submit()
            aio.wait()
        finally:
            aio.close()
    except OSError as err:
        return f"Linux AIO refused: {err}"
    finally:
        os.close(fd)
    return None


def sync_threads(where: Path, pinned: bool) -> ctypes.CDLL | str:
    """The C threads that sync a file when asked (one, or one per processor, ``pinned`` each to
    its own), or why there are none (no C compiler that works)."""
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        return "no C compiler"
    name = "pinned" if pinned else "one"
    source, library = where / f"{name}.c", where / f"{name}.so"
    source.write_text(THREAD_C)
    command = [cc, "-O2", "-shared", "-fPIC", "-pthread", "-o", str(library), str(source)]
    try:
        subprocess.run(command, check=True, capture_output=True)
        lib = ctypes.CDLL(str(library))
    except subprocess.CalledProcessError as err:
        return f"{cc} could not build the C thread: {err.stderr.decode(errors='replace')[:200]}"
    except OSError as err:  # no such compiler, or a directory that may not run code
        return f"could not build or load the C thread: {err}"
    if lib.start(int(pinned)):
        return "could not start the C threads"
    return lib


def timed(count: int, step: Callable[[int], None]) -> tuple[list[float], float]:
    """Run ``step`` ``count`` times, GAP apart; return each one's wall time (ms) and the
    thread's CPU per step (ms)."""
    times = []
    cpu = time.thread_time()
    for seq in range(1, count + 1):
        time.sleep(GAP)
        start = time.perf_counter()
        step(seq)
        times.append((time.perf_counter() - start) * 1000)
    return times, (time.thread_time() - cpu) * 1000 / count


def store_way(
    where: Path, count: int, how: str, thread: ctypes.CDLL | None
) -> tuple[list[float], float]:
    store = Store(Path(tempfile.mkdtemp(dir=where)) / "store.sqlite3")
    store.lay_out_log()
    fd = os.open(f"{store.path}-wal", os.O_RDONLY)
    aio = None

    def step(seq: int) -> None:
        store.write([Entry(seq, RECORD)])
        if how == "store-nosync+fdatasync":
            os.fdatasync(fd)
        elif how == "serial":
            work()
        elif aio is not None:
            aio.submit()
            work()
            aio.wait()
        elif how.startswith("overlap-thread") and thread is not None:
            thread.submit(fd)
            work()
            if thread.wait_done():
                raise OSError("fdatasync failed")

    try:
        if how != "store" and how != "serial":
            store.db.execute("PRAGMA synchronous=OFF")
        if how == "overlap-aio":
            aio = AIO(fd)
        return timed(count, step)
    finally:
        if aio is not None:
            aio.close()
        os.close(fd)
        store.close()


def block_way(where: Path, count: int, how: str) -> tuple[list[float], float]:
    path = Path(tempfile.mkdtemp(dir=where)) / "log"
    with path.open("wb") as f:  # laid out in advance, on the disk
        f.write(bytes(BLOCK * (count + 1)))
        f.flush()
        os.fsync(f.fileno())
    flags = os.O_RDWR | (os.O_DSYNC if how != "block+fdatasync" else 0)
    flags |= os.O_DIRECT if how == "block-O_DIRECT" else 0
    fd = os.open(path, flags)
    buf = mmap.mmap(-1, BLOCK)  # page-aligned, as O_DIRECT needs
    buf.write(b"r" * BLOCK)

    def step(seq: int) -> None:
        os.pwritev(fd, [buf], seq * BLOCK)
        if how == "block+fdatasync":
            os.fdatasync(fd)

    try:
        return timed(count, step)
    finally:
        buf.close()
        os.close(fd)


def in_memory(path: Path) -> str | None:
    """The type of the file system ``path`` is on if it is one in memory (no disk to time)."""
    path = path.resolve()
    best, kind = -1, ""
    with open("/proc/self/mounts") as mounts:
        for line in mounts:
            fields = line.split()
            point = Path(fields[1].replace("\\040", " "))
            if (path == point or point in path.parents) and len(point.parts) > best:
                best, kind = len(point.parts), fields[2]
    return kind if kind in ("tmpfs", "ramfs", "overlay") else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--commits", type=int, default=300)
    parser.add_argument("--dir", type=Path, default=Path.cwd(), help="on the disk to measure")
    args = parser.parse_args()
    kind = in_memory(args.dir)
    if kind is not None:
        raise SystemExit(f"{args.dir} is on a {kind} file system, in memory: give --dir on a disk")
    where = Path(tempfile.mkdtemp(prefix="longhall-syncs-", dir=args.dir))
    results: dict[str, list[tuple[list[float], float]]] = {}
    left_out: dict[str, str] = {}
    try:
        threads = {way: sync_threads(where, way.endswith("pinned")) for way in THREAD_WAYS}
        ways = ["store", "store-nosync+fdatasync", "block+fdatasync", "block-O_DSYNC"]
        ways += ["block-O_DIRECT", "serial", "overlap-aio", *THREAD_WAYS]
        why_not = aio_works(where)
        if why_not is not None:
            left_out["overlap-aio"] = why_not
        left_out.update((way, why) for way, why in threads.items() if isinstance(why, str))
        ways = [way for way in ways if way not in left_out]
        results = {way: [] for way in ways}
        for round_ in range(args.rounds):
            for way in ways if round_ % 2 == 0 else ways[::-1]:
                if way.startswith("block"):
                    results[way].append(block_way(where, args.commits, way))
                else:
                    lib = threads.get(way)
                    thread = lib if isinstance(lib, ctypes.CDLL) else None
                    results[way].append(store_way(where, args.commits, way, thread))
    finally:
        shutil.rmtree(where, ignore_errors=True)
    print(machine())
    plural = "round" if args.rounds == 1 else "rounds"
    print(f"{args.rounds} {plural} of {args.commits} commits each way, {GAP * 1000:g} ms between")
    print("one commit and the next; the medians of the rounds (ms):\n")
    print("| way | p50 | p90 | p99 | thread CPU per commit |")
    print("| --- | --- | --- | --- | --- |")
    for way, rounds in results.items():
        cells = []
        for q in (0.5, 0.9, 0.99):
            cells.append(statistics.median(sorted(t)[int(len(t) * q)] for t, _ in rounds))
        cpu = statistics.median(c for _, c in rounds)
        print(f"| {way} | " + " | ".join(f"{c:.3f}" for c in cells) + f" | {cpu:.3f} |")
    for way, why in left_out.items():
        print(f"left out: {way}: {why}")


if __name__ == "__main__":
    main()
