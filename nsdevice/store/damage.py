"""Telling a damaged file from a store that cannot be written now, and keeping damaged
files aside for a person (never deleted, never over an earlier one)."""

from __future__ import annotations

import errno
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from nsdevice.store.schema import FILE_NAME
from nsdevice.store.steps import MARK_NAME, Choice, StepMark, choose, read_rows

OPEN_TIMEOUT = 2.0  # seconds to wait for a lock at start before playing without saving

# SQLite's own codes for a file that is not what it should be.
DAMAGE_CODES = ("SQLITE_CORRUPT", "SQLITE_NOTADB", "SQLITE_FORMAT", "SQLITE_IOERR_SHORT_READ")
# SQLite's codes for a file it could not write or lock *now*: the card, not the file. Any
# other error (e.g. "no such column" from a flipped bit in the schema's text) is judged by
# trying to write beside the store: if that works, the file is what is wrong.
ENVIRONMENT_CODES = (
    "SQLITE_FULL", "SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_IOERR",
    "SQLITE_NOMEM", "SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_INTERRUPT", "SQLITE_AUTH",
)  # fmt: skip
# What the store's calls raise when the file or the card fails. SQLite's message about a
# damaged schema quotes the damaged bytes, and Python fails to decode it when they are not
# UTF-8: that too is the file speaking.
STORE_FAULTS = (sqlite3.Error, OSError, UnicodeDecodeError)
BUSY_CODES = ("SQLITE_BUSY", "SQLITE_LOCKED")
PROBE_BYTES = 4096  # one page: what SQLite needs to write a step at the least


class CannotSave(Exception):
    """The store is sound but cannot be written now; `notice` names why for the screen."""

    def __init__(self, notice: str, reason: str) -> None:
        super().__init__(reason)
        self.notice = notice  # "store_full", "store_read_only" or "store_unwritable"


class StoreBusy(CannotSave):
    """Another connection holds the store's lock: try again soon, the file is sound."""

    def __init__(self, reason: str) -> None:
        super().__init__("store_unwritable", reason)


def trouble(error: BaseException, path: Path | None) -> CannotSave | None:
    """What an error from the store means: None when the file is damaged, else why it
    cannot be written now. Told apart by SQLite's result code and, where the code does
    not say, by trying to write beside the store: never by reading the message."""
    name = getattr(error, "sqlite_errorname", None) or ""
    if name.startswith(DAMAGE_CODES):
        return None
    if name.startswith(BUSY_CODES):
        return StoreBusy(str(error))
    directory = None if path is None else path.parent
    tried = try_writing(path)
    if tried is not None:
        return cannot_save(tried, directory)
    if name.startswith(ENVIRONMENT_CODES) or (not name and isinstance(error, OSError)):
        return cannot_save(error, directory)
    return None  # the card takes writes and SQLite still cannot use the file: damage


def try_writing(path: Path | None) -> OSError | None:
    """Write a page beside the store (synced, then removed) and open the store for
    writing: the error that stopped it, or None when the card takes writes."""
    if path is None:
        return None
    import tempfile  # (here and below) only when the store is in trouble: not at start

    try:
        descriptor, name = tempfile.mkstemp(prefix=".nsdevice-try-", dir=path.parent)
        try:
            os.write(descriptor, b"\0" * PROBE_BYTES)
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
            os.unlink(name)
        if path.exists():
            os.close(os.open(path, os.O_RDWR))
    except OSError as error:
        return error
    return None


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


def read_copy(path: Path, restore: Callable[[dict[str, Any]], Any]) -> Choice | None:
    """Read the store from a private copy (in RAM where there is /dev/shm), so that
    neither a read-only card nor a damaged file is touched by the reading."""
    if not path.exists():
        return None
    import shutil
    import tempfile

    base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    try:
        with tempfile.TemporaryDirectory(prefix="nsdevice-", dir=base) as folder:
            copy = Path(folder) / FILE_NAME
            for suffix in ("", "-wal"):
                if Path(f"{path}{suffix}").exists():
                    shutil.copyfile(f"{path}{suffix}", f"{copy}{suffix}")
            connection = sqlite3.connect(copy, isolation_level=None, timeout=OPEN_TIMEOUT)
            try:
                row = connection.execute("SELECT value FROM meta WHERE key='store_id'").fetchone()
                store_id = str(row[0]) if row else ""
                claimed = StepMark(path.with_name(MARK_NAME)).read()
                return choose(list(read_rows(connection)), restore, claimed, store_id)
            finally:
                connection.close()
    except (sqlite3.Error, OSError):
        return None


def emptied(path: Path) -> bool:
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
    import shutil

    aside = _aside_name(path)
    for suffix in ("", "-wal"):
        source = Path(f"{path}{suffix}")
        if source.exists():
            with source.open("rb") as reading, open(f"{aside}{suffix}", "xb") as writing:
                shutil.copyfileobj(reading, writing)
    return aside
