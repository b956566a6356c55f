"""The turn on big glass (the 7-inch build, a TV): everything the table has face up, large.

The card (and the switch with it) as tall as the row below allows, the count and this
turn's notes beside it, and the game's module cards at a glance down the right side
(C-11, P-CG-1, L-PP; the special-stations pairing is among the notes). Below the card,
one row of cards: the round's earlier cards on the left (C-3) and, at the right, what is
still in the deck, underground first (C-2, the tracker Board Game Arena shows).
Earlier cards and the deck always add up to the 11 cards less this turn's, so the row
never needs more than ten places: its cards stay at least `ROW_CARD_MM` tall on 7 inches.
"""

from __future__ import annotations

from dataclasses import replace

import pygame

from nsdevice import views
from nsdevice.displays import figures
from nsdevice.displays.canvas import Canvas
from nsdevice.displays.drawing import Box, Figure
from nsdevice.displays.layouts.small_turn import NOTE_MM
from nsdevice.displays.layouts.stack import Icon, Item, fit_rows, place_rows, stack
from nsdevice.displays.layouts.turn import notes, switch_card, turn_card
from nsdevice.displays.text_fit import fit_text
from nsdevice.rules.cards import StationCard
from nsdevice.texts import Words

WIDE_PIXELS = (760, 440)  # at least this many pixels across and down: the wide turn
ROW_SHARE = 0.19  # of the body's height, for the row of earlier cards and the deck
ROW_CARD_MM = 12.0  # the least height of a card in that row, where the glass allows
CARD_SHAPE = 0.74  # a small card's width against its height
MODULE_SHARE = 0.28  # of the width, for the module cards when the game has any
SYMBOL_SHARE = 0.475  # of the screen's height: a triangle's drawn pixels then stand 40 %
NOTES_SHARE = 0.24  # of the width, at least, for the count and the notes beside the card
SYMBOL_MM = 100.0  # on a TV: the card's symbol, read from 4 m; never more than fits
SYMBOL_FILL = 0.85  # the least share of its box a symbol's drawn pixels fill (a triangle)


BROKEN_SHARE = 0.8  # the module cards' words, hyphenated, may go this much smaller still


def is_wide(canvas: Canvas) -> bool:
    width, height = canvas.surface.get_size()
    return width >= WIDE_PIXELS[0] and height >= WIDE_PIXELS[1]


def wide_turn(canvas: Canvas, view: views.TurnView, words: Words, body: Box) -> None:
    if not view.cards:
        return
    theme = canvas.theme
    margin = canvas.margin()
    x, y, w, h = body
    row = max(round(h * ROW_SHARE), canvas.mm(ROW_CARD_MM))
    card_h = h - row - margin
    modules = _module_items(canvas, view, words)
    height = canvas.surface.get_height()
    # the symbol: SYMBOL_SHARE of the screen's height (issue 3), and on a TV at least
    # SYMBOL_MM, read from across the room; never more than the card holds
    symbol, across_room = round(height * SYMBOL_SHARE), round(canvas.mm(SYMBOL_MM) / SYMBOL_FILL)
    if across_room < card_h * 0.8:  # glass big enough to be read from across a room
        symbol = max(symbol, across_room)
    # the card as tall as the space above the row and as wide as its symbol needs; then
    # the switch beside it (C-5), the module cards down the right side, the notes between
    card_w = max(round(card_h * 0.78), min(symbol, card_h) + 2 * margin)
    switch = len(view.cards) == 2
    small_w = 0
    if switch:  # half the card, or as wide as the longest word written under it
        note = words.switch_note(view.switch_effect).split()
        smallest = canvas.px(theme.sizes.smallest)
        word = max((canvas.fonts.width(part, smallest) for part in note), default=0)
        small_w = max(round(card_w * 0.42), word + 2 * margin) + margin
    notes_w = round(w * NOTES_SHARE)  # the notes keep their share; the modules take the rest
    spare = w - small_w - card_w - notes_w - 2 * margin
    column = max(round(w * 0.15), min(round(w * MODULE_SHARE), spare)) if modules else 0
    card_w = max(1, min(card_w, w - column - notes_w - small_w - 2 * margin))
    left = x
    if switch:
        small = pygame.Rect(left, y, small_w - margin, round(card_h * 0.5))
        switch_card(canvas, view, words, small, y + card_h)
        left = small.right + margin
    big = pygame.Rect(left, y, card_w, card_h)
    turn_card(canvas, view, words, big, symbol, label_share=0.09)
    right = x + w
    if modules:  # down the whole right side: every module at once is a dozen lines
        right -= column + margin
        _modules(canvas, modules, (right + margin, y, column, h), words.language)
    beside = (big.right + margin, y, right - big.right - margin, card_h)
    # the special station's line kept at the size the table reads (issue 10)
    effect = canvas.cap_px(NOTE_MM)
    notes(canvas, view, words, _deck_heading(canvas, view, words, beside), effect_px=effect)
    _row(canvas, view, (x, y + card_h + margin, right - x, row))


