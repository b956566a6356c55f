"""Items one below the other, at the largest size that fits a box.

An item is a line of text with an optional band behind it and icons (pencil swatches,
symbols) before it. Sizes go down until every item fits uncut; a summary may use two
columns instead; when nothing fits, what fits at the smallest size is drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar, cast

import pygame

from nsdevice.displays import figures
from nsdevice.displays.canvas import Canvas
from nsdevice.displays.drawing import Box
from nsdevice.displays.text_fit import Fitted, FontBook, fit_text, fit_whole
from nsdevice.displays.theme import Colour
from nsdevice.rules.frozen import dataclass


@dataclass(frozen=True, slots=True)
class Icon:
    kind: str  # "pencil", "symbol", "power", "corner" or "blank" (keeps columns aligned)
    name: str = ""  # a pencil colour, a symbol or power's name, a map corner ("nw", … P-CG-1)
    length: float = 2.4  # a pencil's length, in lines of its text


@dataclass(frozen=True, slots=True)
class Item:
    """One entry of a stacked layout: a line of text with an optional band and icons."""

    text: str
    colour: Colour
    scale: float = 1.0
    band: Colour | None = None  # a bar behind the text: the list cursor, badges
    icons: tuple[Icon, ...] = ()
    max_lines: int = 3
    role: str = "line"
    padded: bool = False  # room around the text as if banded: list rows line up with the cursor

    @property
    def boxed(self) -> bool:
        return self.band is not None or self.padded


@dataclass(frozen=True, slots=True)
class Row:
    """An item measured at one size: its fitted text and the height it takes."""

    item: Item
    fitted: Fitted
    height: int
    pad: int


# --- measuring ---------------------------------------------------------------------------
def icon_width(fonts: FontBook, icon: Icon, px: int) -> int:
    height = fonts.height(px)
    return round(height * (icon.length if icon.kind == "pencil" else 1.15)) + round(height * 0.35)


def measure(fonts: FontBook, items: Sequence[Item], width: int, px: int) -> list[Row]:
    rows = []
    for item in items:
        row = _row(fonts, item, width, px, fit_text)
        assert row is not None  # fit_text always fits, cutting where it must
        rows.append(row)
    return rows


def _row(fonts: FontBook, item: Item, width: int, px: int, fit: Fit) -> Row | None:
    """`item` at `px`, fitted by `fit` (None when `fit_whole` finds it would be cut)."""
    ipx = max(1, round(px * item.scale))
    pad = max(1, round(ipx * 0.16)) if item.boxed or item.icons else 0
    icons = sum(icon_width(fonts, icon, ipx) for icon in item.icons) if item.icons else 0
    inner = width - icons - 2 * pad
    fitted = fit(item.text, ipx, max(1, inner), fonts=fonts, max_lines=item.max_lines, min_size=ipx)
    if fitted is None:
        return None
    tall = max(fitted.height, fonts.height(ipx) if item.icons else 0)
    return Row(item, fitted, tall + 2 * pad, pad)


def gap(px: int) -> int:
    """The space between two rows."""
    return max(1, round(px * 0.2))


def total(rows: Sequence[Row], px: int) -> int:
    """The height `rows` take, gaps included."""
    return sum(r.height for r in rows) + gap(px) * max(0, len(rows) - 1)


T = TypeVar("T")
Fit = Callable[..., Fitted | None]  # fit_text, or fit_whole (no cut worked out)
ROWS_KEPT = 256  # fits kept per font book: a few screens' notes at their boxes


def fit_rows(
    fonts: FontBook,
    items: Sequence[Item],
    width: int,
    height: int,
    start: int,
    floor: int,
    *,
    guess_first: bool = True,
) -> tuple[int, list[Row]] | None:
    """The largest size from `start` down to `floor` at which `items` fit, uncut.

    A smaller size never takes more room, so the size is found by halving the range, not
    by trying each size in turn: each size FreeType measures loads every letter at that
    size (issue 23: the joker's two notes walked eight sizes on the 2-inch panel).
    The halving is first run on a guess from the font file's advances (`_guessed`, `start`
    first: most text fits at its own size; no letter loaded). FreeType's widths then
    decide at the size guessed and the one above it, and search on only where the guess
    was wrong (issue 35: a turn whose notes met new sizes measured five of them, 12 M
    instructions on the Zero 2 W). `guess_first=False` measures `start` itself first, the
    guess only below it: for lines that nearly always fit at their size (a page's), where
    the guess would only confirm what FreeType must measure anyway."""

    # the longest text first: the likeliest to be cut, and the first cut ends a try
    order = sorted(range(len(items)), key=lambda i: -len(items[i].text))

    def fitting(px: int) -> list[Row] | None:
        rows: list[Row | None] = [None] * len(items)
        for i in order:
            rows[i] = _row(fonts, items[i], width, px, fit_whole)
            if rows[i] is None:  # its cut never worked out
                return None
        whole = [row for row in rows if row is not None]
        return whole if total(whole, px) <= height else None

    def guessed(px: int) -> bool | None:
        return _guessed(fonts, items, width, height, px)

    if start < floor:
        return None
    key = ("fit_rows", tuple(items), width, height, start, floor)
    kept = fonts.kept.get(key, key)
    if kept is key:
        found = None if guess_first else _at_start(fitting, start)
        if found is None and (guess_first or start > floor):
            high = start if guess_first else start - 1
            guess = _halving(guessed, floor, high)
            found = _from_guess(fitting, floor, high, floor if guess is None else guess[0])
        kept = None if found is None else (found[0], tuple(found[1]))
        if len(fonts.kept) >= ROWS_KEPT:
            fonts.kept.clear()
        fonts.kept[key] = kept  # a reveal paints the notes of the last one again
    if kept is None:
        return None
    px, rows = cast(tuple[int, tuple[Row, ...]], kept)
    return px, list(rows)


def _at_start(fitting: Callable[[int], T | None], start: int) -> tuple[int, T] | None:
    rows = fitting(start)
    return None if rows is None else (start, rows)


def _guessed(
    fonts: FontBook, items: Sequence[Item], width: int, height: int, px: int
) -> bool | None:
    """Whether `items` would fit at `px` by estimated widths (as `measure` lays them out,
    wrapping without its syllables): True, or None."""
    room = height + gap(px)
    for item in items:
        ipx = max(1, round(px * item.scale))
        pad = max(1, round(ipx * 0.16)) if item.boxed or item.icons else 0
        icons = sum(icon_width(fonts, icon, ipx) for icon in item.icons) if item.icons else 0
        lines = fonts.guessed_lines(item.text, ipx, max(1, width - icons - 2 * pad))
        if lines is None or lines > item.max_lines:
            return None
        room -= (lines - 1) * fonts.advance(ipx) + fonts.height(ipx) + 2 * pad + gap(px)
        if room < 0:
            return None
    return True


def _halving(fitting: Callable[[int], T | None], low: int, high: int) -> tuple[int, T] | None:
    """The largest size in [low, high] that fits: `high` first (most text fits at its
    own size), then the range halved."""
    rows = fitting(high)
    if rows is not None:
        return high, rows
    return _halved(fitting, low, high - 1, None)


def _halved(
    fitting: Callable[[int], T | None], low: int, high: int, found: tuple[int, T] | None
) -> tuple[int, T] | None:
    while low <= high:
        middle = (low + high + 1) // 2
        rows = fitting(middle)
        if rows is None:
            high = middle - 1
        else:
            found, low = (middle, rows), middle + 1
    return found


def _from_guess(
    fitting: Callable[[int], T | None], low: int, high: int, guess: int
) -> tuple[int, T] | None:
    """The largest size in [low, high] that fits, tried first at `guess` and its
    neighbour: where the guess was right, those two are all that is measured."""
    rows = fitting(guess)
    if rows is not None:
        if guess == high:
            return guess, rows
        above = fitting(guess + 1)
        if above is None:
            return guess, rows
        return _halved(fitting, guess + 2, high, (guess + 1, above))
    if guess == low:
        return None
    below = fitting(guess - 1)
    if below is not None:
        return guess - 1, below
    return _halved(fitting, low, guess - 2, None)


# --- drawing ------------------------------------------------------------------------------
def place_rows(
    canvas: Canvas, rows: Sequence[Row], box: Box, px: int, *, centre: bool = False
) -> None:
    """Draws rows downward from the top of `box`: band, icons, then the text."""
    x, y, w, _ = box
    for row in rows:
        item = row.item
        if item.band:
            pygame.draw.rect(
                canvas.surface,
                item.band,
                pygame.Rect(x, y, w, row.height),
                border_radius=max(2, row.pad * 2),
            )
        left = x + row.pad
        for icon in item.icons:  # beside the first line of text
            _draw_icon(canvas, icon, (left, y + row.pad), row.fitted.size)
            left += icon_width(canvas.fonts, icon, row.fitted.size)
        top = y + (row.height - row.fitted.height) // 2
        text_box = (left, top, x + w - row.pad - left, row.fitted.height)
        canvas.fitted(
            row.fitted, item.colour, text_box, item.role, centre=centre and not item.icons
        )
        y += row.height + gap(px)


def _draw_icon(canvas: Canvas, icon: Icon, at: tuple[int, int], px: int) -> None:
    height = canvas.fonts.height(px)
    x, y = at
    if icon.kind == "pencil":
        figures.pencil(
            canvas,
            icon.name,
            pygame.Rect(
                x, y + round(height * 0.12), round(height * icon.length), round(height * 0.76)
            ),
        )
    elif icon.kind == "symbol" and icon.name:
        size = round(height * 1.15)
        figures.symbol(canvas, icon.name, (x + size / 2, y + height / 2), size, "icon")
    elif icon.kind == "power" and icon.name:
        size = round(height * 1.1)
        figures.power(canvas, icon.name, (x + size / 2, y + height / 2), size)
    elif icon.kind == "corner" and icon.name:
        figures.corner(canvas, icon.name, pygame.Rect(x, y, round(height * 0.9), height))


def stack(
    canvas: Canvas,
    items: list[Item],
    box: Box,
    base: float,
    *,
    centre: bool = False,
    columns: bool = False,
) -> None:
    """Items one below the other at the largest size that fits `box`; in two columns
    when allowed and one would need too small a size; cut at the bottom otherwise."""
    sizes, fonts = canvas.theme.sizes, canvas.fonts
    x, y, w, h = box
    if w <= 0 or h <= 0 or not items:
        return
    start = canvas.px(base)
    smallest = canvas.px(sizes.smallest)
    readable = canvas.px(sizes.small) if columns else smallest
    fit = fit_rows(fonts, items, w, h, start, readable, guess_first=False)
    if (
        fit is None
        and columns
        and len(items) > 1
        and _two_columns(canvas, items, box, start, smallest)
    ):
        return
    if fit is None:
        fit = fit_rows(fonts, items, w, h, readable, smallest, guess_first=False)
    if fit is None:  # still too much: draw what fits at the smallest size
        rows = measure(fonts, items, w, smallest)
        kept: list[Row] = []
        for row in rows:
            if total([*kept, row], smallest) > h:
                break
            kept.append(row)
        fit = (smallest, kept)
    px, rows = fit
    top = y + (h - total(rows, px)) // 2 if centre else y
    place_rows(canvas, rows, (x, top, w, h), px, centre=centre)


def _two_columns(canvas: Canvas, items: list[Item], box: Box, start: int, floor: int) -> bool:
    """Two columns, broken before a heading (an unindented line) when any size allows,
    so that a heading is never parted from its items; else wherever it fits."""
    x, y, w, h = box
    space = canvas.margin() * 2
    half = (w - space) // 2
    for at_heading in (True, False):
        for px in range(start, floor - 1, -1):
            rows = measure(canvas.fonts, items, half, px)
            if any(r.fitted.cut for r in rows):
                continue
            splits = [
                (max(total(rows[:k], px), total(rows[k:], px)), k)
                for k in range(1, len(rows))
                if not at_heading or not rows[k].item.text.startswith(" ")
            ]
            fitting = [s for s in splits if s[0] <= h]
            if fitting:
                split = min(fitting)[1]
                place_rows(canvas, rows[:split], (x, y, half, h), px)
                place_rows(canvas, rows[split:], (x + half + space, y, half, h), px)
                return True
    return False
