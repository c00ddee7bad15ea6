"""The table service: one table per server, its seats, its game, its lock and its journal.

Everything that changes the table goes through :meth:`Table.submit` under one lock: phone commands,
bot moves, the GPIO buttons, the NEXT timer. A command is checked (shape, who sends it, against
which version), turned into a *record* (with any randomness it needs: a seat token, a game seed,
a fingerprint salt), applied to the in-memory table, written to the store and only then
acknowledged. Replaying the records from the last snapshot rebuilds the table exactly.

The table decides what each connection may receive and hands the socket layer a list of
messages to send; it never sends anything itself.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import fingerprints
from .config import Settings
from .gamedata import default_config
from .games.api import GameSpec, IllegalAction
from .games.registry import GAMES
from .netinfo import qr_svg
from .protocol import HOST_ONLY, LANGUAGES, CommandError, check_command, clean_name
from .seats import BOT_KINDS, COLOURS, Seat, hash_token, new_token
from .store import Store

log = logging.getLogger("longhall.table")


@dataclass(frozen=True)
class LobbyGame:
    """A game the lobby offers (it has phone and table pages): its seats' colours, the lobby
    options it takes, whether its engine plays the seats' own colours, its playing time."""

    colours: tuple[str, ...]
    options: tuple[str, ...]
    seat_colours: bool
    minutes: tuple[int, int]


LOBBY_GAMES: dict[str, LobbyGame] = {
    # Eketorp's box: 60 minutes
    "eketorp": LobbyGame(tuple(COLOURS), ("deck",), False, (60, 60)),
    # Vikings on Board: 4 colours (V0.1); the box says 30 to 60 minutes
    "vikings_on_board": LobbyGame(("red", "blue", "yellow", "green"), (), True, (30, 60)),
    # Vikings Gone Wild: 2 to 4 players (W0.1); the box says 45 minutes
    "vikings_gone_wild": LobbyGame(tuple(COLOURS), (), False, (45, 45)),
}
SEEN_PER_IDENTITY = 256  # command ids remembered per sender, to answer repeats
SINGLE_REVEALS_KEPT = 6  # choices revealed one at a time (a combat card), besides the last batch
JOIN_ACK_SECONDS = 600.0
# Commands that cannot hit the wrong target, whatever changed since the sender looked: another
# player sitting down does not make the host's "add a bot" stale.
CONTEXT_FREE = frozenset(
    {"join", "add_bot", "set_options", "set_language", "pause", "resume", "end_game"}
)
# What the host may do for a seat whose phone is gone or that a bot plays (D9; physical deck).
PROXY_ACTIONS = frozenset({"auto_build", "card_add", "card_remove", "card_done"})


@dataclass(frozen=True)
class Identity:
    """Who sent a command: a seat's phone, a guest about to join, the table's buttons, a bot."""

    kind: str  # seat | guest | public | button | bot | auto
    seat: int | None = None
    sid: str | None = None

    @property
    def key(self) -> str:
        """Whose command ids these are: a seat's phone and the bot standing in for it each
        have their own, so a long stand-in cannot push the phone's ids out."""
        return f"{self.kind}:{self.seat}" if self.kind in ("seat", "bot") else self.kind


@dataclass
class Outgoing:
    """One thing for the socket layer to do, in order."""

    op: str  # emit | join | leave | disconnect
    target: str  # a room or a connection id
    event: str = ""
    payload: Any = None


@dataclass
class Snapshot:
    """Everything about the table that must survive a restart."""

    code: str
    version: int = 0
    game: str = "eketorp"
    options: dict[str, Any] = field(default_factory=lambda: {"deck": "house"})
    seats: list[Seat] = field(default_factory=list)
    host: int | None = None
    start_player: int = 0
    status: str = "lobby"  # lobby | playing | over
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


