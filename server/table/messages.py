"""What each reader is sent: the table's public facts and that reader's view of the game.

A seat's phone gets its seat's view (its secret hand); the table display and spectators get the
public view. Views come from :meth:`.state.TableState.view`, the only way game state leaves the
engine.

A connection gets a whole message (``snapshot``) when it connects or asks; after that, each
change is sent as a ``patch``: what changed since the last message sent to its room (a seat's
room holds that seat's phone; everyone else shares the public room). Each message is built once
per room and version, and each patch once per room, whoever is in it.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..games.api import JSON
from ..games.registry import GAMES
from . import fingerprints, night, players
from .connections import Connections, Outgoing, room
from .seats import BOT_KINDS, COLOURS
from .state import TableState


class Shown(Protocol):
    """What the messages are made of."""

    live: TableState
    connections: Connections
    join_url: str
    hardware: dict[str, Any]
    hotspot: dict[str, str] | None
    notices: dict[str, dict[str, Any]]
    host_claim: Any  # the host's seat open to the table (buttons.HostClaim), or None
    started: float  # when this server started: a seat with no phone since is away since then
    away: dict[int, float]  # when each seat's last phone went away

    def clock(self) -> float: ...  # the table's clock, which the two above are on


class Messages:
    """Builds the snapshots, updates and notices of one table."""

    def __init__(self, table: Shown) -> None:
        self.table = table
        self.seq = 0  # numbers every update sent, so a client can tell it missed one
        # The last message sent to each room, with its seq: what the next patch is made against.
        self.sent: dict[str, tuple[int, JSON]] = {}
        # the night as last shown: what it was made from, the night shown, the night itself
        self._night: tuple[Any, JSON | None, Any] | None = None

    def current(self, seat: int | None) -> JSON:
        """The whole message for a reader at the current seq: the one its room last got, so
        that the next patch to the room applies to it too."""
        key = room(seat)
        last = self.sent.get(key)
        if last is not None and last[0] == self.seq:
            return last[1]
        message = self.message_for(seat)
        self.sent[key] = (self.seq, message)
        return message

    def forget(self, rooms: list[str]) -> None:
        """Rooms a connection just entered from elsewhere: it never had their last message, so
        the next update to them is whole."""
        for key in rooms:
            if key != room(None):
                self.sent.pop(key, None)

    def public_table(self, present: set[int] | None = None) -> JSON:
        """The lobby and table facts everyone may see (``present``: the seats with a phone)."""
        table = self.table
        data = table.live.data
        if present is None:
            present = table.connections.present()
        seats = [
            {
                "seat": i,
                **seat.public(),
                "host": i == data.host,
                "connected": seat.kind == "bot" or i in present,
                # since when (the table's clock) no phone holds this human seat
                "away_since": None
                if seat.kind == "bot" or i in present
                else table.away.get(i, table.started),
                # a player the table remembers: their record here (nights, games played, won)
                "record": players.record(data.players[seat.player])
                if seat.player in data.players
                else None,
            }
            for i, seat in enumerate(data.seats)
        ]
        spec = table.live.spec
        return {
            "code": data.code,
            "now": table.clock(),  # to count how long a phone is away
            "join_url": table.join_url,
            "game": data.game,
            "games": list(GAMES),
            "lobby_games": {name: lobby_facts(name) for name in GAMES},
            "status": data.status,
            "paused": data.paused,
            "locked": data.locked,  # the host closed the lobby to new players
            "barred": [{"id": b["id"], "name": b["name"]} for b in data.barred],
            # the chosen game's lobby options: as the host set them, else their defaults
            "options": spec.lobby.settings(data.options),
            "seats": seats,
            "host": data.host,
            "start_player": data.start_player,
            "min_players": spec.min_players,
            "max_players": spec.max_players,
            "colours": {c: COLOURS[c] for c in spec.lobby.colours},
            "game_id": data.game_id,
            "fingerprints": {
                seat: entry["hash"][: fingerprints.SHORT]
                for seat, entry in data.commitments.items()
            },
            "reveals": [dict(r) for r in data.reveals],
            "taken_back": data.taken_back,
            "result": data.last_result,
            "hardware": dict(table.hardware),
            "hotspot": table.hotspot,
            "notices": list(table.notices.values()),
            # the host is being chosen at the table (its number goes to the Pi's own screen only)
            "host_claim": None if table.host_claim is None else {"until": table.host_claim.until},
            "language": data.language,
            # the night so far, or the night just ended: its games, standings and facts
            "night": self.night(),
        }

    def night(self) -> JSON | None:
        """The night as every screen sees it, made again only when the night or the seats
        changed: the same object otherwise, which the patches compare at once."""
        data = self.table.live.data
        key = (id(data.night), [(s.player, s.name, s.colour, s.kind, s.bot) for s in data.seats])
        if self._night is None or self._night[0] != key or self._night[2] is not data.night:
            self._night = (key, night.shown(data.night, data.seats), data.night)
        return self._night[1]

    def message_for(self, seat: int | None, public: JSON | None = None) -> JSON:
        """The full picture for one reader: the table's public facts and their view of the game."""
        live = self.table.live
        you = None if seat is None else {"seat": seat, "host": seat == live.data.host}
        return {
            "seq": self.seq,
            "version": live.data.version,
            "steps": None if live.game is None else live.game.version,
            "table": self.public_table() if public is None else public,
            "you": you,
            "game": live.view(seat),
        }

    def updates(self) -> list[Outgoing]:
        """A patch (or a whole update, the first time) for every room with a connection: each
        seat its own view, the rest the public one."""
        self.seq += 1
        present = self.table.connections.present()
        public = self.public_table(present)  # the same for everyone: built once
        for key in [k for k in self.sent if k != room(None)]:
            if int(key.partition(":")[2]) not in present:
                del self.sent[key]  # nobody to patch: a phone that comes back gets a snapshot
        out = []
        memo: dict[Any, list[Any]] = {}  # the shared parts are compared once
        for seat in [None, *sorted(present)]:
            key = room(seat)
            message = self.message_for(seat, public)
            last = self.sent.get(key)
            self.sent[key] = (self.seq, message)
            if last is None:
                out.append(Outgoing("emit", key, "update", message))
                continue
            ops: list[Any] = []
            diff(last[1], message, [], ops, memo)
            patch = {"seq": self.seq, "base": last[0], "version": message["version"], "ops": ops}
            out.append(Outgoing("emit", key, "patch", patch))
        return out

    def notice(self, code: str, message: str, params: dict[str, Any]) -> list[Outgoing]:
        """A short notice for every screen."""
        payload = {"code": code, "message": message, "params": params}
        seats = sorted(self.table.connections.present())
        return [
            Outgoing("emit", room(None), "notice", payload),
            *(Outgoing("emit", room(s), "notice", payload) for s in seats),
        ]


