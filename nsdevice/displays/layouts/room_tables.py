"""A room's round start and pencil pass on small glass: four small tables, one per table
size (1 to 4 players), on one page.

Each small table stands tall, seen from above, its seats along its two long sides,
clockwise from seat 1 at the lower right, the way the pencils pass (C-8): seat 1, the
left side from the bottom up, the right side's top. Each seat has its chair with its
number, its pencil and its start symbol (C-9); the spares lie on the table with no chair.
On the pencil pass an arrow across each end of a table shows the way the pencils go
round, and each pencil lies where it goes. The tables keep their own controllers (C-10): no chair is
marked. With the pencil powers (L-PP), one key beside the labels gives each colour's
power, the same at every table; the special-station pairing is the one line over the
tables (T-SP-2), as at one table.
"""

from __future__ import annotations

import pygame

from nsdevice import views
from nsdevice.displays import figures
from nsdevice.displays.canvas import Canvas
from nsdevice.displays.drawing import Box, Figure, Seated
from nsdevice.displays.layouts.small_page import TEXT_MM
from nsdevice.displays.layouts.table import Spot, mark, pairing_line, start_spots
from nsdevice.rules.deal import slots
from nsdevice.texts import Words

PENCIL_MM = (4.5, 1.2)  # a pencil at a small table: length (at most) and thickness
SYMBOL_MM = 2.0  # a start symbol at a small table
ARROW_MM = 1.6  # the pass arrow across each end of a small table
OVERLAP = 6  # pixels of a chair over the table's edge: the narrow table needs them
KEY_MM = (3.0, 1.3, 2.6)  # the key's pencils: length and thickness; its power icons


def room_start(
    canvas: Canvas, view: views.RoundStartView, words: Words, body: Box, foot: Box
) -> None:
    room = view.room
    assert room is not None, "a room game's round start"
    area = pairing_line(canvas, view.pairing, words, body)
    rows = [start_spots(row) for row in room.rows]
    small_tables(canvas, rows, power_key(canvas, _powers(rows), area, foot), passing=False)


def room_pass(
    canvas: Canvas, view: views.PencilPassView, words: Words, body: Box, foot: Box
) -> None:
    room = view.room
    assert room is not None, "a room game's pencil pass"
    rows = [start_spots(row) for row in room.rows]
    small_tables(canvas, rows, power_key(canvas, _powers(rows), body, foot), passing=True)


def _powers(rows: list[list[Spot]]) -> tuple[tuple[str, str], ...]:
    """Each colour's power (L-PP), from the table of 4, where every pencil lies."""
    return tuple((spot.colour, spot.power) for spot in rows[-1] if spot.power) if rows else ()


def small_tables(canvas: Canvas, rows: list[list[Spot]], box: Box, *, passing: bool) -> None:
    """The tables of 1, 2, 3 and 4 side by side, smallest first."""
    x, y, w, h = box
    gap = canvas.margin()
    cell_w = (w - 3 * gap) // 4
    for index, spots in enumerate(rows[:4]):
        cell = (x + index * (cell_w + gap), y, cell_w, h)
        small_table(canvas, spots, index + 1, cell, passing=passing)


