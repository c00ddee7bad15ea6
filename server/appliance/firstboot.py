"""The first boot without a keyboard: ``longhall.txt`` on the SD card's boot partition, applied.

The owner edits ``longhall.txt`` (``systemd/longhall.txt`` is the template the image puts there)
on any computer: the Wi-Fi (the Pi's own hotspot, or the home Wi-Fi), its name and password, the
Wi-Fi country, the table display's language, the kiosk. ``longhall-firstboot.service`` runs this
at boot while the file is there:

- every line is checked first; a mistake applies **nothing** (no silent default): the first one
  is written to ``setup-problem.json`` in the store's folder, the server shows it on the table
  display in the display's language (its line, its text, what is expected), and the file stays
  for the owner to correct;
- a sound file is applied by ``install.sh`` itself (``--update --no-start`` and the options it
  names; the password on standard input, never on a command line), then renamed
  ``longhall.txt.done`` without its password, and the Pi restarts once into the new settings.

Standard library only, and nothing of the rest of the server: it runs before the server does.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

PROBLEM_FILE = "setup-problem.json"
NOTICE = "setup_file"
KEYS = ("wifi", "name", "password", "country", "language", "kiosk")
# the example in the docs and the template: refused, as install.sh refuses it
EXAMPLE_PASSWORDS = frozenset({"a-long-secret", "night-of-games", "change-me-please"})


@dataclass(frozen=True)
class Problem:
    """A mistake in longhall.txt: its line (1 on), the line as written, why (a catalog code)."""

    line: int
    text: str
    why: str

    def notice(self) -> dict[str, Any]:
        return {
            "code": NOTICE,
            "message": f"longhall.txt, line {self.line} ({self.text!r}): {self.why}. "
            "Nothing in it was applied.",
            "params": {"line": self.line, "text": self.text[:80], "why": self.why},
        }


@dataclass
class Settings:
    """What longhall.txt asks for (None: not said, left as it is)."""

    values: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)

    def install_options(self) -> list[str]:
        """install.sh's options for these settings (the password goes on standard input)."""
        options = ["--update", "--no-start"]
        wifi, name = self.values.get("wifi", ""), self.values.get("name", "")
        password = self.values.get("password", "")
        if wifi == "hotspot":
            options += ["--hotspot", name or "Longhall"]
        elif wifi == "home":
            options += ["--home-wifi", name]
        if wifi and password:
            options += ["--password-file", "-"]
        if self.values.get("country"):
            options += ["--country", self.values["country"]]
        if self.values.get("language"):
            options += ["--language", self.values["language"]]
        kiosk = self.values.get("kiosk", "")
        if kiosk == "on":
            options.append("--kiosk")
        elif kiosk == "off":
            options.append("--no-kiosk")
        return options


def parse(text: str) -> Settings | Problem:
    """The settings of a longhall.txt, or its first mistake."""
    settings = Settings()
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        key, value = key.strip().lower(), value.strip()
        if not sep:
            return Problem(number, line, "not_key_value")
        if key not in KEYS:
            return Problem(number, line, "unknown_key")
        if key in settings.values:
            return Problem(number, line, "twice")
        why = _check(key, value)
        if why is not None:
            shown = line if key != "password" else "password=…"  # never on the screen
            return Problem(number, shown, why)
        settings.values[key] = value.upper() if key == "country" else value.lower() if key in (
            "wifi", "language", "kiosk") else value  # fmt: skip
        settings.lines[key] = number
    return _check_together(settings)


def _check(key: str, value: str) -> str | None:
    if key == "wifi" and value.lower() not in ("", "hotspot", "home"):
        return "wifi"
    if key == "kiosk" and value.lower() not in ("", "on", "off", "auto"):
        return "kiosk"
    if key == "language" and value.lower() not in ("", "en", "nl", "fr", "de"):
        return "language"
    if key == "country" and value and not re.fullmatch(r"[A-Za-z]{2}", value):
        return "country"
    if key == "name" and len(value.encode("utf-8")) > 32:
        return "name"
    if key == "password" and value:
        if not 8 <= len(value) <= 63 or not value.isprintable():
            return "password"
        if value in EXAMPLE_PASSWORDS:
            return "example_password"
    return None


def _check_together(settings: Settings) -> Settings | Problem:
    values, lines = settings.values, settings.lines
    wifi = values.get("wifi", "")
    if wifi and not values.get("country"):
        line = lines.get("country", lines["wifi"])
        return Problem(line, f"country={values.get('country', '')}", "country_needed")
    if wifi == "home" and not values.get("name"):
        return Problem(lines.get("name", lines["wifi"]), "name=", "name")
    if wifi == "home" and not values.get("password"):
        return Problem(lines.get("password", lines["wifi"]), "password=", "home_password")
    return settings


def read_problem(data_dir: Path) -> dict[str, Any] | None:
    """The notice for a longhall.txt that could not be applied, if there is one."""
    try:
        found = json.loads((data_dir / PROBLEM_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(found, dict) or found.get("code") != NOTICE:
        return None
    return found


def check_setup(table: Any) -> bool:
    """Show a longhall.txt mistake on the table display (a standing notice); True if there is."""
    found = read_problem(table.settings.data_dir)
    if found is None:
        return False
    log.error("!!! %s", found.get("message", "longhall.txt could not be applied"))
    with table.lock:
        table.notices[NOTICE] = found
        table.refresh()
    return True


def apply(path: Path, data_dir: Path, install: list[str], run: Any = subprocess.run) -> int:
    """Read, check and apply one longhall.txt; 0 when applied, 1 when it has a mistake or the
    installer failed (the file stays, and the table display says why)."""
    problem_file = data_dir / PROBLEM_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        found: Settings | Problem = Problem(1, path.name, "not_key_value")
    else:
        found = parse(text)
    if isinstance(found, Problem):
        data_dir.mkdir(parents=True, exist_ok=True)
        problem_file.write_text(json.dumps(found.notice(), ensure_ascii=False) + "\n")
        print(f"longhall.txt: {found.notice()['message']}", file=sys.stderr)
        return 1
    done = run(
        [*install, *found.install_options()],
        input=found.values.get("password", "") + "\n",
        text=True,
    )
    if done.returncode != 0:
        print(f"longhall.txt: install.sh failed (status {done.returncode})", file=sys.stderr)
        return 1
    problem_file.unlink(missing_ok=True)
    # applied: kept for the record, without the password (the boot partition is readable by all)
    kept = [
        "password=(applied, removed)" if line.strip().lower().startswith("password") else line
        for line in text.splitlines()
    ]
    path.with_name(path.name + ".done").write_text("\n".join(kept) + "\n", encoding="utf-8")
    path.unlink()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Apply longhall.txt from the boot partition.")
    parser.add_argument("file", type=Path, help="e.g. /boot/firmware/longhall.txt")
    parser.add_argument("--install", required=True, help="install.sh to apply it with")
    parser.add_argument("--data-dir", type=Path, default=Path("/var/lib/longhall"))
    parser.add_argument("--then", help='a command once applied, e.g. "systemctl reboot"')
    args = parser.parse_args(argv)
    if not args.file.exists():
        return 0
    status = apply(args.file, args.data_dir, ["bash", args.install])
    if status == 0 and args.then:
        subprocess.run(args.then.split(), check=False)
    return status


if __name__ == "__main__":
    sys.exit(main())
