"""The start station, the same on every build (issue 34, item 3; docs/decisions/0007): it
is written for no pencil (the terminal, the painted builds, the phones), and the painted
builds draw its symbol beside each seat's pencil whose start the city's data knows (C-9)."""

from __future__ import annotations

import pytest

from nsdevice import views
from nsdevice.displays.text_display import TextDisplay
from nsdevice.gallery import example_views
from nsdevice.locale import LANGUAGES
from nsdevice.texts import words
from nsdevice.texts.vocabulary import SYMBOLS
from nsdevice.web.payload import Artwork, payload
from tests.painted_pages import painted_pages

BUILDS = ("display-hat-mini", "arcade-gpio", "tv")


def round_starts(city: str, language: str) -> list[tuple[str, views.RoundStartView]]:
    return [(name, view) for name, view in example_views(city, language)
            if isinstance(view, views.RoundStartView) and view.room is None]  # fmt: skip


@pytest.mark.parametrize("city", ["tokyo", "paris", "london"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_start_station_is_written_for_no_pencil_and_drawn_where_known_C9(city, language):
    said = words(language)
    symbol_words = [said.symbol(s) for s in SYMBOLS]
    found = round_starts(city, language)
    assert found
    for name, view in found:
        seats = [p for p in view.pencils if not p.slot.startswith("table")]
        known = sorted(p.start_symbol for p in seats if p.start_symbol)
        pencil_lines = [said.pencil_line(p, view.players) for p in view.pencils]
        terminal = TextDisplay().render(view)
        for line in pencil_lines:  # in words nowhere: not in a pencil's line…
            assert not [w for w in symbol_words if w in line], (name, line)
            assert line in terminal  # … which is what the terminal writes
        for build in BUILDS:
            drawn: list[str] = []
            for drawing in painted_pages(view, build, said):
                drawn += [f.name for f in drawing.figures if f.name in SYMBOLS]
                texts = [t.text for t in drawing.texts if t.role == "pencil"]
                assert not [t for t in texts for w in symbol_words if w in t], (build, texts)
            pairing = [view.pairing.symbol] if view.pairing is not None else []
            assert sorted(drawn) == sorted(known + pairing), (build, name, drawn, known)
    table = next(v for _, v in found if v.players > 1)
    sent = payload(1, views.TableView(1, "", table, city=city, players=table.players,
                                               pencils=table.pencils), language, Artwork())
    assert sent["pencils"]
    for pencil in sent["pencils"]:  # the phones: their pencil, no start in words
        assert not [w for w in symbol_words if w in pencil["line"]], pencil
