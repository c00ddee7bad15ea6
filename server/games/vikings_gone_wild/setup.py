"""Setting up a game of Vikings Gone Wild (W1) from a config and a seed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..api import IllegalAction, check_config
from ..rng import Rng
from . import rules as R
from .state import WildState
from .turn import first_missions

NUMBER_KEYS = ("defence", "points", "resource", "favour")


def configure(
    players: int,
    start_player: int,
    options: Mapping[str, Any],
    data: Mapping[str, Any],
    colours: list[str] | None,
) -> dict[str, Any]:
    """A new game's config from the lobby: the first player (W1.5), the end mark the host chose
    (0: the printed one for this many players, W9.1), the card numbers and the bonus cards' names
    the table kept from earlier games (D1, D20), the card data of the data file ``cards`` (W0),
    and the bonus cards as the start player lays them on the table (W1.3)."""
    config: dict[str, Any] = {
        "players": players,
        "first_player": start_player,
        "bonus": "table",
        "cards": data["cards"],
    }
    if options["bonus_names"]:
        config["bonus_names"] = {card: e["name"] for card, e in options["bonus_names"].items()}
    if options["end_mark"]:
        config["end_mark"] = options["end_mark"]
    if options["numbers"]:
        config["numbers"] = dict(options["numbers"])
    return config


def earlier_numbers(options: Mapping[str, Any], record: Mapping[str, Any]) -> tuple[str, Any]:
    """A card's numbers as an earlier Longhall recorded them (``set_card_numbers``): the numbers
    kept with that card's set, or taken away when empty (D1)."""
    kept = dict(options.get("numbers") or {})
    if record["numbers"]:
        kept[record["card"]] = dict(record["numbers"])
    else:
        kept.pop(record["card"], None)
    return "numbers", kept


def normalise_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """Check a game config and return it complete, or raise ``bad_config``.

    ``players`` (2-4); ``first_player`` (the seat with the first-player token, W1.5; default 0);
    ``end_mark`` (W9.1, W9.2, D19; default by the number of players); ``bonus``: ``"table"``
    (the start player says which lie on the table, W1.3), ``"random"`` (Longhall draws them, for
    games without a table) or ``"first_game"`` (the print's advice); ``bonus_names``: the
    group's names for the cards the print does not name (D20); ``cards``: the card data, from the
    house file or a group's own copy; ``numbers``: card numbers a group entered before (D1).
    """
    known = {"players", "first_player", "end_mark", "bonus", "bonus_names", "cards", "numbers"}
    n = check_config(config, known, "Vikings Gone Wild", (R.MIN_PLAYERS, R.MAX_PLAYERS), "W0.1")
    first = config.get("first_player", 0)
    if type(first) is not int or not 0 <= first < n:
        raise IllegalAction(
            "bad_config", "The first player must be one of the seats (W1.5).", reason="first_player"
        )
    mark = config.get("end_mark", R.END_MARK[n])
    if mark not in R.END_MARKS[n] or type(mark) is not int:
        marks = " or ".join(str(m) for m in R.END_MARKS[n])
        raise IllegalAction(
            "bad_config",
            f"With {n} players the end mark is {marks} points (W9.1, W9.2).",
            reason="end_mark",
        )
    bonus = config.get("bonus", "random")
    if bonus not in ("table", "random", "first_game"):
        raise IllegalAction(
            "bad_config",
            "The bonus cards are the ones on the table, drawn at random or set for a first game"
            " (W1.3).",
            reason="bonus",
        )
    if "cards" not in config:
        raise IllegalAction("bad_config", "The game needs its card data (W0).", reason="cards")
    cards = R.validate_cards(config["cards"])
    if cards["missions"]["count"] < R.MISSIONS_HELD * n:
        raise IllegalAction(
            "bad_config",
            "There are too few missions for every player's first two (W1.2).",
            reason="missions",
        )
    if bonus == "first_game" and not cards["first_game"]:
        raise IllegalAction(
            "bad_config", "The card data marks no bonus cards for a first game.", reason="bonus"
        )
    numbers = dict(cards["numbers"])
    given = config.get("numbers", {})
    if not isinstance(given, Mapping):
        raise IllegalAction("bad_config", "The card numbers must be an object.", reason="numbers")
    for card, entry in given.items():
        if not isinstance(entry, Mapping) or set(entry) != set(NUMBER_KEYS):
            raise IllegalAction(
                "bad_config", f"The numbers of {card} are not valid (D1).", reason="numbers"
            )
        try:
            R.check_numbers(card, entry["defence"], entry["points"], entry["resource"])
        except IllegalAction as exc:
            raise IllegalAction("bad_config", exc.message, reason="numbers") from None
        if type(entry["favour"]) is not bool:
            raise IllegalAction(
                "bad_config", f"The numbers of {card} are not valid (D1).", reason="numbers"
            )
        numbers[card] = dict(entry)
    cards["numbers"] = numbers
    names = config.get("bonus_names", {})
    if not isinstance(names, Mapping) or any(
        card not in cards["unnamed"] or type(name) is not str or not 0 < len(name) <= 24
        for card, name in names.items()
    ):
        raise IllegalAction(
            "bad_config",
            "The names kept for bonus cards are not valid (D20).",
            reason="bonus_names",
        )
    return {
        "players": n,
        "first_player": first,
        "end_mark": mark,
        "bonus": bonus,
        "bonus_names": dict(names),
        "cards": cards,
    }