def small_table(
    canvas: Canvas, spots: list[Spot], size: int, cell: Box, *, passing: bool
) -> None:
    """One table of `size` players in `cell`, standing tall: its right side's lower slot
    is seat 1's, then clockwise the left side from the bottom up, the right side's top."""
    x, y, w, h = cell
    palette = canvas.theme.palette
    px = canvas.cap_px(TEXT_MM)
    chair_w, chair_h = canvas.fonts.width("4", px) + 4, canvas.fonts.height(px) + 2
    end = canvas.mm(ARROW_MM) + 2  # each end of the table keeps room for its arrow
    top = pygame.Rect(x + chair_w - OVERLAP, y, w - 2 * (chair_w - OVERLAP), h)
    pygame.draw.rect(canvas.surface, palette.table, top, border_radius=canvas.mm(1.5))
    canvas.figures.append(Figure(f"table-of-{size}", (top.x, top.y, top.w, top.h), "table"))
    by_slot = {spot.slot: spot for spot in spots}
    half = (h - 2 * end) // 2
    # (right side?, lower half?) of each slot clockwise from seat 1 (C-8)
    places = ((True, True), (False, True), (False, False), (True, False))
    for (right, lower), slot in zip(places, slots(size), strict=False):
        spot = by_slot.get(slot)
        if spot is None:
            continue
        band = pygame.Rect(x, y + end + (half if lower else 0), w, half)
        chair = None
        if not spot.spare:
            chair = pygame.Rect(0, 0, chair_w, chair_h)
            chair.center = (x + w - chair_w // 2 if right else x + chair_w // 2, band.centery)
            pygame.draw.rect(canvas.surface, palette.chair, chair, border_radius=3)
            box = (chair.x, chair.y, chair.w, chair.h)
            canvas.figures.append(Figure(f"chair-{slot}", box, "chair"))
            if size > 1:
                at = (chair.centerx - canvas.fonts.width(slot, px) / 2, chair.y + 1)
                canvas.text(slot, px, palette.text, at, "chair")
        pencil = _pencil(canvas, spot, band, top, right)
        canvas.seats.append(
            Seated(size, slot, spot.colour, spot.start, None, False, pencil,
                   None if chair is None else (chair.x, chair.y, chair.w, chair.h))
        )  # fmt: skip
    if passing and size > 1:
        for lower in (True, False):
            _end_arrow(canvas, top, end, lower)


def _pencil(
    canvas: Canvas, spot: Spot, band: pygame.Rect, top: pygame.Rect, right: bool
) -> Box:
    """The slot's pencil standing on the table beside its chair, its start symbol under
    it; returns the pencil's box."""
    size = canvas.mm(SYMBOL_MM)
    thick = canvas.mm(PENCIL_MM[1])
    room = band.h - (size + 3 if spot.start else 0) - 4
    length = max(thick * 2, min(canvas.mm(PENCIL_MM[0]), room))
    inner = top.w // 2 - OVERLAP
    column = top.right - OVERLAP - inner if right else top.left + OVERLAP
    middle = column + inner // 2
    stack = length + (size + 3 if spot.start else 0)
    rect = pygame.Rect(middle - thick // 2, band.centery - stack // 2, thick, length)
    figures.pencil_turned(canvas, spot.colour, rect, 270 if right else 90)
    if spot.start:
        mark(canvas, spot.start, (middle, rect.bottom + 3 + size / 2), size, False)
    return (rect.x, rect.y, rect.w, rect.h)


def _end_arrow(canvas: Canvas, top: pygame.Rect, end: int, lower: bool) -> None:
    """Across an end of the table, the way the pencils go round it: leftward across the
    near end, rightward across the far one (C-8)."""
    colour = canvas.theme.palette.dim
    reach = max(3, canvas.mm(ARROW_MM) // 2)
    row = top.bottom - end // 2 - 1 if lower else top.top + end // 2 + 1
    point = -1 if lower else 1
    middle = top.centerx
    tip = (middle + point * reach, row)
    tail = middle - point * reach
    width = max(2, canvas.mm(0.4))
    pygame.draw.line(canvas.surface, colour, (tail, row), tip, width)
    head = reach * 0.7
    pygame.draw.polygon(canvas.surface, colour, [
        (tip[0] + point * 2, row), (tip[0] - point * head, row - head),
        (tip[0] - point * head, row + head)])  # fmt: skip
    box = (middle - reach, round(row - head), 2 * reach, round(2 * head))
    canvas.figures.append(Figure("pass-arrow", box, "pass-arrow"))


def power_key(canvas: Canvas, powers: tuple[tuple[str, str], ...], body: Box, foot: Box) -> Box:
    """Each colour's power (L-PP) as a short pencil and its icon, in a row beside the
    lower labels when it fits there, else over the tables; returns the tables' box."""
    if not powers:
        return body
    length, thick, icon = (canvas.mm(v) for v in KEY_MM)
    gap = max(2, canvas.margin() // 2)
    entry = length + gap + icon + 3 * gap
    width = entry * len(powers)
    fx, fy, fw, fh = foot
    x, y, w, h = body
    if width <= fw and icon <= fh:
        left, middle, rest = fx + (fw - width) // 2, fy + fh // 2, body
    else:
        left, middle = x, y + icon // 2
        rest = (x, y + icon + gap, w, h - icon - gap)
    for colour, power in powers:
        rect = pygame.Rect(left, middle - thick // 2, length, thick)
        figures.pencil(canvas, colour, rect)
        mark(canvas, power, (rect.right + gap + icon / 2, middle), icon, True)
        box = (left, middle - icon // 2, entry, icon)
        canvas.figures.append(Figure(f"key-{colour}-{power}", box, "power-key"))
        left += entry
    return rest
