"""Tally: a small fourth game that exists only in the tests, to prove a game is one package.

Two or three players take turns; each holds a secret hand of numbered stones dealt from a seeded
draw pile, plays one, and adds its number to the tally; whoever brings the tally to the goal (an
option of the lobby) wins. It is declared entirely here: its engine, its lobby (colours, playing
time, the goal), its data file (``stones.json``), its lights and beeps, and beside it its two page
modules and its catalogs, laid out as Longhall's own games are (``phone_ui/games/tally.js``,
``table_display/games/tally.js``, ``server/static/i18n/tally/``). Nothing outside this folder
names it: the tests register it (:func:`register`) as a fourth game would be, in the registry's
list and with its pages' root.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from longhall.server.games.api import JSON, Action, IllegalAction, Seat, check_config
from longhall.server.games.cues import Cues, Indicator, Light
from longhall.server.games.lobby import Choice, DataFile, Lobby
from longhall.server.games.rng import Rng
from longhall.server.games.spec import GameSpec

HERE = Path(__file__).resolve().parent
GOALS = (12, 20)


class TallyState:
    """The tally, whose turn it is, each player's secret hand, the draw pile."""

    game = "tally"

    def __init__(self, config: Mapping[str, Any], rng: Rng) -> None:
        self.players = int(config["players"])
        self.goal = int(config["goal"])
        self.rng = rng
        self.pile = [int(v) for v in config["stones"]]
        self.rng.shuffle(self.pile)
        self.hands = [[self.pile.pop() for _ in range(config["hand"])] for _ in range(self.players)]
        self.tally = 0
        self.turn = 0
        self.version = 0
        self.round = 1
        self.winner: int | None = None
        self.log: list[JSON] = []

    @property
    def phase(self) -> str:
        return "over" if self.winner is not None else "play"

    def active_seats(self) -> list[int]:
        return [] if self.winner is not None else [self.turn]

    def legal_actions(self, seat: Seat) -> list[Action]:
        if seat is None or seat not in self.active_seats():
            return []
        return [{"type": "play", "stone": v} for v in sorted(set(self.hands[seat]))]

    def apply(self, seat: Seat, action: Action) -> None:
        if self.winner is not None:
            raise IllegalAction("game_over", "The game is over.")
        if seat != self.turn:
            raise IllegalAction("not_your_turn", "It is not your turn.")
        if not isinstance(action, dict) or set(action) != {"type", "stone"}:
            raise IllegalAction("malformed", "Play one stone.")
        if action["type"] != "play" or action["stone"] not in self.hands[seat]:
            raise IllegalAction("stone_not_in_hand", "That stone is not in your hand.")
        self.hands[seat].remove(action["stone"])
        self.tally += action["stone"]
        self.log.append({"seat": seat, "stone": action["stone"], "tally": self.tally})
        if self.tally >= self.goal:
            self.winner = seat
        else:
            if self.pile:
                self.hands[seat].append(self.pile.pop())
            if not any(self.hands):  # nobody can play on: the closest to the goal wins, last
                self.winner = seat
            self.turn = (self.turn + 1) % self.players
            while not self.hands[self.turn] and self.winner is None:
                self.turn = (self.turn + 1) % self.players
            self.round += self.turn == 0
        self.version += 1

    def is_over(self) -> bool:
        return self.winner is not None

    def scores(self) -> list[JSON]:
        return [
            {"total": int(seat == self.winner), "breakdown": {"won": int(seat == self.winner)}}
            for seat in range(self.players)
        ]

    def winners(self) -> list[int]:
        return [] if self.winner is None else [self.winner]

    def to_dict(self) -> JSON:
        return {
            "players": self.players,
            "goal": self.goal,
            "rng": self.rng.state,
            "pile": list(self.pile),
            "hands": [list(h) for h in self.hands],
            "tally": self.tally,
            "turn": self.turn,
            "version": self.version,
            "round": self.round,
            "winner": self.winner,
            "log": [dict(e) for e in self.log],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TallyState:
        state = cls.__new__(cls)
        for key, value in data.items():
            setattr(state, key, value)
        state.rng = Rng(data["rng"])
        state.pile = list(data["pile"])
        state.hands = [list(h) for h in data["hands"]]
        state.log = [dict(e) for e in data["log"]]
        return state

    def clone(self) -> TallyState:
        return TallyState.from_dict(self.to_dict())


def new_game(config: Mapping[str, Any], seed: int) -> TallyState:
    check_config(config, {"players", "goal", "stones", "hand"}, "Tally", (2, 3))
    if config.get("goal") not in GOALS:
        raise IllegalAction("bad_config", "The goal is 12 or 20.", reason="goal")
    return TallyState(config, Rng.from_seed(seed, "tally"))


def configure(
    players: int,
    start_player: int,
    options: Mapping[str, Any],
    data: Mapping[str, Any],
    colours: list[str] | None,
) -> JSON:
    stones = data["stones"]
    return {"players": players, "goal": options["goal"], **stones}


def public_view(st: TallyState) -> JSON:
    return {
        "phase": st.phase,
        "round": st.round,
        "players": st.players,
        "active": st.active_seats(),
        "goal": st.goal,
        "tally": st.tally,
        "turn": st.turn,
        "seats": [{"seat": s, "stones": len(st.hands[s])} for s in range(st.players)],
        "pile": len(st.pile),
        "winner": st.winner,
        "log": st.log[-6:],
    }


def private_view(st: TallyState, seat: int) -> JSON:
    return {"hand": sorted(st.hands[seat])}


def resample_hidden(st: TallyState, seat: Seat, rnd: random.Random) -> TallyState:
    """Deal again what ``seat`` cannot see: the other hands and the pile's order."""
    copy = st.clone()
    others = [s for s in range(copy.players) if s != seat]
    pool = copy.pile + [v for s in others for v in copy.hands[s]]
    rnd.shuffle(pool)
    for s in others:
        size = len(copy.hands[s])
        copy.hands[s], pool = pool[:size], pool[size:]
    copy.pile = pool
    copy.rng = Rng(rnd.getrandbits(64))
    return copy


def lights(public: JSON) -> tuple[list[Light], Indicator]:
    seats = [Light.FAST if s in public["active"] else Light.ON for s in range(public["players"])]
    return seats, "over" if public["phase"] == "over" else "act"


def beeps(before: JSON | None, after: JSON) -> list[str]:
    return ["goal"] if after["winner"] is not None and before and before["winner"] is None else []


class FirstBot:
    """Plays the smallest stone it holds."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, state: TallyState, seat: int) -> Action:
        return state.legal_actions(seat)[0]


SPEC = GameSpec(
    name="tally",
    title="Tally",
    min_players=2,
    max_players=3,
    package=__name__,
    new=new_game,
    from_dict=TallyState.from_dict,
    public_view=public_view,
    private_view=private_view,
    bots={"greedy": FirstBot},
    lobby=Lobby(
        colours=("green", "white", "black"),
        minutes=(5, 10),
        options=(Choice("goal", GOALS, GOALS[0], "The goal is 12 or 20."),),
        table_facts=True,
    ),
    configure=configure,
    data=(DataFile("stones", "stones.json", "tally-stones.json", "stones"),),
    cues=Cues(lights, beeps, {"goal": ((0.0, 0.5),)}),
    resample_hidden=resample_hidden,
    check_invariants=lambda st: [] if st.tally >= 0 else ["a negative tally"],
)


def register() -> None:
    """Add Tally to the games this process hosts, its pages beside this module."""
    from longhall.server.games.registry import GAMES
    from longhall.server.web.pages import GAME_ROOTS

    GAMES[SPEC.name] = SPEC
    GAME_ROOTS[SPEC.name] = HERE
