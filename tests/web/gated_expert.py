"""``longhall serve`` whose expert bots stop at a gate before they think (for a test).

``tests/web/test_bot_thinking.py`` holds a bot in the middle of its thinking: before each of
its first ``$LONGHALL_TEST_GATES`` decisions the expert writes ``"<seat> <version>"`` into the
FIFO ``$LONGHALL_TEST_GATE/entered`` and thinks on only once the test writes a line into
``.../release``. Opening a FIFO waits for the other side, so neither side polls or sleeps.
Everything else is the real server and the real expert bot.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import threading
from pathlib import Path
from typing import Any

from longhall.server.cli import main
from longhall.server.games.registry import GAMES


def gated(real: Any, gate: Path, gates: int) -> Any:
    """The expert bot class ``real``, each of whose first ``gates`` decisions waits at ``gate``."""
    left = [gates]
    lock = threading.Lock()

    class GatedExpert:
        def __init__(self, seed: int, playouts: int | None = None) -> None:
            self.bot = real(seed, playouts)

        def choose(self, state: Any, seat: int) -> Any:
            with lock:
                stop = left[0] > 0
                left[0] -= stop
            if stop:
                with (gate / "entered").open("w") as f:  # waits for the test to listen
                    f.write(f"{seat} {state.version}\n")
                with (gate / "release").open() as f:  # waits for the test to let it go on
                    f.readline()
            return self.bot.choose(state, seat)

    return GatedExpert


def install() -> None:
    gate = Path(os.environ["LONGHALL_TEST_GATE"])
    gates = int(os.environ.get("LONGHALL_TEST_GATES", "1"))
    for name, spec in list(GAMES.items()):
        if "expert" in spec.bots:
            bots = {**spec.bots, "expert": gated(spec.bots["expert"], gate, gates)}
            GAMES[name] = dataclasses.replace(spec, bots=bots)


if __name__ == "__main__":
    install()
    sys.exit(main())
