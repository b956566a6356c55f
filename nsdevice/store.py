"""SQLite persistence: the game in progress and the finished games.

Every step is one committed transaction (WAL, synchronous=FULL), so pulling the plug
loses at most the press being written. Each saved step carries a serial number and a
SHA-256 checksum; the last few steps are kept, so a damaged newest step falls back to the
one before it, and a file beside the database (the step mark) remembers the newest serial
written, so a log that lost its tail cannot rewind the game without a word.

Two kinds of trouble are kept apart (docs/RELIABILITY.md has the whole fault model):
the store *cannot be written now* (card full, read-only, permission, locked, I/O) — the
file is left alone and `CannotSave` says why — or the file *is damaged* — it is kept
aside under a new name, never deleted and never over an earlier one.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import secrets
import shutil
import sqlite3
import tempfile
import time
import zlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from nsdevice import views
from nsdevice.session import CITIES, MODULES, FinishedGame
from nsdevice.session.settings import HISTORY_GAMES, History

SCHEMA_VERSION = 3
FILE_NAME = "nsdevice.sqlite3"
MARK_NAME = "nsdevice.step"  # the step mark: the newest serial saved, outside SQLite
KEEP = 5  # earlier steps kept besides the newest, to fall back on
OPEN_TIMEOUT = 2.0  # seconds to wait for a lock at start before playing without saving

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS session (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    snapshot TEXT NOT NULL,
    saved_at REAL NOT NULL,
    serial INTEGER NOT NULL DEFAULT 0,
    checksum TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS steps (  -- the steps before the one in `session`
    serial INTEGER PRIMARY KEY,
    snapshot TEXT NOT NULL,
    checksum TEXT NOT NULL,
    saved_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS finished_games (
    id INTEGER PRIMARY KEY,
    finished_at REAL NOT NULL,
    city TEXT NOT NULL,
    players INTEGER NOT NULL,
    modules TEXT NOT NULL,
    seed TEXT NOT NULL,
    totals TEXT NOT NULL,
    adjusted INTEGER,
    tier INTEGER,
    daily TEXT,  -- version 3: the day's deal it was played on (ISO date), else NULL
    winners TEXT  -- version 3: JSON list of seats, NULL in games saved before
);
CREATE INDEX IF NOT EXISTS finished_by_city ON finished_games (city, id);
CREATE INDEX IF NOT EXISTS finished_solo ON finished_games (players, city, modules, adjusted);
CREATE INDEX IF NOT EXISTS finished_daily ON finished_games (daily);
"""
# What the history reads of a finished game, in `_played`'s order.
PLAYED_COLUMNS = "finished_at, city, players, modules, totals, adjusted, tier, daily, winners"

# SQLite's own words for a file that is not what it should be; anything else (full,
# read-only, cannot open, busy, I/O) is a store that cannot be written *now*.
DAMAGE_CODES = ("SQLITE_CORRUPT", "SQLITE_NOTADB", "SQLITE_FORMAT", "SQLITE_IOERR_SHORT_READ")


def state_directory(environ: Mapping[str, str] | None = None) -> Path:
    """Where the box keeps its state: systemd's StateDirectory, else the XDG state home."""
    env = os.environ if environ is None else environ
    if env.get("STATE_DIRECTORY"):
        return Path(env["STATE_DIRECTORY"].split(":")[0])
    base = env.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "nsdevice"


class DamagedStore(Exception):
    """The file exists but is not a store we can trust."""


class CannotSave(Exception):
    """The store is sound but cannot be written now; `notice` names why for the screen."""

    def __init__(self, notice: str, reason: str) -> None:
        super().__init__(reason)
        self.notice = notice  # "store_full", "store_read_only" or "store_unwritable"


def checksum(serial: int, text: bytes) -> str:
    """What each saved step carries: SHA-256 over its serial and its canonical JSON."""
    return hashlib.sha256(b"%d\n" % serial + text).hexdigest()


def canonical(snapshot: Mapping[str, Any]) -> str:
    return json.dumps(snapshot, sort_keys=True, separators=(",", ":"))


def is_damage(error: BaseException) -> bool:
    """True when SQLite says the file itself is bad; False for 'cannot write now'."""
    name = getattr(error, "sqlite_errorname", None) or ""
    if name.startswith(DAMAGE_CODES):
        return True
    text = str(error).lower()
    return not name and ("malformed" in text or "not a database" in text)


