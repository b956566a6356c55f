"""Who holds which room seat, as the page sees it (issue 32): claims, one seat and one
table per phone, and tables nobody follows.

- **A seat belongs to its player.** A seat's first join draws a claim at random
  (`secrets`: nothing about the code, the game or the seat tells it); the phone keeps it
  and the box keeps only its SHA-256 (`RoomSeat.claim`, saved with the seat). A rejoin
  or a rename needs the claim; a sheet needs the seat token, which is bound to the
  claim's hash, so a seat freed and taken again ends its old holder's token.
- **No squatting.** A phone (an address; an IPv6 /64 as one) holds at most one seat and
  has opened at most one table at a time: moving to another seat takes its claim along
  and frees the seat it leaves. A table nobody at it follows (no event stream from a
  phone holding one of its seats) for `IDLE` seconds before the game's first card is
  handed to the box to free (`Abandoned`).
- **The box's word wins.** The box's own table (`RoomTable`) says who sits where; joins
  the page took and the box has not looked at yet (`pending`, numbered by `ticket`)
  count too, so two phones cannot take one seat in the moment between.

The page keeps the addresses in memory only: a restart forgets them (the claims stay).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass

from nsdevice.views import RoomTable, TableView
from nsdevice.web.guard import MOST_KEYS

IDLE = 600.0  # seconds a table nobody follows keeps its seats before the first card
SWEEP = 15.0  # seconds between two looks for tables nobody follows
CLAIM_BYTES = 16  # a claim's randomness: 128 bits
CLAIM_LENGTH = 64  # the most characters a claim sent back may have

Place = tuple[int, int]  # (table, seat)


def claim_hash(claim: str) -> str:
    """What the box keeps of a claim: its SHA-256, as 64 hexadecimal digits."""
    return hashlib.sha256(claim.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Pending:
    """A join the page took that the box has not looked at yet."""

    size: int
    claim: str  # its hash
    ticket: int


@dataclass(frozen=True, slots=True)
class Seated:
    """What a join may do: the claim to hand the phone, its hash for the box, the seat
    the phone leaves (moving), and whether it opens its table."""

    claim: str
    hashed: str
    leaving: Place | None
    opens: bool


@dataclass(frozen=True, slots=True)
class Refused:
    status: int
    reason: str
    why: str  # the phone's word for it (texts.vocabulary.PHONE)


class Seating:
    """The page's side of the room's seats: see the module's docstring."""

    def __init__(
        self,
        following: Callable[[], Collection[str]] = frozenset,
        clock: Callable[[], float] = time.monotonic,
        idle: float = IDLE,
    ) -> None:
        """`following`: the address keys with an event stream open now."""
        self._following, self._clock, self._idle = following, clock, idle
        self._game: int | None = None
        self._pending: dict[Place, Pending] = {}
        self._holders: dict[str, tuple[Place, str]] = {}  # address key → (place, claim hash)
        self._opened: dict[str, int] = {}  # address key → the table it opened
        self._followed: dict[int, float] = {}  # table → when it was last followed
        self._ticket = 0
        self._swept = float("-inf")

    # --- what the room holds now -----------------------------------------------------------
    def _settle(self, table: TableView) -> RoomTable | None:
        """The room's table, with this page's memory made to fit it: a new game forgets
        everything, a join the box has looked at is the box's to tell."""
        if self._game != table.game:
            self._game = table.game
            for kept in (self._pending, self._holders, self._opened, self._followed):
                kept.clear()
        room = table.room
        if room is None:
            return None
        for place, pending in list(self._pending.items()):
            if pending.ticket <= room.taken:
                del self._pending[place]
        return room

    def claims(self, table: TableView) -> dict[Place, str]:
        """Every seat held now (the box's and the page's taken joins) → its claim's hash."""
        room = self._settle(table)
        if room is None:
            return {}
        held = {(s.table, s.seat): s.claim for s in room.seats}
        held.update((place, pending.claim) for place, pending in self._pending.items())
        return held

    def sizes(self, table: TableView) -> dict[int, int]:
        """Every table open now → its size (its first joiner's)."""
        room = self._settle(table)
        if room is None:
            return {}
        sizes = dict(room.tables)
        for (number, _), pending in self._pending.items():
            sizes.setdefault(number, pending.size)
        return sizes

    def claim_of(self, table: TableView, place: Place) -> str | None:
        """The hash of the claim holding `place`, or None when nobody holds it."""
        return self.claims(table).get(place)

    def _held_by(self, key: str, claims: dict[Place, str]) -> Place | None:
        """The seat address `key` holds now (a seat freed or taken by another claim since
        is no longer its own)."""
        held = self._holders.get(key)
        if held is None:
            return None
        place, hashed = held
        if claims.get(place) != hashed:
            del self._holders[key]
            return None
        return place

    # --- joining ---------------------------------------------------------------------------
    def seat(
        self, table: TableView, key: str, place: Place, size: int, claim: str
    ) -> Seated | Refused:
        """May address `key` take `place` at a table of `size`, sending `claim` ("" for
        none)? Nothing changes here until `taken`."""
        sizes, claims = self.sizes(table), self.claims(table)
        number = place[0]
        known = sizes.get(number)
        if known is not None and known != size:
            return Refused(409, f"table {number} has {known} players", "table_taken")
        given = claim_hash(claim) if claim else ""
        held = claims.get(place)
        if held:
            if not (given and hmac.compare_digest(given, held)):
                reason = "this seat is taken: only its player's phone may rejoin it"
                return Refused(403, reason, "seat_taken")
            return Seated(claim, given, None, False)
        if held is not None:  # a seat saved before claims: its next join claims it
            drawn = _drawn()
            return Seated(drawn, claim_hash(drawn), None, False)
        mine = self._held_by(key, claims)
        leaving: Place | None = None
        if mine is not None:
            if not (given and hmac.compare_digest(given, claims[mine])):
                reason = f"this phone holds table {mine[0]}, seat {mine[1]}"
                return Refused(409, reason, "one_seat")
            leaving = mine
        opens = known is None
        if opens:
            opened = self._opened.get(key)
            # the table it opened is gone once this phone, its only player, moves away
            emptied = None
            if leaving is not None and all(p == leaving for p in claims if p[0] == leaving[0]):
                emptied = leaving[0]
            if opened is not None and opened in sizes and opened != emptied:
                reason = f"this phone opened table {opened}; one table a phone"
                return Refused(409, reason, "one_table")
        if leaving is not None:  # the phone's claim goes with it to its new seat
            return Seated(claim, given, leaving, opens)
        drawn = _drawn()
        return Seated(drawn, claim_hash(drawn), None, opens)

    def ticket(self) -> int:
        """The number of the next join handed to the box."""
        self._ticket += 1
        return self._ticket

    def taken(self, key: str, place: Place, size: int, seated: Seated, ticket: int) -> None:
        """The box's inbox took the join numbered `ticket`."""
        if seated.leaving is not None:
            self._pending.pop(seated.leaving, None)
        self._pending[place] = Pending(size, seated.hashed, ticket)
        for other, (held, _) in list(self._holders.items()):
            if held == place and other != key:  # a phone took its own seat from elsewhere
                del self._holders[other]
        self._holders[key] = (place, seated.hashed)
        if seated.opens:
            self._opened[key] = place[0]
        self._followed[place[0]] = self._clock()
        for kept in (self._holders, self._opened):
            while len(kept) > MOST_KEYS:  # the oldest first, never all at once
                del kept[next(iter(kept))]

    # --- tables nobody follows -------------------------------------------------------------
    def due(self, every: float = SWEEP) -> bool:
        """Time for another look (at most one every `every` seconds)."""
        return self._clock() - self._swept >= every

    def abandoned(self, table: TableView) -> list[int]:
        """The tables nobody at them has followed for `IDLE` seconds, before the game's
        first card (none after it); each is named once an `IDLE` (`freeing` after)."""
        now = self._swept = self._clock()
        sizes, claims = self.sizes(table), self.claims(table)
        room = table.room
        if room is None or room.started:
            self._followed.clear()
            return []
        watching = self._following()
        for key in list(self._holders):
            place = self._held_by(key, claims)
            if place is not None and key in watching:
                self._followed[place[0]] = now
        for number in list(self._followed):
            if number not in sizes:
                del self._followed[number]
        for number in sizes:
            self._followed.setdefault(number, now)  # first seen now: its time starts
        return sorted(n for n, since in self._followed.items() if now - since >= self._idle)

    def freeing(self, number: int) -> None:
        """The box was asked to free table `number`: its time starts again (asked once)."""
        self._followed[number] = self._clock()


def _drawn() -> str:
    return secrets.token_urlsafe(CLAIM_BYTES)
