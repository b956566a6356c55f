#!/usr/bin/env python3
"""The voice's speed (issue 24): press → first audio sample, and press → frame with it on.

Usage: python benchmarks/voice.py [--reveals 40] [--presses 300] [--pairs 4]
                                 [--state-dir /dev/shm] [--json PATH]

1. Press → first audio sample, from SDL's `disk` audio driver (SDL_AUDIODRIVER=disk), in a
   child process: the real loop with a pygame display (dummy video), the speaker as its
   output, a solo game with the voice on and the chime off. Before each press the voice is
   stopped and the box left quiet for 0.25 s; then `Loop.handle(NEXT)` and a watcher that
   polls the file SDL writes (every 0.2 ms) for the first non-zero sample past the press.
   SDL writes the file through stdio, which makes bytes visible 4 KB at a time: so two
   figures. "visible" is when the first sample could be read from the file (an upper
   bound); "written" is when SDL mixed and wrote the 512-sample buffer holding it, placed
   on the driver's clock from the flush that showed it: the driver mixes and writes one
   buffer, then sleeps 23 ms (whole milliseconds), and stdio passes four buffers on at the
   write of the fourth (seen with strace: write(4096) every fourth 23 ms sleep).
2. Press → frame: `measure.press_to_frame` (mock GPIO taps, the real loop, SQLite, paint,
   flip), without and with the speaker among the loop's outputs (sharing the loop's
   `Busy`, as `nsdevice run` wires it), alternated off/on/off/on… `--pairs` times. The
   verdict (benchmarks/verdict.py): is the p99 with the voice on within the spread of the
   runs with it off? With the load average before and after.

Speed is measured here, never asserted in tests (DESIGN.md).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # benchmarks.* importable

RATE = 22050
SAMPLE_BYTES = 2  # signed 16 bit, mono: the speaker's mixer format
BUFFER_BYTES = 512 * SAMPLE_BYTES  # nsdevice.box.speaker.BUFFER samples
PERIOD = (512 * 1000 // RATE) / 1000  # seconds: the disk driver sleeps whole milliseconds
QUIET = 0.25  # seconds of silence before each press


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _summary(values: list[float]) -> dict[str, float]:
    return {
        "n": len(values),
        "median": round(statistics.median(values), 1),
        "p95": round(_percentile(values, 0.95), 1),
        "max": round(max(values), 1),
    }


class Watcher:
    """Polls the disk driver's file: every change of its size, with the time it was seen."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.flushes: list[tuple[float, int]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        size = -1
        while not self._stop.is_set():
            now = time.perf_counter()
            current = self.path.stat().st_size if self.path.exists() else 0
            if current != size:
                size = current
                self.flushes.append((now, current))
            time.sleep(0.0002)

    def size(self) -> int:
        return self.flushes[-1][1] if self.flushes else 0

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def first_sound(path: Path, start: int) -> int | None:
    """The byte offset of the first non-zero sample at or after `start`, if written yet."""
    with path.open("rb") as heard:
        heard.seek(start - start % SAMPLE_BYTES)
        data = heard.read()
    for index in range(0, len(data) - 1, SAMPLE_BYTES):
        if data[index] or data[index + 1]:
            return start - start % SAMPLE_BYTES + index
    return None


