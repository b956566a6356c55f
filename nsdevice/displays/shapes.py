"""The card symbols as shapes: square, circle, triangle, pentagon and the special cards.

Each shape is drawn white with a dark rim on a scratch surface three times too big and
scaled down (`SymbolBook`), which gives smooth edges without anti-aliased polygons.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import pygame

from nsdevice.displays.drawing import Point
from nsdevice.displays.theme import Colour
from nsdevice.rules.cards import StationCard


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
    for side in (outer.left, outer.right):
        pygame.draw.circle(image, edge, (side, middle), notch + rim)
        pygame.draw.circle(image, (0, 0, 0, 0), (side, middle), notch)
    # the notches' rims were also painted outside the ticket: clear that again
    image.fill((0, 0, 0, 0), pygame.Rect(0, 0, outer.left, s))
    image.fill((0, 0, 0, 0), pygame.Rect(outer.right, 0, s, s))
    inner_left, inner_right = outer.left + notch + rim * 1.5, outer.right - notch - rim * 1.5
    dash = (inner_right - inner_left) / 5
    for k in range(0, 5, 2):
        start = inner_left + dash * k + dash * 0.2
        _stroke(image, (start, middle), (start + dash * 0.6, middle), rim * 0.8, edge)
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


# The pencil powers' own icons (L-PP) beside the card shapes the other two borrow (joker,
# switch). Not drawn with every card shape at a card's size: they are small icons only.
def _shape_repeat(image: pygame.Surface, s: int, rim: float, fill: Colour, edge: Colour) -> None:
    """An arrow going round once more: draw a second section."""
    width = s * 0.13
    radius = s * 0.32
    centre = (s / 2, s * 0.54)
    steps = 14
    start, end = math.radians(-60), math.radians(230)  # clockwise on the screen, open at the top
    arc = [
        (centre[0] + radius * math.cos(start + (end - start) * k / steps),
         centre[1] + radius * math.sin(start + (end - start) * k / steps))
        for k in range(steps + 1)
    ]  # fmt: skip
    tip_angle = start - 0.35  # the head points on round the circle, past the arc's start
    tip = (centre[0] + radius * math.cos(tip_angle), centre[1] + radius * math.sin(tip_angle))
    ux, uy = math.sin(start), -math.cos(start)  # the tangent at the start, against the arc
    spread = width * 1.5
    base = arc[0]
    head = [
        (tip[0] + ux * width * 0.6, tip[1] + uy * width * 0.6),
        (base[0] - uy * spread, base[1] + ux * spread),
        (base[0] + uy * spread, base[1] - ux * spread),
    ]
    for colour, grow in ((edge, rim), (fill, 0.0)):  # the rim first, the white on top
        for a, b in itertools.pairwise(arc):
            _stroke(image, a, b, width + 2 * grow, colour)
        pygame.draw.polygon(image, colour, _inset(head, -grow) if grow else head)


def _shape_double(image: pygame.Surface, s: int, rim: float, fill: Colour, edge: Colour) -> None:
    """A station circled: it counts twice."""
    middle = (s / 2, s / 2)
    pygame.draw.circle(image, edge, middle, s * 0.48)
    pygame.draw.circle(image, fill, middle, s * 0.48 - rim)
    pygame.draw.circle(image, edge, middle, s * 0.34)
    pygame.draw.circle(image, fill, middle, s * 0.22)
    pygame.draw.circle(image, edge, middle, s * 0.22 - rim, width=max(1, round(rim)))


POWER_SHAPES = {"repeat": _shape_repeat, "double": _shape_double}


def symbol_name(card: StationCard) -> str:
    """Which shape stands for a card's face."""
    if card.symbol is not None:
        return card.symbol.value
    assert card.special is not None
    return card.special.value


CARD_SYMBOL = 48  # pixels: a symbol this big is a card's, not an icon in a list


class SymbolBook:
    """Symbol images by name, size and colours, each drawn once: cards repeat."""

    def __init__(self) -> None:
        self._images: dict[tuple[str, int, Colour, Colour], pygame.Surface] = {}

    def image(self, name: str, size: int, fill: Colour, edge: Colour) -> pygame.Surface:
        """A symbol drawn at three times the size and scaled down: smooth edges without
        anti-aliased polygon drawing."""
        key = (name, size, fill, edge)
        image = self._images.get(key)
        if image is None:
            # A card's size: every symbol at once. The next cards will want them, and a
            # reveal should not pay for drawing its card (a few million instructions on a
            # Pi Zero 2 W); the first card at a size pays for them all.
            shapes = (*SHAPES, name) if size >= CARD_SYMBOL else (name,)  # a power: its own
            for shape in shapes:
                if (shape, size, fill, edge) not in self._images:
                    self._images[(shape, size, fill, edge)] = _drawn(shape, size, fill, edge)
            image = self._images[key]
        return image


def _drawn(name: str, size: int, fill: Colour, edge: Colour) -> pygame.Surface:
    factor = 3 if size < 240 else 2
    big = size * factor
    work = pygame.Surface((big, big), pygame.SRCALPHA)
    rim = max(1.5 * factor, big * 0.075)
    (SHAPES.get(name) or POWER_SHAPES[name])(work, big, rim, fill, edge)
    return pygame.transform.smoothscale(work, (size, size))
