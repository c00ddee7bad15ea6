"""The envelope every command a client sends shares, checked before anything else looks at it.

See ``docs/protocol.md`` for the whole protocol. A command is one JSON object sent with the
Socket.IO event ``command``: ``{"type", "id", "version", ...}``. ``id`` is chosen by the client
(a repeated id is answered with the first answer and not applied twice) and ``version`` is the
table version the client last saw (a command made against an outdated view is refused). What
each ``type`` takes, who may send it and what it does is declared once, in
:mod:`.commands`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..games.api import IllegalAction

CommandError = IllegalAction
Command = dict[str, Any]

ID_PATTERN = re.compile(r"^[A-Za-z0-9_.:-]{8,64}$")
MAX_NAME = 24
LANGUAGES = ("en", "nl", "fr", "de")  # the languages of the pages' catalogs
ENVELOPE = ("type", "id", "version")


def check_shape(payload: object, kinds: Mapping[str, Mapping[str, type]]) -> Command:
    """Return the command if its envelope and fields have the right shape, else raise."""
    if not isinstance(payload, dict):
        raise CommandError("malformed", "A command must be a JSON object.")
    kind = payload.get("type")
    if not isinstance(kind, str) or kind not in kinds:
        raise CommandError("unknown_command", "There is no such command.", command=str(kind)[:32])
    cid = payload.get("id")
    if not isinstance(cid, str) or not ID_PATTERN.match(cid):
        raise CommandError(
            "bad_id", "A command needs an id of 8 to 64 letters, digits or -_.: characters."
        )
    version = payload.get("version")
    if type(version) is not int or version < 0:
        raise CommandError("bad_version", "A command needs the table version it was made against.")
    fields = kinds[kind]
    for key in payload:
        if key not in fields and key not in ENVELOPE:
            raise CommandError("malformed", f"The command {kind!r} takes no {key!r}.", command=kind)
    for key, want in fields.items():
        value = payload.get(key)
        ok = type(value) is int if want is int else isinstance(value, want)
        if not ok:
            raise CommandError(
                "malformed", f"The command {kind!r} needs {key!r}.", command=kind, field=key
            )
    return payload


def clean_name(name: str) -> str:
    """Return a player's name trimmed, or raise ``bad_name``."""
    name = " ".join(name.split())
    if not 1 <= len(name) <= MAX_NAME or not name.isprintable():
        raise CommandError(
            "bad_name", f"A name has 1 to {MAX_NAME} printable characters.", max=MAX_NAME
        )
    return name