def cannot_save(error: BaseException, directory: Path | None) -> CannotSave:
    """Name what keeps the store from being written, from the error and the file system."""
    name = getattr(error, "sqlite_errorname", None) or ""
    number = getattr(error, "errno", None)
    if (
        name.startswith("SQLITE_FULL")
        or number in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
        or _file_system_full(directory)  # e.g. no room for the shared-memory file at start
    ):
        return CannotSave("store_full", str(error))
    if number == errno.EROFS or _read_only_file_system(directory):
        return CannotSave("store_read_only", str(error))
    return CannotSave("store_unwritable", str(error))


def _file_system_full(directory: Path | None) -> bool:
    if directory is None:
        return False
    try:
        return os.statvfs(directory).f_bavail == 0
    except OSError:
        return False


def _read_only_file_system(directory: Path | None) -> bool:
    if directory is None:
        return False
    try:
        return bool(os.statvfs(directory).f_flag & os.ST_RDONLY)
    except OSError:
        return False


@dataclass(frozen=True, slots=True)
class Opened:
    """What opening the store found: the store to save to, a notice for the screen (or
    None), the restored game (or None: start fresh) and whether this run may save."""

    store: Store
    notice: tuple[str, str] | None
    restored: Any = None
    saving: bool = True


@dataclass(frozen=True, slots=True)
class Step:
    """One saved step as read back: trusted only when its checksum matches."""

    serial: int
    text: bytes
    intact: bool  # its checksum holds

    def snapshot(self) -> dict[str, Any]:
        data = json.loads(self.text.decode("utf-8"))
        if not isinstance(data, dict):
            raise ValueError("saved step is not an object")
        return data


@dataclass(frozen=True, slots=True)
class Choice:
    """The newest intact step that also fits a game, and what was passed over to reach it."""

    step: Step | None
    restored: Any
    newest_claimed: int  # the highest serial any row or the step mark claims
    passed_over: int  # rows newer than the chosen one (or of its serial) that failed


