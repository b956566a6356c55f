"""Pages with roles: each line says what it is, and the painter styles it by that role
from one table, never by its position or its leading spaces."""

from __future__ import annotations

from nsdevice import views
from nsdevice.displays.layouts.page import STYLES
from nsdevice.gallery import example_views
from nsdevice.texts import Form, Role, words


def _page(city: str, name: str, language: str = "en"):
    view = dict(example_views(city, language))[name]
    return view, words(language).page(view)


def test_every_role_has_one_style():
    assert set(STYLES) == set(Role)


def test_summary_headings_are_headings_and_their_items_plain_items_C11():
    _view, page = _page("paris", "summary-all-modules")
    headings = [line.text for line in page.lines if line.role is Role.HEADING]
    assert headings == ["Objectives, 10 points each:", "City gates:", "Pencil powers:",
                        "Pencils, in order:"]  # fmt: skip
    items = [line for line in page.lines if line.text.startswith("  ")]
    assert len(items) == 2 + 4 + 4 + 1 and all(line.role is Role.ITEM for line in items)
    assert page.lines[-1].role is Role.WARNING  # X-4, said last
    assert page.form is Form.COLUMNS


def test_lists_are_rows_then_warnings_with_the_cursor_marked_X4():
    view, page = _page("tokyo", "setup-mix-warning")
    assert isinstance(view, views.SetupView)
    roles = [line.role for line in page.lines]
    assert roles == [Role.ROW] * len(view.rows) + [Role.WARNING]
    assert page.emphasis == (view.cursor,) and page.form is Form.LIST


def test_the_number_being_set_is_a_value_and_the_tier_a_headline():
    _view, entry = _page("tokyo", "score-entry-solo")
    assert [line.role for line in entry.lines] == [Role.CODE, Role.NOTE, Role.BUTTONS, Role.BUTTONS]
    assert "+5" in entry.lines[2].text  # a held button counts fast: said on the screen
    assert "sheet" in entry.lines[3].text  # and the score sheet is a hold away


def test_no_pencil_line_writes_its_start_station_known_or_not_C9():
    """docs/decisions/0007: the start station is written for no pencil (a confirmed start
    and an unconfirmed one read the same), so no line hides a bare question mark either."""
    view, page = _page("tokyo", "round-start-2-players")
    lines = " ".join(line.text for line in page.lines)
    assert "?" not in lines
    starts = [p for p in view.pencils if p.start_symbol and not p.slot.startswith("table")]
    assert {p.start_unverified for p in starts} == {True, False}  # both kinds are here
    for pencil in starts:
        symbol = words("en").symbol(pencil.start_symbol)
        assert symbol not in words("en").pencil_line(pencil, view.players)
        assert symbol not in lines
    _view, result = _page("tokyo", "result-solo")
    assert [line.role for line in result.lines].count(Role.HEADLINE) == 1
    assert result.lines[result.emphasis[0]].role is Role.HEADLINE
    _view, table = _page("tokyo", "result-players")
    assert table.lines[0].role is Role.HEADLINE and table.lines[0].text.startswith("Seat")


def test_each_pencil_move_is_a_pencil_line_C8():
    view, page = _page("london", "pencil-pass-3-players", "de")
    assert isinstance(view, views.PencilPassView)
    roles = [line.role for line in page.lines]
    assert roles == [Role.NOTE, *[Role.PENCIL] * len(view.moves), Role.CONTROLLER]


def test_messages_are_read_as_messages():
    for name in ("confirm-new-game", "notice-store-damaged", "shutdown", "game-end", "about",
                 "round-end", "result-solo", "hwtest-done"):  # fmt: skip
        _view, page = _page("tokyo", name)
        assert page.form is Form.MESSAGE, name
    _view, notice = _page("tokyo", "notice-store-damaged")
    assert notice.lines[-1].role is Role.DETAIL  # the path, for whoever fixes the box
    _view, round_end = _page("paris", "round-end")
    assert round_end.lines[-1].role is Role.FORMULA  # S-P


def test_city_words_come_from_the_city_data_P2():
    english = words("en")
    assert english.underground(2, 5, "paris") == "Metro 2/5"
    assert english.underground(2, 5, "tokyo") == "Underground 2/5"
    assert english.kind("underground", "paris") == "Metro"
    assert english.city("london") == "London"
    assert english.objective("london", "thames_crossings") == "6 Thames crossings"


