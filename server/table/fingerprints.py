"""Commit-reveal fingerprints: proof that nobody changed a secret choice after committing to it.

While a seat's choice is committed and secret (an Eketorp plan, a chosen combat card), the table
shows a short fingerprint: the start of ``sha256(salt + ":" + canonical JSON of the choice)`` with
a fresh random salt of 128 bits that only the server knows. When the choice is revealed, the salt
is published next to the choice, so anyone can recompute the hash and compare. The salt keeps the
fingerprint from being guessed by trying every possible plan.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from typing import Any

SHORT = 8  # hex characters shown on the table display


def canonical(content: Any) -> str:
    return json.dumps(content, sort_keys=True, separators=(",", ":"))


def new_salt() -> str:
    return secrets.token_hex(16)


def digest(salt: str, content: Any) -> str:
    return hashlib.sha256(f"{salt}:{canonical(content)}".encode()).hexdigest()


def update(
    held: dict[str, dict[str, Any]],
    now: dict[int, Any],
    actor: int | None,
    salts: dict[str, str],
    taken_back: bool = False,
) -> list[dict[str, Any]]:
    """Bring the held commitments in line with the game's current ones; return the reveals.

    ``held`` maps a seat (as a string) to ``{"salt", "hash", "content"}`` and is updated in place.
    A new commitment takes its salt from ``salts`` (filled in with a fresh one the first time a
    record is applied, so that replaying the record gives the same fingerprint). A commitment that
    disappears because of someone else's action was revealed: its salt is published. One that the
    seat itself withdrew (un-commit), or that the host took back (``taken_back``), is forgotten,
    salt unpublished.
    """
    reveals: list[dict[str, Any]] = []
    current = {str(seat): content for seat, content in now.items()}
    for seat in sorted(set(held) - set(current)):
        entry = held.pop(seat)
        if not taken_back and (actor is None or str(actor) != seat):
            reveals.append({"seat": int(seat), **entry})
    for seat, content in sorted(current.items()):
        old = held.get(seat)
        if old is not None and old["content"] == content:
            continue
        salt = salts.setdefault(seat, new_salt())
        held[seat] = {"salt": salt, "hash": digest(salt, content), "content": content}
    return reveals
