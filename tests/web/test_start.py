"""``longhall serve`` starts with the garbage collector off (what it builds at the start lives as
long as the server, and collecting it costs a small board's CPU) and turns it back on once the
table is loaded and set aside: a server left without its collector would keep every cycle."""

from __future__ import annotations

import gc
from pathlib import Path

from longhall.server.config import Settings
from longhall.server.web.serve import LonghallServer


def test_the_collector_is_back_on_once_the_table_is_loaded(tmp_path: Path) -> None:
    server = LonghallServer(Settings(data_dir=tmp_path, gpio="off"))
    gc.disable()  # as cli.main does for ``serve``
    try:
        server.load()
        assert gc.isenabled()
        assert gc.get_freeze_count() > 0  # the start's objects are set aside first
    finally:
        gc.enable()
        gc.unfreeze()
        if server.longhall is not None:
            server.longhall.stop()
