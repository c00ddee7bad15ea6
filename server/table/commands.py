"""Every command a client, a button or a bot may send, each declared once.

A :class:`CommandKind` says what a command takes (its fields, checked by
:func:`.envelope.check_shape`, and :attr:`~CommandKind.check` for their values), who
may send it, what the table must be doing for it (:attr:`~CommandKind.needs`), what it was decided
on (:attr:`~CommandKind.context`, for refusing stale commands), how it becomes a record
(:attr:`~CommandKind.prepare`: any randomness is drawn there, once) and how that record changes
the table (:attr:`~CommandKind.apply`: deterministic, also used to replay the stored records).
The game's own actions are declared the same way, by each game's ``Phase.handlers``.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any

from ..games.api import JSON
from ..games.registry import GAMES
from ..qr import qr_svg
from ..store import Store
from . import players
from .connections import Identity
from .envelope import LANGUAGES, Command, CommandError, check_shape, clean_name
from .gamedata import default_config
from .kinds import (
    Apply,
    CommandKind,
    Desk,
    Prepare,
    Prepared,
    Sender,
    _record,
    check_bot,
    free_colour,
    named_seat,
    room_for_one_more,
    seat_index,
)
from .players import by_phone, phone_hash
from .seats import COLOURS, Occupant, hash_token, new_player, new_token
from .state import Outcome, Record, TableState, effective_moves

# -- the lobby -------------------------------------------------------------------------------


def _check_name(cmd: Command) -> None:
    clean_name(cmd["name"])


def prepare_join(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    if desk.live.data.locked:
        raise CommandError(
            "table_locked", "The host has closed the table to new players: ask the host."
        )
    room_for_one_more(desk)
    colour = free_colour(desk, cmd["colour"])
    token = new_token()
    record = {
        "name": clean_name(cmd["name"]),
        "colour": colour,
        "token_hash": hash_token(token),
        "player": new_player(),
    }
    return record, {"token": token, "seat": len(desk.live.data.seats)}


def apply_join(table: TableState, record: Record) -> Outcome:
    data = table.data
    data.seats.append(
        Occupant(
            record["name"],
            record["colour"],
            token_hash=record["token_hash"],
            player=record.get("player", ""),
        )
    )
    if data.host is None:
        data.host = len(data.seats) - 1
    return _outcome()


def prepare_profile(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    assert who.seat is not None
    colour = (  # "" keeps the colour the seat has
        free_colour(desk, cmd["colour"], mine=who.seat)
        if cmd["colour"]
        else desk.live.data.seats[who.seat].colour
    )
    return _record(seat=who.seat, name=clean_name(cmd["name"]), colour=colour)


def apply_profile(table: TableState, record: Record) -> Outcome:
    seat = table.data.seats[record["seat"]]
    if record["colour"] != seat.colour:
        seat.colour_was = None  # a colour of their own choice
    seat.name, seat.colour = record["name"], record["colour"]
    remembered = table.data.players.get(seat.player)
    if remembered is not None:  # offered again, as the player now has it
        remembered.update(name=seat.name, colour=seat.colour)
    return _outcome()


def prepare_add_bot(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    spec = desk.live.spec
    if cmd["bot"] not in spec.bots:  # not every game has every kind of bot
        kinds = ", ".join(f"'{kind}'" for kind in spec.bots)
        raise CommandError("unknown_bot", f"{spec.title}'s bots are {kinds}.", bot=cmd["bot"][:16])
    room_for_one_more(desk)
    colour = free_colour(desk, "")
    return _record(
        bot=cmd["bot"], colour=colour, name=f"Bot {COLOURS[colour]}", player=new_player()
    )


def apply_add_bot(table: TableState, record: Record) -> Outcome:
    seat = Occupant(
        record["name"],
        record["colour"],
        kind="bot",
        bot=record["bot"],
        player=record.get("player", ""),
    )
    table.data.seats.append(seat)
    return _outcome()


def prepare_remove_seat(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    seat = named_seat(desk, cmd)
    data = desk.live.data
    if data.status == "playing" and data.seats[seat].kind == "bot":
        raise CommandError(
            "bot_in_game", "A bot plays until the game ends; end the game to remove it."
        )
    return _record(seat=seat)


def apply_remove_seat(table: TableState, record: Record) -> Outcome:
    return table.remove_seat(record["seat"])


BARRED_KEPT = 32  # phones kept out at once; the oldest is let back in first


def apply_kick(table: TableState, record: Record) -> Outcome:
    """Send a seat's phone away and keep it out (its token) until the host lets it back in."""
    seat = table.data.seats[record["seat"]]
    if seat.kind == "human" and seat.token_hash is not None:
        entry = {
            "id": seat.token_hash[:12],
            "hash": seat.token_hash,
            "name": seat.name,
            "player": seat.player,
        }
        table.data.barred = [*table.data.barred, entry][-BARRED_KEPT:]
    return table.remove_seat(record["seat"])


