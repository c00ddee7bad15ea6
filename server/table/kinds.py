"""What a command kind is, and what several kinds share: who may send one, what it needs, what
it is decided on, how it is prepared and applied (:class:`CommandKind`), and the checks on seats,
colours and bots. Each kind itself is declared in :mod:`.commands`, and prepared and applied by
:mod:`.lobby` or :mod:`.play`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from ..config import Settings
from ..games.api import JSON
from ..store import Store
from .connections import Identity
from .envelope import Command, CommandError
from .seats import BOT_KINDS
from .state import Outcome, Record, TableState

# Who may send a command: a guest (a phone with the table's code, not seated yet), any seated
# player, only the host, the table's buttons and timers, the Pi's own table display (the kiosk),
# or a bot playing its seat.
Sender = Literal["guest", "player", "host", "button", "kiosk", "bot"]
# What a command was decided on, so that a command made against a view that has changed since
# is refused: the lobby, the sender's own seat, the seat it names, the table's own steps; or
# nothing that can change under it (another player sitting down does not make "add a bot" stale).
Context = Literal["lobby", "own_seat", "named_seat", "table"] | None
# What the table must be doing: in the lobby (no game running), a game being played, or a game
# being played and not paused.
Needs = Literal["lobby", "game", "running"] | None


class Desk(Protocol):
    """What preparing a record may look at: the table, its settings and who is connected."""

    live: TableState
    store: Store
    settings: Settings
    join_url: str

    def present(self) -> set[int]: ...

    def check_host_number(self, number: str, seat: int) -> None: ...


Prepared = tuple[Record, JSON]  # the record's own fields, and what only the sender is told
Prepare = Callable[["Desk", Identity, Command], Prepared]
Apply = Callable[[TableState, Record], Outcome]
Answer = Callable[["Desk", Command], JSON]
# Whether a seated player who is not the host may send a host's command all the same.
OwnSeat = Callable[[Identity, Command], bool]


def _nothing(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    return {}, {}


def _no_check(cmd: Command) -> None:
    return None


@dataclass(frozen=True)
class CommandKind:
    """One kind of command, from its fields to its effect on the table."""

    name: str
    fields: Mapping[str, type]
    by: frozenset[Sender]
    needs: Needs = None
    context: Context = "lobby"
    check: Callable[[Command], None] = _no_check
    prepare: Prepare = _nothing
    apply: Apply | None = None  # None: a question, answered by ``answer`` and never recorded
    answer: Answer | None = None
    # a host's command a player may also send for their own seat (taking it back from a bot)
    own_seat: OwnSeat | None = None

    @property
    def host_only(self) -> bool:
        return "host" in self.by and "player" not in self.by


# -- checks and preparations shared by several kinds ------------------------------------------


def seat_index(desk: Desk, seat: int) -> int:
    if not 0 <= seat < len(desk.live.data.seats):
        raise CommandError("no_such_seat", "There is no such seat.", seat=seat)
    return seat


def free_colour(desk: Desk, wanted: str, mine: int | None = None) -> str:
    taken = {s.colour for i, s in enumerate(desk.live.data.seats) if i != mine}
    colours = desk.live.spec.lobby.colours
    if wanted:
        if wanted not in colours:
            raise CommandError("bad_colour", "There is no such colour.", colour=wanted[:16])
        if wanted in taken:
            raise CommandError("colour_taken", "That colour is taken.", colour=wanted)
        return wanted
    return next(c for c in colours if c not in taken)


def room_for_one_more(desk: Desk) -> None:
    spec = desk.live.spec
    if len(desk.live.data.seats) >= spec.max_players:
        raise CommandError(
            "table_full", f"The table is full ({spec.max_players} seats).", max=spec.max_players
        )


def check_bot(cmd: Command, allow_none: bool = False) -> None:
    if cmd["bot"] not in BOT_KINDS and not (allow_none and cmd["bot"] == ""):
        kinds = ", ".join(f"'{kind}'" for kind in BOT_KINDS)
        raise CommandError("unknown_bot", f"A bot is one of {kinds}.", bot=cmd["bot"][:16])


def named_seat(desk: Desk, cmd: Command) -> int:
    """The seat a command names, which must not be the host's own."""
    seat = seat_index(desk, cmd["seat"])
    if seat == desk.live.data.host:
        # the host's phone would be sent away before it could hand the seat on, and nobody
        # would be left to run the table: the host keeps their seat
        raise CommandError("cannot_remove_host", "The host keeps their seat.")
    return seat


def _record(**fields: Any) -> Prepared:
    return fields, {}


def _outcome(**fields: Any) -> Outcome:
    return Outcome(**fields)
