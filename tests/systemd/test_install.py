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

from .conftest import INSTALL, render, secret

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
        "--password-file",
        secret(tmp_path),
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
        # a release folder of its own, with its own venv, checked before `current` points to it
        rf"rsync -a --delete .* /.*/ {target}/releases/0\.1\.0-[0-9-]+/$",
        rf"python3 -m venv --system-site-packages {target}/releases/0\.1\.0-[0-9-]+/\.venv",
        # exactly the versions the tests passed with, each checked against its hashes, from the
        # prefix's wheelhouse (filled from PyPI when a wheel is missing)
        rf"{target}/releases/.*/\.venv/bin/python -m pip install --quiet --no-index --find-links "
        rf"{target}/wheelhouse --require-hashes -r {target}/releases/.*/requirements\.lock",
        rf"{target}/releases/.*/\.venv/bin/python -m pip install --quiet --no-index --no-deps "
        rf"--no-build-isolation {target}/releases/0\.1\.0-[0-9-]+$",
        rf"write {target}/releases/.*/\.source ",
        rf"check {target}/releases/.* on a spare port with a copy of the store",
        rf"ln -sfn releases/0\.1\.0-[0-9-]+ {target}/\.current\.new",
        rf"mv -T {target}/\.current\.new {target}/current",
        r"install -d -m 0755 /etc/longhall",
        r"write /etc/longhall/install.conf ",
        # the journal's limits, so that no flood of log lines fills the SD card
        r"install -m 0644 /.*/systemd/journald-longhall.conf "
        r"/etc/systemd/journald.conf.d/longhall.conf",
        r"raspi-config nonint do_wifi_country DE",
        r"rfkill unblock wifi",
        # the password in a file of NetworkManager's (mode 0600), never on a command line
        r"write /etc/NetworkManager/system-connections/longhall-hotspot.nmconnection "
        r"\(mode 0600",
        r"nmcli connection reload",
        r"write /etc/longhall/hotspot \(mode 0640, owner root:longhall\):",
        r"write /etc/systemd/system/longhall.service ",
        r"write /etc/systemd/system/longhall-kiosk.service ",
        r"write /etc/pam.d/longhall-kiosk ",
        r"systemctl set-default multi-user.target",
        r"sed -i .*consoleblank=0.* /boot/firmware/cmdline.txt",
        r"write /etc/systemd/zram-generator.conf ",
        r"systemctl disable --now dphys-swapfile.service",
        r"systemctl enable longhall.service",
        r"systemctl enable longhall-kiosk.service",
        r"systemctl daemon-reload",
        r"systemctl restart longhall.service",
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
    # the password is in no command, and each step says how long it took
    assert "amber-lantern-42" not in "\n".join(steps)
    assert "How long each step took" in out


