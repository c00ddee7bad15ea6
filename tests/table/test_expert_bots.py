"""The expert bot at the table: the host adds one, or lets one stand in, like the other kinds."""

from __future__ import annotations

from longhall.server.table.connections import Identity
from longhall.server.web.app import Longhall
from tests.inprocess import eketorp, seated

from ..support import bot_move


def test_the_host_adds_an_expert_bot_and_it_plans_through_the_table(longhall: Longhall) -> None:
    phones = seated(longhall, ["Anna", "Bob"])
    assert phones[0].send("add_bot", bot="expert")["ok"]
    table = longhall.table
    assert table.data.seats[2].bot == "expert"
    assert phones[0].send("start")["ok"]
    moves = 0
    while (move := bot_move(table)) is not None:
        seat, action = move
        assert seat == 2
        ack = table.submit(
            Identity("bot", seat),
            {
                "type": "act",
                "id": f"expert-{table.data.version}",
                "version": table.data.version,
                "action": action,
            },
        )
        assert ack["ok"], ack
        moves += 1
    assert eketorp(table).committed[2] and moves == eketorp(table).vikings + 1  # R3: every viking


def test_an_expert_stands_in_for_a_player(longhall: Longhall) -> None:
    phones = seated(longhall, ["Anna", "Bob", "Cara"])
    assert phones[0].send("start")["ok"]
    assert phones[0].send("botify", seat=1, bot="expert")["ok"]
    assert longhall.table.data.seats[1].bot == "expert"
