"""Which layout draws a view: one `singledispatch` over the view's type (`layout_of`).

Each kind of screen's `Layout` says how its body is drawn (by the glass's shape: a
caller's TV, a wide window, a panel), whether its words are its page's or its own
layout's, what its items are when it goes to pages on small glass, and whether a small
panel shows it as the small turn. A screen of words needs nothing here: the default is
its page, laid out as lines.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import singledispatch
from typing import Any

from nsdevice import views
from nsdevice.displays.canvas import Canvas
from nsdevice.displays.drawing import Box
from nsdevice.displays.layouts.caller import caller_turn, is_caller, room_pencils, summary_to_join
from nsdevice.displays.layouts.page import item, page, summary_items
from nsdevice.displays.layouts.phones import phones
from nsdevice.displays.layouts.room_results import room_results
from nsdevice.displays.layouts.room_tables import room_pass, room_start
from nsdevice.displays.layouts.round_start import round_start
from nsdevice.displays.layouts.small_page import OnePage
from nsdevice.displays.layouts.stack import Item
from nsdevice.displays.layouts.table import table_pass, table_start
from nsdevice.displays.layouts.turn import turn
from nsdevice.displays.layouts.wide_turn import is_wide, wide_turn
from nsdevice.rules.frozen import dataclass
from nsdevice.texts import Line, Page, Role, Words

Body = Callable[[Canvas, Any, Words, Page | None, Box], None]
Items = Callable[[Canvas, Any, Words], list[Item]]


def _page_body(canvas: Canvas, view: views.View, words: Words, text: Page | None, box: Box) -> None:
    assert text is not None, "a screen of words has its page"
    page(canvas, view, text, box)


def _page_items(canvas: Canvas, view: views.View, words: Words) -> list[Item]:
    return [item(canvas, line) for line in words.page(view).lines]


@dataclass(frozen=True, slots=True)
class Layout:
    """How one kind of screen is drawn."""

    body: Body = _page_body
    from_page: bool = True  # its title and lines are its page's (False: its own layout's)
    items: Items = _page_items  # its words as items, when it goes to pages on small glass
    small_turn: bool = False  # a small panel shows the small turn: the card, notes in pages
    small: OnePage | None = None  # a small panel shows one picture drawn by this, not pages


WORDS = Layout()


@singledispatch
def layout_of(view: views.View) -> Layout:
    """A screen of words: its page, as lines."""
    return WORDS


def lays_out(kind: type[views.View], layout: Layout) -> Layout:
    """`layout` is how every view of `kind` is drawn (registered with `layout_of`)."""
    layout_of.register(kind, lambda view: layout)
    return layout


# --- the turn -------------------------------------------------------------------------------
def _turn_body(
    canvas: Canvas, view: views.TurnView, words: Words, text: Page | None, box: Box
) -> None:
    if view.room and is_caller(canvas):
        caller_turn(canvas, view, words, box)
    elif is_wide(canvas):
        wide_turn(canvas, view, words, box)
    else:
        turn(canvas, view, words, box)


TURN = lays_out(views.TurnView, Layout(_turn_body, from_page=False, small_turn=True))


# --- a round's start ------------------------------------------------------------------------
def _round_start_body(
    canvas: Canvas, view: views.RoundStartView, words: Words, text: Page | None, box: Box
) -> None:
    if view.room is not None and is_wide(canvas):  # a room's: every table size's row
        room_pencils(canvas, view, words, box)
    else:
        round_start(canvas, view, words, box)


def _round_start_table(
    canvas: Canvas, view: views.RoundStartView, words: Words, body: Box, foot: Box
) -> None:
    """On a small panel: the table (a room's four small tables), every seat on one page;
    the module cards stay on the summary, a held MENU away."""
    (room_start if view.room is not None else table_start)(canvas, view, words, body, foot)


ROUND_START = lays_out(
    views.RoundStartView, Layout(_round_start_body, from_page=False, small=_round_start_table)
)


# --- the pencils passed on ------------------------------------------------------------------
def _pencil_pass_body(
    canvas: Canvas, view: views.PencilPassView, words: Words, text: Page | None, box: Box
) -> None:
    if view.room is not None and is_wide(canvas):  # a room's: every table size's row
        room_pencils(canvas, view, words, box)
    else:
        _page_body(canvas, view, words, text, box)


def _pencil_pass_table(
    canvas: Canvas, view: views.PencilPassView, words: Words, body: Box, foot: Box
) -> None:
    """On a small panel: each pencil where it goes round the table, on one page."""
    (room_pass if view.room is not None else table_pass)(canvas, view, words, body, foot)


PENCIL_PASS = lays_out(views.PencilPassView, Layout(_pencil_pass_body, small=_pencil_pass_table))


# --- the summary ----------------------------------------------------------------------------
def _summary_body(
    canvas: Canvas, view: views.SummaryView, words: Words, text: Page | None, box: Box
) -> None:
    if view.room and is_wide(canvas) and text is not None:  # a room's: the join column
        summary_to_join(canvas, view, words, text, box)
    else:
        _page_body(canvas, view, words, text, box)


def _summary_items(canvas: Canvas, view: views.SummaryView, words: Words) -> list[Item]:
    """Its lines, each pencil power's with its pencil and icon."""
    return summary_items(view, _page_items(canvas, view, words))


SUMMARY = lays_out(views.SummaryView, Layout(_summary_body, items=_summary_items))


# --- the room's results ---------------------------------------------------------------------
def _room_results_body(
    canvas: Canvas, view: views.RoomResultsView, words: Words, text: Page | None, box: Box
) -> None:
    if is_wide(canvas):
        room_results(canvas, view, words, box)
    else:
        _page_body(canvas, view, words, text, box)


ROOM_RESULTS = lays_out(views.RoomResultsView, Layout(_room_results_body))


# --- the result ----------------------------------------------------------------------------
def _result_items(canvas: Canvas, view: views.ResultView, words: Words) -> list[Item]:
    """On small glass, the result without each seat's breakdown (its quieter lines): the
    names and totals on as few pages as they take; big glass and the phones show it all."""
    return [item(canvas, line) for line in words.page(view).lines if line.role is not Role.NOTE]


RESULT = lays_out(views.ResultView, Layout(items=_result_items))


# --- the phones -----------------------------------------------------------------------------
def _phones_body(
    canvas: Canvas, view: views.PhonesView, words: Words, text: Page | None, box: Box
) -> None:
    assert text is not None, "the phones' screen has its page"
    phones(canvas, view, text, box)


def _phones_items(canvas: Canvas, view: views.PhonesView, words: Words) -> list[Item]:
    """The join code first, the addresses left to the QR code (at a readable size they are
    wider than the glass)."""
    lines = words.page(view).lines
    kept = sorted((ln for ln in lines if ln.role is not Role.DETAIL),
                  key=lambda ln: ln.role is not Role.HEADLINE)  # fmt: skip
    return [item(canvas, line) for line in kept]


PHONES = lays_out(views.PhonesView, Layout(_phones_body, items=_phones_items))


# --- a number set digit by digit: the score entry and the score sheet ------------------------
def _number_items(
    canvas: Canvas, view: views.ScoreEntryView | views.SheetView, words: Words
) -> list[Item]:
    """On small glass the digits stand in the title's row: the title opens the words. On
    the sheet the count asked for comes first (what the digits are), then the title with
    the line that says which item and step, so that the count is always on the first page."""
    text = words.page(view)
    lines = [line for line in text.lines if line.role is not Role.CODE]
    if len(lines) > 1 and lines[0].role is Role.HEADING:
        where = Line(f"{text.title} · {lines[0].text}", Role.NOTE)
        lines = [lines[1], where, *lines[2:]]
        return [item(canvas, line) for line in lines]
    return [item(canvas, Line(text.title)), *(item(canvas, line) for line in lines)]


SCORE_ENTRY = lays_out(views.ScoreEntryView, Layout(items=_number_items))
SCORE_SHEET = lays_out(views.SheetView, Layout(items=_number_items))
