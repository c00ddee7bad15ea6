"""Log lines a client cannot forge or flood: one line per record, a flood summed up.

Control characters a client put into a message are escaped (no forged lines), and a message
repeated in a flood is let through in a burst, then once a minute with a count of the rest, so
that a client sending garbage as fast as it can does not fill the journal (and the SD card).
"""

from __future__ import annotations

import errno
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)


_CONTROL = {c: f"\\x{c:02x}" for c in (*range(0x20), 0x7F, 0x85)} | {
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}


def escape(text: str) -> str:
    """Text for one log line: control characters (a newline among them) written as escapes."""
    return text.translate(_CONTROL)


class OneLineFormatter(logging.Formatter):
    """Format a record as the handler's own formatter does, its message on one line whatever a
    client put into its arguments."""

    def __init__(self, inner: logging.Formatter | None = None) -> None:
        super().__init__()
        self.inner = inner or logging.Formatter()

    def format(self, record: logging.LogRecord) -> str:
        one_line = logging.makeLogRecord(record.__dict__)
        one_line.msg, one_line.args = escape(record.getMessage()), None
        return self.inner.format(one_line)


@dataclass
class _Repeats:
    tokens: float
    at: float
    dropped: int = 0


class FloodFilter(logging.Filter):
    """Let through a burst of one message, then one a minute at most, with a count of the rest.

    A message is its logger and its format string: ``unknown event %r from %s`` is one message,
    whatever the event and the sender. Without this, a client sending garbage as fast as it can
    fills the journal (and the SD card) with the same line.
    """

    def __init__(
        self,
        burst: int = 20,
        per_minute: float = 6.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.burst = burst
        self.rate = per_minute / 60.0
        self.clock = clock
        self.lock = threading.Lock()
        self.seen: dict[tuple[str, str], _Repeats] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg))
        now = self.clock()
        with self.lock:
            repeats = self.seen.get(key)
            if repeats is None:
                if len(self.seen) > 1000:  # format strings are few; keep the table small anyway
                    self.seen.clear()
                repeats = self.seen[key] = _Repeats(float(self.burst), now)
            repeats.tokens = min(self.burst, repeats.tokens + (now - repeats.at) * self.rate)
            repeats.at = now
            if repeats.tokens < 1:
                repeats.dropped += 1
                return False
            repeats.tokens -= 1
            dropped, repeats.dropped = repeats.dropped, 0
        if dropped:
            record.msg = f"{record.msg} (and {dropped} more like it, not logged)"
        return True


def install_log_guard() -> None:
    """Put every handler of the server's logs behind the escaping and the flood filter."""
    flood = FloodFilter()
    for name in (None, "gunicorn.error"):
        for handler in logging.getLogger(name).handlers:
            if any(isinstance(f, FloodFilter) for f in handler.filters):
                continue  # guarded already
            handler.setFormatter(OneLineFormatter(handler.formatter))
            handler.addFilter(flood)
    # engineio and socketio add a bare handler of their own: send their records through ours
    for name in ("engineio.server", "socketio.server"):
        logging.getLogger(name).handlers.clear()
    threading.excepthook = _thread_exception


_QUIET_ERRNOS = (errno.EBADF, errno.EPIPE, errno.ECONNRESET, errno.ENOTCONN)


def _thread_exception(args: threading.ExceptHookArgs) -> None:
    """Log a thread's uncaught exception; a connection thread's on a vanished socket quietly.

    A connection's thread may meet its socket closed under it when the phone is gone already
    (EBADF, EPIPE, a closed WebSocket): nothing is lost, the connection was over.
    """
    exc = args.exc_value
    name = args.thread.name if args.thread is not None else "?"
    gone = isinstance(exc, OSError) and (exc.errno in _QUIET_ERRNOS or exc.errno is None)
    if gone or type(exc).__name__ == "ConnectionClosed":
        log.debug("thread %s: the connection was gone already (%r)", name, exc)
        return
    if args.exc_type is SystemExit:
        return
    log.error(
        "uncaught error in thread %s",
        name,
        exc_info=(args.exc_type, exc, args.exc_traceback),  # type: ignore[arg-type]
    )
