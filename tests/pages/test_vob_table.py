"""Vikings on Board at the table: what a whole game with three phones found, each checked on the
real pages at the moment it happens (a game set up at that phase, not played to it)."""

from __future__ import annotations

from typing import Any

import pytest

from longhall.server.games.vikings_on_board import VikingsState
from longhall.server.games.vikings_on_board import rules as R

from ..games.vikings_on_board.helpers import arrange, make_active, new_game
from ..support import ServerProcess
from .vob_driver import VobPage

pytestmark = pytest.mark.slow


def all_sailed(st: VikingsState, seat: int) -> None:
    """Every hull piece of ``seat``'s colour has left the harbour on drakkars 0 and 1."""
    mine = [st.colours[seat] * R.HULL_PIECES + k for k in range(R.HULL_PIECES)]
    arrange(st, {0: mine[:3], 1: mine[3:]})
    st.sailed, st.sterns = [0, 1], R.DRAKKARS - 3


def test_with_no_hull_piece_in_port_the_phone_gives_the_true_reason(
    browser: Any, server: ServerProcess
) -> None:
    # V2.2, V3.2, V3.3: Promotion and Change drakkar are impossible because none of the player's
    # hull pieces is left in port, not because they stand at their prows or lack room
    st = new_game(3)
    all_sailed(st, 0)
    make_active(st, 0)
    phone = VobPage(browser, server, st, 0)
    for building in ("promotion", "change_drakkar"):
        verdict = phone.text(f".vob-choice[data-building={building}] .verdict")
        assert verdict == "not possible: none of your hull pieces is left in port", verdict
    # where pieces are in port, the reason stays the one that holds
    assert "no other drakkar has room" not in phone.text(".vob-choice[data-building=move]")
    phone.no_errors()
    phone.close()
