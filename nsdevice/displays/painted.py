"""What every display drawn by the box's own painter shares: painting a view onto its
surface, and turning the pages of a screen too big for small glass (the 2-inch turn)."""

from __future__ import annotations

import pygame

from nsdevice import texts
from nsdevice.displays import Display
from nsdevice.displays.painter import Drawing, Painter
from nsdevice.views import View


class PaintedDisplay(Display):
    """A back end sets `_painter` and `_surface` and says how a painted surface reaches
    the glass (`_present`); showing a view and turning its pages are the same for all."""

    _painter: Painter
    _surface: pygame.Surface
    drawing: Drawing | None = None  # what the last paint placed, for tests and tools
    _view: View | None = None  # on screen, with its page
    _page: int = 0

    def _present(self) -> None:
        """Put what was just painted on `_surface` on the glass."""
        raise NotImplementedError

    def show(self, view: View) -> None:
        self._view, self._page = view, 0
        self._paint(view)

    def page_seconds(self) -> float | None:
        if self._view is None:
            return None
        return self._painter.shown_seconds(self._view, self._surface, self._page)

    def next_page(self) -> None:
        if self._view is None:
            return
        self._page += 1
        self._paint(self._view)

    def _paint(self, view: View) -> None:
        words = texts.words(view.language)
        self.drawing = self._painter.paint(view, self._surface, words, self._page)
        self._present()
