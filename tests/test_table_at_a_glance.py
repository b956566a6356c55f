"""The table at a glance on the 2-inch glass (issue 34, item 1): a round's start and the
pencil pass are one page, drawn as the table, for 1 to 4 players and a room, in every
language; the module cards stay on the summary behind the held MENU, whose label says so.

Every seat is read back from the painter's own record of what it drew (`Drawing.seats`)
and compared with the deal as the rules dealt it, never with the view the painter read;
its pencil's colour is then checked in the pixels where the record says it lies.
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from nsdevice import views
from nsdevice.displays.drawing import Box, Drawing, Seated
from nsdevice.displays.painter import Painter, dots_per_mm
from nsdevice.displays.text_fit import ELLIPSIS, FontBook
from nsdevice.displays.theme import DEFAULT_THEME
from nsdevice.gallery import example_views
from nsdevice.hardware.profiles import load_profile
from nsdevice.locale import LANGUAGES
from nsdevice.rules.cities import CityName
from nsdevice.rules.deal import Deal, Setup, deal_game, slots
from nsdevice.rules.modules import Module
from nsdevice.rules.progress import Progress
from nsdevice.rules.room import table_rounds
from nsdevice.screenshots import render_all
from nsdevice.session.screens.game import pencil_pass_view, round_start_view, turn_view
from nsdevice.session.screens.room import example_room_call, room_deal
from nsdevice.session.settings import MODULES
from nsdevice.texts import Words

SMALL = load_profile("display-hat-mini")
PANEL = SMALL.panel()
TEXT_MM = 2.5  # every word on the table's page but the buttons' labels (issue 26)
CITIES = ("tokyo", "paris", "london")
PALETTE = DEFAULT_THEME.palette
FONTS = FontBook()
REACH = 32  # pixels from a pencil to its marks: a start symbol and a power icon (4 mm)


def _deal(city: str, players: int, modules: tuple[str, ...] = MODULES) -> Deal:
    return deal_game(
        Setup(CityName(city), players, tuple(Module(m) for m in modules), f"GLANCE{players}")
    )


def _paint(view: views.View, language: str = "en") -> tuple[Drawing, pygame.Surface, Painter]:
    painter = Painter(diagonal_inches=PANEL.diagonal_inches)
    surface = pygame.Surface(SMALL.display.size())
    placed = PANEL.placed(view)
    drawing = painter.paint(placed, surface, Words(language))
    assert painter.page_seconds(placed, surface) == (), "one page: nothing takes turns"
    return drawing, surface, painter


def _share(surface: pygame.Surface, box: Box, colour: tuple[int, int, int]) -> float:
    """How much of `box` is painted `colour`, give or take the anti-aliasing."""
    x, y, w, h = box
    hits = sum(
        all(abs(a - b) <= 12 for a, b in zip(surface.get_at((i, j))[:3], colour, strict=True))
        for i in range(x, x + w)
        for j in range(y, y + h)
    )
    return hits / max(1, w * h)


def _near(a: Box, b: Box, reach: int) -> bool:
    """Whether boxes `a` and `b` lie within `reach` pixels of each other."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return (
        ax - reach <= bx + bw
        and bx - reach <= ax + aw
        and ay - reach <= by + bh
        and (by - reach <= ay + ah)
    )


def _check_seat(drawing: Drawing, surface: pygame.Surface, seat: Seated, reach: int) -> None:
    """The pencil's colour where the record says it lies; the start symbol and power
    drawn beside it; the chair's number on the chair."""
    colour = DEFAULT_THEME.pencil(seat.colour)
    assert _share(surface, seat.pencil, colour) > 0.3, (seat, "pencil not in its colour")
    if seat.start:
        assert any(
            f.name == seat.start and _near(f.rect, seat.pencil, reach)
            for f in drawing.figures_of("start")
        ), (seat, "no start symbol beside the pencil")
    if seat.power:
        assert any(
            f.name == seat.power and _near(f.rect, seat.pencil, reach)
            for f in drawing.figures_of("power")
        ), (seat, "no power icon beside the pencil")


