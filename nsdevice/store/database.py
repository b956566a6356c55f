"""The store: the game in progress (its last few steps) and the finished games.

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
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from nsdevice.rules.frozen import dataclass
from nsdevice.session import FinishedGame
from nsdevice.session.settings import HISTORY_GAMES, History
from nsdevice.store.damage import (
    OPEN_TIMEOUT,
    STORE_FAULTS,
    CannotSave,
    cannot_save,
    copy_aside,
    emptied,
    read_copy,
    set_aside,
    trouble,
)
from nsdevice.store.notices import Notice, read_kept, write_kept
from nsdevice.store.records import read_history, saved_games, write_games
from nsdevice.store.schema import FILE_NAME, SCHEMA, DamagedStore, prepare
from nsdevice.store.steps import (
    KEEP,
    MARK_NAME,
    Choice,
    Mark,
    Step,
    StepMark,
    canonical,
    checksum,
    choose,
    read_rows,
)

SAVE_WAIT_MS = 10  # the most a save waits for another connection's lock: under a frame


@dataclass(frozen=True, slots=True)
class Opened:
    """What opening the store found: the store to save to, a notice for the screen (or
    None), the restored game (or None: start fresh) and whether this run may save."""

    store: Store
    notice: Notice | None
    restored: Any = None
    saving: bool = True

    @property
    def notices(self) -> tuple[Notice, ...]:
        """Every notice to show: those an earlier run kept and nobody saw, then this one."""
        kept = [n for n in self.store.kept if n != self.notice]
        return (*kept, *((self.notice,) if self.notice else ()))


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
        # Damage notices not yet shown by a press, kept in the file across kills; the
        # change is written with the next save.
        self.kept: list[Notice] = []
        self._kept_changed = False

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
        if emptied(path):
            return cls._fresh_after_damage(path)  # what it held is lost
        try:
            store = cls._connect(path)
        except DamagedStore:
            return cls._fresh_after_damage(path)
        except STORE_FAULTS as error:
            problem = trouble(error, path)
            if problem is None:
                return cls._fresh_after_damage(path)
            return cls._read_only(path, restore, problem)
        try:
            choice = store._choose(restore, claimed)
        except STORE_FAULTS as error:  # a page broke under the reading
            store._db.close()
            problem = trouble(error, path)
            if problem is None:
                return cls._fresh_after_damage(path)
            return cls._read_only(path, restore, problem)
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
            store._playing()
            if choice.newest_claimed > choice.step.serial:
                rewound = ("store_rewound", aside.name)
                store.announce(rewound)
                return Opened(store, rewound, choice.restored)
            return Opened(store, None, choice.restored)  # the damage claimed no newer step
        store._adopt(choice)
        store._playing()
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
            store_id = prepare(connection)
        except BaseException:
            connection.close()
            raise
        store = cls(connection, path, store_id=store_id)
        store.serial = store._newest_serial()
        store.kept = read_kept(connection)
        return store

    def _playing(self) -> None:
        """From here on a save never holds a press up waiting for another connection's
        lock: it fails at once as `StoreBusy`, and the saver tries again later."""
        self._db.execute(f"PRAGMA busy_timeout = {SAVE_WAIT_MS}")

    @classmethod
    def _fresh_after_damage(cls, path: Path) -> Opened:
        """Set the damaged file aside and start a fresh store in its place."""
        try:
            aside = set_aside(path)
            store = cls._connect(path)
        except (DamagedStore, *STORE_FAULTS) as error:
            return Opened(cls.in_memory(), (cannot_save(error, path.parent).notice,
                                            str(path.parent)), saving=False)  # fmt: skip
        store._write_mark()
        damaged = ("store_damaged", aside.name)
        store.announce(damaged)  # before anything else is saved: a kill cannot lose it
        store._playing()
        return Opened(store, damaged)

    @classmethod
    def _read_only(
        cls, path: Path, restore: Callable[[dict[str, Any]], Any], problem: CannotSave
    ) -> Opened:
        """The store cannot be written: play its newest good step, in memory, not saving."""
        choice = read_copy(path, restore)
        restored = None if choice is None else choice.restored
        return Opened(cls.in_memory(), (problem.notice, str(path.parent)), restored, saving=False)

    # --- the game in progress --------------------------------------------------------------
    def rows(self) -> Iterator[Step]:
        """Every saved step, newest first (the current row before an earlier one of its serial)."""
        return read_rows(self._db)

    def _choose(self, restore: Callable[[dict[str, Any]], Any], claimed: Mark | None) -> Choice:
        return choose(list(self.rows()), restore, claimed, self.store_id)

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
        except STORE_FAULTS:
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
        if text == self._last_saved and not self._pending and not self._kept_changed:
            return False
        serial = self.serial + 1
        data = text.encode("utf-8")
        digest = checksum(serial, data)
        now = time.time()
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._write_pending(now)
            if self._kept_changed:
                write_kept(self._db, self.kept)
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
        except STORE_FAULTS as error:
            self._rollback()
            problem = trouble(error, self.path)
            if problem is None:
                raise DamagedStore(str(error)) from error
            raise problem from error
        self._pending.clear()  # only once committed: a failed save keeps them for the next
        self._kept_changed = False
        if text != self._last_saved:
            self.serial = serial
            self._last_saved = text
            self._write_mark(serial)
        return True

    def announce(self, notice: Notice) -> None:
        """Keep a damage notice in the file until `shown` says a press has shown it."""
        if notice not in self.kept:
            self.kept.append(notice)
        with contextlib.suppress(*STORE_FAULTS):
            self._db.execute("BEGIN IMMEDIATE")
            write_kept(self._db, self.kept)
            self._db.execute("COMMIT")
        self._rollback()  # not written: said now, only not again after a kill

    def shown(self, notices: list[Notice]) -> None:
        """These kept notices have been shown by a press: the next save takes them out."""
        kept = [notice for notice in self.kept if notice not in notices]
        if kept != self.kept:
            self.kept, self._kept_changed = kept, True

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
        except (DamagedStore, *STORE_FAULTS) as error:
            self._db = Store.in_memory()._db
            self.path = None
            raise cannot_save(error, None) from error
        self._db, self.store_id, self.serial = fresh._db, fresh.store_id, fresh.serial
        self._write_mark()
        self._playing()
        # Said, and kept in the fresh file with any notice nobody has seen yet: the game
        # in memory is safe, but the finished games stay behind in the file set aside.
        self.announce(("store_damaged", aside.name))
        return aside.name

    # --- finished games (the session's Records) ---------------------------------------------
    def best_solo(self, city: str, modules: tuple[str, ...]) -> int | None:
        """The best adjusted solo score in `city` with exactly `modules` (C-13), counting
        the games waiting for the next save."""
        best = [b.adjusted for b in self.history().bests
                if b.city == city and set(b.modules) == set(modules)]  # fmt: skip
        return max(best, default=None)

    def history(self, limit: int = HISTORY_GAMES) -> History:
        """The last `limit` games per city, the solo bests and the daily games, counting
        the games waiting for the next save (records.read_history)."""
        return read_history(self._db, self._pending, limit)

    def record(self, game: FinishedGame) -> None:
        """Keep a finished game for the next save, which commits it with its step: a kill
        can then never keep the game without the step that says it was recorded (which
        would record it twice)."""
        self._pending.append(game)

    def _write_pending(self, now: float) -> None:
        write_games(self._db, self._pending, now)

    def finished_games(self) -> list[dict[str, Any]]:
        """The finished games, oldest first: those saved, then those waiting for a save."""
        return saved_games(self._db, self._pending)

    def integrity(self) -> str:
        return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])

    def close(self, snapshot: dict[str, Any] | None = None) -> None:
        """Save the last step (`snapshot`, when given) with the finished games still waiting
        (the last press's save may have been the one that failed), then let go of the file.
        Without a snapshot the waiting games are committed alone."""
        with contextlib.suppress(*STORE_FAULTS, CannotSave, DamagedStore):
            self._db.execute(f"PRAGMA busy_timeout = {int(OPEN_TIMEOUT * 1000)}")
            if snapshot is not None:
                self.save(snapshot)
            elif self._pending:
                self._db.execute("BEGIN IMMEDIATE")
                self._write_pending(time.time())
                self._db.execute("COMMIT")
                self._pending.clear()
        self._rollback()
        self._db.close()
