"""Draws any view onto a pygame Surface: the one picture every graphic display shows.

The turn and round-start screens get their own layouts (a big card, pencil swatches);
every other screen is a title, lines of text from `Words.page` and a legend. Text is
fitted, never clipped by the screen edge: it shrinks, then wraps, then is cut with an
ellipsis as a last resort. `Painter.paint` returns a `Drawing` listing every text and
figure it placed, with rectangles, so tests can check that nothing spills over.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import pygame

from nsdevice import views
from nsdevice.displays.theme import DEFAULT_THEME, Colour, Theme
from nsdevice.rules.cards import StationCard
from nsdevice.texts import Words

Box = tuple[int, int, int, int]  # x, y, width, height
Point = tuple[float, float]

# The bundled font (FreeSans Bold) has every accented letter of our five languages and
# × · − but no arrow: the painter draws these characters itself.
DRAWN_GLYPHS = frozenset("→")
ELLIPSIS = "…"
LIST_SCREENS = frozenset({"setup", "menu"})
# screens with a sentence or two to read: larger text, centred
MESSAGE_SCREENS = frozenset(
    {"confirm", "notice", "shutdown", "game_end", "about", "round_end", "result", "hwtest"}
)


# --- what was drawn ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Placed:
    """One run of text as drawn: its words and the rectangle its pixels may cover."""

    text: str
    rect: Box
    role: str


@dataclass(frozen=True, slots=True)
class Figure:
    """A drawn shape; `rect` is the bounding box of the pixels actually painted."""

    name: str
    rect: Box
    role: str


@dataclass(frozen=True, slots=True)
class Drawing:
    size: tuple[int, int]
    texts: tuple[Placed, ...]
    figures: tuple[Figure, ...]
    legend: Box | None  # the band of button hints at the bottom, if any

    def figures_of(self, role: str) -> list[Figure]:
        return [f for f in self.figures if f.role == role]


# --- fonts and fitting ------------------------------------------------------------------
class FontBook:
    """The bundled font at any pixel height, each size loaded once.

    Sizes here are the height of a line of text in pixels: pygame's size argument for
    its default font is about 1.5 times that, so it is converted once, here.
    """

    def __init__(self, path: str | None = None) -> None:
        pygame.font.init()
        self._path = path
        self._fonts: dict[int, pygame.font.Font] = {}
        self._glyphs: dict[str, bool] = {}
        probe = pygame.font.Font(path, 100)
        self._scale = probe.get_height() / 100

    def font(self, px: int) -> pygame.font.Font:
        px = max(1, px)
        font = self._fonts.get(px)
        if font is None:
            font = self._fonts[px] = pygame.font.Font(self._path, max(1, round(px / self._scale)))
        return font

    def height(self, px: int) -> int:
        return self.font(px).get_height()

    def advance(self, px: int) -> int:
        """Distance from one wrapped line to the next."""
        return self.font(px).get_linesize()

    def _arrow_width(self, px: int) -> int:
        return max(4, round(self.height(px) * 0.9))

    def width(self, text: str, px: int) -> int:
        font = self.font(px)
        total = 0
        for piece in _pieces(text):
            total += self._arrow_width(px) if piece in DRAWN_GLYPHS else font.size(piece)[0]
        return total

    def has_glyph(self, char: str) -> bool:
        """Whether the font draws `char` itself, rather than its 'missing' box."""
        known = self._glyphs.get(char)
        if known is None:
            font = self.font(20)
            missing = pygame.image.tobytes(font.render("\ue000", True, (255, 255, 255)), "RGBA")
            drawn = pygame.image.tobytes(font.render(char, True, (255, 255, 255)), "RGBA")
            known = self._glyphs[char] = char.isspace() or drawn != missing
        return known

    def missing_glyphs(self, text: str) -> set[str]:
        """Characters of `text` that would show as boxes (the drawn glyphs are fine)."""
        return {c for c in set(text) if c not in DRAWN_GLYPHS and not self.has_glyph(c)}

    def draw(self, surface: pygame.Surface, text: str, px: int, colour: Colour, at: Point) -> Box:
        """Draws one line with its top-left at `at`; returns the rectangle it covers."""
        font = self.font(px)
        x, y = round(at[0]), round(at[1])
        start = x
        for piece in _pieces(text):
            if piece in DRAWN_GLYPHS:
                width = self._arrow_width(px)
                _draw_arrow(surface, (x, y), width, font, colour)
                x += width
            elif piece:
                image = font.render(piece, True, colour)
                surface.blit(image, (x, y))
                x += image.get_width()
        return (start, y, x - start, font.get_height())


def _pieces(text: str) -> list[str]:
    """`text` split so that each drawn glyph stands alone."""
    pieces: list[str] = []
    current = ""
    for char in text:
        if char in DRAWN_GLYPHS:
            pieces += [current, char] if current else [char]
            current = ""
        else:
            current += char
    if current:
        pieces.append(current)
    return pieces


def _draw_arrow(
    surface: pygame.Surface, at: tuple[int, int], width: int, font: pygame.font.Font, colour: Colour
) -> None:
    """A right arrow at the height of the font's small letters, standing in for '→'."""
    x, y = at
    middle = y + round(font.get_ascent() * 0.62)
    thick = max(1, round(font.get_height() * 0.09))
    head = max(3, round(width * 0.32))
    left, right = x + round(width * 0.1), x + round(width * 0.9)
    pygame.draw.line(surface, colour, (left, middle), (right - head // 2, middle), thick)
    pygame.draw.polygon(
        surface,
        colour,
        [
            (right, middle),
            (right - head, middle - head * 0.75),
            (right - head, middle + head * 0.75),
        ],
    )


@dataclass(frozen=True, slots=True)
class Fitted:
    """Text laid out at one size: its lines, and the room they take."""

    size: int
    lines: tuple[str, ...]
    width: int
    height: int
    advance: int
    cut: bool = False  # True when words had to be broken or dropped to fit


def fit_text(
    text: str,
    font_size: int,
    max_width: int,
    *,
    fonts: FontBook,
    max_lines: int = 2,
    min_size: int | None = None,
) -> Fitted:
    """Lays `text` out within `max_width`, in at most `max_lines` lines.

    In order of preference: one line, shrinking a little (to 85%); wrapped lines at the
    largest size down to `min_size`; at `min_size`, words broken and the rest cut with
    an ellipsis. The result never exceeds `max_width` nor `max_lines`.
    """
    smallest = max(1, min(font_size, font_size if min_size is None else min_size))
    floor = max(smallest, round(font_size * 0.85)) if max_lines > 1 else smallest
    for px in range(font_size, floor - 1, -1):
        if fonts.width(text, px) <= max_width:
            return _fitted(fonts, (text,), px)
    if max_lines > 1:
        for px in range(font_size, smallest - 1, -1):
            lines = _wrap(text, px, max_width, fonts, break_words=False)
            if lines is not None and len(lines) <= max_lines:
                return _fitted(fonts, tuple(lines), px)
    lines = _wrap(text, smallest, max_width, fonts, break_words=True) or [""]
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] += ELLIPSIS
    fitted = tuple(_cut(line, smallest, max_width, fonts) for line in lines)
    return _fitted(fonts, fitted, smallest, cut=True)


def _fitted(fonts: FontBook, lines: tuple[str, ...], px: int, cut: bool = False) -> Fitted:
    advance = fonts.advance(px)
    height = (len(lines) - 1) * advance + fonts.height(px)
    width = max(fonts.width(line, px) for line in lines)
    return Fitted(px, lines, width, height, advance, cut)


def _wrap(
    text: str, px: int, width: int, fonts: FontBook, *, break_words: bool
) -> list[str] | None:
    """Greedy word wrap; None if a word is wider than a line and may not be broken.
    Leading spaces (an indented sub-item) indent its wrapped lines twice as far, so
    that each item still stands out from the next."""
    first = text[: len(text) - len(text.lstrip(" "))]
    lines: list[str] = []
    current = ""

    def fits(line: str) -> bool:
        indent = first * 2 if lines else first
        return fonts.width(indent + line, px) <= width

    for word in text.split():
        if fits(f"{current} {word}" if current else word):
            current = f"{current} {word}" if current else word
            continue
        if current:
            lines.append(current)
            current = ""
        if fits(word):
            current = word
            continue
        if not break_words:
            return None
        for char in word:  # a word wider than a line: break it between letters
            if not current or fits(current + char):
                current += char
            else:
                lines.append(current)
                current = char
    lines.append(current)
    return [(first * 2 if index else first) + line for index, line in enumerate(lines)]


def _cut(text: str, px: int, width: int, fonts: FontBook) -> str:
    """`text` shortened with an ellipsis until it fits `width` (possibly to nothing)."""
    if fonts.width(text, px) <= width:
        return text
    while text:
        text = text[:-1].rstrip()
        if fonts.width(text + ELLIPSIS, px) <= width:
            return text + ELLIPSIS
    return ""


# --- geometry for the symbols -----------------------------------------------------------
def _regular(n: int, radius: float, centre: Point, turn: float = -math.pi / 2) -> list[Point]:
    cx, cy = centre
    return [
        (
            cx + radius * math.cos(turn + 2 * math.pi * k / n),
            cy + radius * math.sin(turn + 2 * math.pi * k / n),
        )
        for k in range(n)
    ]


def _star(outer: float, inner: float, centre: Point) -> list[Point]:
    cx, cy = centre
    points = []
    for k in range(10):
        radius = outer if k % 2 == 0 else inner
        angle = -math.pi / 2 + math.pi * k / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def _inset(points: Sequence[Point], by: float) -> list[Point]:
    """The polygon moved inward by `by` (outward when negative), with mitred corners.

    Works for the convex symbols and the star: each edge slides along its inward
    normal and neighbouring edges are intersected again.
    """
    n = len(points)
    area = sum(
        points[i][0] * points[(i + 1) % n][1] - points[(i + 1) % n][0] * points[i][1]
        for i in range(n)
    )
    sign = 1 if area > 0 else -1  # which side is inside depends on the winding
    lines = []
    for i in range(n):
        (x0, y0), (x1, y1) = points[i], points[(i + 1) % n]
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        nx, ny = -(y1 - y0) / length * sign, (x1 - x0) / length * sign
        lines.append(((x0 + nx * by, y0 + ny * by), (x1 - x0, y1 - y0)))
    result = []
    for i in range(n):
        (p, d), (q, e) = lines[i - 1], lines[i]
        cross = d[0] * e[1] - d[1] * e[0]
        if abs(cross) < 1e-9:
            result.append(q)
            continue
        t = ((q[0] - p[0]) * e[1] - (q[1] - p[1]) * e[0]) / cross
        result.append((p[0] + d[0] * t, p[1] + d[1] * t))
    return result


def _rimmed(
    image: pygame.Surface, points: list[Point], rim: float, fill: Colour, edge: Colour
) -> None:
    pygame.draw.polygon(image, edge, points)
    pygame.draw.polygon(image, fill, _inset(points, rim))


def _stroke(image: pygame.Surface, a: Point, b: Point, width: float, colour: Colour) -> None:
    """A thick segment with round ends (pygame's wide lines have ragged ends)."""
    length = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
    nx, ny = -(b[1] - a[1]) / length * width / 2, (b[0] - a[0]) / length * width / 2
    pygame.draw.polygon(
        image,
        colour,
        [
            (a[0] + nx, a[1] + ny),
            (b[0] + nx, b[1] + ny),
            (b[0] - nx, b[1] - ny),
            (a[0] - nx, a[1] - ny),
        ],
    )
    for end in (a, b):
        pygame.draw.circle(image, colour, end, width / 2)


# Each shape fills its square box as far as its form allows (the turn screen promises a
# symbol at least 40% of the screen tall: the triangle, 0.85 of its box, sets the size).
def _shape_square(image: pygame.Surface, s: int, rim: float, fill: Colour, edge: Colour) -> None:
    low, high = s * 0.05, s * 0.95
    _rimmed(image, [(low, low), (high, low), (high, high), (low, high)], rim, fill, edge)


def _shape_circle(image: pygame.Surface, s: int, rim: float, fill: Colour, edge: Colour) -> None:
    pygame.draw.circle(image, edge, (s / 2, s / 2), s * 0.48)
    pygame.draw.circle(image, fill, (s / 2, s / 2), s * 0.48 - rim)


def _shape_triangle(image: pygame.Surface, s: int, rim: float, fill: Colour, edge: Colour) -> None:
    radius = s * 0.566  # the base spans 98% of the box
    _rimmed(image, _regular(3, radius, (s / 2, s / 2 + radius * 0.25)), rim, fill, edge)


def _shape_pentagon(image: pygame.Surface, s: int, rim: float, fill: Colour, edge: Colour) -> None:
    radius = s * 0.51
    _rimmed(image, _regular(5, radius, (s / 2, s / 2 + radius * 0.095)), rim, fill, edge)


def _shape_joker(image: pygame.Surface, s: int, rim: float, fill: Colour, edge: Colour) -> None:
    """A chunky five-pointed star: any symbol will do."""
    outer = s * 0.51
    _rimmed(image, _star(outer, outer * 0.45, (s / 2, s / 2 + outer * 0.095)), rim, fill, edge)


def _shape_switch(image: pygame.Surface, s: int, rim: float, fill: Colour, edge: Colour) -> None:
    """A line that carries straight on while a branch leaves it: a switch of points."""
    width = s * 0.12
    bottom = (s * 0.3, s * 0.85)
    fork = (s * 0.3, s * 0.6)
    ends = [(s * 0.3, s * 0.14), (s * 0.76, s * 0.16)]  # arrow tips: straight on, branch
    parts = []
    for start, tip in ((bottom, ends[0]), (fork, ends[1])):
        dx, dy = tip[0] - start[0], tip[1] - start[1]
        length = math.hypot(dx, dy)
        ux, uy = dx / length, dy / length
        back = width * 1.6
        base = (tip[0] - ux * back, tip[1] - uy * back)
        spread = width * 1.05
        head = [
            (tip[0] + ux * width * 0.2, tip[1] + uy * width * 0.2),
            (base[0] - uy * spread, base[1] + ux * spread),
            (base[0] + uy * spread, base[1] - ux * spread),
        ]
        parts.append((start, base, head))
    for colour, grow in ((edge, rim), (fill, 0.0)):  # the rim first, the white on top
        for start, base, head in parts:
            _stroke(image, start, base, width + 2 * grow, colour)
            pygame.draw.polygon(image, colour, _inset(head, -grow) if grow else head)


def _shape_free_entry(
    image: pygame.Surface, s: int, rim: float, fill: Colour, edge: Colour
) -> None:
    """An admission ticket standing up: notched at both sides, a perforation across."""
    left, right = s * 0.2, s * 0.8
    top, bottom = s * 0.02, s * 0.98
    notch = s * 0.085
    middle = s * 0.36
    corner = round(s * 0.05)
    outer = pygame.Rect(round(left), round(top), round(right - left), round(bottom - top))
    pygame.draw.rect(image, edge, outer, border_radius=corner)
    pygame.draw.rect(image, fill, outer.inflate(-2 * rim, -2 * rim), border_radius=corner)
    for x in (outer.left, outer.right):
        pygame.draw.circle(image, edge, (x, middle), notch + rim)
        pygame.draw.circle(image, (0, 0, 0, 0), (x, middle), notch)
    # the notches' rims were also painted outside the ticket: clear that again
    image.fill((0, 0, 0, 0), pygame.Rect(0, 0, outer.left, s))
    image.fill((0, 0, 0, 0), pygame.Rect(outer.right, 0, s, s))
    inner_left, inner_right = outer.left + notch + rim * 1.5, outer.right - notch - rim * 1.5
    dash = (inner_right - inner_left) / 5
    for k in range(0, 5, 2):
        x = inner_left + dash * k + dash * 0.2
        _stroke(image, (x, middle), (x + dash * 0.6, middle), rim * 0.8, edge)
    # two lines of print below the perforation, so it reads as a ticket
    for row in (0.6, 0.76):
        y = s * row
        _stroke(image, (outer.left + rim * 2.5, y), (outer.right - rim * 2.5, y), rim * 0.8, edge)


SHAPES = {
    "square": _shape_square,
    "circle": _shape_circle,
    "triangle": _shape_triangle,
    "pentagon": _shape_pentagon,
    "joker": _shape_joker,
    "switch": _shape_switch,
    "free_entry": _shape_free_entry,
}


def symbol_name(card: StationCard) -> str:
    """Which shape stands for a card's face."""
    if card.symbol is not None:
        return card.symbol.value
    assert card.special is not None
    return card.special.value


# --- layout helpers ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Icon:
    kind: str  # "pencil", "symbol" or "blank" (keeps columns aligned)
    name: str = ""  # a pencil colour or a symbol name


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
class _Row:
    item: Item
    fitted: Fitted
    height: int
    pad: int


@dataclass
class _Canvas:
    """One paint call's surface and the record of what went on it (local, short-lived)."""

    surface: pygame.Surface
    fonts: FontBook
    texts: list[Placed] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)

    def text(self, text: str, px: int, colour: Colour, at: Point, role: str) -> Box:
        rect = self.fonts.draw(self.surface, text, px, colour, at)
        self.texts.append(Placed(text, rect, role))
        return rect

    def fitted(
        self, fitted: Fitted, colour: Colour, box: Box, role: str, *, centre: bool = False
    ) -> None:
        """Draws fitted lines from the top of `box`, left-aligned or centred."""
        x, y, w, _ = box
        for index, line in enumerate(fitted.lines):
            left = x + (w - self.fonts.width(line, fitted.size)) / 2 if centre else x
            self.text(line, fitted.size, colour, (left, y + index * fitted.advance), role)


