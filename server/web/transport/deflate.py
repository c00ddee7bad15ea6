"""WebSocket compression only where it pays, and once per message, not once per connection.

Browsers always offer permessage-deflate, and simple-websocket always accepts it; wsproto would
then compress every message, with a compressor per connection. RFC 7692 lets a sender leave a
message uncompressed (its RSV1 bit unset): the patches of every command, a few hundred bytes that
deflate barely shrinks, go as they are, and only large messages (a snapshot, a patch from
:data:`PATCH_COMPRESS_FROM`) are compressed, once for a whole room, each on its own
(``server_no_context_takeover``, which RFC 7692 7.1.1.1 lets a server add to any offer).
"""

from __future__ import annotations

import struct
import zlib
from typing import Any

import simple_websocket.ws
from wsproto.extensions import PerMessageDeflate
from wsproto.frame_protocol import Opcode, RsvBits

COMPRESS_FROM = 1024  # bytes; the `ws` package (Node) uses the same threshold
PATCH_COMPRESS_FROM = 8192  # bytes, for a patch (above)
# How a patch's engine.io packet begins: a message (4), a Socket.IO event (2), its name first.
PATCH_PACKET = b'42["patch",'


def worth_compressing(payload: bytes) -> bool:
    """Whether an outgoing text message (an engine.io packet, encoded) is large enough to
    compress: a patch from :data:`PATCH_COMPRESS_FROM` bytes, anything else from
    :data:`COMPRESS_FROM`."""
    size = len(payload)
    if size < COMPRESS_FROM:
        return False
    return size >= PATCH_COMPRESS_FROM or not payload.startswith(PATCH_PACKET)


class LargeOnlyDeflate(PerMessageDeflate):
    """permessage-deflate that compresses each message on its own (no context kept from one
    message to the next) and sends small whole messages uncompressed."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**{**kwargs, "server_no_context_takeover": True})

    def frame_outbound(
        self, proto: Any, opcode: Opcode, rsv: RsvBits, data: bytes, fin: bool
    ) -> tuple[RsvBits, bytes]:
        if fin and opcode in (Opcode.TEXT, Opcode.BINARY) and not worth_compressing(data):
            return rsv, data  # a whole small message: no compression
        result: tuple[RsvBits, bytes] = super().frame_outbound(proto, opcode, rsv, data, fin)
        return result


def install() -> None:
    """Make simple-websocket offer :class:`LargeOnlyDeflate` to the clients that ask."""
    simple_websocket.ws.PerMessageDeflate = LargeOnlyDeflate


def window_bits(server: Any) -> int | None:
    """The window of the messages this server may compress on its own for a connection (a
    ``simple_websocket.Server`` whose handshake is done): None if the connection negotiated no
    compression, or one that keeps its context from message to message."""
    connection = getattr(getattr(server, "ws", None), "connection", None)
    for extension in getattr(getattr(connection, "_proto", None), "extensions", ()):
        if (
            isinstance(extension, PerMessageDeflate)
            and extension.enabled()
            and extension.server_no_context_takeover
        ):
            return int(extension.server_max_window_bits)
    return None


def frame(payload: bytes, bits: int | None) -> bytes:
    """A whole, unmasked WebSocket text frame (RFC 6455 5.2) of ``payload``: compressed on its
    own (RFC 7692 7.2.1) if it is large (:func:`worth_compressing`) and ``bits`` gives the
    connection's window, else as it is."""
    first = 0x81  # FIN, text
    if bits is not None and worth_compressing(payload):
        deflate = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -bits)
        payload = (deflate.compress(payload) + deflate.flush(zlib.Z_SYNC_FLUSH))[:-4]
        first = 0xC1  # FIN, RSV1 (compressed), text
    size = len(payload)
    if size < 126:
        return bytes((first, size)) + payload
    if size < 65536:
        return struct.pack("!BBH", first, 126, size) + payload
    return struct.pack("!BBQ", first, 127, size) + payload
