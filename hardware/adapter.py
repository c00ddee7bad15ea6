"""The buttons and lights as an adapter around the table: one worker thread, public state only.

gpiozero calls a button's callback on its own thread; the callback only puts the press on a
queue and returns. The worker takes presses off the queue and hands them to the table
(``press_next`` / ``press_host``: the same validation and lock as a phone's command; HOST held
for the pin map's ``hold`` seconds ends the night instead: server/appliance/endnight.py; NEXT
pressed while HOST is held chooses the host again, ``press_host_reset``),
follows the table's public view to drive the LEDs and the buzzer, and sleeps between blink edges.

If a pin fails while the table plays, the worker gives up the pins, the table display says so
(``hardware.status`` "failed" and a ``hardware_failed`` notice) and the game goes on without them.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from gpiozero import Factory

from longhall.server.config import Settings
from longhall.server.table.connections import Identity
from longhall.server.table.service import Table

from .gpio import find_gpio, mock_gpio
from .parts import Parts
from .pinmap import PinMap, PinMapError, load
from .rhythm import Beeper, lit, next_edge
from .signals import COLOURS, Signals, cues, signals

log = logging.getLogger(__name__)

# Refusals the table already explains on every screen by itself.
EXPLAINED = frozenset({"next_too_early", "next_not_ready", "paused"})
STOP = "stop"
PROBE_SECONDS = 5.0  # how often the buttons' pins are read to notice a GPIO chip that went away


class NightEnd(Protocol):
    """The end of the night (:class:`longhall.server.appliance.endnight.NightEnd`), which a long
    press on HOST asks for."""

    def request(self, who: Identity | None = None) -> dict[str, Any]: ...

    def cancel(self) -> None: ...


class Hardware:
    """The running buttons and lights of one table (or their absence, and why)."""

    def __init__(
        self,
        table: Table,
        parts: Parts | None = None,
        clock: Callable[[], float] = time.monotonic,
        factory: Factory | None = None,
        night: NightEnd | None = None,
        hold: float | None = None,
    ) -> None:
        self.table = table
        self.night = night
        self.hold = hold  # seconds HOST is held to end the night; None: HOST acts when pressed
        self._host_down: float | None = None  # when HOST went down, while it is held
        self._host_held = False  # the hold already ended the night (the release does nothing)
        self.parts = parts
        self.clock = clock
        self.factory = factory  # closed with the adapter: it was opened for it
        self.status: dict[str, Any] = {"status": "off", "message": None, "code": None}
        self.signals: Signals | None = None
        self._queue: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._pending = False
        self._failed = False
        self._closed = False
        self._seen: dict[str, Any] | None = None
        self._next_probe = clock() + PROBE_SECONDS
        self._beeper = Beeper()
        self._shown: dict[str, object] = {}
        self.worker = threading.Thread(target=self._run, name="longhall-hardware", daemon=True)

    # -- life ----------------------------------------------------------------------------------

    def start(self, status: str, code: str | None, message: str | None) -> None:
        """Follow the table and start the worker (without parts, only say why there are none)."""
        if self.parts is not None:
            with self.table.lock:
                self.table.listeners.append(self._changed)
            self.worker.start()
        self._announce(status, code, message)

    def close(self) -> None:
        """Stop the worker, switch everything off and release the pins."""
        if self._closed:
            return
        self._closed = True
        if self.night is not None:
            self.night.cancel()
        self._forget_table()
        if self.worker.is_alive():
            self._queue.put(STOP)
            self.worker.join(timeout=5)
        elif self.parts is not None:
            self.parts.close()
        if self.factory is not None:
            with contextlib.suppress(Exception):
                self.factory.close()

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until the worker has handled everything queued so far (for tests and tools)."""
        if not self.worker.is_alive():
            return True
        done = threading.Event()
        self._queue.put(done)
        return done.wait(timeout)

    # -- what other threads call: hand over and return at once ---------------------------------

    def _changed(self, table: Table) -> None:
        # called under the table lock after every change: only note that there is news
        if not self._pending and not self._failed:
            self._pending = True
            self._queue.put("changed")

    def _next_pressed(self) -> None:
        if not self._failed:
            self._queue.put("next")

    def _host_pressed(self) -> None:
        if not self._failed:
            self._queue.put("host")

    def _host_released(self) -> None:
        if not self._failed:
            self._queue.put("host_up")

    # -- the worker ----------------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            try:
                event = self._queue.get(timeout=self._sleep())
            except queue.Empty:
                event = None  # a blink or a beep turns over
            if event == STOP:
                break
            if isinstance(event, threading.Event):
                if not self._queue.empty():
                    self._queue.put(event)  # work queued while handling: that comes first
                    continue
                if not self._failed:
                    self._check_hold()
                self._render()
                event.set()
                continue
            if self._failed:
                continue  # the pins are given up; only flushes and the stop still count
            try:
                if event == "next":
                    self._next()
                elif event == "host":
                    self._host_down_at()
                elif event == "host_up":
                    self._host_up()
                elif event == "changed":
                    self._follow()
                self._check_hold()
            except Exception:
                log.exception("the buttons and lights hit an error handling %r", event)
            self._render()
        self._release()

    def _sleep(self) -> float | None:
        """Seconds until the next blink or beep edge (None: nothing moves, wait for news)."""
        parts = self.parts
        if parts is None or self._failed or self.signals is None:
            return None
        now = self.clock()
        # only lights that are wired need waking up for
        wired = list(self.signals.seats[: len(parts.seats)])
        if parts.phase is not None:
            wired.append(self.signals.indicator)
        edges = [next_edge(wired, now), self._beeper.next_edge(now), self._next_probe]
        if self._host_down is not None and self.hold is not None and not self._host_held:
            edges.append(self._host_down + self.hold)
        upcoming = [t for t in edges if t is not None]
        return max(0.0, min(upcoming) - now) if upcoming else None

    def _next(self) -> None:
        """NEXT pressed: on its own, the table's next step; while HOST is held (and before the
        hold ends the night), the people at the table choose the host again."""
        if self._host_down is None:
            self._press("NEXT", self.table.press_next)
        elif not self._host_held:
            self._host_held = True  # HOST's release (pause) and its hold (the night) do nothing
            self._press("HOST and NEXT", self.table.press_host_reset)

    def _host_down_at(self) -> None:
        """HOST went down: act now, or (with a hold time) wait to see how long it is held."""
        if self.hold is None:
            self._press("HOST", self.table.press_host)
            return
        self._host_down = self.clock()
        self._host_held = False

    def _host_up(self) -> None:
        """HOST came up: a short press keeps its meaning (pause, resume); a hold already acted."""
        if self._host_down is not None and not self._host_held:
            self._press("HOST", self.table.press_host)
        self._host_down = None
        self._host_held = False

    def _check_hold(self) -> None:
        """HOST held long enough: end the night (once per hold)."""
        down = self._host_down
        if down is None or self.hold is None or self._host_held:
            return
        if self.clock() >= down + self.hold:
            self._host_held = True
            if self.night is not None:
                self._press("HOST held", self.night.request)

    def _press(self, name: str, press: Callable[[Identity], dict[str, Any]]) -> None:
        ack = press(Identity("button"))
        if ack["ok"]:
            log.info("%s pressed: version %s", name, ack.get("version"))
            return
        error = ack["error"]
        log.info("%s pressed: refused (%s)", name, error["code"])
        if error["code"] not in EXPLAINED:
            # every press gets an answer on the table display, like every command does
            self.table.notify(error["code"], error["message"], **error.get("params", {}))

    def _follow(self) -> None:
        """Read the table's public view and decide what to show and to sound."""
        self._pending = False  # before reading: a change after this read queues news again
        with self.table.lock:
            if self.table.data.version > self.table.stored:
                # a command still being written (group commit): show nothing of it; the table
                # tells again once everything is on the disk
                return
            message = self.table.message_for(None)
        now = self.clock()
        for rhythm in cues(self._seen, message):
            self._beeper.cue(rhythm, now)
        self._seen = message
        self.signals = signals(message)

    def _render(self) -> None:
        """Set every output to what it should show now; touch a pin only when it changes."""
        parts = self.parts
        if parts is None or self._failed:
            return
        now = self.clock()
        if now >= self._next_probe:
            self._next_probe = now + PROBE_SECONDS
            try:
                parts.probe()
            except Exception as err:
                self._fail(err)
                return
        if self.signals is None:
            return
        off = (0, 0, 0)
        colour = COLOURS[self.signals.phase] if lit(self.signals.indicator, now) else off
        sounding = self._beeper.sounding(now)
        try:
            for i, light in enumerate(self.signals.seats):
                on = lit(light, now)
                if self._shown.get(f"seat{i}") != on:
                    parts.set_seat(i, on)
                    self._shown[f"seat{i}"] = on
            if self._shown.get("phase") != colour:
                parts.set_phase(colour)
                self._shown["phase"] = colour
            if self._shown.get("buzzer") != sounding:
                parts.set_buzzer(sounding)
                self._shown["buzzer"] = sounding
        except Exception as err:
            self._fail(err)

    def _release(self) -> None:
        parts = self.parts
        if parts is None:
            return
        if not self._failed:
            with contextlib.suppress(Exception):
                for i in range(len(parts.seats)):
                    parts.set_seat(i, False)
                parts.set_phase((0, 0, 0))
                parts.set_buzzer(False)
        parts.close()

    # -- telling the table ---------------------------------------------------------------------

    def _fail(self, err: BaseException) -> None:
        """Give up the pins; the game goes on and every screen hears why."""
        self._failed = True
        log.error("GPIO failed; carrying on without buttons and lights", exc_info=err)
        if self.parts is not None:
            self.parts.close()  # one last, careful release; errors are expected and ignored
        self._forget_table()
        detail = str(err) or type(err).__name__
        message = (
            f"The buttons and lights stopped working ({detail}). The game goes on: use the phones."
        )
        self._announce("failed", "hardware_failed", message)
        self.table.notify("hardware_failed", message, error=detail)

    def _announce(self, status: str, code: str | None, message: str | None) -> None:
        self.status = {"status": status, "message": message, "code": code}
        with self.table.lock:
            self.table.hardware = dict(self.status)
            self.table.refresh()

    def _forget_table(self) -> None:
        with self.table.lock:
            if self._changed in self.table.listeners:
                self.table.listeners.remove(self._changed)


