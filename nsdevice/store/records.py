"""Finished games: writing them, and reading the history (the last games per city, the
solo bests, the daily deals) back as the views show it."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Sequence
from datetime import date
from typing import Any

from nsdevice import views
from nsdevice.session import CITIES, MODULES, FinishedGame
from nsdevice.session.settings import History

# What the history reads of a finished game, in `_played`'s order.
PLAYED_COLUMNS = "finished_at, city, players, modules, totals, adjusted, tier, daily, winners"


def module_set(modules: tuple[str, ...] | list[str]) -> str:
    """A module set as stored: in the box's own order, so one set is always one string."""
    known = [m for m in MODULES if m in modules]
    return ",".join(known + sorted(m for m in modules if m not in MODULES))


def write_games(db: sqlite3.Connection, games: Sequence[FinishedGame], now: float) -> None:
    """Insert finished games (inside the caller's transaction)."""
    for game in games:
        db.execute(
            "INSERT INTO finished_games (finished_at, city, players, modules, seed, totals,"
            " adjusted, tier, daily, winners) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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


def read_history(db: sqlite3.Connection, waiting: Sequence[FinishedGame], limit: int) -> History:
    """The last `limit` games per city, the solo bests per city and module set, and the
    daily games kept apart: read through indexes and aggregates, so a long history stays
    cheap (benchmarks/history.py). `waiting`: games recorded, not yet committed."""
    last = [
        row
        for name in CITIES  # one indexed look-up per city: cheap however long the history
        for row in db.execute(
            f"SELECT id, {PLAYED_COLUMNS} FROM finished_games WHERE city = ?"
            " ORDER BY id DESC LIMIT ?",
            (name, limit),
        )
    ]
    last.sort(key=lambda row: -row[0])
    # SQLite takes the other columns of a MAX() group from the row holding the maximum.
    solo = "players = 1 AND adjusted IS NOT NULL"
    best = db.execute(
        f"SELECT {PLAYED_COLUMNS}, MAX(adjusted) FROM finished_games WHERE {solo}"
        " GROUP BY city, modules"
    ).fetchall()
    best_daily = db.execute(
        f"SELECT {PLAYED_COLUMNS}, MAX(adjusted) FROM finished_games WHERE {solo}"
        " AND daily IS NOT NULL GROUP BY city"
    ).fetchall()
    days = db.execute(
        "SELECT DISTINCT daily FROM finished_games WHERE daily IS NOT NULL"
    ).fetchall()
    now = time.time()
    pending = [_waiting(game, now) for game in reversed(waiting)]  # newest first
    games = [*pending, *(_played(row[1:]) for row in last)]
    return summarise(
        games,
        [*pending, *(_played(row[:-1]) for row in best)],
        [*pending, *(_played(row[:-1]) for row in best_daily)],
        [*(g.daily for g in pending), *(str(row[0]) for row in days)],
        limit,
    )


def _played(row: tuple[Any, ...]) -> views.PlayedGame:
    finished_at, city, players, modules, totals, adjusted, tier, daily, winners = row
    scores = tuple(int(t) for t in json.loads(totals))
    if winners:
        seats = tuple(int(seat) for seat in json.loads(winners))  # ValueError if not seats
    else:
        seats = _top_seats(scores, int(players))
    return views.PlayedGame(
        played_on=date.fromtimestamp(float(finished_at)).isoformat(),
        city=str(city),
        players=int(players),
        modules=tuple(m for m in str(modules).split(",") if m),
        totals=scores,
        winners=seats,
        adjusted=None if adjusted is None else int(adjusted),
        tier=None if tier is None else int(tier),
        daily=None if daily is None else _day(daily),
    )


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
