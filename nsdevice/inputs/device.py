"""What the runner and the loop need from an input back end, every capability off by
default: a back end overrides only what it has, and nobody probes it with `hasattr`."""

from __future__ import annotations

from typing import Any, Self

from nsdevice.inputs.events import Inbox

Colour = tuple[int, int, int]


class InputUnavailable(Exception):
    """This input cannot start here; the one-line message says why. The runner then falls
    back to the keyboard."""


class InputDevice:
    has_led: bool = False  # True where `set_led` lights something (the Pico board)
    # the keys that are the buttons, as the labels name them ("next", "n"), where keys are
    # (the terminal's); None where buttons are buttons
    key_labels: tuple[tuple[str, str], ...] | None = None

    @classmethod
    def open(cls, inbox: Inbox, **options: Any) -> Self:
        """The back end, putting its items into `inbox`; `options` are its own keyword
        arguments (a hardware profile's input section, the command line's keys or port)."""
        return cls(**{**options, "inbox": inbox})  # one mapping: each back end has its own

    def start(self) -> None:
        """Begin putting items into the inbox (some start on construction: nothing to do)."""

    def set_led(self, colour: Colour | None) -> None:
        """Light the board's LED in `colour`, or turn it off with None; ignored without one."""

    def close(self) -> None:
        """Stop and let go of the hardware; safe to call twice."""
