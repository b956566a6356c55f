"""What each screen shows, as plain data (DESIGN.md: session → view → display).

A view holds facts, not words: card faces, counts, keys such as `restart_round`.
`nsdevice.texts` turns keys into the player's language; displays lay them out.
`as_dict()` is the `--display json` line: keep its keys stable (tools/json_reference.py
writes them into docs/reference/json-screens.md, with the comment beside each field).
"""

from __future__ import annotations

import dataclasses
from enum import Enum, StrEnum
from typing import Any, ClassVar

from nsdevice.places.panel import DEFAULT_PANEL as DEFAULT_PANEL
from nsdevice.places.panel import EDGES as EDGES
from nsdevice.places.panel import Hint as Hint
from nsdevice.places.panel import Panel as Panel
from nsdevice.places.panel import Place as Place
from nsdevice.places.seating import RoomCall as RoomCall
from nsdevice.places.seating import RoomListed as RoomListed
from nsdevice.places.seating import RoomPlace as RoomPlace
from nsdevice.places.seating import RoomSeat as RoomSeat
from nsdevice.places.seating import RoomTable as RoomTable
from nsdevice.places.seating import SeatPencil as SeatPencil
from nsdevice.rules.cards import StationCard
from nsdevice.rules.frozen import dataclass


class ScreenName(StrEnum):
    """The screens the session can be on. A member's value is the name a snapshot stores,
    so saved games keep restoring: never rename one. What a screen is and does is its
    record in its family's module of `nsdevice.session.screens`."""

    SETUP = "setup"
    SEED_ENTRY = "seed_entry"
    PENCIL_ORDER = "pencil_order"  # solo: the player lays the pencils' row (C-8)
    SUMMARY = "summary"
    ROUND_START = "round_start"
    TURN = "turn"
    ROUND_END = "round_end"
    PENCIL_PASS = "pencil_pass"
    GAME_END = "game_end"
    SCORE_ENTRY = "score_entry"
    SCORE_SHEET = "score_sheet"  # one seat's score sheet, item by item, from the score entry
    RESULT = "result"
    MENU = "menu"
    CONFIRM = "confirm"
    ABOUT = "about"
    RECALL = "recall"  # this game's cards again, from the menu
    SHUTDOWN = "shutdown"
    PHONES = "phones"  # the page's address and join code, from the menu
    HISTORY = "history"  # the finished games and the bests, from the menu
    ROUND_SO_FAR = "round_so_far"  # this round's cards so far, from the menu
    DECK = "deck"  # the round's cards not revealed yet, from the menu
    ROOM_RESULTS = "room_results"  # a room game's end: the room's ranking (issue 25)
    PENCILS = "pencils"  # every seat's pencil this round, from the menu
    ROOM_TABLES = "room_tables"  # a room's tables and who sits where; the caller frees seats
    LINE_ENTRY = "line_entry"  # a round's end: each seat's line of that round, seat by seat


@dataclass(frozen=True, slots=True)
class View:
    screen: ClassVar[str] = ""
    language: str = "en"  # the box's language: en, es, de, it or fr
    hints: tuple[Hint, ...] = ()  # what each button does here, and where its label is drawn
    chime: str | None = None  # a sound cue for this change ("reveal", "round_end"), if sound is on

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"screen": self.screen}
        for item in dataclasses.fields(self):
            data[item.name] = _plain(getattr(self, item.name))
        return data


def _plain(value: Any) -> Any:
    if isinstance(value, StationCard):
        return value.as_dict()
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


@dataclass(frozen=True, slots=True)
class Row:
    """One line of a list screen (setup, menu): a key and its current value key, if any."""

    key: str
    value: str | None = None
    enabled: bool = True


@dataclass(frozen=True, slots=True)
class SetupView(View):
    screen: ClassVar[str] = "setup"
    rows: tuple[Row, ...] = ()
    cursor: int = 0
    city: str = "tokyo"  # tokyo, paris or london
    players: int = 1  # at this table, 1 to 4
    modules: tuple[str, ...] = ()  # the modules in play
    seed: str | None = None  # None: a random deal; else the code typed in to replay a deal
    mix_warning: bool = False


@dataclass(frozen=True, slots=True)
class SeedEntryView(View):
    screen: ClassVar[str] = "seed_entry"
    characters: tuple[str, ...] = ()  # "" marks the end
    cursor: int = 0


