"""Screens of words on a small panel (glass under `SMALL_GLASS_MM` tall, the 2-inch Display
HAT Mini): the summary, the phones' page, the score entry and sheet, the history and a
room's screens. At a size read across the table (`TEXT_MM`, capital height)
they do not fit one glass, so they are drawn as pages that take turns (`PAGE_SECONDS`
each), with a mark such as "1/3" in the lower right corner: nothing is cut, nothing is
left out without a sign. A round's start is one picture in the same frame (`one_page`,
the table). A screen the buttons already page (the history, the room's
results) shows that one mark only: its title drops its own "2/3" on this glass.

A number being set (the score entry, the score sheet) keeps its digits in the top row,
between the buttons that change them, on every page; its title opens the words below. A
list with a cursor (the room's tables) scrolls with its cursor instead of taking turns.

The side buttons' labels go to the corners (`corner_hints`): the upper ones share the
title's row, the lower ones a band only as wide as they are, so the words get the whole
width. On the phones' page the QR code stands at the left of every page and the words
beside it; the address itself is left to the code (at a readable size it is wider than
the glass). A round's start and the pencil pass are one picture (`one_page`) in the same
frame.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pygame

from nsdevice import views
from nsdevice.displays.canvas import Canvas
from nsdevice.displays.drawing import Box
from nsdevice.displays.layouts.frame import cap_text, kept_legend, key_cap
from nsdevice.displays.layouts.page import scrolling_list
from nsdevice.displays.layouts.phones import qr_code, qr_content
from nsdevice.displays.layouts.small_turn import corner_hints
from nsdevice.displays.layouts.stack import Item, Row, icon_width, measure, place_rows, total
from nsdevice.displays.text_fit import Fitted, fit_text
from nsdevice.texts import Words

TEXT_MM = 2.5  # the least capital height of any word but the buttons' labels
PAGE_SECONDS = 5.0  # how long each page stays
DIGITS_MM = 4.0  # the number being set, when the top row has the width (never under TEXT_MM)
PAGED = (
    views.SummaryView,
    views.PhonesView,
    views.RoomResultsView,
    views.ScoreEntryView,
    views.SheetView,
    views.HistoryView,
    views.RoomTablesView,
)
BUTTON_PAGED = (views.HistoryView, views.RoomResultsView)  # NEXT turns their pages
NUMBERS = (views.ScoreEntryView, views.SheetView)  # a number set digit by digit
LISTS = (views.RoomTablesView,)  # a list with a cursor: it scrolls


def paged(view: views.View) -> bool:
    """A screen of words that goes to pages on small glass: the `PAGED` screens, and a
    result that names its seats or has a seat's breakdown (a phone's name may be long;
    the breakdown itself stays on big glass and the phones)."""
    if isinstance(view, views.ResultView):
        return bool(view.parts) or any(seat.parts or seat.name for seat in view.seats)
    return isinstance(view, PAGED)


HEADING = "heading"  # an item that introduces the next: never the last on a page


def title(view: views.View, words: Words) -> str:
    """The title as this glass shows it: without the "2/3" of a screen the buttons page
    (the page mark is the glass's own)."""
    if isinstance(view, BUTTON_PAGED):
        return words.title(dataclasses.replace(view, pages=1))
    return words.title(view)


TitleFit = tuple[Fitted, int, bool]  # the title fitted, its row's height, labels wrapped


def _title_fit(canvas: Canvas, view: views.View, words: Words) -> TitleFit:
    """The title fitted between the upper labels (on a number's screen, its digits); the
    row's height; whether the labels' actions go one word a line, which they do only when
    the title needs their width ("Téléphones" beside "Nouveau code")."""
    fonts, margin = canvas.fonts, canvas.margin()
    px = canvas.cap_px(TEXT_MM)
    label_px = canvas.px(canvas.theme.sizes.legend)
    upper = [h for h in view.hints if h.edge == "top"]
    for wrap in (False, True):
        chips = [_chip_size(canvas, h, words, label_px, wrap) for h in upper]
        room = canvas.surface.get_width() - 4 * margin - sum(w for w, _ in chips)
        if isinstance(view, NUMBERS):
            cell = _digit_cell(canvas, view, room)
            fitted = Fitted(px, (), cell * len(view.digits), round(cell * 1.25), 0)
        else:

            def too_wide(word: str, room: int = room) -> bool:
                return fonts.wider(word, px, room)

            text = canvas.hyphens.hyphenated(title(view, words), words.language, too_wide)
            fitted = fit_text(text, px, max(1, room), fonts=fonts, max_lines=2, min_size=px)
        if not fitted.cut:
            break
    return fitted, max([fitted.height, *(h for _, h in chips)]) + margin, wrap


def _digit_cell(canvas: Canvas, view: views.ScoreEntryView | views.SheetView, room: int) -> int:
    """A digit's box width: its figure at `DIGITS_MM` where the row has the room, never
    under `TEXT_MM`."""
    count = max(1, len(view.digits))
    space = max(1, canvas.margin() // 2)
    widest = (room - (count - 1) * space) // count
    fonts = canvas.fonts
    least = fonts.height(canvas.cap_px(TEXT_MM))
    return max(least, min(widest, fonts.height(canvas.cap_px(DIGITS_MM))))


def _digit_row(canvas: Canvas, view: views.ScoreEntryView | views.SheetView, box: Box) -> None:
    """The number being set, a box per digit, the one being changed in the accent colour,
    centred in `box` (between the buttons that change it)."""
    palette, fonts = canvas.theme.palette, canvas.fonts
    x, y, w, h = box
    cell = _digit_cell(canvas, view, w)
    space = max(1, canvas.margin() // 2)
    count = len(view.digits)
    left = x + (w - count * cell - (count - 1) * space) // 2
    tall = min(h, round(cell * 1.25))
    top = y + (h - tall) // 2
    px = canvas.cap_px(TEXT_MM)
    while fonts.height(px + 1) <= tall - 2 and fonts.cap(px + 1) <= cell:
        px += 1  # the figure as large as its box allows
    for index, digit in enumerate(view.digits):
        rect = pygame.Rect(left + index * (cell + space), top, cell, tall)
        here = index == view.cursor
        pygame.draw.rect(canvas.surface, palette.accent if here else palette.header, rect,
                         border_radius=max(2, cell // 8))  # fmt: skip
        shown = digit or "·"
        colour = palette.accent_text if here else (palette.text if digit else palette.dim)
        at = (rect.centerx - fonts.width(shown, px) / 2, rect.centery - fonts.height(px) / 2)
        canvas.text(shown, px, colour, at, "code")


def _title_row(
    canvas: Canvas, view: views.View, words: Words, bands: dict[str, Box], fit: TitleFit
) -> None:
    """The title at `TEXT_MM` between the upper corner labels, as `_title_fit` fitted it
    (`fit`: worked out once a paint, for the frame and the row); each label's box goes
    to `bands`."""
    palette = canvas.theme.palette
    width = canvas.surface.get_width()
    margin = canvas.margin()
    label_px = canvas.px(canvas.theme.sizes.legend)
    fitted, row, wrap = fit
    pygame.draw.rect(canvas.surface, palette.header, (0, 0, width, row))
    x_left, x_right = 0, width
    for hint in (h for h in view.hints if h.edge == "top"):
        chip_w, _ = _chip_size(canvas, hint, words, label_px, wrap)
        left = hint.order == 1
        x = x_left if left else x_right - chip_w
        bands[f"top-{'left' if left else 'right'}"] = _chip(
            canvas, hint, words, label_px, (x, 0), left=left, wrap=wrap
        )
        if left:
            x_left += chip_w
        else:
            x_right -= chip_w
    room = max(1, x_right - x_left - 2 * margin)
    if isinstance(view, NUMBERS):
        _digit_row(canvas, view, (x_left + margin, 0, room, row))
        return
    top = (row - fitted.height) // 2
    canvas.fitted(fitted, palette.text, (x_left + margin, top, room, fitted.height), "title",
                  centre=True)  # fmt: skip


def _action_lines(hint: views.Hint, words: Words, wrap: bool) -> list[str]:
    action = words.action(hint.action)
    return action.split() if wrap else [action]


def _chip_size(
    canvas: Canvas, hint: views.Hint, words: Words, px: int, wrap: bool
) -> tuple[int, int]:
    """A label as narrow as it can be: the key cap over the action's words."""
    fonts = canvas.fonts
    pad = max(2, round(px * 0.3))
    lines = _action_lines(hint, words, wrap)
    cap = fonts.width(cap_text(hint, words), px) + 2 * pad
    widest = max([cap, *(fonts.width(line, px) for line in lines)]) + 2 * pad
    return widest, fonts.height(px) * (1 + len(lines)) + 4 * pad


def _chip(
    canvas: Canvas,
    hint: views.Hint,
    words: Words,
    px: int,
    at: tuple[int, int],
    *,
    left: bool,
    wrap: bool,
) -> Box:
    """A button's key cap over its action, flush with the glass's edge its button is at."""
    fonts = canvas.fonts
    width, height = _chip_size(canvas, hint, words, px, wrap)
    x, y = at
    pad = max(2, round(px * 0.3))
    pygame.draw.rect(canvas.surface, canvas.theme.palette.legend, (x, y, width, height))
    cap = cap_text(hint, words)
    cap_w = fonts.width(cap, px) + 2 * pad
    cap_x = x + pad if left else x + width - pad - cap_w
    key_cap(canvas, cap, px, pad, (cap_x, y + pad), fonts.height(px) + 2 * pad)
    at_y = y + fonts.height(px) + 3 * pad
    for line in _action_lines(hint, words, wrap):
        line_x = x + pad if left else x + width - pad - fonts.width(line, px)
        canvas.text(line, px, canvas.theme.palette.text, (line_x, at_y), "legend")
        at_y += fonts.height(px)
    return (x, y, width, height)


def paginate(
    canvas: Canvas, items: list[Item], width: int, height: int, language: str
) -> list[list[Row]]:
    """`items` at `TEXT_MM` (never smaller) in pages of `height`, in order, uncut (a word
    wider than the page broken where `language` breaks it): a heading goes over to the
    next page with the item it introduces."""
    px = canvas.cap_px(TEXT_MM)
    fonts = canvas.fonts

    def hyphenated(item: Item) -> str:
        """The item's words, hyphenated only when one is wider than its line (beside its
        icons, after twice its indent)."""
        size = max(1, round(px * max(1.0, item.scale)))
        indent = item.text[: len(item.text) - len(item.text.lstrip(" "))] * 2
        room = width - sum(icon_width(fonts, i, size) for i in item.icons)
        room -= fonts.width(indent, size) + 2 * max(1, round(size * 0.16))

        def too_wide(word: str) -> bool:
            return fonts.wider(word, size, room)

        return canvas.hyphens.hyphenated(item.text, language, too_wide)

    grown = [
        dataclasses.replace(i, text=hyphenated(i), scale=max(1.0, i.scale), max_lines=8)
        for i in items
    ]
    rows = [
        piece
        for row in measure(canvas.fonts, grown, width, px)
        for piece in _pieces(canvas, row, height)
    ]
    pages: list[list[Row]] = [[]]
    for index, row in enumerate(rows):
        needed = [row]
        if row.item.role == HEADING and index + 1 < len(rows):
            needed.append(rows[index + 1])
        if pages[-1] and total([*pages[-1], *needed], px) > height:
            pages.append([])
        pages[-1].append(row)
    return pages


def _pieces(canvas: Canvas, row: Row, height: int) -> list[Row]:
    """`row`, or when it is taller than a page, its lines in pieces that each fit one
    (the icons beside the first): an item is parted only when no page holds it whole."""
    fitted = row.fitted
    line = canvas.fonts.height(fitted.size)
    if row.height <= height or len(fitted.lines) < 2:
        return [row]
    per = max(1, (height - 2 * row.pad - line) // max(1, fitted.advance) + 1)
    pieces = []
    for start in range(0, len(fitted.lines), per):
        lines = fitted.lines[start : start + per]
        tall = (len(lines) - 1) * fitted.advance + line
        piece = dataclasses.replace(fitted, lines=lines, height=tall)
        item = row.item if not start else dataclasses.replace(row.item, icons=())
        pieces.append(Row(item, piece, tall + 2 * row.pad, row.pad))
    return pieces


def _frame(
    canvas: Canvas, view: views.View, words: Words, bottom_mark: bool, fit: TitleFit
) -> tuple[Box, Box, dict[str, Box]]:
    """The body's box, the strip free beside the lower labels, and the lower labels'
    band, drawn on `canvas`. `bottom_mark`: the page mark takes the lower right corner."""
    width, height = canvas.surface.get_size()
    margin = canvas.margin()
    _, row, _ = fit
    lower = dataclasses.replace(view, hints=tuple(h for h in view.hints if h.edge == "bottom"))
    bands = kept_legend(canvas, lower, words, 0, snug=True) if lower.hints else {}
    band = bands.get("bottom")
    bottom = band[1] if band else height
    if bottom_mark:
        bottom = min(bottom, _mark_top(canvas))
    x, y = margin, row + margin
    body = (x, y, width - 2 * margin, bottom - margin - y)
    return body, _beside(canvas, bands, bottom), bands


def _beside(canvas: Canvas, bands: dict[str, Box], top: int) -> Box:
    """The wider free stretch of the glass's foot beside the lower labels' band, from
    `top` down (the whole foot when there are no lower labels)."""
    width, height = canvas.surface.get_size()
    margin = canvas.margin()
    band = bands.get("bottom")
    if band is None:
        return (margin, top, width - 2 * margin, height - top)
    x, _, w, _ = band
    left = (margin, x - 2 * margin)  # (start, width) of each side's stretch
    right = (x + w + margin, width - x - w - 2 * margin)
    start, room = max(left, right, key=lambda side: side[1])
    return (start, top, max(0, room), height - top)


def _layout(
    canvas: Canvas, view: views.View, words: Words, items: list[Item], fit: TitleFit
) -> tuple[Box, list[list[Row]], dict[str, Box]]:
    """The body's box (beside the QR code on the phones' page), the pages, and the lower
    labels' band, drawn on `canvas`. The page mark takes the lower right corner."""
    (x, y, w, h), _, bands = _frame(canvas, view, words, bottom_mark=True, fit=fit)
    margin = canvas.margin()
    if isinstance(view, views.PhonesView):
        side = min(h, w // 3)  # the words need the width more than the code needs size
        x, w = x + side + margin, w - side - margin
    return (x, y, w, h), paginate(canvas, items, w, h, words.language), bands


def _mark_top(canvas: Canvas) -> int:
    """Where the page mark stands: the lower right corner, by the spare button's place."""
    height = canvas.surface.get_height()
    return height - max(1, canvas.margin() // 2) - canvas.fonts.height(canvas.cap_px(TEXT_MM))


def small_page(
    canvas: Canvas, view: views.View, words: Words, items: list[Item], page: int
) -> tuple[dict[str, Box], int]:
    """Draws page `page` (counted round) of a screen of `items` under its title; returns
    the labels' boxes and how many pages there are."""
    placed = corner_hints(view)
    fit = _title_fit(canvas, placed, words)
    body, pages, bands = _layout(canvas, placed, words, items, fit)
    index = page % len(pages)
    _title_row(canvas, placed, words, bands, fit)
    x, y, w, h = body
    if isinstance(placed, LISTS):  # scrolls with its cursor: one page
        scrolling_list(canvas, words.page(placed), body, canvas.cap_px(TEXT_MM))
        return bands, 1
    if len(pages) > 1:
        mark = f"{index + 1}/{len(pages)}"
        px = canvas.cap_px(TEXT_MM)
        at = (canvas.surface.get_width() - canvas.margin() - canvas.fonts.width(mark, px),
              _mark_top(canvas))  # fmt: skip
        canvas.text(mark, px, canvas.theme.palette.dim, at, "page-mark")
    if isinstance(placed, views.PhonesView):
        content = qr_content(placed)
        qr_code(canvas, content, (canvas.margin(), y, x - 2 * canvas.margin(), h))
    place_rows(canvas, pages[index], (x, y, w, h), canvas.cap_px(TEXT_MM))
    return bands, len(pages)


OnePage = Callable[[Canvas, Any, Words, Box, Box], None]


def one_page(canvas: Canvas, view: views.View, words: Words, draw: OnePage) -> dict[str, Box]:
    """A screen that is one picture on small glass (the table at a round's start): its
    title between the upper labels, the lower labels, and `draw(canvas, view, words,
    body, beside)` for the rest, `beside` being the strip free between the lower labels.
    Returns the labels' boxes."""
    placed = corner_hints(view)
    fit = _title_fit(canvas, placed, words)
    body, beside, bands = _frame(canvas, placed, words, bottom_mark=False, fit=fit)
    _title_row(canvas, placed, words, bands, fit)
    draw(canvas, placed, words, body, beside)
    return bands
