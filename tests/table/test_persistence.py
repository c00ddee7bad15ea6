"""Persistence: every accepted command is stored before it is acknowledged; a restart restores
the table exactly; finished games stay in the store and replay from their logs."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any, NoReturn

import pytest

from longhall.server.cli.history import replay_game
from longhall.server.config import Settings
from longhall.server.store.store import Entry, Store
from longhall.server.table.connections import Identity
from longhall.server.table.service import Table
from longhall.server.web.app import create_app
from tests.inprocess import Client, eketorp, game, power_cut, seated

from ..support import bot_move, play_out


def drive(table: Table, steps: int) -> None:
    """Let the bots (and NEXT) play ``steps`` moves through the table."""
    for _ in range(steps):
        move = bot_move(table)
        if move is None:
            if table.data.status != "playing":
                return
            ack = table.press_next(Identity("auto"))
            if not ack["ok"]:
                return  # waiting for a person
            continue
        seat, action = move
        ack = table.submit(
            Identity("bot", seat),
            {
                "type": "act",
                "id": f"bot-drive-{table.data.version}",
                "version": table.data.version,
                "action": action,
            },
        )
        assert ack["ok"], ack


def test_the_store_is_wal_with_full_sync(settings: Settings) -> None:
    lh = create_app(settings)
    try:
        db = lh.table.store.db
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    finally:
        lh.stop()


@pytest.mark.parametrize("cut", [False, True], ids=["stopped", "power cut"])
def test_a_restart_restores_lobby_seats_tokens_and_game_exactly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cut: bool
) -> None:
    settings = Settings(data_dir=tmp_path, gpio="off", bot_delay=0, snapshot_every=7)
    lh = create_app(settings)
    anna, bob = seated(lh, ["Anna", "Bob"])
    for kind in ("greedy", "random", "greedy"):
        assert anna.send("add_bot", bot=kind)["ok"]
    assert anna.send("set_start_player", seat=2)["ok"]
    assert anna.send("start")["ok"]
    assert anna.act(type="place", to="A")["ok"]
    drive(lh.table, 40)
    assert eketorp(lh.table).committed[2:] == [True, True, True]
    before = lh.table.snapshot()
    code = lh.table.data.code
    if cut:
        power_cut(lh, monkeypatch)
    else:
        lh.stop()
    store = Store(settings.db_path)
    replayed = len(store.load()[1])
    store.close()
    assert replayed > 0 if cut else replayed == 0  # a stop keeps the table as it stands

    again = create_app(settings)
    try:
        assert again.table.snapshot() == before
        assert again.table.data.code == code
        phone = Client(again, {"token": anna.token})  # phones reconnect to their seats
        assert phone.connected and phone.last()["you"]["seat"] == 0
        assert phone.last()["game"]["private"]["plan"] == {"A": 1}
    finally:
        again.stop()


@pytest.mark.parametrize("name", ["eketorp", "vikings_on_board", "vikings_gone_wild"])
def test_a_replayed_game_notes_what_each_seat_decides_on_as_it_was_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """A start replays the records after the last snapshot making only each seat's moves and
    private view, not its whole view (``update_contexts(replaying=True)``): the versions at which
    each seat's choices last changed (what a stale command is refused by) come out the same."""
    settings = Settings(data_dir=tmp_path, gpio="off", bot_delay=0, snapshot_every=1000)
    lh = create_app(settings)
    (host,) = seated(lh, ["Host"])
    assert host.send("add_bot", bot="greedy")["ok"] and host.send("add_bot", bot="greedy")["ok"]
    assert host.send("botify", seat=0, bot="greedy")["ok"]
    assert host.send("set_game", game=name)["ok"] and host.send("set_start_player", seat=1)["ok"]
    assert host.send("start")["ok"]
    if name == "vikings_gone_wild":  # the bonus cards (W1.3)
        assert host.send("proxy", seat=1, action={"type": "first_game_bonus"})["ok"]
    play_out(lh.table, 30)  # all replayed: the last snapshot is the game's start
    before = lh.table.snapshot()
    power_cut(lh, monkeypatch)
    again = create_app(settings)
    try:
        assert again.table.snapshot() == before
        assert {"seat:0", "seat:1", "seat:2"} <= set(before["contexts"])
    finally:
        again.stop()


