"""Group commit and power cuts: six real phones commit their plans at once, burst after burst,
to a real server killed (-9) as the first answer arrives; nothing answered is lost (the commands
that share one write in-process: tests/table/test_group_commit.py)."""

from __future__ import annotations

import threading
import uuid
from pathlib import Path
from typing import Any

from longhall.server.games.api import progress_actions

from ..support import Phone, ServerProcess

WAIT = 30.0  # seconds before a test gives up on an event that should come at once


def test_kill_9_during_bursts_of_plans_loses_nothing_acknowledged(tmp_path: Path) -> None:
    """Six real phones send their planning taps and commits at once, burst after burst, to a
    real server; every other burst the server is killed (-9, a power cut) as soon as the first
    answer arrives, with the rest still on their way. After each restart, every command that was
    answered is found stored: sent again, it is answered as a repeat with the same version."""
    server = ServerProcess(tmp_path, "--bot-delay", "0", "--rate-limit", "100000", "--seed", "11")
    server.start()
    phones: list[Phone] = []
    try:
        lobby = Phone(server.url).connect()
        code = lobby.latest["table"]["code"]  # type: ignore[index]
        lobby.disconnect()
        for i in range(6):
            phone = Phone(server.url, {"code": code}, name=f"P{i}").connect()
            assert phone.join(f"P{i}")["ok"]
            phones.append(phone)
        settle(phones)  # the host starts on the whole lobby, not on a view one join behind
        started = phones[0].command("start")
        assert started["ok"], started
        settle(phones)
        kills, answered = 0, 0
        for burst in range(12):
            sends = []
            for phone in phones:
                view = phone.latest
                assert view is not None
                legal = progress_actions(view["game"]["legal"])
                if legal:
                    payload = {
                        "type": "act",
                        "id": uuid.uuid4().hex,
                        "version": view["version"],
                        "action": legal[0],
                    }
                    sends.append((phone, payload))
            if not sends:
                break  # every plan is committed: the table reveals them next
            answers: dict[str, Any] = {}
            got = threading.Semaphore(0)
            for phone, payload in sends:
                phone.sio.emit("command", payload, callback=_keep(answers, payload["id"], got))
            assert got.acquire(timeout=WAIT)  # the first answer: the others are on their way
            if burst % 2:
                for _ in sends[1:]:
                    assert got.acquire(timeout=WAIT)
                assert all(a["ok"] for a in answers.values()), answers
                answered += len(answers)
                settle(phones)
                continue
            server.kill9()
            kills += 1
            phones_before = phones
            for phone in phones:
                phone.disconnect()
            heard = {cid: ack for cid, ack in answers.items() if ack.get("ok")}
            answered += len(heard)
            assert heard  # the first answer came before the power cut
            server.start()
            phones = [_reopen(server, phone) for phone in phones]  # with their seats' tokens
            for old, payload in sends:  # each phone sends again what it had no answer to
                phone = phones[phones_before.index(old)]
                again = phone.command(payload["type"], cid=payload["id"], **_fields(payload))
                first = heard.get(payload["id"])
                if first is not None:  # answered before the cut: stored, not applied again
                    assert again == {**first, "repeat": True}, (first, again)
                else:
                    assert again["ok"], again
            settle(phones)
        assert kills >= 3 and answered >= 2 * len(phones)
        assert phones[0].latest["game"]["public"]["table_actions"]  # type: ignore[index]
    finally:
        for phone in phones:
            phone.disconnect()
        server.stop()


def _keep(answers: dict[str, Any], cid: str, got: threading.Semaphore) -> Any:
    """A callback that keeps the answer to command ``cid`` and counts it."""

    def answer(ack: Any) -> None:
        answers[cid] = ack
        got.release()

    return answer


def _reopen(server: ServerProcess, phone: Phone) -> Phone:
    """The same phone opened again on its seat's token (after a restart)."""
    again = Phone(server.url, name=phone.name)
    again.token, again.seat = phone.token, phone.seat
    return again.connect()


def _fields(payload: dict[str, Any]) -> dict[str, Any]:
    return {"version": payload["version"], "action": payload["action"]}


def settle(phones: list[Phone]) -> None:
    """Wait until every phone has seen the same, latest version."""
    target = max(p.latest["version"] for p in phones)  # type: ignore[index]
    for p in phones:
        p.wait(lambda v, t=target: v["version"] >= t)
