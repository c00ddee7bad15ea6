"""``longhall serve`` with a short Engine.IO heartbeat (for a test).

``tests/web/test_half_open.py`` needs a client dropped for not answering pings without waiting
the half minute the real heartbeat takes: this server pings every ``$LONGHALL_TEST_PING`` seconds
and gives a client as long again to answer. Everything else is the real server.
"""

from __future__ import annotations

import os
import sys

from longhall.server.cli import main
from longhall.server.web import app

if __name__ == "__main__":
    app.PING_INTERVAL = app.PING_TIMEOUT = float(os.environ["LONGHALL_TEST_PING"])
    sys.exit(main())
