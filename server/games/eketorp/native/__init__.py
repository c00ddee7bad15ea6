"""Eketorp's random play-out in whole steps, compiled: the rules of its C files, and the flat
state it plays on.

The same game as :func:`..playout.random_playout` in Python, some nine times faster: the state
goes into one flat array of integers, C plays the whole steps (drawing from each seat's SplitMix64
generator exactly what the random bot draws), and the result comes back into the state and the
generators. ``tests/games/test_native_playout.py`` compares every state after every whole step
with the full engine.

This module stays pure like every engine: compiling and loading the C is the server's adapter
(``longhall.server.compiled``), which hands a loader in through :func:`set_loader` at start-up.
Without one (no C compiler, or nothing installed it) :func:`playout` declines and the Python steps
play the same game.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import rules as R

if TYPE_CHECKING:
    from ...rng import Rng
    from ..state import EketorpState

# the compiled ``eketorp_playout(state, generators, cards, card_count, steps)``, given the
# addresses of the three arrays
Engine = Callable[[int, int, int, int, int], int]

# beside this module; compiled as one file, in this order (the layout's #defines first)
SOURCE_NAMES = ("state.c", "fights.c", "playout.c")

# -- the flat state's layout (written into the C source as #defines) ----------------------------

CARD_CAP = 54  # every combat card (R0.4)
STONE_CAP = 128  # more than every stone of the supply (R0.5)
DECK_CAP = 64
MAX_SIEGES = 18
MAX_ENTRIES = 7  # one entry per field on a material card
CARD_INTS = 1 + 4 * MAX_ENTRIES
NKEYS = 31

_SIZES = (
    ("N", 1),
    ("ROUND", 1),
    ("MAX_ROUNDS", 1),
    ("PHASE", 1),
    ("START", 1),
    ("TURN", 1),
    ("VERSION", 1),
    ("REVEALED", 1),
    ("RESULT", 1),
    ("CARD", 1),
    ("SUPPLY", 4),
    ("FIELDS", 7 * 4),
    ("DECK", 1 + DECK_CAP),
    ("CARD_GOT", MAX_ENTRIES),
    ("HOME", 6),
    ("HOSP", 6 * 3),
    ("AMULETS", 6),
    ("BOARD", NKEYS * 6),
    ("PLANS", 6 * NKEYS),
    ("COMMITTED", 6),
    ("DONE", 6),
    ("HANDS", 6 * (1 + CARD_CAP)),
    ("DISCARDS", 6 * (1 + CARD_CAP)),
    ("DRAW", 1 + CARD_CAP),
    ("GENERAL", 1 + CARD_CAP),
    ("SIEGES", 1 + MAX_SIEGES),
    ("LAST", 18),
    ("SHARE", 3 + 6),
    ("CARRY", 6 * (1 + STONE_CAP)),
    ("BESIDE", 6 * (1 + STONE_CAP)),
    ("CASTLES", 6 * R.SITES * (1 + R.STACK_MAX)),
    ("FRESH", 6 * R.SITES),
)
OFFSETS: dict[str, int] = {}
_at = 0
for _name, _size in _SIZES:
    OFFSETS[_name] = _at
    _at += _size
SIZE = _at

O_N = OFFSETS["N"]
O_ROUND = OFFSETS["ROUND"]
O_MAX_ROUNDS = OFFSETS["MAX_ROUNDS"]
O_PHASE = OFFSETS["PHASE"]
O_START = OFFSETS["START"]
O_TURN = OFFSETS["TURN"]
O_VERSION = OFFSETS["VERSION"]
O_REVEALED = OFFSETS["REVEALED"]
O_RESULT = OFFSETS["RESULT"]
O_CARD = OFFSETS["CARD"]
O_SUPPLY = OFFSETS["SUPPLY"]
O_FIELDS = OFFSETS["FIELDS"]
O_DECK = OFFSETS["DECK"]
O_CARD_GOT = OFFSETS["CARD_GOT"]
O_HOME = OFFSETS["HOME"]
O_HOSP = OFFSETS["HOSP"]
O_AMULETS = OFFSETS["AMULETS"]
O_BOARD = OFFSETS["BOARD"]
O_PLANS = OFFSETS["PLANS"]
O_COMMITTED = OFFSETS["COMMITTED"]
O_DONE = OFFSETS["DONE"]
O_HANDS = OFFSETS["HANDS"]
O_DISCARDS = OFFSETS["DISCARDS"]
O_DRAW = OFFSETS["DRAW"]
O_GENERAL = OFFSETS["GENERAL"]
O_SIEGES = OFFSETS["SIEGES"]
O_LAST = OFFSETS["LAST"]
O_SHARE = OFFSETS["SHARE"]
O_CARRY = OFFSETS["CARRY"]
O_BESIDE = OFFSETS["BESIDE"]
O_CASTLES = OFFSETS["CASTLES"]
O_FRESH = OFFSETS["FRESH"]

# the phases a play-out rests in between whole steps, by their number in state.c (P_*)
PHASES = ("planning", "reveal", "pick", "sharing", "building", "round_end", "over")
_PHASE_ID = {name: k for k, name in enumerate(PHASES)}
_STONE_ID = {stone: k for k, stone in enumerate(R.STONES)}
_FIELD_ID = {fld: k for k, fld in enumerate(R.FIELDS)}
# every place on the board by its number: fields 0-6, siege fields 7 + 3 * owner + side, castles
KEY_NAMES = (
    *R.FIELDS,
    *(R.siege_field(owner, side) for owner in range(6) for side in R.SIDES),
    *R.CASTLE_FIELDS,
)
_KEY_ID = {name: k for k, name in enumerate(KEY_NAMES)}


def defines() -> str:
    """The layout as C ``#define`` lines, written before the C source when it is compiled."""
    lines = [f"#define O_{name} {at}" for name, at in OFFSETS.items()]
    lines += [
        f"#define {name} {value}"
        for name, value in (
            ("CARD_CAP", CARD_CAP),
            ("STONE_CAP", STONE_CAP),
            ("MAX_SIEGES", MAX_SIEGES),
            ("CARD_INTS", CARD_INTS),
        )
    ]
    return "\n".join(lines) + "\n"