def test_the_journal_is_pruned_at_snapshots(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, gpio="off", bot_delay=0, snapshot_every=10)
    lh = create_app(settings)
    (anna,) = seated(lh, ["Anna"])
    for _ in range(3):
        anna.send("add_bot", bot="random")
    anna.send("botify", seat=0, bot="random")  # a bot stands in for Anna while she is away
    anna.sio.disconnect()
    assert lh.table.press_next()["ok"]
    drive(lh.table, 95)
    version = lh.table.data.version
    db = sqlite3.connect(settings.db_path)  # beside the running table, as its store stands

    def journal() -> tuple[int, list[int]]:
        (snap,) = db.execute("SELECT MAX(seq) FROM snapshots").fetchone()
        return snap, [r[0] for r in db.execute("SELECT seq FROM records ORDER BY seq")]

    try:
        snap, seqs = journal()
        assert snap == version - version % 10
        assert seqs == list(range(snap + 1, version + 1))
        assert seqs  # some records since the last snapshot, for the stop to fold in
        lh.stop()
        assert journal() == (version, [])  # the stop's snapshot: nothing left to replay
    finally:
        db.close()


def test_a_stop_keeps_no_snapshot_of_a_change_not_on_the_disk(tmp_path: Path) -> None:
    """A version the table holds but the disk does not was never acknowledged: a stop's
    snapshot of it would bring it back at the next start."""
    store = Store(tmp_path / "store.sqlite3")
    try:
        store.write([Entry(1, {"kind": "a"}), Entry(2, {"kind": "b"})])
        assert not store.keep_snapshot(3, '{"version": 3}')  # ahead of the disk
        assert store.load() == (None, [(1, {"kind": "a"}), (2, {"kind": "b"})])
        assert store.keep_snapshot(2, '{"version": 2}')
        assert store.load() == ((2, {"version": 2}), [])
        assert not store.keep_snapshot(2, '{"version": 2}')  # kept already: nothing to do
    finally:
        store.close()


def test_finished_games_are_kept_and_replay_from_their_logs(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, gpio="off", bot_delay=0)
    lh = create_app(settings)
    (anna,) = seated(lh, ["Anna"])
    for kind in ("greedy", "random", "greedy"):
        anna.send("add_bot", bot=kind)
    anna.send("botify", seat=0, bot="greedy")
    anna.sio.disconnect()
    lh.table.press_next()
    drive(lh.table, 5000)
    table = lh.table
    assert table.data.status == "over"
    games = table.store.games()
    assert games[0]["status"] == "finished"
    final = game(table).to_dict()
    replayed = replay_game(table.store, games[0]["id"])
    assert replayed.to_dict() == final
    assert games[0]["result"]["scores"] == [s for s in replayed.scores()]
    lh.stop()


def fail_next_write(table: Table, where: str = "append") -> None:
    """Make the store's next write fail, as a full or broken SD card would."""
    store = table.store
    patch = pytest.MonkeyPatch()  # undone by the failing write itself
    if where == "append":

        def failing(*args: object, **kwargs: object) -> NoReturn:
            patch.undo()
            raise OSError("No space left on device")

        patch.setattr(store, "write", failing)
    else:  # the COMMIT itself fails, the transaction is left open
        real_execute = store.db.execute
        con = store.db

        class Flaky:
            def __getattr__(self, name: str) -> Any:
                return getattr(con, name)

            def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
                if sql == "COMMIT":
                    patch.undo()
                    raise sqlite3.OperationalError("disk I/O error")
                return real_execute(sql, *args)

        patch.setattr(store, "db", Flaky())


def test_a_failed_write_refuses_the_command_and_changes_nothing(settings: Settings) -> None:
    lh = create_app(settings)
    try:
        anna, bob, cara = seated(lh, ["Anna", "Bob", "Cara"])
        before = lh.table.snapshot()
        fail_next_write(lh.table)
        # moving seats renumbers connections: they must come back with the refused command
        assert anna.send("move_seat", seat=1, to=2)["error"]["code"] == "storage_failed"
        assert lh.table.snapshot() == before
        assert anna.send("start")["ok"]
        bob_view = bob.sio.emit("snapshot", callback=True)
        assert bob_view["you"]["seat"] == 1
        assert bob_view["game"]["private"]["hand"] == sorted(eketorp(lh.table).hands[1])
    finally:
        lh.stop()


