"""`web_join_storm`: a room's joins from many loopback addresses, again and again, while
the caller plays (issue 32, item 4), on a real `nsdevice run --room --web 127.0.0.1:PORT`.

`addresses` phones (127.0.0.2, …) each join their own seat again and again with a new
name, as fast as the box answers and whatever it answers, for `seconds`
(benchmarks/crowd.py's storm, at nice 19), while the caller presses NEXT and BACK on the
box's own keys. Held when every press shows its screen within PRESS_SECONDS (before
issue 32 such a storm gave a press a p90 of 1.16 s and a max of 3.0 s), every address's
seat is listed once the storm ends, and after a SIGKILL half a second later the restarted
box still lists them all (the batches were saved).

Loopback only; bounded in addresses and seconds; every socket has a timeout.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.reliability.harness import ROOT, Report, working_folder
from benchmarks.reliability.web_box import WebBox, ask, get, lift_own_file_limit

PRESS_SECONDS = 1.0  # a press's screen, at the latest (a generous bound: not a speed figure)
PACE = 0.25  # seconds between the caller's presses


def players_in(port: int) -> int:
    status, data = ask(port, get("/state", port))
    room = data.get("room") if status == 200 and data else None
    return int(room["players"]) if room else -1


def web_join_storm(addresses: int = 200, seconds: float = 20.0,
                   folder: Path | None = None) -> Report:  # fmt: skip
    report = Report("web_join_storm")
    lift_own_file_limit()
    with working_folder(folder) as directory:
        box = WebBox(directory / "state", options=("--room", "--seed", "STORM32"))
        storm: subprocess.Popen[str] | None = None
        try:
            box.wait_page()
            code = str(box.wait_screen("summary")["room"]["code"])
            command = [sys.executable, str(ROOT / "benchmarks" / "crowd.py"), "--storm-child",
                       str(box.port), str(addresses), str(seconds)]  # fmt: skip
            storm = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True)  # fmt: skip
            assert storm.stdin is not None
            storm.stdin.write(code + "\n")
            storm.stdin.flush()
            took: list[float] = []
            expected = ["round_start"] + ["turn", "round_start"] * 1000
            keys = "n" + "nb" * 1000  # NEXT, then a card and its undo: the game stays put
            ends = time.monotonic() + seconds
            for key, screen in zip(keys, expected, strict=False):
                if time.monotonic() >= ends:
                    break
                seen = len(box.screens)
                started = time.monotonic()
                box.keys(key, pause=0)
                try:
                    box.wait_screen(screen, seen, seconds=10)
                except TimeoutError:
                    report.fail(f"the press {key!r} never showed {screen}")
                    break
                took.append(time.monotonic() - started)
                time.sleep(PACE)
            said, _ = storm.communicate("", timeout=seconds + 60)
            answers = json.loads(said.strip().splitlines()[-1])
            storm = None
            report.counts["presses"] = len(took)
            report.counts["slowest_press_ms"] = round(max(took, default=0) * 1000, 1)
            report.counts.update({f"joins_{status}": count for status, count in answers.items()})
            slow = [t for t in took if t > PRESS_SECONDS]
            if slow:
                report.fail(f"{len(slow)} of {len(took)} presses took over {PRESS_SECONDS} s")
            if not took:
                report.fail("no press was made")
            if answers.get("200", 0) < addresses:
                report.fail(f"only {answers.get('200', 0)} joins were taken")
            deadline = time.monotonic() + 5
            while (listed := players_in(box.port)) != addresses and time.monotonic() < deadline:
                time.sleep(0.1)
            report.counts["players_listed"] = listed
            if listed != addresses:
                report.fail(f"{addresses} seats joined; the box lists {listed}")
            time.sleep(0.5)  # the last batch's save is due within ROOM_PERIOD (0.1 s)
            box.process.kill()
            box.process.wait(10)
            box.close()
            box = WebBox(directory / "state", options=("--room", "--seed", "STORM32"))
            box.wait_page()
            report.counts["players_after_a_kill"] = after = players_in(box.port)
            if after != addresses:
                report.fail(f"after a kill the box lists {after} of {addresses} seats")
        finally:
            if storm is not None:
                storm.kill()
                storm.wait(10)
            box.close()
    return report
