"""A new game's config: the lobby's options and the game's data files, read from the disk here
(outside the pure engines), handed to the game's own ``configure``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from ..games.api import JSON, IllegalAction
from ..games.registry import GAMES
from ..games.spec import GameSpec


def load_data(
    spec: GameSpec, data_dir: str | Path | None = None, path: str | Path | None = None
) -> dict[str, Any]:
    """Each data file the game reads, by its key: the host's own copy in ``data_dir`` if there
    is one, else the file shipped in the game's package; ``path`` (``longhall simulate --deck``)
    stands in for the game's first data file."""
    data = {}
    for index, file in enumerate(spec.data):
        source: Path | None = Path(path) if path and index == 0 else None
        if source is None and data_dir is not None and (Path(data_dir) / file.own).exists():
            source = Path(data_dir) / file.own
        if source is None:
            text = resources.files(spec.package).joinpath(file.shipped).read_text("utf-8")
            data[file.key] = json.loads(text)
            continue
        try:
            data[file.key] = json.loads(source.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise IllegalAction(
                "bad_config", f"Cannot read the {file.what} {source}: {exc}", reason=str(exc)
            ) from exc
    return data


def default_config(
    game: str,
    players: int,
    *,
    start_player: int = 0,
    colours: list[str] | None = None,
    data_dir: str | Path | None = None,
    data_file: str | Path | None = None,
    options: Mapping[str, Any] | None = None,
) -> JSON:
    """A complete config for a new game of ``game``: the lobby's options as the host set them
    (defaults for the others), its data files read (``data_file`` instead of its first), and
    each seat's colour if given."""
    spec = GAMES[game]
    return spec.configure(
        players,
        start_player,
        spec.lobby.settings(options or {}),
        load_data(spec, data_dir, data_file),
        None if colours is None else list(colours),
    )