def setup(config: Mapping[str, Any], seed: int) -> WildState:
    """Return a new game, waiting for each player's two first missions (W1)."""
    cfg = normalise_config(config)
    if type(seed) is not int:
        raise IllegalAction("bad_config", "The seed must be a whole number.")
    n = cfg["players"]
    cards = cfg["cards"]
    st = WildState.__new__(WildState)
    st.config = cfg
    st.n = n
    st.rng = rng = Rng.from_seed(seed, "vikings_gone_wild")
    st.version = 0
    st.round = 1
    st.phase = "setup"
    st.first = cfg["first_player"]
    st.current = None
    st.score = [0] * n  # W1.1
    st.points = [{} for _ in range(n)]
    st.reached = [[] for _ in range(n)]
    st.favours = [0] * n
    st.favours_left = cards["favours"]  # W1.4
    st.villages = [
        [{"kind": R.TOWN_HALL, "level": 1, "new": False, "damaged": False, "stock": 0}]
        for _ in range(n)
    ]
    st.numbers = dict(cards["numbers"])
    st.missions = [[] for _ in range(n)]
    st.done = [[] for _ in range(n)]
    st.missions_left = cards["missions"]["count"]
    st.decided = [False] * n
    st.swapped = [False] * n
    st.undead_used = [False] * n
    st.loot = [{"gold": 0, "beer": 0} for _ in range(n)]
    st.kept = [0] * n
    st.target = None
    st.successes = 0
    st.repelled = []
    st.attack = None
    st.last_attack = None
    st.last_turn = False
    st.bonus_names = dict(cfg["bonus_names"])  # D20: kept at the table from earlier games
    # W1.3: the start player says which 4 bonus cards lie on the table (``table``); without a
    # table (a simulation) Longhall draws them, or lays the first game's; the rest stay in the
    # box in a hidden order (D17)
    st.bonus, st.box = [], []
    if cfg["bonus"] != "table":
        pool = list(cards["bonuses"])
        rng.shuffle(pool)
        if cfg["bonus"] == "first_game":
            st.bonus = list(cards["first_game"])
            st.box = [b for b in pool if b not in st.bonus]
        else:
            st.bonus, st.box = pool[: R.BONUS_IN_PLAY], pool[R.BONUS_IN_PLAY :]
    st.claims = [None] * n
    st.tiebreak = None
    st.undo_stack = []
    st.log = []
    st.result = None
    st.record("setup", bonus=list(st.bonus), first=st.first, end_mark=cfg["end_mark"])
    st.goto("table_bonus" if cfg["bonus"] == "table" else first_missions(st))
    return st
