"""Phase 4, fights and sieges (R5, D5-D8, D11).

The fight loop: starting with the start player and going clockwise, the player whose turn it is
picks one fight or siege they take part in (``pick``); both fighters may swap their hand with
amulets, the initiator first (``swap``); both choose a card in secret (``choose``); the result is
applied at once, and a winning besieger takes loot (``loot``). Classification is re-evaluated after
every single fight.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..api import Action, IllegalAction, Seat
from . import rules as R

if TYPE_CHECKING:
    from .state import EketorpState

# -- classification (R5.1-R5.5) -----------------------------------------------------------------

# every seat but one, by the number of players and that seat
_OTHERS = {
    n: tuple(tuple(o for o in range(n) if o != seat) for seat in range(n))
    for n in range(R.MIN_PLAYERS, R.MAX_PLAYERS + 1)
}


def contested_field(st: EketorpState, fld: str) -> bool:
    """A material field with vikings of several players and fewer stones than vikings (R5.3)."""
    occ = st.board[fld]
    return len(occ) - occ.count(0) >= 2 and sum(occ) > sum(st.fields[fld].values())


def fight_choices(st: EketorpState, seat: int) -> list[tuple[str, int]]:
    """Return every fight or siege ``seat`` may start now (R5.6, R5.7), in board order, as
    (field, opponent) pairs; a siege's opponent is -1 (the castle's owner defends it)."""
    board, fields = st.board, st.fields
    others = _OTHERS[st.n][seat]
    out: list[tuple[str, int]] = []
    for fld in R.FIELDS:
        occ = board[fld]
        # R5.3, as ``contested_field`` (written out: this runs after every fight)
        if occ[seat] and len(occ) - occ.count(0) >= 2 and sum(occ) > sum(fields[fld].values()):
            out += [(fld, other) for other in others if occ[other]]
    done = st.sieges_done
    for key in R.enemy_siege_fields(st.n, seat):  # R5.7: the defender never starts a siege
        occ = board[key]
        mine = occ[seat]
        if not mine:
            continue
        if sum(occ) > mine:  # R5.4: several players on a siege field fight first
            out += [(key, other) for other in others if occ[other]]
        elif key not in done:  # R5.5, R5.14: one siege per siege field
            out.append((key, -1))
    return out


def fight_options(st: EketorpState, seat: int) -> list[Action]:
    """Return every fight or siege ``seat`` may start now (R5.6, R5.7), in board order."""
    return [
        {"type": "fight", "field": fld, "opponent": other}
        if other >= 0
        else {"type": "siege", "field": fld}
        for fld, other in fight_choices(st, seat)
    ]


# -- pick -----------------------------------------------------------------------------------------


def has_fight(st: EketorpState, seat: int) -> bool:
    """Whether ``seat`` has a fight or siege to pick (the cheap form of ``fight_choices``)."""
    board = st.board
    for fld in R.FIELDS:
        if board[fld][seat] and contested_field(st, fld):
            return True
    done = st.sieges_done
    for key in R.enemy_siege_fields(st.n, seat):
        occ = board[key]
        mine = occ[seat]
        if mine and (key not in done or sum(occ) > mine):
            return True
    return False


def enter_pick(st: EketorpState) -> str | None:
    """Find the next player clockwise with a fight to pick; skip those without (R5.6)."""
    st.fight = None
    n, turn = st.n, st.turn
    for k in range(n):
        seat = (turn + k) % n
        if has_fight(st, seat):
            st.turn = seat
            return None
    return "sharing"


def actors_pick(st: EketorpState) -> list[int]:
    return [st.turn]


def legal_pick(st: EketorpState, seat: int) -> list[Action]:
    return fight_options(st, seat)


def start_fight(st: EketorpState, seat: Seat, action: Action) -> None:
    """Name a field, your viking and an opposing viking there (R5.6)."""
    assert seat is not None
    fld, other = action["field"], action["opponent"]
    if fld not in R.FIELDS:
        siege = R.parse_siege(fld)
        if siege is None or siege[0] >= st.n:
            raise IllegalAction("unknown_field", f"There is no field {fld!r}.", field=fld)
    occ = st.board[fld]
    if not occ[seat]:
        raise IllegalAction("no_viking_there", "You have no viking there.", field=fld)
    if type(other) is not int or not 0 <= other < st.n or other == seat or not occ[other]:
        raise IllegalAction(
            "no_opponent_there", "Name an opposing viking on that field.", field=fld
        )
    if fld in R.FIELDS and not contested_field(st, fld):
        raise IllegalAction(
            "no_fight_here",
            "There are enough stones for every viking there: no fight (R5.2).",
            field=fld,
        )
    _begin(st, "fight", fld, seat, other, defended=True)


def start_siege(st: EketorpState, seat: Seat, action: Action) -> None:
    """Attack a castle from the siege field where your viking stands alone (R5.5, R5.14)."""
    assert seat is not None
    fld = action["field"]
    siege = R.parse_siege(fld)
    if siege is None or siege[0] >= st.n:
        raise IllegalAction("not_a_siege_field", "That is not a siege field.", field=fld)
    owner = siege[0]
    if owner == seat:
        raise IllegalAction(
            "defender_cannot_start",
            "The defender of a castle never starts a siege (R5.7).",
            field=fld,
        )
    occ = st.board[fld]
    if not occ[seat]:
        raise IllegalAction("no_viking_there", "You have no viking there.", field=fld)
    if sum(occ) > occ[seat]:
        raise IllegalAction(
            "siege_contested",
            "Other vikings stand on that siege field: fight them first (R5.4).",
            field=fld,
        )
    if fld in st.sieges_done:
        raise IllegalAction(
            "siege_done",
            "That siege has been fought: one siege per siege field (R5.14).",
            field=fld,
        )
    defended = st.board[R.castle_field(owner)][owner] > 0  # R5.15, R5.16
    _begin(st, "siege", fld, seat, owner, defended=defended)


def _begin(st: EketorpState, kind: str, fld: str, a: int, b: int, defended: bool) -> None:
    st.fight = {
        "kind": kind,
        "field": fld,
        "a": a,
        "b": b,
        "defended": defended,
        "swapper": 0,
        "swaps": [0, 0],
        "played": [None, None],
    }
    st.record("fight", kind=kind, field=fld, a=a, b=b, defended=defended)
    st.goto("swap")


# -- swap with amulets (R5.8, D8, D11) -----------------------------------------------------------


def can_swap(st: EketorpState, seat: int) -> bool:
    """A swap costs one amulet per card in hand and needs as many cards to draw (D8)."""
    size = len(st.hands[seat])
    return 0 < size <= st.amulets[seat] and len(st.draw) + len(st.general) >= size


def _swapper(st: EketorpState) -> int:
    fight = st.fight
    assert fight is not None
    return int(fight["a"] if fight["swapper"] == 0 else fight["b"])


def enter_swap(st: EketorpState) -> str | None:
    """Ask the initiator, then the opponent, whether to swap; skip who cannot pay, and the owner
    of a castle without defender, whose card counts 0 whatever it is (R5.16): a swap would only
    cost them amulets."""
    fight = st.fight
    assert fight is not None
    while fight["swapper"] < 2:
        pointless = fight["swapper"] == 1 and fight["kind"] == "siege" and not fight["defended"]
        if can_swap(st, _swapper(st)) and not pointless:
            return None
        fight["swapper"] += 1
    return "choose"


def actors_swap(st: EketorpState) -> list[int]:
    return [_swapper(st)]


def legal_swap(st: EketorpState, seat: int) -> list[Action]:
    return [{"type": "swap"}, {"type": "keep"}]


def swap(st: EketorpState, seat: Seat, action: Action) -> None:
    """Swap your whole hand for as many cards from the draw pile, 1 amulet per card (R5.8)."""
    assert seat is not None and st.fight is not None
    size = len(st.hands[seat])
    if st.amulets[seat] < size:
        raise IllegalAction(
            "not_enough_amulets",
            f"Swapping {size} cards costs {size} amulets; you have {st.amulets[seat]} (R5.8).",
            cost=size,
            have=st.amulets[seat],
        )
    if len(st.draw) + len(st.general) < size:
        raise IllegalAction("no_cards_to_draw", "There are not enough cards to draw (D8).")
    exchange_hand(st, seat)
    st.fight["swaps"][st.fight["swapper"]] += 1
    st.goto("swap")


def exchange_hand(st: EketorpState, seat: int) -> None:
    """Pay one amulet per card and draw a new hand for the old one (R5.8, D8, D11)."""
    size = len(st.hands[seat])
    st.amulets[seat] -= size
    new = st.draw_cards(size)  # draw first: the swapped hand is not reshuffled into it (D8)
    st.general.extend(st.hands[seat])
    st.hands[seat] = sorted(new)  # D11: same hand size
    st.record("swap", seat=seat, cards=size)


def keep(st: EketorpState, seat: Seat, action: Action) -> None:
    """Keep your hand and go on to the card choice."""
    assert st.fight is not None
    st.fight["swapper"] += 1
    st.goto("swap")


# -- the secret card choice (R5.9) ---------------------------------------------------------------


def enter_choose(st: EketorpState) -> str | None:
    return None


def actors_choose(st: EketorpState) -> list[int]:
    """The fighters who have not chosen their card yet."""
    fight = st.fight
    assert fight is not None
    card_a, card_b = fight["played"]
    seats = []
    if card_a is None:
        seats.append(fight["a"])
    if card_b is None:
        seats.append(fight["b"])
    return seats


def legal_choose(st: EketorpState, seat: int) -> list[Action]:
    """The cards to choose from; a card already down can be taken back until the other is."""
    fight = st.fight
    assert fight is not None
    if seat not in (fight["a"], fight["b"]):
        return []
    if fight["played"][0 if seat == fight["a"] else 1] is not None:
        return [{"type": "take_back", "undo": True}]  # both down would have resolved the fight
    return [{"type": "play", "card": v} for v in sorted(set(st.hands[seat]))]


def take_back(st: EketorpState, seat: Seat, action: Action) -> None:
    """Take your card back into your hand while the other card is not down yet (R5.9: both are
    revealed at once, so until then the choice is still open)."""
    fight = st.fight
    assert fight is not None
    if seat is None or seat not in (fight["a"], fight["b"]):
        raise IllegalAction("not_fighting", "You are not in this fight.")
    idx = 0 if seat == fight["a"] else 1
    card = fight["played"][idx]
    if card is None:
        raise IllegalAction("no_card_down", "You have not put a card down.")
    fight["played"][idx] = None
    st.hands[seat] = sorted([*st.hands[seat], card])


def play(st: EketorpState, seat: Seat, action: Action) -> None:
    """Choose a card in secret; when both have chosen, both are revealed at once (R5.9)."""
    assert seat is not None and st.fight is not None
    card = action["card"]
    fight = st.fight
    if card not in st.hands[seat]:
        raise IllegalAction("card_not_in_hand", f"You have no {card} in your hand.", card=card)
    idx = 0 if seat == fight["a"] else 1
    st.hands[seat].remove(card)
    fight["played"][idx] = card
    if None not in fight["played"]:
        _resolve(st)


def _resolve(st: EketorpState) -> None:
    """Apply a fight's result and go on to the loot or the next pick (R5.10-R5.18, D7)."""
    fight = st.fight
    assert fight is not None
    a = fight["a"]
    card_a, card_b = fight["played"]
    siege = fight["kind"] == "siege"
    winner = settle(st, siege, fight["field"], a, fight["b"], fight["defended"], card_a, card_b)
    if siege and winner == a:
        st.goto("loot")
    else:
        st.turn = (a + 1) % st.n
        st.goto("pick")


