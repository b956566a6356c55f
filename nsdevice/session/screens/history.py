"""The finished games and the bests, page by page, from the menu."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from functools import partial

from nsdevice import views
from nsdevice.inputs.events import Button, Press
from nsdevice.rules import scoring
from nsdevice.rules.cities import city as city_data
from nsdevice.session.context import Album, Context, MenuEntry, Screen
from nsdevice.session.names import Kind, ScreenName
from nsdevice.session.screens.common import hints, row_index
from nsdevice.session.screens.menu import session_menu_rows
from nsdevice.session.settings import CITIES, History

HISTORY_PER_PAGE = 5  # lines of games or bests on one page: readable on a 320×240 panel


def history_pages(history: History, today: date) -> tuple[views.HistoryView, ...]:
    """The history in pages, without words: each city's last games, the solo bests, then
    the daily deals (kept apart); one "empty" page when no game has finished yet."""
    pages: list[views.HistoryView] = []
    for name in CITIES:
        games = tuple(g for g in history.games if g.city == name)[:HISTORY_PER_PAGE]
        if games:
            pages.append(views.HistoryView(section="games", city=name, games=games))
    for start in range(0, len(history.bests), HISTORY_PER_PAGE):
        chunk = history.bests[start : start + HISTORY_PER_PAGE]
        pages.append(views.HistoryView(section="bests", bests=chunk))
    if history.daily_days:
        pages.append(
            views.HistoryView(
                section="daily",
                bests=history.best_daily,
                streak=history.streak(today),
                days_played=len(history.daily_days),
            )
        )
    return tuple(pages) or (views.HistoryView(section="empty"),)


def history_view(history: History, today: date, page: int, language: str) -> views.HistoryView:
    """Page `page` (from 0, wrapping round) of the history; NEXT/BACK turn the pages."""
    pages = history_pages(history, today)
    shown = pages[page % len(pages)]
    return views.HistoryView(
        page=page % len(pages) + 1,
        pages=len(pages),
        section=shown.section,
        city=shown.city,
        games=shown.games,
        bests=shown.bests,
        streak=shown.streak,
        days_played=shown.days_played,
        # labelled by what they do: BACK turns a page back, it does not leave the history
        hints=hints(next="next_page", back="previous_page", menu="menu")
        if len(pages) > 1
        else hints(next="back", back="back", menu="back"),
        language=language,
    )


def _history(session: Context) -> History:
    if session.read_history is None:  # restored onto the history: read it again
        session.read_history = session.records.history()
    return session.read_history


def show_history(session: Context) -> views.HistoryView:
    return history_view(_history(session), session.today(), session.state.cursor, session.language)


def on_history(session: Context, press: Press) -> None:
    """NEXT and BACK turn the pages (round and round); MENU, or any button when all of
    it fits one page, goes back to the menu with the history row chosen."""
    state = session.state
    pages = len(history_pages(_history(session), session.today()))
    if press.button is Button.MENU or pages == 1:
        state.screen = ScreenName.MENU
        state.cursor = row_index(session_menu_rows(session), "history")
        session.read_history = None
        return
    step = 1 if press.button is Button.NEXT else -1
    state.cursor = (state.cursor + step) % pages


def open_history(session: Context) -> None:
    """From the menu: the history read once as it opens, its first page up."""
    session.read_history = session.records.history()
    session.state.cursor = 0  # the page shown, while the history is up


# --- the gallery's examples ---------------------------------------------------------------
HISTORY_TODAY = date(2026, 11, 23)  # the history examples' "today", for a fixed streak


def _history_examples(album: Album) -> Iterator[tuple[str, views.View]]:
    """The history's pages: a city's last games (solo, tables, a daily deal), the bests,
    the daily deals, and a box that has finished no game yet."""
    city, language = album.city, album.language
    bounds = city_data(city).tier_upper_bounds

    def solo(
        on: str, adjusted: int, modules: tuple[str, ...] = (), daily: bool = False
    ) -> views.PlayedGame:
        tier = scoring.solo_tier(city_data(city), adjusted)
        total = adjusted + scoring.MODULE_PENALTY * len(modules)
        return views.PlayedGame(on, city, 1, modules, (total,), (), adjusted, tier,
                                on if daily else None)  # fmt: skip

    games = (
        solo("2026-11-23", bounds[3] + 3, ("objectives",), daily=True),
        views.PlayedGame("2026-11-22", city, 3, (), (142, 156, 149), (2,)),
        solo("2026-11-22", bounds[2] - 2, daily=True),
        views.PlayedGame("2026-11-18", city, 4, (), (133, 120, 133, 101), (1, 3)),
        solo("2026-11-15", bounds[4] + 6, ("objectives", "city_gates", "pencil_powers")),
    )
    best = partial(views.BestScore, city)
    history = History(
        games=games,
        bests=(
            best((), bounds[2] - 2, "2026-11-22"),
            best(("objectives",), bounds[3] + 3, "2026-11-23"),
            best(("objectives", "city_gates", "pencil_powers"), bounds[4] + 6, "2026-11-15"),
            best(("special_stations", "city_gates"), bounds[1] + 1, "2026-10-30"),
        ),
        daily_days=("2026-11-23", "2026-11-22", "2026-11-21", "2026-11-19"),
        best_daily=(best(("objectives",), bounds[3] + 3, "2026-11-23"),),
    )
    yield "history", history_view(history, HISTORY_TODAY, 0, language)
    yield "history-bests", history_view(history, HISTORY_TODAY, 1, language)
    yield "history-daily", history_view(history, HISTORY_TODAY, 2, language)
    yield "history-empty", history_view(History(), HISTORY_TODAY, 0, language)


HISTORY = Screen(
    ScreenName.HISTORY,
    Kind.OVERLAY,
    views.HistoryView,
    on_history,
    show_history,
    _history_examples,
    menu=MenuEntry("history", after="room_tables", opening=open_history),
)
RECORDS = (HISTORY,)
