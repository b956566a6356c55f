"""SQLite persistence: the game in progress and the finished games.

Every step is one committed transaction (WAL, synchronous=FULL), so pulling the plug
loses at most the press being written. A file that cannot be read is moved aside and
the box starts fresh with a notice: never a crash loop.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nsdevice.session import FinishedGame

SCHEMA_VERSION = 1
FILE_NAME = "nsdevice.sqlite3"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS session (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    snapshot TEXT NOT NULL,
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
    tier INTEGER
);
"""


def state_directory(environ: Mapping[str, str] | None = None) -> Path:
    """Where the box keeps its state: systemd's StateDirectory, else the XDG state home."""
    env = os.environ if environ is None else environ
    if env.get("STATE_DIRECTORY"):
        return Path(env["STATE_DIRECTORY"].split(":")[0])
    base = env.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "nsdevice"


class DamagedStore(Exception):
    """The file exists but is not a store we can trust."""


@dataclass(frozen=True, slots=True)
class Opened:
    store: Store
    notice: tuple[str, str] | None  # ("store_damaged", where it was put) or None


class Store:
    """The game in progress (one row) and the history of finished games."""

    def __init__(self, connection: sqlite3.Connection, path: Path | None) -> None:
        self._db = connection
        self.path = path
        self._last_saved: str | None = None
        # finished games waiting for the next save, which commits them with its snapshot
        self._pending: list[FinishedGame] = []

    @classmethod
    def open(cls, directory: Path) -> Opened:
        """Open or create the store in `directory`; set a damaged file aside and start fresh."""
        path = directory / FILE_NAME
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError:
            return Opened(cls.in_memory(), ("store_unwritable", str(directory)))
        try:
            return Opened(cls._connect(path), None)
        except DamagedStore:
            aside = set_aside(path)
            try:
                return Opened(cls._connect(path), ("store_damaged", aside.name))
            except (DamagedStore, sqlite3.Error, OSError):
                return Opened(cls.in_memory(), ("store_unwritable", str(directory)))
        except (sqlite3.Error, OSError):
            return Opened(cls.in_memory(), ("store_unwritable", str(directory)))

    @classmethod
    def in_memory(cls) -> Store:
        connection = sqlite3.connect(":memory:", isolation_level=None)
        connection.executescript(SCHEMA)
        return cls(connection, None)

    @classmethod
    def _connect(cls, path: Path) -> Store:
        if _emptied(path):
            raise DamagedStore("the file is empty: what it held is lost")
        connection = sqlite3.connect(path, isolation_level=None, timeout=5)
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=FULL")
            check = connection.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                raise DamagedStore(f"quick_check: {check}")
            tables = {row[0] for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type='table'")}  # fmt: skip
            if tables:
                if "meta" not in tables:
                    raise DamagedStore("not an nsdevice store")
                row = connection.execute(
                    "SELECT value FROM meta WHERE key='schema_version'"
                ).fetchone()
                if row is None or row[0] != str(SCHEMA_VERSION):
                    raise DamagedStore(f"schema version {row[0] if row else None}")
            connection.executescript(SCHEMA)  # IF NOT EXISTS: a no-op on a good store
            connection.execute(
                "INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', ?)",
                (str(SCHEMA_VERSION),),
            )
        except sqlite3.DatabaseError as error:
            connection.close()
            raise DamagedStore(str(error)) from error
        except DamagedStore:
            connection.close()
            raise
        return cls(connection, path)

    # --- the game in progress --------------------------------------------------------------
    def load(self) -> dict[str, Any] | None:
        row = self._db.execute("SELECT snapshot FROM session WHERE id = 1").fetchone()
        if row is None:
            return None
        self._last_saved = row[0]
        data = json.loads(row[0])
        if not isinstance(data, dict):
            raise ValueError("saved session is not an object")
        return data

    def save(self, snapshot: dict[str, Any]) -> bool:
        """Commit the snapshot, and any finished game recorded since, in one transaction;
        returns False when nothing changed (spares the SD card)."""
        text = json.dumps(snapshot, sort_keys=True, separators=(",", ":"))
        if text == self._last_saved and not self._pending:
            return False
        with self._transaction():
            self._write_pending()
            self._db.execute(
                "INSERT OR REPLACE INTO session (id, snapshot, saved_at) VALUES (1, ?, ?)",
                (text, time.time()),
            )
        self._pending.clear()  # only once committed: a failed save keeps them for the next
        self._last_saved = text
        return True

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN")
        try:
            yield
            self._db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            raise

    def discard(self) -> str:
        """The file opened but its saved game does not fit: set it aside like any damaged
        store and go on with a fresh one in its place. The name it was kept under."""
        self._db.close()
        self._last_saved = None
        if self.path is None:  # in memory: nothing to keep
            self._db = Store.in_memory()._db
            return ""
        aside = set_aside(self.path)
        try:
            self._db = Store._connect(self.path)._db
        except (DamagedStore, sqlite3.Error, OSError):
            self._db = Store.in_memory()._db
        return aside.name

    # --- finished games (the session's Records) ---------------------------------------------
    def best_solo(self, city: str) -> int | None:
        self._flush()
        row = self._db.execute(
            "SELECT MAX(adjusted) FROM finished_games WHERE city = ? AND players = 1", (city,)
        ).fetchone()
        return None if row is None or row[0] is None else int(row[0])

    def record(self, game: FinishedGame) -> None:
        """Keep a finished game for the next save. The session records it while handling
        the press that shows the result, so committing here would put an fsync before
        that frame; committed with the snapshot instead, a kill can never keep the game
        without the snapshot that says it is recorded (which would record it twice)."""
        self._pending.append(game)

    def _write_pending(self) -> None:
        for game in self._pending:
            self._db.execute(
                "INSERT INTO finished_games (finished_at, city, players, modules, seed, totals,"
                " adjusted, tier) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    time.time(),
                    game.city,
                    game.players,
                    ",".join(game.modules),
                    game.seed,
                    json.dumps(list(game.totals)),
                    game.adjusted,
                    game.tier,
                ),
            )

    def _flush(self) -> None:
        """Commit finished games not saved yet: before reading the records, and at close."""
        if self._pending:
            with self._transaction():
                self._write_pending()
            self._pending.clear()

    def finished_games(self) -> list[dict[str, Any]]:
        self._flush()
        cursor = self._db.execute(
            "SELECT city, players, modules, seed, totals, adjusted, tier FROM finished_games"
            " ORDER BY id"
        )
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor]

    def integrity(self) -> str:
        return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._flush()
        self._db.close()


def _emptied(path: Path) -> bool:
    """A store file of zero bytes with no write-ahead log beside it. SQLite would take it
    for a new, empty store and the saved game would vanish without a word. (The box
    writes the file's first page within milliseconds of creating it, on the switch to WAL.)"""
    try:
        if path.stat().st_size != 0:
            return False
    except FileNotFoundError:
        return False
    wal = Path(f"{path}-wal")
    return not (wal.exists() and wal.stat().st_size > 0)


def set_aside(path: Path) -> Path:
    """Move a damaged store (and its WAL files) out of the way, keeping it for a person."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    counter = 1
    while aside.exists():
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{counter}")
        counter += 1
    for suffix in ("", "-wal", "-shm"):
        source = Path(f"{path}{suffix}")
        if source.exists():
            source.rename(Path(f"{aside}{suffix}"))
    return aside