def start_hardware(
    table: Table,
    settings: Settings,
    pin_factory: Factory | None = None,
    clock: Callable[[], float] = time.monotonic,
    find: Callable[[], tuple[Factory | None, list[str]]] = find_gpio,
    *,
    night: NightEnd,
) -> Hardware:
    """Start the buttons and lights as ``settings.gpio`` says; never raise, say what happened."""
    try:
        pin_map = load(settings.gpio_config)
    except PinMapError as err:
        return _without(table, "failed", "hardware_pin_map", str(err), notify=True)

    own = pin_factory is None
    if pin_factory is None:
        if settings.gpio == "mock":
            pin_factory = mock_gpio(pin_map.phase is not None and pin_map.phase.pwm)
        else:
            pin_factory, why = find()
            if pin_factory is None:
                log.warning("no GPIO found (%s)", "; ".join(why))
                return _without(
                    table,
                    "off",
                    "hardware_no_gpio",
                    "No GPIO was found on this machine: the game runs without buttons and lights.",
                )
    hardware = Hardware(
        table,
        clock=clock,
        factory=pin_factory if own else None,
        night=night,
        hold=pin_map.hold if pin_map.host is not None else None,
    )
    try:
        hardware.parts = _build(pin_map, pin_factory, hardware)
    except Exception as err:
        log.exception("the buttons and lights could not start")
        if own:
            with contextlib.suppress(Exception):
                pin_factory.close()
        detail = str(err) or type(err).__name__
        return _without(
            table,
            "failed",
            "hardware_failed",
            f"The buttons and lights could not start ({detail}). The game goes on: use the phones.",
            notify=True,
        )
    if settings.gpio == "mock":
        hardware.start("mock", "hardware_mock", "The buttons and lights are simulated.")
    else:
        hardware.start("ok", None, None)
    return hardware


def _build(pin_map: PinMap, factory: Factory, hardware: Hardware) -> Parts:
    released = hardware._host_released if hardware.hold is not None else None
    return Parts(pin_map, factory, hardware._next_pressed, hardware._host_pressed, released)


def _without(table: Table, status: str, code: str, message: str, notify: bool = False) -> Hardware:
    """An adapter with no parts: it only tells the table display why."""
    hardware = Hardware(table)
    hardware.start(status, code, message)
    if notify:
        table.notify(code, message)
    return hardware
