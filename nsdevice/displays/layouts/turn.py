"""The turn screen: the card players draw from, big; what else matters this turn beside
it; the round's earlier cards as a strip along the bottom (C-3)."""

from __future__ import annotations

import math
from dataclasses import replace

import pygame

from nsdevice import views
from nsdevice.displays import figures
from nsdevice.displays.canvas import Canvas
from nsdevice.displays.drawing import Box
from nsdevice.displays.layouts.small_turn import KIND_MM
from nsdevice.displays.layouts.stack import Icon, Item, fit_rows, place_rows, stack
from nsdevice.displays.text_fit import fit_text
from nsdevice.texts import Words

EFFECT_ROLES = ("paired", "pairing")  # the special station's line: kept at its size
GIVING_WAY = (1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.45, 0.4)  # the other notes, against it


def turn(canvas: Canvas, view: views.TurnView, words: Words, body: Box) -> None:
    theme = canvas.theme
    sizes = theme.sizes
    height = canvas.surface.get_height()
    margin = canvas.margin()
    x, y, w, h = body
    strip = round(height * 0.115)
    card_h = h - strip - margin
    symbol = theme.px(sizes.card_symbol, height)
    switch = 0.6 if len(view.cards) == 2 else 0.0  # the switch card's scale, if any
    # as wide as the symbol needs, but leaving the notes a third of the width
    # (narrow screens: the cards give way and the symbol shrinks)
    room = w - round(w * 0.3) - margin - (margin if switch else 0)
    card_w = min(max(round(card_h * 0.78), symbol + 2 * margin), math.floor(room / (1 + switch)))
    left = x
    if not view.cards or card_h <= 0 or card_w <= 0:
        return
    if switch:  # C-5: the switch, smaller, then the card played with it
        small = pygame.Rect(left, y, round(card_w * switch), round(card_h * switch))
        switch_card(canvas, view, words, small, y + card_h)
        left = small.right + margin
    big = pygame.Rect(left, y, card_w, card_h)
    turn_card(canvas, view, words, big, symbol, label_share=0.1)
    beside = (big.right + margin, y, x + w - big.right - margin, card_h)
    notes(canvas, view, words, beside)
    _earlier(canvas, view, (x, y + card_h + margin, w, strip))


