"""The menu over a game and what it leads to directly: the question before a step that
loses something, the about page, and the box going down.

The history, the phones and the recall are opened from here by name only; their own
slices say what they show and how they return.
"""

from __future__ import annotations

from dataclasses import replace

from nsdevice import __version__, views
from nsdevice.inputs.events import Button, Press
from nsdevice.rules.cities import city
from nsdevice.rules.progress import Progress
from nsdevice.session.context import Context, ScreenEntry
from nsdevice.session.names import Kind, ScreenName
from nsdevice.session.screens.common import (
    change_language,
    chosen,
    hints,
    keep_language_undo,
    list_hints,
    undo_language,
)
from nsdevice.session.screens.setup import start_game
from nsdevice.session.settings import BRIGHTNESS_LEVELS, VOLUME_LEVELS, Capabilities, Settings

# The menu's rows that open a screen over the game, by the row's key.
OPENS = {
    "show_setup": ScreenName.RECALL,
    "round_so_far": ScreenName.ROUND_SO_FAR,
    "deck": ScreenName.DECK,
    "about": ScreenName.ABOUT,
    "phones": ScreenName.PHONES,
    "history": ScreenName.HISTORY,
}


# --- the menu -------------------------------------------------------------------------------
def menu_rows(
    settings: Settings, capabilities: Capabilities, in_round: bool, room: bool = False
) -> tuple[views.Row, ...]:
    """`in_round`: the menu was opened over a round under way: it may show the round's
    cards so far, or restart it. `room`: a room game's, with its tables."""
    return (
        views.Row("resume"),
        views.Row("show_setup"),
        *(
            (views.Row("round_so_far"), views.Row("deck"), views.Row("restart_round"))
            if in_round
            else ()
        ),
        views.Row("new_game"),
        views.Row("language", settings.language),
        views.Row("sound", "on" if settings.sound else "off"),
        views.Row("voice", "on" if settings.voice else "off"),
        *((views.Row("volume", f"{settings.volume}/{VOLUME_LEVELS}"),) if settings.voice else ()),
        *(
            (views.Row("brightness", f"{settings.brightness}/{BRIGHTNESS_LEVELS}"),)
            if capabilities.brightness
            else ()
        ),
        *((views.Row("shutdown"),) if capabilities.shutdown else ()),
        *((views.Row("phones"),) if capabilities.phones else ()),
        *((views.Row("room_tables"),) if room else ()),
        views.Row("history"),
        views.Row("about"),
    )


def menu_view(
    settings: Settings,
    capabilities: Capabilities,
    in_round: bool,
    cursor: int,
    language_before: str = "",
    room: bool = False,
) -> views.MenuView:
    rows = menu_rows(settings, capabilities, in_round, room)
    return views.MenuView(
        rows=rows,
        cursor=cursor,
        hints=list_hints(rows, cursor, language_before),
        language=settings.language,
    )


def session_menu_rows(session: Context) -> tuple[views.Row, ...]:
    state = session.state
    return menu_rows(
        state.settings, session.capabilities, session.round_under_way(), state.room is not None
    )


def show_menu(session: Context) -> views.MenuView:
    state = session.state
    in_round = session.round_under_way()
    return menu_view(
        state.settings,
        session.capabilities,
        in_round,
        state.cursor,
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
        state.screen = session.under()
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
    elif key == "history":
        session.read_history = session.records.history()
        state.screen = ScreenName.HISTORY
        state.cursor = 0  # the page shown, while the history is up
    elif key == "room_tables":  # a room game's only: opened here, not from OPENS
        state.screen = ScreenName.ROOM_TABLES
        state.cursor = 0  # the row "back", while the list is up
        state.question = ""
    elif key in OPENS:
        state.screen = OPENS[key]
        if key == "phones":
            state.cursor = 0  # the box's own Wi-Fi first, when it has one up (phones.py)


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
        state.screen = ScreenName.MENU if state.question != "back_to_round" else session.under()
        if state.screen is ScreenName.MENU:
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


SLICE = {
    ScreenName.MENU: ScreenEntry(Kind.OVERLAY, on_menu, show_menu),
    ScreenName.CONFIRM: ScreenEntry(Kind.OVERLAY, on_confirm, show_confirm),
    ScreenName.ABOUT: ScreenEntry(Kind.OVERLAY, on_about, show_about),
    ScreenName.SHUTDOWN: ScreenEntry(Kind.MESSAGE, on_shutdown, show_shutdown),
}
