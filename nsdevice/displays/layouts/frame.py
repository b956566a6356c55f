"""The frame round every screen: the title band at the top, the button legend at the
bottom, and the body left between them."""

from __future__ import annotations

import math

import pygame

from nsdevice import views
from nsdevice.displays.canvas import Canvas, KeptLegend
from nsdevice.displays.drawing import Box
from nsdevice.displays.text_fit import FontBook, fit_text
from nsdevice.texts import Words

LEGENDS_KEPT = 32  # legends remembered per painter: every screen's, in a language or two


def header(canvas: Canvas, title: str, view: views.View) -> Box:
    """The title band; returns the area below it, inset by the margin."""
    theme = canvas.theme
    palette, sizes = theme.palette, theme.sizes
    width, height = canvas.surface.get_size()
    margin = canvas.margin()
    px = canvas.px(sizes.title)
    pad = max(2, round(px * 0.22))
    band = canvas.fonts.height(px) + 2 * pad
    pygame.draw.rect(canvas.surface, palette.header, (0, 0, width, band))
    city = getattr(view, "city", None)
    if city in theme.cards:  # a thin stripe in the city's street colour
        stripe = max(2, round(height * 0.008))
        pygame.draw.rect(
            canvas.surface,
            theme.card_colours(city, "street")[0],
            (0, band - stripe, width, stripe),
        )
    fitted = fit_text(
        title,
        px,
        width - 2 * margin,
        fonts=canvas.fonts,
        max_lines=1,
        min_size=canvas.px(sizes.smallest),
    )
    top = (band - fitted.height) / 2
    canvas.fitted(
        fitted, palette.text, (margin, round(top), width - 2 * margin, fitted.height), "title"
    )
    return (margin, band + margin, width - 2 * margin, height - band - 2 * margin)


def kept_legend(
    canvas: Canvas, view: views.View, words: Words, top: int, *, snug: bool = False
) -> dict[str, Box]:
    """`legend`, drawn once per size, wording and place (the painter's `legends`, at most
    LEGENDS_KEPT), then copied: most presses keep the legend of the screen before (a
    reveal, a cursor step; a round's start and pencil pass on small glass drew theirs
    each time, 0.7 M instructions of the Zero 2 W, issue 35)."""
    surface = canvas.surface
    key = (surface.get_size(), surface.get_bitsize(), canvas.dots_per_mm, view.hints,
           words.language, top, snug)  # fmt: skip
    drawn = canvas.legends.get(key)
    if drawn is None:
        mark = canvas.mark()
        bands = legend(canvas, view, words, top, snug=snug)
        pictures = tuple(
            (box, surface.subsurface(box).copy()) for box in bands.values() if box[2] and box[3]
        )
        if len(canvas.legends) >= LEGENDS_KEPT:
            canvas.legends.clear()
        canvas.legends[key] = KeptLegend(bands, pictures, *canvas.noted_since(mark))
        return dict(bands)  # the caller's to add to (the small pages' corner labels)
    for box, picture in drawn.pictures:
        surface.blit(picture, box[:2])
    canvas.note(drawn.texts, drawn.figures, drawn.cut)
    return dict(drawn.bands)


def legend(
    canvas: Canvas, view: views.View, words: Words, top: int, *, snug: bool = False
) -> dict[str, Box]:
    """Each button's label drawn beside its button: a band along the bottom (or top) edge
    divided into the edge's places, a column at the left or right edge with each label at
    its button's height. `top` is where the title band ends. `snug`: a band only as wide
    as its labels (the small panel's corners), so that the card may stand beside it.
    Returns the box of each edge drawn on, for the body to keep clear of."""
    placed = view.hints
    if any(not hint.edge for hint in placed):  # a view not yet placed: the plain PC bar
        placed = views.DEFAULT_PANEL.placed(view).hints
    bands: dict[str, Box] = {}
    height = canvas.surface.get_height()
    bottom = height
    for edge in ("bottom", "top"):
        hints = [h for h in placed if h.edge == edge]
        if hints:
            at = top if edge == "top" else None
            bands[edge] = _band(canvas, hints, words, at, snug)
            if edge == "bottom":
                bottom = bands[edge][1]
            else:
                top = bands[edge][1] + bands[edge][3]
    for edge in ("left", "right"):
        hints = [h for h in placed if h.edge == edge]
        if hints:
            bands[edge] = _column(canvas, hints, words, edge, top, bottom)
    return bands


def cap_text(hint: views.Hint, words: Words) -> str:
    """What the key cap says: the keyboard key where keys are the buttons, else its name."""
    return hint.key or words.button(hint.button)


