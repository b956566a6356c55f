"""Finished games: writing them, and reading the history (the last games per city, the
solo bests, the daily deals) back as the views show it."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import date
from typing import Any

from nsdevice import views
from nsdevice.rules.room import player_name
from nsdevice.session import CITIES, MODULES, FinishedGame
from nsdevice.session.settings import History

# What the history reads of a finished game, in `_played`'s order.
PLAYED_COLUMNS = (
    "finished_at, city, players, modules, totals, adjusted, tier, daily, winners, names"
)
PLAYED = PLAYED_COLUMNS.count(",") + 1  # how many columns `_played` reads


def module_set(modules: tuple[str, ...] | list[str]) -> str:
    """A module set as stored: in the box's own order, so one set is always one string."""
    known = [m for m in MODULES if m in modules]
    return ",".join(known + sorted(m for m in modules if m not in MODULES))


def write_games(db: sqlite3.Connection, games: Sequence[FinishedGame], now: float) -> None:
    """Insert finished games (inside the caller's transaction)."""
    for game in games:
        db.execute(
            "INSERT INTO finished_games (finished_at, city, players, modules, seed, totals,"
            " adjusted, tier, daily, winners, names) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                now,
                game.city,
                game.players,
                module_set(game.modules),
                game.seed,
                json.dumps(list(game.totals)),
                game.adjusted,
                game.tier,
                game.daily,
                json.dumps(list(game.winners)) if game.winners else None,
                json.dumps(list(game.names), ensure_ascii=False) if any(game.names) else None,
            ),
        )


def saved_games(db: sqlite3.Connection, waiting: Sequence[FinishedGame]) -> list[dict[str, Any]]:
    """The finished games, oldest first: those saved, then those waiting for a save."""
    cursor = db.execute(
        "SELECT city, players, modules, seed, totals, adjusted, tier FROM finished_games"
        " ORDER BY id"
    )
    names = [d[0] for d in cursor.description]
    saved = [dict(zip(names, row, strict=True)) for row in cursor]
    pending = [
        {"city": game.city, "players": game.players, "modules": module_set(game.modules),
         "seed": game.seed, "totals": json.dumps(list(game.totals)),
         "adjusted": game.adjusted, "tier": game.tier}
        for game in waiting
    ]  # fmt: skip
    return saved + pending


# What a row no box wrote may raise while it is read: bad JSON, a number out of range, a
# date that is none, a value of the wrong kind. Such a row is left out, and only it.
ROW_FAULTS = (ValueError, TypeError, ArithmeticError, OSError)
MOST_PLAYERS = 4
MOST_TIER = 6


def read_history(db: sqlite3.Connection, waiting: Sequence[FinishedGame], limit: int) -> History:
    """The last `limit` games per city, the solo bests per city and module set, and the
    daily games kept apart: read through indexes and aggregates, so a long history stays
    cheap (benchmarks/history.py). `waiting`: games recorded, not yet committed. A row
    that cannot be read is left out alone: the games around it still show."""
    now = time.time()
    pending = [_waiting(game, now) for game in reversed(waiting)]  # newest first
    last: list[tuple[int, views.PlayedGame]] = []
    for name in CITIES:  # one indexed walk per city, stopped after `limit` good rows
        rows = db.execute(
            f"SELECT id, {PLAYED_COLUMNS} FROM finished_games WHERE city = ? ORDER BY id DESC",
            (name,),
        )
        last += _first_read(((row[0], row[1:]) for row in rows), limit)
    last.sort(key=lambda item: -item[0])
    # SQLite takes the other columns of a MAX() group from the row holding the maximum; a
    # group whose best row cannot be read is walked down to its best readable one.
    solo = "players = 1 AND typeof(adjusted) = 'integer'"
    best = [
        *_group_bests(db, solo, ("city", "modules")),
        *_group_bests(db, f"{solo} AND daily IS NOT NULL", ("city",), daily=True),
    ]
    days: list[str] = []
    for (value,) in db.execute("SELECT DISTINCT daily FROM finished_games WHERE daily IS NOT NULL"):
        with contextlib.suppress(*ROW_FAULTS):
            days.append(_day(value))
    return summarise(
        [*pending, *(game for _, game in last)],
        [*pending, *(game for game, daily in best if not daily)],
        [*pending, *(game for game, daily in best if daily)],
        [*(g.daily for g in pending), *days],
        limit,
    )


def _first_read(
    rows: Iterator[tuple[Any, tuple[Any, ...]]], limit: int
) -> list[tuple[Any, views.PlayedGame]]:
    """The first `limit` rows that read as games, each with its key."""
    found: list[tuple[Any, views.PlayedGame]] = []
    for key, row in rows:
        if len(found) >= limit:
            break
        try:
            found.append((key, _played(row)))
        except ROW_FAULTS:
            continue
    return found


