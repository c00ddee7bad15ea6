"""``longhall serve`` hosting a fourth game, Tally, that exists only in the tests.

Run as ``python -m tests.fourth_game.serve serve ...``: Tally is registered (the registry's list
and its pages' root), then the real server runs as it always does.
"""

from __future__ import annotations

import sys

from longhall.server.cli import main

from . import register

if __name__ == "__main__":
    register()
    sys.exit(main())
