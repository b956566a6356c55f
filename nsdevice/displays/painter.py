"""Draws any view onto a pygame Surface: the one picture every graphic display shows.

The turn and round-start screens get their own layouts (a big card, pencil swatches);
every other screen is a title, lines of text from `Words.page` and a legend. Text is
fitted, never clipped by the screen edge: it shrinks, then wraps, then is cut with an
ellipsis as a last resort. `Painter.paint` returns a `Drawing` listing every text and
figure it placed, with rectangles, so tests can check that nothing spills over.

The work is spread over small modules (`text_fit`, `shapes`, `figures`, `canvas` and
the `layouts` package); this one chooses the layout for a view, and keeps the names
the displays and tests import.
"""

from __future__ import annotations

import math

import pygame

from nsdevice import views
from nsdevice.displays.canvas import Canvas
from nsdevice.displays.drawing import Box, Drawing, Figure, Placed, Point
from nsdevice.displays.layouts.frame import clear_of, header, legend
from nsdevice.displays.layouts.page import page
from nsdevice.displays.layouts.phones import phones
from nsdevice.displays.layouts.round_start import round_start
from nsdevice.displays.layouts.small_turn import (
    PAGE_SECONDS,
    PAGES,
    corner_hints,
    is_small,
    small_turn,
)
from nsdevice.displays.layouts.turn import turn
from nsdevice.displays.shapes import SymbolBook
from nsdevice.displays.text_fit import DRAWN_GLYPHS, ELLIPSIS, Fitted, FontBook, fit_text
from nsdevice.displays.theme import DEFAULT_THEME, Theme
from nsdevice.rules.frozen import dataclass
from nsdevice.texts import Words

__all__ = [
    "DRAWN_GLYPHS",
    "ELLIPSIS",
    "Box",
    "Drawing",
    "Figure",
    "Fitted",
    "FontBook",
    "Painter",
    "Placed",
    "Point",
    "fit_text",
]


LEGENDS_KEPT = 32  # legends remembered per painter: every screen's, in a language or two


@dataclass(frozen=True)
class _Legend:
    """A legend as drawn: its bands, their pixels, and what it placed there."""

    bands: dict[str, Box]
    pictures: tuple[tuple[Box, pygame.Surface], ...]
    texts: tuple[Placed, ...]
    figures: tuple[Figure, ...]


DESKTOP_DPI = 96  # what a window is taken at: the size a desktop shows a 96 dpi picture
MM_PER_INCH = 25.4


def dots_per_mm(surface: pygame.Surface, diagonal_inches: float | None) -> float:
    """Pixels per millimetre on the glass: from the panel's diagonal, else a 96 dpi desktop."""
    if diagonal_inches is None:
        return DESKTOP_DPI / MM_PER_INCH
    width, height = surface.get_size()
    return math.hypot(width, height) / (diagonal_inches * MM_PER_INCH)


class Painter:
    """Draws views. Keep one per display: it caches fonts and symbol images."""

    def __init__(self, theme: Theme = DEFAULT_THEME, diagonal_inches: float | None = None) -> None:
        self.theme = theme
        self.diagonal_inches = diagonal_inches  # None: a desktop window at 96 dpi
        self.fonts = FontBook()
        self.symbols = SymbolBook()
        self._legends: dict[tuple[object, ...], _Legend] = {}  # by size, words, place

    def page_seconds(self, view: views.View, surface: pygame.Surface) -> tuple[float, ...]:
        """How long each page of `view` stays on `surface`, when it is more than one page
        (the turn on a small panel); () when the view is one picture."""
        if isinstance(view, views.TurnView) and is_small(self._canvas(surface)):
            return PAGE_SECONDS
        return ()

    def paint(
        self, view: views.View, surface: pygame.Surface, words: Words, page_index: int = 0
    ) -> Drawing:
        canvas = self._canvas(surface)
        surface.fill(self.theme.palette.background)
        drawn_here = isinstance(view, views.TurnView | views.RoundStartView)
        text = None if drawn_here else words.page(view)
        margin = canvas.margin()
        if isinstance(view, views.TurnView) and is_small(canvas):
            turn_view: views.TurnView = view
            # no title band: the card and its count need the height (see small_turn)
            width, height = surface.get_size()
            if page_index % PAGES == 1:  # the notes need the whole width: labels in corners
                turn_view = corner_hints(turn_view)
            bands = self._legend(canvas, turn_view, words, 0)
            body = clear_of(
                (margin, margin, width - 2 * margin, height - 2 * margin), bands, margin
            )
            small_turn(canvas, turn_view, words, body, page_index % PAGES)
            return canvas.drawing(bands)

        title = words.title(view) if text is None else text.title  # not on the small turn
        body = header(canvas, title, view)
        bands = self._legend(canvas, view, words, body[1] - margin)
        body = clear_of(body, bands, margin)
        if isinstance(view, views.TurnView):
            turn(canvas, view, words, body)
        elif isinstance(view, views.RoundStartView):
            round_start(canvas, view, words, body)
        elif isinstance(view, views.PhonesView) and text is not None:
            phones(canvas, view, text, body)
        elif text is not None:
            page(canvas, view, text, body)
        return canvas.drawing(bands)

    def _legend(self, canvas: Canvas, view: views.View, words: Words, top: int) -> dict[str, Box]:
        """The button legend, drawn once per size, wording and place, then copied: most
        presses (a reveal, a cursor step) keep the legend of the screen before."""
        surface = canvas.surface
        key = (surface.get_size(), surface.get_bitsize(), canvas.dots_per_mm, view.hints,
               words.language, top)  # fmt: skip
        drawn = self._legends.get(key)
        if drawn is None:
            texts, figures = len(canvas.texts), len(canvas.figures)
            bands = legend(canvas, view, words, top)
            pictures = tuple(
                (box, surface.subsurface(box).copy()) for box in bands.values() if box[2] and box[3]
            )
            if len(self._legends) >= LEGENDS_KEPT:
                self._legends.clear()
            self._legends[key] = _Legend(
                bands, pictures, tuple(canvas.texts[texts:]), tuple(canvas.figures[figures:])
            )
            return bands
        for box, picture in drawn.pictures:
            surface.blit(picture, box[:2])
        canvas.texts.extend(drawn.texts)
        canvas.figures.extend(drawn.figures)
        return dict(drawn.bands)

    def _canvas(self, surface: pygame.Surface) -> Canvas:
        density = dots_per_mm(surface, self.diagonal_inches)
        return Canvas(surface, self.theme, self.fonts, self.symbols, density)
