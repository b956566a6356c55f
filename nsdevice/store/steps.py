"""The steps of the game in progress: each saved step's serial and checksum, choosing the
newest one to trust, and the step mark beside the database."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import zlib
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from nsdevice.rules.frozen import dataclass

MARK_NAME = "nsdevice.step"  # the step mark: the newest serial saved, outside SQLite
KEEP = 5  # earlier steps kept besides the newest, to fall back on


def checksum(serial: int, text: bytes) -> str:
    """What each saved step carries: SHA-256 over its serial and its canonical JSON."""
    return hashlib.sha256(b"%d\n" % serial + text).hexdigest()


def canonical(snapshot: Mapping[str, Any]) -> str:
    return json.dumps(snapshot, sort_keys=True, separators=(",", ":"))


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


def read_rows(db: sqlite3.Connection) -> Iterator[Step]:
    """Every saved step, newest first (the current row before an earlier one of its serial)."""
    queries = (
        "SELECT serial, CAST(snapshot AS BLOB), CAST(checksum AS BLOB) FROM session",
        "SELECT serial, CAST(snapshot AS BLOB), CAST(checksum AS BLOB) FROM steps",
    )
    found: list[tuple[int, int, Step]] = []
    for order, query in enumerate(queries):
        for serial, text, stored in db.execute(query):
            if not isinstance(serial, int) or not isinstance(text, bytes):
                found.append((-1, order, Step(-1, b"", False)))
                continue
            intact = isinstance(stored, bytes) and stored == checksum(serial, text).encode()
            found.append((serial, order, Step(serial, text, intact)))
    found.sort(key=lambda item: (-item[0], item[1]))
    return iter([step for _, _, step in found])


def choose(
    steps: list[Step],
    restore: Callable[[dict[str, Any]], Any],
    claimed: Mark | None,
    store_id: str,
) -> Choice:
    """The newest step whose checksum holds and that `restore` accepts."""
    newest = 0
    # The mark of another store counts only over an empty file: a log lost whole (its
    # header damaged) leaves a database with no tables, which gets a new id at opening.
    if claimed is not None and (claimed.store_id == store_id or not steps):
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
