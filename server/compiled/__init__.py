"""Compiled parts of the engines, built on the machine itself: Eketorp's random play-out in C.

The engines stay pure (no OS, no files): the C source sits beside its Python twin
(``games/eketorp/native/*.c``), and this adapter compiles it with the machine's C compiler
(``$CC``, else ``cc``, else ``gcc``; no Python headers needed, loaded through ctypes) and hands the
engine a loader (:func:`install`, called at start-up by ``longhall serve`` and ``simulate``, the
benchmarks and the tests).

The library goes to a folder outside the sources (``$LONGHALL_NATIVE_DIR``, else the virtual
environment's ``longhall-native/``, else ``~/.cache/longhall``) under a name holding the hash of
the source as compiled (the layout's ``#define`` lines, the C files, the flags): a library built
from other sources is never loaded. Where no compiler is at hand, or the folder cannot be written
(the appliance's service), the Python play-out plays the same games.
``python -m longhall.server.compiled`` builds it (``./run`` does, when it can).
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

from ..games.eketorp import native

SOURCES = tuple(Path(native.__file__).with_name(name) for name in native.SOURCE_NAMES)
CFLAGS = ("-O2", "-shared", "-fPIC", "-std=c99")
PREFIX = "eketorp_playout-"


def source_text() -> str:
    """The C source as compiled: the layout's offsets, then the C files in their order."""
    return native.defines() + "".join(source.read_text() for source in SOURCES)


def build_dir() -> Path:
    """A folder outside the sources for the compiled library (never committed)."""
    if os.environ.get("LONGHALL_NATIVE_DIR"):
        return Path(os.environ["LONGHALL_NATIVE_DIR"])
    if sys.prefix != sys.base_prefix:  # a virtual environment: ./run's .venv
        return Path(sys.prefix) / "longhall-native"
    return Path.home() / ".cache" / "longhall"


def library_path() -> Path:
    """Where the library built from exactly the current sources lives."""
    digest = hashlib.sha256((source_text() + " ".join(CFLAGS)).encode()).hexdigest()[:16]
    return build_dir() / f"{PREFIX}{digest}.so"


def compiler() -> str | None:
    """The C compiler to use, if the machine has one."""
    return os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")


def build() -> Path:
    """Compile the library for the current sources (if not built yet); return its path."""
    target = library_path()
    if target.exists():
        return target
    cc = compiler()
    if cc is None:
        raise RuntimeError("no C compiler (cc or gcc) on this machine")
    target.parent.mkdir(parents=True, exist_ok=True)
    # a name of its own per builder, moved in place at once: a reader never sees half a file
    tmp = target.with_name(f".{target.stem}-{os.getpid()}-{threading.get_ident()}")
    src, lib = tmp.with_suffix(".c"), tmp.with_suffix(".so")
    try:
        src.write_text(source_text())
        subprocess.run(
            [cc, *CFLAGS, "-o", str(lib), str(src)], check=True, capture_output=True, text=True
        )
        os.replace(lib, target)
    finally:
        src.unlink(missing_ok=True)
        lib.unlink(missing_ok=True)
    for old in target.parent.glob(f"{PREFIX}*.so"):  # built from earlier sources
        if old != target:
            old.unlink(missing_ok=True)
    return target


_lock = threading.Lock()


def load() -> native.Engine | None:
    """The compiled play-out (built now if need be), or None: no compiler, or switched off
    (``LONGHALL_NATIVE=0``), or the build failed."""
    if os.environ.get("LONGHALL_NATIVE", "1") == "0":
        return None
    with _lock:  # one build at a time in this process
        try:
            path = library_path()
            if not path.exists():
                if compiler() is None:
                    return None
                path = build()
            lib = ctypes.CDLL(str(path))
        except (OSError, RuntimeError, subprocess.CalledProcessError):
            return None  # the Python play-out plays the same games
    fn = lib.eketorp_playout
    fn.argtypes = (ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int)
    fn.restype = ctypes.c_int
    engine: native.Engine = fn
    return engine


def install() -> None:
    """Let the engines use the compiled play-out (loaded, and built if need be, at first use)."""
    native.set_loader(load)