# Parts of a message every room's message shares (built once per version): compared once.
SHARED = frozenset({("table",), ("game", "public")})


def lobby_facts(name: str) -> JSON:
    """What the lobby shows of game ``name``: players, minutes, bots, options."""
    game = GAMES[name]
    return {
        "min_players": game.min_players,
        "max_players": game.max_players,
        "minutes": list(game.lobby.minutes),
        "bots": [b for b in BOT_KINDS if b in game.bots],
        "options": [option.name for option in game.lobby.options],
        "table_facts": game.lobby.table_facts,
        "start_player": game.lobby.start_player,  # False: the game draws it
    }


def diff(
    old: Any, new: Any, path: list[str | int], ops: list[Any], memo: dict[Any, list[Any]]
) -> None:
    """Append to ``ops`` what turns ``old`` into ``new``: ``[path, value]`` sets, ``[path]``
    deletes (see server/static/patch.js); an array grows by setting the index after its last
    element and shrinks by deleting elements (the later ones move down): its last ones, from
    the end, or a run of them where it dropped its oldest entries. The parts
    in :data:`SHARED` are compared once per round of updates: ``memo`` keeps their ops.

    Unchanged parts are found with Python's == at C speed, which holds true equal to 1: a view
    must keep each place's JSON type from one version to the next (a flag stays a flag), as
    every game's view does (tests/web/test_patches.py replays whole games)."""
    if type(old) is dict and type(new) is dict:
        kept = 0
        for key, value in new.items():
            if key not in old:
                ops.append([[*path, key], value])
                continue
            kept += 1
            before = old[key]
            if before is value or _same(before, value):
                continue
            kind = type(value)
            if (kind is not dict and kind is not list) or kind is not type(before):
                ops.append([[*path, key], value])  # a value replaced: what diff() would say
                continue
            where = [*path, key]
            if len(where) <= 2 and tuple(where) in SHARED:
                pair = (tuple(where), id(before), id(value))
                known = memo.get(pair)
                if known is None:
                    known = memo[pair] = []
                    diff(before, value, where, known, memo)
                ops.extend(known)
            else:
                diff(before, value, where, ops, memo)
        if kept < len(old):  # some keys are gone
            ops.extend([[*path, key]] for key in old if key not in new)
    elif type(old) is list and type(new) is list:
        # the elements both start with are left alone
        start, common = 0, min(len(old), len(new))
        while start < common and _same(old[start], new[start]):
            start += 1
        shift = _shifted(old[start:], new[start:])
        if shift:  # a log that keeps its last entries: drop the oldest, add the new ones
            ops.extend([[*path, start]] for _ in range(shift))
            kept = len(old) - shift
            ops.extend([[*path, index], new[index]] for index in range(kept, len(new)))
            return
        # element by element (a log that grew gets only its new entries), unless most of a list
        # of plain values changed: then the whole list is shorter
        mine: list[Any] = []
        changed, nested = 0, False
        for index in range(start, common):
            before, after = old[index], new[index]
            if not _same(before, after):
                changed += 1
                nested = nested or type(after) in (dict, list)
                diff(before, after, [*path, index], mine, memo)
        if not nested and changed > 2 and changed * 2 > common:
            ops.append([path, new])
            return
        ops.extend(mine)
        ops.extend([[*path, index], new[index]] for index in range(len(old), len(new)))
        ops.extend([[*path, index]] for index in range(len(old) - 1, len(new) - 1, -1))
    else:
        ops.append([path, new])


def _shifted(old: list[Any], new: list[Any]) -> int:
    """How many entries ``old`` lost at its start to become the start of ``new`` (0: none)."""
    if not old or not new or _same(old[0], new[0]):
        return 0
    for shift in range(1, len(old)):
        if _same(old[shift], new[0]) and all(
            _same(a, b) for a, b in zip(old[shift:], new, strict=False)
        ):
            return shift if len(new) >= len(old) - shift else 0
    return 0


def _same(a: Any, b: Any) -> bool:
    # JSON tells true from 1 and 1.0 from 1; Python's == does not
    return a is b or (type(a) is type(b) and a == b)
