"""One box per state folder (store/lock.py); the two real processes are in
benchmarks/reliability/two_boxes.py, run by tests/test_reliability.py."""

from __future__ import annotations

import os

import pytest

from nsdevice.errors import UsageError
from nsdevice.store import LOCK_NAME, FolderBusy, hold_folder


def test_a_held_folder_refuses_a_second_hold_naming_the_first(tmp_path):
    first = hold_folder(tmp_path / "state")
    assert first.held
    with pytest.raises(FolderBusy) as refused:
        hold_folder(tmp_path / "state")
    assert isinstance(refused.value, UsageError)  # one line on stderr, exit 2
    assert refused.value.pid == str(os.getpid())
    line = str(refused.value)
    assert line.startswith("nsdevice run: ") and f"pid {os.getpid()}" in line
    assert "\n" not in line and str(tmp_path / "state") in line
    first.release()
    again = hold_folder(tmp_path / "state")  # let go: the next box may start
    assert again.held
    again.release()


def test_a_folder_where_no_lock_can_be_made_runs_unlocked(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    lock = hold_folder(tmp_path / "file" / "state")
    assert not lock.held  # the store will say that it cannot save
    lock.release()


def test_a_lock_file_without_a_pid_still_refuses(tmp_path):
    first = hold_folder(tmp_path)
    (tmp_path / LOCK_NAME).write_text("")  # the first box has not written its pid yet
    with pytest.raises(FolderBusy, match="its pid not yet written"):
        hold_folder(tmp_path)
    first.release()