def _band(
    canvas: Canvas, hints: list[views.Hint], words: Words, at: int | None, snug: bool = False
) -> Box:
    """A band across the screen, cut into the edge's places; each label sits in its place,
    the first pushed to the left end and the last to the right end, as the buttons are."""
    palette, sizes, fonts = canvas.theme.palette, canvas.theme.sizes, canvas.fonts
    width, height = canvas.surface.get_size()
    margin = canvas.margin()
    slots = max(max(h.slots, h.order) for h in hints)
    room = width - 2 * margin
    labels = sorted(
        ((h, cap_text(h, words), words.action(h.action)) for h in hints), key=lambda x: x[0].order
    )
    gap = 2 * _cap_pad(canvas.px(sizes.legend))
    smallest = canvas.px(sizes.smallest)
    px = canvas.px(sizes.legend)

    def total(px: int) -> int:
        return sum(_label_width(fonts, c, a, px) for _, c, a in labels) + gap * (len(labels) - 1)

    while px > smallest and total(px) > room:
        px -= 1
    if total(px) > room:  # the gaps between the labels give way before a word is cut
        gap = _cap_pad(px)
    pad = _cap_pad(px)
    # in a corner (snug), a label wider than its share of the glass takes two lines
    widest = round(width * SNUG_SHARE) if snug else room
    actions = [_lines(fonts, c, a, px, widest) for _, c, a in labels]
    while snug and px > smallest and max(len(lines) for lines in actions) > 2:
        px -= 1  # a corner's label smaller rather than three lines tall over the notes
        pad = _cap_pad(px)
        actions = [_lines(fonts, c, a, px, widest) for _, c, a in labels]
    # labels still too long together: the widest of several words takes two lines, then
    # the next, before any is cut ("Menü, lang:" over "Karten" beside "Rückgängig")
    for index in sorted(range(len(labels)), key=lambda k: -fonts.width(labels[k][2], px)):
        widths = [_label_width(fonts, c, _longest(fonts, lines, px), px)
                  for (_, c, _), lines in zip(labels, actions, strict=True)]  # fmt: skip
        if sum(widths) + gap * (len(labels) - 1) <= room:
            break
        if len(actions[index]) == 1:
            actions[index] = _halves(fonts, labels[index][2], px)
    rows = max(len(lines) for lines in actions)
    band = fonts.height(px) * rows + 2 * pad + 2
    top = height - band if at is None else at
    y = top + (band - fonts.height(px) * rows) / 2
    natural = [
        _label_width(fonts, c, _longest(fonts, lines, px), px)
        for (_, c, _), lines in zip(labels, actions, strict=True)
    ]
    spare = room - sum(natural)
    if spare < 0:  # too long even at the smallest size: equal shares, labels cut
        natural = [(room - gap * (len(labels) - 1)) // len(labels)] * len(labels)
        spare = gap * (len(labels) - 1)
    starts, before = [], 0
    for (hint, _, _), width_here in zip(labels, natural, strict=True):
        # the spare room goes between the labels as the places lie: a label at place 1 is
        # flush left, the last place flush right, the middle one in between
        share = (hint.order - 1) / (slots - 1) if slots > 1 else 0.5
        starts.append(margin + before + spare * share)
        before += width_here
    for index in range(1, len(starts) - 1):  # a middle label whose key cap left its place
        hint, cap, _ = labels[index]
        home = margin + (hint.order - 1) * room / slots  # where its button's place begins
        cap_middle = (fonts.width(cap, px) + 2 * pad) / 2
        latest = starts[index + 1] - natural[index] - gap  # still clear of the next label
        moved = min(max(starts[index], home - cap_middle + 1), max(starts[index], latest))
        starts[index] = moved if moved == starts[index] else math.ceil(moved)  # whole pixels:
        # the action's room is measured between two of them, and a fraction short cuts it
    ground = (0, width)
    if snug:
        ground = (
            max(0, math.floor(starts[0]) - margin),
            min(width, math.ceil(starts[-1] + natural[-1]) + margin),
        )
    pygame.draw.rect(canvas.surface, palette.legend, (ground[0], top, ground[1] - ground[0], band))
    for (_, cap, _), lines, width_here, start in zip(labels, actions, natural, starts,
                                                    strict=True):  # fmt: skip
        left = key_cap(canvas, cap, px, pad, (start, top + 2), band - 4)
        right = start + width_here
        line_y = y + (rows - len(lines)) * fonts.height(px) / 2
        for line in lines if right - left >= 1 else ():
            fitted = fit_text(line, px, math.floor(right - left), fonts=fonts, max_lines=1)
            box = (round(left), round(line_y), math.floor(right - left), fitted.height)
            canvas.fitted(fitted, palette.text, box, "legend")
            line_y += fonts.height(px)
    return (ground[0], top, ground[1] - ground[0], band)


def _column(
    canvas: Canvas, hints: list[views.Hint], words: Words, edge: str, top: int, bottom: int
) -> Box:
    """A column down one side; each label (key cap over its action) at its button's
    height: the screen's height shared out between the edge's places."""
    palette, sizes, fonts = canvas.theme.palette, canvas.theme.sizes, canvas.fonts
    width, height = canvas.surface.get_size()
    margin = canvas.margin()
    slots = max(max(h.slots, h.order) for h in hints)
    labels = [(h, cap_text(h, words), words.action(h.action)) for h in hints]
    widest = round(width * 0.2)  # the body keeps at least three fifths of the width
    smallest = canvas.px(sizes.smallest)
    px = canvas.px(sizes.legend)

    def natural(px: int) -> int:
        pad = _cap_pad(px)
        longest = max(max(fonts.width(c, px) + 2 * pad, fonts.width(a, px)) for _, c, a in labels)
        return longest + 2 * margin

    while px > smallest and natural(px) > widest:
        px -= 1
    # a long word ("Einstellen") widens the column rather than break in two, up to a limit
    column = min(natural(px), max(widest, min(natural(px), round(width * 0.26))))
    left = 0 if edge == "left" else width - column
    pygame.draw.rect(canvas.surface, palette.legend, (left, top, column, bottom - top))
    pad = _cap_pad(px)
    cap_height = fonts.height(px) + 2 * pad
    for hint, cap, action in labels:
        fitted = fit_text(action, px, column - 2 * margin, fonts=fonts, max_lines=2)
        block = cap_height + pad + fitted.height
        centre = (hint.order - 0.5) * height / slots
        y = max(top + margin, min(centre - block / 2, bottom - margin - block))
        cap_width = min(fonts.width(cap, px) + 2 * pad, column - 2 * margin)
        # flush with the screen edge the button is on
        x = left + margin if edge == "left" else left + column - margin - cap_width
        key_cap(canvas, cap, px, pad, (x, y), cap_height)
        text_x = left + margin
        lines_width = max(fonts.width(line, fitted.size) for line in fitted.lines)
        if edge == "right":
            text_x = left + column - margin - lines_width
        box = (round(text_x), round(y + cap_height + pad), lines_width, fitted.height)
        canvas.fitted(fitted, palette.text, box, "legend")
    return (left, top, column, bottom - top)


def key_cap(
    canvas: Canvas, cap: str, px: int, pad: int, at: tuple[float, float], height: int
) -> float:
    """A button's name (or key) on a light key cap; returns where the cap ends, plus a gap."""
    palette, fonts = canvas.theme.palette, canvas.fonts
    left, top = at
    width = fonts.width(cap, px) + 2 * pad
    pygame.draw.rect(
        canvas.surface,
        palette.key_cap,
        pygame.Rect(round(left), round(top), round(width), height),
        border_radius=pad,
    )
    y = top + (height - fonts.height(px)) / 2
    canvas.text(cap, px, palette.key_text, (left + pad, y), "legend")
    return left + width + pad


def clear_of(box: Box, bands: dict[str, Box], margin: int) -> Box:
    """`box` cut so that it keeps one margin away from every band of labels."""
    x, y, w, h = box
    right, bottom = x + w, y + h
    if "bottom" in bands:
        bottom = min(bottom, bands["bottom"][1] - margin)
    if "top" in bands:
        y = max(y, bands["top"][1] + bands["top"][3] + margin)
    if "left" in bands:
        x = max(x, bands["left"][0] + bands["left"][2] + margin)
    if "right" in bands:
        right = min(right, bands["right"][0] - margin)
    return (x, y, max(0, right - x), max(0, bottom - y))


SNUG_SHARE = 0.47  # the most of the glass's width a corner label takes on one line


def _lines(fonts: FontBook, cap: str, action: str, px: int, widest: int) -> list[str]:
    """The action on one line, or on more (three at most) when its label would be wider
    than `widest` (a corner's label beside a 2-inch turn's card: "Menu," over "hold:
    cards")."""
    if _label_width(fonts, cap, action, px) <= widest or " " not in action:
        return [action]
    room = widest - _label_width(fonts, cap, "", px)
    return list(fit_text(action, px, max(1, room), fonts=fonts, max_lines=3, min_size=px).lines)


def _longest(fonts: FontBook, lines: list[str], px: int) -> str:
    return max(lines, key=lambda line: fonts.width(line, px))


def _halves(fonts: FontBook, action: str, px: int) -> list[str]:
    """`action` on two lines as even as its words allow (one word stays one line)."""
    parts = action.split(" ")
    if len(parts) < 2:
        return [action]
    cut = min(range(1, len(parts)), key=lambda k: max(
        fonts.width(" ".join(parts[:k]), px), fonts.width(" ".join(parts[k:]), px)))  # fmt: skip
    return [" ".join(parts[:cut]), " ".join(parts[cut:])]


def _cap_pad(px: int) -> int:
    """Room around a button name on its key cap."""
    return max(2, round(px * 0.3))


def _label_width(fonts: FontBook, cap: str, action: str, px: int) -> int:
    pad = _cap_pad(px)
    return fonts.width(cap, px) + 3 * pad + fonts.width(action, px)