class Store:
    """The game in progress (its last few steps) and the history of finished games."""

    def __init__(
        self, connection: sqlite3.Connection, path: Path | None, *, store_id: str = "",
        serial: int = 0,
    ) -> None:  # fmt: skip
        self._db = connection
        self.path = path
        self.store_id = store_id
        self.serial = serial  # the newest serial in the file: the next save takes serial + 1
        self._last_saved: str | None = None
        # Finished games waiting for the next save, which commits them with its step: the
        # session records a game while handling the press that shows the result, so a
        # commit here would put an fsync before that frame (picture first).
        self._pending: list[FinishedGame] = []
        self._mark = StepMark(path.with_name(MARK_NAME)) if path is not None else None

    # --- opening ---------------------------------------------------------------------------
    @classmethod
    def open(
        cls, directory: Path, restore: Callable[[dict[str, Any]], Any] | None = None
    ) -> Opened:
        """Open or create the store in `directory` and find the game to resume.

        `restore` turns a snapshot into a game, raising if it does not fit one (the session's
        own check); the newest step it accepts is resumed. Damage sets the file aside (a
        copy when a good step survives in it); a store that cannot be written is left alone
        and read from a copy, and the run plays without saving.
        """
        path = directory / FILE_NAME
        restore = restore or (lambda data: data)
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            return Opened(cls.in_memory(), (cannot_save(error, None).notice, str(directory)),
                          saving=False)  # fmt: skip
        mark = StepMark(directory / MARK_NAME)
        claimed = mark.read()
        if _emptied(path):
            return cls._fresh_after_damage(path)  # what it held is lost
        try:
            store = cls._connect(path)
        except DamagedStore:
            return cls._fresh_after_damage(path)
        except (sqlite3.Error, OSError) as error:
            if is_damage(error):
                return cls._fresh_after_damage(path)
            return cls._read_only(path, restore, cannot_save(error, directory))
        try:
            choice = store._choose(restore, claimed)
        except (sqlite3.Error, OSError) as error:  # a page broke under the reading
            store.close()
            if is_damage(error):
                return cls._fresh_after_damage(path)
            return cls._read_only(path, restore, cannot_save(error, directory))
        if choice.step is None and (choice.passed_over or choice.newest_claimed > 0):
            store.close()  # steps were saved here, and none of them can be trusted
            return cls._fresh_after_damage(path)
        if choice.step is not None and (
            choice.passed_over or choice.newest_claimed > choice.step.serial
        ):
            # Damage inside a sound file: keep a copy for a person before the damaged rows
            # are dropped, then say so if the game went back.
            aside = copy_aside(path)
            store._repair(choice.step)
            store._adopt(choice)
            if choice.newest_claimed > choice.step.serial:
                return Opened(store, ("store_rewound", aside.name), choice.restored)
            return Opened(store, None, choice.restored)  # the damage claimed no newer step
        store._adopt(choice)
        return Opened(store, None, choice.restored)

    @classmethod
    def in_memory(cls) -> Store:
        connection = sqlite3.connect(":memory:", isolation_level=None)
        connection.executescript(SCHEMA)
        return cls(connection, None)

    @classmethod
    def _connect(cls, path: Path) -> Store:
        connection = sqlite3.connect(path, isolation_level=None, timeout=OPEN_TIMEOUT)
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=FULL")
            check = connection.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                raise DamagedStore(f"quick_check: {check}")
            store_id = _prepare(connection)
        except BaseException:
            connection.close()
            raise
        store = cls(connection, path, store_id=store_id)
        store.serial = store._newest_serial()
        return store

    @classmethod
    def _fresh_after_damage(cls, path: Path) -> Opened:
        """Set the damaged file aside and start a fresh store in its place."""
        try:
            aside = set_aside(path)
            store = cls._connect(path)
        except (DamagedStore, sqlite3.Error, OSError) as error:
            return Opened(cls.in_memory(), (cannot_save(error, path.parent).notice,
                                            str(path.parent)), saving=False)  # fmt: skip
        store._write_mark()
        return Opened(store, ("store_damaged", aside.name))

    @classmethod
    def _read_only(
        cls, path: Path, restore: Callable[[dict[str, Any]], Any], problem: CannotSave
    ) -> Opened:
        """The store cannot be written: play its newest good step, in memory, not saving."""
        choice = _read_copy(path, restore)
        restored = None if choice is None else choice.restored
        return Opened(cls.in_memory(), (problem.notice, str(path.parent)), restored, saving=False)

    # --- the game in progress --------------------------------------------------------------
    def rows(self) -> Iterator[Step]:
        """Every saved step, newest first (the current row before an earlier one of its serial)."""
        queries = (
            "SELECT serial, CAST(snapshot AS BLOB), CAST(checksum AS BLOB) FROM session",
            "SELECT serial, CAST(snapshot AS BLOB), CAST(checksum AS BLOB) FROM steps",
        )
        found: list[tuple[int, int, Step]] = []
        for order, query in enumerate(queries):
            for serial, text, stored in self._db.execute(query):
                if not isinstance(serial, int) or not isinstance(text, bytes):
                    found.append((-1, order, Step(-1, b"", False)))
                    continue
                intact = isinstance(stored, bytes) and stored == checksum(serial, text).encode()
                found.append((serial, order, Step(serial, text, intact)))
        found.sort(key=lambda item: (-item[0], item[1]))
        return iter([step for _, _, step in found])

    def _choose(self, restore: Callable[[dict[str, Any]], Any], claimed: Mark | None) -> Choice:
        steps = list(self.rows())
        newest = 0
        # The mark of another store counts only over an empty file: a log lost whole (its
        # header damaged) leaves a database with no tables, which gets a new id at opening.
        if claimed is not None and (claimed.store_id == self.store_id or not steps):
            newest = claimed.serial
        passed_over = 0
        for step in steps:
            newest = max(newest, step.serial)  # a damaged row's claim counts: safe side
            if not step.intact:
                passed_over += 1
                continue
            try:
                restored = restore(step.snapshot())
            except Exception:  # any value that does not fit a game: this step is damaged
                passed_over += 1
                continue
            return Choice(step, restored, newest, passed_over)
        return Choice(None, None, newest, passed_over)

    def _repair(self, step: Step) -> None:
        """Make the chosen step the newest again, dropping the damaged rows above it (a
        copy of the file is kept aside first), so the rewind is announced only once."""
        digest = checksum(step.serial, step.text)
        text = step.text.decode("utf-8")
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM steps WHERE serial >= ?", (step.serial,))
            self._db.execute(
                "INSERT OR REPLACE INTO session (id, snapshot, saved_at, serial, checksum)"
                " VALUES (1, ?, ?, ?, ?)",
                (text, time.time(), step.serial, digest),
            )
            self._db.execute("COMMIT")
        except (sqlite3.Error, OSError):
            self._rollback()  # not written: the next start finds the same damage again
            return
        self.serial = step.serial

    def _adopt(self, choice: Choice) -> None:
        """Save on from the chosen step; the mark follows it, so a rewind is said once."""
        if choice.step is not None:
            self._last_saved = choice.step.text.decode("utf-8")
            self.serial = max(self.serial, choice.step.serial)
        self._write_mark(0 if choice.step is None else choice.step.serial)

    def load(self) -> dict[str, Any] | None:
        """The newest step whose checksum holds, as saved (no check that it fits a game)."""
        for step in self.rows():
            if step.intact:
                return step.snapshot()
        return None

    def save(self, snapshot: dict[str, Any]) -> bool:
        """Commit the snapshot as the next step; False when nothing changed (spares the SD
        card). Raises `CannotSave` (the file is sound, try again later) or `DamagedStore`."""
        return self.save_text(canonical(snapshot))

    def save_text(self, text: str) -> bool:
        if text == self._last_saved and not self._pending:
            return False
        serial = self.serial + 1
        data = text.encode("utf-8")
        digest = checksum(serial, data)
        now = time.time()
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._write_pending(now)
            if text != self._last_saved:
                self._db.execute(
                    "INSERT OR REPLACE INTO steps (serial, snapshot, checksum, saved_at)"
                    " SELECT serial, snapshot, checksum, saved_at FROM session WHERE id = 1"
                )  # the step before becomes the newest of the earlier ones
                self._db.execute(
                    "INSERT OR REPLACE INTO session (id, snapshot, saved_at, serial, checksum)"
                    " VALUES (1, ?, ?, ?, ?)",
                    (text, now, serial, digest),
                )
                self._db.execute("DELETE FROM steps WHERE serial < ?", (serial - KEEP,))
            self._db.execute("COMMIT")
        except (sqlite3.Error, OSError) as error:
            self._rollback()
            if is_damage(error):
                raise DamagedStore(str(error)) from error
            raise cannot_save(error, None if self.path is None else self.path.parent) from error
        self._pending.clear()  # only once committed: a failed save keeps them for the next
        if text != self._last_saved:
            self.serial = serial
            self._last_saved = text
            self._write_mark(serial)
        return True

    def _rollback(self) -> None:
        try:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # the next BEGIN will say whether the connection still works

    def _newest_serial(self) -> int:
        serials = [step.serial for step in self.rows() if step.intact]
        return max(serials, default=0)

    def _write_mark(self, serial: int | None = None) -> None:
        if self._mark is not None:
            self._mark.write(Mark(self.store_id, self.serial if serial is None else serial))

    def replace_damaged(self) -> str:
        """The file broke while the box ran: keep it aside and go on in a fresh one. The
        name it was kept under; raises `CannotSave` when no fresh file can be made."""
        self._db.close()
        self._last_saved = None
        if self.path is None:
            self._db = Store.in_memory()._db
            return ""
        try:
            aside = set_aside(self.path)
            fresh = Store._connect(self.path)
        except (DamagedStore, sqlite3.Error, OSError) as error:
            self._db = Store.in_memory()._db
            self.path = None
            raise cannot_save(error, None) from error
        self._db, self.store_id, self.serial = fresh._db, fresh.store_id, fresh.serial
        self._write_mark()
        return aside.name

    # --- finished games (the session's Records) ---------------------------------------------
    def best_solo(self, city: str, modules: tuple[str, ...]) -> int | None:
        """The best adjusted solo score in `city` with exactly `modules` (C-13), counting
        the games waiting for the next save."""
        best = [b.adjusted for b in self.history().bests
                if b.city == city and set(b.modules) == set(modules)]  # fmt: skip
        return max(best, default=None)

    def history(self, limit: int = HISTORY_GAMES) -> History:
        """The last `limit` games per city, the solo bests per city and module set, and
        the daily games kept apart: read through indexes and aggregates, so a long
        history stays cheap (benchmarks/history.py)."""
        db = self._db
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
        waiting = [_waiting(game, now) for game in reversed(self._pending)]  # newest first
        games = [*waiting, *(_played(row[1:]) for row in last)]
        return summarise(
            games,
            [*waiting, *(_played(row[:-1]) for row in best)],
            [*waiting, *(_played(row[:-1]) for row in best_daily)],
            [*(g.daily for g in waiting), *(str(row[0]) for row in days)],
            limit,
        )

    def record(self, game: FinishedGame) -> None:
        """Keep a finished game for the next save, which commits it with its step: a kill
        can then never keep the game without the step that says it was recorded (which
        would record it twice)."""
        self._pending.append(game)

    def _write_pending(self, now: float) -> None:
        for game in self._pending:
            self._db.execute(
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

    def finished_games(self) -> list[dict[str, Any]]:
        """The finished games, oldest first: those saved, then those waiting for a save."""
        cursor = self._db.execute(
            "SELECT city, players, modules, seed, totals, adjusted, tier FROM finished_games"
            " ORDER BY id"
        )
        names = [d[0] for d in cursor.description]
        saved = [dict(zip(names, row, strict=True)) for row in cursor]
        waiting = [
            {"city": game.city, "players": game.players, "modules": module_set(game.modules),
             "seed": game.seed, "totals": json.dumps(list(game.totals)),
             "adjusted": game.adjusted, "tier": game.tier}
            for game in self._pending
        ]  # fmt: skip
        return saved + waiting

    def integrity(self) -> str:
        return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])

    def close(self) -> None:
        """Commit finished games still waiting (the last press's save may have been the
        one that failed), then let go of the file."""
        if self._pending:
            with contextlib.suppress(sqlite3.Error, OSError):
                self._db.execute("BEGIN IMMEDIATE")
                self._write_pending(time.time())
                self._db.execute("COMMIT")
            self._rollback()
        self._db.close()


