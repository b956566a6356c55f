"""`locked_store`: a store held locked by another connection never starves the watchdog.

A box runs under a fake systemd (its NOTIFY_SOCKET is ours, WATCHDOG_USEC=`watchdog_usec`,
so it pings every half of that). Another connection takes the store's write lock and
holds it `hold` seconds while a press goes in every `pace` seconds. Every press must be
answered within `answer_limit` seconds, no two watchdog pings may be more than
`ping_limit` seconds apart, and once the lock is let go the box must save what was played
meanwhile: after a kill, the next start shows the last screen.
"""

from __future__ import annotations

import contextlib
import itertools
import socket
import sqlite3
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.reliability.harness import Report, working_folder
from benchmarks.reliability.live_box import LiveBox, plain


class FakeSystemd:
    """A datagram socket that notes when each message of the box's sd_notify arrived."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "notify"
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.socket.bind(str(self.path))
        self.socket.settimeout(0.2)
        self.pings: list[float] = []
        self.messages: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._listen, daemon=True)
        self._thread.start()

    def _listen(self) -> None:
        while not self._stop.is_set():
            try:
                data = self.socket.recv(4096)
            except TimeoutError:
                continue
            except OSError:
                return
            message = data.decode(errors="replace")
            self.messages.append(message)
            if "WATCHDOG=1" in message:
                self.pings.append(time.monotonic())

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self.socket.close()


def _widest_gap(pings: list[float], start: float, end: float) -> float:
    inside = [start, *(at for at in pings if start <= at <= end), end]
    return max(b - a for a, b in itertools.pairwise(inside))


def locked_store(
    *, hold: float = 30.0, pace: float = 0.7, watchdog_usec: int = 5_000_000,
    ping_limit: float = 5.0, answer_limit: float = 1.0, workdir: Path | None = None,
) -> Report:  # fmt: skip
    from nsdevice.store import FILE_NAME

    report = Report("locked_store")
    with working_folder(workdir) as base, tempfile.TemporaryDirectory() as sockets:
        folder = base / "locked-store"
        systemd = FakeSystemd(Path(sockets))
        box = LiveBox(folder, env={"NOTIFY_SOCKET": str(systemd.path),
                                   "WATCHDOG_USEC": str(watchdog_usec)})  # fmt: skip
        try:
            shown = box.next_screen()
            holder = sqlite3.connect(folder / FILE_NAME, isolation_level=None, timeout=10)
            holder.execute("BEGIN EXCLUSIVE")  # the write lock, held from here
            holder.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('held', 'yes')")
            locked_at = time.monotonic()
            words = ("next", "back")
            while time.monotonic() - locked_at < hold:
                sent = time.monotonic()
                box.press(words[report.counts.get("presses", 0) % 2])
                report.add("presses")
                try:
                    at, shown = box.timed_screen(timeout=answer_limit * 5)
                except Exception:
                    report.fail(f"press {report.counts['presses']} not answered")
                    continue
                while not box.screens.empty():  # a notice the box put up on its own
                    at, shown = box.timed_screen()
                answer = at - sent
                report.counts["slowest_answer_ms"] = max(
                    report.counts.get("slowest_answer_ms", 0), round(answer * 1000)
                )
                if answer > answer_limit:
                    report.fail(f"press {report.counts['presses']} answered in {answer:.2f} s")
                time.sleep(max(0.0, pace - (time.monotonic() - sent)))
            held = time.monotonic() - locked_at
            holder.execute("ROLLBACK")
            holder.close()
            released_at = time.monotonic()
            report.counts["held_s"] = round(held, 1)
            gap = _widest_gap(systemd.pings, locked_at, released_at)
            report.counts["widest_ping_gap_s"] = round(gap, 2)
            report.counts["pings_while_locked"] = sum(
                locked_at <= at <= released_at for at in systemd.pings
            )
            if gap > ping_limit:
                report.fail(f"watchdog pings {gap:.1f} s apart while the store was locked")
            time.sleep(2.0)  # the saver tries again every half second
            while not box.screens.empty():
                shown = box.next_screen()
        finally:
            box.kill()
            systemd.close()
        again = LiveBox(folder)
        try:
            resumed = again.next_screen()
        finally:
            again.kill()
        if plain(resumed) != plain(shown) and not (
            shown.get("screen") == "notice" and resumed.get("screen") != "notice"
        ):
            report.fail(f"after the lock: resumed on {resumed.get('screen')}, "
                        f"not the last screen shown ({shown.get('screen')})")  # fmt: skip
        with contextlib.suppress(Exception):
            report.counts["box_said"] = [line for line in box.errors if "lock" in line][:2]
    return report
