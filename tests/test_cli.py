"""``longhall simulate``: whole games between bots, readable or as JSON lines."""

from __future__ import annotations

import gc
import json
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
import qrcode

from longhall.server.cli import main
from longhall.server.config import Settings, default_data_dir
from longhall.server.store.store import Store
from longhall.server.web.app import create_app
from longhall.server.web.serve import banner
from tests.support import play_out


def test_simulate_json_prints_one_object_per_game_and_totals(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        main(
            [
                "simulate",
                "--game",
                "eketorp",
                "--players",
                "5",
                "--games",
                "3",
                "--seed",
                "7",
                "--bots",
                "mixed",
                "--json",
            ]
        )
        == 0
    )
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    games, totals = lines[:-1], lines[-1]
    assert [g["seed"] for g in games] == [7, 8, 9]
    for g in games:
        assert g["players"] == 5 and len(g["scores"]) == 5
        assert 1 <= g["rounds"] <= 10 and g["actions"] > 0
        assert g["winners"] and all(g["scores"][w] == max(g["scores"]) for w in g["winners"])
        assert g["bots"] == ["greedy", "random", "greedy", "random", "greedy"]
    assert totals["games"] == 3 and totals["seconds"] > 0 and totals["games_per_second"] > 0


def test_simulate_is_deterministic_for_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "simulate",
        "--game",
        "eketorp",
        "--players",
        "4",
        "--games",
        "2",
        "--seed",
        "3",
        "--bots",
        "random",
        "--json",
    ]
    main(args)
    first = capsys.readouterr().out.splitlines()[:-1]
    main(args)
    assert capsys.readouterr().out.splitlines()[:-1] == first


