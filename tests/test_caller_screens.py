"""The caller's screens of a room game as drawn (issue 25): on a TV the turn keeps its card
as large as a one-table turn's needs from across a room, beside the QR code, the join code
and every table size's pencils; a round's start shows each size's whole row; the results
mark each table's winner. Read back from what the painter placed, never from its sizes."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from nsdevice.displays import canvas
from nsdevice.displays.painter import Painter, dots_per_mm
from nsdevice.gallery import example_views
from nsdevice.hardware.profiles import load_profile
from nsdevice.locale import LANGUAGES
from nsdevice.texts import Words
from nsdevice.views import RoomResultsView, RoundStartView, TurnView

TV_SYMBOL_MM = 100.0  # as tests/test_millimetres.py asks of every TV turn


def paint(profile_name: str, screen: str, language: str = "en", city: str = "tokyo"):
    profile = load_profile(profile_name)
    panel = profile.panel()
    view = panel.placed(dict(example_views(city, language))[screen])
    surface = pygame.Surface(profile.display.size())
    drawing = Painter(diagonal_inches=panel.diagonal_inches).paint(view, surface, Words(language))
    return view, drawing, dots_per_mm(surface, panel.diagonal_inches)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_tv_caller_turn_shows_the_card_the_join_and_every_sizes_pencils_C8(language):
    view, drawing, per_mm = paint("tv", "room-turn", language)
    assert isinstance(view, TurnView) and view.room is not None
    symbols = [f.rect[3] / per_mm for f in drawing.figures_of("card-symbol")]
    assert symbols and min(symbols) >= TV_SYMBOL_MM, symbols
    assert len(drawing.figures_of("qr")) == 1
    texts = {placed.role: placed.text for placed in drawing.texts}
    assert texts["join-code"] == view.room.code  # the digits whole, on a line of their own
    # the address in letters for a phone without a QR reader: one line, typed as it reads
    assert [p.text for p in drawing.texts if p.role == "address"] == [
        view.room.address.removeprefix("http://").removesuffix("/")
    ]
    assert len([p for p in drawing.texts if p.role == "pencil-size"]) == 4  # 1, 2, 3, 4
    pencils = [f.name.removeprefix("pencil-") for f in drawing.figures_of("pencil")]
    assert pencils == [p.colour for row in view.room.rows for p in _by_seat(row)]
    seats = [p.text for p in drawing.texts if p.role == "pencil-seat"]
    assert seats == ["1", "1", "2", "1", "2", "3", "1", "2", "3", "4"]  # spares unnumbered
    # nothing of the turn under the join column: the card and its row stay left of it
    qr = drawing.figures_of("qr")[0].rect
    assert all(f.rect[0] + f.rect[2] <= qr[0] for f in drawing.figures if "card" in f.role)


def _by_seat(row):
    order = ("1", "table-1", "2", "table-2", "3", "table", "4")
    return sorted(row, key=lambda pencil: order.index(pencil.slot))


@pytest.mark.parametrize("profile", ["tv", "arcade-gpio"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_rooms_round_start_shows_every_table_sizes_whole_row_C8(profile, language):
    view, drawing, _ = paint(profile, "room-round-start", language)
    assert isinstance(view, RoundStartView) and view.room is not None
    words = Words(language)
    shown = [p.text for p in drawing.texts if p.role == "pencil"]
    wanted = [words.pencil_line(p, size)
              for size, row in enumerate(view.room.rows, start=1) for p in row]  # fmt: skip
    # every line drawn, whole (a line wrapped in two is still all there)
    assert " ".join(shown).split() == " ".join(wanted).split()
    assert not any(p.text.endswith("…") for p in drawing.texts)


def test_the_results_mark_each_tables_winner_with_a_star_C12():
    view, drawing, _ = paint("tv", "room-results")
    assert isinstance(view, RoomResultsView)
    winners = [p for p in view.ranking if p.table_winner]
    assert winners and len(drawing.figures_of("table-winner")) == len(winners) + 1  # + the key
    names = [p.text for p in drawing.texts if p.role == "name"]
    assert names == [p.name for p in view.ranking]
    totals = [p.text for p in drawing.texts if p.role == "total"]
    assert totals == [str(p.total) for p in view.ranking]


# --- the join column drawn once (issue 35) -----------------------------------------------


def caller_turn_view() -> TurnView:
    view = load_profile("tv").panel().placed(dict(example_views("tokyo", "en"))["room-turn"])
    assert isinstance(view, TurnView) and view.room is not None
    return view


def painted(painter: Painter, view: TurnView) -> tuple[bytes, object]:
    surface = pygame.Surface(load_profile("tv").display.size())
    drawing = painter.paint(view, surface, Words(view.language))
    return pygame.image.tobytes(surface, "RGB"), drawing


def tv_painter() -> Painter:
    return Painter(diagonal_inches=load_profile("tv").panel().diagonal_inches)


def test_the_callers_join_column_is_drawn_once_and_copied_the_same(monkeypatch):
    """The next press takes the join column and the pencils by size from the painter:
    the same pixels and the same record (Drawing) as drawn afresh."""
    kept = []
    real = canvas.Faces.keep
    monkeypatch.setattr(canvas.Faces, "keep", lambda *a: kept.append(a[1]) or real(*a))
    painter, view = tv_painter(), caller_turn_view()
    first = painted(painter, view)
    again = painted(painter, view)
    assert [key[0] for key in kept] == ["caller-column"]  # the second frame copied it
    assert again == first == painted(tv_painter(), view)


def test_a_new_rounds_pencils_draw_the_join_column_again_C8():
    painter, view = tv_painter(), caller_turn_view()
    assert view.room is not None
    painted(painter, view)
    rows = tuple(reversed(view.room.rows))  # other pencils by size: what the column shows
    other = replace(view, room=replace(view.room, rows=rows))
    assert painted(painter, other) == painted(tv_painter(), other)
    assert painted(painter, other)[0] != painted(painter, view)[0]
    joined = replace(view, room=replace(view.room, players=view.room.players + 1))
    assert painted(painter, joined) == painted(tv_painter(), joined)  # the count: not shown
