"""Game commands: acknowledgements, versions, repeated ids, table actions, fingerprints."""

from __future__ import annotations

import json

from longhall.server.table import fingerprints
from longhall.server.table.connections import Identity
from longhall.server.web.app import Longhall
from tests.inprocess import Client, Guest, eketorp, game, seated

from ..support import bot_move


def started(longhall: Longhall, names: list[str], bots: int = 0) -> list[Client]:
    phones = seated(longhall, names)
    for _ in range(bots):
        assert phones[0].send("add_bot", bot="greedy")["ok"]
    assert phones[0].send("start")["ok"]
    return phones


def test_an_accepted_command_is_acknowledged_with_the_new_version(longhall: Longhall) -> None:
    anna, bob, cara = started(longhall, ["Anna", "Bob", "Cara"])
    before = longhall.table.data.version
    ack = anna.act(type="place", to="A")
    assert ack == {"ok": True, "version": before + 1}
    assert anna.last()["game"]["private"]["plan"] == {"A": 1}


def test_an_illegal_action_gets_a_code_and_a_sentence_and_changes_nothing(
    longhall: Longhall,
) -> None:
    anna, bob, cara = started(longhall, ["Anna", "Bob", "Cara"])
    before = longhall.table.snapshot()
    ack = anna.act(type="place", to="siege:0:boat")
    assert ack["ok"] is False
    assert ack["error"]["code"] == "own_castle" and "own castle" in ack["error"]["message"]
    assert longhall.table.snapshot() == before


def test_a_repeated_id_is_not_applied_twice(longhall: Longhall) -> None:
    anna, bob, cara = started(longhall, ["Anna", "Bob", "Cara"])
    first = anna.send("act", cid="retry-after-lost-ack", action={"type": "place", "to": "B"})
    again = anna.send(
        "act",
        cid="retry-after-lost-ack",
        version=first["version"] - 1,
        action={"type": "place", "to": "B"},
    )
    assert first["ok"] and again["ok"] and again["version"] == first["version"]
    assert eketorp(longhall.table).plans[0] == {"B": 1}
    # the same id for another command is a client's mistake, not a repeat
    other = anna.send("act", cid="retry-after-lost-ack", action={"type": "place", "to": "C"})
    assert other["error"]["code"] == "id_reused"
    before = longhall.table.snapshot()
    assert anna.send("pause", cid="retry-after-lost-ack")["error"]["code"] == "id_reused"
    assert longhall.table.snapshot() == before


def test_ids_are_kept_per_sender(longhall: Longhall, guest: Guest) -> None:
    """A guest cannot pass a command off as a repeat of another phone's join, and a phone's
    ids are its own, apart from the bot that may stand in for it."""
    (anna,) = seated(longhall, ["Anna"])
    stranger = guest()
    joined = stranger.send("join", cid="join-id-0001", name="Bram", colour="")
    assert joined["ok"]
    other = guest()
    ack = other.send("profile", cid="join-id-0001", name="Mallory", colour="")
    assert ack["error"]["code"] == "not_seated"
    assert Identity("seat", 0).key != Identity("bot", 0).key


def test_a_stale_version_is_refused_but_others_moves_do_not_make_it_stale(
    longhall: Longhall,
) -> None:
    anna, bob, cara = started(longhall, ["Anna", "Bob", "Cara"])
    seen = longhall.table.data.version
    # Bob and Cara plan at the same time: Anna's view of her own choices did not change
    assert bob.act(type="place", to="A")["ok"]
    assert cara.act(type="place", to="B")["ok"]
    assert anna.send("act", version=seen, action={"type": "place", "to": "C"})["ok"]
    # a double tap: the second was decided on the view before the first was applied
    ack = anna.send("act", version=seen, action={"type": "place", "to": "C"})
    assert ack["error"]["code"] == "stale_version"
    assert eketorp(longhall.table).plans[0] == {"C": 1}
    future = anna.send(
        "act", version=longhall.table.data.version + 5, action={"type": "place", "to": "C"}
    )
    assert future["error"]["code"] == "bad_version"


def test_acting_for_another_seat_is_impossible(longhall: Longhall) -> None:
    anna, bob, cara = started(longhall, ["Anna", "Bob", "Cara"])
    before = longhall.table.snapshot()
    for kind, fields in (
        ("act", {"seat": 1, "action": {"type": "place", "to": "A"}}),
        ("act", {"action": {"type": "place", "to": "A", "seat": 1}}),
        ("proxy", {"seat": 1, "action": {"type": "place", "to": "A"}}),
    ):
        ack = cara.send(kind, **fields)
        assert not ack["ok"], fields
    assert (
        anna.send("proxy", seat=1, action={"type": "auto_build"})["error"]["code"]
        == "proxy_refused"
    )
    assert longhall.table.snapshot() == before


