"""The table's buttons, and the host's seat they open to the people at the table.

NEXT moves the table on (:meth:`Buttons.press_next`, the NEXT timer's too), HOST pauses and
resumes (:meth:`Buttons.press_host`), and HOST held with NEXT chooses the host again
(:meth:`Buttons.press_host_reset`, as the Pi's own screen may): the record opens the host's seat
to the phone that enters the number only the Pi's own screen shows (:class:`HostClaim`). Each
press is a command like a phone's, through :meth:`Table.submit`.
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..games.api import JSON
from ..games.spec import GameSpec
from .connections import KIOSK_ROOM, Identity, Outgoing, error
from .envelope import CommandError
from .messages import Messages
from .state import TableData, TableState

log = logging.getLogger(__name__)


class Buttons:
    """The table's buttons and the host's claim, as part of :class:`~.service.Table` (a mixin: they
    act on the table's own lock, data and messages, and are called as the table's methods)."""

    host_claim: HostClaim | None  # the host's seat, open to the phone at the table (reset_host)

    if TYPE_CHECKING:  # what they rely on, given by the table
        lock: threading.RLock
        live: TableState
        messages: Messages

        @property
        def data(self) -> TableData: ...

        @property
        def spec(self) -> GameSpec: ...

        def clock(self) -> float: ...

        def submit(
            self, who: Identity, payload: object, holds: Callable[[], bool] | None = None
        ) -> JSON: ...

        def notify(self, code: str, message: str, **params: Any) -> None: ...

        def refresh(self) -> None: ...

    # -- the buttons ---------------------------------------------------------------------------

    def press_next(self, who: Identity | None = None) -> dict[str, Any]:
        """NEXT: start when the lobby is ready, reveal when all committed, continue a round; never
        past a player who still has something to decide (the host's ``move_on`` does that)."""
        who = who or Identity("button")
        with self.lock:
            data = self.data
            cid = f"{who.kind}-{data.version}-{secrets.token_hex(4)}"
            if data.status != "playing":
                n = len(data.seats)
                if not self.spec.min_players <= n <= self.spec.max_players:
                    self.notify(
                        "next_not_ready",
                        f"{self.spec.title} needs {self.spec.min_players} to "
                        f"{self.spec.max_players} players; {n} seated.",
                        seated=n,
                        min=self.spec.min_players,
                        max=self.spec.max_players,
                    )
                    return _refused("next_not_ready", "The table is not ready to start.")
                return self.submit(who, {"type": "start", "id": cid, "version": data.version})
            if data.paused:
                self.notify("paused", "The game is paused: the host resumes it.")
                return _refused("paused", "The game is paused.")
            state = self.live.playing()
            table_actions = state.legal_actions(None)
            if table_actions and not state.active_seats():
                return self.submit(
                    who,
                    {
                        "type": "table",
                        "id": cid,
                        "version": data.version,
                        "action": table_actions[0],
                    },
                )
            waiting = [data.seats[s].name for s in state.active_seats()]
            self.notify(
                "next_too_early",
                "Nothing to reveal or continue yet: waiting for " + ", ".join(waiting) + ".",
                phase=str(state.phase),
                waiting=waiting,
            )
            return _refused("next_too_early", "Not yet: some players still have to act.")

    def press_host(self, who: Identity | None = None) -> dict[str, Any]:
        """HOST: pause or resume the game."""
        who = who or Identity("button")
        with self.lock:
            data = self.data
            kind = "resume" if data.paused else "pause"
            cid = f"{who.kind}-{data.version}-{secrets.token_hex(4)}"
            return self.submit(who, {"type": kind, "id": cid, "version": data.version})

    def press_host_reset(self, who: Identity | None = None) -> dict[str, Any]:
        """HOST held and NEXT pressed (or the Pi's own screen): choose the host again."""
        who = who or Identity("button")
        with self.lock:
            cid = f"{who.kind}-{self.data.version}-{secrets.token_hex(4)}"
            return self.submit(who, {"type": "reset_host", "id": cid, "version": self.data.version})

    # -- the host's seat, opened to the table --------------------------------------------------

    def _open_host_claim(self) -> list[Outgoing]:
        """Open the host's seat to the phone at the table that enters the number only the Pi's
        own screen shows (hold the lock); it closes after HOST_CLAIM_SECONDS."""
        claim = HostClaim(f"{secrets.randbelow(10**6):06d}", self.clock() + HOST_CLAIM_SECONDS)
        self.host_claim = claim
        timer = threading.Timer(HOST_CLAIM_SECONDS, self._host_claim_ended, args=(claim,))
        timer.daemon = True
        timer.start()
        # the Pi's journal is the table's too: whoever has its shell has its authority
        log.warning("choosing the host: the number on the table display is %s", claim.number)
        return [Outgoing("emit", KIOSK_ROOM, "host_claim", claim.shown())]

    def _host_claim_ended(self, claim: HostClaim) -> None:
        with self.lock:
            if self.host_claim is claim:
                self.host_claim = None
                self.refresh()

    def check_host_number(self, number: str, seat: int) -> None:
        """Whether ``number``, sent by ``seat``'s phone, is the one the Pi's own screen shows
        (hold the lock); raise if not. A phone has HOST_CLAIM_TRIES: a phone far from the table
        can neither guess the number nor, by guessing wrong, close the claim to the others."""
        claim = self.host_claim
        if claim is None:
            raise CommandError(
                "no_host_claim",
                "No host is being chosen now: hold HOST and press NEXT at the table first.",
            )
        wrong = claim.wrong.get(seat, 0)
        typed = "".join(number.split())[:16]
        if wrong < HOST_CLAIM_TRIES and secrets.compare_digest(
            typed.encode("utf-8", "replace"), claim.number.encode()
        ):
            return
        claim.wrong[seat] = wrong = min(HOST_CLAIM_TRIES, wrong + 1)
        if wrong == HOST_CLAIM_TRIES:
            log.warning("choosing the host: seat %d entered %d wrong numbers", seat, wrong)
        raise CommandError(
            "wrong_host_number",
            "That is not the number on the table display.",
            left=HOST_CLAIM_TRIES - wrong,
        )

    def _host_chosen(self) -> list[Outgoing]:
        """The claim is taken: it closes, and everyone (the old host too) is told who is host."""
        self.host_claim = None
        host = self.data.host
        name = self.data.seats[host].name if host is not None else ""
        log.warning("%s is the host now, chosen at the table", name)
        return self.messages.notice(
            "host_changed", f"{name} is the host now, chosen at the table.", {"name": name}
        )


HOST_CLAIM_SECONDS = 120.0  # how long the host's seat stays open to the table
HOST_CLAIM_TRIES = 3  # wrong numbers a phone may enter before it may try no more


@dataclass
class HostClaim:
    """The host's seat, open to the phone that enters ``number`` (shown on the Pi's own screen)."""

    number: str
    until: float  # on the table's clock (Table.clock)
    wrong: dict[int, int] = field(default_factory=dict)  # wrong numbers, by the seat that sent them

    def shown(self) -> dict[str, Any]:
        """What the Pi's own screen is sent (and no other)."""
        return {"number": self.number, "until": self.until}


def _refused(code: str, message: str) -> JSON:
    return {"ok": False, "error": error(code, message)}
