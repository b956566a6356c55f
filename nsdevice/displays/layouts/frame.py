"""The frame round every screen: the title band at the top, the button legend at the
bottom, and the body left between them."""

from __future__ import annotations

import math

import pygame

from nsdevice import views
from nsdevice.displays.canvas import Canvas
from nsdevice.displays.drawing import Box
from nsdevice.displays.text_fit import FontBook, fit_text
from nsdevice.texts import Words

Group = tuple[str, list[str]]  # an action and the names of the buttons that do it


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


def legend(canvas: Canvas, view: views.View, words: Words) -> Box | None:
    """The button hints at the bottom, spread across the width; buttons that do the
    same thing share one label ("NEXT BACK Change")."""
    if not view.hints:
        return None
    palette, sizes, fonts = canvas.theme.palette, canvas.theme.sizes, canvas.fonts
    width, height = canvas.surface.get_size()
    margin = canvas.margin()
    groups: list[Group] = []
    for hint in view.hints:
        for action, buttons in groups:
            if action == words.action(hint.action):
                buttons.append(words.button(hint.button))
                break
        else:
            groups.append((words.action(hint.action), [words.button(hint.button)]))
    room = width - 2 * margin
    smallest = canvas.px(sizes.smallest)
    px = canvas.px(sizes.legend)
    while px > smallest and _legend_width(fonts, groups, px) > room:
        px -= 1
    pad = _cap_pad(px)
    band = fonts.height(px) + 2 * pad + 2
    top = height - band
    pygame.draw.rect(canvas.surface, palette.legend, (0, top, width, band))
    natural = [_group_width(fonts, group, px) for group in groups]
    spare = room - sum(natural)
    if spare >= 0:  # spread out: first group at the left edge, last at the right
        space = spare / (len(groups) - 1) if len(groups) > 1 else 0.0
        shares: list[float] = [float(n) for n in natural]
    else:  # too long even at the smallest size: equal shares, labels cut
        space = 2 * pad
        shares = [(room - space * (len(groups) - 1)) / len(groups)] * len(groups)
    x = float(margin)
    y = top + (band - fonts.height(px)) / 2
    for (action, caps), share in zip(groups, shares, strict=True):
        right = x + share
        left = x
        for label in caps:
            cap = fonts.width(label, px) + 2 * pad
            if left + cap > right:
                break
            pygame.draw.rect(
                canvas.surface,
                palette.key_cap,
                pygame.Rect(round(left), top + 2, round(cap), band - 4),
                border_radius=pad,
            )
            canvas.text(label, px, palette.key_text, (left + pad, y), "legend")
            left += cap + pad
        if right - left >= 1:
            fitted = fit_text(action, px, math.floor(right - left), fonts=fonts, max_lines=1)
            box = (round(left), round(y), math.floor(right - left), fitted.height)
            canvas.fitted(fitted, palette.text, box, "legend")
        x = right + space
    return (0, top, width, band)


def shrink(box: Box, bottom: int, margin: int) -> Box:
    """`box` cut so that it ends one margin above `bottom` (the top of the legend)."""
    x, y, w, h = box
    return (x, y, w, max(0, min(h, bottom - margin - y)))


def _cap_pad(px: int) -> int:
    """Room around a button name on its key cap."""
    return max(2, round(px * 0.3))


def _group_width(fonts: FontBook, group: Group, px: int) -> int:
    action, caps = group
    pad = _cap_pad(px)
    return sum(fonts.width(c, px) + 3 * pad for c in caps) + fonts.width(action, px)


def _legend_width(fonts: FontBook, groups: list[Group], px: int) -> int:
    separation = 2 * _cap_pad(px) * (len(groups) - 1)
    return sum(_group_width(fonts, g, px) for g in groups) + separation
