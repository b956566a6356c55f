"""The turn screen on a small panel (glass under `SMALL_GLASS_MM` tall, the 2-inch Display
HAT Mini): the whole turn on one glass. The side buttons' labels sit in the corners
(`corner_hints`), so no label column takes the width:

- the card at the right, from under the top labels down to the glass's edge, its symbol
  at least `SYMBOL_MM` tall and its kind written on it at `KIND_MM`: the kind's one word
  (the same on every surface), giving way down to `KIND_LEAST_MM` where it is wider than
  the symbol ("Untergrund"), the card widening for a word wider still, as far as its
  share of the glass and the lower corner's labels allow, and the word then drawn
  narrower, as tall (English "Underground": about 0.93 of its width);
- at the left, the underground count k/5 at `COUNT_MM` with its pips, always (on a
  switch turn the switch card stands beside the count instead of the pips, its rule is
  the first note);
- below the count, this turn's notes. What acts this turn (the paired effect, a switch's
  branch rule beside the switch card itself, a joker's rule, the last turn) is written at
  `NOTE_MM` (a language whose words are wider than the column, German, gives way, its
  long words hyphenated where the language breaks them: the special station's effect and
  a switch's rule down to `EFFECT_LEAST_MM`, the rest down to `NOTE_LEAST_MM`); what
  does nothing this turn (the round's pairing as a reminder, an effect not active yet)
  greyed, at `IDLE_MM`, smaller than what acts on its page or on a page of its own.

Only the notes take turns, and only when they do not all fit (`note_pages`): each page
stays `NOTE_SECONDS`; the card and the count never move. The title band and the round's
earlier cards are left out: the round and turn are one MENU away (the menu's title), the
earlier cards are on the table. Sizes are on the glass, in millimetres (capital heights
for text), whatever the panel's pixels.
"""

from __future__ import annotations

import dataclasses
from typing import TypeVar, cast

import pygame

from nsdevice import views
from nsdevice.displays import figures
from nsdevice.displays.canvas import Canvas
from nsdevice.displays.drawing import Box
from nsdevice.displays.layouts.stack import (
    Item,
    Row,
    fit_rows,
    gap,
    icon_width,
    measure,
    place_rows,
    total,
)
from nsdevice.displays.text_fit import FontBook, fit_text
from nsdevice.rules.frozen import dataclass
from nsdevice.texts import Words

SMALL_GLASS_MM = 40.0  # shorter glass than this gets the one-glass turn
SYMBOL_MM = 15.0  # the card's symbol, drawn pixels top to bottom
KIND_MM = 4.0  # capital height of the card's kind word
KIND_LEAST_MM = 2.5  # ... giving way for a long word, never under what reads at arm's length
KIND_NARROWEST = 0.85  # ... and a word wider still drawn this much narrower, as tall
COUNT_MM = 4.0  # capital height of the underground count
NOTE_MM = 3.0  # capital height of what acts this turn
NOTE_LEAST_MM = 1.9  # ... a joker's or the last turn's words giving way down to this
EFFECT_LEAST_MM = 2.5  # a special station's effect and a switch's rule: never under this
IDLE_MM = 2.5  # what does nothing this turn: greyed, smaller than anything that acts on
# its page (or on a page of its own), still read at arm's length
SYMBOL_FILL = 0.85  # the least share of its box a symbol's drawn pixels fill (a triangle)
CARD_SHARE = 0.55  # the most of the width the card takes: the count and notes need the rest
NOTE_SECONDS = 4.0  # how long each page of notes stays, when they take turns
NOTES_KEPT = 32  # note pages kept per painter: a game's few kinds of notes, in a language


def is_small(canvas: Canvas) -> bool:
    return canvas.glass_height_mm() < SMALL_GLASS_MM


ViewT = TypeVar("ViewT", bound=views.View)


def corner_hints(view: ViewT) -> ViewT:
    """`view` with each side button's label moved to the corner nearest that button: the
    upper half of a side to the top band, the lower half to the bottom band, the left
    side's at the band's left end and the right side's at its right end."""
    if all(hint.edge not in ("left", "right") for hint in view.hints):
        return view  # nothing to move: the view as it is, not a copy
    moved = []
    for hint in view.hints:
        if hint.edge not in ("left", "right"):
            moved.append(hint)
            continue
        upper = hint.order <= (hint.slots + 1) / 2
        # made directly: `dataclasses.replace` a hint cost more than the rest (issue 35)
        edge, order = "top" if upper else "bottom", 1 if hint.edge == "left" else 2
        moved.append(views.Hint(hint.button, hint.action, edge, order, 2, hint.key))
    return dataclasses.replace(view, hints=tuple(moved))


