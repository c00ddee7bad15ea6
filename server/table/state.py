"""The table's live state, as its records make it: its seats, its game and what survives a restart.

Applying a record (:func:`longhall.server.table.commands.apply`) is deterministic and touches
nothing but a :class:`TableState`: the same records from the same snapshot rebuild the same
table, on a live server and on a restart alike. What a record means for open connections (a seat
taken away, seats renumbered) is *returned* in an :class:`Outcome`; the table turns that into
socket operations when the record is live.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Literal

from ..games.api import JSON, GameState
from ..games.registry import GAMES
from ..games.spec import GameSpec
from ..store import dumps as store_dumps
from . import fingerprints, night, players
from .seats import Occupant
from .views import Views, freeze

Record = dict[str, Any]  # one accepted command, as the store keeps it

SEEN_PER_IDENTITY = 256  # command ids remembered per sender, to answer repeats
SINGLE_REVEALS_KEPT = 6  # choices revealed one at a time (a combat card), besides the last batch

TableStatus = Literal["lobby", "playing", "over"]


@dataclass
class TableData:
    """Everything about the table that must survive a restart."""

    code: str
    version: int = 0
    game: str = field(default_factory=lambda: next(iter(GAMES)))  # the lobby's first game
    options: dict[str, Any] = field(default_factory=dict)  # the lobby options the host set
    seats: list[Occupant] = field(default_factory=list)
    host: int | None = None
    start_player: int = 0
    status: TableStatus = "lobby"
    paused: bool = False
    state: dict[str, Any] | None = None
    game_id: int | None = None
    next_game_id: int = 1
    game_meta: dict[str, Any] | None = None
    game_actions: int = 0
    seen: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    commitments: dict[str, dict[str, Any]] = field(default_factory=dict)
    reveals: list[dict[str, Any]] = field(default_factory=list)
    digests: dict[str, str] = field(default_factory=dict)
    contexts: dict[str, int] = field(default_factory=dict)
    last_result: dict[str, Any] | None = None
    language: str | None = None  # the table display's language, chosen by the host
    locked: bool = False  # the host closed the lobby: no new seats
    # phones the host sent away, kept out until the host lets them back in: their seat token's
    # hash, a short public id for the host's button, and the name they had
    barred: list[dict[str, Any]] = field(default_factory=list)
    # the host's last take-back, as every screen shows it until the game's next step: whose step
    # it was, the game's public log events it undid, the seats whose revealed choices it hid again
    taken_back: dict[str, Any] | None = None
    # the night: its games so far (each summed up as it ended), from the first game until the
    # host ends it; then, until the next night begins, the night just ended (``ended`` set)
    night: dict[str, Any] | None = None
    next_night_id: int = 1
    # the players the table remembers, by player key: their phone's identity hashed, their name
    # and colour, the nights they played and their games played and won per game (players.py)
    players: dict[str, dict[str, Any]] = field(default_factory=dict)


# The mark a take-back leaves among a game's stored actions (the table's, seat None): replaying a
# game folds it (:func:`effective_moves`), so history and replay show the take-back and obey it.
TAKEN_BACK: dict[str, Any] = {"type": "taken_back"}


def effective_moves(
    rows: list[tuple[int | None, dict[str, Any]]],
) -> list[tuple[int | None, dict[str, Any]]]:
    """A game's moves as they stand: its stored actions, each take-back undoing the move before."""
    moves: list[tuple[int | None, dict[str, Any]]] = []
    for seat, action in rows:
        if seat is None and action == TAKEN_BACK:
            moves.pop()
        else:
            moves.append((seat, action))
    return moves


@dataclass
class Outcome:
    """What applying one record did, beyond the table itself."""

    game_row: dict[str, Any] | None = None  # a game started or ended: its row in the history
    game_action: tuple[int, int, int | None, dict[str, Any]] | None = None
    revoked: list[int] = field(default_factory=list)  # seats whose phone must be sent away
    moved: dict[int, int] | None = None  # seats renumbered: old number -> new number
    host_claim: bool = False  # the table opened a claim to the host's seat (HOST and NEXT)
    host_chosen: bool = False  # a phone at the table took the host's seat by that claim
    night_row: dict[str, Any] | None = None  # the night began, gained a game or ended
    forgotten: str | None = None  # a player forgotten: their name goes from the nights kept


