"""Every screen but the turn and the round start: a title, lines of text from
`Words.page` and a legend. Each line is styled by its role from one table (`STYLES`),
the page as a whole by its form (a list with a cursor, a centred message, the deal code
as boxes); the pencil swatches and the hardware check's test pattern come from the view."""

from __future__ import annotations

from dataclasses import replace

import pygame

from nsdevice import texts, views
from nsdevice.displays.canvas import Canvas
from nsdevice.displays.drawing import Box, Figure
from nsdevice.displays.layouts.stack import (
    Icon,
    Item,
    fit_rows,
    gap,
    measure,
    place_rows,
    stack,
    total,
)
from nsdevice.displays.text_fit import fit_text
from nsdevice.rules.frozen import dataclass
from nsdevice.texts import Form, Line, Page, Role


@dataclass(frozen=True, slots=True)
class Style:
    """How a line of one role is drawn: palette colours by name, sizes against the body."""

    colour: str = "text"
    band: str | None = None  # a bar behind the text
    size: str = "body"  # a `Sizes` field: the line's text size
    scale: float = 1.0  # on top of `size`
    max_lines: int = 3
    padded: bool = False  # room around the text as if banded: list rows line up with the cursor


STYLES: dict[Role, Style] = {  # every role, once
    Role.ITEM: Style(),
    Role.HEADING: Style(colour="dim"),
    Role.ROW: Style(padded=True),
    Role.WARNING: Style(colour="warning"),
    Role.VALUE: Style(colour="accent", size="value"),
    Role.NOTE: Style(colour="dim"),
    Role.BUTTONS: Style(colour="dim"),
    Role.DETAIL: Style(colour="dim", scale=0.8),
    Role.FORMULA: Style(colour="accent"),
    Role.HEADLINE: Style(colour="accent_text", band="accent"),
    Role.CONTROLLER: Style(colour="accent"),
    Role.PENCIL: Style(max_lines=2),
    Role.CODE: Style(colour="accent_text", band="accent"),
    Role.PICTURE: Style(),
}
CURSOR = Style(colour="accent_text", band="accent", padded=True)  # a list's chosen row


def item(canvas: Canvas, line: Line, style: Style | None = None) -> Item:
    """`line` as an item of a stacked layout, in `style` (by default its role's)."""
    palette, sizes = canvas.theme.palette, canvas.theme.sizes
    style = style or STYLES[line.role]
    return Item(
        line.text,
        getattr(palette, style.colour),
        scale=getattr(sizes, style.size) / sizes.body * style.scale,
        band=getattr(palette, style.band) if style.band else None,
        max_lines=style.max_lines,
        role=line.role.value,
        padded=style.padded,
    )


