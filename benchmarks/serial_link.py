"""Every press exactly once: the real firmware on MicroPython, its USB cable, nsdevice's host.

    SDL_VIDEODRIVER=dummy python benchmarks/serial_link.py [--presses N] [--seed N] [--json PATH]

firmware/main.py runs unchanged on MicroPython's unix port (firmware/micropython_rig.py),
its pins following a seeded script: a few taps before nsdevice opens the port (they wait
in the modelled 256-byte USB buffer and must not count), then N presses, one button at a
time: taps of 40-500 ms, now and then a hold of 1.1-1.6 s, with gaps of 40-400 ms. Now and
then the cable holds the board's output back for up to 150 ms, as a busy host would, so
lines arrive together. SerialBoard's edges go through a ButtonTracker; the run holds when
the taps and holds it reports are exactly the scripted ones, in order. Exit status 0 when
it held.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from nsdevice.inputs.events import Button, ButtonTracker, Edge, Gesture, Press, QueueInbox
from nsdevice.inputs.serial_board import SerialBoard

ROOT = Path(__file__).resolve().parent.parent
OPEN_AT_MS = 2000  # the taps before the open end by then; it opens once the board told them
FIRST_PRESS_MS = 3000  # the scripted presses after the port is open start here


def _rig() -> Any:
    """firmware/micropython_rig.py (firmware/ is the Pico's flat folder, not a package)."""
    path = ROOT / "firmware" / "micropython_rig.py"
    spec = importlib.util.spec_from_file_location("nsboard_micropython_rig", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def plan(presses: int, seed: int, rig: Any) -> tuple[list[tuple[int, int, int]], list[Press]]:
    """The pin script and the presses it must give, after the port is open."""
    chooser = random.Random(seed)
    gpios = {rig.NEXT: Button.NEXT, rig.BACK: Button.BACK, rig.MENU: Button.MENU}
    steps: list[tuple[int, int, int]] = []
    at = 100
    for _ in range(4):  # before the port opens: must not count
        steps += rig.tap(chooser.choice(list(gpios)), at, chooser.randint(40, 300))
        at += 400
    assert at < OPEN_AT_MS
    expected: list[Press] = []
    at = FIRST_PRESS_MS
    for _ in range(presses):
        gpio = chooser.choice(list(gpios))
        if chooser.random() < 0.1:
            length, gesture = chooser.randint(1100, 1600), Gesture.HOLD
        else:
            length, gesture = chooser.randint(40, 500), Gesture.TAP
        steps += rig.tap(gpio, at, length)
        expected.append(Press(gpios[gpio], gesture))
        at += length + chooser.randint(40, 400)
    return steps, expected


def run(presses: int, seed: int) -> dict[str, Any]:
    rig = _rig()
    steps, expected = plan(presses, seed, rig)
    end_ms = max(at for at, _, _ in steps) + 1500
    chooser = random.Random(seed + 1)
    with tempfile.TemporaryDirectory() as folder:
        pico = rig.RealPico(Path(folder), rig.script(*steps))
        cable = rig.UsbCable(pico)
        held_back = 0

        def late_host(data: bytes) -> None:
            nonlocal held_back
            if chooser.random() < 0.05:
                held_back += 1
                time.sleep(chooser.uniform(0.05, 0.15))  # output piles up in the pipe
            cable.from_board(data)

        pico.sink = late_host
        inbox = QueueInbox()
        host = SerialBoard(inbox, find_ports=lambda: [cable.path], open_port=cable.open_port)
        tracker = ButtonTracker()
        got: list[Press] = []
        edges = 0
        started = time.monotonic()
        levels = sum(level in (0, 1) for _, _, level in steps)  # one change each
        before_open = 8  # the four taps before the port opens
        try:
            # The board's own log says when it has read the taps before the open (its
            # pin script waits for a starved interpreter), and its output when it told
            # them; only then is the port opened.
            _wait(lambda: _levels_read(pico) >= before_open, "the taps before the open")
            _wait(lambda: bytes(cable.heard).count(b"UP ") >= before_open // 2, "their UPs")
            host.start()
            quiet_until: float | None = None  # the board has read every level: 1.5 s more
            while quiet_until is None or time.monotonic() < quiet_until:
                for item in inbox.get(timeout=0.01):
                    assert isinstance(item, Edge)
                    edges += 1
                    got += tracker.feed(item)  # by the edges' own times, the board's clock
                if quiet_until is None and _levels_read(pico) >= levels:
                    quiet_until = time.monotonic() + (end_ms - max(at for at, _, _ in steps)) / 1000
        finally:
            host.close()
            cable.close()
            pico.close()
    reported = [press for press in got if press.gesture is not Gesture.REPEAT]
    first_wrong = next(
        (i for i, (a, b) in enumerate(zip(reported, expected, strict=False)) if a != b), None
    )
    return {
        "held": reported == expected,
        "presses_scripted": len(expected),
        "taps_scripted": sum(p.gesture is Gesture.TAP for p in expected),
        "holds_scripted": sum(p.gesture is Gesture.HOLD for p in expected),
        "presses_reported": len(reported),
        "first_difference_at": first_wrong,
        "edges": edges,
        "times_the_host_was_late": held_back,
        "seconds": round(time.monotonic() - started, 1),
        "seed": seed,
        "threads_left": [t.name for t in threading.enumerate() if t.name == "serial-board"],
    }


def _levels_read(pico: Any) -> int:
    return sum(entry[0] == "level" for entry in pico.logged())


def _wait(condition: Any, what: str, seconds: float = 120.0) -> None:
    """Until `condition()`; the deadline only catches a board that stopped."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"waited in vain for {what}")
        time.sleep(0.02)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path)
    options = parser.parse_args(argv)
    if options.presses < 1:
        parser.error("--presses must be at least 1")
    report = run(options.presses, options.seed)
    for key, value in report.items():
        print(f"{key:26} {value}")
    if options.json:
        options.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0 if report["held"] else 1


if __name__ == "__main__":
    sys.exit(main())