def _chair_number(drawing: Drawing, chair: Box) -> list[str]:
    x, y, w, h = chair
    return [
        t.text
        for t in drawing.texts
        if t.role == "chair"
        and x <= t.rect[0] + t.rect[2] / 2 <= x + w
        and y <= t.rect[1] + t.rect[3] / 2 <= y + h
    ]


# --- one page ---------------------------------------------------------------------------------
def test_the_2_inch_round_start_and_pencil_pass_are_one_page_in_every_language(tmp_path: Path):
    """The gallery for the 2-inch build has no `-page2` of them (it had up to 14)."""

    def wanted(name: str) -> bool:
        return "round-start" in name or "pencil-pass" in name

    files = render_all(tmp_path, size=SMALL.display.size(), panel=PANEL, screens=wanted)
    names = sorted(str(p.relative_to(tmp_path)) for p in files)
    assert [n for n in names if "-page" in n] == []
    for language in LANGUAGES:
        folder = "" if language == "en" else f"{language}/"
        for players in ("solo", "2-players", "3-players", "4-players"):
            assert f"{folder}tokyo-round-start-{players}.png" in names
            assert f"{folder}tokyo-pencil-pass-{players}.png" in names
        assert f"{folder}tokyo-room-round-start.png" in names
        assert f"{folder}tokyo-room-pencil-pass.png" in names


# --- one table --------------------------------------------------------------------------------
@pytest.mark.parametrize("city", CITIES)
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_seat_and_spare_pencil_is_read_back_at_its_slot_C8_C9_C10(city: str, players: int):
    dealt = _deal(city, players)
    for number, round_ in enumerate(dealt.rounds, start=1):
        drawing, surface, _ = _paint(round_start_view(dealt, number, "en"))
        seats = {seat.slot: seat for seat in drawing.seats}
        assert sorted(seats) == sorted(slots(players)), number
        for slot, colour in round_.pencils:
            seat = seats[slot]
            assert seat.colour == colour, (number, slot)
            spare = slot.startswith("table")
            start = dealt.city.start_station(colour)
            assert seat.start == (None if spare or start is None else start.symbol.value)
            assert seat.power == (None if spare else dict(dealt.pencil_powers or ()).get(colour))
            assert (seat.chair is None) == spare
            _check_seat(drawing, surface, seat, reach=REACH)
            if seat.chair is not None and players > 1:
                assert _chair_number(drawing, seat.chair) == [slot]
        (leader,) = [s for s in drawing.seats if s.controller]
        assert leader.slot == str(round_.controller)
        assert leader.chair is not None
        assert _share(surface, leader.chair, PALETTE.accent) > 0.5, "the controller's chair"
        (deck,) = drawing.figures_of("deck")
        assert _near(deck.rect, leader.chair, 4), "the deck beside the controller's chair"


@pytest.mark.parametrize("city", CITIES)
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_pencil_pass_shows_each_pencil_where_it_goes_and_the_way_C8(city: str, players: int):
    dealt = _deal(city, players)
    for number in (2, 3, 4):
        drawing, surface, _ = _paint(pencil_pass_view(dealt, number, "en"))
        coming = dealt.rounds[number - 1]
        expected = dict(coming.pencils)
        if players == 1:  # solo: the next pencil of the row, at the one seat
            expected = {"1": dealt.solo_order[number - 1]} if dealt.solo_order else {}
        assert {s.slot: s.colour for s in drawing.seats} == expected
        for seat in drawing.seats:
            _check_seat(drawing, surface, seat, reach=REACH)
        assert len(drawing.figures_of("pass-arrow")) == (4 if players > 1 else 0)
        (leader,) = [s for s in drawing.seats if s.controller]
        assert leader.slot == str(coming.controller)


