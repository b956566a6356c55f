"""Every screen but the turn and the round start: a title, lines of text from
`Words.page` and a legend, with a few touches per screen on top: a list with a cursor,
centred messages, the deal code as boxes, the hardware check's test pattern."""

from __future__ import annotations

from dataclasses import replace

import pygame

from nsdevice import views
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

# screens with a sentence or two to read: larger text, centred
MESSAGE_SCREENS = frozenset(
    {"confirm", "notice", "shutdown", "game_end", "about", "round_end", "result", "hwtest"}
)


def page(
    canvas: Canvas,
    view: views.View,
    lines: tuple[str, ...],
    emphasis: tuple[int, ...],
    body: Box,
) -> None:
    palette, sizes = canvas.theme.palette, canvas.theme.sizes
    if isinstance(view, views.SeedEntryView):
        _seed_entry(canvas, view, lines, body)
        return
    listed = isinstance(view, views.SetupView | views.MenuView)
    items: list[Item] = []
    for index, line in enumerate(lines):
        colour, band = palette.text, None
        if index in emphasis:
            colour, band = palette.accent_text, palette.accent
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if view.screen == "summary" and following.startswith(" "):
            colour = palette.dim  # a heading over its indented items
        items.append(Item(line, colour, band=band, padded=listed))
    if isinstance(view, views.SetupView | views.MenuView):
        rows = len(view.rows)  # lines after the rows are warnings, kept in view
        extra = [Item(i.text, palette.warning, max_lines=2, role="warning") for i in items[rows:]]
        _scrolling_list(canvas, items[:rows], extra, view.cursor, body)
        return
    if isinstance(view, views.ScoreEntryView) and items:
        items[0] = Item(lines[0], palette.accent, scale=sizes.value / sizes.body, role="value")
        items[1:] = [replace(i, colour=palette.dim) for i in items[1:]]
    if isinstance(view, views.ResultView) and not view.solo and items:
        items[0] = replace(items[0], colour=palette.accent_text, band=palette.accent)
    if isinstance(view, views.SummaryView) and view.mix_warning:  # X-4, said last
        items[-1] = replace(items[-1], colour=palette.warning)
    if isinstance(view, views.RoundEndView) and items:  # the formula to score with
        items[-1] = replace(items[-1], colour=palette.accent)
    if isinstance(view, views.NoticeView):  # the detail is for whoever fixes the box
        items[1:] = [replace(i, colour=palette.dim, scale=0.8) for i in items[1:]]
    if isinstance(view, views.PencilPassView):
        items = _pencil_pass_items(canvas, view, items)
    if isinstance(view, views.HardwareTestView) and view.step == "pattern":
        x, y, w, h = body
        bars = round(h * 0.4)
        _colour_bars(canvas, (x, y, w, bars))
        body = (x, y + bars, w, h - bars)
    message = view.screen in MESSAGE_SCREENS
    if message:
        items = [replace(i, scale=i.scale * 1.1, max_lines=4) for i in items]
    stack(
        canvas,
        items,
        body,
        sizes.body,
        centre=message or isinstance(view, views.ScoreEntryView),
        columns=view.screen == "summary",
    )


def _colour_bars(canvas: Canvas, box: Box) -> None:
    """The hardware check's test pattern: pure red, green, blue and white."""
    x, y, w, h = box
    colours = ((255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255))
    space = canvas.margin()
    bar = (w - space * (len(colours) - 1)) / len(colours)
    for index, colour in enumerate(colours):
        rect = pygame.Rect(round(x + index * (bar + space)), y, round(bar), h - space)
        pygame.draw.rect(canvas.surface, colour, rect)
        canvas.figures.append(Figure(f"bar-{index}", tuple(rect), "test-pattern"))


def _pencil_pass_items(canvas: Canvas, view: views.PencilPassView, items: list[Item]) -> list[Item]:
    """Puts each pencil's swatch beside its move; the lines come from `Words.page`:
    an introduction, one line per move, then who turns the cards next."""
    palette = canvas.theme.palette
    if view.players == 1:
        if view.solo_next and items:
            items[0] = replace(items[0], icons=(Icon("pencil", view.solo_next),))
        return items
    moves = len(view.moves)
    result = [replace(items[0], colour=palette.dim)]
    result += [
        replace(item, icons=(Icon("pencil", move.colour),), max_lines=2)
        for move, item in zip(view.moves, items[1 : 1 + moves], strict=True)
    ]
    result += [replace(item, colour=palette.accent) for item in items[1 + moves :]]
    return result


def _scrolling_list(
    canvas: Canvas, rows: list[Item], extra: list[Item], cursor: int, box: Box
) -> None:
    """A list with a cursor: all of it when it fits at a readable size, else a window
    that keeps the cursor in view, with arrows showing there is more."""
    sizes, fonts = canvas.theme.sizes, canvas.fonts
    x, y, w, h = box
    items = rows + extra
    readable = canvas.px(sizes.small)
    fit = fit_rows(fonts, items, w, h, canvas.px(sizes.body), readable)
    if fit is not None:
        place_rows(canvas, fit[1], box, fit[0])
        return
    px = readable
    arrow = max(6, round(fonts.height(px) * 0.8))
    inner = w - arrow - canvas.margin()
    measured = measure(fonts, rows, inner, px)
    footer = measure(fonts, extra, w, px)
    room = h - (total(footer, px) + gap(px) if footer else 0)
    cursor = min(max(cursor, 0), len(measured) - 1)
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


def _seed_entry(
    canvas: Canvas, view: views.SeedEntryView, lines: tuple[str, ...], body: Box
) -> None:
    """The deal code as a row of boxes, the one being changed highlighted."""
    palette, sizes = canvas.theme.palette, canvas.theme.sizes
    x, y, w, h = body
    count = max(1, len(view.characters))
    space = max(1, round(w * 0.008))
    cell = min(round(h * 0.4), (w - (count - 1) * space) // count)
    px = max(6, round(cell * 0.7))
    row_w = count * cell + (count - 1) * space
    left = x + (w - row_w) // 2
    top = y + round(h * 0.12)
    for index, char in enumerate(view.characters):
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
    rest = [Item(line, palette.dim) for line in lines[1:]]
    stack(canvas, rest, (x, below, w, y + h - below), sizes.body, centre=True)
