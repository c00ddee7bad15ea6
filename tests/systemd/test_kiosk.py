"""The kiosk: it never holds boot, waits for the server (bounded), hides cage's pointer, sets the
screen's mode and rotation, starts Chromium full screen on the kiosk's page, and its health check
stops a kiosk whose page went silent (so systemd restarts it)."""

from __future__ import annotations

import shutil
import struct
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.support import ServerProcess, free_port

from .conftest import SYSTEMD, render, unit

TOOLS = ("sh", "sed", "grep", "awk", "dirname", "tail", "cat", "sleep")
HELP_OLD_CAGE = "Usage: cage [OPTIONS] [--] APPLICATION\\n -d\\t Don't draw\\n -r\\t Rotate the output 90 degrees clockwise\\n"  # noqa: E501
HELP_NEW_CAGE = (
    "Usage: cage [OPTIONS] [--] APPLICATION\\n -d\\t Don't draw\\n -s\\t Allow VT switching\\n"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("kiosk-server"))
    proc.start()
    yield proc
    proc.stop()


def stand_ins(tmp_path: Path, cage_help: str = HELP_NEW_CAGE) -> dict[str, str]:
    """A PATH of stand-ins for cage, Chromium and wlr-randr (each notes its arguments), with the
    few real tools the scripts use and this Python as python3."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in TOOLS:
        found = shutil.which(tool)
        assert found, tool
        (bin_dir / tool).symlink_to(found)
    (bin_dir / "python3").symlink_to(sys.executable)
    scripts = {
        # cage: -h prints its help; else it notes its arguments and runs the application after --
        "cage": f'#!/bin/sh\n[ "$1" = -h ] && {{ printf "{cage_help}"; exit 0; }}\n'
        f'printf "%s\\n" "$@" > {tmp_path}/cage.args\n'
        'while [ "$1" != -- ]; do shift; done\nshift\nexec "$@"\n',
        "chromium-browser": f'#!/bin/sh\nprintf "%s\\n" "$@" > {tmp_path}/chromium.args\n',
        "wlr-randr": "#!/bin/sh\n"
        "if [ $# -eq 0 ]; then printf 'HDMI-A-1 \"Some TV\"\\n  Enabled: yes\\n'; exit 0; fi\n"
        f'printf "%s\\n" "$@" > {tmp_path}/wlr-randr.args\n',
    }
    for name, body in scripts.items():
        (bin_dir / name).write_text(body)
        (bin_dir / name).chmod(0o755)
    return {"PATH": str(bin_dir), "HOME": str(tmp_path / "home")}


def kiosk(
    env: dict[str, str], url: str, conf: Path, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    (Path(env["HOME"])).mkdir(exist_ok=True)
    return subprocess.run(
        [str(SYSTEMD / "longhall-kiosk"), url + "/"],
        env={**env, "LONGHALL_KIOSK_CONF": str(conf)},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_the_unit_never_holds_boot(tmp_path: Path, prefix: Path) -> None:
    service = unit(render(tmp_path / "units", prefix, "--port", "8080") / "longhall-kiosk.service")
    kiosk_service = service["Service"]
    assert kiosk_service["Type"] == ["simple"]  # started at once: multi-user.target goes on
    assert "ExecStartPre" not in kiosk_service and "TimeoutStartSec" not in kiosk_service
    assert kiosk_service["ExecStart"] == [
        f"{prefix}/current/systemd/longhall-kiosk http://127.0.0.1:8080/"
    ]
    assert kiosk_service["Restart"] == ["always"]
    assert service["Unit"]["StartLimitIntervalSec"] == ["0"]
    assert kiosk_service["TTYPath"] == ["/dev/tty1"]
    assert kiosk_service["PAMName"] == ["longhall-kiosk"]
    assert service["Unit"]["Conflicts"] == ["getty@tty1.service"]


def test_chromium_full_screen_on_the_kiosk_page_in_the_chosen_mode(
    tmp_path: Path, server: ServerProcess
) -> None:
    env = stand_ins(tmp_path)
    conf = tmp_path / "kiosk.conf"
    conf.write_text("resolution=1920x1080\nrotate=90\nhealth=0\n")  # no health check in tests
    result = kiosk(env, server.url, conf)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "answers: ready" in result.stdout
    cage = (tmp_path / "cage.args").read_text().splitlines()
    assert cage[:3] == ["-d", "-s", "--"] and cage[3].endswith("kiosk-session")
    chromium = (tmp_path / "chromium.args").read_text().splitlines()
    assert "--kiosk" in chromium and "--ozone-platform=wayland" in chromium
    assert f"--user-data-dir={tmp_path}/home/chromium" in chromium
    assert chromium[-1] == f"{server.url}/?kiosk=1"
    # the mode and the rotation, through wlr-randr for every output (cage from 0.1.5 on)
    assert (tmp_path / "wlr-randr.args").read_text().splitlines() == [
        "--output",
        "HDMI-A-1",
        "--mode",
        "1920x1080",
        "--transform",
        "90",
    ]


def test_an_old_cage_rotates_by_itself(tmp_path: Path, server: ServerProcess) -> None:
    env = stand_ins(tmp_path, HELP_OLD_CAGE)
    conf = tmp_path / "kiosk.conf"
    conf.write_text("rotate=270\nhealth=0\n")
    assert kiosk(env, server.url, conf).returncode == 0
    assert (tmp_path / "cage.args").read_text().splitlines()[:5] == ["-d", "-s", "-r", "-r", "-r"]
    assert not (tmp_path / "wlr-randr.args").exists()  # no mode and no rotation left to set


def test_cages_pointer_is_an_invisible_cursor(tmp_path: Path, server: ServerProcess) -> None:
    env = stand_ins(tmp_path)
    conf = tmp_path / "kiosk.conf"
    conf.write_text("health=0\n")
    (Path(env["PATH"]) / "cage").write_text(  # a cage that tells what cursor theme it sees
        f'#!/bin/sh\n[ "$1" = -h ] && exit 0\n'
        f'echo "$XCURSOR_PATH $XCURSOR_THEME $XCURSOR_SIZE" > {tmp_path}/cursor\n'
    )
    assert kiosk(env, server.url, conf).returncode == 0
    path, theme, size = (tmp_path / "cursor").read_text().split()
    assert theme == "longhall-none" and size == "24"
    for name in ("default", "left_ptr"):
        data = (Path(path) / theme / "cursors" / name).read_bytes()
        magic, header, _, entries = struct.unpack_from("<4sIII", data)
        assert magic == b"Xcur" and header == 16 and entries == 1
        kind, nominal, position = struct.unpack_from("<III", data, 16)
        width, height = struct.unpack_from("<II", data, position + 16)
        (pixel,) = struct.unpack_from("<I", data, position + 36)
        assert (kind, nominal, width, height) == (0xFFFD0002, 24, 1, 1)
        assert pixel >> 24 == 0  # fully transparent


def test_without_chromium_or_server_the_kiosk_gives_up_and_systemd_retries(
    tmp_path: Path,
) -> None:
    env = stand_ins(tmp_path)
    conf = tmp_path / "kiosk.conf"
    conf.write_text("wait=0.3\nhealth=0\n")
    nobody = f"http://127.0.0.1:{free_port()}"
    result = kiosk(env, nobody, conf)
    assert result.returncode == 1 and "did not answer in 0.3 s" in result.stdout
    assert not (tmp_path / "cage.args").exists()
    (Path(env["PATH"]) / "chromium-browser").unlink()
    gone = kiosk(env, nobody, conf)
    assert gone.returncode == 1 and "no Chromium found" in gone.stderr


# -- the health check ------------------------------------------------------------------------------


def health(url: str, pid: int, stale: float) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            str(SYSTEMD / "kiosk-health"),
            "--stale",
            str(stale),
            "--interval",
            "0.05",
            "--pid",
            str(pid),
            url,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def test_a_page_that_goes_silent_gets_its_kiosk_stopped(server: ServerProcess) -> None:
    url = server.url + "/appliance/kiosk-alive"
    stop = threading.Event()

    def page() -> None:  # the kiosk's page, alive
        while not stop.wait(0.05):
            requests.post(url, timeout=10)

    with subprocess.Popen(["sleep", "600"]) as cage:
        pinging = threading.Thread(target=page)
        pinging.start()
        try:
            with health(url, cage.pid, stale=5) as check:
                assert check.stdout is not None
                assert check.stdout.readline().strip() == "the kiosk's page answers"
                stop.set()  # the tab crashed: no more signs of life
                pinging.join()
                assert check.wait(timeout=120) == 1
                assert "stopped answering" in check.stdout.read()
            assert cage.wait(timeout=60) == -15  # stopped: systemd restarts the kiosk
        finally:
            stop.set()
            cage.kill()


def test_while_the_server_is_down_the_page_is_not_blamed() -> None:
    url = f"http://127.0.0.1:{free_port()}/appliance/kiosk-alive"
    with subprocess.Popen(["sleep", "600"]) as cage:
        with health(url, cage.pid, stale=0.1) as check:
            assert check.stdout is not None
            assert "the server does not answer" in check.stdout.readline()
            cage.kill()  # the kiosk ended by itself: the check ends with it
            assert check.wait(timeout=60) == 0
        assert cage.wait() == -9  # killed by the test, never by the check


def test_the_installer_writes_the_kiosks_options(tmp_path: Path) -> None:
    from .test_install import commands, debian, dry_run, written

    env = debian(tmp_path / "debian", ("python3",))
    out = dry_run(
        "--prefix", str(tmp_path / "p"), "--resolution", "1920x1080", "--rotate", "180", env=env
    ).stdout
    conf = written(out, "/etc/longhall/kiosk.conf").splitlines()
    assert {"resolution=1920x1080", "rotate=180", "wait=120", "health=60"} <= set(conf)
    assert "wlr-randr" in next(s for s in commands(out) if "apt-get install" in s)
    saved = written(out, "/etc/longhall/install.conf").splitlines()
    assert {"resolution=1920x1080", "rotate=180"} <= set(saved)
    out = dry_run("--prefix", str(tmp_path / "p"), env=env).stdout
    assert "resolution=" in written(out, "/etc/longhall/kiosk.conf").splitlines()  # auto
    assert "wlr-randr" not in next(s for s in commands(out) if "apt-get install" in s)
    for options, says in (
        (["--resolution", "big"], "a resolution is WIDTHxHEIGHT"),
        (["--rotate", "45"], "0, 90, 180 or 270"),
    ):
        refused = dry_run(*options, env=env)
        assert refused.returncode == 2 and says in refused.stderr