def test_simulate_readable_summary(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--game", "eketorp", "--players", "3", "--games", "2", "--bots", "greedy"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Eketorp: 2 game(s), 3 players" in out and "winner(s)" in out and "games/s" in out


def test_simulate_refuses_a_wrong_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--game", "eketorp", "--players", "8"]) == 2
    assert "3 to 6 players" in capsys.readouterr().out


def test_the_console_script_runs() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "longhall.server.cli", "simulate", "--game", "eketorp", "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out.splitlines()[-1])["games"] == 1


# -- where the game store lives ------------------------------------------------------------------


def test_the_default_data_dir_is_systemds_state_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", f"{tmp_path}/longhall:{tmp_path}/other")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert default_data_dir() == tmp_path / "longhall"
    assert Settings().db_path == tmp_path / "longhall" / "longhall.sqlite3"


def test_the_default_data_dir_is_else_the_xdg_state_dir(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert default_data_dir() == tmp_path / "xdg" / "longhall"
    monkeypatch.setenv("STATE_DIRECTORY", "")  # set but empty: not systemd's
    assert default_data_dir() == tmp_path / "xdg" / "longhall"


def test_the_default_data_dir_is_else_in_the_home_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_data_dir() == tmp_path / ".local" / "state" / "longhall"
    assert Settings().data_dir == tmp_path / ".local" / "state" / "longhall"


def test_serve_takes_its_options_and_the_default_data_dir(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    started: list[Settings] = []

    def serve(settings: Settings) -> int:
        started.append(settings)
        assert not gc.isenabled()  # off for the start, from before the commands' imports
        return 0

    monkeypatch.setattr("longhall.server.web.serve.serve", serve)
    args = ["serve", "--port", "8123", "--public-url", "http://10.42.0.1:8123", "--gpio", "off"]
    try:
        assert main([*args, "--rate-limit", "5"]) == 0
    finally:
        gc.enable()  # as LonghallServer.load does once the table is loaded
    (settings,) = started
    assert settings.data_dir == tmp_path and settings.port == 8123 and settings.gpio == "off"
    assert settings.public_url == "http://10.42.0.1:8123"
    assert (settings.rate, settings.burst) == (5.0, 10)


def test_the_other_commands_leave_the_collector_on(tmp_path: Path) -> None:
    assert main(["history", "--data-dir", str(tmp_path)]) in (0, 1)
    assert gc.isenabled()
    with pytest.raises(SystemExit):
        main(["serve", "--port", "not a number"])  # argparse refuses it, and exits
    assert gc.isenabled()


# -- the banner of ``longhall serve`` ------------------------------------------------------------

# qr_terminal draws two rows of modules per line, light on dark (inverted): (top, bottom) dark
HALF_BLOCKS = {"█": (False, False), "▄": (True, False), "▀": (False, True), "\xa0": (True, True)}


def terminal_qr_modules(banner_text: str) -> list[list[bool]]:
    """Read the QR code drawn in a banner back into its modules (True: dark), quiet zone too."""
    lines = [ln for ln in banner_text.splitlines() if ln and set(ln) <= set(HALF_BLOCKS)]
    assert lines, "no QR code in the banner"
    rows: list[list[bool]] = []
    for line in lines:
        pairs = [HALF_BLOCKS[ch] for ch in line]
        rows.append([top for top, _ in pairs])
        rows.append([bottom for _, bottom in pairs])
    return rows


def qr_modules(text: str) -> list[list[bool]]:
    code = qrcode.QRCode(border=2)
    code.add_data(text)
    code.make()
    return [[bool(m) for m in row] for row in code.get_matrix()]


def banner_fields(text: str) -> dict[str, str]:
    fields = {}
    for line in text.splitlines():
        key, sep, value = line.strip().partition(":  ")
        if sep:
            fields[key] = value.strip()
    return fields


def test_the_banner_shows_both_urls_the_store_and_a_qr_code_of_the_join_url(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, gpio="off", public_url="http://10.42.0.1:8000/")
    lh = create_app(settings)
    try:
        text = banner(lh.table)  # printed once the table is loaded (LonghallServer.load)
        code = lh.table.data.code
    finally:
        lh.stop()
    fields = banner_fields(text)
    assert code
    join = f"http://10.42.0.1:8000/join/{code}"
    assert fields == {
        "table display": "http://10.42.0.1:8000/",
        "players join": join,
        "game store": str(tmp_path / "longhall.sqlite3"),
    }
    drawn = terminal_qr_modules(text)
    expected = qr_modules(join)
    assert drawn[: len(expected)] == expected
    # an odd number of rows leaves half a line of padding, drawn dark
    assert len(drawn) - len(expected) in (0, 1) and all(all(r) for r in drawn[len(expected) :])
    assert drawn[: len(expected)] != qr_modules(join.replace(code, code[::-1] + "x"))


def test_the_banner_shows_the_same_table_after_a_restart(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, gpio="off", public_url="http://10.42.0.1:8000")
    joins = []
    for _ in range(2):
        lh = create_app(settings)
        try:
            joins.append(banner_fields(banner(lh.table))["players join"])
            assert joins[-1] == lh.table.join_url
            assert joins[-1].endswith("/join/" + lh.table.data.code)
        finally:
            lh.stop()
    assert joins[0] == joins[1]


def test_the_banner_without_a_public_url_uses_the_lan_ip(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr("longhall.server.appliance.addresses.lan_address", lambda: "192.168.1.20")
    lh = create_app(Settings(data_dir=tmp_path, gpio="off", host="0.0.0.0", port=8000))
    try:
        text = banner(lh.table)
    finally:
        lh.stop()
    fields = banner_fields(text)
    assert fields["table display"] == "http://192.168.1.20:8000/"
    assert fields["players join"].startswith("http://192.168.1.20:8000/join/")
    expected = qr_modules(fields["players join"])
    assert terminal_qr_modules(text)[: len(expected)] == expected


# -- ``longhall history`` and ``longhall replay`` ------------------------------------------------


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real store: game 1 finished, game 2 ended by the host, game 3 still being played."""
    data_dir = tmp_path_factory.mktemp("store")
    lh = create_app(Settings(data_dir=data_dir, gpio="off", bot_delay=0, seed=5))
    table = lh.table
    try:
        phone = lh.socketio.test_client(lh.app, auth={"code": table.data.code})

        def send(kind: str, **fields: object) -> Any:
            payload = {"type": kind, "id": uuid.uuid4().hex, "version": table.data.version}
            return phone.emit("command", {**payload, **fields}, callback=True)

        token = send("join", name="Anna", colour="")["token"]
        assert send("add_bot", bot="greedy")["ok"] and send("add_bot", bot="random")["ok"]
        assert send("botify", seat=0, bot="greedy")["ok"]  # plays while Anna's phone is away
        assert send("start")["ok"]
        phone.disconnect()
        play_out(table)
        assert table.data.last_result is not None
        assert table.data.last_result["status"] == "finished"
        phone = lh.socketio.test_client(lh.app, auth={"token": token})
        assert send("start")["ok"] and send("end_game")["ok"]  # game 2: abandoned at once
        assert send("start")["ok"]  # game 3: still being played
        phone.disconnect()
    finally:
        lh.stop()
    return data_dir


def stored_games(data_dir: Path) -> list[dict[str, Any]]:
    store = Store(data_dir / "longhall.sqlite3")
    try:
        return store.games()
    finally:
        store.close()


def test_history_lists_the_stored_games_newest_first(
    store_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["history", "--data-dir", str(store_dir)]) == 0
    night, *lines = capsys.readouterr().out.splitlines()
    # the three games are one night, still going on; the first game alone earned points (the
    # second was ended early): the greedy bot Anna and the two bots, one point per player beaten
    assert night.startswith("Night 1  ") and " going on  3 games  " in night
    assert all(line.startswith("  #") for line in lines)
    assert [line.split()[0] for line in lines] == ["#3", "#2", "#1"]
    statuses = [line.split()[4] for line in lines]
    assert statuses == ["playing", "abandoned", "finished"]
    games = {g["id"]: g for g in stored_games(store_dir)}
    for line in lines:
        game = games[int(line.split()[0][1:])]
        assert line.split()[1] == "eketorp"
        assert f" {game['actions']} actions  Anna, Bot ●, Bot ■" in line
    finished = games[1]
    assert finished["actions"] > 0
    totals = [s["total"] for s in finished["result"]["scores"]]
    assert lines[2].endswith("  " + " ".join(map(str, totals)))


def test_history_as_json_is_the_stored_games(
    store_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["history", "--data-dir", str(store_dir), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    games = shown["games"]
    assert games == stored_games(store_dir)
    assert [g["night"] for g in games] == [1, 1, 1]
    (night,) = shown["nights"]
    assert night["ended"] is None and [g["id"] for g in night["games"]] == [1, 2]
    assert [g["status"] for g in night["games"]] == ["finished", "abandoned"]
    assert night["games"][1]["points"] is None  # ended early: nobody earns a point
    assert sorted(r["points"] for r in night["standings"]) == sorted(night["games"][0]["points"])
    assert [g["id"] for g in games] == [3, 2, 1]
    assert games[2]["result"]["winners"] and games[1]["result"]["winners"] == []


def test_history_reads_the_default_data_dir(
    store_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(store_dir))
    assert main(["history"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("  #3 eketorp ")


def test_history_without_a_store_or_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["history", "--data-dir", str(tmp_path / "nothing")]) == 1
    assert capsys.readouterr().out.strip() == (
        f"No game store at {tmp_path / 'nothing' / 'longhall.sqlite3'}."
    )
    Store(tmp_path / "longhall.sqlite3").close()
    assert main(["history", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == "No games yet."


def test_replay_plays_a_finished_game_again_to_its_stored_scores(
    store_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = {g["id"]: g for g in stored_games(store_dir)}[1]
    totals = [s["total"] for s in game["result"]["scores"]]
    assert main(["replay", "1", "--data-dir", str(store_dir)]) == 0
    assert capsys.readouterr().out.strip() == (
        f"#1 eketorp: {game['actions']} actions replayed, over; scores {totals}"
    )


def test_replay_of_games_that_did_not_finish(
    store_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for game_id in (2, 3):
        assert main(["replay", str(game_id), "--data-dir", str(store_dir)]) == 0
        out = capsys.readouterr().out
        assert out.startswith(f"#{game_id} eketorp: ") and "not finished" in out


def test_replay_of_an_unknown_game(store_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "99", "--data-dir", str(store_dir)]) == 1
    assert capsys.readouterr().out.strip() == "There is no game #99."


def test_replay_says_when_a_stored_result_differs(
    store_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = sqlite3.connect(store_dir / "longhall.sqlite3")
    copy = sqlite3.connect(tmp_path / "longhall.sqlite3")
    try:
        source.backup(copy)
        (raw,) = copy.execute("SELECT result FROM games WHERE id = 1").fetchone()
        result = json.loads(raw)
        result["scores"][0]["total"] += 1
        copy.execute("UPDATE games SET result = ? WHERE id = 1", (json.dumps(result),))
        copy.commit()
    finally:
        source.close()
        copy.close()
    assert main(["replay", "1", "--data-dir", str(tmp_path)]) == 1
    last = capsys.readouterr().out.splitlines()[-1]
    assert last == "The replay does not match the stored result!"


def test_the_history_and_replay_commands_run(store_dir: Path) -> None:
    def run(*args: str) -> str:
        return subprocess.run(
            [sys.executable, "-m", "longhall.server.cli", *args, "--data-dir", str(store_dir)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout

    assert [g["id"] for g in json.loads(run("history", "--json"))["games"]] == [3, 2, 1]
    assert run("replay", "1").startswith("#1 eketorp: ")
