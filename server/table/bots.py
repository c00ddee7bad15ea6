"""Bots play through the same door as phones: one thread submits their moves to the table.

A bot thinks on a copy of the game outside the table's lock (an expert bot may think for a
second; phones' commands go on meanwhile) and its move is submitted as decided on the version it
saw: if what its seat sees changed in the meantime, the table refuses it and the bot thinks again.

A bot waits ``bot_delay`` seconds before a move the table can see, so the people at the table can
follow what it does; its secret planning steps go at once. With ``auto_next`` set, the runner also
presses NEXT after that many seconds when only the table can go on (handy for a table of bots).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..games.api import JSON, Bot, GameState
from ..games.spec import GameSpec
from .connections import Identity
from .service import Table

log = logging.getLogger(__name__)

QUIET = frozenset({"place", "unplace", "commit", "uncommit"})  # secret: no need to watch


class BotRunner:
    """Runs bot seats (and stand-ins for absent players) in a daemon thread."""

    def __init__(
        self,
        table: Table,
        delay: float,
        auto_next: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.table = table
        self.delay = delay
        self.auto_next = auto_next
        self.clock = clock  # for auto_next's wait
        # each bot seat's bot, made once per game (its seed is the game's)
        self._bots: dict[int, tuple[tuple[int | None, str], Bot]] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="longhall-bots", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        with self.table.changed:
            self.table.changed.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def _run(self) -> None:
        table = self.table
        waiting_since: float | None = None
        while not self._stop.is_set():
            try:
                with table.lock:
                    seen = table.data.version
                    # while the store cannot be written, a move would only be refused
                    turns = [] if table.storage.failing else self.turns()
                played = False
                for turn in turns:
                    if table.data.version != seen:
                        break  # the table moved on (perhaps this bot's move was refused)
                    if self._play(turn):
                        played = True
                        break
                if played:
                    waiting_since = None
                    continue
                with table.changed:
                    if table.data.version != seen:
                        continue  # the table moved on while the bots thought: look again
                    waiting_since = self.maybe_next(waiting_since)
                    table.changed.wait(timeout=0.5 if waiting_since else 2.0)
            except Exception:
                log.exception("the bot runner hit an error; carrying on")
                self._stop.wait(1.0)

    def turns(self, copy: bool = True) -> list[BotTurn]:
        """The bot seats (bot seats and stand-ins) the game waits for now, each with its bot.

        With ``copy`` they share one copy of the game, taken under the table's lock, so the bots
        can think on it after the lock is let go: a bot that thinks for a second blocks no phone.
        """
        table = self.table
        with table.lock:
            data = table.data
            state = table.game
            if data.status != "playing" or data.paused or state is None:
                return []
            turns: list[BotTurn] = []
            for seat in state.active_seats():
                kind = data.seats[seat].bot  # a bot seat, or a stand-in: it plays anyway
                if kind is None:
                    continue
                bot = self._bots.get(seat)
                if bot is None or bot[0] != (data.game_id, kind):
                    seed = (data.game_meta or {}).get("seed", 0) * 31 + seat
                    bot = ((data.game_id, kind), table.spec.bots[kind](seed))
                    self._bots[seat] = bot
                if copy and not turns:
                    state = state.clone()  # one copy for all: the bots only read it
                turns.append(BotTurn(seat, kind, bot[1], state, data.version, data.game_id))
            return turns

    def holds(self, turn: BotTurn) -> bool:
        """Whether ``turn``'s seat is still its bot's to play in the same game (hold the lock).

        What the seat could decide on may still have changed: :meth:`Table.submit` refuses a
        bot's move decided on a stale view as it refuses a phone's (``stale_version``).
        """
        data, state = self.table.data, self.table.game
        return (
            data.status == "playing"
            and not data.paused
            and state is not None
            and data.game_id == turn.game_id
            and turn.seat < len(data.seats)
            and data.seats[turn.seat].bot == turn.kind
            and turn.seat in state.active_seats()
        )

    def _play(self, turn: BotTurn) -> bool:
        """Think about one bot seat's move outside the table's lock, then submit it as decided
        on the version it saw; return whether it was played.

        Phones' commands go on while a bot thinks. If the table moved on meanwhile, the seat's
        bot may no longer be asked (a stand-in's player took the seat back, the game paused) or
        its seat may see something new (the table refuses the move as ``stale_version``): the
        move is dropped and the runner looks again, so the bot thinks again on what is now.
        """
        if self._stop.is_set():
            return False
        started = time.monotonic()
        action = turn.bot.choose(turn.state, turn.seat)  # the lock is free: phones go on
        if not bot_may_play(self.table.spec, action):
            return False
        if action["type"] not in QUIET and self.delay > 0:  # thinking counts toward the delay
            self._stop.wait(max(0.0, self.delay - (time.monotonic() - started)))
        table = self.table
        # checked under the table's lock with the move, which is written after the lock is let
        # go, together with the phones' commands that come meanwhile
        ack = table.submit(
            Identity("bot", turn.seat),
            {
                "type": "act",
                "id": f"bot-seat{turn.seat}-v{turn.version}",
                "version": turn.version,
                "action": action,
            },
            holds=lambda: not self._stop.is_set() and self.holds(turn),
        )
        if ack["ok"]:
            return True
        if ack["error"]["code"] == "stale_version":
            log.debug("bot at seat %d thinks again: the table moved on", turn.seat)
            return False
        log.error("bot at seat %d was refused: %s", turn.seat, ack["error"])
        self._stop.wait(1.0)
        return False

    def maybe_next(self, since: float | None) -> float | None:
        """Press NEXT by itself once the table alone has waited ``auto_next`` seconds (since
        ``since``, the clock's time it began to wait, returned while it waits; None: not
        waiting)."""
        table = self.table
        if self.auto_next is None or table.data.status != "playing" or table.data.paused:
            return None
        state = table.live.playing()
        if not state.legal_actions(None) or state.active_seats():
            return None  # never past a player who still has something to decide
        now = self.clock()
        if since is None:
            return now
        if now - since >= self.auto_next:
            table.press_next(Identity("auto"))
            return None
        return since


@dataclass(frozen=True)
class BotTurn:
    """A bot seat the game waits for: its bot, a state to think on, and the version it shows."""

    seat: int
    kind: str
    bot: Bot
    state: GameState
    version: int
    game_id: int | None


def bot_may_play(spec: GameSpec, action: JSON) -> bool:
    """Whether a bot may submit ``action``: not what only the people at the table can enter
    (Eketorp's printed material card, which the host enters for the seat)."""
    return action["type"] not in spec.host_enters
