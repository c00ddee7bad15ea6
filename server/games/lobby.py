"""What a game tells the lobby: its seats' colours, its playing time, the options the host sets,
the data files a new game reads, and how a new game's config is made from them.

A game declares these in its own package (its ``SPEC``); the table knows no game by name. One
lobby command, ``set_option``, sets any declared option: the option checks the value's shape,
then the table builds the game's config with it and the game's own setup judges it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from .api import JSON, IllegalAction


@dataclass(frozen=True)
class Choice:
    """An option the host picks among a few values (a deck, an end mark)."""

    name: str
    values: tuple[Any, ...]
    default: Any
    refusal: str  # the sentence a value outside ``values`` is refused with (``bad_option``)
    during_game = False  # set for the next game: not while one is played

    def value(self, given: object, now: Any) -> Any:
        """The option's value once the host asked for ``given`` (it is ``now``)."""
        if given not in self.values or type(given) is not type(self.default):
            raise IllegalAction("bad_option", self.refusal, option=self.name)
        return given


@dataclass(frozen=True)
class Entries:
    """An option the table keeps entry by entry, for the table's next games (numbers the players
    entered during a game, which the host may correct). The host sets one entry at a time:
    ``{"key": ..., "value": {...}}``; an empty value takes the key's entry away."""

    name: str
    missing: tuple[str, str]  # the error for taking away an entry that is not kept: code, sentence
    default: dict[str, Any] = field(default_factory=dict)
    longest_key: int = 32
    during_game = True  # a correction during a game is kept for the next games

    def value(self, given: object, now: Any) -> dict[str, Any]:
        if (
            not isinstance(given, dict)
            or set(given) != {"key", "value"}
            or not isinstance(given["key"], str)
            or not 0 < len(given["key"]) <= self.longest_key
            or not isinstance(given["value"], dict)
        ):
            raise IllegalAction(
                "bad_option",
                f"An entry of {self.name!r} is a key and its value.",
                option=self.name,
            )
        key, entry = given["key"], given["value"]
        kept = dict(now)
        if entry:
            kept[key] = dict(entry)
        elif key in kept:
            del kept[key]
        else:
            code, sentence = self.missing
            raise IllegalAction(code, sentence, key=key)
        return kept


Option = Choice | Entries

# How a game reads a lobby record kind of an earlier Longhall, from before ``set_option`` (a store
# may hold one after its last snapshot): from the options as they stand and the record, the
# option it set and the value it gave.
EarlierOption = Callable[[Mapping[str, Any], Mapping[str, Any]], tuple[str, Any]]


@dataclass(frozen=True)
class DataFile:
    """A data file the game reads when a game starts: shipped in its package as ``shipped``, or
    the host's own copy named ``own`` in the data directory, read instead when it is there."""

    key: str  # the name the config builder finds the data under
    shipped: str
    own: str
    what: str  # how an error names it ("material deck")


class Configure(Protocol):
    """Make a new game's config: the players' number, the start player, the lobby options (each
    declared one, defaults filled in), the data files read, and the seats' colours (None: the
    game's own order)."""

    def __call__(
        self,
        players: int,
        start_player: int,
        options: Mapping[str, Any],
        data: Mapping[str, Any],
        colours: list[str] | None,
        /,
    ) -> JSON: ...


@dataclass(frozen=True)
class Lobby:
    """What the lobby knows of a game."""

    colours: tuple[str, ...]  # the seats' colours the game has
    minutes: tuple[int, int]  # the playing time, shortest and longest
    options: tuple[Option, ...] = ()
    # the host says who starts (the lobby asks and the config gets it); False: the game draws its
    # first player itself, as its rules print, and the lobby does not ask
    start_player: bool = True
    # the game's table-display module shows the options in the lobby (its ``lobbyFacts``): the
    # table display loads it there for them, and only then
    table_facts: bool = False
    # the lobby record kinds of earlier versions that set the game's options, by kind
    earlier: Mapping[str, EarlierOption] = field(default_factory=dict)

    def option(self, name: str) -> Option:
        for option in self.options:
            if option.name == name:
                return option
        raise IllegalAction("bad_option", "This game has no such option.", option=name[:32])

    def settings(self, chosen: Mapping[str, Any]) -> dict[str, Any]:
        """Each declared option's value at the table: as the host set it, else its default."""
        return {o.name: chosen.get(o.name, o.default) for o in self.options}
