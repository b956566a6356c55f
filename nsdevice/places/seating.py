"""Who sits where with which pencil: a seat's pencil, and a room game's tables, seats and
places, with what its caller screens add (how to join, each table size's pencils).

Plain data the views carry, kept apart from the screens' views so that views.py stays
small (nsdevice.views re-exports every name here).
"""

from __future__ import annotations

from nsdevice.rules.frozen import dataclass


@dataclass(frozen=True, slots=True)
class SeatPencil:
    slot: str  # "1".."4", "table", "table-1", "table-2"
    colour: str
    start_symbol: str | None  # C-9, where known
    start_unverified: bool = False
    power: str | None = None  # L-PP


@dataclass(frozen=True, slots=True)
class RoomSeat:
    """A player who joined a room game."""

    table: int
    seat: int
    name: str
    claim: str = ""  # the hash of its holder's claim (the page checks a rejoin against it)
    sheet: bool = False  # their score sheet is in


@dataclass(frozen=True, slots=True)
class RoomListed:
    """One row of the caller's list of the room: a table (`seat` 0) or a seat at it."""

    table: int
    seat: int  # 0: the table itself
    size: int  # the table's
    name: str = ""  # the seat's player
    sheet: bool = False  # their score sheet is in


@dataclass(frozen=True, slots=True)
class RoomPlace:
    """One scored player in the room's ranking (rules.room.rank)."""

    place: int  # 1-based; tied players share a place
    table: int
    seat: int
    name: str
    total: int
    best_line: int
    table_winner: bool  # won (or shares the win of) their own table (C-12)


@dataclass(frozen=True, slots=True)
class RoomTable:
    """What a room's phones are told beyond the cards: every table of one size plays the
    same pencils (rules.room), so each phone picks its own row by its table's size."""

    code: str  # the deal code every table of the room (and other rooms) plays
    modules: tuple[str, ...]
    rows: tuple[tuple[SeatPencil, ...], ...] = ()  # this round's, for tables of 1..4
    next_rows: tuple[tuple[SeatPencil, ...], ...] = ()  # the next round's; () in the last
    tables: tuple[tuple[int, int], ...] = ()  # (table, size) of every table registered
    seats: tuple[RoomSeat, ...] = ()  # who joined
    ranking: tuple[RoomPlace, ...] = ()  # the scores in so far, best first
    started: bool = False  # the game's first card is out: no table is freed for being idle
    taken: int = 0  # the last join the page numbered that the box has looked at


@dataclass(frozen=True, slots=True)
class RoomCall:
    """What a room game's screens on the box add (the caller: one box for every table):
    how to join, and the pencils each table size takes for the round shown (C-8)."""

    code: str = ""  # the join code: on the caller's screen, never sent to a phone
    address: str = ""  # the phones' page, drawn as a QR code; "" when the box serves none
    rows: tuple[tuple[SeatPencil, ...], ...] = ()  # for tables of 1..4 players, seats first
    tables: int = 0  # tables registered so far
    players: int = 0  # players joined so far
