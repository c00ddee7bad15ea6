"""The Pi's offline Wi-Fi, as the install script left it for the server to show."""

from __future__ import annotations

from pathlib import Path


def read_hotspot(path: Path | None) -> dict[str, str] | None:
    """The offline Wi-Fi's name and password, written by the install script when it is on."""
    if path is None or not path.exists():
        return None
    values: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        key, sep, value = line.partition("=")
        if sep:  # the value as written: a Wi-Fi name or password may begin or end with a space
            values[key.strip()] = value.removesuffix("\r")
    if not values.get("ssid"):
        return None
    return {"ssid": values["ssid"], "password": values.get("password", "")}
