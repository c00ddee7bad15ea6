"""The lobby's commands, each prepared into a record and applied: who sits where (joining, a
player's name and colour, bots, seats removed, moved, handed on to a new phone or to a bot, phones
sent away and let back in), the lock and the host, the game and its options, the table display's
language, the start of a game, and the players the table remembers. Each kind is declared, with
who may send it, in :mod:`.commands`.
"""

from __future__ import annotations

import secrets
import time

from ..games.api import JSON
from ..games.registry import GAMES
from ..qr import qr_svg
from . import players
from .connections import Identity
from .envelope import LANGUAGES, Command, CommandError, clean_name
from .gamedata import default_config
from .kinds import (
    Desk,
    Prepared,
    _outcome,
    _record,
    free_colour,
    named_seat,
    room_for_one_more,
    seat_index,
)
from .players import by_phone, phone_hash
from .seats import COLOURS, Occupant, hash_token, new_player, new_token
from .state import Outcome, Record, TableState

# -- the seats and the host -------------------------------------------------------------------


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


def prepare_leave(desk: Desk, who: Identity, cmd: Command) -> Prepared:
    if who.seat == desk.live.data.host:
        raise CommandError("cannot_remove_host", "The host keeps their seat.")
    return _record(seat=who.seat)


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
    enters the number the Pi's own screen shows becomes the host (:meth:`Buttons._open_host_claim`,
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


# -- the game, its options, the language ------------------------------------------------------


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


# -- the game begins --------------------------------------------------------------------------


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


# -- the players the table remembers ----------------------------------------------------------


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
