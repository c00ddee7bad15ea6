"""Build the compiled play-out for the current sources.

Run as ``python -m longhall.server.compiled``; ``./run`` does before serving and testing. Without
a C compiler it says so and exits 0: the Python play-out plays the same games, only slower.
"""

from __future__ import annotations

import subprocess
import sys
import time

from . import build, compiler, library_path


def main() -> int:
    """Build the library if it is missing; say where it is."""
    if library_path().exists():
        return 0
    if compiler() is None:
        print("No C compiler (cc or gcc): Eketorp's play-outs run in Python.", file=sys.stderr)
        return 0
    started = time.monotonic()
    try:
        path = build()
    except (OSError, subprocess.CalledProcessError) as err:
        detail = err.stderr if isinstance(err, subprocess.CalledProcessError) else err
        print(f"Building Eketorp's compiled play-out failed:\n{detail}", file=sys.stderr)
        return 1
    print(f"Built {path} in {time.monotonic() - started:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
