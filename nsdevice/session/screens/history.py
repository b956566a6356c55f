"""The finished games and the bests, page by page, from the menu."""

from __future__ import annotations

from datetime import date

from nsdevice import views
from nsdevice.inputs.events import Button, Press
from nsdevice.session.context import Context, ScreenEntry
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


SLICE = {
    ScreenName.HISTORY: ScreenEntry(Kind.OVERLAY, on_history, show_history),
}