def test_the_solo_result_shows_the_sum_the_band_and_the_best_of_its_module_set_C13_SSOLO_D4():
    view, page = _page("tokyo", "result-solo")
    assert isinstance(view, views.ResultView)
    texts = [line.text for line in page.lines]
    assert texts[0] == f"{view.total} points − {view.penalty} for modules = {view.adjusted}"
    assert view.penalty == 10 * view.modules_used == 40  # C-13, all four modules
    headline = page.lines[page.emphasis[0]]
    assert headline.role is Role.HEADLINE
    assert headline.text == f"Tier {view.tier} of 6 · {view.tier_low}–{view.tier_high}"
    assert f"Best in Tokyo with these modules: {view.personal_best}" in texts
    _view, top = _page("london", "result-solo-new-best")
    assert top.lines[top.emphasis[0]].text == "Tier 6 of 6 · 151 and up"  # open above
    assert "tier 1" in _page("tokyo", "about", "en")[1].lines[-1].text  # D-4, explained


def test_the_history_pages_say_each_game_the_bests_and_the_daily_streak():
    _view, games = _page("tokyo", "history")
    assert games.title == "History 1/3" and games.lines[0].role is Role.HEADING
    texts = [line.text for line in games.lines[1:]]
    assert texts[0].startswith("2026-11-23 · Solo · ") and texts[0].endswith("· daily deal")
    assert texts[1] == "2026-11-22 · 3 players · seat 2 won with 156"
    assert texts[3] == "2026-11-18 · 4 players · shared win: seats 1,\u00a03"
    _view, bests = _page("paris", "history-bests")
    assert "Paris · no modules: " in bests.lines[1].text
    _view, daily = _page("tokyo", "history-daily", "de")
    assert daily.lines[0].role is Role.HEADLINE and daily.lines[0].text.endswith(": 3")
    _view, empty = _page("london", "history-empty", "fr")
    assert [line.text for line in empty.lines] == ["Aucune partie terminée pour l'instant."]


def test_a_seats_score_sheet_is_titled_by_its_seat_S_T_END():
    """Seat 2's sheet in a 3-player game says whose it is (the title was once left out of
    the title dispatch, so every seat's sheet read "Score sheet"); a solo sheet needs no
    seat."""
    from nsdevice.inputs.events import Button, Gesture, Press
    from nsdevice.session import ScreenName, Session, Settings

    session = Session(Settings(city="tokyo", players=3), seed_source=lambda: "SHEET3")
    session.deal_new_game()
    while session.screen is not ScreenName.GAME_END:
        session.press(Press(Button.NEXT))
    session.press(Press(Button.NEXT))  # seat 1's total
    for _ in range(3):  # its three digits: on to seat 2's total
        session.press(Press(Button.MENU))
    session.press(Press(Button.MENU, Gesture.HOLD))  # seat 2's score sheet
    view = session.view()
    assert session.screen is ScreenName.SCORE_SHEET and view.seat == 2
    assert words("en").title(view) == "Seat 2: score sheet"
    assert words("en").page(view).title == "Seat 2: score sheet"
    assert words("de").page(view).title == "Spieler 2: Wertungsblatt"
    _view, solo = _page("tokyo", "score-sheet-last")
    assert solo.title == "Score sheet"


def test_the_spare_pencils_place_says_which_side_of_which_seat_C8_D7():
    """2 players: a spot on each seat's left; 3 players: between seat 3 and seat 1, so on
    seat 1's right ("left" is the next seat, RULES section 1)."""
    from nsdevice.rules.deal import slots
    from nsdevice.texts import Words

    words = Words("en")
    two = [words.slot(slot, 2) for slot in slots(2)]
    assert two == ["Seat 1", "Table, left of seat 1", "Seat 2", "Table, left of seat 2"]
    three = [words.slot(slot, 3) for slot in slots(3)]
    assert three == ["Seat 1", "Seat 2", "Seat 3", "Table, right of seat 1"]
    german = Words("de")
    assert german.slot("table", 3) == "Tisch, rechts von Spieler 1"
