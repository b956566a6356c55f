"""Every screen, in every city and language, on every build and page: no text runs off the
screen, into the legend, or over other text, and no word is cut or broken."""

from __future__ import annotations

import re

import pygame
import pytest

from nsdevice.displays.painter import ELLIPSIS, Drawing, Painter
from nsdevice.gallery import example_views
from nsdevice.hardware.profiles import SHIPPED_PROFILES, load_profile
from nsdevice.locale import LANGUAGES
from nsdevice.texts import Words

CITIES = ("tokyo", "paris", "london")
PROFILES = sorted(p.stem for p in SHIPPED_PROFILES.glob("*.toml"))
# A screenshot's size with no build named (the desktop build's 480x320 window, at the same
# 96 dpi and with the same labels, is checked with every build below).
SIZES = ((320, 240),)


@pytest.fixture(scope="module")
def painter() -> Painter:
    return Painter()


def _inside(rect: tuple[int, int, int, int], width: int, height: int) -> bool:
    x, y, w, h = rect
    return x >= 0 and y >= 0 and x + w <= width and y + h <= height


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def _problems(drawing: Drawing) -> list[str]:
    width, height = drawing.size
    found = []
    for placed in drawing.texts:
        if not _inside(placed.rect, width, height):
            found.append(f"off screen: {placed}")
        for edge, band in drawing.bands:
            if placed.role != "legend" and _overlap(placed.rect, band):
                found.append(f"in the {edge} legend: {placed}")
    for figure in drawing.figures:
        if not _inside(figure.rect, width, height):
            found.append(f"figure off screen: {figure}")
        for edge, band in drawing.bands:
            if _overlap(figure.rect, band):
                found.append(f"figure in the {edge} legend: {figure}")
    texts = [t for t in drawing.texts if t.text.strip()]
    for index, first in enumerate(texts):
        for second in texts[index + 1 :]:
            if _overlap(first.rect, second.rect):
                found.append(f"overlap: {first} / {second}")
    return found


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("city", CITIES)
def test_every_text_fits_its_screen(painter, city, language, size):
    surface = pygame.Surface(size)
    words = Words(language)
    problems = []
    for name, view in example_views(city, language, size):
        drawing = painter.paint(view, surface, words)
        problems += [f"{name}: {p}" for p in _problems(drawing)]
    assert problems == []


@pytest.mark.parametrize("size", [(240, 240), (320, 480), (800, 480), (160, 128)])
def test_other_screen_shapes_still_fit(painter, size):
    """Square, portrait, bigger and tiny screens: smaller symbols maybe, but no spill."""
    surface = pygame.Surface(size)
    problems = []
    for city in CITIES:
        for name, view in example_views(city, "de", size):
            drawing = painter.paint(view, surface, Words("de"))
            problems += [f"{city} {name}: {p}" for p in _problems(drawing)]
    assert problems == []


# A path, an address or a password may break anywhere (they have no words to break at):
# a run of text with a slash, an "@" or a port (":8414"), or letters and figures joined by
# "-" or "." (a file's name, a password such as "k7dm-x4qp-9wre").
BREAKABLE = re.compile(r"[/@]|:\d|^(?=.*\d)(?=.*[^\W\d_])[\w.-]+$")


def _lost_words(drawing: Drawing) -> list[str]:
    """The words of `drawing` that were broken between letters or left out to fit, but
    those that may break (`BREAKABLE`)."""
    drawn = {word for placed in drawing.texts for word in placed.text.split()}
    lost = []
    for text in drawing.cut:
        lost += [w for w in text.split() if w not in drawn and not BREAKABLE.search(w)]
    # a line cut where it was measured and then drawn whole (a label's two lines): its "…"
    lost += [p.text for p in drawing.texts if p.text.endswith(ELLIPSIS)
             and not BREAKABLE.search(p.text)]  # fmt: skip
    return lost


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("profile", PROFILES)
def test_every_page_fits_each_build_at_its_own_millimetres(profile, language):
    """Painted for the build's own glass (its diagonal) with its labels beside its buttons
    (issue 10), every page of every screen of every city (the 2-inch panel's turn, score
    sheet, history and room screens go to pages): nothing off screen, in a legend or
    overlapping, and no word cut short or broken between letters (issue 34, item 6)."""
    build = load_profile(profile)
    panel = build.panel()
    painter = Painter(diagonal_inches=panel.diagonal_inches)
    surface = pygame.Surface(build.display.size())
    words = Words(language)
    problems = []
    for city in CITIES:
        for name, view in example_views(city, language):
            placed = panel.placed(view)
            pages = len(painter.page_seconds(placed, surface)) or 1
            for page in range(pages):
                drawing = painter.paint(placed, surface, words, page)
                found = _problems(drawing) + [f"cut {w!r}" for w in _lost_words(drawing)]
                problems += [f"{city}-{name} page {page + 1}: {p}" for p in found]
    assert problems == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_room_summary_writes_its_address_without_the_final_slash(language):
    """Issue 34: on the 2-inch glass the address's final "/" wrapped onto a line of its
    own; a browser finds the page without it."""
    build = load_profile("display-hat-mini")
    panel = build.panel()
    painter = Painter(diagonal_inches=panel.diagonal_inches)
    surface = pygame.Surface(build.display.size())
    view = panel.placed(dict(example_views("tokyo", language))["room-summary"])
    address = view.room.address
    assert address.endswith("/")  # the example's address has one, as the box's have
    pages = len(painter.page_seconds(view, surface)) or 1
    drawn = [
        placed.text
        for page in range(pages)
        for placed in painter.paint(view, surface, Words(language), page).texts
    ]
    assert address.removesuffix("/") in drawn
    assert "/" not in drawn and address not in drawn
