"""One box per state folder (store/lock.py); the two real processes are in
benchmarks/reliability/two_boxes.py, run by tests/test_reliability.py."""

from __future__ import annotations

import os

import pytest

from nsdevice.errors import UsageError
from nsdevice.store import LOCK_NAME, FolderBusy, hold_folder


def test_a_held_folder_refuses_a_second_hold_naming_the_first(tmp_path):
    first = hold_folder(tmp_path / "state")  # made where it is missing
    assert (tmp_path / "state" / LOCK_NAME).read_text() == f"{os.getpid()}\n"
    assert first.held
    with pytest.raises(FolderBusy) as refused:
        hold_folder(tmp_path / "state")
    assert isinstance(refused.value, UsageError)  # one line on stderr, exit 2
    assert refused.value.pid == str(os.getpid())
    line = str(refused.value)
    assert line == (
        f"nsdevice run: the state folder {tmp_path / 'state'} is in use by another nsdevice"
        f" (pid {os.getpid()}); stop that one first, or give another --state-dir"
    )
    assert "\n" not in line and str(tmp_path / "state") in line
    first.release()
    assert not first.held
    first.release()  # twice: nothing more to let go
    again = hold_folder(tmp_path / "state")  # let go: the next box may start
    assert again.held
    again.release()
    deeper = hold_folder(tmp_path / "a" / "b" / "state")  # its parents made too
    assert deeper.held
    deeper.release()


def test_a_folder_where_no_lock_can_be_made_runs_unlocked(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    lock = hold_folder(tmp_path / "file" / "state")
    assert not lock.held  # the store will say that it cannot save
    lock.release()


@pytest.mark.parametrize("written", ["", "12a", "\u00e9t\u00e9", "\x00123"])
def test_a_lock_file_without_a_pid_still_refuses(tmp_path, written):
    first = hold_folder(tmp_path)
    (tmp_path / LOCK_NAME).write_text(written)  # the pid not yet written, or not a pid
    with pytest.raises(FolderBusy, match=r"\(its pid not yet written\); stop") as refused:
        hold_folder(tmp_path)
    assert refused.value.pid == ""
    first.release()


def test_a_lock_file_that_cannot_be_written_is_still_locked(tmp_path, monkeypatch):
    """On a card gone read-only the lock file that is there is locked all the same."""
    hold_folder(tmp_path).release()
    opened = []
    real_open = open

    def read_only(path, mode="r", *args, **kwargs):
        opened.append(mode)
        if "+" in mode or "a" in mode or "w" in mode:
            raise PermissionError(path)
        return real_open(path, mode, *args, **kwargs)

    monkeypatch.setattr("builtins.open", read_only)
    lock = hold_folder(tmp_path)
    assert lock.held and opened == ["a+b", "rb"]
    with pytest.raises(FolderBusy):
        hold_folder(tmp_path)
    lock.release()