def _prepare(connection: sqlite3.Connection) -> str:
    """Check the schema (bringing a version 1 store up to date) and return the store's id."""
    tables = {row[0] for row in connection.execute(
        "SELECT name FROM sqlite_master WHERE type='table'")}  # fmt: skip
    if tables and "meta" not in tables:
        raise DamagedStore("not an nsdevice store")
    version = None
    if tables:
        row = connection.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        version = None if row is None else row[0]
        if version not in ("1", "2", str(SCHEMA_VERSION)):
            raise DamagedStore(f"schema version {version!r}")
    row = connection.execute("SELECT value FROM meta WHERE key='store_id'").fetchone() \
        if tables else None  # fmt: skip
    if version == str(SCHEMA_VERSION) and row is not None:
        return str(row[0])  # nothing to write: a sound store is only read at start
    store_id = secrets.token_hex(8) if row is None else str(row[0])
    connection.execute("BEGIN IMMEDIATE")  # executescript would commit on its own
    try:
        if version == "1":
            _upgrade_from_1(connection)
        if version in ("1", "2"):
            _upgrade_from_2(connection)
        for statement in SCHEMA.split(";"):
            if statement.strip():
                connection.execute(statement)
        connection.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                           ("schema_version", str(SCHEMA_VERSION)))  # fmt: skip
        connection.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                           ("store_id", store_id))  # fmt: skip
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
    return store_id


