"""The painter's symbols and colours for the phones' page: one source of shapes and colours.

Each symbol is drawn by the same `SymbolBook` the screen uses and saved as PNG; colours
come from the same theme. Plain bytes and strings, so the web side never imports pygame.
"""

from __future__ import annotations

import io

import pygame

from nsdevice.displays.shapes import SHAPES, SymbolBook
from nsdevice.displays.theme import DEFAULT_THEME, Colour, Theme

SYMBOL_SIZE = 192  # pixels: sharp on a phone's card at three device pixels per point


def hex_colour(colour: Colour) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def symbol_pngs(theme: Theme = DEFAULT_THEME, size: int = SYMBOL_SIZE) -> dict[str, bytes]:
    book = SymbolBook()
    palette = theme.palette
    images = {}
    for name in SHAPES:
        buffer = io.BytesIO()
        image = book.image(name, size, palette.symbol_fill, palette.symbol_edge)
        pygame.image.save(image, buffer, "symbol.png")
        images[name] = buffer.getvalue()
    return images


def card_colours(theme: Theme = DEFAULT_THEME) -> dict[str, dict[str, tuple[str, ...]]]:
    return {
        city: {kind: tuple(hex_colour(c) for c in colours) for kind, colours in kinds.items()}
        for city, kinds in theme.cards.items()
    }


def pencil_colours(theme: Theme = DEFAULT_THEME) -> dict[str, str]:
    return {name: hex_colour(colour) for name, colour in theme.pencils.items()}