def settle(
    st: EketorpState,
    siege: bool,
    fld: str,
    a: int,
    b: int,
    defended: bool,
    card_a: int,
    card_b: int,
    public: bool = True,
) -> int | None:
    """Apply a fight's result: hospital, card exchange, refill (R5.10-R5.16, D7); return the
    winner (None on a tie). ``public=False``: no event for the log (a thinking copy keeps none)."""
    value_b = card_b if defended else 0  # R5.16: with no defender the owner's card counts 0
    damage = abs(card_a - value_b)
    b_place = R.castle_field(b) if siege else fld
    board, wards = st.board, st.hospital
    hospital: list[dict[str, Any]] = []
    winner: int | None
    if card_a == value_b:  # R5.11, D7: both to "0", no extra step for a defender
        winner = None
        board[fld][a] -= 1
        wards[a][R.STATION_TIE] += 1
        board[b_place][b] -= 1
        wards[b][R.STATION_TIE] += 1
        hospital = [{"seat": a, "station": _TIE}, {"seat": b, "station": _TIE}]
    elif card_a > value_b:
        winner = a
        if defended:
            station = R.hospital_station(damage)
            if siege:  # R5.15: a defender who loses moves one station further at once
                station += 1
            board[b_place][b] -= 1
            wards[b][station] += 1
            hospital = [{"seat": b, "station": R.STATIONS[station]}]
    else:
        winner = b
        station = R.hospital_station(damage)
        board[fld][a] -= 1
        wards[a][station] += 1
        hospital = [{"seat": a, "station": R.STATIONS[station]}]

    # R5.12: each puts the card the opponent played on their own discard pile.
    discards, hands = st.discards, st.hands
    discards[a].append(card_b)
    discards[b].append(card_a)
    for seat in (a, b):
        if not hands[seat]:  # R5.13
            hands[seat] = sorted(discards[seat])
            discards[seat] = []
    kind = "siege" if siege else "fight"
    if siege:
        st.sieges_done.append(fld)
    st.last_fight = {
        "kind": kind,
        "field": fld,
        "a": a,
        "b": b,
        "defended": defended,
        "cards": [card_a, card_b],
        "values": [card_a, value_b],
        "damage": damage,
        "winner": winner,
        "hospital": hospital,
        "loot": None,
    }
    if not public:
        return winner
    st.record(
        "result",
        kind=kind,
        field=fld,
        a=a,
        b=b,
        cards=[card_a, card_b],
        values=[card_a, value_b],
        damage=damage,
        winner=winner,
        hospital=hospital,
    )
    return winner