_loader: Callable[[], Engine | None] | None = None
_engine: Engine | None = None
_loaded = False


def set_loader(loader: Callable[[], Engine | None] | None) -> None:
    """Hand in how to get the compiled play-out (called once, at its first use); None: none."""
    global _loader, _engine, _loaded
    _loader, _engine, _loaded = loader, None, False


def engine() -> Engine | None:
    """The compiled play-out, or None (no loader handed in, or it found none)."""
    global _engine, _loaded
    if not _loaded:
        _engine = _loader() if _loader is not None else None
        _loaded = True
    return _engine


def available() -> bool:
    """Whether the compiled play-out plays here."""
    return engine() is not None


# -- the state in and out ------------------------------------------------------------------------

# the last deck flattened, with the deck itself (one tuple: threads read it in one step)
_cards_cache: tuple[Any, array[int] | None] = (None, None)


def _cards(config: dict[str, Any]) -> array[int] | None:
    """The house deck as flat integers (one block of CARD_INTS per card), kept per deck."""
    global _cards_cache
    cards = config.get("material_cards")
    cached = _cards_cache
    if cached[0] is cards:
        return cached[1]
    flat: array[int] | None = array("i")
    for card in cards or ():
        entries = card["stones"]
        if len(entries) > MAX_ENTRIES or flat is None:
            flat = None
            continue
        block = [len(entries)]
        for e in entries:
            block += [_FIELD_ID[e["field"]], _STONE_ID[e["stone"]], e["count"], e["extra"]]
        flat.extend(block + [0] * (CARD_INTS - len(block)))
    _cards_cache = (cards, flat)
    return flat


def _put_list(s: list[int], at: int, cap: int, items: list[int]) -> bool:
    if len(items) > cap:
        return False
    s[at] = len(items)
    s[at + 1 : at + 1 + len(items)] = items
    return True


