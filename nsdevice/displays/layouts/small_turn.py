"""The turn screen on a small panel (glass under `SMALL_GLASS_MM` tall, the 2-inch Display
HAT Mini): the card, the underground count and the notes cannot all stand at sizes read
across a table beside the label columns, so the turn is two pages that take turns on the
screen (the display flips them, `PAGE_SECONDS`):

1. the card, its symbol at least `SYMBOL_MM` tall and its kind written at `KIND_MM`;
2. the underground count k/5 at `COUNT_MM` with its pips, then the notes of this turn (the
   paired effect or its reminder at `NOTE_MM`; the last turn, a joker's rule and the switch
   as large as the rest of the page allows). Words like "Prolungamento" are a whole side
   column too wide at 3 mm, so this page draws the labels of side buttons in a band along
   the top and the bottom instead, each in the corner nearest its button
   (`corner_hints`), and the notes take the whole width between the bands.

The title band and the round's earlier cards are left out: the round and turn are one
MENU away (the menu's title), the earlier cards are on the table. Sizes are on the glass,
in millimetres (capital heights for text), whatever the panel's pixels.
"""

from __future__ import annotations

import dataclasses

import pygame

from nsdevice import views
from nsdevice.displays import figures
from nsdevice.displays.canvas import Canvas
from nsdevice.displays.drawing import Box
from nsdevice.displays.layouts.stack import Item, fit_rows, place_rows, stack
from nsdevice.displays.text_fit import fit_text
from nsdevice.texts import Words

SMALL_GLASS_MM = 40.0  # shorter glass than this gets the two-page turn
SYMBOL_MM = 15.0  # the card's symbol, drawn pixels top to bottom
KIND_MM = 4.0  # capital height of the card's kind word
COUNT_MM = 4.0  # capital height of the underground count
NOTE_MM = 3.0  # capital height of the paired-effect line and the other notes
SYMBOL_FILL = 0.85  # the least share of its box a symbol's drawn pixels fill (a triangle)
EFFECT_ROLES = ("paired", "pairing")  # the notes held at NOTE_MM whatever else is shown
GIVING_WAY = (
    1.0,
    0.9,
    0.8,
    0.7,
    0.6,
    0.5,
    0.45,
    0.4,
)  # the other notes' sizes against the effect's
PAGES = 2
PAGE_SECONDS = (5.0, 3.0)  # how long each page stays: the card longest


def is_small(canvas: Canvas) -> bool:
    return canvas.glass_height_mm() < SMALL_GLASS_MM


def corner_hints(view: views.TurnView) -> views.TurnView:
    """`view` with each side button's label moved to the corner nearest that button: the
    upper half of a side to the top band, the lower half to the bottom band, the left
    side's at the band's left end and the right side's at its right end."""
    moved = []
    for hint in view.hints:
        if hint.edge not in ("left", "right"):
            moved.append(hint)
            continue
        upper = hint.order <= (hint.slots + 1) / 2
        moved.append(
            dataclasses.replace(
                hint,
                edge="top" if upper else "bottom",
                order=1 if hint.edge == "left" else 2,
                slots=2,
            )
        )
    return dataclasses.replace(view, hints=tuple(moved))


def small_turn(canvas: Canvas, view: views.TurnView, words: Words, body: Box, page: int) -> None:
    if not view.cards:
        return
    if page % PAGES == 0:
        _card(canvas, view, words, body)
    else:
        _notes(canvas, view, words, body)


def _card(canvas: Canvas, view: views.TurnView, words: Words, body: Box) -> None:
    x, y, w, h = body
    card = view.cards[-1]
    label_px = canvas.cap_px(KIND_MM)
    edge = max(1, round(h * 0.012))
    room = w - 4 * edge
    label = words.kind(card.kind, view.city)
    if canvas.fonts.width(label, label_px) > room:  # "Underground" is 39 mm wide at 4 mm
        label = words.short_kind(card.kind, view.city)
    symbol = round(canvas.mm(SYMBOL_MM) / SYMBOL_FILL)
    card_w = min(w, max(symbol, canvas.fonts.width(label, label_px)) + 4 * edge)
    rect = pygame.Rect(x + (w - card_w) // 2, y, card_w, h)
    figures.card(
        canvas,
        card,
        view.city,
        rect,
        label=label,
        role="card-symbol",
        symbol_size=symbol,
        label_size=label_px,
    )


def _notes(canvas: Canvas, view: views.TurnView, words: Words, body: Box) -> None:
    theme = canvas.theme
    palette = theme.palette
    x, y, w, h = body
    total = view.underground_total
    size = canvas.cap_px(COUNT_MM)
    count = fit_text(f"{view.underground_seen}/{total}", size, w, fonts=canvas.fonts, max_lines=1)
    canvas.fitted(count, palette.text, (x, y, w, count.height), "underground")
    # the pips beside the count, as large as the rest of the line allows
    left = x + canvas.fonts.width(count.lines[0], count.size) + canvas.margin() * 2
    pip = max(
        4,
        min(round(canvas.fonts.cap(size) * 0.8), (x + w - left) // (total + (total - 1) // 2 + 1)),
    )
    gap = pip // 2
    middle = y + count.height / 2
    figures.pips(canvas, view.city, view.underground_seen, total, left, middle, pip, gap)
    top = y + count.height + canvas.margin() * 2
    items = _note_items(canvas, view, words)
    if not items:
        return
    box = (x, top, w, y + h - top)
    note = canvas.cap_px(NOTE_MM)
    fit = None
    for scale in GIVING_WAY:  # the other notes give way first: the paired effect keeps 3 mm
        shrunk = [
            i if i.role in EFFECT_ROLES else dataclasses.replace(i, scale=scale) for i in items
        ]
        fit = fit_rows(canvas.fonts, shrunk, w, box[3], note, note)
        if fit is not None:
            break
    if fit is None:  # more notes than the page holds at the size: smaller, as the screen allows
        stack(canvas, items, box, theme.sizes.body, centre=False)
        return
    px, rows = fit
    place_rows(canvas, rows, box, px)


def _note_items(canvas: Canvas, view: views.TurnView, words: Words) -> list[Item]:
    """The notes of this turn, in the order the big layout gives them, all at one size."""
    palette = canvas.theme.palette
    items: list[Item] = []
    if view.last:
        items.append(Item(words.last_turn(), palette.accent_text, band=palette.accent, role="last"))
    joker = words.joker_note(view)
    if joker:
        items.append(Item(words.face(view.cards[-1]), palette.text, role="face"))
        items.append(Item(joker, palette.dim, max_lines=4, role="joker"))
    note = words.paired_note(view.paired_effect, view.paired_effect_active)
    if note:
        active = view.paired_effect_active is not False
        items.append(
            Item(
                note,
                palette.accent_text if active else palette.text,
                band=palette.special_badge if active else palette.pip_empty,
                max_lines=3,
                role="paired",
            )
        )
    elif view.pairing is not None:
        items.append(Item(words.pairing(view.pairing), palette.dim, max_lines=3, role="pairing"))
    switch = words.switch_note(view.switch_effect) if len(view.cards) == 2 else ""
    if switch:
        colour = palette.warning if view.switch_effect is False else palette.accent
        items.append(Item(switch, colour, max_lines=3, role="switch-note"))
    return items
