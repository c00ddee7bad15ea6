"""The ``Host`` header: only the names and addresses this server really serves (DNS rebinding)."""

from __future__ import annotations

import ipaddress
import logging
import re
import socket
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

from .logs import escape

log = logging.getLogger(__name__)

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class HostCheck:
    """Answer ``421`` to a request for a name this server does not serve.

    A page from elsewhere whose name is made to point at the Pi (DNS rebinding) is same-origin
    with itself, so the Origin check passes; its Host header still carries the foreign name.
    An IP address as the host is always fine: a browser sends it only to that very address. The
    Pi's name on its own hotspot (``NAME.lan``, from the hotspot's DNS) is served too, and the
    phones' connectivity-check names get their fixed answers and nothing else (``probes``).
    """

    def __init__(
        self,
        app: WSGIApp,
        public_url: str | None = None,
        probes: tuple[Iterable[str], Iterable[str]] = ((), ()),
    ) -> None:
        self.app = app
        # a phone's connectivity check asks a name of its maker's (the hotspot's DNS sends it
        # here): those names get those fixed answers, and nothing else of the server
        self.probe_names = frozenset(probes[0])
        self.probe_paths = frozenset(probes[1])
        names = {"localhost"}
        hostname = socket.gethostname().lower().rstrip(".")
        if hostname:
            short = hostname.split(".")[0]
            names |= {hostname, f"{hostname}.local", f"{short}.local", f"{short}.lan"}
        if public_url:
            names.add((urlsplit(public_url).hostname or "").lower().rstrip("."))
        names.discard("")
        self.names = frozenset(names)
        # avahi renames the Pi when another machine on the network has its name already:
        # longhall-2.local, longhall-3.local, ... (the number it chose is served too)
        short = hostname.split(".")[0]
        self.renamed = re.compile(re.escape(short) + r"-[0-9]{1,4}\.local") if short else None

    def allowed(self, host: str) -> bool:
        if not host:
            return True  # HTTP/1.0 without a Host: not a browser
        try:
            name = urlsplit(f"//{host}").hostname or ""
        except ValueError:
            return False
        name = name.lower().rstrip(".")
        if name in self.names or (self.renamed is not None and self.renamed.fullmatch(name)):
            return True
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return False
        return True

    def probe(self, host: str, environ: dict[str, Any]) -> bool:
        """Whether a request is a connectivity check, for one of the names those ask."""
        name = host.rpartition(":")[0] if host.rpartition(":")[2].isdigit() else host
        return (
            name.lower().rstrip(".") in self.probe_names
            and environ.get("REQUEST_METHOD") in ("GET", "HEAD")
            and environ.get("PATH_INFO") in self.probe_paths
        )

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        host = str(environ.get("HTTP_HOST", ""))
        if self.allowed(host) or self.probe(host, environ):
            return self.app(environ, start_response)
        log.warning("refused a request for the name %s", escape(host[:80]))
        body = b"This server does not serve that name.\n"
        start_response(
            "421 Misdirected Request",
            [
                ("Content-Type", "text/plain; charset=utf-8"),
                ("Content-Length", str(len(body))),
                ("Connection", "close"),
            ],
        )
        return [body]
