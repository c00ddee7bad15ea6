"""QR codes for what a phone scans: the join address, the hotspot's Wi-Fi, a seat handed over."""

from __future__ import annotations

import io


def qr_svg(text: str) -> str:
    """A QR code as an SVG document (scales to any screen)."""
    # imported when a screen first asks: a start need not load qrcode (nor, for SVG, an XML
    # library) before it serves
    import qrcode.image.svg

    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    out = io.BytesIO()
    image.save(out)
    return out.getvalue().decode()


def qr_terminal(text: str) -> str:
    """A QR code drawn with half blocks, to scan from a terminal."""
    import qrcode

    code = qrcode.QRCode(border=2)
    code.add_data(text)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


def wifi_qr_text(ssid: str, password: str) -> str:
    """The ``WIFI:`` text phones understand to join a network by scanning."""

    def esc(value: str) -> str:
        for ch in '\\;,":':
            value = value.replace(ch, "\\" + ch)
        return value

    security = "WPA" if password else "nopass"
    return f"WIFI:T:{security};S:{esc(ssid)};P:{esc(password)};;"