def _pack(st: EketorpState) -> list[int] | None:
    """The state as the flat array the C play-out reads, or None if it plays no such state."""
    n = st.n
    phase = _PHASE_ID.get(st.phase)
    if phase is None or st.fight is not None or len(st.deck) > DECK_CAP:
        return None
    s = [0] * SIZE
    s[O_N : O_CARD + 1] = [
        n,
        st.round,
        st.max_rounds,
        phase,
        st.start,
        st.turn,
        st.version,
        st.revealed is not None,
        0,
        -1,
    ]
    supply = st.supply
    s[O_SUPPLY : O_SUPPLY + 4] = [supply[k] for k in R.STONES]
    at = O_FIELDS
    for fld in R.FIELDS:
        d = st.fields[fld]
        s[at : at + 4] = [d["grass"], d["wood"], d["clay"], d["stone"]]
        at += 4
    _put_list(s, O_DECK, DECK_CAP, st.deck)
    s[O_HOME : O_HOME + n] = st.home
    s[O_HOSP : O_HOSP + 3 * n] = [c for ward in st.hospital for c in ward]
    s[O_AMULETS : O_AMULETS + n] = st.amulets
    key_id = _KEY_ID
    for key, occ in st.board.items():
        at = O_BOARD + key_id[key] * 6
        s[at : at + n] = occ
    for seat, plan in enumerate(st.plans):
        base = O_PLANS + seat * NKEYS
        for dest, count in plan.items():
            s[base + (25 + seat if dest == "castle" else key_id[dest])] = count
    s[O_COMMITTED : O_COMMITTED + n] = st.committed
    s[O_DONE : O_DONE + n] = st.done
    ok = True
    for seat in range(n):
        ok &= _put_list(s, O_HANDS + seat * (1 + CARD_CAP), CARD_CAP, st.hands[seat])
        ok &= _put_list(s, O_DISCARDS + seat * (1 + CARD_CAP), CARD_CAP, st.discards[seat])
        carry = [_STONE_ID[x] for x in st.carry[seat]]
        ok &= _put_list(s, O_CARRY + seat * (1 + STONE_CAP), STONE_CAP, carry)
        beside = [_STONE_ID[x] for x in st.beside[seat]]
        ok &= _put_list(s, O_BESIDE + seat * (1 + STONE_CAP), STONE_CAP, beside)
        for site, stack in enumerate(st.castles[seat]):
            at = O_CASTLES + (seat * R.SITES + site) * (1 + R.STACK_MAX)
            ok &= _put_list(s, at, R.STACK_MAX, [_STONE_ID[x] for x in stack])
        s[O_FRESH + seat * R.SITES : O_FRESH + (seat + 1) * R.SITES] = st.fresh[seat]
    ok &= _put_list(s, O_DRAW, CARD_CAP, st.draw)
    ok &= _put_list(s, O_GENERAL, CARD_CAP, st.general)
    ok &= _put_list(s, O_SIEGES, MAX_SIEGES, [key_id[f] for f in st.sieges_done])
    last = st.last_fight
    if last is not None:
        hospital = [(h["seat"], R.STATIONS.index(h["station"])) for h in last["hospital"]]
        hospital += [(0, 0)] * (2 - len(hospital))
        loot = last["loot"]
        if loot is None:
            looted = [-1, -1, -1, -1]
        else:
            removed = [_STONE_ID[x] for x in loot["removed"]] + [-1, -1]
            kept = -1 if loot["kept"] is None else _STONE_ID[loot["kept"]]
            looted = [len(loot["removed"]), removed[0], removed[1], kept]
        winner = last["winner"]
        s[O_LAST : O_LAST + 18] = [
            1,
            last["kind"] == "siege",
            key_id[last["field"]],
            last["a"],
            last["b"],
            last["defended"],
            *last["cards"],
            -1 if winner is None else winner,
            len(last["hospital"]),
            *hospital[0],
            *hospital[1],
            *looted,
        ]
    share = st.share
    if share is not None:
        s[O_SHARE : O_SHARE + 3 + n] = [
            1,
            _FIELD_ID[share["field"]],
            share["turn"],
            *share["wants"],
        ]
    return s if ok else None