class Painter:
    """Draws views. Keep one per display: it caches fonts and symbol images."""

    def __init__(self, theme: Theme = DEFAULT_THEME) -> None:
        self.theme = theme
        self.fonts = FontBook()
        self._symbols: dict[tuple[str, int, Colour, Colour], pygame.Surface] = {}

    # --- entry point ------------------------------------------------------------------
    def paint(self, view: views.View, surface: pygame.Surface, words: Words) -> Drawing:
        width, height = surface.get_size()
        canvas = _Canvas(surface, self.fonts)
        surface.fill(self.theme.palette.background)
        legend = self._legend(canvas, view, words)
        drawn_here = isinstance(view, views.TurnView | views.RoundStartView)
        page = None if drawn_here else words.page(view)
        title = words.title(view) if page is None else page.title
        body = self._header(canvas, title, view)
        body = _shrink(body, legend[1] if legend else height, self._margin(canvas))
        if isinstance(view, views.TurnView):
            self._turn(canvas, view, words, body)
        elif isinstance(view, views.RoundStartView):
            self._round_start(canvas, view, words, body)
        elif page is not None:
            self._page(canvas, view, page.lines, page.emphasis, body)
        return Drawing((width, height), tuple(canvas.texts), tuple(canvas.figures), legend)

    # --- sizes ------------------------------------------------------------------------
    def _px(self, canvas: _Canvas, fraction: float) -> int:
        return self.theme.px(fraction, canvas.surface.get_height(), least=6)

    def _margin(self, canvas: _Canvas) -> int:
        return self.theme.px(self.theme.sizes.margin, canvas.surface.get_height(), least=2)

    # --- chrome: header and legend ----------------------------------------------------
    def _header(self, canvas: _Canvas, title: str, view: views.View) -> Box:
        """The title band; returns the area below it, inset by the margin."""
        palette, sizes = self.theme.palette, self.theme.sizes
        width, height = canvas.surface.get_size()
        margin = self._margin(canvas)
        px = self._px(canvas, sizes.title)
        pad = max(2, round(px * 0.22))
        band = self.fonts.height(px) + 2 * pad
        pygame.draw.rect(canvas.surface, palette.header, (0, 0, width, band))
        city = getattr(view, "city", None)
        if city in self.theme.cards:  # a thin stripe in the city's street colour
            stripe = max(2, round(height * 0.008))
            pygame.draw.rect(
                canvas.surface,
                self.theme.card_colours(city, "street")[0],
                (0, band - stripe, width, stripe),
            )
        fitted = fit_text(
            title,
            px,
            width - 2 * margin,
            fonts=self.fonts,
            max_lines=1,
            min_size=self._px(canvas, sizes.smallest),
        )
        top = (band - fitted.height) / 2
        canvas.fitted(
            fitted, palette.text, (margin, round(top), width - 2 * margin, fitted.height), "title"
        )
        return (margin, band + margin, width - 2 * margin, height - band - 2 * margin)

    def _legend(self, canvas: _Canvas, view: views.View, words: Words) -> Box | None:
        """The button hints at the bottom, spread across the width; buttons that do the
        same thing share one label ("NEXT BACK Change")."""
        if not view.hints:
            return None
        palette, sizes = self.theme.palette, self.theme.sizes
        width, height = canvas.surface.get_size()
        margin = self._margin(canvas)
        groups: list[tuple[str, list[str]]] = []
        for hint in view.hints:
            for action, buttons in groups:
                if action == words.action(hint.action):
                    buttons.append(words.button(hint.button))
                    break
            else:
                groups.append((words.action(hint.action), [words.button(hint.button)]))
        room = width - 2 * margin
        smallest = self._px(canvas, sizes.smallest)
        px = self._px(canvas, sizes.legend)
        while px > smallest and self._legend_width(groups, px) > room:
            px -= 1
        pad = _cap_pad(px)
        band = self.fonts.height(px) + 2 * pad + 2
        top = height - band
        pygame.draw.rect(canvas.surface, palette.legend, (0, top, width, band))
        natural = [self._group_width(group, px) for group in groups]
        spare = room - sum(natural)
        if spare >= 0:  # spread out: first group at the left edge, last at the right
            space = spare / (len(groups) - 1) if len(groups) > 1 else 0.0
            shares = natural
        else:  # too long even at the smallest size: equal shares, labels cut
            space = 2 * pad
            shares = [(room - space * (len(groups) - 1)) / len(groups)] * len(groups)
        x = float(margin)
        y = top + (band - self.fonts.height(px)) / 2
        for (action, caps), share in zip(groups, shares, strict=True):
            right = x + share
            left = x
            for label in caps:
                cap = self.fonts.width(label, px) + 2 * pad
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
                fitted = fit_text(
                    action, px, math.floor(right - left), fonts=self.fonts, max_lines=1
                )
                box = (round(left), round(y), math.floor(right - left), fitted.height)
                canvas.fitted(fitted, palette.text, box, "legend")
            x = right + space
        return (0, top, width, band)

    def _group_width(self, group: tuple[str, list[str]], px: int) -> int:
        action, caps = group
        pad = _cap_pad(px)
        return sum(self.fonts.width(c, px) + 3 * pad for c in caps) + self.fonts.width(action, px)

    def _legend_width(self, groups: list[tuple[str, list[str]]], px: int) -> int:
        separation = 2 * _cap_pad(px) * (len(groups) - 1)
        return sum(self._group_width(g, px) for g in groups) + separation

    # --- stacked lines ----------------------------------------------------------------
    def _icon_width(self, icon: Icon, px: int) -> int:
        height = self.fonts.height(px)
        return round(height * (2.4 if icon.kind == "pencil" else 1.15)) + round(height * 0.35)

    def _measure(self, items: Sequence[Item], width: int, px: int) -> list[_Row]:
        rows = []
        for item in items:
            ipx = max(1, round(px * item.scale))
            pad = max(1, round(ipx * 0.16)) if item.boxed or item.icons else 0
            icons = sum(self._icon_width(icon, ipx) for icon in item.icons)
            inner = width - icons - 2 * pad
            fitted = fit_text(
                item.text,
                ipx,
                max(1, inner),
                fonts=self.fonts,
                max_lines=item.max_lines,
                min_size=ipx,
            )
            tall = max(fitted.height, self.fonts.height(ipx) if item.icons else 0)
            rows.append(_Row(item, fitted, tall + 2 * pad, pad))
        return rows

    def _total(self, rows: Sequence[_Row], px: int) -> int:
        return sum(r.height for r in rows) + self._gap(px) * max(0, len(rows) - 1)

    def _gap(self, px: int) -> int:
        return max(1, round(px * 0.2))

    def _fit_rows(
        self, items: Sequence[Item], width: int, height: int, start: int, floor: int
    ) -> tuple[int, list[_Row]] | None:
        """The largest size from `start` down to `floor` at which `items` fit, uncut."""
        for px in range(start, floor - 1, -1):
            rows = self._measure(items, width, px)
            if self._total(rows, px) <= height and not any(r.fitted.cut for r in rows):
                return px, rows
        return None

    def _place_rows(
        self, canvas: _Canvas, rows: Sequence[_Row], box: Box, px: int, *, centre: bool = False
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
                self._icon(canvas, icon, (left, y + row.pad), row.fitted.size)
                left += self._icon_width(icon, row.fitted.size)
            top = y + (row.height - row.fitted.height) // 2
            text_box = (left, top, x + w - row.pad - left, row.fitted.height)
            canvas.fitted(
                row.fitted, item.colour, text_box, item.role, centre=centre and not item.icons
            )
            y += row.height + self._gap(px)

    def _icon(self, canvas: _Canvas, icon: Icon, at: tuple[int, int], px: int) -> None:
        height = self.fonts.height(px)
        x, y = at
        if icon.kind == "pencil":
            self._pencil(
                canvas,
                icon.name,
                pygame.Rect(x, y + round(height * 0.12), round(height * 2.4), round(height * 0.76)),
            )
        elif icon.kind == "symbol" and icon.name:
            size = round(height * 1.15)
            self._symbol(canvas, icon.name, (x + size / 2, y + height / 2), size, "icon")

    # --- figures ----------------------------------------------------------------------
    def symbol_image(self, name: str, size: int, fill: Colour, edge: Colour) -> pygame.Surface:
        """A symbol drawn at three times the size and scaled down: smooth edges without
        anti-aliased polygon drawing, cached because cards repeat."""
        key = (name, size, fill, edge)
        image = self._symbols.get(key)
        if image is None:
            factor = 3 if size < 240 else 2
            big = size * factor
            work = pygame.Surface((big, big), pygame.SRCALPHA)
            rim = max(1.5 * factor, big * 0.075)
            SHAPES[name](work, big, rim, fill, edge)
            image = self._symbols[key] = pygame.transform.smoothscale(work, (size, size))
        return image

    def _symbol(self, canvas: _Canvas, name: str, centre: Point, size: int, role: str) -> Figure:
        palette = self.theme.palette
        size = max(4, size)
        image = self.symbol_image(name, size, palette.symbol_fill, palette.symbol_edge)
        left, top = round(centre[0] - size / 2), round(centre[1] - size / 2)
        canvas.surface.blit(image, (left, top))
        tight = image.get_bounding_rect()
        figure = Figure(name, (left + tight.x, top + tight.y, tight.width, tight.height), role)
        canvas.figures.append(figure)
        return figure

    def _pencil(self, canvas: _Canvas, colour: str, rect: pygame.Rect) -> None:
        """A pencil lying left to right: painted body, bare wood, coloured lead."""
        palette = self.theme.palette
        paint = self.theme.pencil(colour)
        tip = round(rect.height * 1.1)
        body = pygame.Rect(rect.x, rect.y, rect.width - tip, rect.height)
        mid = rect.centery
        wood = [(body.right, rect.top), (rect.right, mid), (body.right, rect.bottom - 1)]
        lead = round(tip * 0.4)
        pygame.draw.rect(canvas.surface, paint, body, border_radius=max(1, rect.height // 5))
        pygame.draw.polygon(canvas.surface, palette.pencil_tip, wood)
        pygame.draw.polygon(
            canvas.surface,
            paint,
            [
                (rect.right - lead, mid - lead * 0.45),
                (rect.right, mid),
                (rect.right - lead, mid + lead * 0.45),
            ],
        )
        # a light rim so that brown and purple stay visible on the dark ground
        pygame.draw.rect(
            canvas.surface, palette.dim, body, width=1, border_radius=max(1, rect.height // 5)
        )
        canvas.figures.append(Figure(f"pencil-{colour}", tuple(rect), "pencil"))

    def _card(
        self,
        canvas: _Canvas,
        card: StationCard,
        city: str,
        rect: pygame.Rect,
        *,
        label: str | None,
        role: str,
        symbol_size: int | None = None,
    ) -> Figure:
        """A station card in its kind's colours, the symbol in the middle and, when
        `label` is given, the kind written at the bottom (colour alone is not enough)."""
        palette = self.theme.palette
        colours = self.theme.card_colours(city, card.kind.value)
        radius = max(2, round(min(rect.size) * 0.08))
        if len(colours) == 1:
            pygame.draw.rect(canvas.surface, colours[0], rect, border_radius=radius)
        else:  # underground cards are two-coloured: the top half and the bottom half
            half = rect.height // 2
            top = pygame.Rect(rect.x, rect.y, rect.width, half)
            bottom = pygame.Rect(rect.x, rect.y + half, rect.width, rect.height - half)
            pygame.draw.rect(
                canvas.surface,
                colours[0],
                top,
                border_top_left_radius=radius,
                border_top_right_radius=radius,
            )
            pygame.draw.rect(
                canvas.surface,
                colours[1],
                bottom,
                border_bottom_left_radius=radius,
                border_bottom_right_radius=radius,
            )
        edge = max(1, round(rect.height * 0.012))
        pygame.draw.rect(canvas.surface, palette.card_edge, rect, width=edge, border_radius=radius)
        area = rect.inflate(-2 * edge, -2 * edge)
        if label:
            px = max(6, round(rect.height * 0.1))
            fitted = fit_text(
                label,
                px,
                area.width - 2 * edge,
                fonts=self.fonts,
                max_lines=1,
                min_size=max(6, round(px * 0.6)),
            )
            strip = fitted.height + 2 * edge
            canvas.fitted(
                fitted,
                palette.card_text,
                (area.x + edge, area.bottom - strip + edge, area.width - 2 * edge, fitted.height),
                "card-label",
                centre=True,
            )
            area.height -= strip
        room = min(area.width, area.height)
        size = room * 0.8 if symbol_size is None else min(symbol_size, room * 0.96)
        return self._symbol(canvas, symbol_name(card), area.center, round(size), role)

    def _dim(self, canvas: _Canvas, rect: pygame.Rect) -> None:
        """Greys out a card that does nothing this turn."""
        veil = pygame.Surface(rect.size, pygame.SRCALPHA)
        veil.fill((*self.theme.palette.background, 150))
        canvas.surface.blit(veil, rect.topleft)

    # --- the turn screen --------------------------------------------------------------
    def _turn(self, canvas: _Canvas, view: views.TurnView, words: Words, body: Box) -> None:
        """The card players draw from, big; what else matters this turn beside it; the
        round's earlier cards as a strip along the bottom (C-3)."""
        palette, sizes = self.theme.palette, self.theme.sizes
        height = canvas.surface.get_height()
        margin = self._margin(canvas)
        x, y, w, h = body
        strip = round(height * 0.115)
        card_h = h - strip - margin
        symbol = self.theme.px(sizes.card_symbol, height)
        switch = 0.6 if len(view.cards) == 2 else 0.0  # the switch card's scale, if any
        # as wide as the symbol needs, but leaving the notes a third of the width
        # (narrow screens: the cards give way and the symbol shrinks)
        room = w - round(w * 0.3) - margin - (margin if switch else 0)
        card_w = min(
            max(round(card_h * 0.78), symbol + 2 * margin), math.floor(room / (1 + switch))
        )
        left = x
        if not view.cards or card_h <= 0 or card_w <= 0:
            return
        if switch:  # C-5: the switch, smaller, then the card played with it
            small = pygame.Rect(left, y, round(card_w * switch), round(card_h * switch))
            self._card(canvas, view.cards[0], view.city, small, label=None, role="switch")
            if view.switch_effect is False:
                self._dim(canvas, small)
            note = words.switch_note(view.switch_effect)
            if note:
                colour = palette.warning if view.switch_effect is False else palette.accent
                top = small.bottom + margin // 2
                room = (small.x, top, small.width, y + card_h - top)
                smallest = self._px(canvas, sizes.smallest)
                fitted = fit_text(
                    note,
                    self._px(canvas, sizes.small),
                    small.width,
                    fonts=self.fonts,
                    max_lines=max(1, room[3] // self.fonts.advance(smallest)),
                    min_size=smallest,
                )
                canvas.fitted(fitted, colour, room, "switch-note", centre=True)
            left = small.right + margin
        card = view.cards[-1]
        big = pygame.Rect(left, y, card_w, card_h)
        self._card(
            canvas,
            card,
            view.city,
            big,
            label=words.kind(card.kind, view.city),
            role="card-symbol",
            symbol_size=symbol,
        )
        notes = (big.right + margin, y, x + w - big.right - margin, card_h)
        self._turn_notes(canvas, view, words, notes)
        self._strip(canvas, view, (x, y + card_h + margin, w, strip))

    def _turn_notes(self, canvas: _Canvas, view: views.TurnView, words: Words, box: Box) -> None:
        palette, sizes = self.theme.palette, self.theme.sizes
        height = canvas.surface.get_height()
        x, y, w, h = box
        if w <= 0:
            return
        # underground count first: it tells how close the round's end is (C-4)
        total = view.underground_total
        pip = min(self.theme.px(0.07, height), w // (total + 1))
        gap = (min(w, pip * (total + 3)) - total * pip) // max(1, total - 1)
        count = fit_text(
            words.underground(view.underground_seen, view.underground_total, view.city),
            self._px(canvas, sizes.body * 1.1),
            w,
            fonts=self.fonts,
            max_lines=2,
            min_size=self._px(canvas, sizes.smallest),
        )
        canvas.fitted(count, palette.text, (x, y, w, count.height), "underground")
        pips_y = y + count.height + max(2, pip // 4)
        colour = self.theme.card_colours(view.city, "underground")[0]
        for k in range(total):
            centre = (x + pip / 2 + k * (pip + gap), pips_y + pip / 2)
            if k < view.underground_seen:
                pygame.draw.circle(canvas.surface, colour, centre, pip / 2)
                pygame.draw.circle(
                    canvas.surface, palette.card_edge, centre, pip / 2, width=max(1, pip // 10)
                )
            else:
                pygame.draw.circle(
                    canvas.surface, palette.pip_empty, centre, pip / 2, width=max(2, pip // 6)
                )
        row = total * pip + (total - 1) * gap
        canvas.figures.append(Figure("pips", (x, round(pips_y), row, pip), "pips"))
        top = round(pips_y + pip + max(3, pip // 2))
        items: list[Item] = []
        if view.last:
            items.append(
                Item(words.last_turn(), palette.accent_text, band=palette.accent, role="last")
            )
        card = view.cards[-1]
        if card.symbol is None and card.special is not None:  # a joker or free entry
            items.append(Item(words.face(card), palette.text, role="face"))
            extra = view.joker_extra if view.city != "paris" else "guided_tour"
            items.append(Item(words.joker_extra(extra), palette.dim, scale=0.85, role="joker"))
        note = words.paired_note(view.paired_effect, view.paired_effect_active)
        if note:
            active = view.paired_effect_active is not False
            items.append(
                Item(
                    note,
                    palette.accent_text if active else palette.text,
                    band=palette.special_badge if active else palette.pip_empty,
                    icons=(Icon("symbol", view.pairing.symbol),) if view.pairing else (),
                    max_lines=2,
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
                    max_lines=2,
                    role="pairing",
                )
            )
        if items:
            self._stack(canvas, items, (x, top, w, y + h - top), sizes.body, centre=False)

    def _strip(self, canvas: _Canvas, view: views.TurnView, box: Box) -> None:
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
        palette = self.theme.palette
        for turn in view.earlier:
            for card in turn.cards:
                rect = pygame.Rect(left, y, card_w, h)
                self._card(canvas, card, view.city, rect, label=None, role="strip")
                if card.switch and turn.switch_effect is False:
                    self._dim(canvas, rect)
                left += card_w + max(1, gap // 3)
            if turn.paired_effect:  # the special station fired on this turn
                dot = max(3, card_w // 4)
                pygame.draw.circle(
                    canvas.surface,
                    palette.special_badge,
                    (left - gap // 3 - dot / 2, y + dot / 2),
                    dot / 2,
                )
            left += gap - max(1, gap // 3)

    # --- the round start ----------------------------------------------------------------
    def _round_start(
        self, canvas: _Canvas, view: views.RoundStartView, words: Words, body: Box
    ) -> None:
        """Who flips the cards, which pencil each seat takes (C-8, C-9), the pairing (T-SP-2)."""
        palette = self.theme.palette
        items: list[Item] = []
        if view.players > 1:
            items.append(Item(words.controller(view.controller), palette.accent, role="controller"))
        for pencil in view.pencils:
            table = pencil.slot.startswith("table")
            text = words.pencil_line(pencil, view.players)
            symbol = (
                Icon("symbol", pencil.start_symbol)
                if pencil.start_symbol and not table
                else Icon("blank")
            )
            items.append(
                Item(
                    text,
                    palette.dim if table else palette.text,
                    icons=(Icon("pencil", pencil.colour), symbol),
                    max_lines=2,
                    role="pencil",
                )
            )
        if view.pairing:
            items.append(
                Item(words.module("special_stations"), palette.dim, scale=0.85, role="pairing")
            )
            items.append(
                Item(
                    words.pairing(view.pairing),
                    palette.accent_text,
                    band=palette.special_badge,
                    icons=(Icon("symbol", view.pairing.symbol),),
                    max_lines=2,
                    role="pairing",
                )
            )
        # the pencils are what players look for from across the table: start big
        self._stack(canvas, items, body, self.theme.sizes.body * 1.25)

    # --- every other screen -----------------------------------------------------------
    def _page(
        self,
        canvas: _Canvas,
        view: views.View,
        lines: tuple[str, ...],
        emphasis: tuple[int, ...],
        body: Box,
    ) -> None:
        """Title-and-lines screens, with a few touches per screen on top of `Words.page`."""
        palette, sizes = self.theme.palette, self.theme.sizes
        if isinstance(view, views.SeedEntryView):
            self._seed_entry(canvas, view, lines, body)
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
            extra = [
                Item(i.text, palette.warning, max_lines=2, role="warning") for i in items[rows:]
            ]
            self._list(canvas, items[:rows], extra, view.cursor, body)
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
            items = self._pencil_pass_items(view, items)
        if isinstance(view, views.HardwareTestView) and view.step == "pattern":
            x, y, w, h = body
            bars = round(h * 0.4)
            self._colour_bars(canvas, (x, y, w, bars))
            body = (x, y + bars, w, h - bars)
        message = view.screen in MESSAGE_SCREENS
        if message:
            items = [replace(i, scale=i.scale * 1.1, max_lines=4) for i in items]
        self._stack(
            canvas,
            items,
            body,
            sizes.body,
            centre=message or isinstance(view, views.ScoreEntryView),
            columns=view.screen == "summary",
        )

    def _colour_bars(self, canvas: _Canvas, box: Box) -> None:
        """The hardware check's test pattern: pure red, green, blue and white."""
        x, y, w, h = box
        colours = ((255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255))
        gap = self._margin(canvas)
        bar = (w - gap * (len(colours) - 1)) / len(colours)
        for index, colour in enumerate(colours):
            rect = pygame.Rect(round(x + index * (bar + gap)), y, round(bar), h - gap)
            pygame.draw.rect(canvas.surface, colour, rect)
            canvas.figures.append(Figure(f"bar-{index}", tuple(rect), "test-pattern"))

    def _pencil_pass_items(self, view: views.PencilPassView, items: list[Item]) -> list[Item]:
        """Puts each pencil's swatch beside its move; the lines come from `Words.page`:
        an introduction, one line per move, then who turns the cards next."""
        palette = self.theme.palette
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

    def _stack(
        self,
        canvas: _Canvas,
        items: list[Item],
        box: Box,
        base: float,
        *,
        centre: bool = False,
        columns: bool = False,
    ) -> None:
        """Items one below the other at the largest size that fits `box`; in two columns
        when allowed and one would need too small a size; cut at the bottom otherwise."""
        sizes = self.theme.sizes
        x, y, w, h = box
        if w <= 0 or h <= 0 or not items:
            return
        start = self._px(canvas, base)
        smallest = self._px(canvas, sizes.smallest)
        readable = self._px(canvas, sizes.small) if columns else smallest
        fit = self._fit_rows(items, w, h, start, readable)
        if (
            fit is None
            and columns
            and len(items) > 1
            and self._two_columns(canvas, items, box, start, smallest)
        ):
            return
        if fit is None:
            fit = self._fit_rows(items, w, h, readable, smallest)
        if fit is None:  # still too much: draw what fits at the smallest size
            rows = self._measure(items, w, smallest)
            kept: list[_Row] = []
            for row in rows:
                if self._total([*kept, row], smallest) > h:
                    break
                kept.append(row)
            fit = (smallest, kept)
        px, rows = fit
        top = y + (h - self._total(rows, px)) // 2 if centre else y
        self._place_rows(canvas, rows, (x, top, w, h), px, centre=centre)

    def _two_columns(
        self, canvas: _Canvas, items: list[Item], box: Box, start: int, floor: int
    ) -> bool:
        """Two columns, broken before a heading (an unindented line) when any size allows,
        so that a heading is never parted from its items; else wherever it fits."""
        x, y, w, h = box
        gap = self._margin(canvas) * 2
        half = (w - gap) // 2
        for at_heading in (True, False):
            for px in range(start, floor - 1, -1):
                rows = self._measure(items, half, px)
                if any(r.fitted.cut for r in rows):
                    continue
                splits = [
                    (max(self._total(rows[:k], px), self._total(rows[k:], px)), k)
                    for k in range(1, len(rows))
                    if not at_heading or not rows[k].item.text.startswith(" ")
                ]
                fitting = [s for s in splits if s[0] <= h]
                if fitting:
                    split = min(fitting)[1]
                    self._place_rows(canvas, rows[:split], (x, y, half, h), px)
                    self._place_rows(canvas, rows[split:], (x + half + gap, y, half, h), px)
                    return True
        return False

    def _list(
        self, canvas: _Canvas, rows: list[Item], extra: list[Item], cursor: int, box: Box
    ) -> None:
        """A list with a cursor: all of it when it fits at a readable size, else a window
        that keeps the cursor in view, with arrows showing there is more."""
        sizes = self.theme.sizes
        x, y, w, h = box
        items = rows + extra
        readable = self._px(canvas, sizes.small)
        fit = self._fit_rows(items, w, h, self._px(canvas, sizes.body), readable)
        if fit is not None:
            self._place_rows(canvas, fit[1], box, fit[0])
            return
        px = readable
        arrow = max(6, round(self.fonts.height(px) * 0.8))
        inner = w - arrow - self._margin(canvas)
        measured = self._measure(rows, inner, px)
        footer = self._measure(extra, w, px)
        room = h - (self._total(footer, px) + self._gap(px) if footer else 0)
        cursor = min(max(cursor, 0), len(measured) - 1)
        first, last = cursor, cursor + 1
        grew = True
        while grew:  # grow the window below, then above, while it fits
            grew = False
            if last < len(measured) and self._total(measured[first : last + 1], px) <= room:
                last += 1
                grew = True
            if first > 0 and self._total(measured[first - 1 : last], px) <= room:
                first -= 1
                grew = True
        self._place_rows(canvas, measured[first:last], (x, y, inner, room), px)
        if footer:
            self._place_rows(canvas, footer, (x, y + h - self._total(footer, px), w, h), px)
        palette = self.theme.palette
        right = x + w - arrow
        if first > 0:
            points = [(right, y + arrow), (right + arrow, y + arrow), (right + arrow / 2, y)]
            pygame.draw.polygon(canvas.surface, palette.dim, points)
            canvas.figures.append(Figure("more-above", (right, y, arrow, arrow), "scroll"))
        if last < len(measured):
            bottom = y + room
            points = [
                (right, bottom - arrow),
                (right + arrow, bottom - arrow),
                (right + arrow / 2, bottom),
            ]
            pygame.draw.polygon(canvas.surface, palette.dim, points)
            canvas.figures.append(
                Figure("more-below", (right, bottom - arrow, arrow, arrow), "scroll")
            )

    def _seed_entry(
        self, canvas: _Canvas, view: views.SeedEntryView, lines: tuple[str, ...], body: Box
    ) -> None:
        """The deal code as a row of boxes, the one being changed highlighted."""
        palette, sizes = self.theme.palette, self.theme.sizes
        x, y, w, h = body
        count = max(1, len(view.characters))
        gap = max(1, round(w * 0.008))
        cell = min(round(h * 0.4), (w - (count - 1) * gap) // count)
        px = max(6, round(cell * 0.7))
        row_w = count * cell + (count - 1) * gap
        left = x + (w - row_w) // 2
        top = y + round(h * 0.12)
        for index, char in enumerate(view.characters):
            rect = pygame.Rect(left + index * (cell + gap), top, cell, round(cell * 1.25))
            here = index == view.cursor
            pygame.draw.rect(
                canvas.surface,
                palette.accent if here else palette.header,
                rect,
                border_radius=max(2, cell // 8),
            )
            shown = char or "·"
            colour = palette.accent_text if here else (palette.text if char else palette.dim)
            fitted = fit_text(shown, px, cell - 2, fonts=self.fonts, max_lines=1, min_size=6)
            canvas.fitted(
                fitted,
                colour,
                (rect.x + 1, rect.centery - fitted.height // 2, cell - 2, fitted.height),
                "code",
                centre=True,
            )
        below = top + round(cell * 1.25) + self._margin(canvas) * 2
        rest = [Item(line, palette.dim) for line in lines[1:]]
        self._stack(canvas, rest, (x, below, w, y + h - below), sizes.body, centre=True)


def _cap_pad(px: int) -> int:
    """Room around a button name on its key cap."""
    return max(2, round(px * 0.3))


def _shrink(box: Box, bottom: int, margin: int) -> Box:
    """`box` cut so that it ends one margin above `bottom` (the top of the legend)."""
    x, y, w, h = box
    return (x, y, w, max(0, min(h, bottom - margin - y)))


def paint(
    view: views.View, surface: pygame.Surface, words: Words, theme: Theme = DEFAULT_THEME
) -> Drawing:
    """One-off drawing; displays keep a `Painter` so fonts and symbols are cached."""
    return Painter(theme).paint(view, surface, words)
