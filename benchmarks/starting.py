"""The box started and left alone: process start → first frame (READY=1), CPU time and
wake-ups while idle (on the dummy driver and on Xvfb), the interpreter's own start, and
the rules core's simulated rounds per second against a bare-Python loop."""

from __future__ import annotations

import glob
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.figures import (  # noqa: E402
    CITIES,
    Build,
    Started,
    box_environment,
    context_switches,
    cpu_seconds,
    saved_game,
    status_kb,
    summary,
)

# The same work as one simulated round, with none of the project: shuffle eleven cards,
# scan to the fifth underground one, find the switch. Run in its own interpreter, like
# `nsdevice simulate`, so both pay the same start-up and none of the benchmark's imports.
BARE_LOOP = """
import json, random, sys, time
rounds = int(sys.argv[1])
rng = random.Random("bare")
cards = [("underground" if n < 5 else "surface", n == 10) for n in range(11)]
started = time.perf_counter()
for _ in range(rounds):
    rng.shuffle(cards)
    seen = 0
    for position, (kind, switch) in enumerate(cards):
        if kind == "underground":
            seen += 1
            if seen == 5:
                break
    switch_at = next(i for i, card in enumerate(cards) if card[1])
print(json.dumps({"rounds_per_second": rounds / (time.perf_counter() - started)}))
"""


def cold_start(display: str, starts: int) -> dict:
    times = []
    with tempfile.TemporaryDirectory(prefix="nsdevice-start-") as name:
        folder = Path(name)
        saved_game(folder / "state")
        for run in range(starts):
            box = Started(display, folder / "state", folder / f"notify-{run}")
            times.append(box.ready_after)
            box.stop()
    return {"runs": starts, **{k: v for k, v in summary(times, 1, 4).items() if k != "count"}}


def idle(display: str, seconds: float, build: Build = ((), {})) -> dict:
    with tempfile.TemporaryDirectory(prefix="nsdevice-idle-") as name:
        folder = Path(name)
        saved_game(folder / "state")
        box = Started(display, folder / "state", folder / "notify", build)
        try:
            time.sleep(0.2)  # let the first frame's work finish
            cpu, switches, wall = (
                cpu_seconds(box.pid),
                context_switches(box.pid),
                time.perf_counter(),
            )
            time.sleep(seconds)
            cpu = cpu_seconds(box.pid) - cpu
            switches = context_switches(box.pid) - switches
            wall = time.perf_counter() - wall
            peak = status_kb(box.pid, "VmHWM")
            threads = len(glob.glob(f"/proc/{box.pid}/task/*"))
        finally:
            box.stop()
    return {
        "how": " ".join(["--display", display, *(build[0] or ("--input", "keyboard"))]),
        "seconds": round(wall, 2),
        "cpu_percent_of_one_core": round(100 * cpu / wall, 2),
        "wakeups_per_second": round(switches / wall, 1),
        "rss_peak_mb": round(peak / 1024, 1),
        "threads": threads,
    }


def idle_on_x11(seconds: float) -> dict | None:
    """The window on a real X server (Xvfb), where SDL itself could block; None without Xvfb."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        return None
    number = next(n for n in range(90, 200) if not Path(f"/tmp/.X11-unix/X{n}").exists())
    server = subprocess.Popen(
        [xvfb, f":{number}", "-screen", "0", "800x600x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 10
        while not Path(f"/tmp/.X11-unix/X{number}").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        build = ((), {"SDL_VIDEODRIVER": "x11", "DISPLAY": f":{number}"})
        return idle("window", seconds, build)
    finally:
        server.terminate()
        server.wait(timeout=10)


def simulate(rounds: int) -> dict:
    rates = {}
    for city in CITIES:
        command = [sys.executable, "-m", "nsdevice", "simulate", "--city", city,
                   "--rounds", str(rounds), "--json"]  # fmt: skip
        result = subprocess.run(
            command, capture_output=True, text=True, env=box_environment(), check=True
        )
        rates[city] = json.loads(result.stdout)["rounds_per_second"]
    bare = subprocess.run([sys.executable, "-c", BARE_LOOP, str(rounds)], capture_output=True,
                          text=True, env=box_environment(), check=True)  # fmt: skip
    return {
        "rounds": rounds,
        "rounds_per_second": rates,
        "bare_loop_rounds_per_second": round(json.loads(bare.stdout)["rounds_per_second"]),
    }


def interpreter_start(runs: int) -> dict:
    """The floor under every cold start: Python itself, and Python importing pygame."""
    figures = {}
    for name, code in (("python_s", "pass"), ("python_and_pygame_s", "import pygame")):
        times = []
        for _ in range(max(1, runs)):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], env=box_environment(), check=True)
            times.append(time.perf_counter() - started)
        figures[name] = round(statistics.median(times), 4)
    return figures
