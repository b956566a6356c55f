"""The figures a screen is made of, drawn on a canvas: symbols, station cards, pencils.

Each call notes what it drew in the canvas (a `Figure` with its tight rectangle), so
that tests can check sizes and overlaps.
"""

from __future__ import annotations

import pygame

from nsdevice.displays.canvas import PENCILS_KEPT, Canvas
from nsdevice.displays.drawing import Box, Figure, Placed, Point
from nsdevice.displays.shapes import symbol_name
from nsdevice.displays.text_fit import fit_text
from nsdevice.displays.theme import Colour
from nsdevice.rules.cards import StationCard


def symbol(canvas: Canvas, name: str, centre: Point, size: int, role: str) -> Figure:
    palette = canvas.theme.palette
    size = max(4, size)
    image = canvas.symbols.image(name, size, palette.symbol_fill, palette.symbol_edge)
    left, top = round(centre[0] - size / 2), round(centre[1] - size / 2)
    canvas.surface.blit(image, (left, top))
    tight = image.get_bounding_rect()
    figure = Figure(name, (left + tight.x, top + tight.y, tight.width, tight.height), role)
    canvas.figures.append(figure)
    return figure


def power(canvas: Canvas, name: str, centre: Point, size: int) -> None:
    """A pencil power's icon in its ring (L-PP): the ring tells it from a station's symbol."""
    pygame.draw.circle(canvas.surface, canvas.theme.palette.power_ring, centre, size / 2)
    symbol(canvas, name, centre, round(size * 0.8), "power")


def pencil(canvas: Canvas, colour: str, rect: pygame.Rect) -> None:
    """A pencil lying left to right: painted body, bare wood, coloured lead."""
    palette = canvas.theme.palette
    paint = canvas.theme.pencil(colour)
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
    box = (rect.x, rect.y, rect.width, rect.height)
    canvas.figures.append(Figure(f"pencil-{colour}", box, "pencil"))


def pencil_turned(canvas: Canvas, colour: str, rect: pygame.Rect, degrees: int) -> None:
    """A pencil filling `rect` with its tip turned `degrees` (a multiple of 90) clockwise
    from pointing right: as each seat round a table holds it."""
    if degrees % 360 == 0:
        pencil(canvas, colour, rect)
        return
    upright = degrees % 180 == 90
    size = (rect.height, rect.width) if upright else rect.size
    # drawn aside and turned once per colour, size and turn, then blended from the
    # painter's `pencils` (a round's start and pencil pass turn three or four)
    key = (colour, size, degrees, canvas.theme.pencil(colour), canvas.theme.palette)
    turned = canvas.pencils.get(key)
    if turned is None:
        scratch = Canvas(pygame.Surface(size, pygame.SRCALPHA), canvas.theme, canvas.fonts,
                         canvas.symbols)  # fmt: skip
        pencil(scratch, colour, pygame.Rect((0, 0), size))
        turned = pygame.transform.rotate(scratch.surface, -degrees)
        if len(canvas.pencils) >= PENCILS_KEPT:
            canvas.pencils.clear()
        canvas.pencils[key] = turned
    canvas.surface.blit(turned, rect.topleft)
    box = (rect.x, rect.y, rect.width, rect.height)
    canvas.figures.append(Figure(f"pencil-{colour}", box, "pencil"))


