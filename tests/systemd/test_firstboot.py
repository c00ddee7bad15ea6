"""The first boot without a keyboard: longhall.txt on a boot folder of the test's making, checked
line by line (a mistake applies nothing and is shown on the table display, never a silent
default), applied by install.sh's own options with the password on standard input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from longhall.server.appliance.firstboot import Problem, Settings, apply, parse, read_problem
from longhall.server.config import Settings as ServerSettings
from longhall.server.web.app import create_app

from .conftest import SYSTEMD, render, systemd_analyze, unit

TEMPLATE = (SYSTEMD / "longhall.txt").read_text(encoding="utf-8")


def boot_folder(tmp_path: Path, text: str) -> Path:
    boot = tmp_path / "boot" / "firmware"
    boot.mkdir(parents=True)
    (boot / "longhall.txt").write_text(text, encoding="utf-8")
    return boot / "longhall.txt"


def fake_install(tmp_path: Path, status: int = 0) -> list[str]:
    """An install.sh that notes its options and what came on its standard input."""
    script = tmp_path / "install.sh"
    script.write_text(
        f'printf "%s\\n" "$@" > {tmp_path}/install.args\ncat > {tmp_path}/install.stdin\n'
        f"exit {status}\n"
    )
    return ["bash", str(script)]


def test_the_template_as_shipped_needs_only_a_country(tmp_path: Path) -> None:
    found = parse(TEMPLATE)
    assert found == Problem(found.line, "country=", "country_needed")  # type: ignore[union-attr]
    settings = parse(TEMPLATE.replace("\ncountry=\n", "\ncountry=de\n"))
    assert isinstance(settings, Settings)
    assert settings.install_options() == [
        "--update",
        "--no-start",
        "--hotspot",
        "Longhall",
        "--country",
        "DE",
        "--language",
        "en",
    ]  # fmt: skip  (no password: install.sh makes one, and the table display shows it)


def test_a_sound_file_is_applied_by_the_installer_with_the_password_on_stdin(
    tmp_path: Path,
) -> None:
    text = (
        "\ufeff# written on Windows\r\nwifi = home\r\nname=Our Wi-Fi\r\npassword=p=ss w0rd;#x\r\n"
        "country=nl\r\nlanguage=NL\r\nkiosk=off\r\n"
    )
    path = boot_folder(tmp_path, text)
    data = tmp_path / "state"
    (data).mkdir()
    (data / "setup-problem.json").write_text("{}")  # from an earlier, wrong, version of the file
    assert apply(path, data, fake_install(tmp_path)) == 0
    args = (tmp_path / "install.args").read_text().splitlines()
    assert args == [
        "--update", "--no-start", "--home-wifi", "Our Wi-Fi", "--password-file", "-",
        "--country", "NL", "--language", "nl", "--no-kiosk",
    ]  # fmt: skip
    assert (tmp_path / "install.stdin").read_text() == "p=ss w0rd;#x\n"
    assert "p=ss" not in " ".join(args)  # never on a command line
    # applied once: the file is renamed, without its password; the old problem is gone
    assert not path.exists() and not (data / "setup-problem.json").exists()
    done = path.with_name("longhall.txt.done").read_text()
    assert "p=ss" not in done and "wifi = home" in done


@pytest.mark.parametrize(
    ("text", "line", "why"),
    [
        ("wifi=hotspt\ncountry=DE\n", 1, "wifi"),
        ("wifi=hotspot\ncountry=Germany\n", 2, "country"),
        ("wifi=hotspot\n", 1, "country_needed"),
        ("country=DE\nwifi=hotspot\npassword=short\n", 3, "password"),
        ("wifi=hotspot\ncountry=DE\npassword=a-long-secret\n", 3, "example_password"),
        ("wifi=home\nname=Home\ncountry=DE\n", 1, "home_password"),
        ("wifi=hotspot\ncountry=DE\nname=" + "x" * 33 + "\n", 3, "name"),
        ("# notes\n\nlanguage=es\n", 3, "language"),
        ("kiosk=maybe\n", 1, "kiosk"),
        ("colour=red\n", 1, "unknown_key"),
        ("just some words\n", 1, "not_key_value"),
        ("language=de\nlanguage=fr\n", 2, "twice"),
    ],
)
def test_a_mistake_applies_nothing_and_says_where(
    tmp_path: Path, text: str, line: int, why: str
) -> None:
    path = boot_folder(tmp_path, text)
    data = tmp_path / "state"
    assert apply(path, data, fake_install(tmp_path)) == 1
    assert not (tmp_path / "install.args").exists()  # the installer never ran
    assert path.read_text() == text  # the file stays, to be corrected
    notice = read_problem(data)
    assert notice is not None and notice["code"] == "setup_file"
    assert notice["params"]["line"] == line and notice["params"]["why"] == why
    assert "short" not in json.dumps(notice) and "a-long-secret" not in json.dumps(notice)


def test_a_failing_installer_keeps_the_file(tmp_path: Path) -> None:
    path = boot_folder(tmp_path, "language=de\n")
    assert apply(path, tmp_path / "state", fake_install(tmp_path, status=1)) == 1
    assert path.exists() and not path.with_name("longhall.txt.done").exists()


def test_the_table_display_gets_the_mistake_as_a_standing_notice(tmp_path: Path) -> None:
    from longhall.server.appliance.firstboot import check_setup

    path = boot_folder(tmp_path, "wifi=hotspt\ncountry=DE\n")
    apply(path, tmp_path, fake_install(tmp_path))
    longhall = create_app(ServerSettings(data_dir=tmp_path, gpio="off"))
    try:
        assert check_setup(longhall.table)
        (notice,) = [n for n in longhall.table.notices.values() if n["code"] == "setup_file"]
        assert notice["params"] == {"line": 1, "text": "wifi=hotspt", "why": "wifi"}
    finally:
        longhall.stop()
    # every language has the sentence and every reason
    for lang in ("en", "nl", "fr", "de"):
        catalog = json.loads(
            (SYSTEMD.parent / "server" / "static" / "i18n" / f"{lang}.json").read_text("utf-8")
        )
        assert "{why}" in catalog["notices"]["setup_file"]
        assert {"wifi", "country_needed", "example_password"} <= set(
            catalog["notices"]["setup_why"]
        )


def test_the_first_boot_unit(tmp_path: Path, prefix: Path) -> None:
    units = render(tmp_path / "units", prefix)
    service = unit(units / "longhall-firstboot.service")
    assert service["Unit"]["ConditionPathExists"] == ["/boot/firmware/longhall.txt"]
    assert "longhall.service" in service["Unit"]["Before"][0]
    assert "NetworkManager.service" in service["Unit"]["Before"][0]
    (start,) = service["Service"]["ExecStart"]
    assert start.startswith(f"{prefix}/current/.venv/bin/python -m longhall.server.appliance.")
    assert f"--install {prefix}/current/systemd/install.sh" in start
    said = subprocess.run(
        [systemd_analyze(), "verify", str(units / "longhall-firstboot.service")],
        capture_output=True,
        text=True,
    )
    ours = [line for line in (said.stdout + said.stderr).splitlines() if "longhall" in line]
    assert ours == [] or all("python" in line for line in ours), ours
    # the module runs as the unit runs it, and does nothing without the file
    missing = subprocess.run(
        [sys.executable, "-m", "longhall.server.appliance.firstboot", str(tmp_path / "none.txt"),
         "--install", "/bin/false"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert missing.returncode == 0
