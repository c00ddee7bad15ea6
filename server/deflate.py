"""WebSocket compression only where it pays: permessage-deflate for large messages only.

Browsers always offer permessage-deflate, and simple-websocket always accepts it; wsproto then
compresses every message. Updates are patches of a few hundred bytes (``server/messages.py``),
which deflate barely shrinks, at a CPU cost per message and per connection. RFC 7692 lets a
sender leave any message uncompressed (its RSV1 bit unset), so messages under
:data:`COMPRESS_FROM` bytes go as they are; snapshots (several kilobytes) are still compressed.
"""

from __future__ import annotations

from typing import Any

import simple_websocket.ws
from wsproto.extensions import PerMessageDeflate
from wsproto.frame_protocol import Opcode, RsvBits

COMPRESS_FROM = 1024  # bytes; the `ws` package (Node) uses the same threshold


class LargeOnlyDeflate(PerMessageDeflate):
    """permessage-deflate that sends small whole messages uncompressed."""

    def frame_outbound(
        self, proto: Any, opcode: Opcode, rsv: RsvBits, data: bytes, fin: bool
    ) -> tuple[RsvBits, bytes]:
        if fin and opcode in (Opcode.TEXT, Opcode.BINARY) and len(data) < COMPRESS_FROM:
            return rsv, data  # a whole small message: no compression, the context untouched
        result: tuple[RsvBits, bytes] = super().frame_outbound(proto, opcode, rsv, data, fin)
        return result


def install() -> None:
    """Make simple-websocket offer :class:`LargeOnlyDeflate` to the clients that ask."""
    simple_websocket.ws.PerMessageDeflate = LargeOnlyDeflate
