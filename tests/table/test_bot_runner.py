"""The bot runner: a move decided on what its seat no longer sees is refused as stale, and the
runner is woken only where a bot may act (a real server holding an expert mid-thought:
tests/web/test_bot_thinking.py)."""

from __future__ import annotations

from longhall.server.table.connections import Identity
from longhall.server.web.app import Longhall
from tests.inprocess import eketorp, seated


def test_a_bot_move_decided_on_a_stale_view_is_refused(longhall: Longhall) -> None:
    phones = seated(longhall, ["Anna", "Bob"])
    assert phones[0].send("add_bot", bot="greedy")["ok"]
    assert phones[0].send("start")["ok"]
    table, bots = longhall.table, longhall.bots
    (turn,) = bots.turns()
    action = turn.bot.choose(turn.state, turn.seat)  # thought on the copy, outside the lock
    assert phones[0].send("pause")["ok"] and phones[0].send("resume")["ok"]
    with table.lock:
        assert bots.holds(turn)  # still its seat to play, but it saw another table
        payload = {"type": "act", "id": "bot-stale", "version": turn.version, "action": action}
        ack = table.submit(Identity("bot", turn.seat), payload)
    assert not ack["ok"] and ack["error"]["code"] == "stale_version"
    assert eketorp(table).plans[turn.seat] == {}  # nothing changed
    (fresh,) = bots.turns()
    assert fresh.version > turn.version and fresh.state is not table.game  # a copy to think on


def test_the_bot_runner_is_woken_only_where_a_bot_may_act(longhall: Longhall) -> None:
    """A change wakes the bot runner only if a seat is played by a bot (or NEXT is pressed by
    itself): at a table of phones it would look, find nothing and sleep, on every command."""
    table = longhall.table
    woken: list[int] = []
    notify_all = table.changed.notify_all

    def counted() -> None:
        woken.append(table.data.version)
        notify_all()

    table.changed.notify_all = counted  # type: ignore[method-assign]
    phones = seated(longhall, ["Anna", "Bob", "Cara"])
    assert phones[0].send("start")["ok"]
    assert phones[0].send("pause")["ok"] and phones[0].send("resume")["ok"]
    assert woken == []  # phones only: the runner sleeps on
    assert phones[0].send("botify", seat=2, bot="greedy")["ok"]  # a bot stands in for Cara
    assert woken == [table.data.version]