def _deck_heading(canvas: Canvas, view: views.TurnView, words: Words, box: Box) -> Box:
    """The deck's heading at the foot of the notes' column, flush right over the deck's
    cards (beside the card, not over it: the symbol keeps its height); returns the rest
    of the column for the notes."""
    x, y, w, h = box
    if not view.remaining or w <= 0:
        return box
    sizes = canvas.theme.sizes
    label = fit_text(
        words.deck_heading(), canvas.px(sizes.small), w, fonts=canvas.fonts, max_lines=2,
        min_size=canvas.px(sizes.smallest),
    )  # fmt: skip
    width = label.width
    top = y + h - label.height
    place = (x + w - width, top, width, label.height)
    canvas.fitted(label, canvas.theme.palette.dim, place, "deck")
    return (x, y, w, max(0, top - canvas.margin() // 2 - y))


def _module_items(canvas: Canvas, view: views.TurnView, words: Words) -> list[Item]:
    """The game's module cards as short lines under each module's name."""
    palette = canvas.theme.palette
    items: list[Item] = []

    def heading(module: str) -> None:
        items.append(Item(words.module(module), palette.dim, scale=0.8, role="module"))

    cards = view.module_cards
    if cards.objectives:
        heading("objectives")
        for name in cards.objectives:
            objective = words.objective(view.city, name)
            items.append(Item(objective, palette.text, max_lines=2, role="module"))
    if cards.city_gates:
        heading("city_gates")
        for corner, bonus in cards.city_gates:  # the corner drawn: its name is long
            place = (Icon("corner", corner),)
            bonus_name = words.bonus(bonus)
            items.append(Item(bonus_name, palette.text, icons=place, max_lines=2, role="module"))
    if cards.pencil_powers:
        heading("pencil_powers")
        for colour, power in cards.pencil_powers:
            pencil = (Icon("pencil", colour),)
            power_name = words.power(power)
            items.append(Item(power_name, palette.text, icons=pencil, max_lines=1, role="module"))
    return items


def _modules(canvas: Canvas, items: list[Item], box: Box, language: str) -> None:
    """The module cards, with each module's name over its cards where the column holds
    them all (every module at once, X-4: the names give way, the cards stay)."""
    x, y, w, h = box
    sizes = canvas.theme.sizes
    pygame.draw.line(
        canvas.surface, canvas.theme.palette.pip_empty, (x - canvas.margin() // 2, y),
        (x - canvas.margin() // 2, y + h), max(1, canvas.mm(0.4)),
    )  # fmt: skip
    fonts = canvas.fonts
    start, floor = canvas.px(sizes.body * 0.85), canvas.px(sizes.small)
    bare = [item for item in items if item.scale == 1.0]  # the cards without the headings
    # every module at once: a little under the screen's smallest text rather than a card
    # cut, its long words broken where the language breaks them (a switch beside every
    # module, in German)
    least = round(canvas.px(sizes.smallest) * 0.85)
    for shown, top, bottom in ((items, start, floor), (bare, start, floor), (bare, floor, least)):
        fit = fit_rows(fonts, shown, w, h, top, bottom)
        if fit is not None:
            place_rows(canvas, fit[1], box, fit[0])
            return
    broken = [replace(i, text=canvas.hyphens.hyphenated(i.text, language), max_lines=3)
              for i in bare]  # fmt: skip
    fit = fit_rows(fonts, broken, w, h, floor, round(least * BROKEN_SHARE))
    if fit is not None:
        place_rows(canvas, fit[1], box, fit[0])
        return
    # still too narrow (a switch beside every module, in German): one line each, cut
    stack(canvas, [replace(item, max_lines=1) for item in bare], box, sizes.body * 0.85)


def _row(canvas: Canvas, view: views.TurnView, box: Box) -> None:
    """Earlier cards from the left, the deck flush right; all at one size."""
    palette = canvas.theme.palette
    x, y, w, h = box
    top, card_h = y, h
    gap = max(2, round(card_h * 0.08))
    earlier = [(card, turn) for turn in view.earlier for card in turn.cards]
    deck = list(view.remaining)
    kinds = len({card.kind for card in deck})
    places = len(earlier) + len(deck)
    spaces = places + len(view.earlier) + max(0, kinds - 1) + 3  # the group gaps count double
    card_w = round(card_h * CARD_SHAPE)
    if places * card_w + spaces * gap > w:  # more cards than the width: narrower, not shorter
        card_w = max(4, (w - spaces * gap) // max(1, places))
    left = x
    for index, (card, turn) in enumerate(earlier):
        rect = pygame.Rect(left, top, card_w, card_h)
        _small_card(canvas, card, view.city, rect, "strip")
        if card.switch and turn.switch_effect is False:
            figures.dim(canvas, rect)
        last_of_turn = index + 1 == len(earlier) or earlier[index + 1][1] is not turn
        left += card_w + gap // 2
        if last_of_turn:
            if turn.paired_effect:  # the special station fired on this turn
                dot = max(3, card_w // 4)
                centre = (left - gap // 2 - dot / 2, top + dot / 2)
                pygame.draw.circle(canvas.surface, palette.special_badge, centre, dot / 2)
            left += gap
    # the deck, flush right, one gap between underground and street
    if not deck:  # the round's last card is out: nothing to track
        return
    width = len(deck) * card_w + (len(deck) - 1) * gap + (kinds - 1) * gap
    start = x + w - width
    rule = start - gap - max(1, canvas.mm(0.4))
    thin = max(1, canvas.mm(0.4))
    pygame.draw.line(canvas.surface, palette.pip_empty, (rule, top), (rule, top + card_h), thin)
    for index, card in enumerate(deck):
        if index and card.kind is not deck[index - 1].kind:
            start += gap
        _small_card(canvas, card, view.city, pygame.Rect(start, top, card_w, card_h), "deck")
        start += card_w + gap


def _small_card(canvas: Canvas, card: StationCard, city: str, rect: pygame.Rect, role: str) -> None:
    figures.card(canvas, card, city, rect, label=None, role=role)
    box = (rect.x, rect.y, rect.width, rect.height)
    canvas.figures.append(Figure(card.id, box, f"{role}-card"))