def _upgrade_from_1(connection: sqlite3.Connection) -> None:
    """Version 1 kept one snapshot without a checksum: it becomes step 1, checksummed now
    (it is still checked against its deal when the game is restored)."""
    connection.execute("ALTER TABLE session ADD COLUMN serial INTEGER NOT NULL DEFAULT 0")
    connection.execute("ALTER TABLE session ADD COLUMN checksum TEXT NOT NULL DEFAULT ''")
    row = connection.execute("SELECT CAST(snapshot AS BLOB) FROM session WHERE id = 1").fetchone()
    if row is not None and isinstance(row[0], bytes):
        connection.execute(
            "UPDATE session SET serial = 1, checksum = ? WHERE id = 1", (checksum(1, row[0]),)
        )


def _upgrade_from_2(connection: sqlite3.Connection) -> None:
    """Version 3 keeps, for each finished game, the day's deal it was played on and its
    winners; the games finished before keep every value they had (NULL for the new ones:
    not a daily deal, winners read from the totals)."""
    columns = {row[1] for row in connection.execute("PRAGMA table_info(finished_games)")}
    if not columns:
        return  # no table yet: the schema creates it whole
    for column in ("daily", "winners"):
        if column not in columns:
            connection.execute(f"ALTER TABLE finished_games ADD COLUMN {column} TEXT")


