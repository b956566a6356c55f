"""The painter's symbols and colours for the phones' page: one source of shapes and colours.

Each symbol is drawn by the same `SymbolBook` the screen uses and written as PNG; colours
come from the same theme. Plain bytes and strings, so the web side never imports pygame.
"""

from __future__ import annotations

import struct
import sys
import zlib

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
        images[name] = png(book.image(name, size, palette.symbol_fill, palette.symbol_edge))
    return images


def png(image: pygame.Surface) -> bytes:
    """`image` as an RGBA PNG, written here: pygame's own writer loads SDL_image and
    libpng for these few pictures, 0.7 MB of the box's memory (issue 23)."""
    width, height = image.get_size()
    pixels = rgba(image)
    stride = width * 4
    rows = b"".join(b"\0" + pixels[row : row + stride] for row in range(0, len(pixels), stride))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8 bits, RGBA
    chunks = ((b"IHDR", header), (b"IDAT", zlib.compress(rows, 9)), (b"IEND", b""))
    return b"\x89PNG\r\n\x1a\n" + b"".join(
        struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        for kind, data in chunks
    )


def rgba(image: pygame.Surface) -> bytes:
    """A 32-bit surface's pixels as R, G, B, A bytes, row after row: what
    `pygame.image.tobytes(image, "RGBA")` gives, read from the surface's own buffer, since
    `pygame.image` loads SDL_image and its codec libraries as it starts (issue 35: 0.8 MB
    of the box's memory, for nothing the box reads or writes)."""
    width, height = image.get_size()
    if image.get_bytesize() != 4 or image.get_pitch() != width * 4:
        raise ValueError("rgba() reads 32-bit surfaces without padding")
    raw = image.get_buffer().raw
    pixels = bytearray(len(raw))
    _, _, _, alpha_mask = image.get_masks()
    for channel, shift in enumerate(image.get_shifts()):
        if channel == 3 and not alpha_mask:
            pixels[3::4] = b"\xff" * (width * height)  # no alpha: opaque, as tobytes says
            continue
        at = shift // 8 if sys.byteorder == "little" else 3 - shift // 8
        pixels[channel::4] = raw[at::4]
    return bytes(pixels)


def card_colours(theme: Theme = DEFAULT_THEME) -> dict[str, dict[str, tuple[str, ...]]]:
    return {
        city: {kind: tuple(hex_colour(c) for c in colours) for kind, colours in kinds.items()}
        for city, kinds in theme.cards.items()
    }


def pencil_colours(theme: Theme = DEFAULT_THEME) -> dict[str, str]:
    return {name: hex_colour(colour) for name, colour in theme.pencils.items()}
