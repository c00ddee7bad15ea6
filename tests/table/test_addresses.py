"""The addresses phones use (an IP, not a ``.local`` name) and the Wi-Fi QR code."""

from __future__ import annotations

import ipaddress
import re
import socket
import sys
from pathlib import Path
from typing import Any

import pytest

from longhall.server.appliance import addresses as netinfo
from longhall.server.appliance.addresses import base_url, lan_address
from longhall.server.config import Settings
from longhall.server.qr import qr_svg, wifi_qr_text
from longhall.server.web.app import create_app

# -- the WIFI: text ----------------------------------------------------------------------------


def parse_wifi(text: str) -> dict[str, str]:
    """Read a ``WIFI:`` text as a phone does: fields end at an unescaped ``;``, ``\\`` escapes."""
    assert text.startswith("WIFI:") and text.endswith(";;")
    fields: dict[str, str] = {}
    key, value, escaped, in_value = "", "", False, False
    for ch in text[len("WIFI:") : -1]:
        if escaped:
            value += ch
            escaped = False
        elif ch == "\\":
            assert in_value, "an escape outside a value"
            escaped = True
        elif not in_value and ch == ":":
            in_value = True
        elif not in_value:
            key += ch
        elif ch == ";":
            fields[key] = value
            key, value, in_value = "", "", False
        elif ch in ',:"':
            raise AssertionError(f"an unescaped {ch!r} in {text!r}")
        else:
            value += ch
    assert not key and not value and not escaped, f"{text!r} does not end a field cleanly"
    return fields


def test_wifi_text_escapes_every_special_character() -> None:
    assert wifi_qr_text('a\\b;c,d:e"f', "p;w") == 'WIFI:T:WPA;S:a\\\\b\\;c\\,d\\:e\\"f;P:p\\;w;;'


def test_wifi_text_without_a_password_is_an_open_network() -> None:
    assert wifi_qr_text("Longhall", "") == "WIFI:T:nopass;S:Longhall;P:;;"


@pytest.mark.parametrize(
    ("ssid", "password"),
    [
        ("Longhall", "night-of-games"),
        ("Long;hall", "pass;word"),
        ("back\\slash", "ends with a backslash\\"),
        ('quote"d', '"'),
        ("a:b,c", "::,,;;"),
        ("\\;", "\\\\;"),
        ("Wi-Fi ü", "ünïcödé ★"),
    ],
)
def test_wifi_text_reads_back_as_written(ssid: str, password: str) -> None:
    fields = parse_wifi(wifi_qr_text(ssid, password))
    assert fields == {"T": "WPA", "S": ssid, "P": password}


# -- /qr/wifi.svg --------------------------------------------------------------------------------


def wifi_response(tmp_path: Path, hotspot_file: Path | None) -> tuple[int, str, Any]:
    settings = Settings(
        data_dir=tmp_path,
        gpio="off",
        bot_delay=0.0,
        public_url="http://10.42.0.1:8000",
        hotspot_file=hotspot_file,
    )
    lh = create_app(settings)
    try:
        response = lh.app.test_client().get("/qr/wifi.svg")
        return response.status_code, response.get_data(as_text=True), lh.table.public_table()
    finally:
        lh.stop()


def test_no_hotspot_file_no_wifi_qr(tmp_path: Path) -> None:
    status, _, table = wifi_response(tmp_path, None)
    assert status == 404
    assert table["hotspot"] is None


def test_a_hotspot_file_that_does_not_exist_is_no_hotspot(tmp_path: Path) -> None:
    status, _, table = wifi_response(tmp_path, tmp_path / "hotspot")
    assert status == 404
    assert table["hotspot"] is None


def test_a_hotspot_file_without_a_name_is_no_hotspot(tmp_path: Path) -> None:
    path = tmp_path / "hotspot"
    path.write_text("password=secret\n", encoding="utf-8")
    status, _, table = wifi_response(tmp_path, path)
    assert status == 404
    assert table["hotspot"] is None


def test_the_wifi_qr_code_carries_the_hotspot_name_and_password(tmp_path: Path) -> None:
    password = 'p;a,s:s"w\\rd'
    path = tmp_path / "hotspot"
    path.write_text(f"ssid=Longhall\npassword={password}\n", encoding="utf-8")
    status, body, table = wifi_response(tmp_path, path)
    assert status == 200
    assert table["hotspot"] == {"ssid": "Longhall", "password": password}
    assert body == qr_svg(wifi_qr_text("Longhall", password))
    assert body != qr_svg(wifi_qr_text("Longhall", "another password"))
    assert body.lstrip().startswith("<?xml") and "<svg" in body


# -- the address phones use ----------------------------------------------------------------------


