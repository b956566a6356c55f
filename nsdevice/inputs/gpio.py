"""Buttons wired straight to the Pi's GPIO pins, read through gpiozero.

Each pin change becomes an `Edge` in the inbox, stamped with our clock; the
`ButtonTracker` does the debouncing (gpiozero's own bounce_time is off, and its
mock pins ignore it anyway, so tests exercise the same path as the box).

Each pin is a `gpiozero.DigitalInputDevice`, not a `gpiozero.Button`: a Button
is the same device plus hold detection, which runs a thread per button waking
every 0.1 s and makes closing a held button wait up to a second. The tracker
already does holds, and the box should sleep while idle.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Mapping
from typing import Any

from nsdevice.inputs.device import InputDevice, InputUnavailable
from nsdevice.inputs.events import Button, Edge, Inbox

EDGE_WAIT = 1.0  # seconds an edge waits for room in a full inbox


class GpioUnavailable(InputUnavailable):
    """This machine cannot read GPIO buttons; the one-line message says why."""


class GpioButtons(InputDevice):
    """One gpiozero input per logical `Button`, putting `Edge`s into `inbox`.

    `pull_up=True` is the usual wiring: the switch joins the pin to ground and
    the pin's internal pull-up holds it high while released. Live from
    construction until `close()`; usable as a context manager.
    """

    def __init__(
        self,
        pins: Mapping[Button, int],
        inbox: Inbox,
        *,
        pull_up: bool = True,
        clock: Callable[[], float] = time.monotonic,
        pin_factory: Any = None,
    ) -> None:
        shared = {pin for pin in pins.values() if list(pins.values()).count(pin) > 1}
        if shared:
            raise ValueError(f"two buttons share GPIO pin {sorted(shared)[0]}")
        self._inbox = inbox
        self._clock = clock
        self._devices: list[Any] = []
        # Late import: gpiozero probes for pin libraries, and the PC-only paths don't need it.
        # Its __init__ would load every device family (boards, SPI devices, tones): 0.5 MB.
        from nsdevice.imports import gpiozero_by_parts

        gpiozero_by_parts()
        from gpiozero.exc import GPIOZeroError, PinFactoryFallback
        from gpiozero.input_devices import DigitalInputDevice

        try:
            # gpiozero warns once per back end it fails to load before giving up; collect
            # those so a failure is one line that names every reason, not a page of warnings.
            with warnings.catch_warnings(record=True) as fallbacks:
                warnings.simplefilter("always", PinFactoryFallback)
                for button, pin in pins.items():
                    device = DigitalInputDevice(
                        pin, pull_up=pull_up, bounce_time=None, pin_factory=pin_factory
                    )
                    self._devices.append(device)
                    # "active" is pressed: gpiozero applies the pull-up inversion for us
                    device.when_activated = self._sender(button, down=True)
                    device.when_deactivated = self._sender(button, down=False)
        except (ImportError, OSError, RuntimeError, GPIOZeroError) as error:
            self.close()
            reasons = "; ".join(str(caught.message) for caught in fallbacks)
            detail = f" ({reasons})" if reasons else ""
            raise GpioUnavailable(f"no GPIO buttons: {error}{detail}") from error
        for caught in fallbacks:  # it worked after all: pass the notices on
            warnings.warn(caught.message, stacklevel=2)

    def _sender(self, button: Button, *, down: bool) -> Callable[[], None]:
        def send() -> None:  # runs on gpiozero's callback thread; Inbox.put is thread-safe
            # The loop takes an edge in microseconds: a full inbox empties long before a
            # second is up, so waiting (not dropping) keeps a release from being lost.
            self._inbox.put(Edge(button, down, self._clock()), wait=EDGE_WAIT)

        return send

    def close(self) -> None:
        """Release the pins. Safe to call twice."""
        devices, self._devices = self._devices, []
        for device in devices:
            device.close()

    def __enter__(self) -> GpioButtons:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
