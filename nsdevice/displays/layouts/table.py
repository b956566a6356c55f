"""The table at a glance on small glass (the 2-inch panel): a round's start and the pencil
pass drawn as the table seen from above, every seat on one page.

Seat 1 sits below the table and the slots follow clockwise, the way the pencils pass
(C-8): left, top, right. Each seat has its chair with its number, and in front of it its
pencil in its colour, the start symbol of that pencil (C-9) and, with the pencil powers,
the power's icon (L-PP). The spares lie on the table with no chair. The controller's chair
is yellow with a small deck beside it (C-10). The pencil pass draws each pencil where it
goes, with an arrow round each corner of the table. Tokyo's special-station pairing is one
line over the table: its symbol, then its effect on the orange of its cards (T-SP-2).

Every place drawn is noted in the canvas (`Seated`), so tests read each seat back. A
room's four small tables are `room_tables`; they share these parts.
"""

from __future__ import annotations

import math

import pygame

from nsdevice import views
from nsdevice.displays import figures
from nsdevice.displays.canvas import Canvas
from nsdevice.displays.drawing import Box, Figure, Seated
from nsdevice.displays.layouts.small_page import TEXT_MM
from nsdevice.displays.text_fit import fit_text
from nsdevice.rules.deal import slots
from nsdevice.rules.frozen import dataclass
from nsdevice.texts import Words

SIDES = ("bottom", "left", "top", "right")  # the slots' places, clockwise from seat 1 (C-8)
TIP = {"bottom": 0, "left": 90, "top": 180, "right": 270}  # tip turned clockwise: as held
PENCIL_MM = (7.0, 1.6)  # a pencil's length and thickness on the glass
SYMBOL_MM = 3.2  # a start symbol: as tall as the seat's number, a little more
POWER_MM = 3.4  # a power's icon, in its ring
DECK_MM = (2.6, 3.6)  # the controller's small deck: a card's width and height


@dataclass(frozen=True, slots=True)
class Spot:
    """What lies at one slot of a table: its pencil, that pencil's start and power."""

    slot: str
    colour: str
    start: str | None = None
    power: str | None = None

    @property
    def spare(self) -> bool:
        return self.slot.startswith("table")


def start_spots(pencils: tuple[views.SeatPencil, ...]) -> list[Spot]:
    """A round start's pencils; a spare shows no start and no power (nobody draws with it
    this round)."""
    return [
        Spot(p.slot, p.colour)
        if p.slot.startswith("table")
        else Spot(p.slot, p.colour, p.start_symbol, p.power)
        for p in pencils
    ]


def pass_spots(view: views.PencilPassView) -> list[Spot]:
    """Each pencil where it goes (C-8); solo, the next pencil of the row at the one seat."""
    if view.solo_next:
        return [Spot("1", view.solo_next)]
    return [Spot(move.to_slot, move.colour) for move in view.moves]


# --- the one table --------------------------------------------------------------------------
def table_start(
    canvas: Canvas, view: views.RoundStartView, words: Words, body: Box, foot: Box
) -> None:
    """A round's start at one table: who sits where with which pencil, the pairing."""
    area = pairing_line(canvas, view.pairing, words, stretch(canvas, body, foot))
    table(canvas, start_spots(view.pencils), view.players, view.controller, area, passing=False)


def table_pass(
    canvas: Canvas, view: views.PencilPassView, words: Words, body: Box, foot: Box
) -> None:
    """The pencils passed on: each where it goes, the way they go, the next controller."""
    area = stretch(canvas, body, foot)
    passing = not view.solo_next
    table(canvas, pass_spots(view), view.players, view.next_controller, area, passing=passing)


