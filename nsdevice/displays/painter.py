"""Draws any view onto a pygame Surface: the one picture every graphic display shows.

The turn and round-start screens get their own layouts (a big card, pencil swatches);
every other screen is a title, lines of text from `Words.page` and a legend. Text is
fitted, never clipped by the screen edge: it shrinks, then wraps, then is cut with an
ellipsis as a last resort. `Painter.paint` returns a `Drawing` listing every text and
figure it placed, with rectangles, so tests can check that nothing spills over.

The work is spread over small modules (`text_fit`, `shapes`, `figures`, `canvas` and
the `layouts` package; `layouts.choice` says which layout draws each kind of view);
this one frames the screen (title, legend, pages on small glass), and keeps the names
the displays and tests import.
"""

from __future__ import annotations

import math
from typing import cast

import pygame

from nsdevice import texts, views
from nsdevice.displays.canvas import COUNTS_KEPT, NOTES_DRAWN_KEPT, Canvas, Faces, KeptLegend
from nsdevice.displays.codes import CodeBook
from nsdevice.displays.drawing import Box, Drawing, Figure, Placed, Point
from nsdevice.displays.hyphens import Hyphens
from nsdevice.displays.layouts.choice import layout_of
from nsdevice.displays.layouts.frame import clear_of, header, kept_legend
from nsdevice.displays.layouts.small_page import PAGE_SECONDS, one_page, paged, small_page
from nsdevice.displays.layouts.small_turn import NOTE_SECONDS, corner_hints, is_small, small_turn
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


PAGE_COUNTS_KEPT = 64  # how many pages a view takes, remembered for its page turns


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
        self.hyphens = Hyphens()
        self.codes = CodeBook()
        self.faces = Faces()  # card faces, drawn once
        self.counts = Faces(kept=COUNTS_KEPT)  # the small turn's counts, drawn once
        self.notes: dict[tuple[object, ...], object] = {}  # the small turn's note pages
        self.notes_drawn = Faces(kept=NOTES_DRAWN_KEPT)  # ... and those pages as drawn
        self.legends: dict[tuple[object, ...], KeptLegend] = {}  # by size, words, place
        self.pencils: dict[tuple[object, ...], pygame.Surface] = {}  # turned for tables
        self._page_counts: dict[tuple[object, ...], int] = {}  # by view, size, density
        # the view last painted on small glass, its size, density, page count and whether
        # that count is all of its pages (a turn's first page knows only that more follow)
        self._last_counted: tuple[object, ...] | None = None

    def page_seconds(self, view: views.View, surface: pygame.Surface) -> tuple[float, ...]:
        """How long each page of `view` stays on `surface`, when it is more than one page
        (on a small panel: the turn's notes, the summary, a round's start, the phones'
        page); () when the view is one picture."""
        canvas = self._canvas(surface)
        small_turn = layout_of(view).small_turn
        if not is_small(canvas) or not (small_turn or paged(view)):
            return ()
        key = self._page_key(view, canvas)
        last = self._last_counted
        if last is not None and last[0] is view and last[1:3] == key[1:] and last[4]:
            count = cast(int, last[3])  # the view just painted: not hashed again (issue 35)
        else:
            if key not in self._page_counts:  # painted aside: the count a paint finds
                self.paint(view, surface.copy(), texts.words(view.language), every_page=True)
            count = self._page_counts.get(key, 1)
        seconds = NOTE_SECONDS if small_turn else PAGE_SECONDS
        return (seconds,) * count if count > 1 else ()

    def shown_seconds(self, view: views.View, surface: pygame.Surface, page: int) -> float | None:
        """How long page `page` of `view` stays on `surface` (None: one picture). For the
        view just painted, from what its paint found: a turn's first page is drawn knowing
        only that pages follow, not how many (small_turn), and every page stays as long."""
        last = self._last_counted
        if (
            last is not None
            and last[0] is view
            and last[1:3] == self._page_key(view, self._canvas(surface))[1:]
        ):
            if cast(int, last[3]) <= 1:
                return None
            return NOTE_SECONDS if layout_of(view).small_turn else PAGE_SECONDS
        seconds = self.page_seconds(view, surface)
        return seconds[page % len(seconds)] if seconds else None

    def paint(
        self,
        view: views.View,
        surface: pygame.Surface,
        words: Words,
        page_index: int = 0,
        *,
        every_page: bool = False,
    ) -> Drawing:
        """Paints `view`'s page `page_index`; `every_page`: laying out every page of a
        small turn's notes, not only up to the one shown (for their count)."""
        canvas = self._canvas(surface)
        surface.fill(self.theme.palette.background)
        chosen = layout_of(view)
        if is_small(canvas) and (chosen.small_turn or chosen.small or paged(view)):
            return self._paint_small(canvas, view, words, page_index, every_page)
        text = words.page(view) if chosen.from_page else None
        margin = canvas.margin()
        title = words.title(view) if text is None else text.title  # not on the small turn
        body = header(canvas, title, view)
        bands = self._legend(canvas, view, words, body[1] - margin)
        body = clear_of(body, bands, margin)
        chosen.body(canvas, view, words, text, body)
        return canvas.drawing(bands)

    def _paint_small(
        self, canvas: Canvas, view: views.View, words: Words, page_index: int, every_page: bool
    ) -> Drawing:
        """A small panel's turn (the card and count always, the notes in pages), a screen
        drawn as one picture (the table at a round's start), or a screen of words in pages
        at a size read across the table."""
        chosen = layout_of(view)
        if chosen.small_turn:
            placed = corner_hints(view)
            bands = self._legend(canvas, placed, words, 0, snug=True)
            turn = cast(views.TurnView, placed)
            count, complete = small_turn(
                canvas, turn, words, bands, page_index, every_page=every_page
            )
        elif chosen.small is not None:
            bands, count, complete = one_page(canvas, view, words, chosen.small), 1, True
        else:
            items = chosen.items(canvas, view, words)
            bands, count = small_page(canvas, view, words, items, page_index)
            complete = True
        if len(self._page_counts) >= PAGE_COUNTS_KEPT:
            self._page_counts.clear()
        key = self._page_key(view, canvas)
        if complete:
            self._page_counts[key] = count
        self._last_counted = (view, *key[1:], count, complete)
        return canvas.drawing(bands)

    @staticmethod
    def _page_key(view: views.View, canvas: Canvas) -> tuple[object, ...]:
        return (view, canvas.surface.get_size(), canvas.dots_per_mm)

    def _legend(
        self, canvas: Canvas, view: views.View, words: Words, top: int, *, snug: bool = False
    ) -> dict[str, Box]:
        return kept_legend(canvas, view, words, top, snug=snug)

    def _canvas(self, surface: pygame.Surface) -> Canvas:
        density = dots_per_mm(surface, self.diagonal_inches)
        return Canvas(
            surface, self.theme, self.fonts, self.symbols, density, hyphens=self.hyphens,
            codes=self.codes, faces=self.faces, counts=self.counts, notes=self.notes,
            notes_drawn=self.notes_drawn, legends=self.legends,
            pencils=self.pencils,
        )  # fmt: skip