@dataclass(frozen=True, slots=True)
class PencilOrderView(View):
    """Solo, before the game: the player lays the pencils in the order they will use them."""

    screen: ClassVar[str] = "pencil_order"
    city: str = "tokyo"  # tokyo, paris or london
    chosen: tuple[str, ...] = ()  # laid so far, first round first
    offered: str = ""  # the colour NEXT and BACK are showing, for the next place in the row
    left: tuple[str, ...] = ()  # the colours not laid yet, the offered one among them


@dataclass(frozen=True, slots=True)
class SummaryView(View):
    screen: ClassVar[str] = "summary"
    city: str = "tokyo"  # tokyo, paris or london
    players: int = 1  # at this table, 1 to 4
    modules: tuple[str, ...] = ()  # the modules in play
    objectives: tuple[str, ...] = ()  # the shared objectives drawn (C-11)
    city_gates: tuple[tuple[str, str], ...] = ()  # (corner, bonus) (P-CG-1)
    pencil_powers: tuple[tuple[str, str], ...] = ()  # (colour, power) (L-PP)
    solo_order: tuple[str, ...] = ()  # solo: the pencils' row, round 1 first (C-8)
    mix_warning: bool = False
    recall: bool = False  # shown again from the menu: BACK/NEXT return to the game
    room: RoomCall | None = None  # a room game: how to join (None: one table)


@dataclass(frozen=True, slots=True)
class ModuleCards:
    """The module cards that lie face up all game, for screens that keep them in view
    during a round: the shared objectives (C-11), the city gates' bonus per corner
    (P-CG-1, X-3), each pencil colour's power (L-PP)."""

    objectives: tuple[str, ...] = ()  # the shared objectives drawn (C-11)
    city_gates: tuple[tuple[str, str], ...] = ()  # (corner, bonus)
    pencil_powers: tuple[tuple[str, str], ...] = ()  # (colour, power)

    def __bool__(self) -> bool:
        return bool(self.objectives or self.city_gates or self.pencil_powers)


@dataclass(frozen=True, slots=True)
class Pairing:
    symbol: str
    effect: str


@dataclass(frozen=True, slots=True)
class RoundStartView(View):
    screen: ClassVar[str] = "round_start"
    city: str = "tokyo"  # tokyo, paris or london
    round: int = 1  # 1 to 4
    rounds: int = 4  # in the game
    players: int = 1  # at this table, 1 to 4
    controller: int = 1  # the seat turning the cards (C-10); 0 in a room game
    pencils: tuple[SeatPencil, ...] = ()  # seats first, then the table spots
    pairing: Pairing | None = None  # this round's special station (T-SP-2), if played
    objectives: tuple[str, ...] = ()  # the shared objectives drawn (C-11)
    module_cards: ModuleCards = ModuleCards()
    room: RoomCall | None = None  # a room game: every table size's pencils, how to join


@dataclass(frozen=True, slots=True)
class PlayedTurn:
    """A turn as shown in the strip of the round's earlier cards (C-3)."""

    number: int
    cards: tuple[StationCard, ...]
    switch_effect: bool | None
    paired_effect: str | None


@dataclass(frozen=True, slots=True)
class TurnView(View):
    screen: ClassVar[str] = "turn"
    city: str = "tokyo"  # tokyo, paris or london
    round: int = 1  # 1 to 4
    turn: int = 1
    controller: int = 1  # the seat turning the cards (C-10); 0 in a room game
    cards: tuple[StationCard, ...] = ()  # one card, or the switch then its companion (C-5)
    earlier: tuple[PlayedTurn, ...] = ()  # the round's turns before this one (C-3)
    underground_seen: int = 0  # underground cards revealed this round (C-4)
    underground_total: int = 5  # the round ends on this one
    switch_effect: bool | None = None  # False: "no effect" (T-4, L-3, D-3)
    paired_effect: str | None = None  # T-SP-3
    paired_effect_active: bool | None = None  # D-10
    pairing: Pairing | None = None  # this round's special station (T-SP-2), if played
    joker_extra: str = ""  # T-3 double track, P-3 guided tour
    last: bool = False  # this turn reveals the 5th underground card (C-4)
    module_cards: ModuleCards = ModuleCards()  # face up all game: kept in view
    remaining: tuple[StationCard, ...] = ()  # still in the deck: underground first (C-2, C-3)
    room: RoomCall | None = None  # a room game (the caller's screen); None: one table