def stretch(canvas: Canvas, body: Box, foot: Box) -> Box:
    """The body, down to the glass's foot when the lower labels leave its middle free
    (the bottom seat's chair stands there, between the corner labels)."""
    x, y, w, _ = body
    fx, fy, fw, fh = foot
    middle = x + w / 2
    need = chair_size(canvas) * 2.5  # the chair and the deck beside it
    if fx <= middle - need / 2 and fx + fw >= middle + need / 2:
        return (x, y, w, fy + fh - max(1, canvas.margin() // 2) - y)
    return body


def table(
    canvas: Canvas,
    spots: list[Spot],
    players: int,
    controller: int,
    box: Box,
    *,
    passing: bool,
    size: int = 0,
) -> None:
    """The table in `box`: a chair outside each side that has a seat, each slot's pencil on
    the table before it. `size`: the room's table size this is, 0 for the box's own."""
    x, y, w, h = box
    chair = chair_size(canvas)
    gap = max(2, canvas.margin() // 2)
    top = pygame.Rect(x + chair + gap, y + chair + gap, w - 2 * (chair + gap),
                      h - 2 * (chair + gap))  # fmt: skip
    palette = canvas.theme.palette
    pygame.draw.rect(canvas.surface, palette.table, top, border_radius=canvas.mm(2.0))
    canvas.figures.append(Figure("table", (top.x, top.y, top.w, top.h), "table"))
    by_slot = {spot.slot: spot for spot in spots}
    for side, slot in zip(SIDES, slots(players), strict=False):
        spot = by_slot.get(slot)
        if spot is None:
            continue
        seat = None if spot.spare else chair_at(canvas, side, top, chair, gap)
        leads = seat is not None and slot == str(controller)
        if seat is not None:
            draw_chair(canvas, seat, "" if players == 1 else slot, leads, side)
        pencil = place(canvas, spot, side, top)
        canvas.seats.append(
            Seated(
                size,
                slot,
                spot.colour,
                spot.start,
                spot.power,
                leads,
                pencil,
                None if seat is None else (seat.x, seat.y, seat.w, seat.h),
            )
        )
    if passing and players > 1:
        for corner in range(4):
            pass_arrow(canvas, top, corner)


def chair_size(canvas: Canvas) -> int:
    """A chair: a square that holds its seat's number at `TEXT_MM`."""
    return canvas.fonts.height(canvas.cap_px(TEXT_MM)) + 4


def chair_at(canvas: Canvas, side: str, top: pygame.Rect, chair: int, gap: int) -> pygame.Rect:
    """The chair outside the middle of the table's `side`."""
    rect = pygame.Rect(0, 0, chair, chair)
    rect.center = {
        "bottom": (top.centerx, top.bottom + gap + chair // 2),
        "top": (top.centerx, top.top - gap - chair // 2),
        "left": (top.left - gap - chair // 2, top.centery),
        "right": (top.right + gap + chair // 2, top.centery),
    }[side]
    return rect


def draw_chair(canvas: Canvas, rect: pygame.Rect, number: str, leads: bool, side: str) -> None:
    """A chair with its seat's number; the controller's yellow, the deck beside it."""
    palette = canvas.theme.palette
    fill = palette.accent if leads else palette.chair
    pygame.draw.rect(canvas.surface, fill, rect, border_radius=max(2, rect.w // 5))
    role = "controller-chair" if leads else "chair"
    canvas.figures.append(Figure(f"chair-{number or 'solo'}", (rect.x, rect.y, rect.w, rect.h),
                                 role))  # fmt: skip
    if number:
        px = canvas.cap_px(TEXT_MM)
        width = canvas.fonts.width(number, px)
        at = (rect.centerx - width / 2, rect.centery - canvas.fonts.height(px) / 2)
        canvas.text(number, px, palette.accent_text if leads else palette.text, at, "chair")
    if leads:
        deck(canvas, rect, side)


def deck(canvas: Canvas, chair: pygame.Rect, side: str) -> None:
    """The controller's small deck beside the chair: two cards, one over the other."""
    palette = canvas.theme.palette
    w, h = canvas.mm(DECK_MM[0]), canvas.mm(DECK_MM[1])
    step = max(2, w // 4)
    rect = pygame.Rect(0, 0, w + step, h + step)
    gap = max(2, canvas.margin() // 2)
    if side in ("bottom", "top"):  # beside, to the right
        rect.midleft = (chair.right + gap, chair.centery)
    else:  # over the side chairs, along the glass's edge, clear of the lower labels
        rect.midbottom = (chair.centerx, chair.top - gap)
    for k in (1, 0):
        card = pygame.Rect(rect.x + k * step, rect.y + (1 - k) * step, w, h)
        pygame.draw.rect(canvas.surface, palette.accent, card, border_radius=max(1, w // 6))
        pygame.draw.rect(canvas.surface, palette.card_edge, card, width=1,
                         border_radius=max(1, w // 6))  # fmt: skip
    canvas.figures.append(Figure("deck", (rect.x, rect.y, rect.w, rect.h), "deck"))


def place(canvas: Canvas, spot: Spot, side: str, top: pygame.Rect) -> Box:
    """The pencil before its seat, on the table, with its start symbol and power beside;
    returns the pencil's box. Along the bottom and top a row, at the sides a column."""
    length, thick = (canvas.mm(PENCIL_MM[0]), canvas.mm(PENCIL_MM[1]))
    length = min(length, round((top.h if side in ("left", "right") else top.w) * 0.6))
    icon, power = canvas.mm(SYMBOL_MM), canvas.mm(POWER_MM)
    inset = max(2, canvas.margin() // 2)
    marks = [m for m in ((spot.start, icon, False), (spot.power, power, True)) if m[0]]
    if side in ("bottom", "top"):
        span = length + sum(size + inset for _, size, _ in marks)
        left = top.centerx - span // 2
        middle = top.bottom - inset - icon // 2 if side == "bottom" else top.top + inset + icon // 2
        rect = pygame.Rect(left, middle - thick // 2, length, thick)
        at = left + length + inset
        for name, size, ring in marks:
            mark(canvas, str(name), (at + size / 2, middle), size, ring)
            at += size + inset
    else:
        edge = top.left + inset if side == "left" else top.right - inset - thick
        rect = pygame.Rect(edge, top.centery - length // 2, thick, length)
        column = rect.right + inset if side == "left" else rect.left - inset - max(icon, power)
        heights = sum(size for _, size, _ in marks) + inset * (len(marks) - 1)
        at = top.centery - heights // 2
        for name, size, ring in marks:
            mark(canvas, str(name), (column + max(icon, power) / 2, at + size / 2), size, ring)
            at += size + inset
    figures.pencil_turned(canvas, spot.colour, rect, TIP[side])
    return (rect.x, rect.y, rect.w, rect.h)


def mark(canvas: Canvas, name: str, centre: tuple[float, float], size: int, ring: bool) -> None:
    """A start symbol (C-9), or a power's icon in a ring (L-PP): a power is no station."""
    if ring:
        figures.power(canvas, name, centre, size)
    else:
        figures.symbol(canvas, name, centre, size, "start")


def pass_arrow(canvas: Canvas, top: pygame.Rect, corner: int) -> None:
    """An arrow round one corner of the table, from a slot to the next clockwise (C-8):
    bottom to left, left to top, top to right, right to bottom."""
    palette = canvas.theme.palette
    radius = max(4, round(min(top.w, top.h) * 0.14))
    inset = max(2, canvas.margin() // 2) + radius
    # each corner's arc: its centre, inside the table, and where it starts (screen angles:
    # y points down, so the angle grows clockwise)
    centres = (
        (top.left + inset, top.bottom - inset),
        (top.left + inset, top.top + inset),
        (top.right - inset, top.top + inset),
        (top.right - inset, top.bottom - inset),
    )
    cx, cy = centres[corner]
    start = 90.0 + 90.0 * corner
    steps = 8
    points = []
    for k in range(steps + 1):
        angle = math.radians(start + 80 * k / steps)  # short of the quarter: room for the head
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    width = max(2, canvas.mm(0.4))
    pygame.draw.lines(canvas.surface, palette.dim, False, points, width)
    (ax, ay), (bx, by) = points[-2], points[-1]
    length = math.hypot(bx - ax, by - ay) or 1.0
    ux, uy = (bx - ax) / length, (by - ay) / length
    head = width * 2.2
    tip = (bx + ux * head, by + uy * head)
    pygame.draw.polygon(canvas.surface, palette.dim, [
        tip, (bx - uy * head, by + ux * head), (bx + uy * head, by - ux * head)])  # fmt: skip
    xs = [p[0] for p in (*points, tip)]
    ys = [p[1] for p in (*points, tip)]
    box = (round(min(xs)), round(min(ys)), round(max(xs) - min(xs)), round(max(ys) - min(ys)))
    canvas.figures.append(Figure("pass-arrow", box, "pass-arrow"))


def pairing_line(canvas: Canvas, pairing: views.Pairing | None, words: Words, box: Box) -> Box:
    """This round's pairing over the table (T-SP-2): the symbol, an arrow, the effect on
    its card's orange; returns what is left of `box` below it."""
    if pairing is None:
        return box
    palette = canvas.theme.palette
    x, y, w, h = box
    px = canvas.cap_px(TEXT_MM)
    size = canvas.mm(SYMBOL_MM)
    pad = max(2, canvas.margin() // 2)
    arrow = "→"
    arrow_w = canvas.fonts.width(arrow, px) + 2 * pad
    room = w - size - arrow_w - 2 * pad
    fitted = fit_text(words.effect(pairing.effect), px, room, fonts=canvas.fonts, max_lines=2,
                      min_size=px)  # fmt: skip
    line = max(size, fitted.height)
    figures.symbol(canvas, pairing.symbol, (x + size / 2, y + line / 2), size, "pairing")
    canvas.text(arrow, px, palette.dim, (x + size + pad, y + (line - canvas.fonts.height(px)) / 2),
                "pairing-arrow")  # fmt: skip
    left = x + size + arrow_w
    widest = max(canvas.fonts.width(text, fitted.size) for text in fitted.lines)
    band = pygame.Rect(left, y, widest + 2 * pad, line)
    pygame.draw.rect(canvas.surface, palette.special_badge, band, border_radius=pad)
    canvas.fitted(fitted, palette.accent_text, (left + pad, y + (line - fitted.height) // 2,
                                               widest, fitted.height), "pairing")  # fmt: skip
    used = line + canvas.margin()
    return (x, y + used, w, h - used)
