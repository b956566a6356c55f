"""One box per state folder: an exclusive lock on a file in it, held while the box runs.

Two boxes on one folder would each save over the other's steps and record a finished
game twice. The lock is the kernel's (flock): a killed box lets go of it with its last
breath, so a stale lock cannot keep the next start out.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path
from typing import IO

from nsdevice.errors import UsageError

LOCK_NAME = "nsdevice.lock"


class FolderBusy(UsageError):
    """Another box holds the state folder: one line naming it, exit status 2."""

    def __init__(self, command: str, directory: Path, pid: str) -> None:
        who = f"pid {pid}" if pid else "its pid not yet written"
        super().__init__(
            f"{command}: the state folder {directory} is in use by another nsdevice ({who});"
            " stop that one first, or give another --state-dir"
        )
        self.pid = pid


class FolderLock:
    """The held lock; `release` (or dropping the object) lets go of it."""

    def __init__(self, file: IO[bytes] | None) -> None:
        self._file = file

    @property
    def held(self) -> bool:
        return self._file is not None

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # closing the file ends the flock
            self._file = None


def hold_folder(directory: Path, command: str = "nsdevice run") -> FolderLock:
    """Take the folder's lock or raise `FolderBusy`. A folder where no lock file can be
    made (a read-only card) is not locked: the store will say that it cannot save, and two
    boxes that cannot save cannot overwrite each other."""
    with contextlib.suppress(OSError):
        directory.mkdir(parents=True, exist_ok=True)
    path = directory / LOCK_NAME
    file: IO[bytes]
    try:
        file = open(path, "a+b")  # noqa: SIM115 (held for the whole run, closed by release)
    except OSError:
        try:
            file = open(path, "rb")  # noqa: SIM115 (as above)
        except OSError:
            return FolderLock(None)
    try:
        fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        pid = _read_pid(path)
        file.close()
        raise FolderBusy(command, directory, pid) from None
    except OSError:
        file.close()  # a file system without locks: run unlocked rather than not at all
        return FolderLock(None)
    with contextlib.suppress(OSError):  # the pid is for the person reading the message
        os.ftruncate(file.fileno(), 0)
        os.pwrite(file.fileno(), f"{os.getpid()}\n".encode("ascii"), 0)
    return FolderLock(file)


def _read_pid(path: Path) -> str:
    try:
        text = path.read_bytes()[:32].decode("ascii", "replace").strip()
    except OSError:
        return ""
    return text if text.isdigit() else ""
