"""The install script's dry run: every step printed on this (non-Pi) machine, nothing changed."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from longhall.server.appliance.hotspot import read_hotspot

from .conftest import INSTALL, render

TOUCHED = ("/etc/longhall", "/etc/systemd/system/longhall.service", "/etc/pam.d/longhall-kiosk")


def debian(
    bin_dir: Path, installed: tuple[str, ...] = (), unavailable: tuple[str, ...] = ()
) -> dict[str, str]:
    """An environment whose dpkg-query and apt-cache describe a Debian system of the test's making
    (they only read apt's local state; the install script asks nothing else before it acts)."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    script = bin_dir / "dpkg-query"
    script.write_text(
        "#!/bin/sh\nfor p in " + " ".join(installed or ("none",)) + "; do\n"
        '  [ "$p" = "$3" ] && { printf installed; exit 0; }\ndone\nexit 1\n'
    )
    script.chmod(0o755)
    script = bin_dir / "apt-cache"
    script.write_text(
        "#!/bin/sh\nfor p in " + " ".join(unavailable or ("none",)) + "; do\n"
        '  [ "$p" = "$2" ] && { echo "  Candidate: (none)"; exit 0; }\ndone\n'
        'echo "  Candidate: 1.0"\n'
    )
    script.chmod(0o755)
    return {"PATH": f"{bin_dir}:{os.environ['PATH']}"}


# apt-cache reads all of apt's lists, seconds on a busy machine: a fresh Debian stands in for it
FRESH_DEBIAN = debian(Path(tempfile.mkdtemp(prefix="longhall-debian-")), ("python3",))


def dry_run(
    *options: str, env: dict[str, str] | None = None, etc: Path | None = None
) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, **(env or FRESH_DEBIAN)}
    if etc is not None:
        environment["LONGHALL_ETC"] = str(etc)
    return subprocess.run(
        ["bash", str(INSTALL), "--dry-run", *options],
        capture_output=True,
        text=True,
        timeout=120,
        env=environment,
    )


def commands(output: str) -> list[str]:
    return [line[2:] for line in output.splitlines() if line.startswith("+ ")]


def written(output: str, path: str) -> str:
    """The content the dry run shows for one file."""
    lines = output.splitlines()
    start = lines.index(next(line for line in lines if line.startswith(f"+ write {path} ")))
    body = []
    for line in lines[start + 1 :]:
        if not line.startswith("    | "):
            break
        body.append(line[6:])
    return "\n".join(body) + "\n"


