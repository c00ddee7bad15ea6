"""``longhall serve`` with a short heartbeat whose wall clock is set back an hour on demand (for
a test).

``tests/web/test_half_open.py`` sets the clock back as NTP does to a Pi that booted with a wrong
time: once the test writes a line into the FIFO ``$LONGHALL_TEST_CLOCK``, ``time.time()`` in this
server answers an hour earlier. Opening a FIFO waits for the other side: nothing polls. The
heartbeat is ``$LONGHALL_TEST_PING`` seconds (tests/web/short_heartbeat.py); everything else is
the real server.
"""

from __future__ import annotations

import os
import sys
import threading
import time

from longhall.server.cli import main
from longhall.server.web import app

SET_BACK = 3600.0


def set_back_on_demand(fifo: str) -> None:
    real = time.time
    back = [0.0]
    time.time = lambda: real() - back[0]

    def wait() -> None:
        with open(fifo) as f:  # waits for the test to open it
            f.readline()
        back[0] = SET_BACK

    threading.Thread(target=wait, name="clock-setter", daemon=True).start()


if __name__ == "__main__":
    app.PING_INTERVAL = app.PING_TIMEOUT = float(os.environ["LONGHALL_TEST_PING"])
    set_back_on_demand(os.environ["LONGHALL_TEST_CLOCK"])
    sys.exit(main())