@dataclass(frozen=True, slots=True)
class Areas:
    """Where the turn's parts go on the glass, clear of the corner labels."""

    card: pygame.Rect
    count: Box
    notes: Box
    label: str  # the card kind's one word
    label_px: int  # the size it is written at: `KIND_MM`, or less where it is wide


def areas(canvas: Canvas, view: views.TurnView, words: Words, bands: dict[str, Box]) -> Areas:
    width, height = canvas.surface.get_size()
    margin = canvas.margin()
    card = view.cards[-1]
    top = bands["top"][1] + bands["top"][3] + margin if "top" in bands else margin
    symbol = round(canvas.mm(SYMBOL_MM) / SYMBOL_FILL)
    label = words.kind(card.kind, view.city)
    edge = 4 * max(1, round(height * 0.012))
    below = bands.get("bottom")
    # the widest the card may be: its share of the glass, clear of the lower corner's
    # labels (so it stands to the glass's foot), and never narrower than its symbol
    clear = width - 2 * margin - (below[0] + below[2] if below is not None else 0)
    widest = max(symbol + edge, min(round(width * CARD_SHARE), clear))
    # the word gives way before the card widens (the notes beside it need every pixel),
    # down to `KIND_LEAST_MM`; wider still, it is drawn narrower (`KIND_NARROWEST`)
    label_px = kind_px(canvas, label, min(symbol, widest - edge))
    card_w = min(widest, max(symbol, canvas.fonts.width(label, label_px)) + edge)
    left = width - margin - card_w
    reaches = below is not None and below[0] + below[2] + margin > left  # under the card
    card_bottom = below[1] - margin if below is not None and reaches else height - margin
    notes_bottom = below[1] - margin if below is not None else height - margin
    count_h = canvas.fonts.height(canvas.cap_px(COUNT_MM))
    room = left - 2 * margin
    rect = pygame.Rect(left, top, card_w, card_bottom - top)
    notes_top = top + count_h + 2 * margin
    return Areas(
        rect,
        (margin, top, room, count_h),
        (margin, notes_top, room, max(0, notes_bottom - notes_top)),
        label,
        label_px,
    )


def kind_px(canvas: Canvas, label: str, room: int) -> int:
    """The size of the kind's word: `KIND_MM`, or as little less as it needs to fit `room`
    (the card's width for its symbol; never under `KIND_LEAST_MM`: the card then widens,
    and past its widest the word is drawn narrower)."""
    size, least = canvas.cap_px(KIND_MM), canvas.cap_px(KIND_LEAST_MM)
    while size > least and canvas.fonts.width(label, size) > room:
        size -= 1
    return size


def small_turn(
    canvas: Canvas,
    view: views.TurnView,
    words: Words,
    bands: dict[str, Box],
    page: int,
    *,
    every_page: bool = False,
) -> tuple[int, bool]:
    """The card, the count and the `page`-th page of notes (pages turn round); returns
    how many pages the notes take, and whether that is all of them: the first page is
    drawn with the pages after it laid out only when they are shown (`note_pages`), so
    that it knows only that there are more (or, `every_page`, how many)."""
    if not view.cards:
        return 1, True
    placed = areas(canvas, view, words, bands)
    _card(canvas, view, placed)
    canvas.seams.append(placed.card.left)  # the card beside the count and notes
    _count(canvas, view, placed.count)
    groups = tuple(note_groups(canvas, view, words))
    # what the pages are made from, in words: hashing the notes' frozen classes would
    # compile their __hash__ at the first turn with notes (about 0.8 M instructions)
    made_from = (repr(groups), placed.notes, canvas.dots_per_mm, words.language)
    upto = None if every_page or page else 0
    pages, complete = note_pages(canvas, groups, words, placed.notes, made_from, upto)
    if pages:
        shown = page % len(pages)
        px, rows = pages[shown]
        canvas.once(
            ("small-turn-note-page", *made_from, shown),
            pygame.Rect(placed.notes),
            lambda: place_rows(canvas, rows, placed.notes, px),
            canvas.notes_drawn,
        )
    return max(1, len(pages) + (0 if complete else 1)), complete


def _card(canvas: Canvas, view: views.TurnView, placed: Areas) -> None:
    """The card, drawn once per face and place and then copied (it is drawn first, on
    the bare ground: a reveal's card is most of its paint)."""
    card, rect = view.cards[-1], placed.card
    symbol = round(canvas.mm(SYMBOL_MM) / SYMBOL_FILL)
    colours = canvas.theme.card_colours(view.city, card.kind.value)
    key = ("small-turn-card", card, view.city, tuple(rect), placed.label, placed.label_px,
           symbol, colours, canvas.theme.palette)  # fmt: skip
    canvas.once(
        key,
        rect,
        lambda: figures.card(
            canvas,
            card,
            view.city,
            rect,
            label=placed.label,
            role="card-symbol",
            symbol_size=symbol,
            label_size=placed.label_px,
            narrowest=KIND_NARROWEST,
        ),
    )


