"""Every screen is one record (`session.context.Screen`) and has every piece of the recipe
(docs/ARCHITECTURE.md, "Adding a screen"): its record (name, kind, view type, handler,
view, menu row, gallery examples), its page and title, and its words in every catalog.
What the records give by construction (the dispatch, ALL_VIEWS, the menu's rows, the
gallery) is not checked piece by piece: only that it is read from them. Its `--display
json` keys need nothing by hand: the reference is generated from the view
(tools/json_reference.py, tests/test_json_reference.py). Every set of screens here is
read from the records."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any, get_type_hints

import pytest
from babel.messages.pofile import read_po

from nsdevice import views
from nsdevice.gallery import example_views
from nsdevice.inputs.events import Button, Gesture, Press
from nsdevice.locale import LANGUAGES
from nsdevice.session import Capabilities, ScreenName, Session, Settings
from nsdevice.session.context import Album, Screen
from nsdevice.session.names import Kind
from nsdevice.session.screens import ALL_VIEWS, OTHER_VIEWS, RECORDS, SCREENS
from nsdevice.session.screens.menu import menu_rows, opened_by
from nsdevice.texts import Line, Page, Words, words
from nsdevice.texts.pages.base import Pages
from nsdevice.texts.vocabulary import ACTIONS

NEXT, BACK, MENU = Press(Button.NEXT), Press(Button.BACK), Press(Button.MENU)
ROOT = Path(__file__).resolve().parents[1]
TRANSLATED = tuple(language for language in LANGUAGES if language != "en")
EVERY_ROW = Capabilities(brightness=True, shutdown=True, phones=("http://192.168.1.23:8414/",))


def _choose(session: Session, key: str) -> None:
    """On a list screen (setup, menu): move the cursor to the row `key` and choose it."""
    view = session.view()
    assert isinstance(view, views.SetupView | views.MenuView)
    target = [row.key for row in view.rows].index(key)
    while session.view().cursor != target:  # type: ignore[attr-defined]
        session.press(NEXT)
    session.press(MENU)


def every_screen() -> dict[ScreenName, tuple[views.View, ScreenName | None]]:
    """One walk through a whole game that stops on every screen: each screen's first view,
    and the screen beneath it. The menu's rows that open a screen (`MenuEntry`) are each
    chosen over a turn (read from the records), so a new one is walked without changing
    this test."""
    session = Session(
        Settings(city="paris", players=2, modules=("objectives",)),
        capabilities=EVERY_ROW,
        seed_source=lambda: "TABLE",
    )
    seen: dict[ScreenName, tuple[views.View, ScreenName | None]] = {}

    def look(at: Session = session) -> None:
        seen.setdefault(at.screen, (at.view(), at.state.under))

    def press(press: Press) -> None:
        session.press(press)
        look()

    look()
    _choose(session, "seed")  # the day's deal
    press(MENU)  # a typed code
    look()
    press(Press(Button.MENU, Gesture.HOLD))  # an empty code: back to the setup
    _choose(session, "start")
    look()
    press(NEXT)
    press(NEXT)  # the first card
    press(MENU)
    over_a_turn = [row.key for row in session.view().rows]  # type: ignore[attr-defined]
    press(MENU)  # its first row, "resume": back to the turn
    opened = [key for key in opened_by(SCREENS) if key in over_a_turn]  # a room's: below
    for key in opened:  # each screen the menu opens, over the turn, and back
        press(MENU)
        _choose(session, key)
        look()
        for _ in range(3):
            if session.screen in (ScreenName.MENU, ScreenName.TURN):
                break
            press(BACK)
        if session.screen is ScreenName.MENU:
            _choose(session, "resume")
        assert session.screen is ScreenName.TURN, f"{key} does not return"
    press(BACK)  # the card back: the round's start
    while session.screen is not ScreenName.ROUND_END:
        press(NEXT)
    press(Press(Button.NEXT, Gesture.HOLD))  # each seat's line of the round (issue 34)
    press(Press(Button.MENU, Gesture.HOLD))  # seat 1 skipped
    press(Press(Button.MENU, Gesture.HOLD))  # seat 2 too: the round's end again
    while session.screen is not ScreenName.GAME_END:
        press(NEXT)
    press(MENU)
    _choose(session, "new_game")
    look()
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
    look(solo)
    room = Session(Settings(players=4))  # issue 25: past 4 players, a room
    _choose(room, "players")
    _choose(room, "start")
    room.next()  # the first round's start, where MENU opens the menu
    room.press(MENU)  # a room's own menu row (issue 32): its tables and seats
    _choose(room, "room_tables")
    look(room)
    room.press(MENU)  # the first row: back to the menu
    _choose(room, "resume")
    while room.screen is not ScreenName.ROOM_RESULTS:
        room.next()
    look(room)
    return seen


@pytest.fixture(scope="module")
def shown() -> dict[ScreenName, tuple[views.View, ScreenName | None]]:
    return every_screen()


# --- the recipe as a checklist ---------------------------------------------------------------
def _dispatches(method: str, kind: type) -> bool:
    """Whether `Words.title` or `Words.page` has a function of its own for the view type."""
    dispatcher = Pages.__dict__[method].dispatcher
    return dispatcher.dispatch(kind) is not dispatcher.dispatch(views.View)


@cache
def catalog_words(language: str) -> frozenset[str]:
    """The msgids translated in the language's catalog."""
    path = ROOT / "nsdevice" / "locale" / language / "LC_MESSAGES" / "nsdevice.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=language)
    return frozenset(m.id for m in catalog if m.id and m.string)


