"""The addresses phones use to reach the Pi, and QR codes for them.

Join URLs use the Pi's IP address, not a ``.local`` name: phones resolve mDNS names unreliably.
"""

from __future__ import annotations

import ipaddress
import socket
import struct
import sys


def ipv4_addresses() -> list[tuple[str, str]]:
    """(interface, address) for every IPv4 address of this machine (Linux)."""
    found: list[tuple[str, str]] = []
    if not sys.platform.startswith("linux"):
        return found
    import fcntl

    siocgifaddr = 0x8915
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _, name in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(
                    sock.fileno(), siocgifaddr, struct.pack("256s", name[:15].encode())
                )
            except OSError:
                continue  # no IPv4 address on this interface
            found.append((name, socket.inet_ntoa(packed[20:24])))
    return found


def is_loopback(host: str) -> bool:
    """Whether an address (or a URL's host) is this machine's own loopback."""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_address() -> str:
    """The address other devices on the local network most likely reach this machine at."""
    try:  # the interface of the default route, if there is one (no packet is sent)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(("10.255.255.255", 1))
            address = str(sock.getsockname()[0])
            if not is_loopback(address):
                return address
    except OSError:
        pass
    candidates = []
    for name, address in ipv4_addresses():
        ip = ipaddress.ip_address(address)
        if ip.is_loopback or ip.is_link_local:
            continue
        # prefer the Wi-Fi a hotspot runs on, then wired, then anything private
        rank = 0 if name.startswith("wl") else 1 if name.startswith(("eth", "en")) else 2
        candidates.append((rank, not ip.is_private, address))
    return min(candidates)[2] if candidates else "127.0.0.1"


def base_url(host: str, port: int, public_url: str | None = None) -> str:
    """The URL phones and the table display should use."""
    if public_url:
        return public_url.rstrip("/")
    if host in ("0.0.0.0", "::", ""):
        host = lan_address()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"
