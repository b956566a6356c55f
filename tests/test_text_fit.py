"""The font file's own numbers (issue 35): line measures, advances and a fit's size guessed
with no glyph loaded; the guess never changes a size."""

from __future__ import annotations

import itertools
import math
import re
from pathlib import Path

import pygame
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nsdevice import locale
from nsdevice.displays import text_fit
from nsdevice.displays.font_file import LETTERS_KEPT, FontFile
from nsdevice.displays.hyphens import SOFT_HYPHEN
from nsdevice.displays.layouts.stack import ROWS_KEPT, Item, fit_rows, measure, total
from nsdevice.displays.text_fit import WIDTHS_KEPT, FontBook

WHITE = (255, 255, 255)


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


def _walked_down(fonts, items, width, height, start, floor):  # type: ignore[no-untyped-def]
    """The exhaustive search: each size from `start` down, the first at which FreeType's
    widths fit every item uncut."""
    for px in range(start, floor - 1, -1):
        rows = measure(fonts, items, width, px)
        if total(rows, px) <= height and not any(r.fitted.cut for r in rows):
            return px, rows
    return None


def test_a_guess_is_close_to_freetypes_lines(fonts):
    """The guess is only a guess, but a close one: the lines it finds are FreeType's for
    nearly every catalog text at the turn notes' sizes (else every fit measures more)."""
    same = tried = 0
    for text in CATALOG[::7]:
        for px, width in ((19, 154), (25, 154), (32, 300)):
            fitted = text_fit.fit_text(text, px, width, fonts=fonts, max_lines=9, min_size=px)
            if fitted.cut:
                continue
            tried += 1
            same += fonts.guessed_lines(text, px, width) == len(fitted.lines)
    assert tried > 300
    assert same / tried > 0.9


def test_fit_rows_measures_only_the_size_it_lands_on_and_the_one_above(fonts, monkeypatch):
    """The joker's notes on the 2-inch turn, at sizes no screen met before: FreeType
    measures the size the fit lands on and the one above it, not each size a halving
    tries (issue 35: five sizes, 12 M instructions on the Zero 2 W)."""
    book = FontBook()
    measured: set[int] = set()
    original = FontBook._width

    def counted(self: FontBook, text: str, px: int) -> int:
        if self is book:
            measured.add(px)
        return original(self, text, px)

    monkeypatch.setattr(FontBook, "_width", counted)
    items = (Item("Joker", WHITE), Item("Any symbol, double track allowed", WHITE, max_lines=4))
    found = fit_rows(book, items, 154, 200, 32, 18)
    assert found is not None
    assert found == _walked_down(fonts, items, 154, 200, 32, 18)
    assert found[0] < 31  # a size below the start, found by the guess
    assert measured == {found[0], found[0] + 1}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    texts=st.lists(st.sampled_from(CATALOG), min_size=1, max_size=3),
    lines=st.integers(1, 4),
    width=st.integers(30, 320),
    height=st.integers(10, 240),
    start=st.integers(8, 48),
    span=st.integers(0, 30),
    guess_first=st.booleans(),
)
def test_fit_rows_lands_where_the_exhaustive_search_lands(
    texts, lines, width, height, start, span, guess_first
):
    """Guessing first (or measuring the start first, then guessing below it) changes
    what is measured, never the size chosen: the exhaustive walk down from the start
    lands on the same size and the same rows."""
    items = [Item(text, WHITE, max_lines=lines) for text in texts]
    floor = max(1, start - span)
    found = fit_rows(FontBook(), items, width, height, start, floor, guess_first=guess_first)
    assert found == _walked_down(FontBook(), items, width, height, start, floor)


def test_the_guesses_and_fits_kept_are_bounded():
    """A box runs for weeks: the words guessed and the fits kept are capped."""
    fonts = FontBook()
    for n in range(WIDTHS_KEPT + 10):
        fonts.guessed_lines(f"word {n}", 20, 100)
    assert 0 < len(fonts._words) <= WIDTHS_KEPT
    for n in range(ROWS_KEPT + 10):
        fit_rows(fonts, [Item(f"note {n}", WHITE)], 100, 40, 14, 10)
    assert 0 < len(fonts.kept) <= ROWS_KEPT


def test_a_kept_fit_is_the_fit_and_its_rows_are_the_callers(fonts):
    """The second paint of the same notes gets the same answer, and changing the list it
    gets changes nothing kept."""
    items = (Item("Joker", WHITE), Item("Any symbol, double track allowed", WHITE, max_lines=4))
    first = fit_rows(fonts, items, 154, 200, 32, 18)
    assert first is not None
    first[1].clear()
    assert fit_rows(fonts, items, 154, 200, 32, 18) == _walked_down(fonts, items, 154, 200, 32, 18)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([*"aé×\u00ad ’", "\u2126", "\u1e68", "\u0301", "ǅ", "中", "→"])))
