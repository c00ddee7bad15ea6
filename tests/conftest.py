"""Fixtures every tier shares: an in-process Longhall on a real SQLite file (tests/inprocess.py
has its phones)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from longhall.server.config import Settings
from longhall.server.web.app import Longhall, create_app
from tests.inprocess import Client, Guest


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
    """The slow tests (whole games, real processes) first: the parallel workers then end
    together instead of one of them starting a long game last."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
