"""Socket.IO packets as plain JSON, read defensively.

python-socketio takes a ``Packet`` subclass as its serializer (its public ``serializer=``
argument); this one overrides what the stock packet does on the hot path and on hostile input.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from socketio.packet import BINARY_ACK, BINARY_EVENT, EVENT, Packet

log = logging.getLogger(__name__)

# The event a message that is not valid JSON is delivered as, so that it still gets an answer.
UNREADABLE_EVENT = "longhall:unreadable"

_compact = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


class PacketJson:
    """The JSON module python-socketio encodes packets with: every packet asks for
    ``json.dumps(data, separators=(",", ":"))``, here one encoder made once for all of them."""

    loads = staticmethod(json.loads)

    @staticmethod
    def dumps(data: Any, separators: tuple[str, str] | None = None, **kwargs: Any) -> str:
        if separators == (",", ":") and not kwargs:  # what every packet asks for
            return _compact(data)
        return json.dumps(data, separators=separators, **kwargs)


class JsonPacket(Packet):  # type: ignore[misc]
    """Socket.IO packets as plain JSON.

    Longhall never sends binary data: skip python-socketio's scan of every outgoing payload for
    bytes, which walks each element of a whole game view (most of an update's cost). And an event
    whose JSON cannot be read (nested thousands deep, a number of thousands of digits) becomes
    ``UNREADABLE_EVENT``, answered ``malformed``, instead of an error with no answer at all.
    """

    uses_binary_events = False
    json = PacketJson  # one encoder for every packet, not one made per packet

    def decode(self, encoded_packet: Any) -> int:
        try:
            attachments = int(super().decode(encoded_packet))
        except (ValueError, RecursionError) as err:
            if getattr(self, "packet_type", None) != EVENT:
                raise
            log.warning("an unreadable event (%s)", type(err).__name__)
            self.data = [UNREADABLE_EVENT]
            return 0
        kind: int = self.packet_type  # type: ignore[has-type]
        if kind in (BINARY_EVENT, BINARY_ACK):
            # Longhall never uses binary data, and python-socketio hands a binary event's name
            # to its handlers unchecked (a binary "connect" re-ran the connect handler)
            log.warning("a binary event, which Longhall does not take")
            self.packet_type, self.data = EVENT, [UNREADABLE_EVENT]
            return 0
        if kind == EVENT:
            data = self.data
            if not isinstance(data, list) or not data or not isinstance(data[0], str):
                self.data = [UNREADABLE_EVENT]
            elif data[0] in ("connect", "disconnect", "*"):
                # python-socketio would run the connect or disconnect handler for an event of
                # that name: a client could re-register its own connection; and "*" would reach
                # the catch-all handler with the client's first argument as the connection id.
                # Answer it as unknown.
                self.data = [f"reserved:{data[0]}"]
        return attachments