def test_a_text_of_letters_drawn_as_they_are_is_read_as_it_is(letters):
    """Letters met before that the font draws as they are let a text skip the letter by
    letter look (issue 35: a soft hyphen made every line of a note one); the answer is
    the same as that look's, letter by letter."""
    fonts = FontBook()
    fonts.readable("aé×\u00ad ’")  # met before: drawn as they are
    text = "".join(letters)
    assert fonts.readable(text) == "".join(fonts._nearest(char) for char in text)


def test_every_printable_ascii_letter_is_in_the_font(fonts):
    """`readable` takes printable ASCII as drawn without asking the face: it must be."""
    assert all(fonts.has_glyph(chr(code)) for code in range(0x20, 0x7F))


def test_every_letter_of_the_font_keeps_to_the_bounds_wider_relies_on(fonts):
    """`FontBook.wider` says a text is not too wide from the file's advances alone: sound
    only if, at every size up to BOUNDED_POINTS, every glyph's hinted advance exceeds its
    outline's by at most HINTED_EXCESS and its ink reaches past its advance by at most
    INK_OUTSIDE of the size and a pixel, on either side (and no advance is negative).
    `FontBook.narrowest` says a text is too wide: sound only if no hinted advance falls
    short of its outline's by more than HINTED_SHORTFALL."""
    file = fonts._file
    letters = file.letters()
    assert len(letters) > 500
    outside = []
    for points in range(1, text_fit.BOUNDED_POINTS + 1):
        scale = points / file.units_per_em
        ink = points * text_fit.INK_OUTSIDE + 1
        found = fonts._face.get_metrics("".join(letters), size=points)
        for letter, metrics in zip(letters, found, strict=True):
            if metrics is None:  # the face's own answer for a letter it has no glyph for
                continue
            left, right, _, _, advance, _ = metrics
            excess = advance - file.units(letter) * scale
            if excess > text_fit.HINTED_EXCESS or -left > ink or right - advance > ink:
                outside.append((points, letter, excess, left, right, advance))
            if -excess > text_fit.HINTED_SHORTFALL:
                outside.append((points, letter, excess))
            if advance < 0:
                outside.append((points, letter, advance))
    assert outside == []


@settings(max_examples=300, deadline=None)
@given(
    text=st.sampled_from(CATALOG),
    px=st.integers(4, 200),
    width=st.integers(1, 400),
    cut=st.integers(0, 60),
)
def test_wider_answers_as_measuring_does(fonts, text, px, width, cut):
    """Whether a word or a text is wider than a width: the same answer as FreeType's
    width, whether the bound answered or the face measured."""
    text = text[:cut] or text
    assert fonts.wider(text, px, width) == (fonts.width(text, px) > width)


@settings(max_examples=300, deadline=None)
@given(text=st.sampled_from(CATALOG), px=st.integers(1, 200), more=st.integers(0, 60))
def test_narrowest_is_never_wider_than_the_text_on_one_line_and_grows(fonts, text, px, more):
    """A text on one line, its words joined as wrapping joins them, is never narrower
    than `narrowest` says (no glyph loaded), at a size or any size above it that the
    bound holds for (where it does not, it says 0)."""
    least = fonts.narrowest(text, px)
    joined = " ".join(text_fit.BREAKS.split(text.strip()))
    assert least <= fonts.width(joined, px) and least <= fonts.width(text, px)
    above = fonts.narrowest(text, px + more)
    assert above >= least or above == 0


def test_narrowest_knows_a_note_takes_two_lines_in_a_narrow_column(fonts):
    """What the bound is for: the joker's rule is far wider than the 2-inch turn's notes
    column even at its least size (small_turn._least_height)."""
    assert fonts.narrowest("Any symbol, double track allowed", 19) > 154
    assert fonts.narrowest("Joker", 19) < 154
    assert fonts.narrowest("→", 19) == 0  # an arrow drawn here: no bound


def test_wider_loads_no_glyph_for_a_short_word_in_a_wide_column(monkeypatch):
    """The point of `wider`: a word far narrower than its column is not measured."""
    fonts = FontBook()

    def measured(self: FontBook, text: str, px: int) -> int:
        raise AssertionError(f"measured {text!r} at {px}")

    monkeypatch.setattr(FontBook, "_width", measured)
    assert not fonts.wider("allowed", 32, 154)
    assert not fonts.wider("Doppel\u00adstation", 19, 300)


@settings(max_examples=200, deadline=None)
@given(
    text=st.sampled_from(CATALOG),
    px=st.integers(6, 40),
    width=st.integers(20, 320),
    lines=st.integers(1, 4),
)
def test_fit_whole_is_fit_text_when_nothing_is_cut(text, px, width, lines):
    """A size only tried asks `fit_whole`: fit_text's own answer when every word stays
    whole, None when it would cut, and then no cut is worked out at all."""
    fonts = FontBook()
    whole = text_fit.fit_whole(text, px, width, fonts=fonts, max_lines=lines, min_size=px)
    fitted = text_fit.fit_text(text, px, width, fonts=FontBook(), max_lines=lines, min_size=px)
    assert whole == (None if fitted.cut else fitted)


