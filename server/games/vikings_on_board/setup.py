"""Setting up a game of Vikings on Board (V1) from a config and a seed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..api import IllegalAction, check_config
from ..rng import Rng
from . import rules as R
from .state import VikingsState


def configure(
    players: int,
    start_player: int,
    options: Mapping[str, Any],
    data: Mapping[str, Any],
    colours: list[str] | None,
) -> dict[str, Any]:
    """A new game's config from the lobby: each player plays the colour they sat down with
    (V0.1), with the components of the data file ``components`` (D1-D3). The turn order is drawn
    (V1.2): the start player is not the game's to use."""
    components = {k: v for k, v in data["components"].items() if k != "about"}
    config: dict[str, Any] = {"players": players, "components": components}
    if colours is not None:
        config["colours"] = list(colours)
    return config


def normalise_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """Check a game config and return it complete, or raise ``bad_config``.

    ``players`` (2-4); ``colours``: each seat's colour (default red, green, blue, yellow in seat
    order); ``components``: the barrels, hull pieces and chests (D1-D3), from the data file
    shipped with the game or a group's own copy.
    """
    known = {"players", "colours", "components"}
    n = check_config(config, known, "Vikings on Board", (R.MIN_PLAYERS, R.MAX_PLAYERS), "V0.1")
    colours = config.get("colours", list(R.COLOURS[:n]))
    if (
        not isinstance(colours, Sequence)
        or isinstance(colours, str)
        or len(colours) != n
        or any(c not in R.COLOURS for c in colours)
        or len(set(colours)) != n
    ):
        raise IllegalAction(
            "bad_config",
            f"Give each seat a different colour among {', '.join(R.COLOURS)} (V0.1).",
            reason="colours",
        )
    if "components" not in config:
        raise IllegalAction("bad_config", "The game needs its component data (D1-D3).")
    components = R.validate_components(config["components"])
    return {"players": n, "colours": list(colours), "components": components}


def setup(config: Mapping[str, Any], seed: int) -> VikingsState:
    """Return a new game, waiting for the first viking to move (V1)."""
    cfg = normalise_config(config)
    if type(seed) is not int:
        raise IllegalAction("bad_config", "The seed must be a whole number.")
    n = cfg["players"]
    st = VikingsState.__new__(VikingsState)
    st.config = cfg
    st.n = n
    st.rng = rng = Rng.from_seed(seed, "vikings_on_board")
    st.version = 0
    st.round = 1
    st.phase = "setup"
    st.colours = [R.COLOURS.index(c) for c in cfg["colours"]]
    st.owners = [None] * len(R.COLOURS)
    for seat, colour in enumerate(st.colours):
        st.owners[colour] = seat
    # V1.2: one viking of each playing colour drawn at random names the colours A, B, C, D;
    # the vikings stand on side 0 from the First player building rightwards. V1.3: the chief
    # stands on side 1.
    st.order = sorted(st.colours)
    rng.shuffle(st.order)
    st.spots = [[None] * len(R.BUILDINGS), [None] * len(R.BUILDINGS)]
    for building, letter in enumerate(R.pattern(n)):
        st.spots[0][building] = st.owners[st.order[letter]]
    st.chief = 1
    st.market = {kind: R.MARKET_START for kind in R.GOODS}  # V1.4
    # V1.5: 15 chests shuffled face down, 7 for Warehouse 1 and 8 for Warehouse 2.
    chests = [kind for kind in R.GOODS for _ in range(cfg["components"]["chests"][kind])]
    rng.shuffle(chests)
    st.piles = [chests[: R.PILE_1], chests[R.PILE_1 :]]
    st.hulls = _hulls(rng)
    st.prows = [[] for _ in range(R.DRAKKARS)]
    st.sailed = []
    st.sterns = R.STERNS
    st.stern_holder = None
    st.bonus = []
    st.barrels = [list(cfg["components"]["barrels"]) for _ in range(n)]  # V1.1, D1
    st.hands = [list(range(R.BARRELS)) for _ in range(n)]
    st.quay = [[None] * len(R.COLOURS) for _ in range(R.DRAKKARS)]
    st.won = [[] for _ in range(n)]
    st.chests = [[] for _ in range(n)]
    st.box = []
    st.step = None
    st.sailing = None
    st.log = []
    st.result = None
    st.record("setup", order=[R.COLOURS[c] for c in st.order])
    st.goto("turn")
    return st


def _hulls(rng: Rng) -> list[list[int]]:
    """Deal the 24 hull pieces, 3 per drakkar and never two of one colour in one (V1.6).

    Eight drakkars of three colours out of four: each colour is missing from exactly two of them.
    """
    missing = [c for c in range(len(R.COLOURS)) for _ in range(2)]
    rng.shuffle(missing)
    hulls: list[list[int]] = [[] for _ in range(R.DRAKKARS)]
    for colour in range(len(R.COLOURS)):
        pieces = [colour * R.HULL_PIECES + k for k in range(R.HULL_PIECES)]
        rng.shuffle(pieces)
        for d in range(R.DRAKKARS):
            if missing[d] != colour:
                hulls[d].append(pieces.pop())
    for hull in hulls:
        rng.shuffle(hull)
    return hulls
