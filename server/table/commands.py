"""Every command a client, a button or a bot may send, each declared once.

A :class:`CommandKind` says what a command takes (its fields, checked by
:func:`.envelope.check_shape`, and :attr:`~CommandKind.check` for their values), who
may send it, what the table must be doing for it (:attr:`~CommandKind.needs`), what it was decided
on (:attr:`~CommandKind.context`, for refusing stale commands), how it becomes a record
(:attr:`~CommandKind.prepare`: any randomness is drawn there, once) and how that record changes
the table (:attr:`~CommandKind.apply`: deterministic, also used to replay the stored records).
The game's own actions are declared the same way, by each game's ``Phase.handlers``.

This module holds the table of kinds and what runs every command: the shape check, applying a
record, and restoring the table from the store. The kinds' preparations and effects are in
:mod:`.lobby` (the lobby, the seats and the players remembered) and :mod:`.play` (the game being
played and the host's commands in it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..games.registry import GAMES
from ..store import Store
from .envelope import Command, check_shape
from .kinds import CommandKind, Sender, _record, check_bot
from .lobby import (
    _check_language,
    _check_name,
    answer_recall,
    apply_add_bot,
    apply_allow_back,
    apply_botify,
    apply_claim_host,
    apply_forget,
    apply_handover,
    apply_join,
    apply_kick,
    apply_lock,
    apply_move_seat,
    apply_profile,
    apply_remember,
    apply_remove_seat,
    apply_reset_host,
    apply_set_game,
    apply_set_language,
    apply_set_option,
    apply_start_player,
    own_seat_back,
    prepare_add_bot,
    prepare_allow_back,
    prepare_botify,
    prepare_claim_host,
    prepare_forget_me,
    prepare_forget_player,
    prepare_handover,
    prepare_join,
    prepare_leave,
    prepare_move_seat,
    prepare_profile,
    prepare_remember,
    prepare_remove_seat,
    prepare_set_game,
    prepare_set_option,
    prepare_start,
    prepare_start_player,
)
from .play import (
    _pause,
    _set_paused,
    answer_history,
    apply_action,
    apply_end_game,
    apply_end_night,
    apply_take_back,
    prepare_act,
    prepare_end_game,
    prepare_end_night,
    prepare_host_act,
    prepare_move_on,
    prepare_proxy,
    prepare_table,
    prepare_take_back,
)
from .state import Outcome, Record, TableState, effective_moves

PLAYER: frozenset[Sender] = frozenset({"player", "host"})
HOST: frozenset[Sender] = frozenset({"host"})
HOST_OR_BUTTON: frozenset[Sender] = frozenset({"host", "button"})

KINDS: dict[str, CommandKind] = {
    kind.name: kind
    for kind in (
        CommandKind(
            "join",
            {"name": str, "colour": str},
            by=frozenset({"guest"}),
            needs="lobby",
            check=_check_name,
            prepare=prepare_join,
            apply=apply_join,
        ),
        CommandKind(
            "profile",
            {"name": str, "colour": str},
            by=PLAYER,
            needs="lobby",
            check=_check_name,
            prepare=prepare_profile,
            apply=apply_profile,
        ),
        CommandKind(
            "add_bot",
            {"bot": str},
            by=HOST,
            needs="lobby",
            context=None,
            check=check_bot,
            prepare=prepare_add_bot,
            apply=apply_add_bot,
        ),
        CommandKind(
            "remove_seat",
            {"seat": int},
            by=HOST,
            prepare=prepare_remove_seat,
            apply=apply_remove_seat,
        ),
        CommandKind("kick", {"seat": int}, by=HOST, prepare=prepare_remove_seat, apply=apply_kick),
        CommandKind(
            "lock_lobby",
            {"locked": bool},
            by=HOST,
            context=None,
            prepare=lambda desk, who, cmd: _record(locked=cmd["locked"]),
            apply=apply_lock,
        ),
        CommandKind(
            "allow_back",
            {"phone": str},
            by=HOST,
            context=None,
            prepare=prepare_allow_back,
            apply=apply_allow_back,
        ),
        CommandKind(
            "handover", {"seat": int}, by=HOST, prepare=prepare_handover, apply=apply_handover
        ),
        CommandKind(
            "reset_host",
            {},
            by=frozenset({"button", "kiosk"}),
            context=None,
            apply=apply_reset_host,
        ),
        CommandKind(
            "claim_host",
            {"number": str},
            by=PLAYER,
            context=None,
            prepare=prepare_claim_host,
            apply=apply_claim_host,
        ),
        CommandKind(
            "botify",
            {"seat": int, "bot": str},
            by=HOST,
            check=lambda cmd: check_bot(cmd, allow_none=True),
            prepare=prepare_botify,
            apply=apply_botify,
            own_seat=own_seat_back,
        ),
        CommandKind(
            "move_seat",
            {"seat": int, "to": int},
            by=HOST,
            needs="lobby",
            prepare=prepare_move_seat,
            apply=apply_move_seat,
        ),
        CommandKind(
            "set_start_player",
            {"seat": int},
            by=HOST,
            needs="lobby",
            prepare=prepare_start_player,
            apply=apply_start_player,
        ),
        CommandKind(
            "set_option",
            {"option": str, "value": object},
            by=HOST,
            context=None,
            prepare=prepare_set_option,
            apply=apply_set_option,
        ),
        CommandKind(
            "set_game",
            {"game": str},
            by=HOST,
            needs="lobby",
            prepare=prepare_set_game,
            apply=apply_set_game,
        ),
        CommandKind(
            "set_language",
            {"lang": str},
            by=HOST,
            context=None,
            check=_check_language,
            prepare=lambda desk, who, cmd: _record(lang=cmd["lang"] or None),
            apply=apply_set_language,
        ),
        CommandKind(
            "start",
            {},
            by=HOST_OR_BUTTON,
            needs="lobby",
            prepare=prepare_start,
            apply=lambda table, record: table.start(record),
        ),
        CommandKind(
            "pause",
            {},
            by=HOST_OR_BUTTON,
            needs="game",
            context=None,
            prepare=_pause(True),
            apply=_set_paused(True),
        ),
        CommandKind(
            "resume",
            {},
            by=HOST_OR_BUTTON,
            needs="game",
            context=None,
            prepare=_pause(False),
            apply=_set_paused(False),
        ),
        CommandKind(
            "end_game",
            {},
            by=HOST,
            needs="game",
            context=None,
            prepare=prepare_end_game,
            apply=apply_end_game,
        ),
        CommandKind(
            "end_night",
            {},
            by=HOST_OR_BUTTON,
            context=None,
            prepare=prepare_end_night,
            apply=apply_end_night,
        ),
        CommandKind(
            "act",
            {"action": dict},
            by=frozenset({"player", "host", "bot"}),
            needs="running",
            context="own_seat",
            prepare=prepare_act,
            apply=apply_action,
        ),
        CommandKind(
            "table",
            {"action": dict},
            by=frozenset({"player", "host", "button"}),
            needs="running",
            context="table",
            prepare=prepare_table,
            apply=apply_action,
        ),
        CommandKind(
            "host_act",
            {"action": dict},
            by=HOST,
            needs="game",
            context="table",
            prepare=prepare_host_act,
            apply=apply_action,
        ),
        CommandKind(
            "take_back",
            {},
            by=HOST,
            needs="game",
            context="table",
            prepare=prepare_take_back,
            apply=apply_take_back,
        ),
        CommandKind(
            "move_on",
            {},
            by=HOST,
            needs="running",
            context="table",
            prepare=prepare_move_on,
            apply=apply_action,
        ),
        CommandKind(
            "proxy",
            {"seat": int, "action": dict},
            by=HOST,
            needs="running",
            context="named_seat",
            prepare=prepare_proxy,
            apply=apply_action,
        ),
        CommandKind("history", {}, by=HOST, context=None, answer=answer_history),
        CommandKind(
            "leave",
            {},
            by=PLAYER,
            needs="lobby",
            context=None,
            prepare=prepare_leave,
            apply=apply_remove_seat,
        ),
        CommandKind(
            "remember",
            {"phone": str},
            by=PLAYER,
            context=None,
            prepare=prepare_remember,
            apply=apply_remember,
        ),
        CommandKind(
            "recall", {"phone": str}, by=frozenset({"guest"}), context=None, answer=answer_recall
        ),
        CommandKind(
            "forget_player",
            {"player": str},
            by=HOST,
            context=None,
            prepare=prepare_forget_player,
            apply=apply_forget,
        ),
        CommandKind(
            "forget_me",
            {"phone": str},
            by=frozenset({"guest", "player", "host"}),
            context=None,
            prepare=prepare_forget_me,
            apply=apply_forget,
        ),
    )
}

# Each kind's fields, for the shape check and the fuzz tests.
COMMANDS: dict[str, Mapping[str, type]] = {name: kind.fields for name, kind in KINDS.items()}


def check_command(payload: object) -> Command:
    """Return the command if its shape is right, else raise ``CommandError``."""
    return check_shape(payload, COMMANDS)


def apply(live: TableState, record: Record, replaying: bool = False) -> Outcome:
    """Apply one record to the table; raise IllegalAction before changing anything
    (``replaying``: a stored record, as the server starts)."""
    if record["kind"] not in KINDS:
        record = earlier_option(live, record)
    kind = KINDS.get(record["kind"])
    if kind is None or kind.apply is None:
        raise RuntimeError(f"unknown record {record['kind']!r}")
    outcome = kind.apply(live, record)
    if outcome.game_row is not None and live.data.night is not None:
        outcome.night_row = live.data.night  # a game of the night began or ended
    live.applied(record, replaying)
    return outcome


def earlier_option(live: TableState, record: Record) -> Record:
    """A lobby record of an earlier version (a store may hold one after its last snapshot), as
    ``set_option`` writes it: the game that declares its kind reads it (``Lobby.earlier``)."""
    for spec in GAMES.values():
        read = spec.lobby.earlier.get(record["kind"])
        if read is not None:
            option, value = read(live.data.options, record)
            return {**record, "kind": "set_option", "option": option, "value": value}
    return record


def restore(store: Store, new_code: Callable[[], str]) -> TableState:
    """The table as stored: the latest snapshot and the records after it."""
    snapshot, records = store.load()
    code = None
    if snapshot is None:
        code = store.get_meta("table_code")
        if code is None:
            code = new_code()
            store.set_meta("table_code", code)
    live = TableState.restored(None if snapshot is None else snapshot[1], code or "")
    for seq, record in records:
        apply(live, record, replaying=True)
        if live.data.version != seq:
            raise RuntimeError(f"the stored records are out of order at record {seq}")
    live.update_contexts()
    if live.data.status == "playing" and live.data.game_id is not None:
        stored = store.game(live.data.game_id)
        live.moves = effective_moves(stored["log"]) if stored is not None else []
    return live