def _group_bests(
    db: sqlite3.Connection, where: str, keys: tuple[str, ...], daily: bool = False
) -> list[tuple[views.PlayedGame, bool]]:
    """The best solo game of each group (`keys`) among the rows `where` selects."""
    found: list[tuple[views.PlayedGame, bool]] = []
    group_by = f" GROUP BY {', '.join(keys)}"
    query = f"SELECT {PLAYED_COLUMNS}, MAX(adjusted), {', '.join(keys)} FROM finished_games"
    for row in db.execute(f"{query} WHERE {where}{group_by}").fetchall():
        try:
            found.append((_played(row[:PLAYED]), daily))
            continue
        except ROW_FAULTS:
            pass
        matching = " AND ".join(f"{key} IS ?" for key in keys)
        rows = db.execute(
            f"SELECT id, {PLAYED_COLUMNS} FROM finished_games WHERE {where} AND {matching}"
            " ORDER BY adjusted DESC, id",
            row[PLAYED + 1 :],
        )
        found += [(game, daily) for _, game in _first_read(((r[0], r[1:]) for r in rows), 1)]
    return found


def _played(row: tuple[Any, ...]) -> views.PlayedGame:
    """A stored row as the history lists it; ValueError (or another of `ROW_FAULTS`) for
    a value no box writes, so that the row is left out before any screen draws it."""
    finished_at, city, players, modules, totals, adjusted, tier, daily, winners, named = row
    seats = _whole(players)
    scores = tuple(_whole(t) for t in _json_list(totals))
    if str(city) not in CITIES or not 1 <= seats <= MOST_PLAYERS or len(scores) != seats:
        raise ValueError(f"not a game: {city!r}, {players!r} players, totals {totals!r}")
    names = tuple(m for m in str(modules).split(",") if m)
    if not set(names) <= set(MODULES):
        raise ValueError(f"unknown modules {modules!r}")
    if winners:
        won = tuple(_whole(seat) for seat in _json_list(winners))
        if not set(won) <= set(range(1, seats + 1)):
            raise ValueError(f"winners {winners!r} are not seats")
    else:
        won = _top_seats(scores, seats)
    if tier is not None and not 1 <= _whole(tier) <= MOST_TIER:
        raise ValueError(f"tier {tier!r}")
    seat_names = () if named is None else tuple(_json_list(named))
    if seat_names and (len(seat_names) != seats or not all(_name(n) for n in seat_names)):
        raise ValueError(f"names {named!r} for {seats} seats")
    return views.PlayedGame(
        played_on=date.fromtimestamp(float(finished_at)).isoformat(),
        city=str(city),
        players=seats,
        modules=names,
        totals=scores,
        winners=won,
        adjusted=None if adjusted is None else _whole(adjusted),
        tier=None if tier is None else _whole(tier),
        daily=None if daily is None else _day(daily),
        names=seat_names,
    )


def _name(value: object) -> bool:
    """A seat's name as stored: "" for none, else a name a phone's join could leave."""
    if value == "":
        return True
    try:
        return isinstance(value, str) and player_name(value) == value
    except ValueError:
        return False


def _json_list(text: object) -> list[Any]:
    value = json.loads(str(text))
    if not isinstance(value, list):
        raise ValueError(f"not a list: {text!r}")
    return value


def _whole(value: object) -> int:
    """A whole number as stored: an int (or its exact text), never a bool or a fraction."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(f"not a whole number: {value!r}")
    return int(value)


def _day(value: object) -> str:
    """A daily date as stored, checked: ValueError for anything but an ISO date."""
    return date.fromisoformat(str(value)).isoformat()


def _top_seats(totals: tuple[int, ...], players: int) -> tuple[int, ...]:
    """Games saved before version 3 kept no winners: the seats with the top total (a tie
    broken by the best line then shows as shared)."""
    if players < 2 or not totals:
        return ()
    top = max(totals)
    return tuple(seat for seat, total in enumerate(totals, start=1) if total == top)


def _waiting(game: FinishedGame, now: float) -> views.PlayedGame:
    """A game recorded but not yet committed, as the history will read it."""
    return views.PlayedGame(
        played_on=date.fromtimestamp(now).isoformat(),
        city=game.city,
        players=game.players,
        modules=tuple(m for m in module_set(game.modules).split(",") if m),
        totals=game.totals,
        winners=game.winners or _top_seats(game.totals, game.players),
        adjusted=game.adjusted,
        tier=game.tier,
        daily=game.daily,
        names=game.names,
    )


def summarise(
    games: list[views.PlayedGame],
    solo: list[views.PlayedGame],
    daily: list[views.PlayedGame],
    days: list[str | None],
    limit: int,
) -> History:
    """The history from candidate games, each list newest first: the last `limit` per
    city, the best solo score per city and module set, the best daily one per city."""
    last: list[views.PlayedGame] = []
    for game in games:
        if sum(1 for kept in last if kept.city == game.city) < limit:
            last.append(game)
    return History(
        games=tuple(last),
        bests=_bests(solo, lambda game: (game.city, frozenset(game.modules))),
        daily_days=tuple(sorted({_day(day) for day in days if day}, reverse=True)),
        best_daily=_bests([g for g in daily if g.daily], lambda game: game.city),
    )


def _bests(games: list[views.PlayedGame], key: Callable[[views.PlayedGame], Any]) -> tuple[
    views.BestScore, ...
]:  # fmt: skip
    found: dict[Any, views.BestScore] = {}
    for game in games:
        if game.players != 1 or game.adjusted is None:
            continue
        held = found.get(key(game))
        if held is None or game.adjusted > held.adjusted:  # a tie keeps the one listed first
            found[key(game)] = views.BestScore(
                game.city, game.modules, game.adjusted, game.played_on
            )
    return tuple(sorted(found.values(), key=lambda b: (b.city, len(b.modules), b.modules)))
