"""`damage_notice`: a damage notice stays until a press has shown it, across kills.

A damaged store is set aside at a start and the box says so. Here the box is SIGKILLed
while the notice is up, before anyone pressed, `kills` times over: every start must show
the same notice again. Then a press takes it away; once that press's save is in the file,
one more kill, and the next start must show no notice and the screen that press left.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from pathlib import Path

from benchmarks.reliability.harness import Report, working_folder
from benchmarks.reliability.live_box import LiveBox, plain


def _kept(database: Path) -> str | None:
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        row = db.execute("SELECT value FROM meta WHERE key = 'notices'").fetchone()
    return None if row is None else str(row[0])


def damage_notice(*, kills: int = 3, workdir: Path | None = None) -> Report:
    from nsdevice.store import FILE_NAME

    report = Report("damage_notice")
    with working_folder(workdir) as base:
        folder = base / "damage-notice"
        folder.mkdir()
        (folder / FILE_NAME).write_bytes(os.urandom(8192))  # no store at all: damage
        notice = None
        for _ in range(kills):
            box = LiveBox(folder)
            try:
                first = box.next_screen()
            finally:
                box.kill()
            report.add("kills")
            shown = (first.get("screen"), first.get("notice"), first.get("detail"))
            if first.get("screen") != "notice" or first.get("notice") != "store_damaged":
                report.fail(f"start {report.counts['kills']}: {shown[:2]}, not the notice")
            elif notice is None:
                notice = shown
            elif shown != notice:
                report.fail(f"start {report.counts['kills']}: {shown}, not {notice}")
        box = LiveBox(folder)
        try:
            box.next_screen()
            box.press("next")  # shows the notice to someone: it goes
            after = box.next_screen()
            deadline = time.monotonic() + 10
            while _kept(folder / FILE_NAME) is not None and time.monotonic() < deadline:
                time.sleep(0.05)  # the press's save takes the notice out of the file
            report.counts["cleared_in_file"] = _kept(folder / FILE_NAME) is None
        finally:
            box.kill()
        again = LiveBox(folder)
        try:
            resumed = again.next_screen()
        finally:
            again.kill()
        if resumed.get("screen") == "notice":
            report.fail("the notice came back after a press had shown it")
        elif plain(resumed) != plain(after):
            report.fail(f"resumed on {resumed.get('screen')}, not {after.get('screen')}")
        if not report.counts["cleared_in_file"]:
            report.fail("the press's save did not take the notice out of the file")
        report.counts["damaged_files_kept"] = sum(".damaged-" in p.name for p in folder.iterdir())
    return report
