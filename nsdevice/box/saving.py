"""The saving policy, in one place: what the box does when the store misbehaves.

`open_game` is the start: it finds the game to resume and never lets the store stop the
box (any unexpected failure becomes "play without saving", with a notice and a log line,
so systemd's restart limit is never reached because of the store). `Saver` is what the
loop calls after each press: when the card is full, read-only or locked, the game goes on
in memory with a notice, and every later press tries again; a file that breaks while the
box runs is set aside and saving goes on in a fresh one.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from nsdevice.rules.frozen import dataclass
from nsdevice.session import FinishedGame
from nsdevice.session.settings import HISTORY_GAMES, History
from nsdevice.store import STORE_FAULTS, CannotSave, DamagedStore, Store, StoreBusy

Notice = tuple[str, str]
# What reading the finished games may raise: the store failing, or a row no box wrote
# (bad JSON, a date out of range); the box plays on without them.
READ_FAULTS = (sqlite3.Error, OSError, ValueError, TypeError, ArithmeticError)
Log = Callable[[str], None]
RETRY_SECONDS = 0.5  # how soon a step a locked store refused is tried again
BUSY_NOTICE_SECONDS = 10.0  # a lock held this long is said on the screen (once)


class Saver:
    """The loop's `save` and the session's `records`, over a store that may fail.

    Not saving is never fatal. The notice goes up once when saving stops working (not on
    every press) and the next press that saves clears the trouble. A run that could not
    read its store never writes to it (`writable=False`): it would save a fresh game over
    the one a later start must find.
    """

    def __init__(
        self, store: Store, *, writable: bool = True, where: str = "", log: Log = print,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:  # fmt: skip
        self.store = store
        self.writable = writable
        self.where = where  # shown under the notice: the state folder
        self.log = log
        self.clock = clock
        self.notices: list[Notice] = []  # the session's list, once the session exists
        self.failing: str | None = None  # the notice of the trouble in force, if any
        # The store's kept notices are watched only once they are in `notices`: from then
        # on, one gone from the list has been shown by a press.
        self.watching = False
        self.unsaved: dict[str, Any] | None = None  # the newest step a locked store refused
        self.retry_at = 0.0
        self.busy_since: float | None = None

    def __call__(self, snapshot: dict[str, Any]) -> bool:
        """Save one step; False when nothing was written (unchanged, or cannot save now)."""
        if not self.writable:
            return False
        if self.watching:
            self.store.shown([n for n in self.store.kept if n not in self.notices])
        try:
            saved = self.store.save(snapshot)
        except StoreBusy as busy:
            self._busy(snapshot, busy)
            return False
        except CannotSave as trouble:
            self._cannot(trouble)
            return False
        except DamagedStore as damage:
            return self._start_again(snapshot, str(damage))
        except STORE_FAULTS as error:  # anything else: not now, try again later
            self._cannot(CannotSave("store_unwritable", str(error)))
            return False
        self.unsaved, self.busy_since = None, None
        if self.failing is not None:
            self.log("saving again")
            self.failing = None
        return saved

    def _busy(self, snapshot: dict[str, Any], busy: StoreBusy) -> None:
        """Another connection holds the lock: the press is not held up; the step waits
        in memory and `retry` tries it again soon, as does the next press."""
        now = self.clock()
        self.unsaved, self.retry_at = snapshot, now + RETRY_SECONDS
        if self.busy_since is None:
            self.busy_since = now
            self.log(f"the store is locked ({busy}); trying again")
        elif now - self.busy_since >= BUSY_NOTICE_SECONDS:
            self._cannot(busy)

    def retry(self) -> float | None:
        """For the loop, each time round: save the step a locked store refused, once due.
        Seconds until the next try, or None when nothing waits."""
        if self.unsaved is None:
            return None
        if self.clock() >= self.retry_at:
            self(self.unsaved)
        if self.unsaved is None:
            return None
        return max(0.0, self.retry_at - self.clock())

    def close(self, snapshot: dict[str, Any]) -> None:
        """At the end of a run: the last step, with any finished game still waiting, is
        committed together (waiting for a lock as at the start), then the file let go."""
        self.store.close(snapshot if self.writable else None)

    def _cannot(self, trouble: CannotSave) -> None:
        if self.failing != trouble.notice:
            self.log(f"cannot save ({trouble}); the game goes on in memory")
            self.notices.append((trouble.notice, self.where))
        self.failing = trouble.notice

    def _start_again(self, snapshot: dict[str, Any], why: str) -> bool:
        """The file broke while the box ran: the game in memory is good, so keep the file
        aside and save the game into a fresh one."""
        try:
            aside = self.store.replace_damaged()
            self.log(f"the store broke while running ({why}); kept aside as {aside}")
            if aside:
                self.notices.append(("store_damaged", aside))
            saved = self.store.save(snapshot)
        except CannotSave as trouble:
            self._cannot(trouble)
            return False
        except (DamagedStore, *STORE_FAULTS) as error:  # a fresh file broke too
            self._cannot(CannotSave("store_unwritable", str(error)))
            return False
        self.failing = None
        return saved

    # --- Records: finished games ------------------------------------------------------------
    def best_solo(self, city: str, modules: tuple[str, ...]) -> int | None:
        try:
            return self.store.best_solo(city, modules)
        except READ_FAULTS as error:  # no best known is better than no box
            self.log(f"cannot read the finished games ({error})")
            return None

    def history(self, limit: int = HISTORY_GAMES) -> History:
        """The history, or an empty one when the store cannot be read: the box plays on."""
        try:
            return self.store.history(limit)
        except READ_FAULTS as error:
            self.log(f"cannot read the finished games ({error})")
            return History()

    def record(self, game: FinishedGame) -> None:
        """Kept by the store until the next step is saved, in the same transaction: the
        press that shows the result draws before anything reaches the disk."""
        self.store.record(game)


@dataclass(frozen=True, slots=True)
class Started:
    session: Any  # nsdevice.session.Session
    saver: Saver
    notices: tuple[Notice, ...]


def open_game(
    directory: Path,
    fresh: Callable[[Saver], Any],
    restore: Callable[[dict[str, Any], Saver], Any],
    log: Log = print,
) -> Started:
    """The game to play and the saver to play it with; never raises because of the store.

    `fresh(records)` makes a new session and `restore(snapshot, records)` brings one back
    (raising when the snapshot does not fit a game).
    """
    where = str(directory)
    saver = Saver(Store.in_memory(), writable=False, where=where, log=log)
    try:
        opened = Store.open(directory, restore=lambda data: restore(data, saver))
        saver.store, saver.writable = opened.store, opened.saving
        session = opened.restored if opened.restored is not None else fresh(saver)
        notices = opened.notices
    except Exception as error:  # the guard: a start must never fail because of the store
        log(f"the store could not be opened ({error!r}); playing without saving")
        saver.store, saver.writable = Store.in_memory(), False
        session = fresh(saver)
        notices = (("store_unwritable", where),)
    if not saver.writable:
        saver.failing = notices[0][0] if notices else "store_unwritable"
    session.notices.extend(notices)
    saver.notices = session.notices
    saver.watching = True
    return Started(session, saver, notices)
