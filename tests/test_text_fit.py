"""The font file's own numbers (issue 35): line measures and advances with no glyph loaded."""

from __future__ import annotations

import re
from pathlib import Path

import pygame
import pytest

from nsdevice import locale
from nsdevice.displays.font_file import LETTERS_KEPT, FontFile
from nsdevice.displays.text_fit import FontBook


@pytest.fixture(scope="module")
def fonts() -> FontBook:
    return FontBook()


def _catalog_texts() -> list[str]:
    """Every message of every language, placeholders and markup left out."""
    folder = Path(locale.__file__).parent
    texts = set()
    for path in [folder / "nsdevice.pot", *folder.glob("*/LC_MESSAGES/*.po")]:
        for found in re.finditer(r'^msg(?:id|str) "(.+)"$', path.read_text("utf-8"), re.M):
            text = found[1].replace('\\"', '"')
            if "{" not in text and "\\" not in text:
                texts.add(text)
    return sorted(texts)


CATALOG = _catalog_texts()


def test_the_font_file_gives_pygame_fonts_line_measures_at_every_size():
    """Metrics are worked out from the file's numbers, no font opened: they must be
    SDL_ttf's at every point size a build may use (a TV's headings included)."""
    fonts = FontBook()
    pygame.font.init()
    wrong = []
    for points in range(1, 401):
        font = pygame.font.Font(fonts._path, points)
        line = fonts._file.line(points)
        theirs = (font.get_height(), font.get_ascent(), font.get_linesize())
        if (line.height, line.ascent, line.linesize) != theirs:
            wrong.append((points, line, theirs))
    assert wrong == []


def test_the_font_file_gives_each_letters_advance_as_freetype_does(fonts):
    """At one pixel a font unit, FreeType's advance of a letter is its advance in the
    file: every letter of every catalog the font draws (the others are drawn as one it
    has: FontBook.readable)."""
    letters = sorted(c for c in set("".join(CATALOG)) if fonts.has_glyph(c) and c.isprintable())
    assert len(letters) > 80
    file = FontFile(fonts._path)
    em = file.units_per_em
    wrong = []
    for letter in letters:
        ((*_, advance, _),) = fonts._face.get_metrics(letter, size=em)
        if file.units(letter) != advance:
            wrong.append((letter, file.units(letter), advance))
    assert wrong == []
    assert file.units("ab") == file.units("a") + file.units("b")


def test_the_letters_looked_up_are_bounded(fonts):
    """A box runs for weeks and players' names may hold any letter: the advances kept
    are capped."""
    file = FontFile(fonts._path)
    for code in range(0x100, 0x100 + LETTERS_KEPT + 10):
        file.units(chr(code))
    assert 0 < len(file._units) <= LETTERS_KEPT