def page(canvas: Canvas, view: views.View, text: Page, body: Box) -> None:
    sizes = canvas.theme.sizes
    if text.form is Form.CODE:
        _seed_entry(canvas, view, text.lines, body)
        return
    if text.form is Form.LIST:
        scrolling_list(canvas, text, body, canvas.px(sizes.small))
        return
    items = _items(canvas, text)
    if isinstance(view, views.PencilPassView):
        items = pencil_pass_items(view, items)
    if isinstance(view, views.PencilOrderView):
        items = _pencil_order_items(view, items)
    if isinstance(view, views.SummaryView):
        items = summary_items(view, items)
    least = canvas.px(sizes.smallest)

    def too_wide(word: str) -> bool:
        return canvas.fonts.wider(word, least, body[2] // 2)  # beside an icon, an indent

    items = [  # a word wider than its line breaks where its language breaks it
        replace(i, text=canvas.hyphens.hyphenated(i.text, view.language, too_wide)) for i in items
    ]
    if isinstance(view, views.HardwareTestView) and view.step == "pattern":
        x, y, w, h = body
        bars = round(h * 0.4)
        _colour_bars(canvas, (x, y, w, bars))
        body = (x, y + bars, w, h - bars)
    message = text.form is Form.MESSAGE
    if message:
        items = [replace(i, scale=i.scale * 1.1, max_lines=4) for i in items]
    stack(
        canvas,
        items,
        body,
        sizes.body,
        centre=message or text.form is Form.CENTRED,
        columns=text.form is Form.COLUMNS,
    )


def _items(canvas: Canvas, text: Page) -> list[Item]:
    chosen = (Role.ROW, Role.PENCIL)  # a list's cursor, the pencil on offer (C-8 solo)
    return [
        item(canvas, line, CURSOR if line.role in chosen and index in text.emphasis else None)
        for index, line in enumerate(text.lines)
    ]


def scrolling_list(canvas: Canvas, text: Page, box: Box, least: int) -> None:
    """A page of `Form.LIST`: its rows with the cursor's, its other lines kept below them,
    never smaller than `least` pixels."""
    items = _items(canvas, text)
    rows = [i for i, line in zip(items, text.lines, strict=True) if line.role is Role.ROW]
    footer = [  # kept in view below the rows, so two lines at most
        replace(i, max_lines=2)
        for i, line in zip(items, text.lines, strict=True)
        if line.role is not Role.ROW
    ]
    cursor = text.emphasis[0] if text.emphasis else 0
    _scrolling_list(canvas, rows, footer, cursor, box, least)


def _colour_bars(canvas: Canvas, box: Box) -> None:
    """The hardware check's test pattern: pure red, green, blue and white."""
    x, y, w, h = box
    colours = ((255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255))
    space = canvas.margin()
    bar = (w - space * (len(colours) - 1)) / len(colours)
    for index, colour in enumerate(colours):
        rect = pygame.Rect(round(x + index * (bar + space)), y, round(bar), h - space)
        pygame.draw.rect(canvas.surface, colour, rect)
        box = (rect.x, rect.y, rect.w, rect.h)
        canvas.figures.append(Figure(f"bar-{index}", box, "test-pattern"))


def pencil_pass_items(view: views.PencilPassView, items: list[Item]) -> list[Item]:
    """Puts each pencil's swatch beside its move (solo: beside the next pencil; a room:
    beside each table size's pencils, in order)."""
    if view.room:
        pencils = iter([p.colour for row in view.room.rows for p in row])
        return [
            replace(i, icons=(Icon("pencil", next(pencils)),)) if i.role == Role.PENCIL.value else i
            for i in items
        ]
    if view.players == 1:
        if view.solo_next and items:
            items[0] = replace(items[0], icons=(Icon("pencil", view.solo_next),))
        return items
    moves = iter(view.moves)  # one line per move, in order
    pencil = Role.PENCIL.value
    return [
        replace(i, icons=(Icon("pencil", next(moves).colour),)) if i.role == pencil else i
        for i in items
    ]


def summary_items(view: views.SummaryView, items: list[Item]) -> list[Item]:
    """Each pencil power's line with its pencil and its icon (L-PP): the table at a round's
    start draws the powers as icons alone, and the summary is where players learn them."""
    words = texts.words(view.language)
    powers = {
        words.labelled(words.colour(colour), words.power(power)): (colour, power)
        for colour, power in view.pencil_powers
    }
    shown = []
    for entry in items:
        colour, power = powers.get(entry.text.strip(), ("", ""))
        if power:
            icons = (Icon("pencil", colour, length=1.4), Icon("power", power))
            entry = replace(entry, text=entry.text.strip(), icons=icons)
        shown.append(entry)
    return shown


def _pencil_order_items(view: views.PencilOrderView, items: list[Item]) -> list[Item]:
    """Puts each laid pencil's swatch beside its round, and the offered one's last."""
    colours = iter((*view.chosen, view.offered))  # one line per round, in order
    pencil = Role.PENCIL.value
    return [
        replace(i, icons=(Icon("pencil", next(colours)),)) if i.role == pencil else i for i in items
    ]


def _scrolling_list(
    canvas: Canvas, rows: list[Item], extra: list[Item], cursor: int, box: Box, readable: int
) -> None:
    """A list with a cursor: all of it when it fits at a size from the body's down to
    `readable`, else a window at `readable` that keeps the cursor in view, with arrows
    showing there is more."""
    sizes, fonts = canvas.theme.sizes, canvas.fonts
    x, y, w, h = box
    items = rows + extra
    start = max(readable, canvas.px(sizes.body))
    fit = fit_rows(fonts, items, w, h, start, readable, guess_first=False)  # a page's lines
    if fit is not None:
        place_rows(canvas, fit[1], box, fit[0])
        return
    px = readable
    arrow = max(6, round(fonts.height(px) * 0.8))
    inner = w - arrow - canvas.margin()
    measured = measure(fonts, rows, inner, px)
    footer = measure(fonts, extra, w, px)
    cursor = min(max(cursor, 0), len(measured) - 1)
    while len(footer) > 1 and total([measured[cursor], *footer], px) + gap(px) > h:
        footer = footer[1:]  # the cursor's row first: the last line (a question) stays
    room = h - (total(footer, px) + gap(px) if footer else 0)
    first, last = cursor, cursor + 1
    grew = True
    while grew:  # grow the window below, then above, while it fits
        grew = False
        if last < len(measured) and total(measured[first : last + 1], px) <= room:
            last += 1
            grew = True
        if first > 0 and total(measured[first - 1 : last], px) <= room:
            first -= 1
            grew = True
    place_rows(canvas, measured[first:last], (x, y, inner, room), px)
    if footer:
        place_rows(canvas, footer, (x, y + h - total(footer, px), w, h), px)
    right = x + w - arrow
    if first > 0:
        _more(canvas, "more-above", (right, y, arrow, arrow), up=True)
    if last < len(measured):
        _more(canvas, "more-below", (right, y + room - arrow, arrow, arrow), up=False)


def _more(canvas: Canvas, name: str, box: Box, *, up: bool) -> None:
    """A triangle filling `box`, pointing up or down: the list goes on that way."""
    x, y, w, h = box
    tip, base = (y, y + h) if up else (y + h, y)
    points = [(x, base), (x + w, base), (x + w / 2, tip)]
    pygame.draw.polygon(canvas.surface, canvas.theme.palette.dim, points)
    canvas.figures.append(Figure(name, box, "scroll"))


def _seed_entry(canvas: Canvas, view: views.View, lines: tuple[Line, ...], body: Box) -> None:
    """The deal code, or a number being set digit by digit, as a row of boxes, the one
    being changed highlighted; the characters and the cursor come from the view, the lines
    after them from the page."""
    if isinstance(view, views.SeedEntryView):
        characters = view.characters
    else:
        assert isinstance(view, views.ScoreEntryView | views.SheetView), "no characters to box"
        characters = view.digits
    palette, sizes = canvas.theme.palette, canvas.theme.sizes
    x, y, w, h = body
    count = max(1, len(characters))
    space = max(1, round(w * 0.008))
    # the number's boxes leave room for the words under them: most on the score sheet
    tall = {views.SeedEntryView: 0.4, views.ScoreEntryView: 0.3}.get(type(view), 0.2)
    cell = min(round(h * tall), (w - (count - 1) * space) // count)
    px = max(6, round(cell * 0.7))
    row_w = count * cell + (count - 1) * space
    left = x + (w - row_w) // 2
    top = y + round(h * (0.12 if tall > 0.2 else 0.04))
    for index, char in enumerate(characters):
        rect = pygame.Rect(left + index * (cell + space), top, cell, round(cell * 1.25))
        here = index == view.cursor
        pygame.draw.rect(
            canvas.surface,
            palette.accent if here else palette.header,
            rect,
            border_radius=max(2, cell // 8),
        )
        shown = char or "·"
        colour = palette.accent_text if here else (palette.text if char else palette.dim)
        fitted = fit_text(shown, px, cell - 2, fonts=canvas.fonts, max_lines=1, min_size=6)
        canvas.fitted(
            fitted,
            colour,
            (rect.x + 1, rect.centery - fitted.height // 2, cell - 2, fitted.height),
            "code",
            centre=True,
        )
    below = top + round(cell * 1.25) + canvas.margin() * 2
    rest = [item(canvas, line) for line in lines if line.role is not Role.CODE]
    stack(canvas, rest, (x, below, w, y + h - below), sizes.body, centre=True)
