"""A setup that forgives (issue 26, item 9): one press too many on the language row is
undone with one BACK, whose label names the language it brings back; a list says where
its cursor goes round past either end."""

from __future__ import annotations

import pytest

from nsdevice.inputs.events import Button, Press
from nsdevice.session import Capabilities, ScreenName, Session, Settings
from nsdevice.texts import words

NEXT, BACK, MENU = Press(Button.NEXT), Press(Button.BACK), Press(Button.MENU)


def _on_row(session: Session, key: str) -> None:
    rows = [row.key for row in session.view().rows]
    while session.view().cursor != rows.index(key):
        session.press(NEXT)


def _legend(session: Session) -> dict[str, str]:
    view = session.view()
    said = words(view.language)
    return {hint.button: said.action(hint.action) for hint in view.hints}


def _at_setup() -> Session:
    session = Session(Settings(language="en"))
    session.deal_new_game()
    session.press(MENU)  # the summary's MENU: the setup list
    assert session.screen is ScreenName.SETUP
    return session


def _at_menu() -> Session:
    session = Session(Settings(language="en"), capabilities=Capabilities(brightness=True))
    session.deal_new_game()
    session.press(NEXT)
    session.press(MENU)
    assert session.screen is ScreenName.MENU
    return session


@pytest.mark.parametrize("opened", [_at_setup, _at_menu], ids=["setup", "menu"])
def test_one_back_undoes_a_run_of_language_changes(opened):
    session = opened()
    _on_row(session, "language")
    row = session.view().cursor
    session.press(MENU)
    session.press(MENU)  # one too many: English → Español → Deutsch
    assert session.state.settings.language == "de"
    assert _legend(session)["back"] == "English"  # in the words of the language it brings
    session.press(BACK)
    assert session.state.settings.language == "en" and session.view().cursor == row
    assert _legend(session)["back"] == "Up"  # the undo was taken: BACK moves again


@pytest.mark.parametrize("opened", [_at_setup, _at_menu], ids=["setup", "menu"])
def test_any_other_press_keeps_the_new_language(opened):
    session = opened()
    _on_row(session, "language")
    session.press(MENU)
    row = session.view().cursor
    session.press(NEXT)  # moving on: the Spanish stays
    session.press(BACK)
    assert session.state.settings.language == "es" and session.view().cursor == row


def test_going_round_to_the_first_language_leaves_nothing_to_undo():
    session = _at_setup()
    _on_row(session, "language")
    for _ in range(5):  # every language once, back to English
        session.press(MENU)
    assert session.state.settings.language == "en" and _legend(session)["back"] == "Up"


@pytest.mark.parametrize("opened", [_at_setup, _at_menu], ids=["setup", "menu"])
def test_a_list_says_where_it_goes_round_past_either_end(opened):
    session = opened()
    rows = session.view().rows
    session.state.cursor = 0
    assert _legend(session) == {"next": "Down", "back": "To the end", "menu": "Select"}
    session.press(BACK)
    assert session.view().cursor == len(rows) - 1
    assert _legend(session) == {"next": "To the top", "back": "Up", "menu": "Select"}
    session.press(NEXT)
    assert session.view().cursor == 0


def test_the_undo_survives_a_restart_and_a_bad_one_is_refused():
    import json

    session = _at_setup()
    _on_row(session, "language")
    session.press(MENU)
    saved = json.loads(json.dumps(session.snapshot()))
    assert saved["language_before"] == "en"
    again = Session.restore(saved)
    assert again.view() == session.view()
    again.press(BACK)
    assert again.state.settings.language == "en"
    with pytest.raises(ValueError):
        Session.restore({**saved, "language_before": "xx"})
    menu = _at_menu()
    _on_row(menu, "language")
    menu.press(MENU)
    over = json.loads(json.dumps(menu.snapshot()))
    with pytest.raises(ValueError, match="language to undo"):  # only a list can undo it
        Session.restore({**over, "screen": "about"})
