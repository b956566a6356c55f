"""A room game's roster: the tables, who sits at each, and the sheets scored so far.

One box calls the cards for a whole room (issue 25); each table plays on paper and joins
from phones. The roster only grows from what the page sends (`Joined`, `RoomScored`) and
is saved with the game, so a pulled plug loses no player and no score. Anything that
does not fit is ignored, never raised: it comes from the network.
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
    tables: dict[int, int] = field(default_factory=dict)  # table → its size, by its first joiner
    seats: dict[Place, str] = field(default_factory=dict)  # (table, seat) → name
    scores: dict[Place, tuple[int, int]] = field(default_factory=dict)  # → (total, best line)

    def join(self, table: int, size: int, seat: int, name: str) -> bool:
        """A player takes a seat; False (nothing changes) when it does not fit: a table
        out of range, a size other than the table's first joiner's, a seat past the size,
        a name that is not one. A seat joined again takes the newer name."""
        if not (_whole(table, 1, MOST_TABLES) and _whole(size, 1, SEATS)):
            return False
        if self.tables.get(table, size) != size or not _whole(seat, 1, size):
            return False
        try:
            name = player_name(name)
        except ValueError:
            return False
        if self.tables.get(table) == size and self.seats.get((table, seat)) == name:
            return False  # the same join again (a phone retrying): nothing new to draw
        self.tables[table] = size
        self.seats[(table, seat)] = name
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
        return True

    def ranking(self) -> tuple[views.RoomPlace, ...]:
        """The scores in so far, best first (C-12 across the room: rules.room.rank)."""
        results = [
            Result(ROOM, table, seat, self.seats[(table, seat)], total, best)
            for (table, seat), (total, best) in sorted(self.scores.items())
        ]
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
            for placed in rank(results)
        )

    def table_list(self) -> tuple[tuple[int, int], ...]:
        return tuple(sorted(self.tables.items()))

    def seat_list(self) -> tuple[views.RoomSeat, ...]:
        return tuple(views.RoomSeat(t, s, name) for (t, s), name in sorted(self.seats.items()))

    # --- saving ----------------------------------------------------------------------------
    def as_dict(self) -> dict[str, Any]:
        return {
            "tables": [[table, size] for table, size in sorted(self.tables.items())],
            "seats": [[t, s, name] for (t, s), name in sorted(self.seats.items())],
            "scores": [
                [t, s, total, best] for (t, s), (total, best) in sorted(self.scores.items())
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Roster:
        """The saved roster, each item put back through `join` and `score`: ValueError
        when one does not fit (the store then sets the step aside as damaged)."""
        roster = cls()
        for table, size in data["tables"]:
            _require(_whole(table, 1, MOST_TABLES) and _whole(size, 1, SEATS), f"table {table!r}")
            _require(table not in roster.tables, f"table {table!r} twice")
            roster.tables[table] = size
        for table, seat, name in data["seats"]:
            _require(table in roster.tables, f"seat at table {table!r}, not registered")
            _require((table, seat) not in roster.seats, f"seat {table!r}/{seat!r} twice")
            _require(roster.join(table, roster.tables[table], seat, name), f"seat {seat!r}")
        for table, seat, total, best in data["scores"]:
            _require((table, seat) not in roster.scores, f"score {table!r}/{seat!r} twice")
            _require(roster.score(table, seat, total, best), f"score {table!r}/{seat!r}")
        return roster


def _whole(value: object, lowest: int, highest: int) -> bool:
    return type(value) is int and lowest <= value <= highest


def _require(condition: bool, what: str) -> None:
    if not condition:
        raise ValueError(f"saved room does not fit: {what}")
