"""The server caps glibc's malloc arenas before its threads start (server/serve.py): a thread per
phone and screen would otherwise each get an arena of its own, holding memory for itself."""

from __future__ import annotations

import logging
import os
import platform
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from longhall.server.config import Settings
from longhall.server.web import serve as serve_module

pytestmark = pytest.mark.skipif(
    platform.libc_ver()[0] != "glibc", reason="malloc arenas are glibc's"
)

# A child process: cap the arenas (or not), let eight threads allocate at once, and print how
# many arenas glibc has then (counted in malloc_info's report, written to the path given).
CHILD = """
import ctypes, sys, threading
from longhall.server.web.serve import limit_malloc_arenas
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
report = libc.fopen(sys.argv[2].encode(), b"w")
libc.malloc_info(0, ctypes.c_void_p(report))
libc.fclose(ctypes.c_void_p(report))
gate.wait()
for thread in threads:
    thread.join()
print(took, open(sys.argv[2]).read().count("<heap nr="))
"""


def arenas(tmp_path: Path, mode: str, **env: str) -> tuple[str, int]:
    """Whether the cap took, and the arenas eight threads made, in a child process whose
    environment sets no cap of its own unless ``env`` does."""
    clean = {k: v for k, v in os.environ.items() if k not in ("MALLOC_ARENA_MAX", "GLIBC_TUNABLES")}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, mode, str(tmp_path / f"{mode}.xml")],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env={**clean, **env},
    ).stdout.split()
    return out[0], int(out[1])


def test_the_server_s_threads_share_two_malloc_arenas(tmp_path: Path) -> None:
    took, capped = arenas(tmp_path, "cap")
    assert took == "True" and capped <= 2
    # without the cap, the same threads get an arena each, up to glibc's own bound
    per_core = 8 if struct.calcsize("P") == 8 else 2
    if per_core * (os.cpu_count() or 1) > 2:
        assert arenas(tmp_path, "free")[1] > capped


def test_a_cap_set_by_the_host_is_left_as_it_is(tmp_path: Path) -> None:
    took, count = arenas(tmp_path, "cap", MALLOC_ARENA_MAX="4")
    assert took == "False" and count <= 4
    took, count = arenas(tmp_path, "cap", GLIBC_TUNABLES="glibc.malloc.arena_max=3")
    assert took == "False" and count <= 3


def test_serve_caps_the_arenas_before_the_server_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    order: list[str] = []

    def cap() -> bool:
        order.append("cap")
        return True

    monkeypatch.setattr(serve_module, "limit_malloc_arenas", cap)
    monkeypatch.setattr(serve_module.LonghallServer, "run", lambda self: order.append("run"))
    # the process-wide logging set-up of a real start is left out of the test process
    monkeypatch.setattr(serve_module, "install_log_guard", lambda: None)
    monkeypatch.setattr(logging, "basicConfig", lambda **kwargs: None)
    assert serve_module.serve(Settings(data_dir=tmp_path, gpio="off")) == 0
    assert order == ["cap", "run"]