class Table:
    """The one table of this server."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self.publisher: Callable[[list[Outgoing]], None] | None = None
        self.listeners: list[Callable[[Table], None]] = []
        self.connections: dict[str, Identity] = {}
        self.seq = 0  # numbers every update sent, so a client can tell it missed one
        self.hardware: dict[str, Any] = {"status": "off", "code": None, "message": None}
        self.hotspot: dict[str, str] | None = None
        # standing notices of the appliance (code -> notice), shown until taken away
        self.notices: dict[str, dict[str, Any]] = {}
        self.join_url = ""
        self._join_acks: dict[str, tuple[float, dict[str, Any]]] = {}
        self._bots: dict[int, tuple[tuple[int | None, str], Any]] = {}
        # When each seat's last phone went away (wall clock, as the pages show it); a seat with
        # no phone since this server started has been away since then.
        self.started = time.time()
        self.away: dict[int, float] = {}
        # Views of the current version, computed once per change for all who need them.
        self._views: dict[int | None, Any] = {}
        self._views_version = -1
        self.spec: GameSpec = GAMES["eketorp"]
        self.state: Any = None
        self.data = Snapshot(code="")
        self._restore()

    # -- restoring ---------------------------------------------------------------------------

    def _restore(self) -> None:
        snapshot, records = self.store.load()
        if snapshot is None:
            code = self.store.get_meta("table_code")
            if code is None:
                code = secrets.token_urlsafe(6)
                self.store.set_meta("table_code", code)
            self.data = Snapshot(code=code)
        else:
            self._load(snapshot[1])
        for seq, record in records:
            self._apply(record)
            if self.data.version != seq:
                raise RuntimeError(f"the journal is out of order at record {seq}")
        self._update_contexts()
        log.info("table %s restored at version %d", self.data.code, self.data.version)

    def _load(self, raw: dict[str, Any]) -> None:
        data = Snapshot(**{**raw, "seats": [Seat.from_dict(s) for s in raw["seats"]]})
        self.data = data
        self.spec = GAMES[data.game]
        self.state = None if data.state is None else self.spec.from_dict(data.state)

    def snapshot(self) -> dict[str, Any]:
        data = self.data
        data.state = None if self.state is None else self.state.to_dict()
        raw = {k: getattr(data, k) for k in data.__dataclass_fields__}
        raw["seats"] = [s.to_dict() for s in data.seats]
        return json.loads(json.dumps(raw))  # type: ignore[no-any-return]

    # -- commands ----------------------------------------------------------------------------

    def submit(self, who: Identity, payload: object) -> dict[str, Any]:
        """Check, apply, store and acknowledge one command; return the acknowledgement."""
        with self.lock:
            kind = payload.get("type") if isinstance(payload, dict) else None
            connections = dict(self.connections)  # records may move or drop connections
            try:
                cmd = check_command(payload)
                if cmd["type"] == "join":  # a guest's join is answered again, token and all
                    repeat = self._repeat_join(who, cmd)
                    if repeat is not None:
                        return repeat
                self._authorize(who, cmd)
                repeat = self._repeat(who, cmd)
                if repeat is not None:
                    return repeat
                if cmd["type"] == "history":
                    return {"ok": True, "version": self.data.version, "games": self._history()}
                self._check_version(who, cmd)
                record, extra = self._prepare(who, cmd)
                outcome = self._apply(record)
            except IllegalAction as err:
                log.warning("refused %s from %s: %s", str(kind)[:20], who.key, err.code)
                return {"ok": False, "error": err.to_dict(), "version": self.data.version}
            except Exception:
                # A bug, not a refusal: the command may have changed the table half-way. Nothing
                # of it was stored, so the store still holds the table as it was: go back to it.
                log.exception("%s from %s failed; reloading the table", str(kind)[:20], who.key)
                return self._reload(
                    connections,
                    CommandError(
                        "server_error", "Something went wrong on the server; nothing changed."
                    ),
                )
            try:
                self._persist(record, outcome)
            except Exception:
                log.exception("could not store record %d; reloading the table", self.data.version)
                return self._reload(
                    connections,
                    CommandError("storage_failed", "The game store could not be written."),
                )
            ack = {"ok": True, "version": self.data.version, **extra}
            messages = outcome.get("messages", [])
            if cmd["type"] == "join":
                self._join_acks[f"{who.sid}/{cmd['id']}"] = (time.monotonic(), ack)
                if who.sid is not None:
                    messages.extend(self._seat_guest(who.sid, extra["seat"]))
            self._after_change(messages)
            return ack

    def _history(self) -> list[dict[str, Any]]:
        """The games kept here, for the host. A game still being played keeps its seed to itself:
        with the seed, anyone could deal every hand and the draw pile again."""
        games = self.store.games()
        for game in games:
            if game["status"] == "playing":
                game.pop("seed", None)
        return games

    def _repeat_join(self, who: Identity, cmd: dict[str, Any]) -> dict[str, Any] | None:
        now = time.monotonic()
        for cid, (at, _) in list(self._join_acks.items()):
            if now - at > JOIN_ACK_SECONDS:
                del self._join_acks[cid]
        # only to the connection that asked: the answer holds the new seat's token
        hit = self._join_acks.get(f"{who.sid}/{cmd['id']}")
        return None if hit is None else hit[1]

    def _repeat(self, who: Identity, cmd: dict[str, Any]) -> dict[str, Any] | None:
        """The answer to a command id this sender had accepted before (not applied again)."""
        if cmd["type"] == "join":
            return None  # answered by _repeat_join; a guest's ids are not kept
        first = self.data.seen.get(who.key, {}).get(cmd["id"])
        if first is None:
            return None
        what = _what(cmd)
        if first.get("what", what) != what:
            raise CommandError("id_reused", "That command id was already used for another command.")
        return {k: v for k, v in first.items() if k != "what"}

    def _authorize(self, who: Identity, cmd: dict[str, Any]) -> None:
        kind = cmd["type"]
        if who.kind in ("guest", "public"):
            if kind == "join" and who.kind == "guest":
                return
            if kind == "join":
                raise CommandError("bad_code", "Scan the table's QR code to join.")
            raise CommandError("not_seated", "Join the table first.")
        if kind == "join":
            raise CommandError("already_seated", "This phone already has a seat.")
        if who.kind == "bot":
            if kind != "act":
                raise CommandError("not_allowed", "A bot only plays its own moves.")
            return
        if who.kind in ("button", "auto"):
            if kind not in ("table", "start", "pause", "resume"):
                raise CommandError("not_allowed", "The table's buttons cannot do that.")
            return
        if who.kind != "seat" or who.seat is None:
            raise CommandError("not_allowed", "Not allowed.")
        seat = self.data.seats[who.seat] if who.seat < len(self.data.seats) else None
        if seat is None or seat.vacant:
            raise CommandError("bad_token", "This seat is no longer yours.")
        if kind == "botify" and cmd["seat"] == who.seat and cmd["bot"] == "":
            return  # a player takes their seat back from the bot standing in for them
        if kind in HOST_ONLY and who.seat != self.data.host:
            raise CommandError("host_only", "Only the host can do that.", command=kind)
        if kind == "act" and seat.kind == "human" and seat.bot is not None:
            raise CommandError("bot_standing_in", "A bot plays for you: take your seat back first.")

    def _context(self, who: Identity, cmd: dict[str, Any]) -> str | None:
        """What a command was decided on; None when nothing it names can have changed."""
        kind = cmd["type"]
        if kind == "act":
            return f"seat:{who.seat}"
        if kind == "proxy":
            return f"seat:{cmd['seat']}"
        if kind == "table":
            return "table"
        if kind in CONTEXT_FREE:
            return None
        return "lobby"  # it names a seat or a colour, or starts with the seats the host saw

    def _check_version(self, who: Identity, cmd: dict[str, Any]) -> None:
        version = cmd["version"]
        if version > self.data.version:
            raise CommandError(
                "bad_version",
                "That version of the table does not exist yet.",
                current=self.data.version,
            )
        if who.kind in ("button", "auto", "bot"):
            return
        context = self._context(who, cmd)
        if context is None:
            return
        since = self.data.contexts.get(context, 0)
        if version < since:
            raise CommandError(
                "stale_version",
                "The table changed since you decided: look again and retry.",
                current=self.data.version,
            )

    # -- preparing records (randomness is drawn here, once) ----------------------------------

    def _prepare(self, who: Identity, cmd: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        kind = cmd["type"]
        record: dict[str, Any] = {
            "kind": kind,
            "id": cmd["id"],
            "who": who.key,
            "what": _what(cmd),
        }
        extra: dict[str, Any] = {}
        data = self.data
        if kind == "join":
            self._require_lobby()
            if len(data.seats) >= self.spec.max_players:
                raise CommandError(
                    "table_full",
                    f"The table is full ({self.spec.max_players} seats).",
                    max=self.spec.max_players,
                )
            colour = self._free_colour(cmd["colour"])
            token = new_token()
            record.update(name=clean_name(cmd["name"]), colour=colour, token_hash=hash_token(token))
            extra.update(token=token, seat=len(data.seats))
        elif kind == "profile":
            self._require_lobby()
            assert who.seat is not None
            colour = (  # "" keeps the colour the seat has
                self._free_colour(cmd["colour"], mine=who.seat)
                if cmd["colour"]
                else data.seats[who.seat].colour
            )
            record.update(seat=who.seat, name=clean_name(cmd["name"]), colour=colour)
        elif kind == "add_bot":
            self._require_lobby()
            if cmd["bot"] not in BOT_KINDS or cmd["bot"] not in self.spec.bots:
                raise CommandError("unknown_bot", "A bot is 'greedy' or 'random'.", bot=cmd["bot"])
            if len(data.seats) >= self.spec.max_players:
                raise CommandError(
                    "table_full",
                    f"The table is full ({self.spec.max_players} seats).",
                    max=self.spec.max_players,
                )
            colour = self._free_colour("")
            record.update(bot=cmd["bot"], colour=colour, name=f"Bot {COLOURS[colour]}")
        elif kind in ("remove_seat", "kick"):
            seat = self._seat_index(cmd["seat"])
            if seat == data.host:
                raise CommandError("cannot_remove_host", "The host keeps their seat.")
            if data.status == "playing" and data.seats[seat].kind == "bot":
                raise CommandError(
                    "bot_in_game", "A bot plays until the game ends; end the game to remove it."
                )
            record.update(seat=seat)
        elif kind == "handover":
            seat = self._seat_index(cmd["seat"])
            if seat == data.host:
                # the host's phone would be sent away before it could show the new seat's QR
                # code, and nobody would be left to hand it on: the host keeps their seat
                raise CommandError("cannot_remove_host", "The host keeps their seat.")
            if data.seats[seat].kind == "bot" and data.status != "playing":
                raise CommandError(
                    "not_a_player", "Remove the bot and let the new player join instead."
                )
            token = new_token()
            record.update(seat=seat, token_hash=hash_token(token))
            claim = f"{self.join_url}#claim={token}"
            extra.update(token=token, seat=seat, claim_url=claim, claim_qr=qr_svg(claim))
        elif kind == "botify":
            seat = self._seat_index(cmd["seat"])
            if cmd["bot"] not in BOT_KINDS and cmd["bot"] != "":
                raise CommandError("unknown_bot", "A bot is 'greedy' or 'random'.", bot=cmd["bot"])
            if data.seats[seat].kind != "human":
                raise CommandError("not_a_player", "That seat is a bot already.")
            record.update(seat=seat, bot=cmd["bot"] or None)
        elif kind == "move_seat":
            self._require_lobby()
            seat = self._seat_index(cmd["seat"])
            to = self._seat_index(cmd["to"])
            record.update(seat=seat, to=to)
        elif kind == "set_start_player":
            self._require_lobby()
            record.update(seat=self._seat_index(cmd["seat"]))
        elif kind == "set_game":
            self._require_lobby()
            if cmd["game"] not in LOBBY_GAMES:
                raise CommandError(
                    "unknown_game", "That game cannot be played here yet.", game=cmd["game"][:32]
                )
            spec, lobby = GAMES[cmd["game"]], LOBBY_GAMES[cmd["game"]]
            if len(data.seats) > spec.max_players:
                raise CommandError(
                    "too_many_for_game",
                    f"{spec.title} is for {spec.min_players} to {spec.max_players} players and"
                    f" {len(data.seats)} are seated: remove a seat first.",
                    game=cmd["game"],
                    min=spec.min_players,
                    max=spec.max_players,
                    seated=len(data.seats),
                )
            # a seat whose colour the game does not have takes one it has (the seats stay)
            colours = [s.colour for s in data.seats]
            for i, colour in enumerate(colours):
                if colour not in lobby.colours:
                    colours[i] = next(c for c in lobby.colours if c not in colours)
            record.update(game=cmd["game"], colours=colours)
        elif kind == "set_options":
            self._require_lobby()
            if cmd["deck"] not in ("house", "physical"):
                raise CommandError("bad_option", "The material deck is 'house' or 'physical'.")
            record.update(options={"deck": cmd["deck"]})
        elif kind == "set_language":
            if cmd["lang"] not in (*LANGUAGES, ""):
                raise CommandError(
                    "bad_language",
                    "The table display speaks English (en), Dutch (nl), French (fr) or German"
                    " (de).",
                    lang=cmd["lang"][:8],
                )
            record.update(lang=cmd["lang"] or None)
        elif kind == "start":
            self._require_lobby()
            n = len(data.seats)
            if not self.spec.min_players <= n <= self.spec.max_players:
                raise CommandError(
                    "bad_players",
                    f"{self.spec.title} needs {self.spec.min_players} to "
                    f"{self.spec.max_players} players; {n} seated.",
                    min=self.spec.min_players,
                    max=self.spec.max_players,
                    seated=n,
                )
            waiting = [s for s in data.seats if s.vacant and not s.bot]
            if waiting:  # a game cannot wait for a phone that is not coming
                raise CommandError(
                    "seat_vacant",
                    f"{waiting[0].name}'s seat has no phone: hand it to a new phone, let a bot"
                    " play it, or remove it.",
                    name=waiting[0].name,
                )
            lobby = LOBBY_GAMES[data.game]
            options = {k: v for k, v in data.options.items() if k in lobby.options}
            if lobby.seat_colours:  # each player plays the colour they sat down with
                options["colours"] = [s.colour for s in data.seats]
            config = default_config(
                data.game,
                n,
                start_player=min(data.start_player, n - 1),
                data_dir=self.settings.data_dir,
                **options,
            )
            seed = secrets.randbits(62) if self.settings.seed is None else self.settings.seed
            record.update(config=config, seed=seed + data.next_game_id - 1, at=time.time())
        elif kind in ("pause", "resume"):
            if data.status != "playing":
                raise CommandError("not_playing", "No game is being played.")
            if kind == "pause" and data.paused:
                raise CommandError("already_paused", "The game is already paused.")
            if kind == "resume" and not data.paused:
                raise CommandError("already_running", "The game is not paused.")
        elif kind == "end_game":
            if data.status != "playing":
                raise CommandError("not_playing", "No game is being played.")
            record.update(at=time.time())
        elif kind in ("act", "table", "proxy"):
            self._require_playing()
            if kind == "act":
                actor: int | None = who.seat
            elif kind == "table":
                actor = None
            else:
                actor = self._seat_index(cmd["seat"])
                target = data.seats[actor]
                if not (target.kind == "bot" or target.vacant or actor not in self._present()):
                    raise CommandError(
                        "seat_is_playing", "That player is here: they play their own moves."
                    )
                action_type = cmd["action"].get("type")
                if action_type not in PROXY_ACTIONS:
                    raise CommandError(
                        "not_allowed",
                        "The host can only build or enter a material card for another seat.",
                    )
            record.update(seat=actor, action=cmd["action"], by=who.kind, salts={}, at=time.time())
        return record, extra

    def _require_lobby(self) -> None:
        if self.data.status == "playing":
            raise CommandError("game_running", "Not during a game: end it first.")

    def _require_playing(self) -> None:
        if self.data.status != "playing":
            raise CommandError("not_playing", "No game is being played.")
        if self.data.paused:
            raise CommandError("paused", "The game is paused.")

    def _seat_index(self, seat: int) -> int:
        if not 0 <= seat < len(self.data.seats):
            raise CommandError("no_such_seat", "There is no such seat.", seat=seat)
        return seat

    def _free_colour(self, wanted: str, mine: int | None = None) -> str:
        taken = {s.colour for i, s in enumerate(self.data.seats) if i != mine}
        colours = self._colours()
        if wanted:
            if wanted not in colours:
                raise CommandError("bad_colour", "There is no such colour.", colour=wanted[:16])
            if wanted in taken:
                raise CommandError("colour_taken", "That colour is taken.", colour=wanted)
            return wanted
        return next(c for c in colours if c not in taken)

    def _colours(self) -> tuple[str, ...]:
        """The seats' colours the chosen game has (a game of another kind: every colour)."""
        lobby = LOBBY_GAMES.get(self.data.game)
        return lobby.colours if lobby else tuple(COLOURS)

    # -- applying records (deterministic: also used to replay the journal) --------------------

    def _apply(self, record: dict[str, Any]) -> dict[str, Any]:
        """Apply one record to the table; raise IllegalAction before changing anything."""
        data = self.data
        kind = record["kind"]
        outcome: dict[str, Any] = {"messages": []}
        if kind == "join":
            data.seats.append(
                Seat(record["name"], record["colour"], token_hash=record["token_hash"])
            )
            if data.host is None:
                data.host = len(data.seats) - 1
        elif kind == "profile":
            seat = data.seats[record["seat"]]
            seat.name, seat.colour = record["name"], record["colour"]
        elif kind == "add_bot":
            data.seats.append(Seat(record["name"], record["colour"], kind="bot", bot=record["bot"]))
        elif kind in ("remove_seat", "kick"):
            outcome["messages"] = self._remove_seat(record["seat"])
        elif kind == "handover":
            seat = data.seats[record["seat"]]
            outcome["messages"] = self._revoke(record["seat"])
            seat.kind, seat.bot, seat.vacant = "human", None, False
            seat.token_hash = record["token_hash"]
        elif kind == "botify":
            # a bot stands in for this player while their phone is away (or stops doing so)
            data.seats[record["seat"]].bot = record["bot"]
        elif kind == "move_seat":
            outcome["messages"] = self._move_seat(record["seat"], record["to"])
        elif kind == "set_start_player":
            data.start_player = record["seat"]
        elif kind == "set_game":
            data.game = record["game"]
            self.spec = GAMES[data.game]
            for seat, colour in zip(data.seats, record.get("colours", ()), strict=False):
                seat.colour = colour
            self.state = None  # the last game's board belongs to the other game
        elif kind == "set_options":
            data.options = dict(record["options"])
        elif kind == "set_language":
            data.language = record["lang"]
        elif kind == "start":
            outcome.update(self._start(record))
        elif kind == "pause":
            data.paused = True
        elif kind == "resume":
            data.paused = False
        elif kind == "end_game":
            outcome["game_row"] = self._finish("abandoned", record["at"])
        elif kind in ("act", "table", "proxy"):
            outcome.update(self._act(record))
        else:
            raise RuntimeError(f"unknown record {kind!r}")
        data.version += 1
        if record["who"] not in ("guest", "public"):  # a guest's join has its own repeat
            seen = data.seen.setdefault(record["who"], {})
            seen[record["id"]] = {"ok": True, "version": data.version, "repeat": True}
            if "what" in record:  # what the command said, to tell a retry from a reused id
                seen[record["id"]]["what"] = record["what"]
            while len(seen) > SEEN_PER_IDENTITY:
                seen.pop(next(iter(seen)))
        self._update_contexts()
        return outcome

    def _start(self, record: dict[str, Any]) -> dict[str, Any]:
        data = self.data
        self.spec = GAMES[data.game]
        self.state = self.spec.new(record["config"], record["seed"])
        data.status, data.paused = "playing", False
        data.game_id = data.next_game_id
        data.next_game_id += 1
        data.game_actions = 0
        data.commitments, data.reveals, data.last_result = {}, [], None
        data.game_meta = {
            "id": data.game_id,
            "game": data.game,
            "config": record["config"],
            "seed": record["seed"],
            "started": record["at"],
            "seats": [s.public() for s in data.seats],
        }
        return {"game_row": {**data.game_meta, "status": "playing"}}

    def _act(self, record: dict[str, Any]) -> dict[str, Any]:
        data = self.data
        seat = record["seat"]
        self.state.apply(seat, record["action"])  # raises IllegalAction, changing nothing
        data.game_actions += 1
        actor = seat if record["kind"] != "table" else None
        reveals = fingerprints.update(
            data.commitments, self.spec.commitments(self.state), actor, record["salts"]
        )
        if reveals:  # the table's own step (the reveal) shows everyone's choices at once
            data.reveals = keep_reveals(data.reveals, reveals, together=actor is None)
        assert data.game_id is not None
        outcome: dict[str, Any] = {
            "game_action": (data.game_id, data.game_actions, seat, record["action"]),
        }
        if self.state.is_over():
            outcome["game_row"] = self._finish("finished", record["at"])
        return outcome

    def _finish(self, status: str, at: float) -> dict[str, Any]:
        data = self.data
        result = {
            "scores": self.state.scores() if status == "finished" else self._public_scores(),
            "winners": self.state.winners() if status == "finished" else [],
            "seats": [s.public() for s in data.seats],
            "status": status,
            "game": data.game,  # the pages draw the score in this game's words
        }
        data.status, data.paused = "over", False
        data.last_result = result
        data.commitments = {}
        assert data.game_meta is not None
        return {**data.game_meta, "finished": at, "status": status, "result": result}

    def _public_scores(self) -> list[Any] | None:
        """The scores of a game ended early, as far as everyone may know them: what the public
        view shows (a game with hidden points, like Vikings on Board's chests, shows none)."""
        public = self.spec.view(self.state, None)["public"]
        seats = public.get("seats")
        if (
            isinstance(seats, list)
            and seats
            and all(isinstance(s, dict) and isinstance(s.get("score"), dict) for s in seats)
        ):
            return [s["score"] for s in seats]
        return None

    def _remove_seat(self, index: int) -> list[Outgoing]:
        data = self.data
        messages = self._revoke(index)
        if data.status == "playing":
            data.seats[index].vacant = True  # the game keeps its seat; the host can hand it on
            return messages
        del data.seats[index]
        if data.host is not None and data.host > index:
            data.host -= 1
        if data.start_player >= index and data.start_player > 0:
            data.start_player -= 1
        self.state = None  # a finished game's board no longer matches the seats
        return messages + self._renumber(lambda s: s if s < index else s - 1, skip=index)

    def _move_seat(self, index: int, to: int) -> list[Outgoing]:
        data = self.data
        order = list(range(len(data.seats)))
        order.insert(to, order.pop(index))
        data.seats = [data.seats[i] for i in order]
        where = {old: new for new, old in enumerate(order)}
        if data.host is not None:
            data.host = where[data.host]
        data.start_player = where[data.start_player]
        self.state = None
        return self._renumber(lambda s: where[s])

    def _renumber(self, new_index: Callable[[int], int], skip: int | None = None) -> list[Outgoing]:
        """Follow seats that moved: open connections, their rooms and remembered command ids."""
        out = []
        for sid, who in list(self.connections.items()):
            if who.kind == "seat" and who.seat is not None and who.seat != skip:
                seat = new_index(who.seat)
                if seat != who.seat:
                    self.connections[sid] = Identity("seat", seat, sid)
                    out.append(Outgoing("leave", sid, payload=f"seat:{who.seat}"))
                    out.append(Outgoing("join", sid, payload=f"seat:{seat}"))
        seen = {}
        for key, ids in self.data.seen.items():
            kind, _, number = key.partition(":")
            if kind in ("seat", "bot"):
                old = int(number)
                if old == skip:
                    continue
                key = f"{kind}:{new_index(old)}"
            seen[key] = ids
        self.data.seen = seen
        return out

    def _revoke(self, index: int) -> list[Outgoing]:
        """Stop the seat's token working and send its phone away."""
        self.data.seats[index].token_hash = None
        out = []
        for sid, who in list(self.connections.items()):
            if who.kind == "seat" and who.seat == index:
                out.append(
                    Outgoing(
                        "emit",
                        sid,
                        "revoked",
                        _error(
                            "revoked", "This seat was given to someone else or removed by the host."
                        ),
                    )
                )
                out.append(Outgoing("disconnect", sid))
                del self.connections[sid]
        self.data.seen.pop(f"seat:{index}", None)
        return out

    def _persist(self, record: dict[str, Any], outcome: dict[str, Any]) -> None:
        version = self.data.version
        snapshot = None
        if version % self.settings.snapshot_every == 0 or "game_row" in outcome:
            snapshot = self.snapshot()
        self.store.append(
            version,
            record,
            snapshot=snapshot,
            game_action=outcome.get("game_action"),
            game_row=outcome.get("game_row"),
        )

    def _reload(self, connections: dict[str, Identity], error: IllegalAction) -> dict[str, Any]:
        """Go back to the table as stored, with the connections as they were before a command
        that failed half-way or could not be written; return the refusal to send."""
        self.data = Snapshot(code="")
        self.state = None
        self._views_version = -1
        self._restore()
        self.connections = connections
        return {"ok": False, "error": error.to_dict(), "version": self.data.version}

    # -- what each reader may see ------------------------------------------------------------

    def _present(self) -> set[int]:
        return {
            w.seat for w in self.connections.values() if w.kind == "seat" and w.seat is not None
        }

    def public_table(self) -> dict[str, Any]:
        """The lobby and table facts everyone may see."""
        data = self.data
        present = self._present()
        seats = []
        for i, seat in enumerate(data.seats):
            seats.append(
                {
                    "seat": i,
                    **seat.public(),
                    "host": i == data.host,
                    "connected": seat.kind == "bot" or i in present,
                    # since when (server's wall clock) no phone holds this human seat
                    "away_since": None
                    if seat.kind == "bot" or i in present
                    else self.away.get(i, self.started),
                }
            )
        return {
            "code": data.code,
            "now": time.time(),  # the server's wall clock, to count how long a phone is away
            "join_url": self.join_url,
            "game": data.game,
            "games": list(LOBBY_GAMES),
            "lobby_games": {
                name: {
                    "min_players": GAMES[name].min_players,
                    "max_players": GAMES[name].max_players,
                    "minutes": list(lobby.minutes),
                    "bots": [b for b in BOT_KINDS if b in GAMES[name].bots],
                    "options": list(lobby.options),
                }
                for name, lobby in LOBBY_GAMES.items()
            },
            "status": data.status,
            "paused": data.paused,
            "options": dict(data.options),
            "seats": seats,
            "host": data.host,
            "start_player": data.start_player,
            "min_players": self.spec.min_players,
            "max_players": self.spec.max_players,
            "colours": {c: COLOURS[c] for c in self._colours()},
            "game_id": data.game_id,
            "fingerprints": {
                seat: entry["hash"][: fingerprints.SHORT]
                for seat, entry in data.commitments.items()
            },
            "reveals": [{k: v for k, v in r.items()} for r in data.reveals],
            "result": data.last_result,
            "hardware": dict(self.hardware),
            "hotspot": self.hotspot,
            "notices": list(self.notices.values()),
            "language": data.language,
        }

    def game_view(self, seat: int | None) -> Any:
        """``spec.view`` of the current state for one reader, computed once per version."""
        if self.state is None:
            return None
        if self._views_version != self.data.version:
            self._views = {}
            self._views_version = self.data.version
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.spec.view(self.state, seat)
        return view

    def message_for(self, seat: int | None, table: dict[str, Any] | None = None) -> dict[str, Any]:
        """The full picture for one reader: the table's public facts and their view of the game."""
        game = self.game_view(seat)
        you = None
        if seat is not None:
            you = {"seat": seat, "host": seat == self.data.host}
        return {
            "seq": self.seq,
            "version": self.data.version,
            "steps": None if self.state is None else self.state.version,
            "table": self.public_table() if table is None else table,
            "you": you,
            "game": game,
        }

    def _update_contexts(self) -> None:
        """Note, per sender, the version at which what they could decide last changed."""
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
        digests = {"lobby": _digest(lobby)}
        if self.state is not None and data.status == "playing":
            digests["table"] = _digest([data.paused, self.state.legal_actions(None)])
            for seat in range(len(data.seats)):
                seen = self.game_view(seat)
                digests[f"seat:{seat}"] = _digest([data.paused, seen["legal"], seen["private"]])
        for key, value in digests.items():
            if data.digests.get(key) != value:
                data.digests[key] = value
                data.contexts[key] = data.version

    # -- connections -------------------------------------------------------------------------

    def connect(self, sid: str, auth: object) -> Identity:
        """Check a new connection's credentials; return who it is. Call :meth:`welcome` next."""
        with self.lock:
            auth = auth if isinstance(auth, dict) else {}
            token = auth.get("token")
            if isinstance(token, str) and token:
                hashed = hash_token(token)
                for index, seat in enumerate(self.data.seats):
                    if seat.token_hash is not None and secrets.compare_digest(
                        seat.token_hash, hashed
                    ):
                        return Identity("seat", index, sid)
                log.warning("refused a connection with an unknown or revoked token")
                raise CommandError(
                    "bad_token", "This phone's seat is no longer valid: join the table again."
                )
            code = auth.get("code")
            if isinstance(code, str) and code:
                if not secrets.compare_digest(code.encode(), self.data.code.encode()):
                    raise CommandError("bad_code", "That is not this table's code.")
                return Identity("guest", None, sid)
            return Identity("public", None, sid)

    def welcome(self, who: Identity) -> list[Outgoing]:
        """Seat a checked connection: its room, its snapshot, and a replaced phone sent away."""
        with self.lock:
            out: list[Outgoing] = []
            assert who.sid is not None
            if who.kind == "seat":
                for sid, other in list(self.connections.items()):
                    if other.kind == "seat" and other.seat == who.seat:
                        out.append(
                            Outgoing(
                                "emit",
                                sid,
                                "replaced",
                                _error("replaced", "This seat was opened on another phone or tab."),
                            )
                        )
                        out.append(Outgoing("disconnect", sid))
                        del self.connections[sid]
            self.connections[who.sid] = who
            room = f"seat:{who.seat}" if who.kind == "seat" else "public"
            out.append(Outgoing("join", who.sid, payload=room))
            out.append(Outgoing("emit", who.sid, "snapshot", self.message_for(who.seat)))
            if who.kind == "seat":  # everyone sees the seat come back
                out.extend(self._updates())
            return out

    def _seat_guest(self, sid: str, seat: int) -> list[Outgoing]:
        """Move a guest who just joined into their seat's private room."""
        self.connections[sid] = Identity("seat", seat, sid)
        return [
            Outgoing("leave", sid, payload="public"),
            Outgoing("join", sid, payload=f"seat:{seat}"),
        ]

    def disconnect(self, sid: str) -> None:
        with self.lock:
            who = self.connections.pop(sid, None)
            if who is not None and who.kind == "seat" and who.seat is not None:
                self.away[who.seat] = time.time()
                self._after_change([])

    def snapshot_for(self, sid: str) -> dict[str, Any]:
        with self.lock:
            who = self.connections.get(sid, Identity("public"))
            return self.message_for(who.seat if who.kind == "seat" else None)

    def identity(self, sid: str) -> Identity:
        with self.lock:
            return self.connections.get(sid, Identity("public", None, sid))

    # -- telling everyone --------------------------------------------------------------------

    def _updates(self) -> list[Outgoing]:
        """An update for every open connection: each seat its own view, the rest the public one."""
        self.seq += 1
        table = self.public_table()  # the same for everyone: built once
        out = []
        for seat in sorted(self._present()):
            out.append(Outgoing("emit", f"seat:{seat}", "update", self.message_for(seat, table)))
        out.append(Outgoing("emit", "public", "update", self.message_for(None, table)))
        return out

    def _after_change(self, messages: list[Outgoing]) -> None:
        """Send the change out. It is stored already: a failure here is logged, and a client
        that missed an update sees the gap in the numbering and asks for a snapshot."""
        try:
            out = [*messages, *self._updates()]
            if self.publisher is not None:
                self.publisher(out)
        except Exception:
            log.exception("could not send version %d to everyone", self.data.version)
        self.changed.notify_all()
        for listener in list(self.listeners):
            try:
                listener(self)
            except Exception:
                log.exception("a table listener failed")

    def notify(self, code: str, message: str, **params: Any) -> None:
        """Show a short notice on every screen (a button pressed too early, GPIO trouble)."""
        with self.lock:
            if self.publisher is not None:
                payload = {"code": code, "message": message, "params": params}
                self.publisher(
                    [
                        Outgoing("emit", "public", "notice", payload),
                        *(
                            Outgoing("emit", f"seat:{s}", "notice", payload)
                            for s in sorted(self._present())
                        ),
                    ]
                )

    def refresh(self) -> None:
        """Send everyone an update (after a change that is not a command, like GPIO status)."""
        with self.lock:
            self._after_change([])

    # -- for the buttons, the bots and /healthz ----------------------------------------------

    def press_next(self, who: Identity | None = None) -> dict[str, Any]:
        """NEXT: start when the lobby is ready, reveal when all committed, continue a round."""
        who = who or Identity("button")
        with self.lock:
            data = self.data
            cid = f"{who.kind}-{data.version}-{secrets.token_hex(4)}"
            if data.status != "playing":
                n = len(data.seats)
                if not self.spec.min_players <= n <= self.spec.max_players:
                    self.notify(
                        "next_not_ready",
                        f"{self.spec.title} needs {self.spec.min_players} to "
                        f"{self.spec.max_players} players; {n} seated.",
                        seated=n,
                        min=self.spec.min_players,
                        max=self.spec.max_players,
                    )
                    return _refused("next_not_ready", "The table is not ready to start.")
                return self.submit(who, {"type": "start", "id": cid, "version": data.version})
            if data.paused:
                self.notify("paused", "The game is paused: the host resumes it.")
                return _refused("paused", "The game is paused.")
            table_actions = self.state.legal_actions(None)
            if table_actions:
                return self.submit(
                    who,
                    {
                        "type": "table",
                        "id": cid,
                        "version": data.version,
                        "action": table_actions[0],
                    },
                )
            waiting = [data.seats[s].name for s in self.state.active_seats()]
            self.notify(
                "next_too_early",
                "Nothing to reveal or continue yet: waiting for " + ", ".join(waiting) + ".",
                phase=str(self.state.phase),
                waiting=waiting,
            )
            return _refused("next_too_early", "Not yet: some players still have to act.")

    def press_host(self, who: Identity | None = None) -> dict[str, Any]:
        """HOST: pause or resume the game."""
        who = who or Identity("button")
        with self.lock:
            data = self.data
            kind = "resume" if data.paused else "pause"
            cid = f"{who.kind}-{data.version}-{secrets.token_hex(4)}"
            return self.submit(who, {"type": kind, "id": cid, "version": data.version})

    def bot_move(self) -> tuple[int, dict[str, Any]] | None:
        """The next move a bot wants to make now (for a bot seat or a stand-in), if any."""
        with self.lock:
            data = self.data
            if data.status != "playing" or data.paused or self.state is None:
                return None
            for seat in self.state.active_seats():
                info = data.seats[seat]
                kind = info.bot  # a bot seat, or a stand-in: it plays even with the phone open
                if kind is None:
                    continue
                bot = self._bots.get(seat)
                if bot is None or bot[0] != (data.game_id, kind):
                    seed = (self.data.game_meta or {}).get("seed", 0) * 31 + seat
                    bot = ((data.game_id, kind), self.spec.bots[kind](seed))
                    self._bots[seat] = bot
                action = bot[1].choose(self.state, seat)
                if action["type"] in PROXY_ACTIONS - {"auto_build"}:
                    continue  # a bot cannot see the printed material card: the host enters it
                return seat, action
            return None

    def phase(self) -> str:
        with self.lock:
            if self.data.status == "playing" and self.state is not None:
                return "paused" if self.data.paused else str(self.state.phase)
            return self.data.status

    def health(self) -> dict[str, Any]:
        with self.lock:
            return {
                "game": self.data.game,
                "phase": self.phase(),
                "table_version": self.data.version,
            }


def _error(code: str, message: str) -> dict[str, Any]:
    return {"code": code, "message": message, "params": {}}


def _refused(code: str, message: str) -> dict[str, Any]:
    return {"ok": False, "error": _error(code, message)}


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


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]


def _what(cmd: dict[str, Any]) -> str:
    """What a command says, whatever its id and version: tells a retry from a reused id."""
    return _digest({k: v for k, v in cmd.items() if k not in ("id", "version")})


def replay_game(store: Store, game_id: int) -> Any:
    """Replay a stored game from its seed and action log; return the resulting state."""
    game = store.game(game_id)
    if game is None:
        raise KeyError(f"no game {game_id}")
    spec = GAMES[game["game"]]
    state = spec.new(game["config"], game["seed"])
    for seat, action in game["log"]:
        state.apply(seat, action)
    return state
