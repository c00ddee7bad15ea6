"""Server settings, with the defaults a game night needs."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

DB_NAME = "longhall.sqlite3"


def default_data_dir() -> Path:
    """Where the game store lives: systemd's ``$STATE_DIRECTORY``, else the XDG state dir."""
    state_directory = os.environ.get("STATE_DIRECTORY")
    if state_directory:
        # systemd may pass several, separated by colons; ours is the first
        return Path(state_directory.split(":")[0])
    xdg = os.environ.get("XDG_STATE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "state"
    return base / "longhall"


def env_group_commit() -> bool:
    """``LONGHALL_GROUP_COMMIT=0`` turns group commit off (only to measure against it)."""
    return os.environ.get("LONGHALL_GROUP_COMMIT", "1") != "0"


@dataclass
class Settings:
    """Everything ``longhall serve`` can be told."""

    host: str = "0.0.0.0"
    port: int = 8000
    data_dir: Path = field(default_factory=default_data_dir)
    gpio: str = "auto"  # auto | mock | off
    gpio_config: Path | None = None  # a pin map; the default map otherwise
    bot_delay: float = 0.8  # seconds a bot waits before acting, so the table can follow
    auto_next: float | None = None  # press NEXT by itself after this many seconds (None: never)
    public_url: str | None = None  # the address phones use, if not http://<this machine's IP>:port
    threads: int = 64  # one per open connection (WebSocket) plus requests
    snapshot_every: int = 200  # records between full snapshots in the store
    rate: float = 20.0  # events per second a connection may send ...
    burst: int = 40  # ... with bursts up to this many
    max_payload: int = 16_384  # bytes in one Socket.IO message
    hotspot_file: Path | None = None  # where the hotspot's Wi-Fi name and password are, if on
    seed: int | None = None  # fixed game seeds (tests, tournaments); random otherwise
    fresh_store: bool = False  # start a new table even though a damaged store was kept aside
    poweroff_command: str | None = None  # run at the end of the night (a long press on HOST)
    # Commands that arrive together share one write; off only to measure against
    # (bench/burst.py): each command then written under the table's lock.
    group_commit: bool = field(default_factory=env_group_commit)

    @property
    def db_path(self) -> Path:
        return self.data_dir / DB_NAME
