"""A room game's roster: the tables, who sits at each, and the sheets scored so far.

One box calls the cards for a whole room (issue 25); each table plays on paper and joins
from phones. The roster grows from what the page sends (`Joined`, `RoomScored`) and is
saved with the game, so a pulled plug loses no player and no score. Anything that does
not fit is ignored, never raised: it comes from the network.

A seat belongs to its player (issue 32): the page draws a random claim for the seat's
first join and the roster keeps only its hash (`claims`), saved with the seat, so after a
restart the phone still proves the seat is its own. A join for a seat another claim
holds changes nothing. The caller frees a seat or a whole table (`free`); a table whose
last seat goes is gone, and its number and size are free again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from nsdevice import views
from nsdevice.rules.room import MOST_TABLES, ROOM, SEATS, Result, player_name, rank
from nsdevice.session.digits import SCORE_LIMITS

Place = tuple[int, int]  # (table, seat)


@dataclass
class Roster:
    """A room's tables, their seats' names and claims, and the sheets sent (see above)."""

    tables: dict[int, int] = field(default_factory=dict)  # table → its size, by its first joiner
    seats: dict[Place, str] = field(default_factory=dict)  # (table, seat) → name
    scores: dict[Place, tuple[int, int]] = field(default_factory=dict)  # → (total, best line)
    claims: dict[Place, str] = field(default_factory=dict)  # → the hash of its holder's claim
    # the last join the page numbered that the box has looked at (not saved: the page's
    # numbers start again with the box), so the page knows which of its joins are settled
    taken: int = field(default=0, compare=False)
    # the ranking and the lists of tables and seats, kept until a join, a sheet or a freed
    # seat changes them: every frame and the phones' table after it ask for them, and
    # ranking 300 sheets takes milliseconds; listing 300 seats again, and the page's
    # check that its table changed, cost a caller's press more than the rest of its
    # table (issue 35). The same tuple each time: unchanged, it compares at once.
    _kept: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def join(
        self,
        table: int,
        size: int,
        seat: int,
        name: str,
        claim: str = "",
        leaving: Place | None = None,
    ) -> bool:
        """A player takes a seat; False (nothing changes) when it does not fit: a table
        out of range, a size other than the table's first joiner's, a seat past the size,
        a name that is not one, a seat another claim holds. A seat joined again by its own
        claim takes the newer name. `leaving`: the seat this claim held until now (a phone
        moving), freed first, and only if this claim holds it."""
        if not (_whole(table, 1, MOST_TABLES) and _whole(size, 1, SEATS)):
            return False
        place = (table, seat)
        moving = leaving is not None and leaving != place and bool(claim)
        moving = moving and leaving in self.seats and self.claims.get(leaving) == claim
        # the table's size as it stands once the seat left is gone (its last seat: no table)
        sizes = dict(self.tables)
        if moving and leaving is not None and self._alone(leaving):
            del sizes[leaving[0]]
        if sizes.get(table, size) != size or not _whole(seat, 1, size):
            return False
        try:
            name = player_name(name)
        except ValueError:
            return False
        held = self.claims.get(place, "")
        if place in self.seats and held and held != claim:
            return False  # another player's seat: only its claim takes it
        if self.tables.get(table) == size and self.seats.get(place) == name and held == claim:
            return False  # the same join again (a phone retrying): nothing new to draw
        if moving and leaving is not None:
            self.free(*leaving)
        self.tables[table] = size
        self.seats[place] = name
        if claim:
            self.claims[place] = claim
        self._kept.clear()
        return True

    def _alone(self, place: Place) -> bool:
        """`place` is the only seat taken at its table."""
        return all(seat == place for seat in self.seats if seat[0] == place[0])

    def free(self, table: int, seat: int = 0) -> bool:
        """The caller frees a seat (its name, sheet and claim go), or with `seat` 0 the
        whole table; a table left with no seat is gone. False when nothing was there."""
        if table not in self.tables:
            return False
        places = [p for p in self.seats if p[0] == table and seat in (0, p[1])]
        if seat and not places:
            return False
        for place in places:
            del self.seats[place]
            self.scores.pop(place, None)
            self.claims.pop(place, None)
        if not any(p[0] == table for p in self.seats):
            del self.tables[table]
        self._kept.clear()
        return True

    def score(self, table: int, seat: int, total: int, best_line: int) -> bool:
        """A joined seat's sheet (a newer one replaces it); False for a seat nobody joined
        or numbers outside the score entry's range."""
        low, high = SCORE_LIMITS
        if (table, seat) not in self.seats:
            return False
        if not (_whole(total, low, high) and _whole(best_line, 0, high)):
            return False
        if self.scores.get((table, seat)) == (total, best_line):
            return False
        self.scores[(table, seat)] = (total, best_line)
        self._kept.clear()
        return True

    def ranking(self) -> tuple[views.RoomPlace, ...]:
        """The scores in so far, best first (C-12 across the room: rules.room.rank)."""
        if "ranking" not in self._kept:
            self._kept["ranking"] = self._rank()
        ranked: tuple[views.RoomPlace, ...] = self._kept["ranking"]
        return ranked

    def _rank(self) -> tuple[views.RoomPlace, ...]:
        results = [
            Result(ROOM, table, seat, self.seats[(table, seat)], total, best)
            for (table, seat), (total, best) in sorted(self.scores.items())
        ]
        sizes = {(ROOM, table): size for table, size in self.tables.items()}
        return tuple(
            views.RoomPlace(
                place=placed.place,
                table=placed.result.table,
                seat=placed.result.seat,
                name=placed.result.name,
                total=placed.result.total,
                best_line=placed.result.best_line,
                table_winner=placed.table_winner,
            )
            for placed in rank(results, sizes)  # a table's winner once all its seats are in (D-14)
        )

    def table_list(self) -> tuple[tuple[int, int], ...]:
        if "tables" not in self._kept:
            self._kept["tables"] = tuple(sorted(self.tables.items()))
        tables: tuple[tuple[int, int], ...] = self._kept["tables"]
        return tables

    def seat_list(self) -> tuple[views.RoomSeat, ...]:
        if "seats" not in self._kept:
            self._kept["seats"] = tuple(
                views.RoomSeat(t, s, name, self.claims.get((t, s), ""), (t, s) in self.scores)
                for (t, s), name in sorted(self.seats.items())
            )
        seats: tuple[views.RoomSeat, ...] = self._kept["seats"]
        return seats

    # --- saving ----------------------------------------------------------------------------
    def as_dict(self) -> dict[str, Any]:
        """What is saved: made once until the roster changes (every press saves the game),
        each list handed out as a copy of the kept one."""
        if "saved" not in self._kept:
            self._kept["saved"] = {
                "tables": [[table, size] for table, size in sorted(self.tables.items())],
                # a seat's claim (its hash) is saved beside it: a restart keeps the seat its
                # player's; a seat with none (a game saved before claims) is written as before
                "seats": [
                    [t, s, name, *([self.claims[(t, s)]] if (t, s) in self.claims else [])]
                    for (t, s), name in sorted(self.seats.items())
                ],
                "scores": [
                    [t, s, total, best] for (t, s), (total, best) in sorted(self.scores.items())
                ],
            }
        saved: dict[str, list[list[Any]]] = self._kept["saved"]
        return {key: [list(row) for row in rows] for key, rows in saved.items()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Roster:
        """The saved roster, each item put back through `join` and `score`: ValueError
        when one does not fit (the store then sets the step aside as damaged)."""
        roster = cls()
        for table, size in data["tables"]:
            _require(_whole(table, 1, MOST_TABLES) and _whole(size, 1, SEATS), f"table {table!r}")
            _require(table not in roster.tables, f"table {table!r} twice")
            roster.tables[table] = size
        for table, seat, name, *claimed in data["seats"]:
            _require(table in roster.tables, f"seat at table {table!r}, not registered")
            _require((table, seat) not in roster.seats, f"seat {table!r}/{seat!r} twice")
            _require(len(claimed) <= 1, f"seat {table!r}/{seat!r}: more than a claim")
            claim = claimed[0] if claimed else ""
            _require(claim == "" or _claim_hash(claim), f"claim of seat {table!r}/{seat!r}")
            joined = roster.join(table, roster.tables[table], seat, name, claim)
            _require(joined, f"seat {seat!r}")
        for table, seat, total, best in data["scores"]:
            _require((table, seat) not in roster.scores, f"score {table!r}/{seat!r} twice")
            _require(roster.score(table, seat, total, best), f"score {table!r}/{seat!r}")
        return roster


def _whole(value: object, lowest: int, highest: int) -> bool:
    return type(value) is int and lowest <= value <= highest


def _claim_hash(value: object) -> bool:
    """A claim's hash as the page makes it: 64 lower-case hexadecimal digits (SHA-256)."""
    return isinstance(value, str) and len(value) == 64 and all(c in HEX for c in value)


HEX = frozenset("0123456789abcdef")


def _require(condition: bool, what: str) -> None:
    if not condition:
        raise ValueError(f"saved room does not fit: {what}")
