"""The host's corrections of what Longhall keeps for a group playing with the cards on the table.

The cards, the resources and the buildings' cards stay on the table; Longhall keeps the score
track, the divine favours, the damage and construction markers and the town halls' levels. When
what it keeps and the table disagree (a number entered wrong, a marker forgotten), the host sets
one of them right, with a short reason that the game's log shows to everyone. The game's own
consequences follow as the print has them: a score moved past a favour space earns its favour
(W8.1) and one past the end mark makes the turn the last (W9.3). The current player's undo (D15)
stops at a correction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..api import Action, IllegalAction, Seat
from . import rules as R

if TYPE_CHECKING:
    from .state import WildState

WHAT = ("score", "favours", "damage", "construction", "town_hall")
MARKERS = {"damage": "damaged", "construction": "new"}


def correct(st: WildState, seat: Seat, action: Action) -> None:
    """Set one thing the game keeps to ``value``: the host's, as the table (seat None)."""
    who, what, b, value, reason = (
        action["seat"],
        action["what"],
        action["building"],
        action["value"],
        action["reason"].strip(),
    )
    if not 0 <= who < st.n:
        raise IllegalAction("no_such_seat", "There is no such seat.")
    if what not in WHAT:
        raise IllegalAction(
            "bad_correction",
            "A correction sets a score, the favours, a damage or construction marker or a town"
            " hall's level.",
            what=what[:24],
        )
    if not reason or not reason.isprintable():
        raise IllegalAction("no_reason", "Say in a few words why (it is shown in the log).")
    if st.phase in ("bonus", "tiebreak", "over"):
        raise IllegalAction("game_over", "The game is over: its scores are final.")
    before = _now(st, who, what, b)
    if value == before:
        raise IllegalAction("no_change", "That is what the game has already.")
    if what == "score":
        if value < 0:
            raise IllegalAction("bad_correction", "A score is 0 or more.")
        _set_score(st, who, value)
    elif what == "favours":
        if not 0 <= value <= before + st.favours_left:
            raise IllegalAction(
                "bad_correction",
                f"There are {st.favours_left} favour cards left in the box (W0.4).",
                most=before + st.favours_left,
            )
        st.favours_left -= value - before
        st.favours[who] = value
    elif what == "town_hall":
        cap = R.limit(value) if value in (1, 2, 3) else None
        if value not in (1, 2, 3) or (cap is not None and len(st.villages[who]) - 1 > cap):
            raise IllegalAction(
                "bad_correction",
                "A town hall is level 1, 2 or 3, with room for the village's buildings (W3.3).",
            )
        st.town_hall(who)["level"] = value
    else:
        if value not in (0, 1):
            raise IllegalAction("bad_correction", "A marker is 1 (on) or 0 (off).")
        st.villages[who][b][MARKERS[what]] = bool(value)
    st.undo_stack = []  # the current player's undo (D15) never takes the correction back
    st.record(
        "corrected",
        seat=who,
        what=what,
        building=b,
        before=before,
        after=value,
        reason=reason,
    )


def _now(st: WildState, who: int, what: str, b: int) -> int:
    """What the game has now of the thing ``what`` names."""
    if what == "score":
        return st.score[who]
    if what == "favours":
        return st.favours[who]
    if what == "town_hall":
        return int(st.town_hall(who)["level"])
    if not 0 <= b < len(st.villages[who]):
        raise IllegalAction("not_their_building", "That player has no such building.")
    return int(st.villages[who][b][MARKERS[what]])


def _set_score(st: WildState, who: int, value: int) -> None:
    """The marker moved to ``value``: what the track's spaces give follows (W8.1, W9.3)."""
    before = st.score[who]
    st.score[who] = value
    st.points[who]["correction"] = st.points[who].get("correction", 0) + value - before
    st.reached[who] = [s for s in st.reached[who] if s <= value]
    for space in R.FAVOUR_SPACES:
        if before < space <= value and space not in st.reached[who]:
            st.reached[who].append(space)
            st.earn_favour(who, f"space_{space}")
    mark = st.config["end_mark"]
    if not st.last_turn and value >= mark:
        st.last_turn = True
        st.record("end_mark", seat=who, total=value, mark=mark)
    elif st.last_turn and not any(x >= mark for x in st.score):
        st.last_turn = False