def _count(canvas: Canvas, view: views.TurnView, box: Box) -> None:
    """The underground count as figures, k/5 (C-4), then in the rest of the line its pips,
    or on a switch turn the switch card itself (C-5), whose rule is the first note. The
    figures and pips are drawn once per count and place, then copied (most reveals
    repeat the count of the reveal before, issue 35); a switch card is drawn each time."""
    if len(view.cards) == 2:
        _counted(canvas, view, box)
        return
    key = ("small-turn-count", view.underground_seen, view.underground_total, box,
           canvas.dots_per_mm, canvas.theme.palette,
           canvas.theme.card_colours(view.city, "underground"))  # fmt: skip
    canvas.once(key, pygame.Rect(box), lambda: _counted(canvas, view, box), canvas.counts)


def _counted(canvas: Canvas, view: views.TurnView, box: Box) -> None:
    x, y, w, h = box
    total_cards = view.underground_total
    size = canvas.cap_px(COUNT_MM)
    text = f"{view.underground_seen}/{total_cards}"
    count = fit_text(text, size, w, fonts=canvas.fonts, max_lines=1)
    canvas.fitted(count, canvas.theme.palette.text, (x, y, w, count.height), "underground")
    left = x + canvas.fonts.width(count.lines[0], count.size) + canvas.margin() * 2
    if len(view.cards) == 2:
        rect = pygame.Rect(left, y, round(h * 0.72), h)
        figures.card(canvas, view.cards[0], view.city, rect, label=None, role="switch")
        if view.switch_effect is False:
            figures.dim(canvas, rect)
        return
    pip = min(round(canvas.fonts.cap(size) * 0.8), int((x + w - left) / (total_cards * 1.3)))
    if pip >= 4:  # the figures say it all: the pips only where they still read
        middle = y + count.height / 2
        figures.pips(canvas, view.city, view.underground_seen, total_cards, left, middle,
                     pip, max(1, pip * 3 // 10))  # fmt: skip


@dataclass(frozen=True, slots=True)
class Group:
    """Notes that stay on one page, drawn at `size_mm` or as little less as they need."""

    items: tuple[Item, ...]
    size_mm: float = NOTE_MM
    least_mm: float = NOTE_LEAST_MM


def note_groups(canvas: Canvas, view: views.TurnView, words: Words) -> list[Group]:
    """This turn's notes, what acts first; what does nothing this turn last, small."""
    palette = canvas.theme.palette
    groups: list[Group] = []
    if view.last:
        last = Item(words.last_turn(), palette.accent_text, band=palette.accent, max_lines=4,
                    role="last")  # fmt: skip
        groups.append(Group((last,)))
    switch = words.switch_note(view.switch_effect) if len(view.cards) == 2 else ""
    if switch:  # C-5: its rule, under the switch card (beside the count)
        colour = palette.accent if view.switch_effect is not False else palette.warning
        rule = Item(switch, colour, max_lines=4, role="switch-note")
        groups.append(Group((rule,), least_mm=EFFECT_LEAST_MM))
    note = words.paired_note(view.paired_effect, view.paired_effect_active)
    if note and view.paired_effect_active is not False:  # T-SP-3: it acts now
        # no symbol beside it: the card's own symbol is the one that fires
        badge = palette.special_badge
        paired = Item(note, palette.accent_text, band=badge, max_lines=4, role="paired")
        groups.append(Group((paired,), least_mm=EFFECT_LEAST_MM))
    joker = words.joker_note(view)
    if joker:
        face = Item(words.face(view.cards[-1]), palette.text, role="face")
        groups.append(Group((face, Item(joker, palette.text, max_lines=4, role="joker"))))
    idle = ""
    if note and view.paired_effect_active is False:  # D-10: not yet
        idle = note
    elif not note and view.pairing is not None:  # a reminder of this round's pairing
        idle = words.pairing(view.pairing)
    if idle:
        # its symbol in words only: an icon would cost "Doppelstation" its one line
        quiet = Item(idle, palette.dim, max_lines=4, role="pairing")
        groups.append(Group((quiet,), IDLE_MM, IDLE_MM))
    return groups


# a turn's note pages as kept: the pages laid out, each its gap and rows, and the group
# the next page starts with (None: they are every page)
KeptPages = tuple[tuple[tuple[int, tuple[Row, ...]], ...], int | None]


def note_pages(
    canvas: Canvas,
    groups: tuple[Group, ...],
    words: Words,
    box: Box,
    made_from: tuple[object, ...],
    upto: int | None = None,
) -> tuple[list[tuple[int, list[Row]]], bool]:
    """The notes as pages that each fit `box`: groups in order, as many on a page as fit,
    each group at its size or as little less as it needs to stand uncut; and whether they
    are all of them. With `upto`, the pages up to that one, where the groups after it
    surely start a page of their own (`_paged`): those are laid out when shown, from the
    group the pages so far stopped at. Kept by what they are `made_from` (the groups, the
    box, the glass and the language: the painter's `notes`, at most NOTES_KEPT): a turn's
    notes met before, the round's last turn or a joker's, are not hyphenated and fitted
    again."""
    _, _, w, h = box
    if w <= 0 or h <= 0:
        return [], True
    key = ("small-turn-notes", *made_from)
    kept = cast(KeptPages | None, canvas.notes.get(key))
    pages: list[tuple[int, list[Row]]] = []
    at: int | None = 0  # the group to go on from; None: every page is laid out
    if kept is not None:
        pages, at = [(px, list(rows)) for px, rows in kept[0]], kept[1]
    if kept is None or (at is not None and (upto is None or upto >= len(pages))):
        if kept is None and len(canvas.notes) >= NOTES_KEPT:
            canvas.notes.clear()
        pages, at = _paged(canvas, groups[at or 0 :], words, box, upto, pages)
        if at is not None and kept is not None:
            at += cast(int, kept[1])  # (counted in the groups it was given)
        canvas.notes[key] = (tuple((px, tuple(rows)) for px, rows in pages), at)
    return pages, at is None


def _paged(
    canvas: Canvas,
    groups: tuple[Group, ...],
    words: Words,
    box: Box,
    upto: int | None,
    before: list[tuple[int, list[Row]]],
) -> tuple[list[tuple[int, list[Row]]], int | None]:
    """`before` (pages laid out, the first of `groups` starting the next) and the pages
    of `groups`, and None; or, with `upto`, once page `upto` is full and the next group
    is surely too tall to join it (`_least_height`), the pages so far and that group's
    index (issue 35: a switch turn's joker fitted two sizes for its second page, 1.3 M
    instructions on the Zero 2 W, while its first page was shown)."""
    _, _, w, h = box
    fonts = canvas.fonts
    gap_px = canvas.cap_px(NOTE_MM)
    pages = list(before)
    rows: list[Row] = []
    for index, group in enumerate(groups):
        start, least = canvas.cap_px(group.size_mm), canvas.cap_px(group.least_mm)
        if rows and upto is not None and len(pages) == upto:
            least_total = sum(_least_height(fonts, item, w, least, start) for item in group.items)
            least_total += gap(gap_px) * len(group.items)  # its gaps, and the one before it
            if total(rows, gap_px) + least_total > h:
                pages.append((gap_px, rows))
                return pages, index

        def too_wide(word: str, size: int = start) -> bool:
            return fonts.wider(word, size, w)

        items = []  # a word wider than the column breaks where its language breaks it
        for item in group.items:
            text = canvas.hyphens.hyphenated(item.text, words.language, too_wide)
            items.append(item if text == item.text else dataclasses.replace(item, text=text))
        fit = fit_rows(fonts, items, w, h, start, least)
        measured = fit[1] if fit is not None else measure(fonts, items, w, least)
        quiet = group.size_mm == IDLE_MM  # never as large as what acts beside it
        louder = all(r.fitted.size > m.fitted.size for r in rows for m in measured)
        if rows and (total([*rows, *measured], gap_px) > h or (quiet and not louder)):
            pages.append((gap_px, rows))
            rows = []
        rows += measured
    if rows:
        pages.append((gap_px, rows))
    return pages, None


def _least_height(fonts: FontBook, item: Item, width: int, least: int, start: int) -> int:
    """A height `item`'s row never goes under at any size from `least` to `start`, as
    `stack._row` measures it (fitted whole, or cut at `least`): one line, or two where
    even the letters' least widths (`FontBook.narrowest`) are wider than its room. Every
    measure used grows with the size; no glyph is loaded."""
    ipx = max(1, round(least * item.scale))
    pad = max(1, round(ipx * 0.16)) if item.boxed or item.icons else 0
    icons = sum(icon_width(fonts, icon, ipx) for icon in item.icons) if item.icons else 0
    room = max(1, width - icons - 2 * pad)
    top = max(1, round(max(start, least) * item.scale))  # (a start under its least: least)
    wrapped = (
        item.max_lines > 1
        and fonts.narrowest(item.text, ipx) > room
        and fonts.narrowest(item.text, top) > 0  # the bound holds up to `start`
    )
    tall = fonts.height(ipx) + (fonts.advance(ipx) if wrapped else 0)
    return tall + 2 * pad
