"""`serial_flood`: valid DOWN/UP/BEAT lines as fast as a pseudo-terminal takes them, into a
real `nsdevice run --input serial`, for `seconds`. The box's memory must not grow by more
than `limit_mb`, and a real press after the flood must still be answered.

The board is a stand-in on the pty's master end: it answers the host's HELLO as a 1.2
board (repeating the echo word), beats, and floods with plain 1.0 lines (NEXT and BACK
taps and heartbeats), which a host must accept from any board.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import select
import subprocess
import threading
import time
import tty
from pathlib import Path

from benchmarks.reliability.harness import BOX, ENV, Report, working_folder

# Taps of NEXT, BACK and MENU in a fixed random order, and heartbeats: about 4 KB a write.
# Every button, so the box walks its menus and games and its loop has work to do.
FLOOD = b"".join(
    b"DOWN %d\r\nUP %d\r\n" % (button, button) + (b"BEAT 0000\r\n" if n % 20 == 19 else b"")
    for n, button in enumerate(random.Random(22).choices((0, 1, 2), k=250))
)
FRAME_SECONDS = 0.03  # the Display HAT Mini's SPI write of one frame takes about this long
ANSWER = "HELLO nsboard proto=1.2 fw=0.3.0 buttons=4 led=rgb echo={echo}\r\n"


def rss_kb(pid: int) -> int:
    """The process's resident memory now, in KiB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


