"""Displays: each one shows a view (DESIGN.md: session → view → display).

Back ends live in their own modules and import their libraries late, so that choosing
the text or JSON display never loads pygame or the SPI driver:

- `pygame_display.PygameDisplay`: a window on a PC, or full screen on KMS/DRM (Pi HDMI/DSI)
- `st7789_display.St7789Display`: the Pimoroni Display HAT Mini over SPI
- `text_display.TextDisplay`: plain lines on a terminal
- `json_display.JsonDisplay`: one JSON object per screen, for scripts and end-to-end tests
"""

from __future__ import annotations

import contextlib
import os
from typing import Any, Self

from nsdevice.imports import without_init
from nsdevice.inputs.events import Inbox
from nsdevice.views import View

# pygame prints a greeting on import; on stdout it would land in the JSON lines or the
# terminal display, so keep it quiet before any back end imports pygame.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

# What painting reads from the `pygame` package itself. pygame's `__init__` imports every
# module it has (the mixer, joystick, sprites, the system fonts' search, its debug report,
# `platform`): 40 M instructions on the Pi before a box's first frame (issue 35). So the
# package is made importable part by part, each of these loaded when first read; anything
# else read from the package (`pygame.init`, `pygame.mixer`, `pygame.display`...) runs
# its `__init__` then, and the package is whole from there on.
DRAWING_PARTS = {
    "error": "pygame.base:error",
    "Rect": "pygame.rect:Rect",
    "Surface": "pygame.surface:Surface",
    "SRCALPHA": "pygame.constants:SRCALPHA",
    "BLEND_MULT": "pygame.constants:BLEND_MULT",
    "draw": "pygame.draw",
    "font": "pygame.font",
    "freetype": "pygame._freetype",  # (its Python module loads pygame.font: text_fit)
    "image": "pygame.image",
    "transform": "pygame.transform",
}
with contextlib.suppress(ImportError):  # no pygame: only the text and JSON displays work
    without_init("pygame", DRAWING_PARTS)


class DisplayUnavailable(Exception):
    """The display cannot start here; the message is one line saying why. The loop then
    falls back to a display that works (the terminal)."""


class Display:
    """What the loop needs from a display, every capability off by default (the way
    PiFinder's DisplayBase does it): a back end overrides only what it has, so the loop
    and the runner never probe a display with `getattr`."""

    size: tuple[int, int] = (0, 0)  # pixels; (0, 0) for displays without pixels
    supports_brightness: bool = False

    @classmethod
    def open(cls, size: tuple[int, int], **options: Any) -> Self:
        """Open the back end at `size` pixels; `options` are its own keyword arguments (a
        hardware profile's display section, or the back end table's fixed ones)."""
        return cls(**options)

    def show(self, view: View) -> None:
        """Draw `view` and put it on screen now (the loop calls this only on a change)."""
        raise NotImplementedError

    def page_seconds(self) -> float | None:
        """How long the page on screen stays before `next_page`; None when the view on
        screen is one picture (then the loop sleeps until a press, as always)."""
        return None

    def next_page(self) -> None:
        """Show the next page of the view on screen: a view too much for a small panel at
        sizes read across the table is drawn as pages that take turns (the turn on the
        2-inch panel: the card, then the count and the notes)."""

    def inbox(self) -> Inbox | None:
        """The display's own event inbox when its events come with the screen (a pygame
        window's keys and close button); None when inputs are separate."""
        return None

    def set_brightness(self, level: int) -> None:
        """1 (dimmest) to 5 (brightest); ignored where `supports_brightness` is False."""

    def chime(self, name: str) -> None:
        """A short sound cue ("reveal", "round_end"); silent where there is no sound."""

    def close(self) -> None:
        """Let go of the screen; safe to call twice."""


BRIGHTNESS_LEVELS = 5

__all__ = ["BRIGHTNESS_LEVELS", "Display", "DisplayUnavailable"]