def test_a_failed_commit_is_rolled_back_and_the_table_goes_on(settings: Settings) -> None:
    lh = create_app(settings)
    try:
        (anna,) = seated(lh, ["Anna"])
        fail_next_write(lh.table, "commit")
        assert anna.send("add_bot", bot="greedy")["error"]["code"] == "storage_failed"
        assert [s.name for s in lh.table.data.seats] == ["Anna"]
        assert anna.send("add_bot", bot="random")["ok"]  # the store is usable again
        version = lh.table.data.version
    finally:
        lh.stop()
    again = create_app(settings)
    try:  # and what was acknowledged is what was stored
        assert again.table.data.version == version
        assert [s.kind for s in again.table.data.seats] == ["human", "bot"]
        assert again.table.data.seats[1].bot == "random"
    finally:
        again.stop()


def test_a_bug_half_way_through_a_command_changes_nothing(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command that fails with an unexpected error after the game moved (here: the plan
    fingerprints) is answered ``server_error`` and the table goes back to what is stored."""
    from longhall.server.table import fingerprints

    lh = create_app(settings)
    try:
        anna, _, _ = seated(lh, ["Anna", "Bob", "Cara"])
        assert anna.send("start")["ok"]
        before = lh.table.snapshot()
        real = fingerprints.update

        def broken(*args: object, **kwargs: object) -> NoReturn:
            monkeypatch.setattr(fingerprints, "update", real)
            raise RuntimeError("a bug")

        monkeypatch.setattr(fingerprints, "update", broken)
        place = next(a for a in game(lh.table).legal_actions(0) if a["type"] == "place")
        ack = anna.act(**place)
        assert ack["error"]["code"] == "server_error" and ack["version"] == before["version"]
        assert lh.table.snapshot() == before  # in memory: the plan is not half-placed
        assert anna.act(**place)["ok"]  # and the same move works once the bug is gone
    finally:
        lh.stop()


GAME_ROW = {
    "id": 1,
    "game": "eketorp",
    "config": {},
    "seed": 7,
    "seats": [],
    "started": 1.0,
    "finished": None,
    "status": "playing",
    "result": None,
}


@pytest.mark.parametrize("made_before", [False, True])
def test_game_actions_are_kept_in_key_order_and_old_stores_still_work(
    tmp_path: Path, made_before: bool
) -> None:
    """A new store keeps the game actions in their key's order (one page per action written,
    not a leaf and an index leaf); a store made with the table as it was reads and writes the
    same actions, in order."""
    path = tmp_path / "longhall.sqlite3"
    if made_before:  # the table as stores made before this change have it
        con = sqlite3.connect(path)
        con.execute(
            "CREATE TABLE game_actions (game_id INTEGER NOT NULL REFERENCES games(id),"
            " n INTEGER NOT NULL, seat INTEGER, action TEXT NOT NULL, PRIMARY KEY (game_id, n))"
        )
        con.close()
    store = Store(path)
    try:
        sql = store.db.execute(
            "SELECT sql FROM sqlite_master WHERE name = 'game_actions'"
        ).fetchone()[0]
        assert ("WITHOUT ROWID" in sql) is not made_before
        assert store.action_pages == (2 if made_before else 1)
        store.write([Entry(1, {"kind": "start"}, None, None, GAME_ROW)])
        for n in (1, 2, 3):
            store.write([Entry(1 + n, {"kind": "act"}, None, (1, n, n % 2, {"type": f"a{n}"}))])
    finally:
        store.close()
    reopened = Store(path)
    try:
        stored = reopened.game(1)
        assert stored is not None
        assert stored["log"] == [(1, {"type": "a1"}), (0, {"type": "a2"}), (1, {"type": "a3"})]
    finally:
        reopened.close()