@dataclass(frozen=True, slots=True)
class RoundSoFarView(View):
    """This round's cards so far, from the menu: for a player who missed one (C-3)."""

    screen: ClassVar[str] = "round_so_far"
    city: str = "tokyo"  # tokyo, paris or london
    round: int = 1  # 1 to 4
    turns: tuple[PlayedTurn, ...] = ()  # every turn revealed in this round, the first first
    underground_seen: int = 0  # underground cards revealed this round (C-4)
    underground_total: int = 5  # the round ends on this one


@dataclass(frozen=True, slots=True)
class DeckView(View):
    """The round's cards still in the deck, by kind and symbol (C-2, C-3): the tracker the
    big screens show beside the earlier cards, as a screen of its own on small glass."""

    screen: ClassVar[str] = "deck"
    city: str = "tokyo"  # tokyo, paris or london
    round: int = 1  # 1 to 4
    remaining: tuple[StationCard, ...] = ()  # underground first, each kind in deck order
    underground_seen: int = 0  # underground cards revealed this round (C-4)
    underground_total: int = 5  # the round ends on this one


@dataclass(frozen=True, slots=True)
class PencilsView(View):
    """Every seat's pencil this round on one page, from the menu: its colour, its start
    station and its power (C-8, L-PP), who turns the cards (C-10), the spares on the
    table; a room's: every table size's row, each table keeping its own controller."""

    screen: ClassVar[str] = "pencils"
    city: str = "tokyo"  # tokyo, paris or london
    round: int = 1  # 1 to 4
    players: int = 1  # 1 to 4; a room's game is dealt for 4
    controller: int = 0  # the seat that turns the cards; 0 in a room
    pencils: tuple[SeatPencil, ...] = ()  # seats first, then the spares on the table
    rows: tuple[tuple[SeatPencil, ...], ...] = ()  # a room's: tables of 1, 2, 3 and 4


@dataclass(frozen=True, slots=True)
class RoundEndView(View):
    screen: ClassVar[str] = "round_end"
    city: str = "tokyo"  # tokyo, paris or london
    round: int = 1  # 1 to 4
    rounds: int = 4  # in the game
    solo: bool = False
    line_scoring: str = ""  # "districts", "quarters" or "" (London)
    lines: bool = False  # a held NEXT enters each seat's line of this round (the line entry)
    running: tuple[int | None, ...] = ()  # each seat's lines entered so far; None: none yet


@dataclass(frozen=True, slots=True)
class PencilMove:
    colour: str
    from_slot: str
    to_slot: str


@dataclass(frozen=True, slots=True)
class PencilPassView(View):
    screen: ClassVar[str] = "pencil_pass"
    city: str = "tokyo"  # tokyo, paris or london
    round: int = 2  # the round about to start
    players: int = 1  # at this table, 1 to 4
    moves: tuple[PencilMove, ...] = ()
    next_controller: int = 1
    solo_next: str | None = None  # solo: the next pencil in the row
    room: RoomCall | None = None  # a room game: every table size's next pencils


@dataclass(frozen=True, slots=True)
class GameEndView(View):
    screen: ClassVar[str] = "game_end"
    city: str = "tokyo"  # tokyo, paris or london
    players: int = 1  # at this table, 1 to 4
    seed: str = ""  # D-2: shown once the game is over
    sheet: bool = False  # a held NEXT opens the first seat's score sheet (a city with one)


@dataclass(frozen=True, slots=True)
class ScoreEntryView(View):
    screen: ClassVar[str] = "score_entry"
    city: str = "tokyo"  # tokyo, paris or london
    seat: int = 1
    field: str = "total"  # "total" or "best_line"
    value: int = 0
    step: int = 0  # which field of how many
    steps: int = 1
    solo: bool = True
    digits: tuple[str, ...] = ()  # the value as shown, digit by digit ("−" first if below 0)
    cursor: int = 0  # the digit being set
    sheet: bool = False  # a held MENU opens this seat's score sheet (a total, a city with one)
    line_scoring: str = ""  # "districts", "quarters" or "" (London: totals only)


@dataclass(frozen=True, slots=True)
class SheetCount:
    key: str  # a scoring.Count key: "districts", "stations", "stamps", "interchanges_3", ...
    value: int


