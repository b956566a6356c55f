"""The table of screens is complete: every `ScreenName` has a press handler, a view builder
and a kind (`session.machine.SCREENS`), is reachable by presses, and has a title and a
page in every language (docs/ARCHITECTURE.md, "Adding a screen")."""

from __future__ import annotations

import json

import pytest

from nsdevice import views
from nsdevice.inputs.events import Button, Gesture, Press
from nsdevice.locale import LANGUAGES
from nsdevice.session import Capabilities, ScreenName, Session, Settings
from nsdevice.session.context import ScreenEntry
from nsdevice.session.names import Kind
from nsdevice.session.screens import SCREENS
from nsdevice.texts import Line, Page, words
from nsdevice.texts.pages.base import Pages

NEXT, BACK, MENU = Press(Button.NEXT), Press(Button.BACK), Press(Button.MENU)


def _choose(session: Session, key: str) -> None:
    """On a list screen (setup, menu): move the cursor to the row `key` and choose it."""
    view = session.view()
    assert isinstance(view, views.SetupView | views.MenuView)
    target = [row.key for row in view.rows].index(key)
    while session.view().cursor != target:  # type: ignore[attr-defined]
        session.press(NEXT)
    session.press(MENU)


def every_screen() -> dict[ScreenName, views.View]:
    """One walk through a whole game that stops on every screen: each screen's first view."""
    session = Session(
        Settings(city="paris", players=2, modules=("objectives",)),
        capabilities=Capabilities(
            brightness=True, shutdown=True, phones=("http://192.168.1.23:8414/",)
        ),
        seed_source=lambda: "TABLE",
    )
    seen: dict[ScreenName, views.View] = {}

    def press(press: Press) -> None:
        session.press(press)
        seen.setdefault(session.screen, session.view())

    seen[session.screen] = session.view()
    _choose(session, "seed")  # the day's deal
    press(MENU)  # a typed code
    seen.setdefault(session.screen, session.view())
    press(Press(Button.MENU, Gesture.HOLD))  # an empty code: back to the setup
    _choose(session, "start")
    seen.setdefault(session.screen, session.view())
    press(NEXT)
    press(MENU)  # the menu over the round start
    _choose(session, "show_setup")
    seen.setdefault(session.screen, session.view())
    press(BACK)  # the recall returns to the round start
    while session.screen is not ScreenName.GAME_END:
        press(NEXT)
    press(MENU)
    _choose(session, "about")
    seen.setdefault(session.screen, session.view())
    press(NEXT)  # back to the menu
    _choose(session, "phones")
    seen.setdefault(session.screen, session.view())
    press(BACK)  # back to the menu
    _choose(session, "history")
    seen.setdefault(session.screen, session.view())
    press(MENU)  # back to the menu
    _choose(session, "new_game")
    seen.setdefault(session.screen, session.view())
    press(BACK)  # no: the menu again
    _choose(session, "resume")
    press(NEXT)
    press(Press(Button.MENU, Gesture.HOLD))  # seat 1's score sheet
    press(Press(Button.MENU, Gesture.HOLD))  # skipped: back to the total
    while session.screen is not ScreenName.RESULT:
        press(MENU)
    press(MENU)
    _choose(session, "shutdown")
    press(NEXT)
    solo = Session(Settings(players=1, pencil_order="own"))  # C-8: the player lays the row
    _choose(solo, "start")
    seen.setdefault(solo.screen, solo.view())
    return seen


@pytest.fixture(scope="module")
def shown() -> dict[ScreenName, views.View]:
    return every_screen()


def test_every_screen_has_one_entry_with_handler_view_and_kind():
    assert set(SCREENS) == set(ScreenName)
    for screen, entry in SCREENS.items():
        assert isinstance(entry, ScreenEntry), screen
        assert isinstance(entry.kind, Kind), screen
        assert callable(entry.press) and callable(entry.view), screen


def test_every_screen_is_reached_by_presses(shown):
    assert set(shown) == set(ScreenName), set(ScreenName) - set(shown)


def test_the_table_builds_each_screens_view(shown):
    for screen, view in shown.items():
        assert view.screen, screen
        assert json.loads(json.dumps(view.as_dict()))["screen"] == view.screen


def test_the_kinds_say_where_a_screen_stands(shown):
    game = {s for s, e in SCREENS.items() if e.kind is Kind.GAME}
    overlays = {s for s, e in SCREENS.items() if e.kind is Kind.OVERLAY}
    assert {ScreenName.SUMMARY, ScreenName.TURN, ScreenName.RESULT} <= game
    assert overlays == {
        ScreenName.MENU, ScreenName.CONFIRM, ScreenName.ABOUT, ScreenName.RECALL,
        ScreenName.PHONES, ScreenName.HISTORY,
    }
    assert SCREENS[ScreenName.SETUP].kind is Kind.SETUP
    assert SCREENS[ScreenName.SHUTDOWN].kind is Kind.MESSAGE


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_screen_has_a_title_and_a_page_in_every_language(shown, language):
    wording = words(language)
    for screen, view in shown.items():
        page = wording.page(view)
        assert isinstance(page, Page), screen
        assert page.title and page.title != view.screen, screen  # a real title, not the key
        assert page.lines and all(isinstance(line, Line) and line.text for line in page.lines)


def test_every_view_type_has_its_own_page():
    dispatcher = Pages.__dict__["page"].dispatcher
    fallback = dispatcher.dispatch(views.View)
    missing = [kind.__name__ for kind in views.ALL_VIEWS if dispatcher.dispatch(kind) is fallback]
    assert missing == []


def test_words_are_one_per_language():
    assert words("de") is words("de")
    assert words("de") is not words("fr")
