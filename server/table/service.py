"""The table service: one table per server, its lock, and the one door every change goes through.

Everything that changes the table goes through :meth:`Table.submit` under one lock: phone commands,
bot moves, the GPIO buttons, the NEXT timer. A command is admitted here (its shape, who sends it,
against which version, what the table must be doing: all declared once per kind in
:mod:`.commands`), turned into a *record* (with any randomness it needs: a seat token, a game
seed, a fingerprint salt), applied to the live state (:mod:`.state`), written to the store (after
the lock is let go, together with the commands that come meanwhile: :mod:`.groupcommit`) and only
then acknowledged; no message shows a version before it is on the disk. Replaying the records
from the last snapshot rebuilds the table exactly.

The table decides what each connection may receive (:mod:`.messages`, with the open connections
kept by :mod:`.connections`) and hands the operations to the publisher it was given; it never
sends anything itself.
"""

from __future__ import annotations

import collections
import logging
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..config import Settings
from ..games.api import JSON, GameState, IllegalAction
from ..games.spec import GameSpec
from ..store.store import Entry, Store
from . import commands
from .buttons import Buttons
from .commands import KINDS, check_command
from .connections import Connections, Identity, Outgoing
from .envelope import Command, CommandError
from .groupcommit import GroupCommit
from .kinds import CommandKind
from .lobby import is_barred
from .messages import Messages
from .play import proxy_refused
from .seats import hash_token
from .state import Outcome, Record, TableData, TableState, digest
from .storewatch import WAS_EMPTY, StoreWatch

log = logging.getLogger(__name__)

JOIN_ACK_SECONDS = 600.0


class Publisher(Protocol):
    """What the table is handed to send with: the socket operations of one change, in order,
    called under the table's lock. ``stream``: each room's update may be written as soon as it
    is made (no other command is on its way to the disk and waiting for the lock)."""

    def __call__(self, ops: list[Outgoing], stream: bool, /) -> None: ...