def test_pencil_powers_are_drawn_as_icons_beside_their_pencils_LPP():
    dealt = _deal("london", 4, ("pencil_powers",))
    powers = dict(dealt.pencil_powers or ())
    assert powers, "the module deals a power to each colour"
    drawing, _, _ = _paint(round_start_view(dealt, 1, "en"))
    for seat in drawing.seats:
        assert seat.power == powers[seat.colour]
    assert sorted(f.name for f in drawing.figures_of("power")) == sorted(powers.values())


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pairing_is_one_line_over_the_table_T_SP_2(language: str):
    dealt = _deal("tokyo", 3, ("special_stations",))
    words = Words(language)
    for number, round_ in enumerate(dealt.rounds, start=1):
        pairing = round_.pairing
        assert pairing is not None
        drawing, _, _ = _paint(round_start_view(dealt, number, language), language)
        said = " ".join(t.text for t in drawing.texts if t.role == "pairing")
        assert said == words.effect(pairing.effect)
        (symbol,) = drawing.figures_of("pairing")
        assert symbol.name == pairing.symbol.value
        (table_top,) = drawing.figures_of("table")
        assert symbol.rect[1] + symbol.rect[3] <= table_top.rect[1], "over the table"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_module_cards_on_the_round_start_C11_PCG1(language: str):
    """They stay on the summary, a held MENU away."""
    dealt = _deal("paris", 3)
    words = Words(language)
    drawing, _, _ = _paint(round_start_view(dealt, 2, language), language)
    shown = " ".join(t.text for t in drawing.texts)
    assert dealt.objectives and dealt.city_gates
    for name in dealt.objectives:
        assert words.objective("paris", name) not in shown
    for module in ("objectives", "city_gates", "pencil_powers"):
        assert words.module(module) not in shown
    for _, bonus in dealt.city_gates:
        assert words.bonus(bonus) not in shown


# --- a room -----------------------------------------------------------------------------------
@pytest.mark.parametrize("city", CITIES)
@pytest.mark.parametrize("screen", ["round-start", "pencil-pass"])
def test_a_room_is_four_small_tables_each_read_back_C8(city: str, screen: str):
    room = room_deal(city)
    number = 3
    call = example_room_call(room, number)
    build = round_start_view if screen == "round-start" else pencil_pass_view
    drawing, surface, _ = _paint(build(room, number, "en", call))
    for size in (1, 2, 3, 4):
        dealt = table_rounds(room.setup, size)[number - 1]
        seats = {s.slot: s for s in drawing.seats if s.table == size}
        assert {slot: seat.colour for slot, seat in seats.items()} == dict(dealt.pencils), size
        for seat in seats.values():
            _check_seat(drawing, surface, seat, reach=6)
            assert (seat.chair is None) == seat.slot.startswith("table")
            if seat.chair is not None and size > 1:
                assert _chair_number(drawing, seat.chair) == [seat.slot]
    assert not any(s.controller for s in drawing.seats), "each table keeps its own (C-10)"
    assert drawing.figures_of("deck") == []
    arrows = len(drawing.figures_of("pass-arrow"))
    assert arrows == (6 if screen == "pencil-pass" else 0), "two across each table of 2 to 4"
    powers = dict(room.pencil_powers or ())
    key = sorted(f.name for f in drawing.figures_of("power-key"))
    assert key == sorted(f"key-{colour}-{power}" for colour, power in powers.items())


# --- sizes ------------------------------------------------------------------------------------
def _cap_mm(line_height: int, per_mm: float) -> float:
    px = max(1, line_height)
    while px > 1 and FONTS.height(px) > line_height:
        px -= 1
    return FONTS.cap(px) / per_mm


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_word_and_number_on_the_table_reads_at_2_5_mm_uncut(language: str):
    shown = [
        view
        for name, view in example_views("london", language) + example_views("tokyo", language)
        if "round-start" in name or "pencil-pass" in name
    ]
    surface = pygame.Surface(SMALL.display.size())
    per_mm = dots_per_mm(surface, PANEL.diagonal_inches)
    for view in shown:
        drawing, _, _ = _paint(view, language)
        for text in drawing.texts:
            assert ELLIPSIS not in text.text, text
            if text.role != "legend" and text.text.strip():
                assert _cap_mm(text.rect[3], per_mm) >= TEXT_MM - 0.05, (view.screen, text)


