"""The table's named parts as gpiozero devices, built from a pin map on a given pin factory."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TypeVar

from gpiozero import LED, RGBLED, Buzzer, Device, DigitalInputDevice, Factory

from .pinmap import PinMap

D = TypeVar("D", bound=Device)


class Parts:
    """NEXT, HOST, the seat LEDs, the phase indicator and the buzzer (each may be absent)."""

    def __init__(
        self,
        pin_map: PinMap,
        factory: Factory,
        on_next: Callable[[], None],
        on_host: Callable[[], None],
        on_host_released: Callable[[], None] | None = None,
    ) -> None:
        self.devices: list[Device] = []
        # Plain inputs, not gpiozero's Button: a Button keeps a thread per button awake ten
        # times a second to notice a held button; the adapter times HOST's hold on its own clock
        # from the press and the release instead.
        self.next: DigitalInputDevice | None = None
        self.host: DigitalInputDevice | None = None
        self.seats: list[LED] = []
        self.phase: RGBLED | None = None
        self.buzzer: Buzzer | None = None
        self.brightness = 1.0
        try:
            if pin_map.next is not None:
                self.next = self._add(self._button(pin_map.next, pin_map.bounce, factory))
                self.next.when_activated = on_next
            if pin_map.host is not None:
                self.host = self._add(self._button(pin_map.host, pin_map.bounce, factory))
                self.host.when_activated = on_host
                if on_host_released is not None:
                    self.host.when_deactivated = on_host_released
            self.seats = [self._add(LED(pin, pin_factory=factory)) for pin in pin_map.seats]
            led = pin_map.phase
            if led is not None:
                self.phase = self._add(
                    RGBLED(
                        led.red,
                        led.green,
                        led.blue,
                        active_high=led.active_high,
                        pwm=led.pwm,
                        pin_factory=factory,
                    )
                )
                self.brightness = led.brightness
            if pin_map.buzzer is not None:
                self.buzzer = self._add(Buzzer(pin_map.buzzer, pin_factory=factory))
        except BaseException:
            self.close()
            raise

    @staticmethod
    def _button(pin: str, bounce: float | None, factory: Factory) -> DigitalInputDevice:
        """A push button between the pin and ground, on the Pi's own pull-up resistor."""
        return DigitalInputDevice(pin, pull_up=True, bounce_time=bounce, pin_factory=factory)

    def _add(self, device: D) -> D:
        self.devices.append(device)
        return device

    def set_seat(self, index: int, on: bool) -> None:
        if index < len(self.seats):
            self.seats[index].value = on

    def set_phase(self, colour: tuple[int, int, int]) -> None:
        if self.phase is not None:
            self.phase.value = tuple(c * self.brightness for c in colour)

    def set_buzzer(self, on: bool) -> None:
        if self.buzzer is not None:
            self.buzzer.value = on

    def probe(self) -> None:
        """Read the buttons' pins: a chip that went away fails here. (The lights fail by
        themselves when written; with buttons only, nothing else would notice.)"""
        for button in (self.next, self.host):
            if button is not None:
                button.value  # noqa: B018  # the read is the point

    def stop_presses(self) -> None:
        """Forget the buttons' callbacks (before closing, or when GPIO failed)."""
        for button in (self.next, self.host):
            if button is not None:
                with contextlib.suppress(Exception):
                    button.when_activated = None
                    button.when_deactivated = None

    def close(self) -> None:
        """Release every pin; after a failure some may not answer, which is fine here."""
        self.stop_presses()
        for device in reversed(self.devices):
            with contextlib.suppress(Exception):
                device.close()
        self.devices = []