@dataclass(frozen=True, slots=True)
class SheetView(View):
    """One item of a seat's score sheet (S-T-END, S-P-END): its counts, the one being set,
    its points and the running total."""

    screen: ClassVar[str] = "score_sheet"
    city: str = "tokyo"  # tokyo, paris or london
    seat: int = 1
    solo: bool = True
    item: str = "line"  # a scoring.SheetItem key
    number: int = 0  # a line's round
    counts: tuple[SheetCount, ...] = ()
    count: int = 0  # the count being set
    digits: tuple[str, ...] = ()
    cursor: int = 0
    points: int | None = None  # this item's points; None while its counts cannot all be right
    running: int | None = None  # the total of the sheet so far
    step: int = 0  # which item of how many
    steps: int = 1
    line_scoring: str = "districts"
    module_penalty: int = 0  # solo: what C-13 takes off the total on the result
    along: bool = False  # a round's line entered at the round's end (the line entry)


@dataclass(frozen=True, slots=True)
class SheetPart:
    """One part of a total as its sheet gave it (S-T-END, S-P-END)."""

    key: str  # "lines", "stamps", "ring", "overpasses", "interchanges" or "objectives"
    points: int  # the ring's is negative


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    total: int
    best_line: int
    name: str = ""  # the name its phone gave in a one-table game; "" for none ("Seat N")
    parts: tuple[SheetPart, ...] = ()  # its total by part, when its sheet gave the total


@dataclass(frozen=True, slots=True)
class ResultView(View):
    screen: ClassVar[str] = "result"
    city: str = "tokyo"  # tokyo, paris or london
    seed: str = ""
    solo: bool = True
    total: int = 0
    modules_used: int = 0
    penalty: int = 0
    adjusted: int = 0
    tier: int = 0
    tier_low: int | None = None  # S-SOLO: the tier's band, both ends inclusive (D-4);
    tier_high: int | None = None  # None: open (the lowest tier's bottom, the top's top)
    personal_best: int | None = None  # before this game, same city and module set (C-13)
    new_best: bool = False
    seats: tuple[SeatResult, ...] = ()
    winners: tuple[int, ...] = ()
    decided_by: str = ""  # "total", "best_line", "shared"
    daily: str | None = None  # the date (ISO) when this was the day's deal (D-2)
    parts: tuple[SheetPart, ...] = ()  # solo: the total by part, when the sheet gave it


@dataclass(frozen=True, slots=True)
class RoomResultsView(View):
    """A room game's end: the room's ranking as the phones' sheets come in (C-12), a page
    at a time where it is long; the deal code, for rooms that play it too (D-2)."""

    screen: ClassVar[str] = "room_results"
    city: str = "tokyo"  # tokyo, paris or london
    seed: str = ""
    modules: tuple[str, ...] = ()  # the modules in play
    ranking: tuple[RoomPlace, ...] = ()  # this page's places, best first
    page: int = 1
    pages: int = 1
    scored: int = 0  # sheets in
    players: int = 0  # players joined
    tables: int = 0


@dataclass(frozen=True, slots=True)
class RoomTablesView(View):
    """A room's tables and who sits where, from the menu (issue 32): the caller chooses a
    seat or a table, then chooses it again to free it (its phones may join again)."""

    screen: ClassVar[str] = "room_tables"
    rows: tuple[RoomListed, ...] = ()  # each table, then its seats
    cursor: int = 0  # 0: back to the menu; k: rows[k - 1]
    freeing: bool = False  # the row at the cursor was chosen once: choosing it again frees it
    tables: int = 0
    players: int = 0


@dataclass(frozen=True, slots=True)
class MenuView(View):
    screen: ClassVar[str] = "menu"
    rows: tuple[Row, ...] = ()
    cursor: int = 0


@dataclass(frozen=True, slots=True)
class ConfirmView(View):
    screen: ClassVar[str] = "confirm"
    question: str = ""  # "back_to_round", "restart_round", "new_game", "shutdown"
    round: int = 0


@dataclass(frozen=True, slots=True)
class AboutView(View):
    screen: ClassVar[str] = "about"
    version: str = ""
    seed: str | None = None  # only once the game is over (D-2)
    city: str = "tokyo"  # tokyo, paris or london
    first_tier_top: int = 0  # D-4: the city's tier 1 ends here, inclusive; tier 2 starts above


@dataclass(frozen=True, slots=True)
class NoticeView(View):
    screen: ClassVar[str] = "notice"
    notice: str = ""  # "store_damaged", "display_fallback", "input_fallback", ...
    detail: str = ""


@dataclass(frozen=True, slots=True)
class ShutdownView(View):
    screen: ClassVar[str] = "shutdown"