class TableState:
    """The table's live state: its data and its game, changed only by applying records."""

    def __init__(self, data: TableData) -> None:
        self.data = data
        self.spec: GameSpec = GAMES[data.game]
        self.game: GameState | None = (
            None if data.state is None else self.spec.from_dict(data.state)
        )
        self.views = Views()
        self._decided: dict[str, Any] = {}  # what each context was, last time it was digested
        # the game's moves as they stand (its stored actions, take-backs folded): what a take-back
        # replays; filled from the store when a table is restored mid-game
        self.moves: list[tuple[int | None, dict[str, Any]]] = []

    @classmethod
    def restored(cls, snapshot: dict[str, Any] | None, code: str) -> TableState:
        """The table as a stored snapshot has it (None: a new table with this code)."""
        if snapshot is None:
            return cls(TableData(code=code))
        seats = [Occupant.from_dict(s) for s in snapshot["seats"]]
        seen = in_order(snapshot.get("seen", {}))
        return cls(TableData(**{**snapshot, "seats": seats, "seen": seen}))

    def snapshot(self) -> dict[str, Any]:
        """The table as plain JSON (what :meth:`snapshot_text` stores, read back)."""
        copy: dict[str, Any] = json.loads(self.snapshot_text())
        return copy

    def snapshot_text(self) -> str:
        """The table as the store keeps it: JSON text, encoded straight from the live table
        (a game's snapshot is large: no copy is made first)."""
        data = self.data
        data.state = None if self.game is None else self.game.to_dict()
        raw = {k: getattr(data, k) for k in data.__dataclass_fields__}
        raw["seats"] = [s.to_dict() for s in data.seats]
        return store_dumps(raw)

    def playing(self) -> GameState:
        """The game being played (only called where one is)."""
        if self.game is None:
            raise RuntimeError("no game is being played")
        return self.game

    # -- applying ----------------------------------------------------------------------------

    def applied(self, record: Record, replaying: bool = False) -> None:
        """What follows every record applied: the next version, the command's id remembered
        (to answer a repeat), and what each sender could decide noted (``replaying``: see
        :meth:`update_contexts`)."""
        data = self.data
        data.version += 1
        if record["who"] not in ("guest", "public"):  # a guest's join has its own repeat
            seen = data.seen.setdefault(record["who"], {})
            seen[record["id"]] = {"ok": True, "version": data.version, "repeat": True}
            if "what" in record:  # what the command said, to tell a retry from a reused id
                seen[record["id"]]["what"] = record["what"]
            while len(seen) > SEEN_PER_IDENTITY:
                seen.pop(next(iter(seen)))
        self.update_contexts(replaying)

    def start(self, record: Record) -> Outcome:
        data = self.data
        if data.night is None or data.night["ended"] is not None:  # a night's first game
            data.night = night.new_night(data.next_night_id, record["at"])
            data.next_night_id += 1
        for i, seat in enumerate(data.seats):
            if not seat.player:  # seated before the table kept nights
                seat.player = f"g{data.next_game_id}s{i}"
        self.spec = GAMES[data.game]
        self.game = self.spec.new(record["config"], record["seed"])
        data.status, data.paused = "playing", False
        data.game_id = data.next_game_id
        data.next_game_id += 1
        data.game_actions = 0
        data.commitments, data.reveals, data.last_result = {}, [], None
        data.taken_back = None
        self.moves = []
        data.game_meta = {
            "id": data.game_id,
            "game": data.game,
            "config": record["config"],
            "seed": record["seed"],
            "started": record["at"],
            "seats": [s.public() for s in data.seats],
            "night": data.night["id"] if data.night else None,
        }
        return Outcome(game_row={**data.game_meta, "status": "playing"})

    def act(self, record: Record) -> Outcome:
        data, state = self.data, self.playing()
        seat = record["seat"]
        before = self.spec.kept(state)
        state.apply(seat, record["action"])  # raises IllegalAction, changing nothing
        self.keep(before, self.spec.kept(state))
        data.game_actions += 1
        data.taken_back = None
        self.moves.append((seat, record["action"]))
        actor = seat  # None for the table's own step: NEXT, or the host moving on
        reveals = fingerprints.update(
            data.commitments, self.spec.commitments(state), actor, record["salts"]
        )
        if reveals:  # the table's own step (the reveal) shows everyone's choices at once
            data.reveals = keep_reveals(data.reveals, reveals, together=actor is None)
        assert data.game_id is not None
        outcome = Outcome(game_action=(data.game_id, data.game_actions, seat, record["action"]))
        if state.is_over():
            outcome.game_row = self.finish("finished", record["at"])
        return outcome

    def take_back(self, record: Record) -> Outcome:
        """The host's take-back: the game as it was before its last move (replayed when the
        command was prepared, and carried by the record, so applying it is a plain load)."""
        data = self.data
        state = self.spec.from_dict(record["state"])
        self.game = state
        if self.moves:  # none yet while a start replays the records after a snapshot taken in
            self.moves.pop()  # the game: it reads them from the store after the records
        data.game_actions += 1
        fingerprints.update(
            data.commitments, self.spec.commitments(state), None, record["salts"], taken_back=True
        )
        data.taken_back = {
            "seat": record["step"],
            "events": record["events"],
            "revealed": record["revealed"],
            "version": data.version + 1,  # this record's
        }
        assert data.game_id is not None
        return Outcome(game_action=(data.game_id, data.game_actions, None, dict(TAKEN_BACK)))

    def keep(self, before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]]) -> None:
        """Keep for the next games what this action entered or took back (D1 of Vikings Gone
        Wild: the card numbers); entries the action did not touch stay as the host left them."""
        for option, now in after.items():
            was = before.get(option, {})
            if now == was:
                continue
            kept = dict(self.data.options.get(option) or {})
            for key in was.keys() - now.keys():
                kept.pop(key, None)
            kept.update({k: json.loads(json.dumps(v)) for k, v in now.items() if was.get(k) != v})
            self.data.options = {**self.data.options, option: kept}

    def finish(self, status: Literal["finished", "abandoned"], at: float) -> dict[str, Any]:
        data, state = self.data, self.playing()
        result = {
            "scores": state.scores() if status == "finished" else self._public_scores(),
            "winners": state.winners() if status == "finished" else [],
            "seats": [s.public() for s in data.seats],
            "status": status,
            "game": data.game,  # the pages draw the score in this game's words
        }
        data.status, data.paused = "over", False
        data.last_result = result
        data.commitments = {}
        assert data.game_meta is not None
        row = {**data.game_meta, "finished": at, "status": status, "result": result}
        if data.night is not None and data.night["ended"] is None:
            summary = night.game_summary(row, data.seats, result)
            data.night = {**data.night, "games": [*data.night["games"], summary]}
            players.count_game(data.players, summary, data.night["id"])
        return row

    def remember(self, seat_index: int, phone: str) -> None:
        """A seat's phone asks to be remembered: a phone seen before takes back its player (its
        record and its key in the standings), a new one is remembered from now on."""
        data = self.data
        seat = data.seats[seat_index]
        if not seat.player:  # seated before the table kept nights
            seat.player = f"v{data.version}s{seat_index}"
        known = players.by_phone(data.players, phone)
        played = data.night is not None and any(
            p["player"] == seat.player for g in data.night["games"] for p in g["players"]
        )
        taken = {s.player for s in data.seats}
        if known is not None and known != seat.player:
            if not played and known not in taken:
                seat.player = known  # the same player as at the nights before
            else:  # already in the night's standings under this seat's key: keep that one
                data.players[seat.player] = data.players.pop(known)
        elif known is None:
            data.players[seat.player] = {"phone": phone, "nights": [], "games": {}}
            if played and data.night is not None:  # the games of tonight it played already
                for summary in data.night["games"]:
                    players.count_game(
                        {seat.player: data.players[seat.player]}, summary, data.night["id"]
                    )
        data.players[seat.player].update(name=seat.name, colour=seat.colour)

    def forget(self, key: str) -> Outcome:
        """Forget a player: their record goes, and their name from every night and game kept
        ("a former player"), the last game's score included; a seat they hold now keeps its
        name while they sit there."""
        data = self.data
        data.players.pop(key, None)
        places = players.places_of(data.night, key)
        data.night = players.forget_in_night(data.night, key)
        at = places.get(data.game_id or 0)
        if at is not None:  # new objects: the messages compare the last ones they sent
            data.last_result = _nameless(data.last_result, at)
            data.game_meta = _nameless(data.game_meta, at)
        data.barred = [{**b, "name": None} if b.get("player") == key else b for b in data.barred]
        return Outcome(forgotten=key)

    def end_night(self, at: float) -> Outcome:
        """The host ends the night (a game still being played ends early first)."""
        data = self.data
        outcome = Outcome()
        if data.status == "playing":
            outcome.game_row = self.finish("abandoned", at)
        assert data.night is not None
        data.night = {**data.night, "ended": at}
        outcome.night_row = data.night
        return outcome

    def _public_scores(self) -> list[Any] | None:
        """The scores of a game ended early, as far as everyone may know them: what the public
        view shows (a game with hidden points, like Vikings on Board's chests, shows none)."""
        public = self.spec.public_view(self.playing())
        seats = public.get("seats")
        if (
            isinstance(seats, list)
            and seats
            and all(isinstance(s, dict) and isinstance(s.get("score"), dict) for s in seats)
        ):
            return [s["score"] for s in seats]
        return None

    def revoke(self, index: int) -> Outcome:
        """Stop a seat's token working (its phone is sent away by the table)."""
        self.data.seats[index].token_hash = None
        self.data.seen.pop(f"seat:{index}", None)
        return Outcome(revoked=[index])

    def remove_seat(self, index: int) -> Outcome:
        data = self.data
        outcome = self.revoke(index)
        if data.status == "playing":
            data.seats[index].vacant = True  # the game keeps its seat; the host can hand it on
            return outcome
        del data.seats[index]
        if data.host is not None and data.host > index:
            data.host -= 1
        if data.start_player >= index and data.start_player > 0:
            data.start_player -= 1
        self.game = None  # a finished game's board no longer matches the seats
        outcome.moved = self._renumber(
            {old: old - (old > index) for old in range(len(data.seats) + 1) if old != index}
        )
        return outcome

    def move_seat(self, index: int, to: int) -> Outcome:
        data = self.data
        order = list(range(len(data.seats)))
        order.insert(to, order.pop(index))
        data.seats = [data.seats[i] for i in order]
        where = {old: new for new, old in enumerate(order)}
        if data.host is not None:
            data.host = where[data.host]
        data.start_player = where[data.start_player]
        self.game = None
        return Outcome(moved=self._renumber(where))

    def _renumber(self, moved: dict[int, int]) -> dict[int, int]:
        """Follow seats that moved in the remembered command ids; return the moves."""
        seen = {}
        for key, ids in self.data.seen.items():
            kind, _, number = key.partition(":")
            if kind in ("seat", "bot"):
                old = int(number)
                if old not in moved:
                    continue
                key = f"{kind}:{moved[old]}"
            seen[key] = ids
        self.data.seen = seen
        return moved

    # -- what each reader may see ------------------------------------------------------------

    def view(self, seat: int | None) -> JSON | None:
        """``spec.view`` of the current game for one reader, computed once per version."""
        if self.game is None:
            return None
        return self.views.view(self.spec, self.game, self.data.version, seat)

    def update_contexts(self, replaying: bool = False) -> None:
        """Note, per sender, the version at which what they could decide last changed.

        ``replaying``: a stored record replayed as the server starts, whose views no one is
        sent. Each seat's moves and private view are made on their own, copied as a view copies
        them, rather than its whole view (the public view and the table's steps besides): the
        same values, made in half the time."""
        data = self.data
        lobby = {
            "status": data.status,
            "paused": data.paused,
            "host": data.host,
            "seats": [s.public() for s in data.seats],
            "start": data.start_player,
            "options": data.options,
            "game": data.game,
        }
        decided_on: dict[str, Any] = {"lobby": lobby}
        if self.game is not None and data.status == "playing":
            game, spec = self.game, self.spec
            decided_on["table"] = [data.paused, game.legal_actions(None)]
            for seat in range(len(data.seats)):
                if replaying:
                    legal = freeze(game.legal_actions(seat))
                    private = freeze(spec.private_view(game, seat))
                else:
                    seen = self.view(seat)
                    assert seen is not None
                    legal, private = seen["legal"], seen["private"]
                decided_on[f"seat:{seat}"] = [data.paused, legal, private]
        for key, value in decided_on.items():
            # the digest (kept in snapshots) only when the value is not the one last seen
            if key in self._decided and self._decided[key] == value:
                continue
            self._decided[key] = value
            hashed = digest(value)
            if data.digests.get(key) != hashed:
                data.digests[key] = hashed
                data.contexts[key] = data.version