def words_used(view: views.View) -> set[str]:
    """Every msgid the view's title, page and legend look up (in English)."""
    used: set[str] = set()
    wording = Words("en")

    def record(msgid: str) -> str:
        used.add(msgid)
        return msgid

    wording._ = record
    wording.title(view)
    wording.page(view)
    used.update(ACTIONS[hint.action] for hint in view.hints if hint.action in ACTIONS)
    return used


def missing_pieces(
    screen: Screen[Any],
    gallery: Sequence[tuple[str, views.View]],
    translated: Callable[[str], frozenset[str]] = catalog_words,
) -> list[str]:
    """What the screen still lacks of the recipe besides its record, each piece named with
    the file it belongs in."""
    missing: list[str] = []
    kind = screen.view_type
    shown = get_type_hints(screen.view).get("return")
    if shown is not kind:
        missing.append(f"record: its view function returns {shown!r}, not {kind.__name__}")
    has_page = _dispatches("page", kind)
    if not has_page:
        missing.append(f"page: a @page_for({kind.__name__}) function (nsdevice/texts/pages/)")
        missing.append("words in each catalog: its page's, by python tools/catalogs.py")
    if not _dispatches("title", kind) and kind not in Words.titles:
        missing.append(f"title: page_for({kind.__name__}, title=...) or a @title_for function")
    if screen.menu is not None and screen.menu.key not in Words.labels:
        missing.append(f"menu row label: page_for(..., row=({screen.menu.key!r}, ...))")
    examples = [view for _, view in gallery if type(view) is kind]
    if not examples:
        missing.append(f"gallery example: a {kind.__name__} in its record's examples")
    if has_page:
        try:
            used = set().union(*(words_used(view) for view in examples))
        except KeyError as error:  # a key with no words: a row's label, a question…
            missing.append(f"words: the {kind.__name__} page has none for {error}")
            used = set()
        if screen.menu is not None and screen.menu.key in Words.labels:
            used.add(Words.labels[screen.menu.key])
        for language in TRANSLATED:
            untranslated = sorted(used - translated(language))
            if untranslated:
                missing.append(
                    f"words in {language}: {untranslated} in nsdevice/locale/{language}/"
                    "LC_MESSAGES/nsdevice.po (python tools/catalogs.py)"
                )
    return missing


@pytest.fixture(scope="module")
def gallery() -> list[tuple[str, views.View]]:
    return [example for city in ("tokyo", "paris", "london") for example in example_views(city)]