_TIE = R.STATIONS[R.STATION_TIE]


# -- loot (R5.17, D6) ----------------------------------------------------------------------------


def loot_sites(st: EketorpState) -> tuple[int, int]:
    fight = st.fight
    assert fight is not None
    siege = R.parse_siege(fight["field"])
    assert siege is not None
    return R.SIDE_SITES[siege[1]]


def loot_options(st: EketorpState) -> list[Action]:
    """Every way to take one or two stones from the tops of the two touching sites within the
    damage (R5.17, D13)."""
    fight, last = st.fight, st.last_fight
    assert fight is not None and last is not None
    damage = last["damage"]
    castle = st.castles[fight["b"]]
    site_a, site_b = loot_sites(st)
    tops_b = _tops(castle[site_b - 1], site_b)
    out: list[Action] = []
    for value_a, taken_a, kinds_a in _tops(castle[site_a - 1], site_a):
        if value_a > damage:
            break
        for value_b, taken_b, kinds_b in tops_b:
            if value_a + value_b > damage or len(taken_a) + len(taken_b) > R.LOOT_MAX:
                break
            if taken_a or taken_b:
                take = [[site, level] for site, level in taken_a + taken_b]
                removed = kinds_a | kinds_b
                for stone in R.STONES:
                    if stone in removed:
                        out.append({"type": "loot", "take": take, "keep": stone})
    return out