# --- the held MENU ----------------------------------------------------------------------------
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("profile", ["display-hat-mini", "desktop", "arcade-gpio", "tv"])
def test_the_turns_menu_label_says_a_hold_shows_the_cards(profile: str, language: str):
    build = load_profile(profile)
    panel = build.panel()
    words = Words(language)
    painter = Painter(diagonal_inches=panel.diagonal_inches)
    surface = pygame.Surface(build.display.size())
    for modules, action in ((MODULES, "menu_cards"), ((), "menu")):
        view = turn_view(_deal("tokyo", 3, modules), Progress(round=1, revealed=2), language)
        drawing = painter.paint(panel.placed(view), surface, words)
        # a corner's label may take two lines ("Menu, hold:" over "cards")
        labels = " ".join(t.text for t in drawing.texts if t.role == "legend")
        assert words.action(action) in labels, (labels, action)
        assert ELLIPSIS not in labels
        if action == "menu":
            assert words.action("menu_cards") not in labels, "no cards to show, none promised"
    if language != "en":
        assert words.action("menu_cards") != Words("en").action("menu_cards"), "translated"


@pytest.mark.parametrize("profile", ["display-hat-mini", "desktop"])
def test_the_summary_teaches_each_powers_icon_beside_its_words_LPP(profile: str):
    """The table draws powers as icons alone; the summary (a held MENU away during a
    round) draws each beside its words and its pencil."""
    build = load_profile(profile)
    panel = build.panel()
    painter = Painter(diagonal_inches=panel.diagonal_inches)
    surface = pygame.Surface(build.display.size())
    view = panel.placed(dict(example_views("london"))["summary-all-modules"])
    assert isinstance(view, views.SummaryView) and view.pencil_powers
    words = Words("en")
    found: list[str] = []
    for page in range(len(painter.page_seconds(view, surface)) or 1):
        drawing = painter.paint(view, surface, words, page)
        for power in drawing.figures_of("power"):
            beside = [
                t.text
                for t in drawing.texts
                if abs((t.rect[1] + t.rect[3] / 2) - (power.rect[1] + power.rect[3] / 2)) < 12
                and t.rect[0] > power.rect[0]
            ]
            found += [f"{power.name} {text}" for text in beside]
    expected = [
        f"{power} {words.labelled(words.colour(colour), words.power(power))}"
        for colour, power in view.pencil_powers
    ]
    assert sorted(found) == sorted(expected)


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_part_of_the_table_covers_another_or_the_labels(language: str):
    """Chairs, pencils, the deck and the words stay apart, and clear of the buttons'
    labels, in every example and language (a 2-line title leaves the table less room)."""
    for city in CITIES:
        for name, view in example_views(city, language):
            if "round-start" not in name and "pencil-pass" not in name:
                continue
            drawing, _, _ = _paint(view, language)
            parts = [(f"pencil {s.slot}/{s.table}", s.pencil) for s in drawing.seats]
            parts += [(f"chair {s.slot}/{s.table}", s.chair) for s in drawing.seats if s.chair]
            parts += [("deck", f.rect) for f in drawing.figures_of("deck")]
            # a chair's number stands on its chair (read back above); every other word apart
            words = [t for t in drawing.texts if t.role not in ("legend", "chair")]
            parts += [(f"text {t.text}", t.rect) for t in words]
            labels = [box for _, box in drawing.bands]
            for index, (what, box) in enumerate(parts):
                assert box[0] >= 0 and box[0] + box[2] <= drawing.size[0], (name, what)
                assert box[1] >= 0 and box[1] + box[3] <= drawing.size[1], (name, what)
                for other, beside in parts[index + 1 :]:
                    assert not _overlap(box, beside), (city, name, what, other)
                if not what.startswith("text"):
                    assert not any(_overlap(box, band) for band in labels), (city, name, what)