def _unpack(st: EketorpState, v: list[int]) -> None:
    """Write the flat array back into the state's fields."""
    n = st.n
    stones, keys = R.STONES, KEY_NAMES
    st.version, st.round = v[O_VERSION], v[O_ROUND]
    st.phase = PHASES[v[O_PHASE]]
    st.start, st.turn = v[O_START], v[O_TURN]
    st.supply = dict(zip(stones, v[O_SUPPLY : O_SUPPLY + 4], strict=True))
    st.fields = {
        fld: dict(zip(stones, v[O_FIELDS + 4 * f : O_FIELDS + 4 * f + 4], strict=True))
        for f, fld in enumerate(R.FIELDS)
    }
    st.deck = v[O_DECK + 1 : O_DECK + 1 + v[O_DECK]]
    card = v[O_CARD]
    if card == -2:
        st.card = None
    elif card >= 0:
        st.card = _card(st, card, v[O_CARD_GOT : O_CARD_GOT + MAX_ENTRIES])
    st.home = v[O_HOME : O_HOME + n]
    st.hospital = [v[O_HOSP + 3 * s : O_HOSP + 3 * s + 3] for s in range(n)]
    st.amulets = v[O_AMULETS : O_AMULETS + n]
    for key, occ in st.board.items():
        at = O_BOARD + _KEY_ID[key] * 6
        occ[:] = v[at : at + n]
    plans = []
    for seat in range(n):
        base = O_PLANS + seat * NKEYS
        plans.append({dest: v[base + key] for dest, key in _destinations(n, seat) if v[base + key]})
    st.plans = plans
    st.revealed = (
        {str(seat): dict(plan) for seat, plan in enumerate(plans)} if v[O_REVEALED] else None
    )
    st.committed = [bool(x) for x in v[O_COMMITTED : O_COMMITTED + n]]
    st.done = [bool(x) for x in v[O_DONE : O_DONE + n]]
    hands, discards, carry, beside, castles = [], [], [], [], []
    for seat in range(n):
        at = O_HANDS + seat * (1 + CARD_CAP)
        hands.append(v[at + 1 : at + 1 + v[at]])
        at = O_DISCARDS + seat * (1 + CARD_CAP)
        discards.append(v[at + 1 : at + 1 + v[at]])
        at = O_CARRY + seat * (1 + STONE_CAP)
        carry.append([stones[x] for x in v[at + 1 : at + 1 + v[at]]])
        at = O_BESIDE + seat * (1 + STONE_CAP)
        beside.append([stones[x] for x in v[at + 1 : at + 1 + v[at]]])
        castle = []
        for site in range(R.SITES):
            at = O_CASTLES + (seat * R.SITES + site) * (1 + R.STACK_MAX)
            castle.append([stones[x] for x in v[at + 1 : at + 1 + v[at]]])
        castles.append(castle)
    st.hands, st.discards, st.carry, st.beside, st.castles = hands, discards, carry, beside, castles
    st.fresh = [v[O_FRESH + s * R.SITES : O_FRESH + (s + 1) * R.SITES] for s in range(n)]
    st.draw = v[O_DRAW + 1 : O_DRAW + 1 + v[O_DRAW]]
    st.general = v[O_GENERAL + 1 : O_GENERAL + 1 + v[O_GENERAL]]
    st.sieges_done = [keys[k] for k in v[O_SIEGES + 1 : O_SIEGES + 1 + v[O_SIEGES]]]
    st.last_fight = _last_fight(v[O_LAST : O_LAST + 18]) if v[O_LAST] else None
    st.fight = None
    if v[O_SHARE]:
        st.share = {
            "field": R.FIELDS[v[O_SHARE + 1]],
            "turn": v[O_SHARE + 2],
            "wants": v[O_SHARE + 3 : O_SHARE + 3 + n],
        }
    else:
        st.share = None
    if st.phase == "over":  # as the phase's entry: why it ended, and who won (R6.4, R7.4, R8)
        if v[O_RESULT] == 1:
            full = [
                {"seat": s, "stones": st.castle_stones(s)}
                for s in range(n)
                if st.castle_stones(s) >= R.CASTLE_FULL
            ]
            st.result = {"reason": "complete", "castles": full, "round": st.round}
        else:
            st.result = {"reason": "rounds", "round": st.round}
        st.result["winners"] = st.winners()


