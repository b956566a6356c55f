"""Damage told from "cannot write now", and files kept aside (store/damage.py), in-process;
the real box on real faults is tests/test_storage_faults.py."""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

import pytest

from nsdevice.store import FILE_NAME, MARK_NAME, CannotSave, Store, cannot_save, damage
from nsdevice.store import database as store_database


def saved(folder: Path, *steps: dict) -> None:
    store = Store.open(folder).store
    for step in steps:
        store.save(step)
    store.close()


def test_a_store_locked_at_start_is_read_from_a_copy_and_played_without_saving(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(store_database, "OPEN_TIMEOUT", 0.05)  # the start's wait, shortened
    saved(tmp_path, {"step": 1}, {"step": 2})
    holder = sqlite3.connect(tmp_path / FILE_NAME, isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("INSERT INTO meta VALUES ('held', 'yes')")
    try:
        seen: list[dict] = []
        opened = Store.open(tmp_path, restore=lambda data: seen.append(data) or data)
        assert opened.notice == ("store_unwritable", str(tmp_path))
        assert opened.restored == {"step": 2} and not opened.saving
        assert seen == [{"step": 2}]  # the newest step, read from the copy
        assert opened.store.path is None  # what it saves goes nowhere
        kept = {FILE_NAME, f"{FILE_NAME}-wal", f"{FILE_NAME}-shm", MARK_NAME}
        assert {p.name for p in tmp_path.iterdir()} <= kept  # nothing set aside or copied
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_the_copy_read_passes_over_a_step_the_game_refuses(tmp_path):
    saved(tmp_path, {"step": 1}, {"step": 2})

    def restore(data: dict) -> dict:
        if data["step"] == 2:
            raise ValueError("does not fit the deal")
        return data

    choice = damage.read_copy(tmp_path / FILE_NAME, restore)
    assert choice is not None and choice.restored == {"step": 1}
    assert choice.passed_over == 1 and choice.newest_claimed == 2
    assert damage.read_copy(tmp_path / "none" / FILE_NAME, restore) is None
    (tmp_path / "junk").write_bytes(b"not a database" * 100)
    assert damage.read_copy(tmp_path / "junk", restore) is None


@pytest.mark.parametrize(
    ("number", "notice"),
    [
        (errno.ENOSPC, "store_full"),
        (errno.EDQUOT, "store_full"),
        (errno.EFBIG, "store_full"),
        (errno.EROFS, "store_read_only"),
        (errno.EACCES, "store_unwritable"),
        (errno.EIO, "store_unwritable"),
    ],
)
def test_what_keeps_a_store_from_being_written_is_named_from_the_error(number, notice):
    problem = cannot_save(OSError(number, os.strerror(number)), None)
    assert isinstance(problem, CannotSave) and problem.notice == notice
    assert str(problem) == f"[Errno {number}] {os.strerror(number)}"


def test_a_full_or_read_only_file_system_is_named_from_the_folder(tmp_path, monkeypatch):
    real = os.statvfs(tmp_path)

    class Folder:
        def __init__(self, free: int, flags: int) -> None:
            self.f_bavail, self.f_flag = free, flags

    error = OSError(errno.EIO, "I/O error")
    monkeypatch.setattr(damage.os, "statvfs", lambda path: Folder(0, 0))
    assert cannot_save(error, tmp_path).notice == "store_full"
    monkeypatch.setattr(damage.os, "statvfs", lambda path: Folder(1, os.ST_RDONLY))
    assert cannot_save(error, tmp_path).notice == "store_read_only"
    monkeypatch.setattr(damage.os, "statvfs", lambda path: Folder(1, 0))
    assert cannot_save(error, tmp_path).notice == "store_unwritable"
    assert real.f_bavail > 0 and not real.f_flag & os.ST_RDONLY  # this folder takes writes

    def gone(path):
        raise FileNotFoundError(path)

    monkeypatch.setattr(damage.os, "statvfs", gone)
    assert cannot_save(error, tmp_path).notice == "store_unwritable"


def test_trying_to_write_names_the_error_that_stopped_it(tmp_path, monkeypatch):
    assert damage.try_writing(tmp_path / FILE_NAME) is None
    assert damage.try_writing(None) is None
    refused = damage.try_writing(tmp_path / "missing" / FILE_NAME)
    assert isinstance(refused, FileNotFoundError)
    (tmp_path / FILE_NAME).mkdir()  # the store's name taken by a folder: cannot be written
    assert isinstance(damage.try_writing(tmp_path / FILE_NAME), IsADirectoryError)
    written: list[int] = []
    write = os.write
    monkeypatch.setattr(damage.os, "write", lambda fd, data: written.append(len(data))
                        or write(fd, data))  # fmt: skip
    damage.try_writing(tmp_path / "other")
    assert written == [damage.PROBE_BYTES] and damage.PROBE_BYTES >= 4096


def test_an_emptied_store_file_is_damage_and_a_missing_one_is_not(tmp_path):
    assert not damage.emptied(tmp_path / FILE_NAME)
    (tmp_path / FILE_NAME).write_bytes(b"")
    assert damage.emptied(tmp_path / FILE_NAME)
    (tmp_path / FILE_NAME).write_bytes(b"x")
    assert not damage.emptied(tmp_path / FILE_NAME)


def test_a_set_aside_store_takes_its_logs_with_it_and_a_copy_leaves_them(tmp_path):
    path = tmp_path / FILE_NAME
    for suffix, data in (("", b"db"), ("-wal", b"log"), ("-shm", b"shared")):
        Path(f"{path}{suffix}").write_bytes(data)
    copy = damage.copy_aside(path)
    assert copy.name.startswith(f"{FILE_NAME}.damaged-")
    assert copy.read_bytes() == b"db" and Path(f"{copy}-wal").read_bytes() == b"log"
    assert not Path(f"{copy}-shm").exists()  # the shared memory is no part of the data
    assert path.exists() and Path(f"{path}-wal").exists()
    aside = damage.set_aside(path)
    assert aside != copy
    assert [Path(f"{aside}{s}").read_bytes() for s in ("", "-wal", "-shm")] == [
        b"db", b"log", b"shared"
    ]
    assert not any(Path(f"{path}{s}").exists() for s in ("", "-wal", "-shm"))


def test_the_copy_read_counts_the_step_mark_of_its_own_store(tmp_path):
    from nsdevice.store import Mark, StepMark

    saved(tmp_path, {"step": 1}, {"step": 2})
    store_id = Store.open(tmp_path).store.store_id
    mark = StepMark(tmp_path / MARK_NAME)
    mark.write(Mark(store_id, 9))  # the mark says step 9 was saved: steps were lost
    choice = damage.read_copy(tmp_path / FILE_NAME, lambda data: data)
    assert choice is not None and choice.newest_claimed == 9 and choice.restored == {"step": 2}
    mark.write(Mark("another store", 9))  # another store's mark is no witness here
    choice = damage.read_copy(tmp_path / FILE_NAME, lambda data: data)
    assert choice is not None and choice.newest_claimed == 2


def test_trouble_reads_the_folder_the_store_is_in(tmp_path, monkeypatch):
    from nsdevice.store import StoreBusy, trouble

    class Full:
        f_bavail, f_flag = 0, 0

    seen: list[Path] = []
    monkeypatch.setattr(damage.os, "statvfs", lambda path: seen.append(Path(path)) or Full())
    problem = trouble(OSError(errno.EIO, "I/O error"), tmp_path / FILE_NAME)
    assert problem is not None and problem.notice == "store_full" and seen == [tmp_path]
    busy = sqlite3.OperationalError("database is locked")
    busy.sqlite_errorname = "SQLITE_BUSY"  # type: ignore[attr-defined]
    refused = trouble(busy, tmp_path / FILE_NAME)
    assert isinstance(refused, StoreBusy) and str(refused) == "database is locked"


def test_a_card_that_refuses_the_trial_write_names_why(tmp_path, monkeypatch):
    from nsdevice.store import trouble

    def full(descriptor, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(damage.os, "write", full)
    schema_error = sqlite3.OperationalError("no such column: snapshot")
    schema_error.sqlite_errorname = "SQLITE_ERROR"  # type: ignore[attr-defined]
    problem = trouble(schema_error, tmp_path / FILE_NAME)
    assert problem is not None and problem.notice == "store_full"
    assert list(tmp_path.iterdir()) == []  # the trial file is gone even so
