"""What every page shares: its lines and their roles, the list screens' rows, and the
two dispatchers each family of pages registers on (by the view's type).

A screen's words are its family's module beside this one (`setup`, `game`, `scores`,
`menu`, `history`, `phones`, `room`): a `@page_for(view type, title=…, row=…)` function
for its view's type, and a `@title_for` function when its title has numbers in it.
The roles say what a line is (a heading, a warning, the number being set…); the graphic
layout styles lines by role from one table, and the terminal prints them as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from functools import singledispatchmethod
from typing import Any, ClassVar, TypeVar

from nsdevice import views
from nsdevice.locale import N_
from nsdevice.rules.frozen import dataclass
from nsdevice.texts.vocabulary import LANGUAGE_NAMES, Vocabulary


class Role(Enum):
    """What one line of a page is."""

    ITEM = "item"  # an ordinary line
    HEADING = "heading"  # over the lines below it
    ROW = "row"  # a line of a list with a cursor
    WARNING = "warning"  # advice the players should not miss
    VALUE = "value"  # the number being set
    NOTE = "note"  # a quieter line: an introduction, where we are in a sequence
    BUTTONS = "buttons"  # how the box's own buttons work here (a phone leaves it out)
    DETAIL = "detail"  # small print, for whoever fixes the box
    FORMULA = "formula"  # how to score, to read off the screen
    HEADLINE = "headline"  # the line that matters most: the winner, the tier reached
    CONTROLLER = "controller"  # who turns the cards next
    PENCIL = "pencil"  # one pencil's move
    CODE = "code"  # the deal code being typed
    PICTURE = "picture"  # about the picture drawn beside (a QR code): none drawn, none said


class Form(Enum):
    """How a page as a whole is read."""

    LINES = "lines"  # lines one below the other
    LIST = "list"  # rows with a cursor, then any warnings
    MESSAGE = "message"  # a sentence or two to read: larger, centred
    CENTRED = "centred"  # one number to set, centred
    COLUMNS = "columns"  # a long summary: may flow into two columns
    CODE = "code"  # the deal code, one box per character


@dataclass(frozen=True, slots=True)
class Line:
    text: str
    role: Role = Role.ITEM


@dataclass(frozen=True, slots=True)
class Page:
    """A screen's words, for screens laid out as a title and lines of text."""

    title: str
    lines: tuple[Line, ...] = ()
    emphasis: tuple[int, ...] = ()  # indexes of lines to mark (a list's cursor, a value set)
    form: Form = Form.LINES
    cursor: int | None = None  # the character being set in a code line (Role.CODE)


def items(texts: list[str] | tuple[str, ...], role: Role = Role.ITEM) -> list[Line]:
    return [Line(text, role) for text in texts]


ROWS = {  # the setup's lines and the menu's own (a screen's row: its page_for(row=...))
    "city": N_("City"),
    "players": N_("Players"),
    "pencil_order": N_("Pencil order"),
    "objectives": N_("Objectives"),
    "special_stations": N_("Special stations"),
    "city_gates": N_("City gates"),
    "pencil_powers": N_("Pencil powers"),
    "seed": N_("Deal"),
    "language": N_("Language"),
    "start": N_("Start the game"),
    "resume": N_("Back to the game"),
    "restart_round": N_("Restart this round"),
    "new_game": N_("New game"),
    "sound": N_("Sound"),
    "voice": N_("Voice"),
    "volume": N_("Volume"),
    "brightness": N_("Brightness"),
    "shutdown": N_("Shut down"),
}
SWITCHED_ROWS = frozenset(
    {"objectives", "special_stations", "city_gates", "pencil_powers", "sound", "voice"}
)

PENCIL_ORDERS = {"drawn": N_("Drawn"), "own": N_("My own")}  # C-8 solo


class Pages(Vocabulary):
    """The wording of pages for one language: each family of screens registers its pages
    and titles here (`page_for`, `title_for`), from its own module."""

    # filled by `page_for`, as each family's module is imported (`pages/__init__.py`)
    titles: ClassVar[dict[type[views.View], str]] = {}  # the titles with no numbers in them
    labels: ClassVar[dict[str, str]] = {}  # the menu's rows that open a screen, by key

    # --- rows of the list screens ---------------------------------------------------------
    def row(self, row: views.Row) -> str:
        label = self._(ROWS[row.key] if row.key in ROWS else self.labels[row.key])
        value = self.row_value(row)
        return self.labelled(label, value) if value else label

    def row_value(self, row: views.Row) -> str:
        value = row.value
        if value is None:
            return ""
        if row.key == "city":
            return self.city(value)
        if row.key == "players":
            named = {"1": self._("Solo"), "room": self._("Room")}
            return named.get(value, value)
        if row.key in SWITCHED_ROWS:
            return self.on_off(value == "on")
        if row.key == "pencil_order":
            return self._(PENCIL_ORDERS[value])
        if row.key == "seed":
            named = {"random": self._("Random"), "today": self._("Today")}
            return named.get(value, value)
        if row.key == "language":
            return LANGUAGE_NAMES[value]
        return value

    # --- titles and pages, by the view's type ----------------------------------------------
    @singledispatchmethod
    def title(self, view: views.View) -> str:
        title = self.titles.get(type(view))
        return self._(title) if title is not None else view.screen

    @singledispatchmethod
    def page(self, view: views.View) -> Page:
        """Title and lines for any screen; the graphic displays draw turn and round start
        themselves but the terminal uses this for every screen."""
        raise TypeError(f"no page for {type(view).__name__}")

    def _list_page(self, view: views.SetupView | views.MenuView, extra: list[Line]) -> Page:
        rows = [Line(self.row(row), Role.ROW) for row in view.rows]
        return Page(self.title(view), (*rows, *extra), emphasis=(view.cursor,), form=Form.LIST)


V = TypeVar("V", bound=views.View)
_TITLE: singledispatchmethod[str] = Pages.__dict__["title"]
_PAGE: singledispatchmethod[Page] = Pages.__dict__["page"]


def page_for(
    view_type: type[V], *, title: str | None = None, row: tuple[str, str] | None = None
) -> Callable[[Callable[[Any, V], Page]], Callable[[Any, V], Page]]:
    """A screen's page, registered for its view's type, with its title when it has no
    numbers in it (`title`, marked `N_`) and its menu row's (key, label) if the menu
    opens it: everything a screen's words need, in one place."""

    def register(function: Callable[[Any, V], Page]) -> Callable[[Any, V], Page]:
        _PAGE.register(view_type, function)
        if title is not None:
            Pages.titles[view_type] = title
        if row is not None:
            Pages.labels[row[0]] = row[1]
        return function

    return register


def title_for(
    view_type: type[V],
) -> Callable[[Callable[[Any, V], str]], Callable[[Any, V], str]]:
    """A screen's title for its view's type, when it has numbers in it."""

    def register(function: Callable[[Any, V], str]) -> Callable[[Any, V], str]:
        _TITLE.register(view_type, function)
        return function

    return register