def _tops(stack: list[str], site: int) -> list[tuple[int, list[tuple[int, int]], set[str]]]:
    """For 0, 1 or 2 stones taken from the top of a stack (D13): their value, their
    (site, level) from the top down, and their kinds."""
    tops: list[tuple[int, list[tuple[int, int]], set[str]]] = [(0, [], set())]
    for level in range(len(stack) - 1, max(len(stack) - 1 - R.LOOT_MAX, -1), -1):
        value, taken, kinds = tops[-1]
        stone = stack[level]
        tops.append((value + R.VALUE[stone], [*taken, (site, level)], kinds | {stone}))
    return tops


def can_loot(st: EketorpState) -> bool:
    """Whether a stone on top of a touching site is within the damage (the cheap form of
    ``loot_options``: with one stone that fits there is something to take)."""
    fight, last = st.fight, st.last_fight
    assert fight is not None and last is not None
    castle = st.castles[fight["b"]]
    for site in loot_sites(st):
        stack = castle[site - 1]
        if stack and R.VALUE[stack[-1]] <= last["damage"]:
            return True
    return False


def enter_loot(st: EketorpState) -> str | None:
    """Let a winning besieger loot, unless nothing can be taken within the damage."""
    if can_loot(st):
        return None
    return _after_loot(st, [], None)


