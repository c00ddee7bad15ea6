"""The phones' connectivity checks get a working internet's answers (no captive portal window on
the hotspot), and the kiosk's sign of life is kept, from this machine only."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from longhall.server.config import Settings
from longhall.server.web.app import create_app
from tests.support import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("connectivity"))
    proc.start()
    yield proc
    proc.stop()


@pytest.mark.parametrize(
    ("host", "path", "status", "body"),
    [
        ("connectivitycheck.gstatic.com", "/generate_204", 204, ""),  # Android
        ("www.google.com", "/gen_204", 204, ""),
        (
            "captive.apple.com",
            "/hotspot-detect.html",
            200,
            "<HTML><HEAD><TITLE>Success</TITLE></HEAD><BODY>Success</BODY></HTML>",
        ),  # iOS, macOS
        (
            "www.apple.com",
            "/library/test/success.html",
            200,
            "<HTML><HEAD><TITLE>Success</TITLE></HEAD><BODY>Success</BODY></HTML>",
        ),
        ("www.msftconnecttest.com", "/connecttest.txt", 200, "Microsoft Connect Test"),  # Windows
        ("www.msftncsi.com", "/ncsi.txt", 200, "Microsoft NCSI"),
        ("detectportal.firefox.com", "/success.txt", 200, "success\n"),  # Firefox
        ("connect.rom.miui.com", "/generate_204", 204, ""),  # Xiaomi
        ("connectivitycheck.platform.hicloud.com", "/generate_204", 204, ""),  # Huawei
        ("connectivitycheck.cbg-app.huawei.com", "/generate_204", 204, ""),  # Huawei, HarmonyOS
    ],
)
def test_each_check_gets_the_online_answer(
    server: ServerProcess, host: str, path: str, status: int, body: str
) -> None:
    # as a phone asks it: port 80 of the probe's name, which the hotspot sends to the server
    answer = requests.get(server.url + path, headers={"Host": host}, timeout=10)
    assert answer.status_code == status
    assert answer.text == body
    assert answer.headers["Cache-Control"] == "no-store"
    assert not answer.history  # no redirect: a redirect is what a captive portal does


def test_a_check_name_gets_only_the_checks_answers(server: ServerProcess) -> None:
    # the names the checks ask pass the Host check for those paths alone (no DNS rebinding)
    for path in ("/", "/api/table", "/phone/"):
        answer = requests.get(server.url + path, headers={"Host": "captive.apple.com"}, timeout=10)
        assert answer.status_code == 421, path
    answer = requests.get(server.url + "/success.txt", headers={"Host": "evil.example"}, timeout=10)
    assert answer.status_code == 421


def test_the_name_avahi_chose_is_served(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    from longhall.server.web.hostcheck import HostCheck

    monkeypatch.setattr(socket, "gethostname", lambda: "longhall")
    check = HostCheck(lambda environ, start: [b""])
    # another machine on the network answers longhall.local already: avahi takes longhall-2.local
    for name in ("longhall.local", "longhall-2.local", "LONGHALL-12.local.", "longhall-3.local:80"):
        assert check.allowed(name), name
    for name in ("longhall-x.local", "other-2.local", "longhall-2.local.evil.test", "longhall-2"):
        assert not check.allowed(name), name


def test_the_kiosk_says_it_is_alive(server: ServerProcess) -> None:
    url = server.url + "/appliance/kiosk-alive"
    assert requests.post(url, timeout=10).status_code == 204
    age = requests.get(url, timeout=10).json()["age"]
    assert isinstance(age, float) and age >= 0


def test_only_this_machine_may_speak_for_the_kiosk(tmp_path: Path) -> None:
    longhall = create_app(Settings(data_dir=tmp_path, gpio="off"))
    try:
        phone = longhall.app.test_client()
        away = {"REMOTE_ADDR": "10.42.0.7"}
        assert phone.post("/appliance/kiosk-alive", environ_base=away).status_code == 403
        assert phone.get("/appliance/kiosk-alive", environ_base=away).status_code == 403
        here = {"REMOTE_ADDR": "127.0.0.1"}
        assert phone.get("/appliance/kiosk-alive", environ_base=here).get_json() == {"age": None}
    finally:
        longhall.stop()
