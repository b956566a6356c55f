"""A room's results on big glass (issue 25): the ranking as a table read across a room.

Each place a row of one height whatever the count (the page does not jump as sheets come
in): the place, a gold star for a table's winner (C-12), the name, the table, the total
at the right. The sheets counted over it, the star's meaning and the deal code (D-2)
under it.
"""

from __future__ import annotations

import math

import pygame

from nsdevice import views
from nsdevice.displays.canvas import Canvas
from nsdevice.displays.drawing import Box, Figure
from nsdevice.displays.text_fit import fit_text
from nsdevice.displays.theme import Colour
from nsdevice.texts import Words
from nsdevice.texts.pages.room import sheets_in, sheets_wanted, table_number, winner_key

ROWS = 8  # places a page shows (session.screens.room.RANKING_PAGE): rows keep their height


def room_results(canvas: Canvas, view: views.RoomResultsView, words: Words, body: Box) -> None:
    palette, sizes = canvas.theme.palette, canvas.theme.sizes
    x, y, w, h = body
    margin = canvas.margin()
    small = canvas.px(sizes.small)
    top = _line(canvas, sheets_in(words, view.scored, view.players), small, palette.dim,
                (x, y, w), "sheets-in")  # fmt: skip
    foot = canvas.fonts.height(small) + margin
    area = (x, top + margin // 2, w, y + h - foot - top - margin // 2)
    if view.ranking:
        _rows(canvas, view, words, area)
    else:
        _line(canvas, sheets_wanted(words), canvas.px(sizes.body), palette.text,
              (x, area[1] + area[3] // 3, w), "waiting", centre=True)  # fmt: skip
    bottom = y + h - foot + margin
    star = canvas.fonts.height(small)
    _star(canvas, (x + star / 2, bottom + star / 2), star * 0.45)
    _line(canvas, winner_key(words), small, palette.dim, (x + star + margin, bottom, w // 2),
          "winner-key")  # fmt: skip
    code = words.seed(view.seed)
    width = canvas.fonts.width(code, small)
    _line(canvas, code, small, palette.dim, (x + w - width, bottom, width), "seed")


def _rows(canvas: Canvas, view: views.RoomResultsView, words: Words, area: Box) -> None:
    palette = canvas.theme.palette
    x, y, w, h = area
    margin = canvas.margin()
    row_h = h // ROWS
    px = min(canvas.px(canvas.theme.sizes.body), round(row_h * 0.78))
    height = canvas.fonts.height(px)
    place_w = canvas.fonts.width("88.", px)
    star_w = height
    table_w = max(canvas.fonts.width(table_number(words, p.table), px) for p in view.ranking)
    total_w = canvas.fonts.width("888", px)
    for index, place in enumerate(view.ranking):
        top = y + index * row_h
        first = place.place == 1
        colour: Colour = palette.accent_text if first else palette.text
        if first:
            band = pygame.Rect(x, top, w, row_h - max(1, margin // 3))
            pygame.draw.rect(canvas.surface, palette.accent, band, border_radius=margin // 2)
        middle = top + (row_h - height) // 2
        left = x + margin
        number = f"{place.place}."
        canvas.text(number, px, colour, (left + place_w - canvas.fonts.width(number, px),
                                         middle), "place")  # fmt: skip
        left += place_w + margin
        if place.table_winner:
            star = palette.accent_text if first else palette.accent  # dark on the gold band
            _star(canvas, (left + star_w / 2, middle + height / 2), height * 0.42, star)
        left += star_w + margin
        right = x + w - margin
        total = str(place.total)
        canvas.text(total, px, colour, (right - canvas.fonts.width(total, px), middle), "total")
        right -= total_w + 2 * margin
        table = table_number(words, place.table)
        dim = palette.accent_text if first else palette.dim
        canvas.text(table, px, dim, (right - table_w, middle), "table")
        right -= table_w + 2 * margin
        name = fit_text(place.name, px, max(1, right - left), fonts=canvas.fonts, max_lines=1,
                        min_size=round(px * 0.6))  # fmt: skip
        canvas.fitted(name, colour, (left, top + (row_h - name.height) // 2, right - left,
                                     name.height), "name")  # fmt: skip


def _line(canvas: Canvas, text: str, px: int, colour: Colour, at: tuple[int, int, int],
          role: str, *, centre: bool = False) -> int:  # fmt: skip
    """One line of words fitted to a width from `at` (x, y, width); returns its bottom."""
    x, y, w = at
    fitted = fit_text(text, px, w, fonts=canvas.fonts, max_lines=2,
                      min_size=canvas.px(canvas.theme.sizes.smallest))  # fmt: skip
    canvas.fitted(fitted, colour, (x, y, w, fitted.height), role, centre=centre)
    return y + fitted.height


def _star(canvas: Canvas, centre: tuple[float, float], radius: float,
          fill: Colour | None = None) -> None:  # fmt: skip
    """A gold five-pointed star: a table's winner (drawn: the font has no star)."""
    cx, cy = centre
    points = [
        (cx + (radius if k % 2 == 0 else radius * 0.45) * math.cos(-math.pi / 2 + math.pi * k / 5),
         cy + (radius if k % 2 == 0 else radius * 0.45) * math.sin(-math.pi / 2 + math.pi * k / 5))
        for k in range(10)
    ]  # fmt: skip
    pygame.draw.polygon(canvas.surface, fill or canvas.theme.palette.accent, points)
    pygame.draw.polygon(canvas.surface, canvas.theme.palette.accent_text, points, width=1)
    box = (round(cx - radius), round(cy - radius), round(2 * radius), round(2 * radius))
    canvas.figures.append(Figure("star", box, "table-winner"))
