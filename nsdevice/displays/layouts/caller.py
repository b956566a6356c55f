"""A room game on big glass (issue 25): the caller's screens, read across a room.

On a TV (`CALLER_PIXELS` and up) the turn keeps the wide turn's parts (the card, the
notes, the module cards, the round's earlier cards and the deck) on the left, and a
column at the right tells the room how to join (the page's QR code, the join code, the
tables and players in) and, under it, the pencils each table size holds this round:
a table without phones reads its own from there (C-8). A round's start and the pencils
passed on show every table size's row in a column of its own, at one size for all four,
with the join column beside them on a TV.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TypeGuard

import pygame

from nsdevice import views
from nsdevice.displays import figures
from nsdevice.displays.canvas import Canvas
from nsdevice.displays.drawing import Box
from nsdevice.displays.layouts.page import page
from nsdevice.displays.layouts.phones import qr_code
from nsdevice.displays.layouts.stack import Icon, Item, fit_rows, measure, place_rows, total
from nsdevice.displays.layouts.wide_turn import wide_turn
from nsdevice.displays.text_fit import Fitted, fit_text
from nsdevice.texts import Page, Words
from nsdevice.texts.pages.room import join_code, joined, pass_note, room_size

CALLER_PIXELS = (1280, 720)  # at least this many pixels across and down: a caller's screen
JOIN_SHARE = 0.22  # of the body's width, for the join column and the pencils under it
QR_SHARE = 0.5  # of the body's height, at most, for the QR code


def room_rows(view: views.View) -> TypeGuard[views.RoundStartView | views.PencilPassView]:
    """A room game's round start or pencil pass: every table size's row to show."""
    return isinstance(view, views.RoundStartView | views.PencilPassView) and view.room is not None


def summary_to_join(
    canvas: Canvas, view: views.SummaryView, words: Words, text: Page, body: Box
) -> None:
    """A room's summary: the join column (the QR code, the join code) at the right, the
    game's words beside it without the lines the column shows."""
    room = view.room
    assert room is not None, "a room game's summary"
    x, y, w, h = body
    margin = canvas.margin()
    side = round(w * (JOIN_SHARE if is_caller(canvas) else 0.34))
    column = (x + w - side, y, side, h)
    _rule(canvas, column)
    join_column(canvas, room, words, column, share=0.66)
    shown = {join_code(words, room.code), joined(words, room), room.address}
    kept = tuple(line for line in text.lines if line.text not in shown)
    page(canvas, view, replace(text, lines=kept), (x, y, w - side - 2 * margin, h))


ADDRESS_FLOOR = 0.03  # of the height: 32 px, about 15 mm, on a 40-inch 1080p TV


def is_caller(canvas: Canvas) -> bool:
    width, height = canvas.surface.get_size()
    return width >= CALLER_PIXELS[0] and height >= CALLER_PIXELS[1]


def caller_turn(canvas: Canvas, view: views.TurnView, words: Words, body: Box) -> None:
    room = view.room
    assert room is not None, "a caller's turn is a room game's"
    x, y, w, h = body
    margin = canvas.margin()
    side = round(w * JOIN_SHARE)
    wide_turn(canvas, view, words, (x, y, w - side - 2 * margin, h))
    column = (x + w - side, y, side, h)
    _rule(canvas, column)

    def paint() -> None:
        below = join_column(canvas, room, words, column, share=0.32, count=False)
        pencil_panel(canvas, room, words, (column[0], below, side, y + h - below))

    # The same from one press to the next, until a round's new pencils: drawn once, then
    # copied (laying out its words again cost a caller's press more than one table's
    # whole turn, issue 35). The count of tables and players is not on the turn.
    shown = replace(room, tables=0, players=0)
    key = ("caller-column", shown, words.language, canvas.surface.get_size(), column,
           canvas.dots_per_mm)  # fmt: skip
    canvas.once(key, pygame.Rect(column), paint)


def room_pencils(
    canvas: Canvas, view: views.RoundStartView | views.PencilPassView, words: Words, body: Box
) -> None:
    """Every table size's pencils for the round (C-8), the pairing over them (T-SP-2) at
    a round's start; the join column beside them on a TV."""
    room = view.room
    assert room is not None, "a room game's round"
    x, y, w, h = body
    margin = canvas.margin()
    if is_caller(canvas):
        side = round(w * JOIN_SHARE)
        column = (x + w - side, y, side, h)
        _rule(canvas, column)
        join_column(canvas, room, words, column, share=0.62)
        w -= side + 2 * margin
    top = _over_the_rows(canvas, view, words, (x, y, w, h))
    size_columns(canvas, room, words, (x, top, w, y + h - top))


