"""The store's tables, and bringing an older store up to this version."""

from __future__ import annotations

import os
import sqlite3

from nsdevice.store.steps import checksum

SCHEMA_VERSION = 4
FILE_NAME = "nsdevice.sqlite3"

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
    winners TEXT,  -- version 3: JSON list of seats, NULL in games saved before
    names TEXT  -- version 4: JSON list of the seats' names ("" for none), NULL for none
);
CREATE INDEX IF NOT EXISTS finished_by_city ON finished_games (city, id);
CREATE INDEX IF NOT EXISTS finished_solo ON finished_games (players, city, modules, adjusted);
CREATE INDEX IF NOT EXISTS finished_daily ON finished_games (daily);
"""


class DamagedStore(Exception):
    """The file exists but is not a store we can trust."""


def prepare(connection: sqlite3.Connection) -> str:
    """Check the schema (bringing a version 1 store up to date) and return the store's id."""
    tables = {row[0] for row in connection.execute(
        "SELECT name FROM sqlite_master WHERE type='table'")}  # fmt: skip
    if tables and "meta" not in tables:
        raise DamagedStore("not an nsdevice store")
    version = None
    if tables:
        row = connection.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        version = None if row is None else row[0]
        if version not in ("1", "2", "3", str(SCHEMA_VERSION)):
            raise DamagedStore(f"schema version {version!r}")
    row = connection.execute("SELECT value FROM meta WHERE key='store_id'").fetchone() \
        if tables else None  # fmt: skip
    if version == str(SCHEMA_VERSION) and row is not None:
        return str(row[0])  # nothing to write: a sound store is only read at start
    # os.urandom is what secrets.token_hex reads, without bringing hmac into the start
    store_id = os.urandom(8).hex() if row is None else str(row[0])
    connection.execute("BEGIN IMMEDIATE")  # executescript would commit on its own
    try:
        if version == "1":
            _upgrade_from_1(connection)
        if version in ("1", "2"):
            _upgrade_from_2(connection)
        if version in ("1", "2", "3"):
            _upgrade_from_3(connection)
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


def _upgrade_from_3(connection: sqlite3.Connection) -> None:
    """Version 4 keeps the seats' names a finished game had (from the phones, issue 34);
    the games finished before keep every value they had, and no names (NULL)."""
    columns = {row[1] for row in connection.execute("PRAGMA table_info(finished_games)")}
    if columns and "names" not in columns:
        connection.execute("ALTER TABLE finished_games ADD COLUMN names TEXT")
