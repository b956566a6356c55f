"""The store's fault model (docs/RELIABILITY.md), one fault at a time, on the real box.

For each fault a saved game is damaged or constrained, then `nsdevice run --input script
--display json` starts on it twice: the exit status, the notice shown and the game (the
same step, an announced earlier step, or a fresh setup with the file kept aside) are
checked, and so is a later start with the fault removed. Disk full is a real tmpfs and
read-only a real read-only bind mount (both need root, and are skipped without it);
permission denied runs the box as another user when root, and uses chmod otherwise.
The long random version is benchmarks/reliability/storage_faults.py.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shutil
import signal
import sqlite3
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.reliability import storage_faults as faults
from nsdevice.store import FILE_NAME, MARK_NAME, checksum

ROOT = Path(__file__).resolve().parent.parent
ROOT_ONLY = pytest.mark.skipif(
    os.geteuid() != 0, reason="mounting a tmpfs or a read-only bind needs root"
)


run_box, view_of, plain = faults.run_box, faults.view_of, faults.plain


def saved_game(folder: Path, *, killed: bool = True, seed: int = 4):
    """A game of a dozen steps saved in `folder`, as a killed box or a clean stop leaves it."""
    import random

    return faults.make_base(folder, random.Random(seed), killed=killed)


def kept_aside(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".damaged-" in p.name)


def start_twice(folder: Path, keys: str = "next") -> tuple[list[dict], list[dict]]:
    """Two starts; both must exit 0 without a traceback. The screens of each."""
    runs = []
    for _ in range(2):
        screens, result = run_box(folder, keys)
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr, result.stderr
        runs.append(screens)
    return runs[0], runs[1]


@contextlib.contextmanager
def mounted(*arguments: str) -> Iterator[None]:
    result = subprocess.run(["mount", *arguments], capture_output=True, text=True)
    if result.returncode != 0:
        pytest.skip(f"cannot mount here: {result.stderr.strip()}")
    try:
        yield
    finally:
        subprocess.run(["umount", arguments[-1]], check=False)


def fill(folder: Path) -> Path:
    """Fill the file system under `folder` to the last byte; the filler, to remove."""
    filler = folder / "filler"
    with filler.open("wb", buffering=0) as file:
        for size in (65536, 4096, 1):
            with contextlib.suppress(OSError):
                while file.write(b"\0" * size):
                    pass
    return filler


# --- cannot write now: the game is kept, nothing is set aside -------------------------------


@ROOT_ONLY
def test_disk_full_at_start_plays_on_with_a_notice_and_the_game_waits_for_space(tmp_path):
    card = tmp_path / "card"
    card.mkdir()
    with mounted("-t", "tmpfs", "-o", "size=2m", "tmpfs", str(card)):
        base = saved_game(card / "state")
        filler = fill(card)
        first, second = start_twice(base.folder, "next,next")
        for screens in (first, second):  # no room even to open it: read, played, not saved
            assert screens[0]["screen"] == "notice" and screens[0]["notice"] == "store_full"
            assert plain(screens[1]) == view_of(base.steps[-1])  # the same step
            assert screens[2]["screen"] != "notice"  # the game goes on
        assert kept_aside(base.folder) == []
        filler.unlink()
        again, result = run_box(base.folder, "next")
        assert result.returncode == 0 and plain(again[0]) == view_of(base.steps[-1])
        assert again[1]["screen"] != "notice"
        resumed, _ = run_box(base.folder, "next")  # and that press was saved
        assert plain(resumed[0]) == plain(again[1])


@ROOT_ONLY
def test_disk_full_mid_game_goes_on_and_the_first_press_after_space_returns_is_saved(tmp_path):
    card = tmp_path / "card"
    card.mkdir()
    with mounted("-t", "tmpfs", "-o", "size=2m", "tmpfs", str(card)):
        state = card / "state"
        box = Box(state)
        try:
            for key in "nnn":  # round start, first card, second card
                box.send(key)
                shown = box.screen()
            assert shown["screen"] == "turn"
            box.wait_saved(state, shown)  # the frame comes before its save: fill after that
            filler = fill(card)
            box.send("n")
            revealed = box.screen()  # picture first: the press's card is drawn before its save
            assert revealed["screen"] == "turn" and revealed["turn"] == shown["turn"] + 1
            assert box.screen()["notice"] == "store_full"  # then the save failed, and says so
            box.send("n")  # dismisses the notice: back to the card the press revealed
            kept = box.screen()
            assert kept["screen"] == "turn" and kept["turn"] == shown["turn"] + 1
            box.send("n")
            assert box.screen()["turn"] == kept["turn"] + 1  # play goes on, still unsaved
            filler.unlink()
            box.send("n")
            saved = box.screen()  # this press is saved
            box.wait_saved(state, saved)
        finally:  # a failed check must not leave the box holding the mount
            box.kill()
        again, result = run_box(state, "next")
        assert result.returncode == 0
        assert plain(again[0]) == plain(saved)


@ROOT_ONLY
def test_a_read_only_card_plays_the_saved_game_without_saving(tmp_path):
    base = saved_game(tmp_path / "state")  # as a killed box leaves it: the log full
    view = tmp_path / "read-only"
    view.mkdir()
    with mounted("--bind", "-o", "ro", str(base.folder), str(view)):
        subprocess.run(["mount", "-o", "remount,bind,ro", str(view)], check=True)
        first, second = start_twice(view, "next")
        for screens in (first, second):
            assert screens[0]["notice"] == "store_read_only"
            assert plain(screens[1]) == view_of(base.steps[-1])
    again, result = run_box(base.folder, "next")  # writable again: the same step
    assert result.returncode == 0 and plain(again[0]) == view_of(base.steps[-1])
    assert kept_aside(base.folder) == []


def test_a_store_the_box_may_not_write_is_played_not_set_aside(tmp_path):
    base = saved_game(tmp_path / "state")
    files = sorted(base.folder.iterdir())
    for path in files:
        path.chmod(0o444)
    base.folder.chmod(0o555)
    prefix: list[str] = []
    if os.geteuid() == 0:  # root overrides file modes: start the box without that power
        if shutil.which("setpriv") is None:
            pytest.skip("as root this needs util-linux's setpriv to drop CAP_DAC_OVERRIDE")
        prefix = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"]
    command = [*prefix, *faults.BOX, "run", "--input", "script", "--keys", "next",
               "--display", "json", "--state-dir", str(base.folder)]  # fmt: skip
    for _ in range(2):
        result = subprocess.run(command, capture_output=True, text=True, env=faults.ENV,
                                timeout=60)  # fmt: skip
        assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
        screens = [json.loads(line) for line in result.stdout.splitlines()]
        assert screens[0]["notice"] == "store_unwritable"
        assert plain(screens[1]) == view_of(base.steps[-1])
    base.folder.chmod(0o755)
    for path in files:
        path.chmod(0o644)
    again, result = run_box(base.folder, "next")
    assert result.returncode == 0 and plain(again[0]) == view_of(base.steps[-1])
    assert kept_aside(base.folder) == []


def test_a_store_locked_by_another_program_is_read_and_left_alone(tmp_path):
    base = saved_game(tmp_path / "state", killed=False)
    holder = sqlite3.connect(base.folder / FILE_NAME, isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("INSERT INTO meta VALUES ('held', 'yes')")
    try:
        first, second = start_twice(base.folder, "next")
        for screens in (first, second):
            assert screens[0]["notice"] == "store_unwritable"
            assert plain(screens[1]) == view_of(base.steps[-1])
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    again, result = run_box(base.folder, "next")
    assert result.returncode == 0 and plain(again[0]) == view_of(base.steps[-1])
    assert kept_aside(base.folder) == []


# --- the file is damaged: set aside (never deleted), or an earlier step, always said -------


def _fresh_with_the_file_kept(folder: Path) -> None:
    first, second = start_twice(folder, "next")
    assert first[0]["notice"] == "store_damaged"
    assert faults.is_fresh(first[1])
    assert second[0]["screen"] != "notice"  # no crash loop: the fresh store is sound
    assert kept_aside(folder), "the damaged file was not kept"


def test_a_damaged_header_is_set_aside_and_the_box_starts_fresh(tmp_path):
    base = saved_game(tmp_path / "state", killed=False)
    with (base.folder / FILE_NAME).open("r+b") as file:
        file.write(b"SQLite format 4\0")
    _fresh_with_the_file_kept(base.folder)


def test_a_damaged_page_is_set_aside_and_the_box_starts_fresh(tmp_path):
    base = saved_game(tmp_path / "state", killed=False)
    path = base.folder / FILE_NAME
    data = bytearray(path.read_bytes())
    data[4096 : 4096 + 8] = b"\xff" * 8  # page 2's b-tree header
    path.write_bytes(bytes(data))
    _fresh_with_the_file_kept(base.folder)


def test_a_second_damage_never_overwrites_the_first_set_aside_file(tmp_path):
    base = saved_game(tmp_path / "state", killed=False)
    for _ in range(2):
        (base.folder / FILE_NAME).write_bytes(b"not a database at all" * 100)
        run_box(base.folder, "next")
    assert len(kept_aside(base.folder)) == 2


def test_a_damaged_log_rewinds_to_its_last_good_step_and_says_so(tmp_path):
    base = saved_game(tmp_path / "state", killed=True)
    wal = base.folder / f"{FILE_NAME}-wal"
    data = bytearray(wal.read_bytes())
    frame = 24 + 4096
    frames = (len(data) - 32) // frame
    data[32 + (frames - 3) * frame + 24 + 100] ^= 0x10  # a bit in the third frame from the end
    wal.write_bytes(bytes(data))
    first, second = start_twice(base.folder, "next")
    assert first[0]["notice"] == "store_rewound"
    earlier = first[1]
    assert plain(earlier) in [view_of(step) for step in base.steps[:-1]]
    assert plain(second[0]) == plain(first[-1])  # no second notice, same place
    assert kept_aside(base.folder)


def test_a_log_cut_at_a_frame_boundary_is_caught_by_the_step_mark(tmp_path):
    base = saved_game(tmp_path / "state", killed=True)
    wal = base.folder / f"{FILE_NAME}-wal"
    with wal.open("r+b") as file:
        file.truncate(32 + 4 * (24 + 4096))  # whole frames: SQLite itself sees nothing wrong
    first, _ = start_twice(base.folder, "next")
    assert first[0]["notice"] in ("store_rewound", "store_damaged")
    assert plain(first[1]) in [view_of(s) for s in base.steps[:-1]] or faults.is_fresh(first[1])


def _rewrite(folder: Path, change, *, reseal: bool) -> None:
    """Edit the newest saved snapshot by hand; `reseal` also writes a matching checksum
    (someone who knows the format), so only the check against the deal can refuse it."""
    with contextlib.closing(sqlite3.connect(folder / FILE_NAME, isolation_level=None)) as db:
        serial, text = db.execute("SELECT serial, snapshot FROM session").fetchone()
        snapshot = json.loads(text)
        change(snapshot)
        new = json.dumps(snapshot, sort_keys=True, separators=(",", ":"))
        digest = checksum(serial, new.encode()) if reseal else "0" * 64
        db.execute("UPDATE session SET snapshot = ?, checksum = ?", (new, digest))


def _announced_earlier_step(folder: Path, base) -> None:
    first, second = start_twice(folder, "menu")
    assert first[0]["notice"] == "store_rewound"
    assert plain(first[1]) == view_of(base.steps[-2])  # the step before, exactly
    assert second[0]["screen"] != "notice"
    assert plain(second[0]) == plain(first[-1])


def test_a_flipped_seed_never_deals_other_cards_the_checksum_falls_back(tmp_path):
    base = saved_game(tmp_path / "state", killed=False)

    def flip(snapshot: dict) -> None:
        seed = snapshot["setup"]["seed"]
        snapshot["setup"]["seed"] = chr(ord(seed[0]) ^ 0x01) + seed[1:]

    _rewrite(base.folder, flip, reseal=False)
    _announced_earlier_step(base.folder, base)


def test_snapshot_text_that_is_not_utf8_falls_back(tmp_path):
    base = saved_game(tmp_path / "state", killed=False)
    with contextlib.closing(sqlite3.connect(base.folder / FILE_NAME)) as db:
        db.execute("UPDATE session SET snapshot = CAST(x'7bff22' AS TEXT)")
        db.commit()
    _announced_earlier_step(base.folder, base)


@pytest.mark.parametrize(
    "change",
    [
        {"screen": "setup", "cursor": 40},  # MENU would pick row 40
        {"screen": "menu", "under": "turn", "cursor": -3},
        {"seed_code": "not a code!"},
        {"seed_characters": ["A", "?", ""]},
        {"revealed": 99},
        {"screen": "confirm", "question": "format_the_card", "under": "turn"},
    ],
    ids=["setup-cursor", "menu-cursor", "seed-code", "seed-characters", "step", "question"],
)
def test_a_value_out_of_range_with_a_good_checksum_is_refused_and_said(tmp_path, change):
    base = saved_game(tmp_path / "state", killed=False)
    _rewrite(base.folder, lambda snapshot: snapshot.update(change), reseal=True)
    _announced_earlier_step(base.folder, base)


def test_a_version_1_store_is_brought_up_to_date_and_its_game_resumed(tmp_path):
    base = saved_game(tmp_path / "state", killed=False)
    path = base.folder / FILE_NAME
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        text = db.execute("SELECT snapshot FROM session").fetchone()[0]
        db.executescript(
            "DROP TABLE session; DROP TABLE steps;"
            "CREATE TABLE session (id INTEGER PRIMARY KEY CHECK (id = 1),"
            " snapshot TEXT NOT NULL, saved_at REAL NOT NULL);"
            "UPDATE meta SET value = '1' WHERE key = 'schema_version';"
            "DELETE FROM meta WHERE key = 'store_id';"
        )
        db.execute("INSERT INTO session VALUES (1, ?, 0)", (text,))
    (base.folder / MARK_NAME).unlink()
    first, second = start_twice(base.folder, "next")
    assert plain(first[0]) == view_of(base.steps[-1])
    assert plain(second[0]) == plain(first[-1])
    assert kept_aside(base.folder) == []


def test_a_store_of_an_unknown_schema_is_set_aside(tmp_path):
    base = saved_game(tmp_path / "state", killed=False)
    with contextlib.closing(sqlite3.connect(base.folder / FILE_NAME)) as db:
        db.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
        db.commit()
    _fresh_with_the_file_kept(base.folder)


def test_an_empty_database_beside_a_full_log_keeps_the_log(tmp_path):
    base = saved_game(tmp_path / "state", killed=True)
    wal = base.folder / f"{FILE_NAME}-wal"
    size = wal.stat().st_size
    (base.folder / FILE_NAME).write_bytes(b"")
    _fresh_with_the_file_kept(base.folder)
    logs = [p for p in base.folder.iterdir() if ".damaged-" in p.name and p.name.endswith("-wal")]
    assert logs and logs[0].stat().st_size == size


def test_an_unexpected_failure_at_start_plays_without_saving(tmp_path, monkeypatch):
    """The start-up guard: whatever the store raises, the box plays, says so, logs it."""
    from nsdevice.box import saving
    from nsdevice.session import Session, Settings

    def broken(*args, **kwargs):
        raise RuntimeError("something nobody foresaw")

    monkeypatch.setattr(saving.Store, "open", broken)
    logged: list[str] = []
    started = saving.open_game(
        tmp_path, fresh=lambda records: Session(Settings(), records=records),
        restore=lambda data, records: Session.restore(data, records=records), log=logged.append,
    )  # fmt: skip
    assert started.session.notices == [("store_unwritable", str(tmp_path))]
    assert not started.saver({"anything": 1})  # never writes in this state
    assert logged and "something nobody foresaw" in logged[0]


# --- the random version, short -------------------------------------------------------------


def test_random_flips_and_cuts_never_crash_deal_other_cards_or_rewind_silently():
    report = faults.damaged_storage(flips=6, truncations=3, seed=5)
    assert report.ok, "\n".join([str(report.counts), *report.failures])
    assert report.counts.get("same_step", 0) + report.counts.get("announced_rewind", 0) > 0


def test_random_command_lines_give_one_readable_line_and_never_a_traceback():
    report = faults.command_line(invocations=16, seed=9, renders=0)  # renders are slow
    assert report.ok, "\n".join([str(report.counts), *report.failures])
    assert report.counts["invocations"] == 16 and report.counts.get("tracebacks", 0) == 0


# --- an interactive box, for the mid-game faults ----------------------------------------------


class Box:
    """`nsdevice run` on a pipe: keys in through the terminal input, JSON screens out."""

    def __init__(self, state: Path) -> None:
        command = [*faults.BOX, "run", "--input", "keyboard", "--display", "json",
                   "--state-dir", str(state)]  # fmt: skip
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, env=faults.ENV, bufsize=1,
        )  # fmt: skip
        self.lines: queue.Queue[dict] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.first = self.screen()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.strip():
                self.lines.put(json.loads(line))

    def screen(self, timeout: float = 15) -> dict:
        return self.lines.get(timeout=timeout)

    def send(self, key: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(key)
        self.process.stdin.flush()

    def wait_saved(self, state: Path, screen: dict, timeout: float = 10) -> None:
        """Until the database holds the step on screen (the frame comes before the save)."""
        import time

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with contextlib.suppress(sqlite3.Error):
                db = sqlite3.connect(f"file:{state / FILE_NAME}?mode=ro", uri=True)
                with contextlib.closing(db):
                    (text,) = db.execute("SELECT snapshot FROM session").fetchone()
                if view_of(json.loads(text)) == plain(screen):
                    return
            time.sleep(0.02)
        raise AssertionError("the step on screen was never saved")

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