class Table(Buttons):
    """The one table of this server: admits commands and tells everyone what changed."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        publish: Publisher,
        lock: threading.RLock | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.publish = publish
        self.lock = lock or threading.RLock()
        # Notified once a change is on the disk, but only where a bot may act on it (see
        # _bots_may_act): wait on it with a timeout, as the bot runner does.
        self.changed = threading.Condition(self.lock)
        self.listeners: list[Callable[[Table], None]] = []
        self.hardware: dict[str, Any] = {"status": "off", "code": None, "message": None}
        self.hotspot: dict[str, str] | None = None
        # standing notices of the appliance (code -> notice), shown until taken away
        self.notices: dict[str, dict[str, Any]] = {}
        self.join_url = ""
        # The table's clock: the wall clock as it was when this server started, moved on by the
        # monotonic clock. How long a phone has been away, and how long the host's claim stays
        # open, count on it: NTP setting the Pi's wall clock back an hour changes neither.
        self._epoch = time.time() - time.monotonic()
        # When each seat's last phone went away (as the pages show it); a seat with no phone
        # since this server started has been away since then.
        self.started = self.clock()
        self.away: dict[int, float] = {}
        self._join_acks: dict[str, tuple[float, JSON]] = {}
        self.connections = Connections()
        self.messages = Messages(self)
        self.live = self._restore()
        # Records applied but not yet on the disk, and the messages that wait for them; written
        # to the store as it is then (the end of the night closes it and opens it again).
        self.group_commit = GroupCommit(lambda group: self.store.write(group), self.data.version)
        self._outbox: collections.deque[_Held] = collections.deque()
        self.grouped = settings.group_commit  # a test or bench/burst.py may switch it
        # whether the store can be written, said on every screen while it cannot
        self.storage = StoreWatch(self)
        # the host's seat, open to the phone at the table that enters its number (reset_host)
        self.host_claim = None

    def clock(self) -> float:
        """The table's clock (seconds, near the wall clock's; see ``_epoch``)."""
        return self._epoch + time.monotonic()

    def _restore(self) -> TableState:
        live = commands.restore(self.store, lambda: secrets.token_urlsafe(6))
        log.info("table %s restored at version %d", live.data.code, live.data.version)
        return live

    # The table's parts, as the rest of the server and the tests name them.
    @property
    def data(self) -> TableData:
        return self.live.data

    @property
    def game(self) -> GameState | None:
        """The game being played, or the last one played."""
        return self.live.game

    @property
    def spec(self) -> GameSpec:
        return self.live.spec

    @property
    def stored(self) -> int:
        """The last version on the disk: the one an answer outside a command may name."""
        return self.group_commit.durable

    def present(self) -> set[int]:
        return self.connections.present()

    def snapshot(self) -> dict[str, Any]:
        return self.live.snapshot()

    def keep_snapshot(self) -> None:
        """At a clean stop, once no command can come: keep the table as it stands, so that the
        next start restores it without replaying the records since the last snapshot (up to
        ``snapshot_every`` of them, about 0.12 ms of CPU each here, eight times that on a Zero
        2 W). After a power cut, the start replays them as before."""
        with self.lock:
            version, text = self.data.version, self.live.snapshot_text()
        try:
            self.store.keep_snapshot(version, text)
        except sqlite3.Error:  # a full or failing card: the next start replays
            log.warning("could not keep the table's snapshot at its stop", exc_info=True)

    def public_table(self) -> JSON:
        return self.messages.public_table()

    def message_for(self, seat: int | None) -> JSON:
        return self.messages.message_for(seat)

    # -- admission ---------------------------------------------------------------------------

    def submit(
        self, who: Identity, payload: object, holds: Callable[[], bool] | None = None
    ) -> JSON:
        """Check, apply, store and acknowledge one command; return the acknowledgement.

        The answer waits until the command's record is on the disk; so does every message
        showing its version. Commands that arrive together share one write (group commit,
        :mod:`.groupcommit`): the lock is let go while the disk is written.
        ``holds``, checked under the lock first, refuses the command as stale if it says no (a bot's
        move, if its seat is no longer its to play).
        """
        with self.lock:
            if holds is not None and not holds():
                stale = CommandError("stale_version", "The table moved on.")
                return {"ok": False, "error": stale.to_dict(), "version": self.stored}
            answer, wait = self._admit(who, payload)
            if wait is None:
                return answer
            if wait.solo:  # written before the lock is let go
                return self._settle(answer, wait)
        return self._settle(answer, wait)

    def _admit(self, who: Identity, payload: object) -> tuple[JSON, _Wait | None]:
        """Check and apply one command (hold the lock); return its answer and what the answer
        must wait for before it is sent."""
        self._mend()
        name = payload.get("type") if isinstance(payload, dict) else None
        saved = self.connections.sids()  # records may move or drop connections
        generation, before = self.group_commit.generation, self.data.version
        try:
            cmd = check_command(payload)
            kind = KINDS[cmd["type"]]
            if kind.name == "join":  # a guest's join is answered again, token and all
                repeat = self._repeat_join(who, cmd)
                if repeat is not None:
                    return repeat, None  # remembered once it was on the disk
            self._authorize(who, kind, cmd)
            repeat = self._repeat(who, cmd)
            if repeat is not None:  # its first answer may still be waiting for the disk
                return repeat, _Wait(repeat["version"], generation)
            if kind.answer is not None:
                return {"ok": True, "version": before, **kind.answer(self, cmd)}, _Wait(
                    before, generation
                )
            if self.storage.read_only:
                raise CommandError(
                    "store_read_only",
                    "The Pi's storage is read-only: nothing can be saved, so nothing can change.",
                )
            kind.check(cmd)
            self._check_version(who, kind, cmd)
            self._check_needs(kind)
            record, extra = self._prepare(who, kind, cmd)
            outcome = commands.apply(self.live, record)
            if kind.name == "start":  # the word on an empty store has been seen by now
                self.notices.pop(WAS_EMPTY, None)
        except IllegalAction as err:
            log.warning("refused %s from %s: %s", str(name)[:20], who.key, err.code)
            return {"ok": False, "error": err.to_dict(), "version": before}, _Wait(
                before, generation
            )
        except Exception:
            # A bug, not a refusal: the command may have changed the table half-way. Nothing
            # of it was stored, so the store holds the table as it was: go back to it.
            log.exception("%s from %s failed; reloading the table", str(name)[:20], who.key)
            bug = CommandError(
                "server_error", "Something went wrong on the server; nothing changed."
            )
            return self._reload(saved, before, generation, bug), None
        version = self.data.version
        self.group_commit.add(self._entry(record, outcome), generation)
        shown = _shown(self.messages)
        ack = {"ok": True, "version": version, **extra}
        messages = self._follow(outcome)
        joined = None
        if kind.name == "join":
            joined = f"{who.sid}/{cmd['id']}"
            if who.sid is not None:
                messages += self.connections.seat_guest(who.sid, extra["seat"])
        # A command that moves connections is written before the lock is let go: if the write
        # fails, the connections go back as they were, with nothing in between.
        solo = not self.grouped or bool(messages) or joined is not None
        # a connection moved into a seat's room has not had that room's last message
        self.messages.forget([op.payload for op in messages if op.op == "join"])
        self._after_change(messages, shown, saved if solo else None)
        return ack, _Wait(version, generation, solo, joined)

    def _settle(self, answer: JSON, wait: _Wait) -> JSON:
        """Wait until what ``answer`` shows is on the disk, send what waited for it, and
        return the answer (or, if the write failed, the refusal)."""
        stored = self.group_commit.wait(wait.version, wait.generation)
        with self.lock:
            self._mend()
            self._release()
            if stored:
                if wait.joined is not None:
                    self._join_acks[wait.joined] = (time.monotonic(), answer)
                if self.storage.failing:
                    self.storage.wrote()
                return answer
            if answer["ok"]:
                lost = CommandError("storage_failed", "The game store could not be written.")
                return {"ok": False, "error": lost.to_dict(), "version": self.data.version}
            return {**answer, "version": self.data.version}

    def flush(self) -> None:
        """Wait until the table as it is now is on the disk, and send what waited for it."""
        with self.lock:
            self._mend()
            self.group_commit.wait(self.data.version, self.group_commit.generation)
            self._mend()  # a write that failed meanwhile: back to the disk
            self._release()

    def _repeat_join(self, who: Identity, cmd: Command) -> JSON | None:
        now = time.monotonic()
        for cid, (at, _) in list(self._join_acks.items()):
            if now - at > JOIN_ACK_SECONDS:
                del self._join_acks[cid]
        # only to the connection that asked: the answer holds the new seat's token
        hit = self._join_acks.get(f"{who.sid}/{cmd['id']}")
        return None if hit is None else hit[1]

    def _repeat(self, who: Identity, cmd: Command) -> JSON | None:
        """The answer to a command id this sender had accepted before (not applied again)."""
        if cmd["type"] == "join":
            return None  # answered by _repeat_join; a guest's ids are not kept
        first = self.data.seen.get(who.key, {}).get(cmd["id"])
        if first is None:
            return None
        if first.get("what", _what(cmd)) != _what(cmd):
            raise CommandError("id_reused", "That command id was already used for another command.")
        return {k: v for k, v in first.items() if k != "what"}

    def _authorize(self, who: Identity, kind: CommandKind, cmd: Command) -> None:
        """Refuse a command its sender may not send (each kind says who may)."""
        if who.kind == "kiosk" and "kiosk" in kind.by:
            return  # the Pi's own table display
        if "kiosk" in kind.by and who.kind not in ("button", "auto"):  # the table's alone
            raise CommandError(
                "table_only",
                "Only the table itself can do that: hold HOST and press NEXT, or use the Pi's own "
                "screen.",
            )
        if who.kind in ("guest", "public", "kiosk"):
            if who.kind == "guest" and "guest" in kind.by:
                return
            if "guest" in kind.by:
                raise CommandError("bad_code", "Scan the table's QR code to join.")
            raise CommandError("not_seated", "Join the table first.")
        if "guest" in kind.by and "player" not in kind.by:
            raise CommandError("already_seated", "This phone already has a seat.")
        if who.kind == "bot":
            if "bot" not in kind.by:
                raise CommandError("not_allowed", "A bot only plays its own moves.")
            return
        if who.kind in ("button", "auto"):
            if "button" not in kind.by:
                raise CommandError("not_allowed", "The table's buttons cannot do that.")
            return
        if who.kind != "seat" or who.seat is None:
            raise CommandError("not_allowed", "Not allowed.")
        seats = self.data.seats
        if who.seat >= len(seats) or seats[who.seat].vacant:
            raise CommandError("bad_token", "This seat is no longer yours.")
        if kind.own_seat is not None and kind.own_seat(who, cmd):
            return
        host = "player" not in kind.by and "host" in kind.by and who.seat == self.data.host
        if host and self.host_claim is not None:
            # whoever is host now may be the one the table takes it from: no kick, no lock
            raise CommandError(
                "host_being_chosen",
                "The table is choosing its host: the host's controls wait until it is chosen.",
            )
        if "player" not in kind.by and not host:
            raise CommandError("host_only", "Only the host can do that.", command=kind.name)

    def _check_version(self, who: Identity, kind: CommandKind, cmd: Command) -> None:
        version = cmd["version"]
        if version > self.data.version:
            raise CommandError(
                "bad_version",
                "That version of the table does not exist yet.",
                current=self.data.version,
            )
        # a bot's move is held to what its seat saw, as a phone's is: it thinks outside the lock
        if who.kind in ("button", "auto") or kind.context is None:
            return
        context = {
            "lobby": "lobby",
            "own_seat": f"seat:{who.seat}",
            "named_seat": f"seat:{cmd.get('seat')}",
            "table": "table",
        }[kind.context]
        if version < self.data.contexts.get(context, 0):
            if kind.context == "named_seat":
                raise proxy_refused()
            raise CommandError(
                "stale_version",
                "The table changed since you decided: look again and retry.",
                current=self.data.version,
            )

    def _check_needs(self, kind: CommandKind) -> None:
        data = self.data
        if kind.needs == "lobby" and data.status == "playing":
            raise CommandError("game_running", "Not during a game: end it first.")
        if kind.needs in ("game", "running") and data.status != "playing":
            raise CommandError("not_playing", "No game is being played.")
        if kind.needs == "running" and data.paused:
            raise CommandError("paused", "The game is paused.")

    def _prepare(self, who: Identity, kind: CommandKind, cmd: Command) -> tuple[Record, JSON]:
        fields, extra = kind.prepare(self, who, cmd)
        record = {"kind": kind.name, "id": cmd["id"], "who": who.key, "what": _what(cmd)}
        return {**record, **fields}, extra

    def _follow(self, outcome: Outcome) -> list[Outgoing]:
        """The socket operations a live record needs: phones sent away, seats renumbered, the
        host's seat opened to the table or taken."""
        out: list[Outgoing] = []
        if outcome.host_claim:
            out += self._open_host_claim()
        if outcome.host_chosen:
            out += self._host_chosen()
        for seat in outcome.revoked:
            out += self.connections.revoke(seat)
        if outcome.moved is not None:
            out += self.connections.renumber(outcome.moved)
            # how long a seat's phone has been away follows the seat
            moved = outcome.moved
            self.away = {moved[s]: at for s, at in self.away.items() if s in moved}
        return out

    def _entry(self, record: Record, outcome: Outcome) -> Entry:
        """What the store must write for a record just applied (a snapshot from time to time)."""
        version = self.data.version
        snapshot = None
        if (
            version % self.settings.snapshot_every == 0
            or outcome.game_row is not None
            or outcome.night_row is not None
            or outcome.forgotten is not None  # the older records, with the name, are pruned
        ):
            snapshot = self.live.snapshot_text()
        return Entry(
            version,
            record,
            snapshot,
            outcome.game_action,
            outcome.game_row,
            outcome.night_row,
            outcome.forgotten,
        )

    def _reload(
        self, saved: dict[str, Identity], before: int, generation: int, err: IllegalAction
    ) -> JSON:
        """Go back to the table as stored, with the connections as they were before a command
        that failed half-way; return the refusal to send."""
        # what was applied before it is good: on the disk first, then read back
        stored = self.group_commit.wait(before, generation)
        self._mend()  # if that write failed, this went back to the disk already
        self._release()
        if stored:
            self.live = self._restore()
        self.connections.restore(saved)
        return {"ok": False, "error": err.to_dict(), "version": self.data.version}

    def _mend(self) -> None:
        """After a failed write (hold the lock): go back to the table as it is on the disk, and
        drop every message that showed what was lost; nothing of it is ever sent."""
        if not self.group_commit.broken:
            return
        self._release()  # what is on the disk is sent still
        lost = list(self._outbox)
        self._outbox.clear()
        self.live = self._restore()
        if lost:
            _show(self.messages, lost[0].shown)
            saved = next((held.saved for held in lost if held.saved is not None), None)
            if saved is not None:
                self.connections.restore(saved)
        self.group_commit.recovered(self.data.version)
        if lost:  # phones that came and went meanwhile: shown as they are, at the stored version
            self._after_change([])
        self.storage.failed(self.group_commit.error)  # said on every screen

    # -- connections -------------------------------------------------------------------------

    def connect(self, sid: str, auth: object, kiosk: bool = False) -> Identity:
        """Check a new connection's credentials; return who it is (``kiosk``: it comes from the
        Pi itself). Call :meth:`welcome` next."""
        with self.lock:
            self.flush()  # the token and the code are checked against what is stored
            auth = auth if isinstance(auth, dict) else {}
            token = _auth_text(auth, "token", "bad_token", TOKEN_REFUSED)
            if token:
                hashed = hash_token(token)
                for index, seat in enumerate(self.data.seats):
                    if seat.token_hash is not None and secrets.compare_digest(
                        seat.token_hash, hashed
                    ):
                        return Identity("seat", index, sid)
                if is_barred(self.data.barred, hashed):
                    raise kicked()
                log.warning("refused a connection with an unknown or revoked token")
                raise CommandError("bad_token", TOKEN_REFUSED)
            code = _auth_text(auth, "code", "bad_code", CODE_REFUSED)
            if code:
                if not secrets.compare_digest(code.encode(), self.data.code.encode()):
                    raise CommandError("bad_code", CODE_REFUSED)
                # the seat token this phone had, if the host took it away
                was = _auth_text(auth, "was", "bad_token", TOKEN_REFUSED)
                if was and is_barred(self.data.barred, hash_token(was)):
                    raise kicked()
                return Identity("guest", None, sid)
            return Identity("kiosk" if kiosk else "public", None, sid)

    def welcome(self, who: Identity) -> None:
        """Seat a checked connection: its room, its snapshot, and a replaced phone sent away."""
        with self.lock:
            assert who.sid is not None
            self.flush()  # the snapshot shows only what is on the disk
            out = self.connections.add(who)
            seat = who.seat if who.kind == "seat" else None
            out.append(Outgoing("emit", who.sid, "snapshot", self.messages.current(seat)))
            if who.kind == "kiosk" and self.host_claim is not None:
                out.append(Outgoing("emit", who.sid, "host_claim", self.host_claim.shown()))
            if who.kind == "seat":  # everyone sees the seat come back
                out.extend(self.messages.updates())
            self.publish(out, True)  # all of it is on the disk

    def disconnect(self, sid: str) -> None:
        with self.lock:
            self._mend()
            who = self.connections.remove(sid)
            if who is not None and who.kind == "seat" and who.seat is not None:
                self.away[who.seat] = self.clock()
                self._after_change([])

    def snapshot_for(self, sid: str) -> JSON:
        with self.lock:
            self.flush()  # the snapshot shows only what is on the disk
            who = self.connections.get(sid) or Identity("public")
            return self.messages.current(who.seat if who.kind == "seat" else None)

    def identity(self, sid: str) -> Identity:
        with self.lock:
            return self.connections.get(sid) or Identity("public", None, sid)

    # -- telling everyone --------------------------------------------------------------------

    def _after_change(
        self,
        messages: list[Outgoing],
        shown: tuple[int, dict[str, tuple[int, JSON]]] | None = None,
        saved: dict[str, Identity] | None = None,
    ) -> None:
        """Send the change out once it is on the disk (hold the lock). A failure to send is
        logged: a client that missed an update sees the gap in the numbering and asks for a
        snapshot."""
        shown = _shown(self.messages) if shown is None else shown
        ops = [*messages, *self.messages.updates()]
        self._outbox.append(_Held(self.data.version, ops, shown, saved))
        self._release()

    def _release(self) -> None:
        """Send, in order, the messages held until the version they show is on the disk (hold
        the lock); tell the bots and the buttons and lights once the table is all stored."""
        durable = self.group_commit.durable
        released = False
        while self._outbox and self._outbox[0].version <= durable:
            held = self._outbox.popleft()
            released = True
            try:
                # a command's updates are written room by room as they are made, unless other
                # commands are admitted but not yet on the disk: they take the lock again once
                # stored, so the writes wait until it is let go
                self.publish(held.ops, self.stored == self.data.version)
            except Exception:
                log.exception("could not send version %d to everyone", held.version)
        if not released:
            return
        if self._bots_may_act():  # a table without bots lets the bot runner sleep
            self.changed.notify_all()
        if self.data.version > durable:
            return  # the lights follow once the rest is stored too
        for listener in list(self.listeners):
            try:
                listener(self)
            except Exception:
                log.exception("a table listener failed")

    def _bots_may_act(self) -> bool:
        """Whether the bot runner may have something to do after a change: a seat played by a
        bot (or a bot standing in), or NEXT to press by itself. Otherwise waking it would only
        make it look and sleep again, a thread switched in and out on every command, and
        competing with the command's thread for the interpreter while it writes to the screens
        (the runner looks again every two seconds all the same)."""
        return self.settings.auto_next is not None or any(
            seat.bot is not None for seat in self.data.seats
        )

    def notify(self, code: str, message: str, **params: Any) -> None:
        """Show a short notice on every screen (a button pressed too early, GPIO trouble)."""
        with self.lock:
            self._mend()
            shown = _shown(self.messages)
            self._outbox.append(
                _Held(self.data.version, self.messages.notice(code, message, params), shown)
            )
            self._release()  # in order with the updates still waiting for the disk

    def refresh(self) -> None:
        """Send everyone an update (after a change that is not a command, like GPIO status)."""
        with self.lock:
            self._mend()
            self._after_change([])

    # -- for /healthz ------------------------------------------------------------------------

    def phase(self) -> str:
        with self.lock:
            state = self.live.game
            if self.data.status == "playing" and state is not None:
                return "paused" if self.data.paused else str(state.phase)
            return self.data.status

    def health(self) -> dict[str, Any]:
        with self.lock:
            return {
                "game": self.data.game,
                "phase": self.phase(),
                "table_version": self.data.version,
            }


