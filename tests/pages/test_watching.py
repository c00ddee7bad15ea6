"""A player watching the others move keeps the place they scrolled to: the others' moves, even
from one phase to the next, are no new screen for them; their own move is, and opens at its top.
Each game set up at the phase under test, on real pages."""

from __future__ import annotations

from typing import Any

import pytest

from ..games.vikings_gone_wild.helpers import (
    BRAM,
    MARIE,
    answer,
    attack,
    give,
    set_level,
    to_players,
    turn_of,
)
from ..games.vikings_on_board.helpers import GREEN, RED, go, make_active, new_game
from ..support import ServerProcess
from .games_driver import GamePage, VgwPage, VobPage

pytestmark = pytest.mark.slow


def scrolled_down(page: GamePage) -> int:
    """Scroll to the foot of the page; how far it is scrolled."""
    page.page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    y = int(page.page.evaluate("window.scrollY"))
    assert y > 50, y
    return y


def shown(page: GamePage) -> tuple[str, int]:
    """The game as it is now, on the page: its phase, and how far the page is scrolled."""
    page.show()
    phase, y = page.page.evaluate("[document.body.dataset.phase, window.scrollY]")
    return str(phase), int(y)


def test_vikings_on_board_a_player_reading_their_shield_stays_there(
    browser: Any, files_server: ServerProcess
) -> None:
    # Bram reads his shield while Anna chooses a building and takes its steps (V2.1): her turn
    # and her action are two phases, one screen for him; his own turn opens at its top
    st = new_game(3)
    make_active(st, RED)
    bram = VobPage(browser, files_server, st, GREEN)
    y = scrolled_down(bram)
    go(st, RED, "promotion")
    assert shown(bram) == ("act", y)
    st.apply(RED, st.legal_actions(RED)[0])  # her action done
    make_active(st, GREEN)  # the next viking is Bram's
    assert shown(bram) == ("turn", 0)
    bram.no_errors()
    bram.close()


def test_vikings_gone_wild_a_player_reading_their_village_stays_there(
    browser: Any, files_server: ServerProcess
) -> None:
    # The third player reads their full village on a small phone while the first attacks the second
    # and the second defends (W5.1): a turn and a defence are two phases, one screen for the
    # third; their own turn opens at its top
    st = to_players(3)
    set_level(st, BRAM, 2)  # room for eight buildings (W3.3)
    kinds = ["gold_factory", "brewery", "gold_reserve", "beer_reserve", "tavern", "drakkar"]
    give(st, BRAM, *kinds, "gold_factory", "brewery")
    bram = VgwPage(browser, files_server, st, BRAM, small=True)
    y = scrolled_down(bram)
    attack(st, MARIE, 0, 4, cards=2)
    assert shown(bram) == ("defend", y)
    answer(st)
    assert shown(bram) == ("players", y)
    turn_of(st, BRAM)
    assert shown(bram) == ("players", 0)
    bram.no_errors()
    bram.close()