def test_fit_whole_works_out_no_cut(monkeypatch):
    def cut(*_: object) -> None:
        raise AssertionError("a cut worked out")

    monkeypatch.setattr(text_fit, "_cut_to_fit", cut)
    fonts = FontBook()
    long = "Any symbol, double track allowed"
    assert text_fit.fit_whole(long, 32, 60, fonts=fonts, max_lines=2, min_size=32) is None


def test_size_for_cap_is_the_walk_up_from_the_capitals_height():
    """size_for_cap starts where a size already met says the capitals scale to: it must
    find the size the walk up from the capitals' own height finds, for every height
    (fresh font books, and one that met other sizes first), and a capital's height never
    shrinks as the size grows (what starting mid-way relies on)."""
    fonts = FontBook()
    caps = [fonts.cap(px) for px in range(1, 301)]
    assert all(a <= b for a, b in itertools.pairwise(caps))

    def walked(cap: float) -> int:
        px = max(1, math.ceil(cap))
        while fonts.cap(px) < cap:
            px += 1
        return px

    for first in (None, 12, 40):
        book = FontBook()
        if first is not None:
            book.cap(first)
        wrong = [cap / 4 for cap in range(1, 600) if book.size_for_cap(cap / 4) != walked(cap / 4)]
        assert wrong == []


@settings(max_examples=120, deadline=None)
@given(text=st.sampled_from([t for t in CATALOG if t.isascii()]), px=st.integers(6, 60))
def test_an_ascii_text_is_measured_and_drawn_as_the_letter_by_letter_look_does(fonts, text, px):
    """ASCII text skips the look for letters drawn otherwise (issue 35: about 0.1 M
    instructions on a round's end): a soft hyphen, drawn as nothing, sends the same text
    down that look; the width, the box and every pixel are the same."""
    plain = pygame.Surface((900, 80))
    looked = pygame.Surface((900, 80))
    box = fonts.draw(plain, text, px, WHITE, (3, 2))
    assert fonts.draw(looked, text + SOFT_HYPHEN, px, WHITE, (3, 2)) == box
    assert fonts.width(text, px) == fonts.width(text + SOFT_HYPHEN, px) == box[2]
    assert pygame.image.tobytes(plain, "RGB") == pygame.image.tobytes(looked, "RGB")


# Draws texts of every language's letters at many sizes with the font book, in a process
# of its own, and prints a digest of the pixels and boxes and whether harfbuzz is mapped.
GLYPHS = """
import hashlib, sys
import nsdevice.displays
import pygame
if sys.argv[1] == "with-sdl-ttf":
    pygame.font.init()  # SDL_ttf, and the harfbuzz it brings, which FreeType then uses
from nsdevice.displays.text_fit import FontBook
fonts = FontBook()
digest = hashlib.sha256()
texts = ["Next Station 12345", "Überbahnhof – Gare du Nord", "ÀÉÎÕÜ àéîõü ß ñ ç ł",
         "Joker ★ ×2 · «Métro» „Bahn“", "Runde 3/4: Spieler 2 ist dran", "ÆØÅ ĳ œ ſ ﬁ"]
for px in range(6, 90, 3):
    for text in texts:
        surface = pygame.Surface((1200, 2 * px), pygame.SRCALPHA)
        box = fonts.draw(surface, text, px, (255, 255, 255), (1, 1))
        digest.update(surface.get_buffer().raw + repr(tuple(box)).encode())
mapped = "harfbuzz" in open("/proc/self/maps").read()
print(digest.hexdigest(), "harfbuzz" if mapped else "no harfbuzz")
"""


def test_glyphs_are_the_same_with_or_without_sdl_ttfs_harfbuzz():
    """Issue 35: the font book draws with FreeType alone, pygame.font (SDL_ttf) not loaded,
    so SDL_ttf's own harfbuzz is not there for FreeType's autohinter to use (1.3 MB of the
    box's memory); FreeType then uses the system's harfbuzz, or none (the box's image has
    none). The pixels and boxes must be those drawn with SDL_ttf's harfbuzz in use."""
    import subprocess
    import sys

    def drawn(how: str) -> list[str]:
        done = subprocess.run(
            [sys.executable, "-c", GLYPHS, how], capture_output=True, text=True, check=True,
            timeout=120, env={**__import__("os").environ, "SDL_VIDEODRIVER": "dummy"},
        )  # fmt: skip
        return done.stdout.strip().split(maxsplit=1)

    with_sdl_ttf, alone = drawn("with-sdl-ttf"), drawn("alone")
    assert with_sdl_ttf[1] == "harfbuzz"  # SDL_ttf's, in use
    assert alone[0] == with_sdl_ttf[0]
