"""Conservation and bounds that hold after every action (checked by the property tests)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from . import rules as R

if TYPE_CHECKING:
    from .state import WildState


def check_invariants(st: WildState) -> list[str]:
    """Return a sentence for every broken invariant (an empty list when all hold)."""
    problems: list[str] = []
    cards = st.config["cards"]
    playing = st.phase not in ("bonus", "tiebreak", "over")
    for s in range(st.n):
        if st.score[s] != sum(st.points[s].values()) or st.score[s] < 0:
            problems.append(f"seat {s}: score {st.score[s]} is not the sum of {st.points[s]}")
        reached = st.reached[s]
        if len(set(reached)) != len(reached) or not set(reached) <= set(R.FAVOUR_SPACES):
            problems.append(f"seat {s}: favour spaces {reached}")
        if playing and set(reached) != {t for t in R.FAVOUR_SPACES if t <= st.score[s]}:
            problems.append(f"seat {s} at {st.score[s]} reached {reached} (W8.1)")
        village = st.villages[s]
        hall = village[0]
        if hall["kind"] != R.TOWN_HALL or hall["level"] not in (1, 2, 3):  # W0.3
            problems.append(f"seat {s}: building 0 is not a town hall")
        if any(b["kind"] == R.TOWN_HALL for b in village[1:]):
            problems.append(f"seat {s}: two town halls")
        kinds = Counter(b["kind"] for b in village[1:])
        if any(k not in R.BUILDING_KINDS for k in kinds) or any(
            c > R.SAME_KIND for c in kinds.values()
        ):  # W3.2
            problems.append(f"seat {s}: buildings {dict(kinds)}")
        cap = R.limit(hall["level"])
        if cap is not None and len(village) - 1 > cap:  # W3.3
            problems.append(f"seat {s}: {len(village) - 1} buildings with a level {hall['level']}")
        for b in village:
            if b["stock"] < 0 or (b["stock"] and b["kind"] not in R.RESERVE_OF):
                problems.append(f"seat {s}: a {b['kind']} holds {b['stock']}")
        if any(v < 0 for v in st.loot[s].values()):
            problems.append(f"seat {s}: loot {st.loot[s]}")
        if len(st.missions[s]) > R.MISSIONS_HELD:  # W7.4
            problems.append(f"seat {s} holds {len(st.missions[s])} missions")
    built = Counter(b["kind"] for v in st.villages for b in v[1:])
    for kind, count in built.items():
        if count > cards["buildings"][kind]:  # D10
            problems.append(f"{count} {kind} built, the box has {cards['buildings'][kind]}")
    if sum(st.favours) + st.favours_left != cards["favours"] or st.favours_left < 0:  # W0.4
        problems.append(f"favours: {st.favours} taken and {st.favours_left} left")
    missions = sum(len(m) for m in st.missions) + sum(len(d) for d in st.done) + st.missions_left
    if missions != cards["missions"]["count"] or st.missions_left < 0:  # W0.7
        problems.append(f"missions: {missions} accounted for")
    if playing and st.last_turn != any(x >= st.config["end_mark"] for x in st.score):  # W9.3
        problems.append("the last turn does not match the end mark")
    if (st.attack is not None) != (st.phase == "defend"):
        problems.append("an attack waits outside the defence")
    if (st.current is not None) != (st.phase in ("players", "defend")):
        problems.append(f"a current player in the {st.phase} phase")
    drawn = st.tiebreak["drawn"] if st.tiebreak is not None else []
    everything = sorted([*st.bonus, *st.box, *drawn])
    if st.phase == "table_bonus":  # being laid on the table (W1.3): the box is not made yet
        if len(set(st.bonus)) != len(st.bonus) or not set(st.bonus) <= set(cards["bonuses"]):
            problems.append("bonus cards laid twice or unknown")
    elif everything != sorted(cards["bonuses"]) or len(st.bonus) != R.BONUS_IN_PLAY:  # W0.5
        problems.append("bonus cards lost or doubled")
    return problems