def _over_the_rows(
    canvas: Canvas, view: views.RoundStartView | views.PencilPassView, words: Words, box: Box
) -> int:
    """The line over the rows: the pairing at a round's start, the pass at its end."""
    palette = canvas.theme.palette
    x, y, w, _ = box
    if isinstance(view, views.PencilPassView):
        item = Item(pass_note(words), palette.dim, role="note")
    elif view.pairing:
        item = Item(words.labelled(words.module("special_stations"), words.pairing(view.pairing)),
                    palette.accent_text, band=palette.special_badge,
                    icons=(Icon("symbol", view.pairing.symbol),), max_lines=2,
                    role="pairing")  # fmt: skip
    else:
        return y
    px = canvas.px(canvas.theme.sizes.small)
    rows = measure(canvas.fonts, [item], w, px)
    place_rows(canvas, rows, (x, y, w, total(rows, px)), px)
    return y + total(rows, px) + canvas.margin()


def size_columns(canvas: Canvas, room: views.RoomCall, words: Words, box: Box) -> None:
    """Each table size in a cell of a two by two grid (solo and 2 over 3 and 4), all at
    the largest size where every cell fits uncut: a heading, then each pencil with its
    swatch and start (C-8, C-9)."""
    palette, sizes = canvas.theme.palette, canvas.theme.sizes
    x, y, w, h = box
    space = canvas.margin() * 2
    across = 2
    down = -(-len(room.rows) // across)
    width = (w - space * (across - 1)) // across
    height = (h - space * (down - 1)) // down
    columns = []
    for size, row in enumerate(room.rows, start=1):
        items = [Item(room_size(words, size), palette.dim, scale=0.85, role="heading")]
        for pencil in row:
            spare = pencil.slot.startswith("table")
            start = Icon("symbol", pencil.start_symbol) if pencil.start_symbol and not spare \
                else Icon("blank")  # fmt: skip
            items.append(Item(words.pencil_line(pencil, size),
                              palette.dim if spare else palette.text,
                              icons=(Icon("pencil", pencil.colour, length=1.6), start),
                              max_lines=3, role="pencil"))  # fmt: skip
        columns.append(items)
    # a TV's column for the join leaves the cells narrow: under the screen's smallest
    # text rather than a pencil cut (on a TV still over 10 mm a capital)
    start_px, floor = canvas.px(sizes.body), round(canvas.px(sizes.smallest) * 0.7)
    for px in range(start_px, floor - 1, -1):
        fits = [fit_rows(canvas.fonts, items, width, height, px, px) for items in columns]
        if all(fit is not None for fit in fits):
            break
    else:  # never on the glass the tests measure; the smallest size, cut at the bottom
        px = floor
        fits = [(px, measure(canvas.fonts, items, width, px)) for items in columns]
    for index, fit in enumerate(fits):
        assert fit is not None
        line, column = divmod(index, across)
        cell = (x + column * (width + space), y + line * (height + space), width, height)
        place_rows(canvas, fit[1], cell, fit[0])


def join_column(
    canvas: Canvas,
    room: views.RoomCall,
    words: Words,
    box: Box,
    share: float = QR_SHARE,
    count: bool = True,
) -> int:
    """How the room joins, from the top of `box`: the QR code of the page's address (when
    the box serves one), the join code, and (`count`) the tables and players in. Returns
    the bottom."""
    palette, sizes = canvas.theme.palette, canvas.theme.sizes
    x, y, w, h = box
    margin = canvas.margin()
    inner = w - 2 * margin
    least = canvas.px(sizes.smallest)

    def fitted(text: str, px: int) -> Fitted:
        for lines_at_most in (1, 2, 3):  # wrapped rather than cut
            fit = fit_text(text, px, inner, fonts=canvas.fonts, max_lines=lines_at_most,
                           min_size=min(px, least))  # fmt: skip
            if not fit.cut:
                break
        return fit

    # the code's digits on a line of their own, large; the words that name them over it
    label = join_code(words, room.code).replace(room.code, "").strip()
    band = [(fitted(label, least), "join-label"), (fitted(room.code, canvas.px(sizes.body)),
                                                   "join-code")]  # fmt: skip
    band_h = sum(fit.height for fit, _ in band) + margin
    under = fitted(joined(words, room), canvas.px(sizes.small)) if count else None
    # the address in letters too: a phone with no QR reader types it (no scheme to type)
    where = None
    if room.address:  # on one line, smaller if need be: a number broken in two misleads
        address = typed_address(room.address)
        # across a room a TV's letters stay large far below the small panels' floor
        floor = canvas.px(ADDRESS_FLOOR) if is_caller(canvas) else least
        where = fit_text(address, canvas.px(sizes.small), inner, fonts=canvas.fonts,
                         max_lines=1, min_size=min(canvas.px(sizes.small), floor))  # fmt: skip
        if where.cut:  # else the port goes to a line of its own, never half a number
            where = fitted(address.replace(":", " :", 1), canvas.px(sizes.small))
    words_h = band_h + margin + sum(fit.height + margin for fit in (where, under) if fit)
    top = y
    if room.address:  # the QR code takes what the words leave, up to its share
        side = max(0, min(w, round(h * share), h - words_h - margin))
        drawn = qr_code(canvas, room.address, (x + (w - side) // 2, y, side, side))
        top = drawn[1] + drawn[3] + margin
    rect = pygame.Rect(x, top, w, band_h)
    pygame.draw.rect(canvas.surface, palette.accent, rect, border_radius=max(2, margin // 2))
    top += margin // 2
    for fit, role in band:
        canvas.fitted(fit, palette.accent_text, (x + margin, top, inner, fit.height), role,
                      centre=True)  # fmt: skip
        top += fit.height
    top += margin // 2 + margin // 2
    if where is not None:
        canvas.fitted(where, palette.text, (x + margin, top, inner, where.height), "address",
                      centre=True)  # fmt: skip
        top += where.height + margin // 2
    if under is not None:
        canvas.fitted(under, palette.dim, (x + margin, top, inner, under.height), "joined",
                      centre=True)  # fmt: skip
        top += under.height + margin // 2
    return top + margin


def typed_address(address: str) -> str:
    """The page's address as a player types it: "192.168.1.20:8414", not "http://…/"."""
    bare = address.removeprefix("http://").removeprefix("https://")
    return bare.removesuffix("/")


def pencil_panel(canvas: Canvas, room: views.RoomCall, words: Words, box: Box) -> None:
    """This round's pencils by table size, one row each: the size, then a pencil a slot
    in the order of the seats with its seat's number under it, the spares dimmed (C-8)."""
    palette, sizes = canvas.theme.palette, canvas.theme.sizes
    x, y, w, h = box
    if h <= 0 or not room.rows:
        return
    row_h = h // len(room.rows)
    # a row: its size's words over the pencils, each seat's number under its pencil
    label_px = max(6, min(canvas.px(sizes.smallest), round(row_h * 0.34)))
    number_px = max(6, round(label_px * 0.8))
    slots = max(len(row) for row in room.rows)
    for index, row in enumerate(room.rows):
        size = index + 1
        top = y + index * row_h
        label = fit_text(room_size(words, size), label_px, w, fonts=canvas.fonts, max_lines=1,
                         min_size=number_px)  # fmt: skip
        canvas.fitted(label, palette.dim, (x, top, w, label.height), "pencil-size")
        room_for = max(1, row_h // 24)  # between the words, the pencil and its number
        space = row_h - label.height - canvas.fonts.height(number_px) - 3 * room_for
        step = w // slots
        tall = max(2, min(space, round(step * 0.24)))
        for place, pencil in enumerate(_by_seat(row)):
            rect = pygame.Rect(x + place * step, top + label.height + room_for,
                               step - canvas.margin(), tall)  # fmt: skip
            figures.pencil(canvas, pencil.colour, rect)
            if pencil.slot.startswith("table"):
                figures.dim(canvas, rect)
                continue
            number = str(pencil.slot)
            width = canvas.fonts.width(number, number_px)
            at = (rect.centerx - width / 2, rect.bottom + room_for)
            canvas.text(number, number_px, palette.text, at, "pencil-seat")


def _by_seat(row: tuple[views.SeatPencil, ...]) -> list[views.SeatPencil]:
    """The slots clockwise from seat 1, as the pencils lie round the table (C-8, D-7)."""
    order = ("1", "table-1", "2", "table-2", "3", "table", "4")
    return sorted(row, key=lambda pencil: order.index(pencil.slot))


def _rule(canvas: Canvas, column: Box) -> None:
    x, y, _, h = column
    at = x - canvas.margin()
    pygame.draw.line(canvas.surface, canvas.theme.palette.pip_empty, (at, y), (at, y + h),
                     max(1, canvas.mm(0.4)))  # fmt: skip
