"""The server caps glibc's malloc arenas before its threads start (server/serve.py): a thread per
phone and screen would otherwise each get an arena of its own, holding memory for itself."""

from __future__ import annotations

import os
import subprocess
import sys

# A child process: cap the arenas (or not), let eight threads allocate at once, and print how
# many arenas glibc has then (counted in malloc_info's report).
CHILD = """
import ctypes, os, sys, tempfile, threading
from longhall.server.serve import limit_malloc_arenas
took = limit_malloc_arenas() if sys.argv[1] == "cap" else False
gate = threading.Barrier(9)
def work():
    kept = [bytearray(4000) for _ in range(50)]  # past Python's small-object allocator: malloc
    gate.wait()
    gate.wait()
threads = [threading.Thread(target=work) for _ in range(8)]
for thread in threads:
    thread.start()
gate.wait()  # every thread holds its memory
libc = ctypes.CDLL(None)
libc.fopen.restype = ctypes.c_void_p
path = os.path.join(tempfile.mkdtemp(), "malloc_info.xml")
report = libc.fopen(path.encode(), b"w")
libc.malloc_info(0, ctypes.c_void_p(report))
libc.fclose(ctypes.c_void_p(report))
gate.wait()
for thread in threads:
    thread.join()
print(took, open(path).read().count("<heap nr="))
"""


def arenas(mode: str, env: dict[str, str] | None = None) -> tuple[str, int]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, mode], capture_output=True, text=True, check=True, env=env
    ).stdout.split()
    return out[0], int(out[1])


def test_the_server_s_threads_share_two_malloc_arenas() -> None:
    took, capped = arenas("cap")
    assert took == "True" and capped <= 2
    # the same threads without the cap: an arena each, near enough (what the cap saves)
    _, free = arenas("free")
    assert free > 4


def test_a_malloc_arena_max_set_by_the_host_is_left_as_it_is() -> None:
    took, count = arenas("cap", {**os.environ, "MALLOC_ARENA_MAX": "4"})
    assert took == "False" and count <= 4