def card(
    canvas: Canvas,
    card: StationCard,
    city: str,
    rect: pygame.Rect,
    *,
    label: str | None,
    role: str,
    symbol_size: int | None = None,
    label_size: int | None = None,
    narrowest: float = 1.0,
) -> Figure:
    """A station card in its kind's colours, the symbol in the middle and, when
    `label` is given, the kind written at the bottom (colour alone is not enough).
    `narrowest`: a label wider than the card may be drawn as narrow as this share of its
    width, its capitals as tall, before its size gives way."""
    palette = canvas.theme.palette
    colours = canvas.theme.card_colours(city, card.kind.value)
    radius = max(2, round(min(rect.size) * 0.08))
    if len(colours) == 1:
        pygame.draw.rect(canvas.surface, colours[0], rect, border_radius=radius)
    else:  # underground cards are two-coloured: the top half and the bottom half
        half = rect.height // 2
        halves = (  # each half rounded only at the card's own corners
            (pygame.Rect(rect.x, rect.y, rect.width, half), colours[0], radius, 0),
            (
                pygame.Rect(rect.x, rect.y + half, rect.width, rect.height - half),
                colours[1],
                0,
                radius,
            ),
        )
        for part, colour, upper, lower in halves:
            pygame.draw.rect(
                canvas.surface,
                colour,
                part,
                border_top_left_radius=upper,
                border_top_right_radius=upper,
                border_bottom_left_radius=lower,
                border_bottom_right_radius=lower,
            )
    edge = max(1, round(rect.height * 0.012))
    pygame.draw.rect(canvas.surface, palette.card_edge, rect, width=edge, border_radius=radius)
    area = rect.inflate(-2 * edge, -2 * edge)
    room = area.width - 2 * edge
    wide = canvas.fonts.width(label, label_size) if label and label_size else 0
    if label and label_size and room < wide <= room / narrowest:
        height = canvas.fonts.height(label_size)
        strip = height + 2 * edge
        at = (area.x + edge, area.bottom - strip + edge)
        narrowed(canvas, label, label_size, palette.card_text, (*at, room, height), "card-label")
        area.height -= strip
    elif label:
        px = label_size or max(6, round(rect.height * 0.1))
        fitted = fit_text(
            label,
            px,
            area.width - 2 * edge,
            fonts=canvas.fonts,
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
    return symbol(canvas, symbol_name(card), area.center, round(size), role)


def narrowed(canvas: Canvas, text: str, px: int, colour: Colour, box: Box, role: str) -> None:
    """One line of text at `px`, narrowed to `box`'s width (its capitals as tall: a word
    that reads at its size, the card's kind, rather than a smaller one)."""
    x, y, w, h = box
    scratch = pygame.Surface((canvas.fonts.width(text, px), h), pygame.SRCALPHA)
    canvas.fonts.draw(scratch, text, px, colour, (0, 0))
    canvas.surface.blit(pygame.transform.smoothscale(scratch, (w, h)), (x, y))
    canvas.texts.append(Placed(text, box, role))


def corner(canvas: Canvas, name: str, rect: pygame.Rect) -> None:
    """A map's outline with one corner filled: which corner a city gate stands at (P-CG-1),
    the same in every language."""
    palette = canvas.theme.palette
    side = min(rect.width, rect.height) - 2
    box = pygame.Rect(rect.x + 1, rect.y + (rect.height - side) // 2, side, side)
    quarter = pygame.Rect(box.x, box.y, box.width // 2, box.height // 2)
    if name[1] == "e":
        quarter.x = box.right - quarter.width
    if name[0] == "s":
        quarter.y = box.bottom - quarter.height
    pygame.draw.rect(canvas.surface, palette.accent, quarter)
    pygame.draw.rect(canvas.surface, palette.text, box, width=max(1, side // 10))
    canvas.figures.append(Figure(f"corner-{name}", (box.x, box.y, side, side), "corner"))


def dim(canvas: Canvas, rect: pygame.Rect) -> None:
    """Greys out a card that does nothing this turn."""
    veil = pygame.Surface(rect.size, pygame.SRCALPHA)
    veil.fill((*canvas.theme.palette.background, 150))
    canvas.surface.blit(veil, rect.topleft)


def pips(
    canvas: Canvas, city: str, seen: int, total: int, left: float, middle: float, pip: int,
    gap: int,
) -> None:
    """The underground cards counted so far as a row of dots (C-4): filled in the city's
    underground colour for each one seen, rings for the rest; `middle` is the row's centre."""
    theme = canvas.theme
    palette = theme.palette
    colour = theme.card_colours(city, "underground")[0]
    for k in range(total):
        centre = (left + pip / 2 + k * (pip + gap), middle)
        if k < seen:
            pygame.draw.circle(canvas.surface, colour, centre, pip / 2)
            pygame.draw.circle(
                canvas.surface, palette.card_edge, centre, pip / 2, width=max(1, pip // 10)
            )
        else:
            pygame.draw.circle(
                canvas.surface, palette.pip_empty, centre, pip / 2, width=max(2, pip // 6)
            )
    row = total * pip + (total - 1) * gap
    box = (round(left), round(middle - pip / 2), row, pip)
    canvas.figures.append(Figure("pips", box, "pips"))