# --- the history ---------------------------------------------------------------------------


def module_set(modules: tuple[str, ...] | list[str]) -> str:
    """A module set as stored: in the box's own order, so one set is always one string."""
    known = [m for m in MODULES if m in modules]
    return ",".join(known + sorted(m for m in modules if m not in MODULES))


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


def _read_copy(path: Path, restore: Callable[[dict[str, Any]], Any]) -> Choice | None:
    """Read the store from a private copy (in RAM where there is /dev/shm), so that
    neither a read-only card nor a damaged file is touched by the reading."""
    if not path.exists():
        return None
    base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    try:
        with tempfile.TemporaryDirectory(prefix="nsdevice-", dir=base) as folder:
            copy = Path(folder) / FILE_NAME
            for suffix in ("", "-wal"):
                if Path(f"{path}{suffix}").exists():
                    shutil.copyfile(f"{path}{suffix}", f"{copy}{suffix}")
            connection = sqlite3.connect(copy, isolation_level=None, timeout=OPEN_TIMEOUT)
            try:
                store = Store(connection, None)
                row = connection.execute("SELECT value FROM meta WHERE key='store_id'").fetchone()
                store.store_id = str(row[0]) if row else ""
                claimed = StepMark(path.with_name(MARK_NAME)).read()
                return store._choose(restore, claimed)
            finally:
                connection.close()
    except (sqlite3.Error, OSError):
        return None


def _emptied(path: Path) -> bool:
    """A store file of zero bytes. SQLite would take it for a new, empty store (and drop a
    log beside it): the saved game would vanish without a word. (The box writes the file's
    first page within milliseconds of creating it, on the switch to WAL.)"""
    try:
        return path.stat().st_size == 0
    except OSError:
        return False


def _aside_name(path: Path) -> Path:
    """A name beside `path` that neither the store nor any earlier set-aside file has."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    counter = 1
    while any(Path(f"{aside}{suffix}").exists() for suffix in ("", "-wal", "-shm")):
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{counter}")
        counter += 1
    return aside


def set_aside(path: Path) -> Path:
    """Move a damaged store (and its WAL files) out of the way, keeping it for a person."""
    aside = _aside_name(path)
    for suffix in ("", "-wal", "-shm"):
        source = Path(f"{path}{suffix}")
        if source.exists():
            source.rename(Path(f"{aside}{suffix}"))
    return aside


def copy_aside(path: Path) -> Path:
    """Keep a copy of a store holding damaged steps, before the box writes over them."""
    aside = _aside_name(path)
    for suffix in ("", "-wal"):
        source = Path(f"{path}{suffix}")
        if source.exists():
            with source.open("rb") as reading, open(f"{aside}{suffix}", "xb") as writing:
                shutil.copyfileobj(reading, writing)
    return aside


# --- the step mark -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Mark:
    store_id: str
    serial: int


class StepMark:
    """A few bytes beside the database: which store, and the newest serial it committed.

    Written after each commit, in place and without fsync (it is a witness, not a copy of
    the game), so it can lag behind the database but never run ahead of it: a store whose
    newest good step is older than its mark has lost saved steps, and the box says so.
    """

    SIZE = 64

    def __init__(self, path: Path) -> None:
        self.path = path

    def read(self) -> Mark | None:
        try:
            data = self.path.read_bytes()[: self.SIZE]
        except OSError:
            return None
        try:
            word, store_id, serial, crc = data.decode("ascii").split()
            if word != "nsdevice-step" or int(crc, 16) != _crc(store_id, serial):
                return None
            return Mark(store_id, int(serial))
        except (UnicodeDecodeError, ValueError):
            return None  # a damaged mark is no witness: the database is trusted alone

    def write(self, mark: Mark) -> None:
        serial = str(mark.serial)
        line = f"nsdevice-step {mark.store_id} {serial} {_crc(mark.store_id, serial):08x}"
        data = line.ljust(self.SIZE - 1).encode("ascii") + b"\n"
        try:
            descriptor = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o644)
            try:
                os.pwrite(descriptor, data, 0)
            finally:
                os.close(descriptor)
        except OSError:
            pass  # a mark that cannot be written only weakens the rewind check


def _crc(store_id: str, serial: str) -> int:
    return zlib.crc32(f"{store_id} {serial}".encode("ascii"))
