"""Patches: after its snapshot, each connection gets what changed since the last message sent to
its room. On a real server process with real Socket.IO clients: the patches rebuild exactly the
message a snapshot gives, a gap makes the client resync, no patch carries another seat's secret,
and the pages' own patch.js rebuilds the same messages as the server meant."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from longhall.server.games.api import progress_actions

from ..support import Phone, ServerProcess, received

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Three phones and a spectator, 60 commands into a game of Eketorp (shared: read only)."""
    data = tmp_path_factory.mktemp("patches")
    server = ServerProcess(data, "--bot-delay", "0", "--rate-limit", "1000", "--seed", "5")
    server.start()
    try:
        spectator = Phone(server.url, name="spectator").connect()
        code = spectator.current["table"]["code"]
        phones = []
        for name in ("Anna", "Bob", "Cara"):
            phone = Phone(server.url, {"code": code}, name=name).connect()
            assert phone.join(name)["ok"]
            phones.append(phone)
        rnd = random.Random(5)
        joined = phones[-1].current["version"]
        phones[0].wait(lambda v: v["version"] >= joined)  # the host starts with every seat seen
        started = phones[0].command("start")
        assert started["ok"], started
        version = started["version"]
        for _ in range(60):
            for phone in phones:  # every phone has seen the last command before the next
                phone.wait(lambda v, t=version: v["version"] >= t and v["game"] is not None)
            mover = next(
                (p for p in phones if progress_actions(p.current["game"]["legal"])),
                None,
            )
            if mover is None:
                table_actions = phones[0].current["game"]["public"]["table_actions"]
                ack = phones[0].command("table", action={"type": table_actions[0]})
            else:
                legal = progress_actions(mover.current["game"]["legal"])
                ack = mover.command("act", action=rnd.choice(legal))
            assert ack["ok"], ack
            version = ack["version"]
        final = phones[0].current["version"]
        for client in [*phones, spectator]:
            client.wait(lambda v, t=final: v["version"] >= t)
        yield {"server": server, "phones": phones, "spectator": spectator}
        for client in [*phones, spectator]:
            client.disconnect()
    finally:
        server.stop()


def test_patches_rebuild_exactly_the_message_a_snapshot_gives(played: dict[str, Any]) -> None:
    for client in [*played["phones"], played["spectator"]]:
        patches = [body for event, body in client.messages if event == "patch"]
        assert len(patches) > 50, client.name  # the changes came as patches
        snapshot = client.sio.call("snapshot", timeout=10)
        assert client.latest == snapshot, client.name
        # as JSON too, where true is not 1 and 1.0 is not 1 (the order of keys means nothing)
        assert json.dumps(client.latest, sort_keys=True) == json.dumps(snapshot, sort_keys=True)
        # and a patch is a small part of a whole message
        sizes = sorted(len(json.dumps(p)) for p in patches)
        assert sizes[len(sizes) // 2] * 5 < len(json.dumps(snapshot))


def test_no_patch_carries_another_seats_secret(played: dict[str, Any]) -> None:
    phones, spectator = played["phones"], played["spectator"]
    for client in [*phones, spectator]:
        for event, body in client.messages:
            if event != "patch":
                continue
            for op in body["ops"]:
                if client is spectator:  # the public view has no private part at all
                    assert op[0][:2] != ["game", "private"]
                assert op[0][:1] != ["you"] or client is not spectator
    # what a seat saw in its own private view never reaches another seat's phone, by any path
    for seat, phone in enumerate(phones):
        mine = {
            json.dumps(m["game"]["private"])
            for m, _ in received(phone.messages)
            if m["game"] is not None
        }
        for other in [p for p in phones if p is not phone] + [spectator]:
            for message, wire in received(other.messages):
                if message["game"] is not None and message["you"] is not None:
                    assert message["you"]["seat"] != seat
                for private in mine:
                    if len(private) > 40:  # a hand or a plan, not an empty one shared by all
                        assert private not in wire


def test_a_gap_in_the_patches_makes_the_client_ask_for_a_snapshot(
    played: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    server: ServerProcess = played["server"]
    cara = played["phones"][2]
    late = Phone(server.url, name="late").connect()
    try:
        real = late._patch
        lost: list[dict[str, Any]] = []

        def lossy(patch: dict[str, Any]) -> None:
            if not lost:  # the first patch never arrives
                lost.append(patch)
                return
            real(patch)

        monkeypatch.setattr(late, "_patch", lossy)
        cara.disconnect()  # everyone sees Cara go ...
        late.wait(lambda v: len(lost) == 1)
        cara.connect()  # ... and come back: this patch does not follow what `late` has
        late.wait(lambda v: late.resyncs > 0)
        now = late.sio.call("snapshot", timeout=10)
        late.wait(lambda v: v["seq"] >= now["seq"])  # the snapshot it asked for has come
        assert late.resyncs == 1
        assert late.current["table"]["seats"][2]["connected"]
        assert late.latest == late.sio.call("snapshot", timeout=10)
    finally:
        late.disconnect()


def test_the_pages_patch_js_rebuilds_the_same_messages(played: dict[str, Any]) -> None:
    """The pages' patch.js, fed every message a phone got, ends with the message a snapshot
    gives, and leaves each message it patched as it was (a page may still hold the last one)."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    phone = played["phones"][1]
    now = phone.sio.call("snapshot", timeout=10)["seq"]
    expected = phone.wait(lambda v: v["seq"] >= now)  # every change so far has reached it
    kept = ("snapshot", "update", "patch")
    events = [[event, body] for event, body in phone.messages if event in kept]
    script = (
        "const { onPatch } = await import(process.argv[1]);"
        "const events = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "let last = null; let resyncs = 0; const kept = [];"
        "for (const [event, body] of events) {"
        "  if (last) kept.push([last, JSON.stringify(last)]);"
        "  if (event !== 'patch') last = body;"
        "  else onPatch(body, last, (m) => { last = m; }, () => { resyncs += 1; });"
        "}"
        "const changed = kept.filter(([m, was]) => JSON.stringify(m) !== was).length;"
        "console.log(JSON.stringify({ last, resyncs, changed }));"
    )
    out = subprocess.run(
        [
            "node",
            "--input-type=commonjs",
            "-e",
            f"(async () => {{ {script} }})()",
            (ROOT / "server" / "static" / "patch.js").as_uri(),
        ],
        input=json.dumps(events),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    result = json.loads(out.stdout)
    assert result["resyncs"] == 0
    assert result["last"] == expected
    assert result["changed"] == 0, "a patch changed the message it was applied to"
