"""Fixtures every tier shares: an in-process Longhall on a real SQLite file (tests/inprocess.py
has its phones)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from longhall.server.config import Settings
from longhall.server.web.app import Longhall, create_app
from tests.inprocess import Client, Guest
from tests.support import ServerProcess


def pytest_configure() -> None:
    ServerProcess.fork = True  # the tests' servers forked from one that has imported the server


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path, gpio="off", bot_delay=0.0)


@pytest.fixture
def longhall(settings: Settings) -> Iterator[Longhall]:
    lh = create_app(settings)
    yield lh
    lh.stop()


@pytest.fixture
def scripted(tmp_path: Path) -> Iterator[Longhall]:
    """An app for scripted players, who tap faster than the per-connection rate limit allows
    (the limit has its own test)."""
    lh = create_app(Settings(data_dir=tmp_path, gpio="off", bot_delay=0.0, rate=1e9, burst=10**9))
    yield lh
    lh.stop()


@pytest.fixture
def guest(longhall: Longhall) -> Guest:
    def make() -> Client:
        return Client(longhall, {"code": longhall.table.data.code})

    return make


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first, so that the parallel workers end together instead of one of
    them starting a whole game last: the slow tests (whole games, real processes) before the
    rest, and among them the longest, which say how long they take in a whole suite on a busy
    machine (``@pytest.mark.slow(seconds=N)``). pytest-xdist hands out the tests in this order,
    each worker holding one test queued behind the one it runs (``--dist load --maxschedchunk
    1`` in pyproject.toml)."""

    def length(item: pytest.Item) -> float:
        slow = item.get_closest_marker("slow")
        return -1 if slow is None else float(slow.kwargs.get("seconds", 0))

    items.sort(key=length, reverse=True)  # stable: the rest keep their order