def actors_loot(st: EketorpState) -> list[int]:
    assert st.fight is not None
    return [st.fight["a"]]


def legal_loot(st: EketorpState, seat: int) -> list[Action]:
    return [*loot_options(st), {"type": "skip_loot"}]


def loot(st: EketorpState, seat: Seat, action: Action) -> None:
    """Remove one or two stones from the top of the two touching sites and keep exactly one
    (R5.17, D6, D13).

    ``take`` lists the stones removed, in order, as ``[site, level]`` (level 0 is the bottom of
    the stack); each must be on top of its stack when it is removed.
    """
    fight, last = st.fight, st.last_fight
    assert fight is not None and last is not None
    take, keep_stone = action["take"], action["keep"]
    sites = loot_sites(st)
    castle = st.castles[fight["b"]]
    heights = {site: len(castle[site - 1]) for site in sites}
    removed: list[str] = []
    if not take:
        raise IllegalAction("loot_empty", "Name the stones to remove, or take nothing.")
    if len(take) > R.LOOT_MAX:
        raise IllegalAction(
            "loot_too_many",
            f"A won siege removes one or two stones, never more (D13); you named {len(take)}.",
            count=len(take),
            most=R.LOOT_MAX,
        )
    for item in take:
        if (
            not isinstance(item, list)
            or len(item) != 2
            or type(item[0]) is not int
            or type(item[1]) is not int
        ):
            raise IllegalAction("malformed", "Each stone is named as [site, level].")
        site, level = item
        if site not in sites:
            raise IllegalAction(
                "loot_wrong_site",
                f"From this siege field only sites {sites[0]} and {sites[1]} can be looted"
                " (R5.17).",
                site=site,
                sites=list(sites),
            )
        if level != heights[site] - 1:
            raise IllegalAction(
                "loot_not_on_top",
                "Stones are removed from the top of a stack, one after another (R5.17).",
                site=site,
            )
        heights[site] -= 1
        removed.append(castle[site - 1][level])
    value = sum(R.VALUE[s] for s in removed)
    if value > last["damage"]:
        raise IllegalAction(
            "loot_too_much",
            f"The stones removed are worth {value}; the damage allows {last['damage']} (R5.17).",
            value=value,
            damage=last["damage"],
        )
    if keep_stone not in removed:
        raise IllegalAction(
            "loot_keep_missing", "Keep one of the stones you removed (R5.17).", stone=keep_stone
        )
    for site in sites:
        del castle[site - 1][heights[site] :]
    st.goto(_after_loot(st, removed, keep_stone))


def skip_loot(st: EketorpState, seat: Seat, action: Action) -> None:
    """Remove nothing (D6)."""
    st.goto(_after_loot(st, [], None))


def _after_loot(st: EketorpState, removed: list[str], kept: str | None) -> str:
    fight, last = st.fight, st.last_fight
    assert fight is not None and last is not None
    besieger = fight["a"]
    if kept is not None:
        st.carry[besieger].append(kept)
        back = list(removed)
        back.remove(kept)
        for stone in back:
            st.supply[stone] += 1
    last["loot"] = {"removed": removed, "kept": kept}
    st.record("loot", seat=besieger, owner=fight["b"], removed=removed, kept=kept)
    st.turn = (besieger + 1) % st.n
    return "pick"
