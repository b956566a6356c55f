"""`web_guessing`: wrong join codes from many loopback addresses, as fast as `workers`
connections can send them, for `seconds`, against a real box (issue 22, item 2).

Done when: at most one code a second plus the budget's burst of 10 is checked in all
(a 403; a 429 checks nothing): at most 60 in 60 s, whatever the number of addresses;
and the right code from a fresh address works afterwards.
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

from benchmarks.reliability.harness import Report, working_folder
from benchmarks.reliability.web_box import WebBox, ask, lift_own_file_limit, loopback, post

BURST, EVERY = 10, 1.2  # nsdevice.web.guard's budget, as documented in RELIABILITY.md


def web_guessing(seconds: float = 60.0, workers: int = 16, seed: int = 22,
                 folder: Path | None = None) -> Report:  # fmt: skip
    report = Report("web_guessing")
    lift_own_file_limit()
    rng = random.Random(seed)
    with working_folder(folder) as directory:
        box = WebBox(directory / "state")
        try:
            box.wait_page()
            code = box.join_code()
            statuses: dict[int, int] = {}
            addresses: set[str] = set()
            lock = threading.Lock()
            stop = time.monotonic() + seconds

            def guess(worker: int) -> None:
                number = worker
                mine = random.Random(rng.random())
                while time.monotonic() < stop:
                    source = loopback(number % 60_000)
                    number += workers
                    wrong = f"{mine.randrange(100_000_000):08d}"
                    if wrong == code:
                        continue
                    try:
                        guessed = post("/join", box.port, {"seat": 1}, f"X-Join-Code: {wrong}\r\n")
                        status, _ = ask(box.port, guessed, source)
                    except OSError:
                        status = 0
                    with lock:
                        statuses[status] = statuses.get(status, 0) + 1
                        addresses.add(source)

            started = time.monotonic()
            threads = [threading.Thread(target=guess, args=(w,)) for w in range(workers)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            took = time.monotonic() - started
            checked = statuses.get(403, 0)
            allowed = BURST + int(took / EVERY) + 1
            report.counts["seconds"] = round(took, 1)
            report.counts["tries"] = sum(statuses.values())
            report.counts["addresses"] = len(addresses)
            report.counts["checked"] = checked
            report.counts["refused_unchecked"] = statuses.get(429, 0)
            report.counts["allowed"] = allowed
            others = {k: v for k, v in statuses.items() if k not in (403, 429)}
            if others:
                report.fail(f"answers other than 403/429: {others}")
            if checked > allowed:
                report.fail(f"{checked} wrong codes were checked in {took:.1f} s")
            time.sleep(EVERY + 0.3)  # the budget has a code to check again
            right = post("/join", box.port, {"seat": 1}, f"X-Join-Code: {code}\r\n")
            status, body = ask(box.port, right, loopback(65_000))
            report.counts["right_code_afterwards"] = status
            if status != 200 or not body or "token" not in body:
                report.fail(f"the right code from a fresh address got {status}")
        finally:
            box.close()
    return report
