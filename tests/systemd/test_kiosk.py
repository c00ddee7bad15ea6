"""The kiosk: it never holds boot, starts Chromium at once on a local starting page (which waits
for the server), keeps everything in the session's runtime folder (memory, not the SD card), hides
cage's pointer, sets the screen's mode and rotation, and its health check stops a kiosk whose page
went silent (so systemd restarts it)."""

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

TOOLS = ("sh", "sed", "grep", "awk", "dirname", "tail", "cat", "sleep", "mkdir", "id")
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
    (tmp_path / "run").mkdir()
    return {
        "PATH": str(bin_dir),
        "HOME": str(tmp_path / "home"),  # the kiosk user's home: never written
        "XDG_RUNTIME_DIR": str(tmp_path / "run"),  # /run/user/UID, in memory
    }


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
    cage = (tmp_path / "cage.args").read_text().splitlines()
    assert cage[:3] == ["-d", "-s", "--"] and cage[3].endswith("kiosk-session")
    chromium = (tmp_path / "chromium.args").read_text().splitlines()
    assert "--kiosk" in chromium and "--ozone-platform=wayland" in chromium
    # the profile and the caches in the runtime folder (memory), nothing in the home folder
    assert f"--user-data-dir={tmp_path}/run/kiosk/chromium" in chromium
    assert f"--disk-cache-dir={tmp_path}/run/kiosk/cache" in chromium
    assert not (tmp_path / "home").exists() or not any((tmp_path / "home").iterdir())
    # Chromium opens the starting page, a file, which opens the table display when it can
    starting = tmp_path / "run" / "kiosk" / "starting.html"
    assert chromium[-1] == starting.as_uri()
    assert f'"table": "{server.url}/?kiosk=1"' in starting.read_text()
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
    # "default": the theme Bookworm's cage loads whatever it is told; in the kiosk's own path
    assert theme == "default" and size == "24" and path == f"{tmp_path}/run/kiosk/cursors"
    for name in ("default", "left_ptr"):
        data = (Path(path) / theme / "cursors" / name).read_bytes()
        magic, header, _, entries = struct.unpack_from("<4sIII", data)
        assert magic == b"Xcur" and header == 16 and entries == 1
        kind, nominal, position = struct.unpack_from("<III", data, 16)
        width, height = struct.unpack_from("<II", data, position + 16)
        (pixel,) = struct.unpack_from("<I", data, position + 36)
        assert (kind, nominal, width, height) == (0xFFFD0002, 24, 1, 1)
        assert pixel >> 24 == 0  # fully transparent


def test_without_a_server_the_kiosk_starts_at_once_on_its_starting_page(tmp_path: Path) -> None:
    env = stand_ins(tmp_path)
    conf = tmp_path / "kiosk.conf"
    conf.write_text("wait=90\nhealth=0\nlanguage=de\n")
    nobody = f"http://127.0.0.1:{free_port()}"
    result = kiosk(env, nobody, conf)
    assert result.returncode == 0, result.stderr
    chromium = (tmp_path / "chromium.args").read_text().splitlines()
    assert "--lang=de" in chromium and chromium[-1].endswith("/starting.html")
    page = (tmp_path / "run" / "kiosk" / "starting.html").read_text()
    assert "Longhall startet…" in page and f'"table": "{nobody}/?kiosk=1&lang=de"' in page
    assert '"wait": 90.0' in page
    (Path(env["PATH"]) / "chromium-browser").unlink()
    gone = kiosk(env, nobody, conf)
    assert gone.returncode == 1 and "no Chromium found" in gone.stderr


# -- the health check ------------------------------------------------------------------------------


def health(url: str, pid: int, stale: float, grace: float = 180) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            str(SYSTEMD / "kiosk-health"),
            "--stale",
            str(stale),
            "--grace",
            str(grace),
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


def test_a_slow_first_start_has_its_grace(server: ServerProcess) -> None:
    # a fresh server: the page never spoke. Silence longer than --stale, shorter than --grace
    # is a Chromium still starting (a Zero 2 W): the kiosk is left alone
    fresh = ServerProcess(Path(server.data_dir).parent / "grace-server")
    fresh.data_dir.mkdir()
    fresh.start()
    try:
        url = fresh.url + "/appliance/kiosk-alive"
        with (
            subprocess.Popen(["sleep", "600"]) as cage,
            health(url, cage.pid, stale=0.2, grace=600) as check,
        ):
            with pytest.raises(subprocess.TimeoutExpired):
                check.wait(timeout=2)  # ten times --stale: still waiting
            cage.kill()
            assert check.wait(timeout=60) == 0
        with subprocess.Popen(["sleep", "600"]) as cage:  # past the grace: stopped
            with health(url, cage.pid, stale=0.2, grace=0.5) as short:
                assert short.wait(timeout=60) == 1
            assert cage.wait(timeout=60) == -15
    finally:
        fresh.stop()


def test_while_the_server_is_down_the_page_is_not_blamed() -> None:
    url = f"http://127.0.0.1:{free_port()}/appliance/kiosk-alive"
    with subprocess.Popen(["sleep", "600"]) as cage:
        with health(url, cage.pid, stale=0.1) as check:
            assert check.stdout is not None
            assert "the server does not answer" in check.stdout.readline()
            cage.kill()  # the kiosk ended by itself: the check ends with it
            assert check.wait(timeout=60) == 0
        assert cage.wait() == -9  # killed by the test, never by the check


def test_where_cage_cannot_set_the_mode_the_kernel_does(tmp_path: Path) -> None:
    from .test_install import commands, debian, dry_run

    def cage(version: str) -> dict[str, str]:  # apt-cache's word on cage's version
        env = debian(tmp_path / version, ("python3",))
        script = Path(env["PATH"].split(":")[0]) / "apt-cache"
        script.write_text(f'#!/bin/sh\necho "  Candidate: {version}"\n')
        return env

    bookworm = commands(
        dry_run("--prefix", str(tmp_path / "p"), "--resolution", "1920x1080", env=cage("0.1.4-4"))
        .stdout
    )  # fmt: skip
    (video,) = [s.replace("\\", "") for s in bookworm if "video=HDMI-A-1:1920x1080@60" in s]
    assert "video=HDMI-A-1:1920x1080@60 video=HDMI-A-2:1920x1080@60" in video
    assert video.endswith("/boot/firmware/cmdline.txt")
    trixie = commands(
        dry_run("--prefix", str(tmp_path / "p"), "--resolution", "1920x1080", env=cage("0.2.0-1"))
        .stdout
    )  # fmt: skip
    assert not [s for s in trixie if "video=HDMI-A-1:1920" in s]
    # an entry of ours from before goes (auto, or a cage that sets the mode itself)
    assert any("video=HDMI-A-\\[12\\]" in s for s in trixie)


def test_the_installer_writes_the_kiosks_options(tmp_path: Path) -> None:
    from .test_install import commands, debian, dry_run, written

    env = debian(tmp_path / "debian", ("python3",))
    out = dry_run(
        "--prefix", str(tmp_path / "p"), "--resolution", "1920x1080", "--rotate", "180", env=env
    ).stdout
    conf = written(out, "/etc/longhall/kiosk.conf").splitlines()
    assert {"resolution=1920x1080", "rotate=180", "wait=120", "health=60", "grace=180"} <= set(conf)
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