def test_every_screen_has_every_piece_of_the_recipe(gallery):
    report = {
        screen.name.value: pieces
        for screen in RECORDS
        if (pieces := missing_pieces(screen, gallery))
    }
    assert not report, "screens missing pieces of the recipe:\n" + "\n".join(
        f"  {screen}:\n" + "\n".join(f"    - {piece}" for piece in pieces)
        for screen, pieces in report.items()
    )


def test_the_checklist_names_every_missing_piece_at_once(gallery):
    """The about screen without its examples and its words: one message names the example,
    and each catalog that lacks a word."""
    without = [(n, v) for n, v in gallery if not isinstance(v, views.AboutView)]
    pieces = missing_pieces(SCREENS[ScreenName.ABOUT], without)
    assert [piece.split(":")[0] for piece in pieces] == ["gallery example"], pieces
    nothing: Callable[[str], frozenset[str]] = lambda language: frozenset()  # noqa: E731
    pieces = missing_pieces(SCREENS[ScreenName.ABOUT], gallery, nothing)
    assert [p.split(":")[0] for p in pieces] == [f"words in {lang}" for lang in TRANSLATED]
    assert "'About'" in pieces[0] and "nsdevice/locale/es/" in pieces[0]


# --- the records and what is read from them ----------------------------------------------------
def test_every_screen_name_has_one_record():
    assert [screen.name for screen in RECORDS] == list(SCREENS)  # no name twice
    assert set(SCREENS) == set(ScreenName)


def test_every_view_type_is_read_from_the_records():
    assert set(ALL_VIEWS) == {screen.view_type for screen in RECORDS} | set(OTHER_VIEWS)


def test_the_menu_rows_are_read_from_the_records():
    rows = [row.key for row in menu_rows(Settings(), EVERY_ROW, True, RECORDS, room=True)]
    opened = [screen.menu.key for screen in RECORDS if screen.menu is not None]
    assert set(opened) <= set(rows)
    assert rows.index("resume") == 0 and rows.index("show_setup") == 1  # placed by `after`


def test_the_gallery_is_read_from_the_records(gallery):
    album = Album("tokyo", "en", SCREENS)
    for screen in RECORDS:
        for name, view in screen.examples(album):
            assert type(view) is screen.view_type, (screen.name, name)
    assert {type(view) for _, view in gallery} == set(ALL_VIEWS)


def test_every_screen_is_reached_by_presses(shown):
    assert set(shown) == set(ScreenName), set(ScreenName) - set(shown)


def test_each_record_builds_its_screens_view(shown):
    for screen, (view, _) in shown.items():
        assert type(view) is SCREENS[screen].view_type, screen
        assert json.loads(json.dumps(view.as_dict()))["screen"] == view.screen


def test_the_kinds_say_where_a_screen_stands(shown):
    """Each kind read from the records: an overlay stands over a game screen; a game
    screen has a deal, a setup screen none."""
    for screen, (view, under) in shown.items():
        kind = SCREENS[screen].kind
        if kind is Kind.OVERLAY:
            assert under is not None and SCREENS[under].kind is Kind.GAME, screen
        if kind is Kind.SETUP:
            assert isinstance(view, views.SetupView | views.SeedEntryView | views.PencilOrderView)
    for kind in (Kind.SETUP, Kind.GAME, Kind.OVERLAY, Kind.MESSAGE):
        assert any(entry.kind is kind for entry in SCREENS.values()), kind


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_screen_has_a_title_and_a_page_in_every_language(shown, language):
    wording = words(language)
    for screen, (view, _) in shown.items():
        page = wording.page(view)
        assert isinstance(page, Page), screen
        assert page.title and page.title != view.screen, screen  # a real title, not the key
        assert page.lines and all(isinstance(line, Line) and line.text for line in page.lines)


def test_every_view_type_has_its_own_page():
    missing = [kind.__name__ for kind in ALL_VIEWS if not _dispatches("page", kind)]
    assert missing == []


def test_words_are_one_per_language():
    assert words("de") is words("de")
    assert words("de") is not words("fr")