def _nameless(kept: dict[str, Any] | None, at: int) -> dict[str, Any] | None:
    """A game's row or result with the name of the seat ``at`` taken out (a forgotten player)."""
    if kept is None:
        return None
    seats = [dict(s) for s in kept["seats"]]
    seats[at]["name"] = None
    return {**kept, "seats": seats}


def in_order(seen: dict[str, dict[str, dict[str, Any]]]) -> dict[str, dict[str, dict[str, Any]]]:
    """The remembered command ids in the order they were accepted: the store writes JSON with
    sorted keys, and the oldest id is the one to forget first (each answer has its version,
    which no two accepted commands share)."""
    return {
        who: dict(sorted(ids.items(), key=lambda item: int(item[1].get("version", 0))))
        for who, ids in seen.items()
    }


def keep_reveals(
    kept: list[dict[str, Any]], new: list[dict[str, Any]], together: bool
) -> list[dict[str, Any]]:
    """The reveals the table shows: the last batch revealed together by the table's step (the
    round's plans, even if only one player had vikings to plan) until the next such batch, and
    the last few revealed by a player's move (combat cards). A screen that connects in the
    middle of a round can still check every plan of it."""
    if together:
        return [{**r, "together": True} for r in new] + [r for r in kept if not r.get("together")]
    batch = [r for r in kept if r.get("together")]
    alone = [r for r in kept if not r.get("together")] + [{**r, "together": False} for r in new]
    return batch + alone[-SINGLE_REVEALS_KEPT:]


_digest_text = json.JSONEncoder(separators=(", ", ": "), sort_keys=True, check_circular=False)


def digest(value: Any) -> str:
    """A short hash of a JSON value, whatever the order of its keys."""
    return hashlib.sha256(_digest_text.encode(value).encode()).hexdigest()[:16]
