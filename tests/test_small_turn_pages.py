"""The 2-inch turn's notes in pages (issue 35): a turn is drawn with its first page of notes
laid out, and the pages after it only when they are shown; what is drawn, and how many
pages there are, is what laying out every page finds."""

from __future__ import annotations

import pygame
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_text_fit import CATALOG

from nsdevice import views
from nsdevice.displays.layouts import small_turn
from nsdevice.displays.layouts.small_turn import NOTE_SECONDS
from nsdevice.displays.layouts.stack import Item, _row
from nsdevice.displays.painter import Painter
from nsdevice.displays.text_fit import FontBook, fit_text, fit_whole
from nsdevice.gallery import example_views
from nsdevice.hardware.profiles import load_profile
from nsdevice.locale import LANGUAGES
from nsdevice.texts import Words

CITIES = ("tokyo", "paris", "london")
PROFILE = load_profile("display-hat-mini")
WHITE = (255, 255, 255)


@pytest.fixture(scope="module")
def fonts() -> FontBook:
    return FontBook()


def _painter() -> Painter:
    return Painter(diagonal_inches=PROFILE.panel().diagonal_inches)


def _turns(city: str, language: str) -> list[tuple[str, views.View]]:
    panel = PROFILE.panel()
    return [
        (name, panel.placed(view))
        for name, view in example_views(city, language)
        if isinstance(view, views.TurnView)
    ]


@pytest.mark.parametrize("city", CITIES)
def test_a_turns_first_page_is_drawn_as_when_every_page_is_laid_out(city):
    """Every turn of the gallery in every language: the first page drawn by a painter
    that laid out only it is the first page of a painter that laid out every page, pixel
    for pixel and word for word; the count it knows is never more than the real one, and
    the pages' count a caller asks for is the real one."""
    size = PROFILE.display.size()
    partly = 0
    for language in LANGUAGES:
        words = Words(language)
        for name, view in _turns(city, language):
            first, every = _painter(), _painter()
            shown, whole = pygame.Surface(size), pygame.Surface(size)
            drawn = first.paint(view, shown, words)
            partly += any(kept[1] is not None for kept in first.notes.values())  # type: ignore[index]
            laid_out = every.paint(view, whole, words, every_page=True)
            assert pygame.image.tobytes(shown, "RGB") == pygame.image.tobytes(whole, "RGB"), name
            assert drawn.texts == laid_out.texts, name
            pages = len(every.page_seconds(view, whole)) or 1
            assert (len(first.page_seconds(view, shown)) or 1) == pages, name
            seconds = first.shown_seconds(view, shown, 0)
            assert seconds == (NOTE_SECONDS if pages > 1 else None), name
    assert partly > 0  # some turns were drawn knowing only that more pages follow


def test_the_first_page_lays_out_no_note_of_the_pages_after_it(monkeypatch):
    """A joker's turn with the round's pairing as a reminder, on a page of its own: the
    reminder is never fitted while the joker's page is shown (on the Zero 2 W, a page not
    shown cost a tap two sizes measured, 1.3 M instructions). It is when its page is
    shown, and the pages still take turns as before."""
    fitted: list[str] = []
    original = small_turn.fit_rows

    def recorded(fonts, items, *args, **kwargs):  # type: ignore[no-untyped-def]
        fitted.extend(item.role for item in items)
        return original(fonts, items, *args, **kwargs)

    monkeypatch.setattr(small_turn, "fit_rows", recorded)
    words = Words("en")
    view = dict(_turns("london", "en"))["turn-joker"]
    painter, surface = _painter(), pygame.Surface(PROFILE.display.size())
    first = painter.paint(view, surface, words).texts
    assert painter.shown_seconds(view, surface, 0) == NOTE_SECONDS
    assert {"face", "joker"} <= set(fitted) and "pairing" not in fitted
    assert not any(t.role == "pairing" for t in first)
    second = painter.paint(view, surface, words, 1).texts
    assert "pairing" in fitted and any(t.role == "pairing" for t in second)
    assert painter.shown_seconds(view, surface, 1) == NOTE_SECONDS
    assert len(painter.page_seconds(view, surface)) == 2
    assert painter.paint(view, surface, words).texts == first


def test_note_pages_laid_out_in_part_are_kept_and_completed_once(monkeypatch):
    """The painter keeps the pages laid out so far and the group the next starts with;
    asking for a later page lays out the rest from there, once (the groups before it are
    not hyphenated or fitted again), and the first page is then the same one."""
    words = Words("en")
    view = dict(_turns("london", "en"))["turn-joker"]
    painter, surface = _painter(), pygame.Surface(PROFILE.display.size())
    painter.paint(view, surface, words)
    (kept,) = painter.notes.values()
    assert len(kept[0]) == 1 and kept[1] == 1  # the first page; the next starts at group 1
    fitted: list[str] = []
    original = small_turn.fit_rows

    def recorded(fonts, items, *args, **kwargs):  # type: ignore[no-untyped-def]
        fitted.extend(item.role for item in items)
        return original(fonts, items, *args, **kwargs)

    monkeypatch.setattr(small_turn, "fit_rows", recorded)
    painter.paint(view, surface, words, 1)
    (whole,) = painter.notes.values()
    assert len(whole[0]) == 2 and whole[1] is None and whole[0][0] == kept[0][0]
    assert fitted == ["pairing"]  # the joker's group, on the page before, not again
    painter.paint(view, surface, words, 1)
    assert fitted == ["pairing"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.sampled_from(CATALOG),
    width=st.integers(20, 320),
    least=st.integers(4, 40),
    span=st.integers(0, 12),
    lines=st.integers(1, 4),
    banded=st.booleans(),
)
def test_a_groups_least_height_is_never_more_than_its_row_at_any_size(
    fonts, text, width, least, span, lines, banded
):
    """What ends a page without fitting the next group: its row, fitted whole at any
    size from its least to its start or cut at its least, is never shorter."""
    item = Item(text, WHITE, max_lines=lines, band=WHITE if banded else None)
    bound = small_turn._least_height(fonts, item, width, least, least + span)
    for px in range(least, least + span + 1):
        whole = _row(fonts, item, width, px, fit_whole)
        if whole is not None:
            assert whole.height >= bound
    cut = _row(fonts, item, width, least, fit_text)
    assert cut is not None and cut.height >= bound