@dataclass(frozen=True, slots=True)
class HardwareTestView(View):
    """`nsdevice hwtest`: one step of the builder's check of a new box."""

    screen: ClassVar[str] = "hwtest"
    step: str = "pattern"  # "pattern", "press", "led", "done"
    button: str | None = None  # the button asked for in a "press" step
    led: str | None = None  # the colour lit in an "led" step
    passed: tuple[str, ...] = ()
    failed: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Hotspot:
    """The box's own Wi-Fi network while it is up (issue 31): phones join it first."""

    name: str  # the network's name (SSID)
    password: str  # WPA2, drawn by the box at its first boot
    address: str = ""  # the page's address on that network, e.g. http://10.42.0.1:8414/

    def qr_payload(self) -> str:
        """The `WIFI:` text phones' cameras join a network from: `\\`, `;`, `,`, `:` and
        `"` in the name or password are escaped with a backslash."""
        return f"WIFI:T:WPA;S:{wifi_escape(self.name)};P:{wifi_escape(self.password)};;"


def wifi_escape(text: str) -> str:
    """A field of a `WIFI:` QR payload: the scheme's special characters backslashed."""
    return "".join("\\" + c if c in '\\;,:"' else c for c in text)


@dataclass(frozen=True, slots=True)
class PhonesView(View):
    """How phones join the table: the box's own Wi-Fi first when it has one up (`step`
    "wifi", drawn as a Wi-Fi QR code), then the page's address (drawn as a QR code) and
    the join code."""

    screen: ClassVar[str] = "phones"
    addresses: tuple[str, ...] = ()  # the first is drawn as a QR code
    code: str = ""  # changes with each new game; NEXT renews it
    hotspot: Hotspot | None = None  # the box's own network, while it is up
    step: str = "page"  # "wifi": join the box's network first; "page": the page's QR


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A finished game as the history lists it."""

    played_on: str  # the local date it ended, ISO
    city: str
    players: int
    modules: tuple[str, ...]
    totals: tuple[int, ...]  # per seat; solo: the raw total
    winners: tuple[int, ...] = ()  # seats; () for solo
    adjusted: int | None = None  # solo: after the module penalty (C-13)
    tier: int | None = None  # solo (S-SOLO)
    daily: str | None = None  # the day's deal it was played on, if any (ISO date)
    names: tuple[str, ...] = ()  # each seat's name from its phone ("" for none); () for none


@dataclass(frozen=True, slots=True)
class BestScore:
    """The best solo score (after C-13's penalty) for a city and a module set."""

    city: str
    modules: tuple[str, ...]
    adjusted: int
    played_on: str


@dataclass(frozen=True, slots=True)
class HistoryView(View):
    """One page of the history: a city's last games, the personal bests, or the daily deals."""

    screen: ClassVar[str] = "history"
    page: int = 1
    pages: int = 1
    section: str = "empty"  # "games", "bests", "daily" or "empty" (nothing finished yet)
    city: str = ""  # the city of a "games" page
    games: tuple[PlayedGame, ...] = ()  # newest first
    bests: tuple[BestScore, ...] = ()  # "bests": per city and module set; "daily": per city
    streak: int = 0  # "daily": days in a row with a daily game, ending today or yesterday
    days_played: int = 0  # "daily": on how many days a daily deal was played in all


@dataclass(frozen=True, slots=True)
class TableView:
    """What the phones at the table are told: never the deck's order, only what the box has
    shown. Not a screen: the loop publishes it to the web side beside every frame."""

    game: int  # counts the games started in this run: a new game, a new join code
    code: str  # the join code, for the web side's check; never sent to a phone
    view: View | None  # the game screen (beneath any menu); None before a game
    city: str = ""
    players: int = 0
    pencils: tuple[SeatPencil, ...] = ()  # this round's, seats first
    line_scoring: str = ""  # "districts", "quarters" or "" (totals only)
    objectives: bool = False  # the objectives module is played: its sheet field asked (C-11)
    scoring: bool = False  # the game is over and its scores are being taken
    seats_in: tuple[int, ...] = ()  # seats whose scores came from a phone
    line_round: int = 0  # the last round whose line a phone may send now (issue 34); 0: none
    lines: tuple[tuple[int, int, tuple[int, ...]], ...] = ()  # (seat, round, counts) kept
    room: RoomTable | None = None  # a room game (caller mode); None for one table

