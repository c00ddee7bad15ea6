"""The commands of a game being played, each prepared into a record and applied: pausing, ending
the game or the night, a seat's moves (``act``), the table's own steps (NEXT), and the host's:
taking a move back, the game's host actions, moving on past the players still deciding, playing
for an absent seat, and the history of the games kept here. Each kind is declared, with who may
send it, in :mod:`.commands`.
"""

from __future__ import annotations

import json
import time

from ..games.api import JSON
from . import players
from .connections import Identity
from .envelope import Command, CommandError
from .kinds import Apply, Desk, Prepare, Prepared, _outcome, _record, seat_index
from .state import Outcome, Record, TableState

# -- pausing, ending the game or the night ----------------------------------------------------


def _pause(paused: bool) -> Prepare:
    def prepare(desk: Desk, who: Identity, cmd: Command) -> Prepared:
        if paused and desk.live.data.paused:
            raise CommandError("already_paused", "The game is already paused.")
        if not paused and not desk.live.data.paused:
            raise CommandError("already_running", "The game is not paused.")
        return {}, {}

    return prepare


def _set_paused(paused: bool) -> Apply:
    def apply(table: TableState, record: Record) -> Outcome:
        table.data.paused = paused
        return _outcome()

    return apply


def prepare_end_game(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    return _record(at=time.time())


def apply_end_game(table: TableState, record: Record) -> Outcome:
    return _outcome(game_row=table.finish("abandoned", record["at"]))


def prepare_end_night(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    night = desk.live.data.night
    if night is None or night["ended"] is not None:
        raise CommandError("no_night", "No night to end: no game was played since the last.")
    return _record(at=time.time())


def apply_end_night(table: TableState, record: Record) -> Outcome:
    return table.end_night(record["at"])


# -- moves: a seat's, the table's, the host's -------------------------------------------------


# The most an action may take in the store. Each game declares its actions' fields and their sizes
# (``ACTION_SHAPES``) and refuses anything else; this is the table's own bound on what one command
# adds to the journal and the game's log, whatever a game declares.
MAX_ACTION_BYTES = 1024


def _action(desk: Desk, seat: int | None, who: Identity, cmd: Command) -> Prepared:
    size = len(json.dumps(cmd["action"], separators=(",", ":")))
    if size > MAX_ACTION_BYTES:
        raise CommandError(
            "too_large", "That command is too large.", size=size, most=MAX_ACTION_BYTES
        )
    return _record(seat=seat, action=cmd["action"], by=who.kind, salts={}, at=time.time())


def prepare_act(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    if who.kind == "seat" and who.seat is not None:
        seat = desk.live.data.seats[who.seat]
        if seat.kind == "human" and seat.bot is not None:
            raise CommandError("bot_standing_in", "A bot plays for you: take your seat back first.")
    return _action(desk, who.seat, who, cmd)


def still_deciding(desk: Desk) -> list[int]:
    """The seats the game still waits for: NEXT does not move on past them."""
    return desk.live.playing().active_seats()


def waiting_refusal(desk: Desk, waiting: list[int]) -> CommandError:
    names = [desk.live.data.seats[s].name for s in waiting]
    return CommandError(
        "still_deciding",
        f"Not yet: waiting for {', '.join(names)} to decide."
        " The host can move on anyway from the host sheet.",
        waiting=names,
    )


def prepare_table(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    """NEXT (a phone's, the table display's, a button's): the table's own step, never while a
    player still has something to decide (their turn, a choice offered to them)."""
    waiting = still_deciding(desk)
    if waiting:
        raise waiting_refusal(desk, waiting)
    return _action(desk, None, who, cmd)


def prepare_take_back(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    """The host takes back the game's last move, one at a time, as far back as its first: the
    game is replayed from its seed without that move. What the move did in public (its log
    events), and the choices it revealed that the game now holds secret again, are recorded so
    that every screen can say what was taken back and what had been seen."""
    live = desk.live
    if not live.moves:
        raise CommandError("nothing_to_take_back", "Nothing to take back: no move was made yet.")
    meta = live.data.game_meta
    assert meta is not None
    spec, now = live.spec, live.playing()
    before = spec.new(meta["config"], meta["seed"])
    for seat, action in live.moves[:-1]:
        before.apply(seat, action)
    step = live.moves[-1][0]
    secret_again = spec.commitments(before)
    shown = spec.commitments(now)
    revealed = sorted(s for s in secret_again if s not in shown and s != step)
    return _record(
        state=before.to_dict(),
        step=step,
        events=now.log[len(before.log) :],
        revealed=revealed,
        salts={},
        at=time.time(),
    )


def apply_take_back(table: TableState, record: Record) -> Outcome:
    return table.take_back(record)


def prepare_host_act(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    """The host acts as the table with one of the game's own host actions (a correction of what
    it keeps), in any phase; never NEXT, which waits for the players (``table``)."""
    if cmd["action"].get("type") not in desk.live.spec.host_actions:
        raise CommandError("not_allowed", "The host cannot do that in this game.")
    return _action(desk, None, who, cmd)


def prepare_move_on(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    """The host moves on although players are still deciding (after a confirmation on their
    phone): the table's step is taken, and what those players had left comes to nothing, which
    the game's log says (``moved_on``)."""
    steps = desk.live.playing().legal_actions(None)
    if not steps:
        raise CommandError(
            "nothing_to_move_on",
            "There is nothing to move on to: the game waits for a player's move.",
        )
    waiting = still_deciding(desk)
    return _record(
        seat=None, action=steps[0], by=who.kind, salts={}, at=time.time(), skipped=waiting
    )


def proxy_refused() -> CommandError:
    """The one refusal of a ``proxy`` for a seat whose phone plays it, or made against a version
    older than the seat's last change: telling them apart would show the host the version at
    which another seat's secrets last changed."""
    return CommandError(
        "proxy_refused",
        "You cannot play for that seat now: its phone may be back, or the table changed."
        " Look again and retry.",
    )


def prepare_proxy(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    actor = seat_index(desk, cmd["seat"])
    target = desk.live.data.seats[actor]
    if not (target.kind == "bot" or target.vacant or actor not in desk.present()):
        raise proxy_refused()
    if cmd["action"].get("type") not in desk.live.spec.proxy_actions:
        raise CommandError("not_allowed", "The host cannot make that move for another seat.")
    return _action(desk, actor, who, cmd)


def apply_action(table: TableState, record: Record) -> Outcome:
    return table.act(record)


def answer_history(desk: Desk, cmd: Command) -> JSON:
    """The games kept here, and the players the table remembers, for the host. A game still
    being played keeps its seed to itself: with the seed, anyone could deal every hand and the
    draw pile again."""
    games = desk.store.games()
    for game in games:
        if game["status"] == "playing":
            game.pop("seed", None)
    remembered = [
        {"player": key, "name": p["name"], "colour": p["colour"], **players.record(p)}
        for key, p in desk.live.data.players.items()
    ]
    return {"games": games, "players": remembered}