def reveals_child(reveals: int, heard: Path) -> dict[str, Any]:
    """Runs in its own process: SDL reads SDL_AUDIODRIVER when the mixer opens."""
    import pygame

    from nsdevice.box.loop import Loop
    from nsdevice.box.speaker import Speaker
    from nsdevice.displays.pygame_display import PygameDisplay
    from nsdevice.inputs.events import Busy, Button, ButtonTracker, Press, QueueInbox
    from nsdevice.session import Session, Settings

    session = Session(
        Settings(city="tokyo", players=1, sound=False, voice=True), seed_source=lambda: "VOICE"
    )
    session.deal_new_game()
    busy = Busy()  # the loop's, shared with the speaker as `nsdevice run` shares it
    speaker = Speaker(lambda: (True, 1.0), busy)
    display = PygameDisplay((480, 320))
    loop = Loop(session, display, QueueInbox(), ButtonTracker(), outputs=(speaker,), busy=busy)
    loop.draw()  # the first frame: the mixer opens after it
    watcher = Watcher(heard)
    visible: list[float] = []
    written: list[float] = []
    presses = 0
    while len(visible) < reveals and presses < reveals * 4:
        pygame.mixer.Channel(0).stop()
        time.sleep(QUIET)
        mark = watcher.size()
        pressed = time.perf_counter()
        loop.handle(Press(Button.NEXT))
        presses += 1
        if session.screen == "game_end":
            session.deal_new_game()
            loop.draw()
            continue
        if not speaker.said_last:  # a screen with nothing new to say
            continue
        deadline = pressed + 2.0
        offset = None
        while offset is None and time.perf_counter() < deadline:
            time.sleep(0.001)
            offset = first_sound(heard, mark)
        if offset is None:
            raise RuntimeError("no sound within 2 s of a press")
        while watcher.size() <= offset:  # the watcher has yet to see the flush we read
            time.sleep(0.001)
        flushed_at, flushed = next((t, size) for t, size in watcher.flushes if size > offset)
        visible.append((flushed_at - pressed) * 1000)
        # SDL mixes a buffer, writes it, then sleeps one period; stdio passes the writes on
        # when four have filled its 4 KB, i.e. at the write of the newest buffer
        buffer_end = (offset // BUFFER_BYTES + 1) * BUFFER_BYTES
        produced_at = flushed_at - (flushed - buffer_end) / BUFFER_BYTES * PERIOD
        written.append((produced_at - pressed) * 1000)
    watcher.stop()
    speaker.close()
    display.close()
    steps = sorted({b - a for (_, a), (_, b) in itertools.pairwise(watcher.flushes)})
    return {
        "reveals": len(visible),
        "press_to_first_sample_written_ms": _summary(written),
        "press_to_first_sample_visible_ms": _summary(visible),
        "file_grows_by_bytes": steps[:3],
    }


def press_to_frame_pairs(presses: int, pairs: int, state_dir: Path | None) -> dict[str, Any]:
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from benchmarks.figures import percentile
    from benchmarks.presses import press_to_frame
    from benchmarks.verdict import load_average, sentence, verdict
    from nsdevice.box.speaker import Speaker
    from nsdevice.inputs.events import Busy

    runs: dict[str, list[float]] = {"off": [], "on": []}
    medians: dict[str, list[float]] = {"off": [], "on": []}
    before = load_average()
    for _ in range(pairs):
        for mode in ("off", "on"):
            busy = Busy()
            speaker = Speaker(lambda: (True, 1.0), busy)
            outputs = (speaker,) if mode == "on" else ()
            samples: dict[str, list[float]] = {}
            press_to_frame(presses, samples=samples, outputs=outputs, busy=busy,
                           state_dir=state_dir)  # fmt: skip
            speaker.close()
            runs[mode].append(percentile(samples["frame_ms"], 0.99))
            medians[mode].append(statistics.median(samples["frame_ms"]))
            print(f"voice {mode:3}: p99 {runs[mode][-1]:.2f} ms, median {medians[mode][-1]:.2f}"
                  f" ms, load {load_average()[0]}", file=sys.stderr, flush=True)  # fmt: skip
    found = verdict(runs["off"], runs["on"])
    print(sentence("press → frame", "voice off", "voice on", found), file=sys.stderr)
    return {
        "press_to_frame_p99_ms_voice_off": [round(v, 2) for v in runs["off"]],
        "press_to_frame_p99_ms_voice_on": [round(v, 2) for v in runs["on"]],
        "press_to_frame_median_ms_voice_off": [round(v, 2) for v in medians["off"]],
        "press_to_frame_median_ms_voice_on": [round(v, 2) for v in medians["on"]],
        "press_to_frame_verdict": found,
        "load_average_before": before,
        "load_average_after": load_average(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reveals", type=int, default=40, help="presses timed to sound")
    parser.add_argument("--presses", type=int, default=300, help="taps per press→frame run")
    parser.add_argument("--pairs", type=int, default=4, help="press→frame runs each way")
    parser.add_argument("--state-dir", type=Path, default=None,
                        help="the store's folder (e.g. /dev/shm: no disk noise)")  # fmt: skip
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument("--child", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        print(json.dumps(reveals_child(args.reveals, args.child)))
        return 0
    with tempfile.TemporaryDirectory(prefix="nsdevice-voice-") as folder:
        heard = Path(folder) / "heard.raw"
        env = {**os.environ, "SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": str(heard),
               "SDL_VIDEODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}  # fmt: skip
        child = subprocess.run(
            [sys.executable, __file__, "--reveals", str(args.reveals), "--child", str(heard)],
            env=env, capture_output=True, text=True, check=True,
        )  # fmt: skip
    figures = json.loads(child.stdout)
    figures.update(press_to_frame_pairs(args.presses, args.pairs, args.state_dir))
    print(json.dumps(figures, indent=1))
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
