"""The menu over a game and what it leads to directly: the question before a step that
loses something, the about page, and the box going down.

The history, the phones and the recall are opened from here by name only; their own
slices say what they show and how they return.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from typing import Any

from nsdevice import __version__, views
from nsdevice.inputs.events import Button, Press
from nsdevice.rules.cities import city
from nsdevice.rules.progress import Progress
from nsdevice.session.context import Album, Context, MenuEntry, Opened, Screen, always
from nsdevice.session.names import Kind, ScreenName
from nsdevice.session.screens.common import (
    change_language,
    chosen,
    hints,
    in_round,
    keep_language_undo,
    list_hints,
    row_index,
    undo_language,
)
from nsdevice.session.screens.examples import tables
from nsdevice.session.screens.setup import start_game
from nsdevice.session.settings import BRIGHTNESS_LEVELS, VOLUME_LEVELS, Capabilities, Settings

# --- the menu -------------------------------------------------------------------------------
Shown = Callable[[Opened], bool]

# The menu's own rows in order: each one's value (None: it has none) and when it shows.
# A screen the menu opens brings its own row in its record (`MenuEntry`, after a row).
OWN_ROWS: tuple[tuple[str, Callable[[Settings], str | None], Shown], ...] = (
    ("resume", lambda s: None, always),
    ("restart_round", lambda s: None, in_round),
    ("new_game", lambda s: None, always),
    ("language", lambda s: s.language, always),
    ("sound", lambda s: "on" if s.sound else "off", always),
    ("voice", lambda s: "on" if s.voice else "off", always),
    ("volume", lambda s: f"{s.volume}/{VOLUME_LEVELS}", lambda o: o.settings.voice),
    (
        "brightness",
        lambda s: f"{s.brightness}/{BRIGHTNESS_LEVELS}",
        lambda o: o.capabilities.brightness,
    ),
    ("shutdown", lambda s: None, lambda o: o.capabilities.shutdown),
)


def menu_order(screens: Iterable[Screen[Any]]) -> tuple[str | MenuEntry, ...]:
    """Every row the menu may show, in order: its own rows' keys, and each screen's entry
    right after the row it names (`MenuEntry.after`)."""
    order: list[str | MenuEntry] = [key for key, _, _ in OWN_ROWS]
    waiting = [screen.menu for screen in screens if screen.menu is not None]
    while waiting:
        keys = [row if isinstance(row, str) else row.key for row in order]
        placed = [entry for entry in waiting if entry.after in keys]
        if not placed:
            raise ValueError(f"menu rows after no row: {[e.key for e in waiting]}")
        for entry in placed:
            keys = [row if isinstance(row, str) else row.key for row in order]
            order.insert(keys.index(entry.after) + 1, entry)
            waiting.remove(entry)
    return tuple(order)


def menu_rows(
    settings: Settings,
    capabilities: Capabilities,
    in_round: bool,
    screens: Iterable[Screen[Any]],
    room: bool = False,
) -> tuple[views.Row, ...]:
    """`in_round`: the menu was opened over a round under way: it may show the round's
    cards so far, or restart it; `screens`: every screen's record (their menu rows);
    `room`: a room game's."""
    opened = Opened(settings, capabilities, in_round, room)
    own = {key: (value, shown) for key, value, shown in OWN_ROWS}
    rows = []
    for row in menu_order(screens):
        if isinstance(row, MenuEntry):
            if row.shown(opened):
                rows.append(views.Row(row.key))
            continue
        value, shown = own[row]
        if shown(opened):
            rows.append(views.Row(row, value(settings)))
    return tuple(rows)


def opened_by(screens: Mapping[ScreenName, Screen[Any]]) -> dict[str, Screen[Any]]:
    """The screens the menu opens, by their row's key."""
    return {s.menu.key: s for s in screens.values() if s.menu is not None}


def menu_view(
    settings: Settings,
    capabilities: Capabilities,
    in_round: bool,
    cursor: int,
    screens: Iterable[Screen[Any]],
    language_before: str = "",
    room: bool = False,
) -> views.MenuView:
    rows = menu_rows(settings, capabilities, in_round, screens, room)
    return views.MenuView(
        rows=rows,
        cursor=cursor,
        hints=list_hints(rows, cursor, language_before),
        language=settings.language,
    )


def session_menu_rows(session: Context) -> tuple[views.Row, ...]:
    state = session.state
    return menu_rows(
        state.settings,
        session.capabilities,
        session.round_under_way(),
        session.screens.values(),
        state.room is not None,
    )


def show_menu(session: Context) -> views.MenuView:
    state = session.state
    in_round = session.round_under_way()
    return menu_view(
        state.settings,
        session.capabilities,
        in_round,
        state.cursor,
        session.screens.values(),
        state.language_before,
        state.room is not None,
    )


def open_menu(session: Context) -> None:
    state = session.state
    state.under = state.screen
    state.screen = ScreenName.MENU
    state.cursor = 0


