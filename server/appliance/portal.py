"""The appliance's own routes: the kiosk's sign of life, and the phones' connectivity checks.

**The kiosk.** The table display on the Pi's screen (``/?kiosk``) posts to
``/appliance/kiosk-alive`` every few seconds; the kiosk's health check (systemd/kiosk-health)
reads how long ago that was and restarts Chromium when the page stopped: a crashed tab or a hung
page. Both only from this machine (loopback).

**Connectivity checks.** On the Pi's hotspot there is no internet. Phones find that out by asking
fixed addresses (Android: ``/generate_204``; iOS and macOS: ``/hotspot-detect.html``; Windows:
``/connecttest.txt``; Firefox: ``/success.txt``), and on a wrong answer they open a captive
portal window or leave the Wi-Fi. iOS's sign-in window keeps no ``localStorage``, where a phone's
seat token lives. The hotspot's DNS sends those names to the Pi (install.sh), port 80 is
forwarded to the server, and these routes give each check the answer of a working internet.
"""

from __future__ import annotations

import threading
import time

from flask import Blueprint, Response, abort, current_app, jsonify, request

from .addresses import is_loopback

blueprint = Blueprint("appliance", __name__)

APPLE_SUCCESS = "<HTML><HEAD><TITLE>Success</TITLE></HEAD><BODY>Success</BODY></HTML>"
FIREFOX_CANONICAL = (
    '<meta http-equiv="refresh" content="0;url=https://support.mozilla.org/kb/captive-portal"/>'
)
# every name a phone or laptop asks to see whether it is online (the hotspot's DNS answers them)
CHECK_HOSTS = (
    "connectivitycheck.gstatic.com",
    "connectivitycheck.android.com",
    "clients1.google.com",
    "clients3.google.com",
    "www.google.com",
    "captive.apple.com",
    "www.apple.com",
    "www.appleiphonecell.com",
    "www.msftconnecttest.com",
    "www.msftncsi.com",
    "detectportal.firefox.com",
    "connect.rom.miui.com",  # Xiaomi (MIUI, HyperOS)
    "connectivitycheck.platform.hicloud.com",  # Huawei (EMUI)
    "connectivitycheck.cbg-app.huawei.com",  # Huawei (HarmonyOS)
)
# the paths those checks ask for (served below), whatever name they ask it of
CHECK_PATHS = frozenset(
    {
        "/generate_204",
        "/gen_204",
        "/hotspot-detect.html",
        "/library/test/success.html",
        "/connecttest.txt",
        "/ncsi.txt",
        "/success.txt",
        "/canonical.html",
    }
)


class KioskBeat:
    """When the kiosk's page last said it runs."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._at: float | None = None

    def alive(self) -> None:
        with self._lock:
            self._at = time.monotonic()

    def age(self) -> float | None:
        with self._lock:
            return None if self._at is None else time.monotonic() - self._at


def _kiosk() -> KioskBeat:
    beat = current_app.extensions.get("longhall.kiosk")
    if beat is None:
        beat = current_app.extensions.setdefault("longhall.kiosk", KioskBeat())
    return beat  # type: ignore[no-any-return]


def _local_only() -> None:
    if not is_loopback(request.remote_addr or ""):
        abort(403)


@blueprint.post("/appliance/kiosk-alive")
def kiosk_alive() -> Response:
    _local_only()
    _kiosk().alive()
    return Response(status=204)


@blueprint.get("/appliance/kiosk-alive")
def kiosk_age() -> Response:
    _local_only()
    return jsonify({"age": _kiosk().age()})


def _text(body: str, mimetype: str = "text/plain") -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Cache-Control"] = "no-store"  # every check must reach the server
    return response


@blueprint.get("/generate_204")
@blueprint.get("/gen_204")
def android_check() -> Response:
    return Response(status=204, headers={"Cache-Control": "no-store"})


@blueprint.get("/hotspot-detect.html")
@blueprint.get("/library/test/success.html")
def apple_check() -> Response:
    return _text(APPLE_SUCCESS, "text/html")


@blueprint.get("/connecttest.txt")
def windows_check() -> Response:
    return _text("Microsoft Connect Test")


@blueprint.get("/ncsi.txt")
def windows_old_check() -> Response:
    return _text("Microsoft NCSI")


@blueprint.get("/success.txt")
def firefox_check() -> Response:
    return _text("success\n")


@blueprint.get("/canonical.html")
def firefox_canonical() -> Response:
    return _text(FIREFOX_CANONICAL, "text/html")