def test_fingerprints_while_secret_and_salts_published_at_the_reveal(longhall: Longhall) -> None:
    anna, bob, cara = started(longhall, ["Anna", "Bob", "Cara"])
    spectator = Client(longhall)
    plans = {0: ["A"] * 8, 1: ["castle"] * 8, 2: ["siege:0:ram"] + ["B"] * 7}
    for phone, seat in ((anna, 0), (bob, 1)):
        for dest in plans[seat]:
            assert phone.act(type="place", to=dest)["ok"]
        assert phone.act(type="commit")["ok"]
    table = spectator.last()["table"]
    assert set(table["fingerprints"]) == {"0", "1"}
    assert all(len(f) == fingerprints.SHORT for f in table["fingerprints"].values())
    # un-committing withdraws the fingerprint without publishing the salt
    assert bob.act(type="uncommit")["ok"]
    assert set(spectator.last()["table"]["fingerprints"]) == {"0"}
    assert bob.act(type="commit")["ok"]
    for dest in plans[2]:
        assert cara.act(type="place", to=dest)["ok"]
    assert cara.act(type="commit")["ok"]
    shown = spectator.last()["table"]["fingerprints"]
    assert spectator.last()["game"]["public"]["phase"] == "reveal"
    assert cara.send("table", action={"type": "reveal"})["ok"]
    after = spectator.last()
    assert after["table"]["fingerprints"] == {}
    reveals = {r["seat"]: r for r in after["table"]["reveals"]}
    revealed = after["game"]["public"]["revealed"]
    for seat in (0, 1, 2):
        r = reveals[seat]
        assert r["content"] == revealed[str(seat)]  # the salt opens the plan everyone now sees
        assert fingerprints.digest(r["salt"], r["content"]).startswith(shown[str(seat)])
        assert fingerprints.digest(r["salt"], r["content"]) == r["hash"]


def test_the_salt_never_reaches_anyone_before_the_reveal(longhall: Longhall) -> None:
    anna, bob, cara = started(longhall, ["Anna", "Bob", "Cara"])
    for _ in range(8):
        anna.act(type="place", to="D")
    anna.act(type="commit")
    salt = longhall.table.data.commitments["0"]["salt"]
    for phone in (anna, bob, cara):
        assert salt not in json.dumps(phone.messages)


def test_only_the_table_or_a_player_reveals(longhall: Longhall) -> None:
    anna, bob, cara = started(longhall, ["Anna", "Bob", "Cara"])
    spectator = Client(longhall)
    assert spectator.send("table", action={"type": "reveal"})["error"]["code"] == "not_seated"
    ack = bob.send("table", action={"type": "reveal"})  # nobody has committed yet
    assert ack["error"]["code"] == "still_deciding"
    assert ack["error"]["params"]["waiting"] == ["Anna", "Bob", "Cara"]


def test_press_next_explains_why_nothing_happens(longhall: Longhall) -> None:
    anna, bob, cara = started(longhall, ["Anna", "Bob", "Cara"])
    for _ in range(8):
        anna.act(type="place", to="D")
    anna.act(type="commit")
    ack = longhall.table.press_next()
    assert ack["error"]["code"] == "next_too_early"
    bob.pump()
    notice = [m["args"][0] for m in bob.messages if m["name"] == "notice"][-1]
    assert notice["code"] == "next_too_early" and notice["params"]["waiting"] == ["Bob", "Cara"]
    assert game(longhall.table).phase == "planning"


def test_bots_play_through_the_same_path(longhall: Longhall) -> None:
    anna, bob, cara = started(longhall, ["Anna", "Bob", "Cara"], bots=3)
    table = longhall.table
    while bot_move(table) is not None:
        move = bot_move(table)
        assert move is not None
        seat, action = move
        from longhall.server.table.connections import Identity

        ack = table.submit(
            Identity("bot", seat),
            {
                "type": "act",
                "id": f"bot-test-{table.data.version}",
                "version": table.data.version,
                "action": action,
            },
        )
        assert ack["ok"]
    assert all(eketorp(table).committed[s] for s in (3, 4, 5))
    # a bot cannot act for a player
    from longhall.server.table.connections import Identity

    ack = table.submit(
        Identity("bot", 3), {"type": "start", "id": "bot-start-xx", "version": table.data.version}
    )
    assert ack["error"]["code"] == "not_allowed"


def test_the_round_s_plans_stay_checkable_through_many_fights() -> None:
    """A screen that connects late in a round still gets every plan's salt (a batch revealed
    together stays until the next batch), and only the last few single card reveals."""
    from longhall.server.table.state import SINGLE_REVEALS_KEPT, keep_reveals

    plans = [{"seat": s, "salt": f"p{s}", "hash": "h", "content": {"A": 1}} for s in range(6)]
    kept = keep_reveals([], plans, together=True)
    for n in range(30):  # thirty fights, each revealing one chosen card
        card = {"seat": n % 6, "salt": f"c{n}", "hash": "h", "content": {}}
        kept = keep_reveals(kept, [card], together=False)
    assert [r["salt"] for r in kept if r["together"]] == [f"p{s}" for s in range(6)]
    alone = [r["salt"] for r in kept if not r["together"]]
    assert alone == [f"c{n}" for n in range(30 - SINGLE_REVEALS_KEPT, 30)]
    following = [{"seat": 2, "salt": "q2", "hash": "h", "content": {}}]
    kept = keep_reveals(kept, following, together=True)  # next round: one player had vikings
    assert [r["salt"] for r in kept if r["together"]] == ["q2"]