TOKEN_REFUSED = "This phone's seat is no longer valid: join the table again."
CODE_REFUSED = "That is not this table's code."
MOST_AUTH = 256  # characters of a token or a code (a token has 32, a code 8)


def _auth_text(auth: dict[str, Any], key: str, code: str, message: str) -> str | None:
    """A text of a connection's ``auth`` (a token, a table code), or None where there is none.
    One no token or code can be (too long, or not text: a lone surrogate that no phone
    sends) is refused as a wrong one would be."""
    value = auth.get(key)
    if not isinstance(value, str) or not value:
        return None
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        value = ""
    if not value or len(value) > MOST_AUTH:
        log.warning("refused a connection whose %s is not readable", key)
        raise CommandError(code, message)
    return value


def kicked() -> CommandError:
    return CommandError(
        "kicked", "The host sent this phone away from the table: ask the host to let it back in."
    )


@dataclass(frozen=True)
class _Wait:
    """What a command's answer waits for: its version on the disk."""

    version: int
    generation: int  # the group commit's, when it was applied
    solo: bool = False  # written before the table's lock is let go
    joined: str | None = None  # a guest's join, remembered once it is on the disk


@dataclass(frozen=True)
class _Held:
    """Messages held until the version they show is on the disk."""

    version: int
    ops: list[Outgoing]
    shown: tuple[int, dict[str, tuple[int, JSON]]]  # what the rooms had been sent before them
    saved: dict[str, Identity] | None = None  # the connections before a command that moved them


def _shown(messages: Messages) -> tuple[int, dict[str, tuple[int, JSON]]]:
    """What every room was last sent, to go back to if what follows is never sent."""
    return messages.seq, dict(messages.sent)


def _show(messages: Messages, shown: tuple[int, dict[str, tuple[int, JSON]]]) -> None:
    messages.seq, messages.sent = shown[0], dict(shown[1])


def _what(cmd: Command) -> str:
    """What a command says, whatever its id and version: tells a retry from a reused id."""
    return digest({k: v for k, v in cmd.items() if k not in ("id", "version")})