def switch_card(
    canvas: Canvas, view: views.TurnView, words: Words, small: pygame.Rect, bottom: int
) -> None:
    """The switch, smaller, with what it allows this turn written under it (C-5)."""
    palette, sizes = canvas.theme.palette, canvas.theme.sizes
    margin = canvas.margin()
    figures.card(canvas, view.cards[0], view.city, small, label=None, role="switch")
    if view.switch_effect is False:
        figures.dim(canvas, small)
    note = words.switch_note(view.switch_effect)
    if note:
        colour = palette.warning if view.switch_effect is False else palette.accent
        top = small.bottom + margin // 2
        note_box = (small.x, top, small.width, bottom - top)
        smallest = canvas.px(sizes.smallest)
        fitted = fit_text(
            note,
            canvas.px(sizes.small),
            small.width,
            fonts=canvas.fonts,
            max_lines=max(1, note_box[3] // canvas.fonts.advance(smallest)),
            min_size=smallest,
        )
        canvas.fitted(fitted, colour, note_box, "switch-note", centre=True)


def notes(
    canvas: Canvas, view: views.TurnView, words: Words, box: Box, effect_px: int = 0
) -> None:
    """Beside the card: the underground count, then the notes that apply this turn;
    `effect_px`: the least size of the special station's line, where one is kept."""
    theme = canvas.theme
    palette, sizes = theme.palette, theme.sizes
    height = canvas.surface.get_height()
    x, y, w, h = box
    if w <= 0:
        return
    # underground count first: it tells how close the round's end is (C-4)
    total = view.underground_total
    pip = min(theme.px(0.07, height), w // (total + 1))
    gap = (min(w, pip * (total + 3)) - total * pip) // max(1, total - 1)
    size = canvas.px(sizes.body * 1.1)
    count = fit_text(
        words.underground(view.underground_seen, view.underground_total, view.city),
        size,
        w,
        fonts=canvas.fonts,
        max_lines=2,
        min_size=canvas.px(sizes.smallest),
    )
    if count.size < size or len(count.lines) > 1:  # a narrow column: the count alone, big
        # (the pips below and the card's colours say what is counted)
        short = f"{view.underground_seen}/{view.underground_total}"
        count = fit_text(short, size, w, fonts=canvas.fonts, max_lines=1)
    canvas.fitted(count, palette.text, (x, y, w, count.height), "underground")
    pips_y = y + count.height + max(2, pip // 4)
    figures.pips(canvas, view.city, view.underground_seen, total, x, pips_y + pip / 2, pip, gap)
    top = round(pips_y + pip + max(3, pip // 2))
    items: list[Item] = []
    if view.last:
        items.append(Item(words.last_turn(), palette.accent_text, band=palette.accent, role="last"))
    card = view.cards[-1]
    joker = words.joker_note(view)
    if joker:  # a joker or free entry: its name, then what it allows here
        items.append(Item(words.face(card), palette.text, role="face"))
        items.append(Item(joker, palette.dim, scale=0.85, role="joker"))
    note = words.paired_note(view.paired_effect, view.paired_effect_active)
    if note:
        active = view.paired_effect_active is not False
        items.append(
            Item(
                note,
                palette.accent_text if active else palette.text,
                band=palette.special_badge if active else palette.pip_empty,
                icons=(Icon("symbol", view.pairing.symbol),) if view.pairing else (),
                max_lines=3,  # a third line rather than under 3 mm on the glass
                role="paired",
            )
        )
    elif view.pairing is not None:  # a reminder of which symbol fires this round (T-SP-3)
        items.append(
            Item(
                words.pairing(view.pairing),
                palette.dim,
                scale=0.85,
                icons=(Icon("symbol", view.pairing.symbol),),
                max_lines=3,  # a third line rather than under 3 mm on the glass
                role="pairing",
            )
        )
    box = (x, top, w, y + h - top)
    if items and effect_px and _effect_kept(canvas, items, box, effect_px):
        return
    if items:
        stack(canvas, items, box, sizes.body, centre=False)


def _effect_kept(canvas: Canvas, items: list[Item], box: Box, effect_px: int) -> bool:
    """Draws the notes with the special station's line at `effect_px` or more, the other
    notes giving way first (as on the 2-inch panel); False when no size allows it."""
    start = canvas.px(canvas.theme.sizes.body)
    for scale in GIVING_WAY:
        shrunk = [  # the effect at the base size, the rest at `scale` of their own
            replace(item, scale=1.0 if item.role in EFFECT_ROLES else item.scale * scale)
            for item in items
        ]
        fit = fit_rows(canvas.fonts, shrunk, box[2], box[3], start, effect_px)
        if fit is not None:
            place_rows(canvas, fit[1], box, fit[0])
            return True
    return False


def _earlier(canvas: Canvas, view: views.TurnView, box: Box) -> None:
    """The round's earlier turns, oldest first, as small cards."""
    x, y, w, h = box
    if not view.earlier or h <= 4:
        return
    card_w = round(h * 0.74)
    gap = max(2, round(h * 0.12))
    count = sum(len(t.cards) for t in view.earlier)
    needed = count * card_w + (count - 1) * gap + len(view.earlier) * gap
    if needed > w:  # a very narrow screen: shrink the cards rather than spill over
        card_w = max(4, round(card_w * w / needed))
        gap = max(1, round(gap * w / needed))
    left = x
    palette = canvas.theme.palette
    for earlier in view.earlier:
        for card in earlier.cards:
            rect = pygame.Rect(left, y, card_w, h)
            figures.card(canvas, card, view.city, rect, label=None, role="strip")
            if card.switch and earlier.switch_effect is False:
                figures.dim(canvas, rect)
            left += card_w + max(1, gap // 3)
        if earlier.paired_effect:  # the special station fired on this turn
            dot = max(3, card_w // 4)
            pygame.draw.circle(
                canvas.surface,
                palette.special_badge,
                (left - gap // 3 - dot / 2, y + dot / 2),
                dot / 2,
            )
        left += gap - max(1, gap // 3)


def turn_card(
    canvas: Canvas,
    view: views.TurnView,
    words: Words,
    big: pygame.Rect,
    symbol: int | None,
    *,
    label_share: float,
) -> None:
    """The turn's card, large, with its kind written on it: the narrow and the wide turn."""
    card = view.cards[-1]
    figures.card(
        canvas,
        card,
        view.city,
        big,
        label=words.kind(card.kind, view.city),
        role="card-symbol",
        symbol_size=symbol,
        # never under 4 mm capitals: the kind is read across the table (issue 10)
        label_size=max(round(big.height * label_share), canvas.cap_px(KIND_MM)),
    )