def _card(st: EketorpState, index: int, got: list[int]) -> dict[str, Any]:
    """The material card turned, as ``materials.enter_materials`` records it."""
    card = st.config["material_cards"][index]
    five_six = st.n >= 5
    entries = []
    placed: dict[str, dict[str, int]] = {}
    short: dict[str, dict[str, int]] = {}
    for e, took in zip(card["stones"], got, strict=False):
        fld, stone = e["field"], e["stone"]
        want = e["count"] + (e["extra"] if five_six else 0)
        entries.append({"field": fld, "stone": stone, "count": want})
        if took:
            placed.setdefault(fld, {})[stone] = took
        if took < want:
            short.setdefault(fld, {})[stone] = want - took
    return {"id": card["id"], "stones": entries, "placed": placed, "short": short}


def _last_fight(v: list[int]) -> dict[str, Any]:
    """The last fight's record, as ``fights.settle`` and the loot write it."""
    _, siege, key, a, b, defended, card_a, card_b, winner, nh = v[:10]
    value_b = card_b if defended else 0
    hospital = [{"seat": v[10 + 2 * i], "station": R.STATIONS[v[11 + 2 * i]]} for i in range(nh)]
    taken, kept = v[14], v[17]
    loot = (
        None
        if taken < 0
        else {
            "removed": [R.STONES[x] for x in v[15 : 15 + taken]],
            "kept": None if kept < 0 else R.STONES[kept],
        }
    )
    return {
        "kind": "siege" if siege else "fight",
        "field": KEY_NAMES[key],
        "a": a,
        "b": b,
        "defended": bool(defended),
        "cards": [card_a, card_b],
        "values": [card_a, value_b],
        "damage": abs(card_a - value_b),
        "winner": None if winner < 0 else winner,
        "hospital": hospital,
        "loot": loot,
    }


_DESTS: dict[tuple[int, int], tuple[tuple[str, int], ...]] = {}


def _destinations(n: int, seat: int) -> tuple[tuple[str, int], ...]:
    """Where ``seat`` may plan, in the planning board's order, with each place's number."""
    out = _DESTS.get((n, seat))
    if out is None:
        out = tuple(
            (d, 25 + seat if d == "castle" else _KEY_ID[d]) for d in R.destinations(n, seat)
        )
        _DESTS[n, seat] = out
    return out


def playout(st: EketorpState, rngs: list[Rng], steps: int = -1) -> bool:
    """Play ``steps`` whole steps (all: -1) of a random play-out in C, as ``playout.step`` plays
    them; False (nothing changed) if the compiled play-out is not here or plays no such state
    (a fight under way, the physical deck's entry, an unusual deck)."""
    fn = engine()
    if fn is None or st.config.get("deck") != "house" or len(rngs) != st.n:
        return False
    if len({id(rng) for rng in rngs}) != len(rngs):  # seats sharing one generator: Python plays
        return False
    cards = _cards(st.config)
    flat = _pack(st)
    if cards is None or flat is None or not cards:
        return False
    state = array("i", flat)
    gens = array("Q", [r.state for r in rngs] + [0] * (6 - st.n) + [st.rng.state])
    done = fn(
        state.buffer_info()[0],
        gens.buffer_info()[0],
        cards.buffer_info()[0],
        len(cards) // CARD_INTS,
        steps,
    )
    if done < 0:
        return False
    _unpack(st, state.tolist())
    for rng, value in zip(rngs, gens, strict=False):
        rng.state = value
    st.rng.state = gens[6]
    return True