def on_menu(session: Context, press: Press) -> None:
    state = session.state
    if undo_language(session, press):
        return
    key = chosen(session, press, session_menu_rows(session))
    keep_language_undo(session, key)
    s = state.settings
    if key == "resume":
        session.resume()
    elif key in ("restart_round", "new_game", "shutdown"):
        ask(session, key)
    elif key == "language":
        change_language(session)
    elif key == "sound":
        state.settings = replace(s, sound=not s.sound)
    elif key == "voice":
        state.settings = replace(s, voice=not s.voice)
    elif key == "volume":
        state.settings = replace(s, volume=s.volume % VOLUME_LEVELS + 1)
    elif key == "brightness":
        state.settings = replace(s, brightness=s.brightness % BRIGHTNESS_LEVELS + 1)
    elif key is not None:
        opened = opened_by(session.screens)[key]
        state.screen = opened.name
        if opened.menu is not None and opened.menu.opening is not None:
            opened.menu.opening(session)


# --- the question ---------------------------------------------------------------------------
def confirm_view(question: str, progress: Progress, language: str) -> views.ConfirmView:
    """`question`: "back_to_round", "restart_round", "new_game" or "shutdown"; the round it
    names is the one before `progress` when going back to it, else the current one."""
    return views.ConfirmView(
        question=question,
        round=progress.round - 1 if question == "back_to_round" else progress.round,
        hints=hints(next="yes", back="no", menu="no"),
        language=language,
    )


def show_confirm(session: Context) -> views.ConfirmView:
    return confirm_view(session.state.question, session.state.progress, session.language)


def ask(session: Context, question: str) -> None:
    state = session.state
    if state.screen is not ScreenName.MENU:
        state.under = state.screen
    state.question = question
    state.screen = ScreenName.CONFIRM


def on_confirm(session: Context, press: Press) -> None:
    state = session.state
    if press.button is not Button.NEXT:  # BACK or MENU: no
        if state.question == "back_to_round":
            session.resume()
        else:
            state.screen = ScreenName.MENU
            state.cursor = 0
        return
    question = state.question
    if question == "back_to_round":
        session.step(forward=False)  # from a round's start: the end of the one before
        state.screen = ScreenName.PENCIL_PASS
    elif question == "restart_round":
        state.progress = Progress(state.progress.round, 0)  # same cards (D-1)
        state.screen = ScreenName.ROUND_START
    elif question == "new_game":
        start_game(session)  # the remembered setup; BACK or MENU there changes it
    elif question == "shutdown":
        state.screen = ScreenName.SHUTDOWN
        state.request = "shutdown"


# --- about ----------------------------------------------------------------------------------
def about_view(city_name: str, language: str, seed: str | None = None) -> views.AboutView:
    """`seed`: the game's code, only once it is over (D-2)."""
    return views.AboutView(
        version=__version__,
        seed=seed,
        city=city_name,
        first_tier_top=city(city_name).tier_upper_bounds[0],
        hints=hints(next="back", back="back", menu="back"),
        language=language,
    )


def show_about(session: Context) -> views.AboutView:
    state = session.state
    seed = state.setup.seed if state.setup is not None and session.game_over() else None
    return about_view(state.settings.city, session.language, seed)


def on_about(session: Context, press: Press) -> None:
    session.state.screen = ScreenName.MENU


# --- shutting down --------------------------------------------------------------------------
def shutdown_view(language: str) -> views.ShutdownView:
    return views.ShutdownView(language=language)


def show_shutdown(session: Context) -> views.ShutdownView:
    return shutdown_view(session.language)


def on_shutdown(session: Context, press: Press) -> None:
    pass  # the box is going down; presses no longer matter


# --- the gallery's examples ---------------------------------------------------------------
def _menu_examples(album: Album) -> Iterator[tuple[str, views.View]]:
    settings = Settings(
        city=album.city, language=album.language, sound=True, voice=True, volume=3, brightness=4
    )
    every_row = Capabilities(brightness=True, shutdown=True)
    screens = album.screens.values()
    # over a turn, so that the round can be restarted
    rows = menu_rows(settings, every_row, True, screens)
    cursor = row_index(rows, "shutdown")
    yield "menu", menu_view(settings, every_row, True, cursor, screens)


def _confirm_examples(album: Album) -> Iterator[tuple[str, views.View]]:
    for question, progress in (
        ("back_to_round", Progress(round=3)),
        ("restart_round", Progress(round=3)),
        ("new_game", Progress(round=3)),
        ("shutdown", Progress()),
    ):
        name = f"confirm-{question.replace('_', '-')}"
        yield name, confirm_view(question, progress, album.language)


def _about_examples(album: Album) -> Iterator[tuple[str, views.View]]:
    yield "about", about_view(album.city, album.language)
    seed = tables(album.city).three.setup.seed
    yield "about-game-over", about_view(album.city, album.language, seed)


def _shutdown_examples(album: Album) -> Iterator[tuple[str, views.View]]:
    yield "shutdown", shutdown_view(album.language)


MENU = Screen(ScreenName.MENU, Kind.OVERLAY, views.MenuView, on_menu, show_menu, _menu_examples)
CONFIRM = Screen(
    ScreenName.CONFIRM, Kind.OVERLAY, views.ConfirmView, on_confirm, show_confirm,
    _confirm_examples,
)  # fmt: skip
ABOUT = Screen(
    ScreenName.ABOUT,
    Kind.OVERLAY,
    views.AboutView,
    on_about,
    show_about,
    _about_examples,
    menu=MenuEntry("about", after="history"),
)
SHUTDOWN = Screen(
    ScreenName.SHUTDOWN, Kind.MESSAGE, views.ShutdownView, on_shutdown, show_shutdown,
    _shutdown_examples,
)  # fmt: skip
RECORDS = (MENU, CONFIRM, ABOUT, SHUTDOWN)