def is_barred(barred: list[dict[str, str]], token_hash: str) -> bool:
    """Whether the host sent away the phone that holds this token (and has not let it back)."""
    return any(secrets.compare_digest(entry["hash"], token_hash) for entry in barred)


def prepare_allow_back(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    if not any(entry["id"] == cmd["phone"] for entry in desk.live.data.barred):
        raise CommandError("no_such_phone", "No phone sent away has that id.")
    return _record(phone=cmd["phone"])


def apply_allow_back(table: TableState, record: Record) -> Outcome:
    table.data.barred = [e for e in table.data.barred if e["id"] != record["phone"]]
    return _outcome()


def apply_lock(table: TableState, record: Record) -> Outcome:
    table.data.locked = record["locked"]
    return _outcome()


def apply_reset_host(table: TableState, record: Record) -> Outcome:
    """The people at the table choose the host again: the lobby opens, and the next phone that
    enters the number the Pi's own screen shows becomes the host (:meth:`Table.open_host_claim`,
    live only)."""
    table.data.locked = False
    return _outcome(host_claim=True)


def prepare_claim_host(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    assert who.seat is not None
    desk.check_host_number(cmd["number"], who.seat)
    return _record(seat=who.seat)


def apply_claim_host(table: TableState, record: Record) -> Outcome:
    table.data.host = record["seat"]
    return _outcome(host_chosen=True)


def prepare_handover(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    seat = named_seat(desk, cmd)
    data = desk.live.data
    if data.seats[seat].kind == "bot" and data.status != "playing":
        raise CommandError("not_a_player", "Remove the bot and let the new player join instead.")
    if data.status == "playing" and str(seat) in data.commitments:
        # the new phone would show whoever holds it (the host, first) the plan or the card this
        # seat committed to and nobody has seen yet: the seat changes hands after the reveal
        raise CommandError(
            "seat_committed",
            f"{data.seats[seat].name} has committed a choice that is not revealed yet: hand the"
            " seat on after the reveal.",
            name=data.seats[seat].name,
        )
    token = new_token()
    claim = f"{desk.join_url}#claim={token}"
    extra = {"token": token, "seat": seat, "claim_url": claim, "claim_qr": qr_svg(claim)}
    return {"seat": seat, "token_hash": hash_token(token)}, extra


def apply_handover(table: TableState, record: Record) -> Outcome:
    outcome = table.revoke(record["seat"])
    seat = table.data.seats[record["seat"]]
    seat.kind, seat.bot, seat.vacant = "human", None, False
    seat.token_hash = record["token_hash"]
    return outcome


def prepare_botify(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    seat = seat_index(desk, cmd["seat"])
    if desk.live.data.seats[seat].kind != "human":
        raise CommandError("not_a_player", "That seat is a bot already.")
    return _record(seat=seat, bot=cmd["bot"] or None)


def own_seat_back(who: Identity, cmd: Command) -> bool:
    """A player takes their own seat back from the bot standing in for them."""
    return bool(cmd["seat"] == who.seat and cmd["bot"] == "")


def apply_botify(table: TableState, record: Record) -> Outcome:
    # a bot stands in for this player while their phone is away (or stops doing so)
    table.data.seats[record["seat"]].bot = record["bot"]
    return _outcome()


def prepare_move_seat(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    return _record(seat=seat_index(desk, cmd["seat"]), to=seat_index(desk, cmd["to"]))


def apply_move_seat(table: TableState, record: Record) -> Outcome:
    return table.move_seat(record["seat"], record["to"])


def prepare_start_player(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    return _record(seat=seat_index(desk, cmd["seat"]))


def apply_start_player(table: TableState, record: Record) -> Outcome:
    table.data.start_player = record["seat"]
    return _outcome()


def prepare_set_game(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    if cmd["game"] not in GAMES:
        raise CommandError(
            "unknown_game", "That game cannot be played here yet.", game=cmd["game"][:32]
        )
    spec = GAMES[cmd["game"]]
    lobby = spec.lobby
    seats = desk.live.data.seats
    if len(seats) > spec.max_players:
        raise CommandError(
            "too_many_for_game",
            f"{spec.title} is for {spec.min_players} to {spec.max_players} players and"
            f" {len(seats)} are seated: remove a seat first.",
            game=cmd["game"],
            min=spec.min_players,
            max=spec.max_players,
            seated=len(seats),
        )
    # a seat whose colour the game does not have takes one it has (the seats stay), and keeps the
    # one it had to leave, to be told so and to get it back from a game that has it, if free
    colours = [s.colour for s in seats]
    was = [s.colour_was for s in seats]
    for i, wanted in enumerate(was):
        if wanted is not None and wanted in lobby.colours:
            if wanted not in colours:
                colours[i] = wanted
            was[i] = None
    for i, colour in enumerate(colours):
        if colour not in lobby.colours:
            colours[i] = next(c for c in lobby.colours if c not in colours)
            was[i] = was[i] or colour
    return _record(game=cmd["game"], colours=colours, was=was)


def apply_set_game(table: TableState, record: Record) -> Outcome:
    data = table.data
    data.game = record["game"]
    table.spec = GAMES[record["game"]]
    for seat, colour in zip(data.seats, record.get("colours", ()), strict=False):
        seat.colour = colour
    for seat, was in zip(table.data.seats, record.get("was", ()), strict=False):
        seat.colour_was = was
    table.game = None  # the last game's board belongs to the other game
    return _outcome()


def prepare_set_option(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    """One of the game's lobby options, checked against its declaration (the option's own
    shape), then by the game itself: its config is made with the new value and judged by its
    setup, which refuses with ``bad_config`` and the reason, changing nothing."""
    data, spec = desk.live.data, desk.live.spec
    option = spec.lobby.option(cmd["option"])
    if data.status == "playing" and not option.during_game:
        raise CommandError("game_running", "Not during a game: end it first.")
    settings = spec.lobby.settings(data.options)
    value = option.value(cmd["value"], settings[option.name])
    players = min(max(len(data.seats), spec.min_players), spec.max_players)
    config = default_config(
        spec.name,
        players,
        data_dir=desk.settings.data_dir,
        options={**settings, option.name: value},
    )
    spec.new(config, 0)
    return _record(option=option.name, value=value)


def apply_set_option(table: TableState, record: Record) -> Outcome:
    table.data.options = {**table.data.options, record["option"]: record["value"]}
    return _outcome()


def _check_language(cmd: Command) -> None:
    if cmd["lang"] not in (*LANGUAGES, ""):
        raise CommandError(
            "bad_language",
            "The table display speaks English (en), Dutch (nl), French (fr) or German (de).",
            lang=cmd["lang"][:8],
        )


def apply_set_language(table: TableState, record: Record) -> Outcome:
    table.data.language = record["lang"]
    return _outcome()


# -- the game --------------------------------------------------------------------------------


def prepare_start(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    data, spec = desk.live.data, desk.live.spec
    n = len(data.seats)
    if not spec.min_players <= n <= spec.max_players:
        raise CommandError(
            "bad_players",
            f"{spec.title} needs {spec.min_players} to {spec.max_players} players; {n} seated.",
            min=spec.min_players,
            max=spec.max_players,
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
    config = default_config(
        data.game,
        n,
        start_player=min(data.start_player, n - 1),
        colours=[s.colour for s in data.seats],  # for a game that plays the seats' colours
        data_dir=desk.settings.data_dir,
        options=data.options,
    )
    seed = secrets.randbits(62) if desk.settings.seed is None else desk.settings.seed
    return _record(config=config, seed=seed + data.next_game_id - 1, at=time.time())


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


def prepare_leave(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    if who.seat == desk.live.data.host:
        raise CommandError("cannot_remove_host", "The host keeps their seat.")
    return _record(seat=who.seat)


def prepare_remember(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    return _record(seat=who.seat, phone=phone_hash(cmd["phone"]))


def apply_remember(table: TableState, record: Record) -> Outcome:
    table.remember(record["seat"], record["phone"])
    return _outcome()


def answer_recall(desk: Desk, cmd: Command) -> JSON:
    """A phone asks whether the table remembers it: its own name, colour and record only."""
    data = desk.live.data
    key = by_phone(data.players, phone_hash(cmd["phone"]))
    if key is None:
        return {"player": None}
    known = data.players[key]
    return {"player": {"name": known["name"], "colour": known["colour"], **players.record(known)}}


def prepare_forget_player(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    data = desk.live.data
    if cmd["player"] not in data.players:
        raise CommandError("no_such_player", "The table does not remember that player.")
    if any(s.player == cmd["player"] for s in data.seats):
        raise CommandError("player_seated", "That player is seated: remove their seat first.")
    return _record(player=cmd["player"])


def prepare_forget_me(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    key = by_phone(desk.live.data.players, phone_hash(cmd["phone"]))
    if key is None:
        raise CommandError("no_such_player", "The table does not remember that player.")
    return _record(player=key)


def apply_forget(table: TableState, record: Record) -> Outcome:
    return table.forget(record["player"])


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


def _outcome(**fields: Any) -> Outcome:
    return Outcome(**fields)


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