class FakeSocket:
    """A UDP socket whose 'connect' finds the given local address (or fails)."""

    def __init__(self, address: str | None) -> None:
        self.address = address

    def __enter__(self) -> FakeSocket:
        return self

    def __exit__(self, *_: object) -> None:
        pass

    def connect(self, _: object) -> None:
        if self.address is None:
            raise OSError("Network is unreachable")

    def getsockname(self) -> tuple[str, int]:
        assert self.address is not None
        return self.address, 40000


def route(
    monkeypatch: pytest.MonkeyPatch, address: str | None, interfaces: list[tuple[str, str]]
) -> None:
    monkeypatch.setattr(socket, "socket", lambda *_: FakeSocket(address))
    monkeypatch.setattr(netinfo, "ipv4_addresses", lambda: interfaces)


def test_lan_address_is_an_ip_address_of_this_machine() -> None:
    address = lan_address()
    assert ipaddress.ip_address(address).version == 4
    assert not address.endswith(".local")


def test_lan_address_takes_the_default_routes_address(monkeypatch: pytest.MonkeyPatch) -> None:
    route(monkeypatch, "192.168.1.50", [("wlan0", "10.42.0.1")])
    assert lan_address() == "192.168.1.50"


def test_without_a_default_route_the_hotspot_wifi_comes_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    route(
        monkeypatch,
        None,
        [
            ("lo", "127.0.0.1"),
            ("docker0", "172.17.0.1"),
            ("eth0", "192.168.1.20"),
            ("wlan0", "10.42.0.1"),
        ],
    )
    assert lan_address() == "10.42.0.1"


def test_a_loopback_route_is_not_an_address_for_phones(monkeypatch: pytest.MonkeyPatch) -> None:
    route(monkeypatch, "127.0.0.1", [("lo", "127.0.0.1"), ("eth0", "192.168.1.20")])
    assert lan_address() == "192.168.1.20"


def test_private_addresses_before_public_ones_and_no_link_local(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    route(monkeypatch, None, [("eth0", "169.254.3.4"), ("eth1", "8.8.4.4"), ("eth2", "10.0.0.7")])
    assert lan_address() == "10.0.0.7"


def test_with_no_address_at_all_loopback_is_left(monkeypatch: pytest.MonkeyPatch) -> None:
    route(monkeypatch, None, [("lo", "127.0.0.1"), ("eth0", "169.254.3.4")])
    assert lan_address() == "127.0.0.1"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux interfaces")
def test_ipv4_addresses_lists_this_machines_interfaces() -> None:
    found = netinfo.ipv4_addresses()
    assert ("lo", "127.0.0.1") in found
    assert all(ipaddress.ip_address(address).version == 4 for _, address in found)


def test_base_url_listening_everywhere_is_the_lan_ip(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(netinfo, "lan_address", lambda: "192.168.1.20")
    assert base_url("0.0.0.0", 8000) == "http://192.168.1.20:8000"
    assert base_url("::", 8080) == "http://192.168.1.20:8080"
    assert base_url("", 80) == "http://192.168.1.20:80"


def test_base_url_is_never_a_local_name() -> None:
    url = base_url("0.0.0.0", 8000)
    host = re.fullmatch(r"http://(.+):8000", url)
    assert host is not None, url
    assert ipaddress.ip_address(host.group(1)).version == 4
    assert ".local" not in url


def test_base_url_of_a_given_address_keeps_it() -> None:
    assert base_url("192.168.1.5", 8000) == "http://192.168.1.5:8000"
    assert base_url("fe80::1", 8000) == "http://[fe80::1]:8000"


def test_an_explicit_public_url_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(netinfo, "lan_address", lambda: "192.168.1.20")
    assert base_url("0.0.0.0", 8000, "http://10.42.0.1:8000/") == "http://10.42.0.1:8000"
    assert base_url("127.0.0.1", 9000, "https://longhall.example") == "https://longhall.example"


def test_the_tables_join_url_follows_the_public_url(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, gpio="off", public_url="http://10.42.0.1:8000/")
    lh = create_app(settings)
    try:
        table = lh.table.public_table()
        assert table["join_url"] == f"http://10.42.0.1:8000/join/{table['code']}"
        qr = lh.app.test_client().get("/qr/join.svg").get_data(as_text=True)
        assert qr == qr_svg(table["join_url"])
    finally:
        lh.stop()


def test_without_a_public_url_the_join_url_is_the_lan_ip(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(netinfo, "lan_address", lambda: "192.168.1.20")
    lh = create_app(Settings(data_dir=tmp_path, gpio="off", port=8123))
    try:
        table = lh.table.public_table()
        assert table["join_url"] == f"http://192.168.1.20:8123/join/{table['code']}"
    finally:
        lh.stop()
