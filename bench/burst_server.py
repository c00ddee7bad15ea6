"""``longhall serve`` for bench/burst.py: each journal write is logged, and may be slowed down.

``BURST_WRITE_MS`` adds that many milliseconds to each write of the journal, as the fsync of a
Raspberry Pi's SD card takes (5 to 20 ms) where this machine's disk takes well under one. Each
write prints ``journal-write <records>`` to the server's log, for the bench to count commits.
The server is otherwise the real one: ``python -m bench.burst_server serve ...``.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from longhall.server.cli import main
from longhall.server.store import store

DELAY = float(os.environ.get("BURST_WRITE_MS", "0")) / 1000
_write = store.Store.write


def write(self: store.Store, entries: list[store.Entry]) -> None:
    """The real write, as slow as an SD card's if asked, and noted in the log."""
    if DELAY:
        time.sleep(DELAY)  # the bench's stand-in for a slow fsync, before the real one
    _write(self, entries)
    print(f"journal-write {len(entries)}", flush=True)


store.Store.write = write  # type: ignore[method-assign]

if __name__ == "__main__":
    sys.exit(main())
