"""The phones' symbols as the box writes them (displays/artwork.py): the same pixels as
pygame's own reader gives, without loading pygame.image (issue 35: SDL_image and its
codec libraries, 0.8 MB of the box's memory)."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pygame
import pytest

from nsdevice.displays.artwork import SYMBOL_SIZE, png, rgba
from nsdevice.displays.shapes import SHAPES, SymbolBook
from nsdevice.displays.theme import DEFAULT_THEME

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_a_symbols_pixels_are_pygames_own_rgba(name: str) -> None:
    import pygame.image

    palette = DEFAULT_THEME.palette
    image = SymbolBook().image(name, SYMBOL_SIZE, palette.symbol_fill, palette.symbol_edge)
    assert rgba(image) == pygame.image.tobytes(image, "RGBA")


@pytest.mark.parametrize("alpha", [True, False])
def test_every_channel_lands_in_its_place_with_or_without_alpha(alpha: bool) -> None:
    import pygame.image

    image = pygame.Surface((3, 2), pygame.SRCALPHA if alpha else 0, 32)
    colours = [(255, 0, 0, 10), (0, 255, 0, 20), (0, 0, 255, 30), (1, 2, 3, 40),
               (250, 251, 252, 255), (7, 8, 9, 0)]  # fmt: skip
    for at, colour in enumerate(colours):
        image.set_at((at % 3, at // 3), colour)
    assert rgba(image) == pygame.image.tobytes(image, "RGBA")


def test_the_png_holds_those_pixels() -> None:
    image = pygame.Surface((4, 3), pygame.SRCALPHA, 32)
    image.fill((10, 20, 30, 40))
    data = png(image)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", data[16:24])
    at = data.index(b"IDAT")
    length = struct.unpack(">I", data[at - 4 : at])[0]
    rows = zlib.decompress(data[at + 4 : at + 4 + length])
    assert (width, height) == (4, 3) and rows == (b"\0" + bytes([10, 20, 30, 40]) * 4) * 3


def test_the_box_draws_the_phones_symbols_without_pygame_image() -> None:
    code = (
        "import sys\n"
        "from nsdevice.displays.artwork import symbol_pngs\n"
        "pngs = symbol_pngs()\n"
        "print(len(pngs), 'pygame.image' in sys.modules,"
        " 'SDL2_image' in open('/proc/self/maps').read())\n"
    )
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(len(SHAPES)), "False", "False"]
