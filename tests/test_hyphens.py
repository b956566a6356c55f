"""Where a long word breaks (issue 34, item 6): at its language's hyphenation points, only
when it is wider than its line, and never as letters cut anywhere."""

from __future__ import annotations

import pytest

from nsdevice.displays.hyphens import SOFT_HYPHEN, Hyphens
from nsdevice.displays.text_fit import FontBook, fit_text
from nsdevice.locale import LANGUAGES

FONTS = FontBook()
NOTE = "Spezialeffekt: Doppelstation"  # German's special-station note, 19 mm wide at 2.5 mm


def test_each_language_has_its_patterns() -> None:
    hyphens = Hyphens()
    for language in LANGUAGES:
        assert SOFT_HYPHEN in hyphens.hyphenated("Interchanges everywhere", language), language


def test_a_word_wider_than_its_line_breaks_at_a_hyphenation_point() -> None:
    text = Hyphens().hyphenated(NOTE, "de")
    width, px = 150, 27  # the 2-inch turn's note column, at 2.5 mm
    fitted = fit_text(text, px, width, fonts=FONTS, max_lines=3, min_size=px)
    assert not fitted.cut and fitted.size == px
    assert all(FONTS.width(line, px) <= width for line in fitted.lines)
    assert "".join(line.removesuffix("-") for line in fitted.lines).replace(" ", "") == (
        NOTE.replace(" ", "")
    )  # every letter drawn, none twice: only hyphens added at the breaks
    allowed = {piece.replace(SOFT_HYPHEN, "") for piece in _prefixes(text)}
    for line in fitted.lines[:-1]:
        if line.endswith("-"):
            assert line.split()[-1].removesuffix("-") in allowed, fitted.lines
    assert not any(SOFT_HYPHEN in line for line in fitted.lines)


def test_without_hyphenation_points_the_word_is_cut_at_that_size() -> None:
    fitted = fit_text(NOTE, 27, 150, fonts=FONTS, max_lines=3, min_size=27)
    assert fitted.cut and fitted.source == NOTE  # what the fit test reports


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_word_that_fits_is_never_broken(language: str) -> None:
    text = Hyphens().hyphenated("Doppelstation Untergrund", language)
    fitted = fit_text(text, 20, 10_000, fonts=FONTS, max_lines=3, min_size=20)
    assert fitted.lines == ("Doppelstation Untergrund",)


def _prefixes(text: str) -> list[str]:
    """Every piece of each word of `text` up to one of its soft hyphens."""
    pieces = []
    for word in text.split():
        pieces += [word[:index] for index, char in enumerate(word) if char == SOFT_HYPHEN]
    return pieces
