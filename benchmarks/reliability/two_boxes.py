"""`two_boxes`: one box per state folder.

A box runs on a folder; `tries` more `nsdevice run` on the same folder must each exit 2
with one line on stderr naming the running one (its pid), before opening anything, while
the first goes on answering presses. Once the first is killed, a new box starts there
(a kill leaves no stale lock).
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

from benchmarks.reliability.harness import BOX, ENV, Report, working_folder
from benchmarks.reliability.live_box import LiveBox


def two_boxes(*, tries: int = 3, workdir: Path | None = None) -> Report:
    report = Report("two_boxes")
    with working_folder(workdir) as base:
        folder = base / "two-boxes"
        first = LiveBox(folder)
        try:
            first.next_screen()
            for number in range(tries):
                started = time.monotonic()
                second = subprocess.run(
                    [*BOX, "run", "--input", "script", "--keys", "next,next", "--display",
                     "json", "--state-dir", str(folder)],
                    capture_output=True, text=True, env=ENV, timeout=60,
                )  # fmt: skip
                report.add("second_runs")
                report.counts["slowest_refusal_s"] = max(
                    report.counts.get("slowest_refusal_s", 0.0),
                    round(time.monotonic() - started, 2),
                )
                lines = second.stderr.strip().splitlines()
                if second.returncode != 2:
                    report.fail(f"second run {number}: exit {second.returncode}, not 2")
                if len(lines) != 1 or f"pid {first.pid}" not in lines[0]:
                    report.fail(f"second run {number}: stderr {second.stderr!r}")
                if second.stdout:
                    report.fail(f"second run {number} drew: {second.stdout[:80]!r}")
                first.press("next" if number % 2 == 0 else "back")
                try:
                    first.next_screen(timeout=10)
                    report.add("first_answered")
                except Exception:
                    report.fail(f"the first box did not answer press {number}")
            if first.process.poll() is not None:
                report.fail(f"the first box ended (status {first.process.returncode})")
            report.counts["line"] = lines[0] if lines else ""
        finally:
            first.kill()
        after = LiveBox(folder)
        try:
            after.next_screen()
            report.counts["start_after_kill"] = True
        except Exception:
            report.fail("no box could start on the folder after the first was killed")
        finally:
            after.kill()
    return report
