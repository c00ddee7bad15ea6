"""A store written by an earlier Longhall, from before the one lobby command ``set_option``, still
restores: its lobby records (``set_options``, ``set_end_mark``, ``set_card_numbers``) are read by
the game that declares them (``Lobby.earlier``) as ``set_option`` would have written them."""

from __future__ import annotations

import uuid
from typing import Any

from longhall.server.config import DB_NAME, Settings
from longhall.server.store import Store
from longhall.server.store.store import Entry
from longhall.server.web.app import create_app
from tests.inprocess import Client

TAVERN = {"defence": 2, "points": 1, "resource": 0, "favour": 0}


def written_earlier(settings: Settings, game: str, records: list[dict[str, Any]]) -> Any:
    """A table in the lobby of ``game``, stopped; then ``records`` appended to its store as an
    earlier version wrote them; the table's options once it is started again."""
    lh = create_app(settings)
    anna = Client(lh, {"code": lh.table.data.code})
    anna.join("Anna")
    assert anna.send("set_game", game=game)["ok"]
    lh.stop()
    store = Store(settings.data_dir / DB_NAME)
    snapshot, stored = store.load()  # the stop kept a snapshot: no record after it
    assert snapshot is not None and not stored
    last = snapshot[0]
    host = {"who": "seat:0", "what": "0" * 16}  # what every record says of its command
    store.write(
        [
            Entry(last + i + 1, {**host, "id": uuid.uuid4().hex, **record})
            for i, record in enumerate(records)
        ]
    )
    store.close()
    again = create_app(settings)
    try:
        return Client(again, {"code": again.table.data.code}).last()["table"]["options"]
    finally:
        again.stop()


def test_eketorp_deck_set_by_an_earlier_version(settings: Settings) -> None:
    options = written_earlier(
        settings, "eketorp", [{"kind": "set_options", "options": {"deck": "physical"}}]
    )
    assert options == {"deck": "physical"}


def test_vikings_gone_wild_end_mark_and_numbers_set_by_an_earlier_version(
    settings: Settings,
) -> None:
    options = written_earlier(
        settings,
        "vikings_gone_wild",
        [
            {"kind": "set_end_mark", "end_mark": 50},
            {"kind": "set_card_numbers", "card": "tavern", "numbers": TAVERN},
            {"kind": "set_card_numbers", "card": "gold_mine", "numbers": TAVERN},
            {"kind": "set_card_numbers", "card": "gold_mine", "numbers": {}},  # taken away (D1)
        ],
    )
    assert options == {"end_mark": 50, "numbers": {"tavern": TAVERN}, "bonus_names": {}}
