"""The game store: a SQLite file that survives a power cut.

Every accepted command is appended to the ``records`` journal and committed (WAL,
``synchronous=FULL``: the commit returns once the data is on the disk) before the player is told
it was accepted; commands that arrive together share one transaction (the table's group commit).
A snapshot of the whole table is written from time to time, and the records before it pruned; a
restart reads the latest snapshot and replays the records after it. Finished and abandoned games
stay in ``games`` with every action in ``game_actions``, to list and to replay.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .checkpoint import PAGES, Checkpointer
from .damaged import FRAME_HEADER, WAL_HEADER, read_only_uri
from .damaged import read_only as card_read_only

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records (
    seq INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS snapshots (
    seq INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    status TEXT NOT NULL,
    result TEXT
);
CREATE TABLE IF NOT EXISTS nights (
    id INTEGER PRIMARY KEY,
    started REAL NOT NULL,
    ended REAL,
    data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS game_actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,
    seat INTEGER,
    action TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
) WITHOUT ROWID;
"""
# game_actions is kept in its primary key's order (WITHOUT ROWID): a command's action changes one
# page of it, not a leaf and a leaf of a separate index, so each command's commit writes a third
# fewer pages to the log and syncs them (an SD card's wear and time, and the kernel's work per
# fsync). A store made before keeps its table as it was: both read the same.


# json.dumps(value, separators=(",", ":"), sort_keys=True), its encoder made once
dumps = json.JSONEncoder(separators=(",", ":"), sort_keys=True, check_circular=False).encode


def empty(path: Path) -> bool:
    """Whether the store at ``path`` is an empty file (0 bytes, and no ``-wal`` holding data):
    SQLite begins a new table in it without a word."""
    wal = path.with_name(path.name + "-wal")
    return path.is_file() and path.stat().st_size == 0 and not (wal.exists() and wal.stat().st_size)


@dataclass(frozen=True)
class Entry:
    """One accepted command to append: its record and what it changes in the game history."""

    seq: int
    record: dict[str, Any]
    # the whole table after it, from time to time, as JSON text (TableState.snapshot_text)
    snapshot: str | None = None
    game_action: tuple[int, int, int | None, dict[str, Any]] | None = None
    game_row: dict[str, Any] | None = None  # a game started or ended
    night_row: dict[str, Any] | None = None  # the night as it is now, when it changed
    forgotten: str | None = None  # a player forgotten: their name goes from every night kept