class Board:
    """The board's end of the pty: answers HELLO, beats, and floods when told."""

    def __init__(self, master: int) -> None:
        self._master = master
        self.answered = threading.Event()
        self.flooding = threading.Event()
        self.stopping = threading.Event()
        self.flood_lines = 0
        self._lock = threading.Lock()
        self._threads = [
            threading.Thread(target=self._listen, name="flood-listen", daemon=True),
            threading.Thread(target=self._speak, name="flood-speak", daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def write(self, data: bytes) -> None:
        with self._lock:
            view = memoryview(data)
            while view and not self.stopping.is_set():
                if select.select([], [self._master], [], 0.1)[1]:
                    view = view[os.write(self._master, view) :]

    def _listen(self) -> None:
        heard = b""
        while not self.stopping.is_set():
            if not select.select([self._master], [], [], 0.1)[0]:
                continue
            try:
                heard += os.read(self._master, 1024)
            except OSError:
                return
            *lines, heard = heard.replace(b"\r", b"\n").split(b"\n")
            for line in lines:
                asked = re.match(rb"HELLO proto=\S+ echo=(\w+)", line.strip())
                if line.strip().startswith(b"HELLO"):
                    echo = asked.group(1).decode() if asked else ""
                    self.write(ANSWER.format(echo=echo).encode() + b"BEAT 0000\r\n")
                    self.answered.set()

    def _speak(self) -> None:
        while not self.stopping.is_set():
            if self.flooding.is_set():
                self.write(FLOOD)
                self.flood_lines += FLOOD.count(b"\n")
            else:
                self.write(b"BEAT 0000\r\n")
                self.stopping.wait(0.5)

    def close(self) -> None:
        self.stopping.set()
        for thread in self._threads:
            thread.join(timeout=2)


class Frames:
    """The box's JSON screens, counted as they come, read at most one per `FRAME_SECONDS`:
    the pipe stands for a Pi's panel, which takes that long to show a frame, so the box
    cannot draw faster than a real one (and a flood outruns its loop, as it would there)."""

    def __init__(self, stream: object) -> None:
        self.count = 0
        self.lost_said = 0  # notices that presses were lost (the inbox refused edges)
        self.last: dict[str, object] = {}
        self.at = time.monotonic()
        self._stream = stream
        threading.Thread(target=self._read, name="flood-frames", daemon=True).start()

    def _read(self) -> None:
        for line in self._stream:  # type: ignore[attr-defined]
            with contextlib.suppress(ValueError):
                self.last = json.loads(line)
                self.lost_said += self.last.get("notice") == "presses_dropped"
            self.count += 1
            self.at = time.monotonic()
            time.sleep(FRAME_SECONDS)

    def quiet(self, seconds: float, limit: float) -> bool:
        """Wait until no frame came for `seconds` (at most `limit` seconds in all)."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if time.monotonic() - self.at >= seconds:
                return True
            time.sleep(0.05)
        return False


def serial_flood(
    seconds: float = 20.0, *, limit_mb: float = 20.0, warm_seconds: float = 2.0
) -> Report:
    report = Report("serial_flood")
    master, slave = os.openpty()
    tty.setraw(slave)
    board = Board(master)
    with working_folder(None) as folder:
        # The voice on from the start: a flood walks the menus and may switch it on, and
        # pygame's import (about 8 MB, once) is not what this check measures; with it on,
        # the flood's turns are said too (the speaker keeps at most 2 MB of decoded clips).
        command = [*BOX, "run", "--input", "serial", "--port", os.ttyname(slave),
                   "--display", "json", "--state-dir", str(folder), "--voice"]  # fmt: skip
        box = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=ENV, text=True
        )
        try:
            frames = Frames(box.stdout)
            if not board.answered.wait(60):
                report.fail("the box never shook hands with the board")
                return report
            frames.quiet(2.0, 30)  # the first frame drawn, the box settled
            started_at = rss_kb(box.pid)
            # A warm-up flood first: the flood walks into screens, fonts and voice clips the
            # box loads once, on first use (a few MB, more or less by the path the taps
            # take); a leak grows with the flood's length, and that is what is judged.
            board.flooding.set()
            time.sleep(warm_seconds)
            board.flooding.clear()
            frames.quiet(1.0, 60)
            before = rss_kb(box.pid)
            report.counts["rss_warm_up_growth_mb"] = round((before - started_at) / 1024, 1)
            peak = before
            board.flooding.set()
            started = time.monotonic()
            while time.monotonic() - started < seconds:
                time.sleep(0.25)
                peak = max(peak, rss_kb(box.pid))
                if box.poll() is not None:
                    report.fail(f"the box ended during the flood (status {box.returncode})")
                    return report
            board.flooding.clear()
            flooded = time.monotonic() - started
            report.counts["flood_seconds"] = round(flooded, 1)
            report.counts["flood_lines"] = board.flood_lines
            report.counts["frames_during_flood"] = frames.count
            if not frames.quiet(1.0, 60):
                report.fail("the box kept drawing for a minute after the flood ended")
            report.counts["notices_of_lost_presses"] = frames.lost_said
            if not frames.lost_said:
                report.fail("the flood lost presses and the screen never said so")
            peak = max(peak, rss_kb(box.pid))
            report.counts["rss_before_mb"] = round(before / 1024, 1)
            report.counts["rss_peak_mb"] = round(peak / 1024, 1)
            growth = (peak - before) / 1024
            report.counts["rss_growth_mb"] = round(growth, 1)
            if growth > limit_mb:
                report.fail(f"memory grew by {growth:.1f} MB in the flood (limit {limit_mb})")
            # A real press: MENU, held 100 ms, after a second of quiet on the line.
            shown = frames.count
            pressed = time.monotonic()
            board.write(b"DOWN 2\r\n")
            time.sleep(0.1)
            board.write(b"UP 2\r\nBEAT 0000\r\n")
            deadline = pressed + 5
            while frames.count == shown and time.monotonic() < deadline:
                time.sleep(0.01)
            if frames.count == shown:
                report.fail("a press after the flood was not answered within 5 s")
            else:
                report.counts["press_to_frame_ms"] = round((frames.at - pressed) * 1000)
                report.counts["screen_after_press"] = str(frames.last.get("screen"))
        finally:
            box.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                box.wait(timeout=10)
            if box.poll() is None:
                box.kill()
                box.wait()
            board.close()
            os.close(master)
            os.close(slave)
    return report
