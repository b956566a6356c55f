"""What every screen's slice is handed: the session's state and what it runs beside.

A slice (`nsdevice.session.screens`) is a screen's press handler and view builder side by
side; both take the `Context`, read its `state` and the deal, and the handler changes the
state. `Session` is a `Context` that adds the dispatch through the records (its `screens`), the
view, the snapshot and the calls the loop and the phones make. The records are the
session's class attribute rather than imported here, so the slices can ask where a
screen stands without a circle.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, Generic, TypeVar

from nsdevice import views
from nsdevice.inputs.events import Button, Press
from nsdevice.rules.deal import Deal, Round, Setup, deal_game
from nsdevice.rules.frozen import dataclass
from nsdevice.rules.room import table_rounds
from nsdevice.session.names import Kind, ScreenName
from nsdevice.session.settings import (
    Capabilities,
    History,
    NoRecords,
    Records,
    Settings,
    join_code,
    random_seed,
)
from nsdevice.session.state import State

V = TypeVar("V", bound=views.View)
EVERY_BUTTON = frozenset(Button)


@dataclass(frozen=True, slots=True)
class Album:
    """What a screen's gallery examples are made for: a city, a language, and every
    screen's record (the menu's example lists the rows the records give it)."""

    city: str
    language: str
    screens: Mapping[ScreenName, Screen[Any]]


Examples = Callable[[Album], Iterable[tuple[str, views.View]]]
"""A screen's gallery examples: (name, view) pairs, made by the screen's own pure builder
over real deals (`screens.examples`), so a screenshot cannot show what the box never does."""


@dataclass(frozen=True, slots=True)
class Opened:
    """What the menu is opened over: the settings, the box's capabilities, whether a
    round is under way (its cards so far, its restart), whether the game is a room's."""

    settings: Settings
    capabilities: Capabilities
    in_round: bool = False
    room: bool = False


def always(opened: Opened) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class MenuEntry:
    """A screen's row in the menu: its key (the row's label is the page's, in `texts`),
    its place among the menu's rows (`screens.menu.PLACES`), when the menu shows it, and
    anything to do on the way in besides putting the screen up."""

    key: str
    after: str  # the row it follows
    shown: Callable[[Opened], bool] = always
    opening: Callable[[Context], None] | None = None


@dataclass(frozen=True, slots=True)
class Screen(Generic[V]):
    """One screen, declared once: its saved name, where it stands, the type of view it
    shows, what a press does there, the view, its menu row if the menu opens it, its
    gallery examples, and the buttons it gives a hold of their own. Every table that
    names screens (the dispatch, the names a snapshot may hold, every view type, the
    menu's rows, the gallery, the holds) is read from these records."""

    name: ScreenName
    kind: Kind
    view_type: type[V]
    press: Callable[[Context, Press], None]
    view: Callable[[Context], V]
    examples: Examples
    menu: MenuEntry | None = None
    holds: frozenset[Button] = frozenset()
    in_round: bool = False  # a round is under way: the menu offers to restart it
    over: bool = False  # the game is over: its deal code may be shown (D-2)


class Context:
    """One box's state and surroundings, as every slice sees them."""

    # every screen's record, by name: the session's (`Session.screens`, the one table);
    # read through the instance, so that a slice asks where a screen stands without a circle
    screens: ClassVar[Mapping[ScreenName, Screen[Any]]] = {}

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        capabilities: Capabilities | None = None,
        records: Records | None = None,
        seed_source: Callable[[], str] = random_seed,
        notices: tuple[tuple[str, str], ...] = (),
        code_source: Callable[[], str] = join_code,
        today: Callable[[], datetime.date] = datetime.date.today,
    ) -> None:
        """`today`: the local date, for the day's deal and the history's daily streak (the
        runner's clock; tests fix it)."""
        self.capabilities = capabilities or Capabilities()
        self.records: Records = records or NoRecords()
        self.today = today
        self.read_history: History | None = None  # read when the history opens, not saved
        self.seed_source = seed_source
        self.state = State(settings=settings or Settings())
        self._deal: Deal | None = None
        self._table_rounds: dict[tuple[Setup, int], tuple[Round, ...]] = {}  # a room's, by size
        # a room's pencil rows by setup and round (screens.room.size_rows): asked for by
        # every frame and the phones' table after it, the same all round
        self.room_rows: dict[tuple[Setup, int], tuple[tuple[views.SeatPencil, ...], ...]] = {}
        self.notices = list(notices)
        # Phones (not saved: a restart makes a new code, and phones join again)
        self.code_source = code_source
        self.join_code = code_source()
        self.game = 0  # games started in this run
        self.phone_seats: set[int] = set()

    @property
    def deal(self) -> Deal | None:
        """The game's whole deal, recomputed from its setup when the setup changes (D-1)."""
        setup = self.state.setup
        if setup is None:
            return None
        if self._deal is None or self._deal.setup != setup:
            self._deal = deal_game(setup)
        return self._deal

    def table_rounds(self, size: int) -> tuple[Round, ...]:
        """A room game: the rounds a table of `size` plays on this deal (rules.room), dealt
        once per setup (every frame asks for all four sizes)."""
        setup = self.current_setup()
        key = (setup, size)
        if key not in self._table_rounds:
            if len(self._table_rounds) >= 8:  # a new game: the last one's rows are done with
                self._table_rounds.clear()
            self._table_rounds[key] = table_rounds(setup, size)
        return self._table_rounds[key]

    def current_deal(self) -> Deal:
        deal = self.deal
        assert deal is not None, "a game screen without a game"
        return deal

    def current_setup(self) -> Setup:
        setup = self.state.setup
        assert setup is not None, "a game screen without a game"
        return setup

    def under(self) -> ScreenName:
        under = self.state.under
        assert under is not None, "an overlay over no game screen"
        return under

    @property
    def language(self) -> str:
        # every screen speaks the settings' language; those built from the settings read it there
        return self.state.settings.language

    def resume(self) -> None:
        """Back to the game screen beneath an overlay, on its first page: the cursor an
        overlay leaves is a row of its own list, no page of the game screen's (a room's
        results, nsdevice.session.valid)."""
        state = self.state
        state.screen = self.under()
        state.cursor = 0

    def showing(self) -> ScreenName:
        """The game screen the players see: beneath an overlay, else the screen itself."""
        state = self.state
        if self.screens[state.screen].kind is Kind.OVERLAY and state.under is not None:
            return state.under
        return state.screen

    def round_under_way(self) -> bool:
        under = self.state.under
        return under is not None and self.screens[under].in_round

    def game_over(self) -> bool:
        under = self.state.under
        return self.state.setup is not None and under is not None and self.screens[under].over

    def step(self, forward: bool) -> None:
        """One step through the fixed deal (D-1): the only way progress changes in play."""
        state = self.state
        deal = self.current_deal()
        moved = state.progress.forward(deal) if forward else state.progress.backward(deal)
        assert moved is not None, "a step past either end of the game"
        state.progress = moved

    def new_table(self) -> None:
        """A new game: phones that joined the last one must join again."""
        self.game += 1
        self.join_code = self.code_source()
        self.phone_seats = set()
