"""Words that say what to count (issue 34, item 4): the score sheet's fields named as the
player counts them, from one table (`Vocabulary.sheet_count`) on the box's sheet and the
phone's; the objectives field only where objectives are played (C-11); the game's end
worded as what to do, not a question; the terminal's Phones screen says only what it shows."""

from __future__ import annotations

import pytest

from nsdevice import views
from nsdevice.displays.text_display import TextDisplay
from nsdevice.gallery import example_views
from nsdevice.inputs.events import Button, Gesture, Press
from nsdevice.locale import LANGUAGES
from nsdevice.rules import scoring
from nsdevice.rules.cities import city
from nsdevice.session import Session, Settings
from nsdevice.session.digits import counting_field, presses_for
from nsdevice.session.screens.score_sheet import sheet_counts
from nsdevice.texts import Role, words
from nsdevice.texts.pages.game import LINE_SCORING
from nsdevice.web.payload import Artwork, payload
from nsdevice.web.sheet import SheetError, score_sheet
from tools.glossary import concepts, load

HOLD_MENU = Press(Button.MENU, Gesture.HOLD)
LINE_CITIES = ("tokyo", "paris")  # the cities with a line score (London: totals only)
SCAN = "Scan the code to see the table on your phone."
WIFI = "First join the box's own Wi-Fi: scan this code."


def at_score_entry(city_name: str, modules: tuple[str, ...], language: str = "en") -> Session:
    session = Session(Settings(city=city_name, players=2, modules=modules, language=language),
                      seed_source=lambda: "COUNTS")  # fmt: skip
    session.deal_new_game()
    while session.screen != "game_end":
        session.next()
    session.next()
    assert session.screen == "score_entry"
    return session


def box_sheet_fields(session: Session) -> list[tuple[str, str]]:
    """Each field of the box's score sheet, walked with its buttons: (key, its words as the
    sheet's page writes them)."""
    session.press(HOLD_MENU)
    fields = []
    for _, count in sheet_counts(session.current_setup()):
        view = session.view()
        assert isinstance(view, views.SheetView) and view.counts[view.count].key == count.key
        page = words(view.language).page(view)
        fields += [(count.key, line.text) for line in page.lines if line.role is Role.ITEM][:1]
        for press in presses_for(0, counting_field(count.most)):
            session.press(press)
    return fields


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("city_name", LINE_CITIES)
def test_the_box_and_the_phone_name_each_field_from_one_table_S_T_END_S_P_END(
    city_name, language
):
    session = at_score_entry(city_name, ("objectives",), language)
    phone = payload(1, session.table(), language, Artwork())["words"]
    fields = box_sheet_fields(session)
    keys = [c.key for item in scoring.sheet_items(city(city_name), True) for c in item.counts]
    assert [key for key, _ in fields] == keys  # every field of the sheet, in its order
    for key, text in fields:
        assert text == words(language).sheet_count(key)
        assert phone[f"count_{key}"] == text, key  # the phone's label is the box's


@pytest.mark.parametrize("city_name", LINE_CITIES)
def test_a_lines_counts_name_what_is_counted_S_T_S_P(city_name):
    """A line scores its districts (quarters) times the most stations (stops) it has in
    one of them: the second field names both, so a newcomer does not type the line's whole
    count of stations."""
    english = load("en")
    line = scoring.sheet_items(city(city_name), False)[0]
    area, most = [words("en").sheet_count(c.key) for c in line.counts][:2]
    place = "district" if city_name == "tokyo" else "quarter"
    stop = "station" if city_name == "tokyo" else "stop"
    assert place in concepts(area, english)
    assert {place, stop} <= set(concepts(most, english)), most
    # the formula shown beside it names that district (quarter) with the same words
    formula = words("en")._(LINE_SCORING[city(city_name).line_scoring])
    which = most.split()[-2:]  # "busiest district"
    assert " ".join(which) in formula, (most, formula)


@pytest.mark.parametrize("city_name", LINE_CITIES)
def test_the_objectives_field_only_when_objectives_are_played_C11(city_name):
    for modules, played in (((), False), (("objectives",), True)):
        session = at_score_entry(city_name, modules)
        data = payload(1, session.table(), "en", Artwork())
        assert data["objectives"] is played  # the phone's sheet asks it only then
        keys = [key for key, _ in box_sheet_fields(session)]
        assert ("objectives" in keys) is played


def _sheet(city_name: str, **extra: int) -> dict:
    if city_name == "tokyo":
        base = {"lines": [[5, 4]], "stamps": 10, "ring_unconnected": 1,
                "interchanges": {"3": 0, "4": 0, "5": 0}}  # fmt: skip
    else:
        base = {"lines": [[5, 4, 2]], "overpasses_once": 1, "overpasses_twice": 0,
                "interchanges": {"2": 0, "3": 0, "4": 0}}  # fmt: skip
    return {**base, **extra}


@pytest.mark.parametrize("city_name", LINE_CITIES)
def test_a_sheet_with_objectives_met_is_refused_when_none_are_played_C11(city_name):
    line_scoring = city(city_name).line_scoring
    without = score_sheet(line_scoring, _sheet(city_name), objectives=False)
    assert score_sheet(line_scoring, _sheet(city_name, objectives=0), objectives=False) == without
    with pytest.raises(SheetError, match="C-11"):
        score_sheet(line_scoring, _sheet(city_name, objectives=1), objectives=False)
    played = score_sheet(line_scoring, _sheet(city_name, objectives=1), objectives=True)
    assert played.total == without.total + 10  # C-11: 10 points each
    with pytest.raises(SheetError, match="missing field 'objectives'"):
        score_sheet(line_scoring, _sheet(city_name), objectives=True)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_games_end_says_what_to_do_not_a_question(language):
    english = load("en")
    for name, view in example_views("tokyo", language):
        if not isinstance(view, views.GameEndView) or view.players == 1:
            continue
        page = words(language).page(view)
        ask = [line.text for line in page.lines if line.role is Role.ITEM][-1]
        assert not ask.rstrip().endswith("?"), (name, ask)
        msgid = next(m for m in catalog_msgids() if words(language)._(m) == ask)
        assert {"seat"} <= set(concepts(msgid, english)), msgid  # each seat's score


def catalog_msgids() -> list[str]:
    from tools.glossary import catalog_entries

    return [msgid for msgid, _ in catalog_entries("de")]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_terminals_phones_screen_says_only_what_it_shows(language):
    """The terminal draws no QR code: it does not ask anyone to scan one, and still gives
    the page's address and the join code (or the box's Wi-Fi network and password). The
    painted builds, which draw the code, say it."""
    import pygame

    from nsdevice.displays.painter import Painter

    scan = words(language)._(SCAN)
    assert scan != SCAN or language == "en"  # the sentence is translated, so found per language
    wifi = words(language)._(WIFI)
    shown = [v for _, v in example_views("tokyo", language) if isinstance(v, views.PhonesView)]
    assert {v.step == "wifi" and v.hotspot is not None for v in shown} == {True, False}
    for view in shown:
        text = TextDisplay().render(view)
        assert scan not in text and wifi not in text
        hotspot = view.hotspot if view.step == "wifi" else None
        if hotspot is not None:  # the box's own network, in words
            assert hotspot.name in text and hotspot.password in text
        else:
            assert view.code in text and all(address in text for address in view.addresses)
        drawing = Painter().paint(view, pygame.Surface((800, 480)), words(language))
        painted = " ".join(placed.text for placed in drawing.texts)  # its lines, wrapped
        assert drawing.figures_of("qr") and (wifi if hotspot else scan) in painted
