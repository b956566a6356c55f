"""What changes in a session, press by press; a snapshot is this, as plain values."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from nsdevice.rules.deal import Setup
from nsdevice.rules.progress import Progress
from nsdevice.session.names import ScreenName
from nsdevice.session.settings import Settings

if TYPE_CHECKING:  # the roster's module reads the screens', which read this one
    from nsdevice.session.roster import Roster


@dataclass
class State:
    """The session's changing part: the screen, the settings, the game and its entries."""

    screen: ScreenName = ScreenName.SETUP
    settings: Settings = field(default_factory=Settings)
    setup: Setup | None = None
    progress: Progress = field(default_factory=Progress)
    cursor: int = 0
    seed_code: str | None = None  # typed in to replay a deal; used by the next start only
    seed_characters: list[str] = field(default_factory=list)
    today: bool = False  # the next start deals the day's deal (D-2); used by it only
    pencil_choice: list[str] = field(default_factory=list)  # solo: pencils laid so far (C-8)
    # solo: the last game's own order, offered first so that MENU, MENU, MENU lays it again
    # (saved while the row is being laid, so a restart offers the same colour next)
    pencil_preference: tuple[str, ...] = ()
    # the language before a run of changes on a list, for one BACK to put back (not saved:
    # after a restart the language chosen stays)
    language_before: str = ""
    under: ScreenName | None = None  # the game screen beneath an overlay (menu, about, …)
    question: str = ""
    scores: list[int] = field(default_factory=list)
    entry: int = 0
    digits: list[str] = field(default_factory=list)  # the field being set, as shown
    digit: int = 0  # the digit being set
    sheet: list[int] = field(default_factory=list)  # the score sheet's counts, in sheet order
    sheet_step: int = 0  # the count being set
    # seats whose best line a score sheet gave (the box's or a phone's): never asked (C-12)
    sheet_best: list[int] = field(default_factory=list)
    # the lines entered as the game goes, at each round's end: seat → round → its counts
    lines: dict[int, dict[int, tuple[int, ...]]] = field(default_factory=dict)
    line_seat: int = 0  # the seat whose line the line entry is on (0: none)
    # each seat's whole score sheet once walked at the game's end: its result's breakdown
    sheets: dict[int, tuple[int, ...]] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)  # seat → the name its phone gave
    recorded: bool = False
    best_before: int | None = None  # the solo best for the city before this game
    room: Roster | None = None  # a room game's tables, seats and sheets; None: one table
    chime: str | None = None
    request: str | None = None  # for the loop: "shutdown"

    def forget_scores(self) -> None:
        """A new game: nothing scored, no line entered, no seat named yet."""
        self.scores = []
        self.sheet_best = []
        self.entry = 0
        self.lines = {}
        self.line_seat = 0
        self.sheets = {}
        self.names = {}
        self.recorded = False

    def leave_game(self) -> None:
        """No game any more: its setup, its room (a room is its game's), its scores, lines,
        sheets and names, and the game screen beneath the last overlay go together
        (nsdevice.session.valid)."""
        self.setup = None
        self.room = None
        self.under = None
        self.forget_scores()