def test_the_dry_run_prints_every_step_and_changes_nothing(tmp_path: Path) -> None:
    before = {path: Path(path).exists() for path in TOUCHED}
    target = tmp_path / "opt" / "longhall"
    result = dry_run(
        "--prefix",
        str(target),
        "--hotspot",
        "Longhall",
        "night-of-games",
        "--country",
        "de",
        env=debian(tmp_path / "bin", unavailable=("chromium-browser",)),  # a fresh Debian
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    steps = commands(out)

    expected_in_order = [
        r"apt-get update",
        r"apt-get install -y --no-install-recommends python3 python3-venv python3-pip "
        r"python3-setuptools python3-wheel rsync sqlite3 network-manager polkitd python3-lgpio "
        r"dnsmasq-base wpasupplicant rfkill nftables avahi-daemon chromium cage fonts-dejavu-core",
        r"groupadd --system gpio",
        r"useradd --system --user-group --home-dir /var/lib/longhall .* longhall",
        r"usermod --append --groups gpio longhall",
        r"useradd --system .* longhall-kiosk",
        r"usermod --append --groups video\\,render\\,input longhall-kiosk",
        rf"rsync -a --delete .* /.*/ {target}/",
        rf"python3 -m venv --system-site-packages {target}/\.venv",
        # exactly the versions the tests passed with, each checked against its hashes
        rf"{target}/\.venv/bin/python -m pip install --quiet --require-hashes "
        rf"-r {target}/requirements\.lock",
        rf"{target}/\.venv/bin/python -m pip install --quiet --no-deps --no-build-isolation "
        rf"-e {target}",
        rf"write {target}/\.venv/\.longhall-installed ",
        rf"{target}/\.venv/bin/python -m compileall -q {target}/server {target}/hardware",
        r"install -d -m 0755 /etc/longhall",
        r"write /etc/longhall/install.conf ",
        # the journal's limits, so that no flood of log lines fills the SD card
        r"install -m 0644 /.*/systemd/journald-longhall.conf "
        r"/etc/systemd/journald.conf.d/longhall.conf",
        r"raspi-config nonint do_wifi_country DE",
        r"rfkill unblock wifi",
        r"nmcli connection add type wifi ifname wlan0 con-name longhall-hotspot ssid Longhall "
        r".*802-11-wireless.mode ap .*ipv4.method shared ipv4.addresses 10.42.0.1/24 "
        r".*wifi-sec.key-mgmt wpa-psk .*wifi-sec.psk night-of-games",
        r"write /etc/longhall/hotspot \(mode 0640, owner root:longhall\):",
        r"write /etc/systemd/system/longhall.service ",
        r"write /etc/systemd/system/longhall-kiosk.service ",
        r"write /etc/pam.d/longhall-kiosk ",
        r"systemctl set-default multi-user.target",
        r"sed -i .*consoleblank=0.* /boot/firmware/cmdline.txt",
        r"systemctl daemon-reload",
        r"systemctl enable longhall.service",
        r"systemctl restart longhall.service",
        r"systemctl enable longhall-kiosk.service",
    ]
    position = 0
    for pattern in expected_in_order:
        for index in range(position, len(steps)):
            if re.search(pattern, steps[index]):
                position = index + 1
                break
        else:
            raise AssertionError(f"no step {pattern!r} (in order) in:\n" + "\n".join(steps))

    # nothing was done: no prefix, no files in /etc
    assert not target.exists() and not (tmp_path / "opt").exists()
    assert {path: Path(path).exists() for path in TOUCHED} == before


def test_the_dry_run_shows_the_files_the_server_reads(tmp_path: Path, prefix: Path) -> None:
    # a password may hold '=' and ';' and begin or end with a space
    out = dry_run("--prefix", str(prefix), "--hotspot", "Long hall", " p=ss w0rd;x ").stdout
    hotspot = tmp_path / "hotspot"
    hotspot.write_text(written(out, "/etc/longhall/hotspot"))
    assert read_hotspot(hotspot) == {"ssid": "Long hall", "password": " p=ss w0rd;x "}

    units = render(tmp_path / "units", prefix, "--hotspot", "Long hall", "p=ss w0rd;x")
    for name in ("longhall.service", "longhall-kiosk.service"):
        assert written(out, f"/etc/systemd/system/{name}") == (units / name).read_text()


def test_without_a_kiosk_or_a_hotspot(tmp_path: Path) -> None:
    out = dry_run("--no-kiosk", "--prefix", str(tmp_path / "p")).stdout
    steps = "\n".join(commands(out))
    assert "cage" not in steps and "chromium" not in steps
    assert "write /etc/systemd/system/longhall-kiosk.service" not in steps
    assert "nmcli connection add" not in steps and "dnsmasq-base" not in steps
    assert "nmcli connection delete longhall-hotspot" in steps  # a hotspot from before is removed
    assert "systemctl disable --now longhall-kiosk.service" in steps
    assert "rm -f /etc/longhall/hotspot" in steps
    assert "--hotspot-file" not in written(out, "/etc/systemd/system/longhall.service")


def test_a_pin_map_is_installed_and_passed_to_the_server(tmp_path: Path) -> None:
    pins = tmp_path / "my pins.toml"
    pins.write_text('[buttons]\nnext = "GPIO4"\n')
    out = dry_run("--gpio-config", str(pins), "--prefix", str(tmp_path / "p")).stdout
    assert f"install -m 0644 {str(pins).replace(' ', chr(92) + ' ')} /etc/longhall/pins.toml" in (
        "\n".join(commands(out))
    )
    assert "--gpio-config /etc/longhall/pins.toml" in written(
        out, "/etc/systemd/system/longhall.service"
    )


def test_mistakes_are_refused_before_anything_happens() -> None:
    for options, says in (
        (["--hotspot", "Longhall", "short"], "8 to 63 characters"),
        (["--hotspot", "x" * 33, "night-of-games"], "at most 32 characters"),
        (["--hotspot", "Longhall"], "needs a name and a password"),
        (["--port", "eighty"], "bad port"),
        (["--prefix", "relative/path"], "absolute path"),
        (["--country", "Germany"], "two letters"),
        (["--gpio-config", "/nowhere.toml"], "no such pin map"),
        (["--frobnicate"], "unknown option"),
    ):
        result = dry_run(*options)
        assert result.returncode == 2, options
        assert says in result.stderr, (options, result.stderr)
        assert "+ " not in result.stdout


def saved_install(etc: Path, **options: str) -> Path:
    """An /etc/longhall as an earlier install left it (with a hotspot unless told otherwise)."""
    etc.mkdir(parents=True, exist_ok=True)
    values = {"port": "8000", "kiosk": "1", "hotspot": "1", "country": "DE", "own_pins": "0"}
    values.update(options)
    (etc / "install.conf").write_text("".join(f"{k}={v}\n" for k, v in values.items()))
    (etc / "hotspot").write_text("ssid=Long hall\npassword=night-of-games\n")
    return etc


def test_the_options_are_saved_for_the_next_run(tmp_path: Path) -> None:
    out = dry_run(
        "--prefix",
        str(tmp_path / "p"),
        "--port",
        "8080",
        "--no-kiosk",
        "--hotspot",
        "L",
        "12345678",
    ).stdout
    saved = written(out, "/etc/longhall/install.conf")
    assert {"port=8080", "kiosk=0", "hotspot=1", f"prefix={tmp_path / 'p'}"} <= set(
        saved.splitlines()
    )
    assert "12345678" not in saved  # the password stays in the hotspot's own file (mode 0640)


def test_an_update_keeps_the_saved_options_and_the_hotspot(tmp_path: Path) -> None:
    etc = saved_install(tmp_path / "etc", port="8080", prefix=str(tmp_path / "p"))
    result = dry_run("--update", etc=etc)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    steps = "\n".join(commands(out))
    assert "nmcli connection delete" not in steps and "nmcli connection add" not in steps
    assert "nmcli connection modify" not in steps
    assert 'hotspot "Long hall" stays as it is' in out
    (start,) = [
        line
        for line in written(out, "/etc/systemd/system/longhall.service").splitlines()
        if line.startswith("ExecStart=")
    ]
    assert f"{tmp_path / 'p'}/.venv/bin/longhall serve --port 8080" in start
    assert f"--hotspot-file {etc}/hotspot --public-url http://10.42.0.1:8080" in start
    assert "write /etc/systemd/system/longhall-kiosk.service" in steps
    assert "hotspot=1" in written(out, f"{etc}/install.conf")
    # a plain re-run (no --update) keeps the hotspot too; only --no-hotspot removes it
    steps = "\n".join(commands(dry_run(etc=etc).stdout))
    assert "nmcli connection delete" not in steps and f"rm -f {etc}/hotspot" not in steps
    steps = "\n".join(commands(dry_run("--no-hotspot", etc=etc).stdout))
    assert "nmcli connection delete longhall-hotspot" in steps and f"rm -f {etc}/hotspot" in steps


def test_a_new_password_changes_the_hotspot_in_place(tmp_path: Path) -> None:
    etc = saved_install(tmp_path / "etc")
    steps = commands(dry_run("--hotspot", "Long hall", "a-new-secret", etc=etc).stdout)
    (modify,) = [s for s in steps if s.startswith("nmcli connection modify longhall-hotspot")]
    assert modify.endswith("wifi-sec.psk a-new-secret")
    assert not any(s.startswith("nmcli connection delete") for s in steps)


def test_an_update_without_saved_options_is_refused(tmp_path: Path) -> None:
    result = dry_run("--update", etc=tmp_path / "etc")
    assert result.returncode == 2
    assert "install once without --update first" in result.stderr
    assert "+ " not in result.stdout


def test_an_update_with_nothing_new_needs_no_network(tmp_path: Path) -> None:
    prefix = tmp_path / "p"
    (prefix / ".venv").mkdir(parents=True)
    stamp = subprocess.run(
        "cat requirements.lock pyproject.toml setup.py | cksum",
        shell=True,
        cwd=INSTALL.parent.parent,
        capture_output=True,
    )
    (prefix / ".venv" / ".longhall-installed").write_bytes(stamp.stdout)
    etc = saved_install(tmp_path / "etc", prefix=str(prefix))
    every = [
        "python3",
        "python3-venv",
        "python3-pip",
        "python3-setuptools",
        "python3-wheel",
        "rsync",
        "sqlite3",
        "network-manager",
        "polkitd",
        "python3-lgpio",
        "dnsmasq-base",
        "wpasupplicant",
        "rfkill",
        "nftables",
        "avahi-daemon",
        "chromium-browser",
        "cage",
        "fonts-dejavu-core",
    ]
    out = dry_run("--update", etc=etc, env=debian(tmp_path / "bin", installed=tuple(every))).stdout
    steps = "\n".join(commands(out))
    # no apt, no pip: nothing that fetches; the code is copied and byte-compiled all the same
    assert "apt-get" not in steps and "pip install" not in steps, steps
    assert "every package is installed already" in out
    assert "dependencies are unchanged" in out
    assert f"-m compileall -q {prefix}/server {prefix}/hardware" in steps
    # one package gone: apt installs that one (and only then needs the network)
    done = dry_run("--update", etc=etc, env=debian(tmp_path / "bin", installed=tuple(every[1:])))
    assert (
        "apt-get install -y --no-install-recommends python3\n"
        in "\n".join(commands(done.stdout)) + "\n"
    )


def test_plain_debian_without_lgpio_installs_without_buttons_and_lights(tmp_path: Path) -> None:
    env = debian(tmp_path / "bin", unavailable=("python3-lgpio", "chromium-browser"))
    result = dry_run("--prefix", str(tmp_path / "p"), env=env)
    assert result.returncode == 0, result.stderr
    (install,) = [s for s in commands(result.stdout) if "apt-get install" in s]
    assert "python3-lgpio" not in install and " chromium " in install + " "
    assert "no python3-lgpio on this system" in result.stdout


def test_gpiozero_is_one_that_finds_the_pi_5s_chip() -> None:
    import tomllib

    from packaging.requirements import Requirement

    project = tomllib.loads((INSTALL.parent.parent / "pyproject.toml").read_text())["project"]
    (gpiozero,) = [
        Requirement(d) for d in project["dependencies"] if Requirement(d).name == "gpiozero"
    ]
    # 2.0 and 2.0.1 pick the wrong chip on a Pi 5 with a kernel from 6.6.45 on
    assert not gpiozero.specifier.contains("2.0.1") and not gpiozero.specifier.contains("2.0")
    assert gpiozero.specifier.contains("2.0.1.post3")


OFFLINE = ("--no-build-isolation", "-e")  # as the installer runs it


def test_longhall_installs_offline_without_a_build_step(tmp_path: Path) -> None:
    """What the installer runs, with nothing to download: Debian's setuptools builds the editable
    install in place, and pip may not reach any index."""
    root = INSTALL.parent.parent
    copy = tmp_path / "longhall"
    shutil.copytree(
        root,
        copy,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "*.egg-info", "__pycache__", ".*_cache", "test-artifacts"
        ),
    )
    # as the installer makes it: Debian's Python, seeing Debian's setuptools and wheel
    system = Path("/usr/bin/python3")
    ready = subprocess.run([system, "-c", "import setuptools, wheel"], capture_output=True)
    if ready.returncode != 0:
        pytest.skip("no python3-setuptools and python3-wheel here (the installer adds them)")
    venv = tmp_path / "venv"
    subprocess.run(
        [system, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=300
    )
    python = venv / "bin" / "python"
    install = subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps", *OFFLINE, str(copy)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": ""},
    )
    assert install.returncode == 0, install.stderr[-2000:]
    assert (venv / "bin" / "longhall").exists()
    compiled = subprocess.run(
        [python, "-m", "compileall", "-q", str(copy / "server"), str(copy / "hardware")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert compiled.returncode == 0, compiled.stdout
    assert list((copy / "server" / "appliance" / "__pycache__").glob("sdnotify.*.pyc"))
