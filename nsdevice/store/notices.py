"""Notices about the store kept in the store itself, until a press has shown them.

A damaged file set aside is said on the screen; a box killed before anyone pressed a
button must say it again at the next start. So such a notice is written in the fresh
file's `meta` table and taken out only in the save after the press that showed it.
"""

from __future__ import annotations

import json
import sqlite3

Notice = tuple[str, str]
KEY = "notices"


def read_kept(db: sqlite3.Connection) -> list[Notice]:
    """The notices still to be shown; none when the row cannot be read (a notice lost is
    better than a box that will not start)."""
    try:
        row = db.execute("SELECT value FROM meta WHERE key = ?", (KEY,)).fetchone()
        value = json.loads(row[0]) if row is not None else []
    except (sqlite3.Error, ValueError, TypeError):
        return []
    if not isinstance(value, list):
        return []
    return [
        (item[0], item[1])
        for item in value
        if isinstance(item, list) and len(item) == 2 and all(isinstance(i, str) for i in item)
    ]


def write_kept(db: sqlite3.Connection, kept: list[Notice]) -> None:
    """Inside the caller's transaction."""
    if kept:
        db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                   (KEY, json.dumps([list(notice) for notice in kept])))  # fmt: skip
    else:
        db.execute("DELETE FROM meta WHERE key = ?", (KEY,))
