"""Setting up a game of Eketorp (R1) from a config and a seed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..api import IllegalAction, check_config
from ..rng import Rng
from . import rules as R
from .state import EketorpState

DECK_MODES = ("house", "physical")


def normalise_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """Check a game config and return it complete, or raise ``bad_config``.

    ``players`` (3-6), ``start_player`` (the oldest player, R1.4/D12; default seat 0),
    ``deck``: ``"house"`` (the app deals the material cards from ``material_cards``, D1) or
    ``"physical"`` (the start player draws a printed card and enters it on their phone).
    """
    known = {"players", "start_player", "deck", "material_cards"}
    n = check_config(config, known, "Eketorp", (R.MIN_PLAYERS, R.MAX_PLAYERS), "R0.1")
    start = config.get("start_player", 0)
    if type(start) is not int or not 0 <= start < n:
        raise IllegalAction("bad_config", "The start player must be one of the seats.")
    mode = config.get("deck", "house")
    if mode not in DECK_MODES:
        raise IllegalAction("bad_config", "The material deck is either 'house' or 'physical'.")
    cards: list[dict[str, Any]] = []
    if mode == "house":
        if "material_cards" not in config:
            raise IllegalAction("bad_config", "A house deck needs its material cards.")
        cards = R.validate_material_cards(config["material_cards"])
    return {"players": n, "start_player": start, "deck": mode, "material_cards": cards}


def configure(
    players: int,
    start_player: int,
    options: Mapping[str, Any],
    data: Mapping[str, Any],
    colours: list[str] | None,
) -> dict[str, Any]:
    """A new game's config from the lobby: the material deck the host chose, and for the house
    deck its cards (D1), from the data file ``material_cards``."""
    config: dict[str, Any] = {
        "players": players,
        "start_player": start_player,
        "deck": options["deck"],
    }
    if options["deck"] == "house":
        deck = data["material_cards"]
        config["material_cards"] = deck["cards"] if isinstance(deck, dict) else deck
    return config


def setup(config: Mapping[str, Any], seed: int) -> EketorpState:
    """Return a new game, ready for the first round's materials (R1)."""
    cfg = normalise_config(config)
    if type(seed) is not int:
        raise IllegalAction("bad_config", "The seed must be a whole number.")
    n = cfg["players"]
    st = EketorpState.__new__(EketorpState)
    st.config = cfg
    st.n = n
    st.rng = Rng.from_seed(seed, "eketorp")
    st.version = 0
    st.round = 1
    st.phase = "setup"
    st.start = cfg["start_player"]  # R1.4, D12
    st.supply = dict(R.SUPPLY)
    st.fields = {f: {s: 0 for s in R.STONES} for f in R.FIELDS}
    st.card = None
    st.card_draft = {}
    st.vikings = R.VIKINGS[n]  # R0.2
    st.home = [st.vikings] * n  # R1.5
    st.hospital = [[0, 0, 0] for _ in range(n)]
    st.board = {key: [0] * n for key in R.board_keys(n)}
    st.plans = [{} for _ in range(n)]
    st.committed = [False] * n
    st.revealed = None
    st.amulets = [R.AMULETS] * n  # R0.3
    st.turn = st.start
    st.fight = None
    st.sieges_done = []
    st.last_fight = None
    st.carry = [[] for _ in range(n)]
    st.share = None
    st.fresh = [[0] * R.SITES for _ in range(n)]
    st.done = [False] * n
    st.castles = [[[] for _ in range(R.SITES)] for _ in range(n)]
    st.beside = [[] for _ in range(n)]
    st.log = []
    st.result = None

    # R1.3: shuffle the material cards and put two away unseen.
    if cfg["deck"] == "house":
        order = list(range(len(cfg["material_cards"])))
        st.rng.shuffle(order)
        st.removed = order[: R.REMOVED_CARDS]
        st.deck = order[R.REMOVED_CARDS :]
        st.max_rounds = min(R.MAX_ROUNDS, len(st.deck))
    else:
        st.removed, st.deck = [], []
        st.max_rounds = R.MAX_ROUNDS

    _deal(st)
    st.goto("materials")
    return st


def _deal(st: EketorpState) -> None:
    """Deal 4 combat cards to each player, with the setup redeal of weak hands (R1.1, R1.2, D14)."""
    st.draw = [v for v in R.CARD_VALUES for _ in range(R.CARDS_PER_VALUE)]
    st.rng.shuffle(st.draw)
    st.general = []
    st.discards = [[] for _ in range(st.n)]
    st.hands = [sorted(st.draw_cards(R.HAND_SIZE)) for _ in range(st.n)]
    for seat in st.clockwise(st.start):
        while max(st.hands[seat]) < R.REDEAL_HIGH:
            st.record("redeal", seat=seat, cards=list(st.hands[seat]))
            # D14: the returned cards go back into the draw pile, which is shuffled at once,
            # so the same player may draw them again.
            st.draw.extend(st.hands[seat])
            st.rng.shuffle(st.draw)
            st.hands[seat] = sorted(st.draw_cards(R.HAND_SIZE))