class Store:
    """One SQLite file per Longhall server; every write is durable when the call returns.

    On a read-only card (:attr:`read_only`) the store is opened for reading only: the table is
    served as it is, and nothing is written. A store file found empty (0 bytes, with no ``-wal``:
    :func:`empty`) is begun afresh.
    """

    def __init__(self, path: Path, checkpoint_pages: int = PAGES) -> None:
        self.path = path
        self._lock = threading.Lock()
        self.commits = 0  # journal transactions written: several commands may share one
        self.read_only = path.parent.is_dir() and card_read_only(path.parent)
        if self.read_only:
            self._open_read_only()
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        # No checkpoint inside a command's commit: the checkpointer's thread does them.
        self.db.execute("PRAGMA wal_autocheckpoint=0")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.page_size = int(self.db.execute("PRAGMA page_size").fetchone()[0])
        self.checkpointer = Checkpointer(path, checkpoint_pages)
        self.db.executescript(SCHEMA)
        # the pages a game action changes: a store made before has a separate index
        row = self.db.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'game_actions'"
        ).fetchone()
        self.action_pages = 1 if "WITHOUT ROWID" in str(row[0]).upper() else 2
        columns = {r[1] for r in self.db.execute("PRAGMA table_info(games)")}
        if "night" not in columns:  # a store made before the table kept nights
            with self.transaction():
                self.db.execute("ALTER TABLE games ADD COLUMN night INTEGER")
        with self.transaction():
            self.db.execute(
                "INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', ?)",
                (str(SCHEMA_VERSION),),
            )

    def _open_read_only(self) -> None:
        """Open the store for reading only (a read-only card); with no store there, a new table
        held in memory, that nothing can change either."""
        self.checkpointer = Checkpointer(self.path, PAGES)  # never started: nothing is written
        if self.path.exists() and not empty(self.path):
            self.db = sqlite3.connect(
                read_only_uri(self.path), uri=True, check_same_thread=False, isolation_level=None
            )
        else:
            self.db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
            self.db.executescript(SCHEMA)
        self.page_size = int(self.db.execute("PRAGMA page_size").fetchone()[0])
        self.action_pages = 1

    def probe(self) -> None:
        """Write one small row and wait for the disk: raise if the store cannot be written."""
        with self.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('written', ?)",
                (str(time.time()),),
            )

    def lay_out_log(self) -> None:
        """Give the write-ahead log, at once, the size it grows to before the checkpointer
        folds it in, in zeros (the server's store, in a thread of its own once it serves).

        A commit that makes the log longer changes the file's size, so its sync also commits the
        file system's journal (one more slow write on an SD card); laid out, each commit writes
        over zeros. Safe for SQLite, which finds the log's end by the frames' salts and
        checksums: the zeros go in past the end of the file, whole frames, under SQLite's write
        lock, so that a power cut in between leaves a log the start-up check still finds whole.
        Nothing it meets is raised: the log then grows with each commit, as it did before.
        """
        if self.read_only:
            return
        try:
            self._lay_out_log()
        except (OSError, sqlite3.Error):  # a full disk, or the store closed (the night ended)
            log.warning("could not lay out the log of %s", self.path, exc_info=True)

    def _lay_out_log(self) -> None:
        with self.transaction() as db:  # a change, so that SQLite gives the log its header
            db.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('opened', ?)",
                (str(time.time()),),
            )
        frame = FRAME_HEADER + self.page_size
        target = WAL_HEADER + frame * self.checkpointer.pages
        wal = Path(f"{self.path}-wal")
        with self.transaction():  # the write lock, nothing written
            try:
                size = wal.stat().st_size
            except FileNotFoundError:  # no log (not in WAL mode): nothing to lay out
                return
            if size >= target or size < WAL_HEADER or (size - WAL_HEADER) % frame:
                return  # as long already, or not whole frames: left as SQLite made it
            with wal.open("r+b") as f:
                os.ftruncate(f.fileno(), target)  # its size first, in whole frames
                f.seek(size)
                zeros = bytes(frame * 16)
                while size < target:
                    size += f.write(zeros[: target - size])
                f.flush()
                os.fdatasync(f.fileno())

    def keep_snapshot(self, seq: int, data: str) -> bool:
        """Keep the table as it stands after record ``seq`` (``data``), as every
        ``snapshot_every``-th record does, with the records and snapshot before it dropped: at a
        clean stop, so that the next start restores the table at once instead of replaying the
        records since the last snapshot. Nothing is written unless ``seq`` is the last record on
        the disk (a change never stored was never acknowledged); return whether it was."""
        if self.read_only:
            return False
        with self.transaction() as db:
            (last,) = db.execute("SELECT MAX(seq) FROM records").fetchone()
            if last != seq:  # none since the last snapshot, or the table is ahead of the disk
                return False
            self._snapshot(db, seq, time.time(), data)
        return True

    @staticmethod
    def _snapshot(db: sqlite3.Connection, seq: int, at: float, data: str) -> None:
        """Keep ``data``, the table after record ``seq``, and drop the records and snapshot
        before it: they are no longer needed to restore the table."""
        db.execute(
            "INSERT OR REPLACE INTO snapshots (seq, at, data) VALUES (?, ?, ?)", (seq, at, data)
        )
        db.execute("DELETE FROM records WHERE seq <= ?", (seq,))
        db.execute("DELETE FROM snapshots WHERE seq < ?", (seq,))

    def close(self, truncate: bool = False) -> None:
        """Stop the checkpointer, fold the log into the file once more and close it.

        ``truncate`` (the end of the night) also empties the log file, waiting for readers
        elsewhere if need be; otherwise the last checkpoint waits for no one.
        """
        self.checkpointer.close()
        mode = "TRUNCATE" if truncate else "PASSIVE"
        with self._lock:
            if self.read_only:
                self.db.close()
                return
            try:
                self.db.execute(f"PRAGMA wal_checkpoint({mode})")
            except sqlite3.Error:  # the log stays, whole: the next start reads it
                log.exception("could not fold the log into %s on closing", self.path)
            self.db.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """Run writes atomically; the commit waits until the data is on the disk."""
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
                self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:  # the commit itself may be what failed
                    self.db.execute("ROLLBACK")
                raise

    # -- meta --------------------------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        with self._lock:
            row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    # -- the journal -------------------------------------------------------------------------

    def write(self, entries: list[Entry]) -> None:
        """Durably append accepted commands, in order, in one transaction: one wait for the
        disk however many they are (the table's group commit)."""
        now = time.time()
        pages = 0
        with self.transaction() as db:
            for entry in entries:
                pages += self._append(db, entry, now)
        self.commits += 1
        self.checkpointer.wrote(pages)

    def _append(self, db: sqlite3.Connection, entry: Entry, now: float) -> int:
        """Write one entry; return about how many pages it changed (what it adds to the log)."""
        seq = entry.seq
        data = dumps(entry.record)
        written = len(data)
        db.execute("INSERT INTO records (seq, at, data) VALUES (?, ?, ?)", (seq, now, data))
        pages = 1  # the records' last leaf
        if entry.game_row is not None:
            self._write_game(db, entry.game_row)
            pages += 2  # the row and its table's root
        if entry.night_row is not None:
            night = entry.night_row
            db.execute(
                "INSERT OR REPLACE INTO nights (id, started, ended, data) VALUES (?, ?, ?, ?)",
                (night["id"], night["started"], night["ended"], dumps(night)),
            )
            pages += 2
        if entry.forgotten is not None:
            pages += self._forget(db, entry.forgotten)
        if entry.game_action is not None:
            game_id, n, seat, action = entry.game_action
            data = dumps(action)
            written += len(data)
            pages += self.action_pages
            db.execute(
                "INSERT INTO game_actions (game_id, n, seat, action) VALUES (?, ?, ?, ?)",
                (game_id, n, seat, data),
            )
        if entry.snapshot is not None:
            data = entry.snapshot
            written += len(data)
            pages += 3  # the snapshots' leaf, and the old records and snapshot deleted
            self._snapshot(db, seq, now, data)
        return pages + written // self.page_size  # and the overflow pages of larger rows

    def _forget(self, db: sqlite3.Connection, player: str) -> int:
        """Take a forgotten player's name out of every night and game kept (``None``: the pages
        say "a former player"); return about how many pages that changed."""
        pages = 0
        for night_id, text in db.execute("SELECT id, data FROM nights").fetchall():
            night = json.loads(text)
            touched = False
            for game in night["games"]:
                for i, entry in enumerate(game["players"]):
                    if entry["player"] != player:
                        continue
                    entry["name"], touched = None, True
                    row = db.execute(
                        "SELECT seats, result FROM games WHERE id = ?", (game["id"],)
                    ).fetchone()
                    if row is None:
                        continue
                    seats = json.loads(row[0])
                    result = None if row[1] is None else json.loads(row[1])
                    seats[i]["name"] = None
                    if result is not None:
                        result["seats"][i]["name"] = None
                    db.execute(
                        "UPDATE games SET seats = ?, result = ? WHERE id = ?",
                        (dumps(seats), None if result is None else dumps(result), game["id"]),
                    )
                    pages += 1
            if touched:
                db.execute("UPDATE nights SET data = ? WHERE id = ?", (dumps(night), night_id))
                pages += 1
        return pages

    def _write_game(self, db: sqlite3.Connection, row: dict[str, Any]) -> None:
        db.execute(
            "INSERT INTO games"
            " (id, game, config, seed, seats, started, finished, status, result, night)"
            " VALUES (:id, :game, :config, :seed, :seats, :started, :finished, :status, :result,"
            " :night)"
            " ON CONFLICT(id) DO UPDATE SET finished = excluded.finished,"
            " status = excluded.status, result = excluded.result",
            {
                "id": row["id"],
                "game": row["game"],
                "config": dumps(row["config"]),
                "seed": row["seed"],
                "seats": dumps(row["seats"]),
                "started": row["started"],
                "finished": row.get("finished"),
                "status": row["status"],
                "result": None if row.get("result") is None else dumps(row["result"]),
                "night": row.get("night"),
            },
        )

    def load(self) -> tuple[tuple[int, dict[str, Any]] | None, list[tuple[int, dict[str, Any]]]]:
        """Return the latest snapshot (seq, table) if any, and the records after it, in order."""
        with self._lock:
            row = self.db.execute(
                "SELECT seq, data FROM snapshots ORDER BY seq DESC LIMIT 1"
            ).fetchone()
            after = -1 if row is None else int(row[0])
            records = self.db.execute(
                "SELECT seq, data FROM records WHERE seq > ? ORDER BY seq", (after,)
            ).fetchall()
        snapshot = None if row is None else (int(row[0]), json.loads(row[1]))
        return snapshot, [(int(seq), json.loads(data)) for seq, data in records]

    # -- game history ------------------------------------------------------------------------

    def games(self) -> list[dict[str, Any]]:
        """Every game ever started here, newest first."""
        with self._lock:
            rows = self.db.execute(
                "SELECT g.id, g.game, g.seed, g.seats, g.started, g.finished, g.status, g.result,"
                " (SELECT COUNT(*) FROM game_actions a WHERE a.game_id = g.id), g.night"
                " FROM games g ORDER BY g.id DESC"
            ).fetchall()
        return [
            {
                "id": r[0],
                "game": r[1],
                "seed": r[2],
                "seats": json.loads(r[3]),
                "started": r[4],
                "finished": r[5],
                "status": r[6],
                "result": None if r[7] is None else json.loads(r[7]),
                "actions": r[8],
                "night": r[9],
            }
            for r in rows
        ]

    def nights(self) -> list[dict[str, Any]]:
        """Every night kept here, newest first, each with its games summed up."""
        with self._lock:
            rows = self.db.execute("SELECT data FROM nights ORDER BY id DESC").fetchall()
        return [json.loads(r[0]) for r in rows]

    def night(self, night_id: int) -> dict[str, Any] | None:
        with self._lock:
            row = self.db.execute("SELECT data FROM nights WHERE id = ?", (night_id,)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def game(self, game_id: int) -> dict[str, Any] | None:
        """One game with its config and its whole action log."""
        with self._lock:
            row = self.db.execute(
                "SELECT id, game, config, seed, seats, started, finished, status, result"
                " FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            actions = self.db.execute(
                "SELECT seat, action FROM game_actions WHERE game_id = ? ORDER BY n", (game_id,)
            ).fetchall()
        return {
            "id": row[0],
            "game": row[1],
            "config": json.loads(row[2]),
            "seed": row[3],
            "seats": json.loads(row[4]),
            "started": row[5],
            "finished": row[6],
            "status": row[7],
            "result": None if row[8] is None else json.loads(row[8]),
            "log": [(seat, json.loads(action)) for seat, action in actions],
        }
