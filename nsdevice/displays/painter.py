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

import pygame

from nsdevice import views
from nsdevice.displays.canvas import Canvas
from nsdevice.displays.drawing import Box, Drawing, Figure, Placed, Point
from nsdevice.displays.layouts.frame import header, legend, shrink
from nsdevice.displays.layouts.page import page
from nsdevice.displays.layouts.phones import phones
from nsdevice.displays.layouts.round_start import round_start
from nsdevice.displays.layouts.turn import turn
from nsdevice.displays.shapes import SymbolBook
from nsdevice.displays.text_fit import DRAWN_GLYPHS, ELLIPSIS, Fitted, FontBook, fit_text
from nsdevice.displays.theme import DEFAULT_THEME, Theme
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


class Painter:
    """Draws views. Keep one per display: it caches fonts and symbol images."""

    def __init__(self, theme: Theme = DEFAULT_THEME) -> None:
        self.theme = theme
        self.fonts = FontBook()
        self.symbols = SymbolBook()

    def paint(self, view: views.View, surface: pygame.Surface, words: Words) -> Drawing:
        height = surface.get_height()
        canvas = Canvas(surface, self.theme, self.fonts, self.symbols)
        surface.fill(self.theme.palette.background)
        band = legend(canvas, view, words)
        drawn_here = isinstance(view, views.TurnView | views.RoundStartView)
        text = None if drawn_here else words.page(view)
        title = words.title(view) if text is None else text.title
        body = header(canvas, title, view)
        body = shrink(body, band[1] if band else height, canvas.margin())
        if isinstance(view, views.TurnView):
            turn(canvas, view, words, body)
        elif isinstance(view, views.RoundStartView):
            round_start(canvas, view, words, body)
        elif isinstance(view, views.PhonesView) and text is not None:
            phones(canvas, view, text, body)
        elif text is not None:
            page(canvas, view, text, body)
        return canvas.drawing(band)
