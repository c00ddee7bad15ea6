"""The log guard: one line per record, a flood summed up, vanished sockets quiet."""

from __future__ import annotations

import errno
import io
import logging
import threading

import pytest

from longhall.server.web.logs import FloodFilter, OneLineFormatter, _thread_exception, escape


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def guarded_logger(clock: Clock) -> tuple[logging.Logger, io.StringIO]:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(OneLineFormatter(logging.Formatter("%(levelname)s %(message)s")))
    handler.addFilter(FloodFilter(burst=3, per_minute=6, clock=clock))
    logger = logging.getLogger(f"test.guard.{id(out)}")
    logger.propagate = False
    logger.addHandler(handler)
    return logger, out


def test_a_newline_in_an_argument_stays_on_its_line() -> None:
    logger, out = guarded_logger(Clock())
    logger.warning("refused %s from %s", "x\nWARNING forged\u2028line", "seat 1")
    assert out.getvalue() == "WARNING refused x\\x0aWARNING forged\\u2028line from seat 1\n"
    assert escape("tab\there\r") == "tab\\x09here\\x0d"


def test_a_flood_of_one_message_is_summed_up() -> None:
    clock = Clock()
    logger, out = guarded_logger(clock)
    for n in range(1000):
        logger.warning("unknown event %r from %s", n, "sid")
    logger.warning("another message")  # other messages are not held back by the flood
    assert len(out.getvalue().splitlines()) == 3 + 1
    clock.now += 10.0  # one more allowed every 10 s
    logger.warning("unknown event %r from %s", "late", "sid")
    last = out.getvalue().splitlines()[-1]
    assert last == "WARNING unknown event 'late' from sid (and 997 more like it, not logged)"


def run_in_thread(name: str, error: BaseException) -> None:
    def fail() -> None:
        raise error

    thread = threading.Thread(target=fail, name=name)
    old = threading.excepthook
    threading.excepthook = _thread_exception
    try:
        thread.start()
        thread.join()
    finally:
        threading.excepthook = old


def test_a_writer_meeting_a_closed_socket_is_quiet_other_errors_are_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="longhall.server.web.logs")
    run_in_thread("Thread-7 (writer)", OSError(errno.EBADF, "Bad file descriptor"))
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    run_in_thread("Thread-8 (worker)", RuntimeError("a real bug"))
    [error] = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert error.exc_info is not None and "Thread-8" in error.getMessage()
