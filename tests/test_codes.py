"""QR codes drawn once and kept (displays/codes.py, issue 35): the room caller's turn shows
the page's address on every press; the code is encoded once, drawn module for module as
segno says, and a kept code paints the same picture."""

from __future__ import annotations

import pygame
import pytest
import segno

from nsdevice.displays import codes
from nsdevice.displays.codes import QUIET, CodeBook
from nsdevice.displays.painter import Painter
from nsdevice.gallery import example_views
from nsdevice.hardware.profiles import load_profile
from nsdevice.texts import Words

ADDRESS = "http://192.168.4.1:8414/"


def modules_read_back(image: pygame.Surface, cell: int) -> list[list[bool]]:
    """Each module's colour, read at its centre: True where it is dark."""
    count = image.get_width() // cell
    return [[image.get_at((c * cell + cell // 2, r * cell + cell // 2))[:3] == (0, 0, 0)
             for c in range(count)] for r in range(count)]  # fmt: skip


@pytest.mark.parametrize("cell", [1, 3, 7])
def test_a_code_is_drawn_module_for_module_as_segno_encodes_it(cell):
    book = CodeBook()
    image = book.image(ADDRESS, cell)
    matrix = segno.make(ADDRESS, error="m", boost_error=False).matrix
    side = len(matrix) + 2 * QUIET
    assert book.modules(ADDRESS) == side and image.get_size() == (side * cell, side * cell)
    white = [False] * side
    expected = [white] * QUIET + [
        [False] * QUIET + [bool(bit) for bit in row] + [False] * QUIET for row in matrix
    ] + [white] * QUIET  # fmt: skip
    assert modules_read_back(image, cell) == expected


def paint_caller_turn(painter: Painter) -> tuple[bytes, int]:
    profile = load_profile("tv")
    panel = profile.panel()
    view = panel.placed(dict(example_views("tokyo", "en"))["room-turn"])
    surface = pygame.Surface(profile.display.size())
    drawing = painter.paint(view, surface, Words("en"))
    return pygame.image.tobytes(surface, "RGB"), len(drawing.figures_of("qr"))


def test_the_callers_code_is_encoded_once_and_painted_the_same_from_the_book(monkeypatch):
    made = []
    real = segno.make
    monkeypatch.setattr(segno, "make", lambda *a, **k: made.append(a) or real(*a, **k))
    painter = Painter(diagonal_inches=load_profile("tv").panel().diagonal_inches)
    first = paint_caller_turn(painter)
    again = paint_caller_turn(painter)
    assert len(made) == 1  # the second press's frame took the kept code
    assert first == again and first[1] == 1
    fresh = Painter(diagonal_inches=load_profile("tv").panel().diagonal_inches)
    assert paint_caller_turn(fresh) == first


def test_the_book_keeps_a_bounded_number_of_codes():
    book = CodeBook()
    for number in range(codes.KEPT * 3):
        book.image(f"http://10.0.0.{number}:8414/", 2)
    assert len(book._images) <= codes.KEPT and len(book._matrices) <= codes.KEPT