def test_the_hotspots_keyfile_holds_the_password_as_networkmanager_reads_it(
    tmp_path: Path,
) -> None:
    """The keyfile's lines, filled in as install.sh fills them: NetworkManager reads a password
    with spaces and backslashes back as written (GKeyFile's escapes), and any Wi-Fi name."""
    script = (
        f"source <(sed -n '/^nm_escape()/,/^}}/p; /^ssid_bytes()/,/^}}/p' {INSTALL}); "
        'nm_escape "$1"; echo; ssid_bytes "$2"'
    )
    done = subprocess.run(
        ["bash", "-c", script, "-", " lead\\ing and trailing ", "Café 2"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    psk, ssid = done.stdout.splitlines()
    assert psk == "\\slead\\\\ing and trailing "
    assert bytes(int(b) for b in ssid.rstrip(";").split(";")).decode() == "Café 2"


def test_the_dry_run_shows_the_files_the_server_reads(tmp_path: Path, prefix: Path) -> None:
    # a password may hold '=' and ';' and begin or end with a space
    password = secret(tmp_path / "secret", " p=ss w0rd;x ")
    out = dry_run(
        "--prefix", str(prefix), "--hotspot", "Long hall", "--password-file", password
    ).stdout
    hotspot = tmp_path / "hotspot"
    hotspot.write_text(written(out, "/etc/longhall/hotspot"))
    assert read_hotspot(hotspot) == {"ssid": "Long hall", "password": " p=ss w0rd;x "}
    keyfile = written(
        out, "/etc/NetworkManager/system-connections/longhall-hotspot.nmconnection"
    ).splitlines()
    assert "psk=(hidden)" in keyfile and "p=ss" not in "\n".join(commands(out))  # nor printed
    assert {"mode=ap", "method=shared", "address1=10.42.0.1/24", "key-mgmt=wpa-psk"} <= set(keyfile)

    # piped in, as a script or firstboot gives it
    piped = subprocess.run(
        ["bash", str(INSTALL), "--dry-run", "--prefix", str(prefix), "--hotspot", "L",
         "--password-file", "-"],
        input="from-standard-input\n", capture_output=True, text=True,
        env={**os.environ, **FRESH_DEBIAN},
    )  # fmt: skip
    assert "password=from-standard-input" in written(piped.stdout, "/etc/longhall/hotspot")

    units = render(tmp_path / "units", prefix, "--hotspot", "Long hall")
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
    short, example = Path(secret(Path(tempfile.mkdtemp()), "short")), Path(tempfile.mkdtemp())
    for options, says in (
        (["--hotspot", "Longhall", "--password-file", str(short)], "8 to 63 characters"),
        (["--hotspot", "x" * 33], "1 to 32 characters"),
        (["--hotspot"], "needs the Wi-Fi's name"),
        # the password never on the command line; the docs' example is known to everyone
        (["--hotspot", "Longhall", "night-of-games"], "never given on the command line"),
        (["--hotspot", "L", "--password-file", secret(example, "a-long-secret")], "example"),
        (["--hotspot", "L", "--password-file", "/nowhere"], "cannot read the password file"),
        (["--password-file", str(short)], "goes with --hotspot or --home-wifi"),
        (["--language", "es"], "en, nl, fr or de"),
        (["--expert-playouts", "many"], "a number from 1 to 10000"),
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
        "--language",
        "nl",
    ).stdout
    saved = written(out, "/etc/longhall/install.conf")
    assert {
        "port=8080",
        "kiosk=0",
        "hotspot=1",
        f"prefix={tmp_path / 'p'}",
        "language=nl",
        "ssh_on_hotspot=0",
    } <= set(saved.splitlines())
    # none given: one was made, shown at the end, kept in the hotspot's own file (mode 0640)
    password = read_hotspot_text(written(out, "/etc/longhall/hotspot"))
    assert re.fullmatch(r"[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}", password)
    assert f"Its password, made now: {password}" in out
    assert password not in saved


def read_hotspot_text(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("password="))[9:]


def test_an_update_keeps_the_saved_options_and_the_hotspot(tmp_path: Path) -> None:
    etc = saved_install(tmp_path / "etc", port="8080", prefix=str(tmp_path / "p"))
    result = dry_run("--update", etc=etc)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    steps = "\n".join(commands(out))
    assert "nmcli connection delete" not in steps and "nmcli connection add" not in steps
    assert "longhall-hotspot.nmconnection" not in steps
    assert 'hotspot "Long hall" stays as it is' in out
    (start,) = [
        line
        for line in written(out, "/etc/systemd/system/longhall.service").splitlines()
        if line.startswith("ExecStart=")
    ]
    assert f"{tmp_path / 'p'}/current/.venv/bin/longhall serve --port 8080" in start
    assert f"--hotspot-file {etc}/hotspot --public-url http://10.42.0.1:8080" in start
    assert "write /etc/systemd/system/longhall-kiosk.service" in steps
    assert "hotspot=1" in written(out, f"{etc}/install.conf")
    # a plain re-run (no --update) keeps the hotspot too; only --no-hotspot removes it
    steps = "\n".join(commands(dry_run(etc=etc).stdout))
    assert "nmcli connection delete" not in steps and f"rm -f {etc}/hotspot" not in steps
    steps = "\n".join(commands(dry_run("--no-hotspot", etc=etc).stdout))
    assert "nmcli connection delete longhall-hotspot" in steps and f"rm -f {etc}/hotspot" in steps
    assert "rm -f /etc/NetworkManager/system-connections/longhall-hotspot.nmconnection" in steps


def test_a_new_password_changes_the_hotspot_in_place(tmp_path: Path) -> None:
    etc = saved_install(tmp_path / "etc")
    root = tmp_path / "root"  # the system as NetworkManager keeps the hotspot made before
    connections = root / "etc" / "NetworkManager" / "system-connections"
    connections.mkdir(parents=True)
    uuid = "0b6d2c3e-5f0e-4b61-9a0b-3c6c1f0e7d21"
    (connections / "longhall-hotspot.nmconnection").write_text(f"[connection]\nuuid={uuid}\n")
    env = {**FRESH_DEBIAN, "LONGHALL_SYSROOT": str(root)}
    password = secret(tmp_path, "a-new-secret")
    out = dry_run("--hotspot", "Long hall", "--password-file", password, etc=etc, env=env).stdout
    keyfile = written(out, f"{connections}/longhall-hotspot.nmconnection").splitlines()
    assert f"uuid={uuid}" in keyfile  # the same connection, changed in place
    steps = commands(out)
    assert "nmcli connection reload" in steps
    assert not any(s.startswith(("nmcli connection delete", "nmcli connection up")) for s in steps)


def test_an_update_without_saved_options_is_refused(tmp_path: Path) -> None:
    result = dry_run("--update", etc=tmp_path / "etc")
    assert result.returncode == 2
    assert "install once without --update first" in result.stderr
    assert "+ " not in result.stdout


def test_an_update_with_nothing_new_needs_no_network(tmp_path: Path) -> None:
    prefix = tmp_path / "p"
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
        "systemd-zram-generator",
    ]
    debian_done = debian(tmp_path / "bin", installed=tuple(every))
    # the release this checkout makes, installed before
    first = dry_run("--update", etc=etc, env=debian_done).stdout
    stamp = next(line.split()[2] for line in first.splitlines() if "/.source (mode" in line)
    source = written(first, stamp)
    (prefix / "current").mkdir(parents=True)
    (prefix / "current" / ".source").write_text(source)
    out = dry_run("--update", etc=etc, env=debian_done).stdout
    steps = "\n".join(commands(out))
    # no apt, no pip, no new release: nothing that fetches
    assert "apt-get" not in steps and "pip " not in steps, steps
    assert "every package is installed already" in out
    assert "Longhall is unchanged" in out
    # one package gone: apt installs that one (and only then needs the network)
    done = dry_run("--update", etc=etc, env=debian(tmp_path / "bin2", installed=tuple(every[1:])))
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


OFFLINE = ("--no-index", "--no-deps", "--no-build-isolation")  # as the installer runs it


def test_longhall_installs_offline_without_a_build_step(tmp_path: Path) -> None:
    """What the installer runs from a clone, with nothing to download: Debian's setuptools builds
    Longhall into the release's venv, compiled, and pip may not reach any index."""
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
        [python, "-m", "pip", "install", "--quiet", *OFFLINE, str(copy)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": ""},
    )
    assert install.returncode == 0, install.stderr[-2000:]
    assert (venv / "bin" / "longhall").exists()
    # installed, not linked to the copy, and compiled by pip: the service's first start on a Pi
    # compiles nothing (it could not: the release folder is root's)
    (installed,) = venv.glob("lib/python3*/site-packages/longhall/server/appliance")
    assert list((installed / "__pycache__").glob("sdnotify.*.pyc"))
