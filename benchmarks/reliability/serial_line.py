"""`serial_line`: garbage, overlong lines and unplug/replug on the Pico board's line, over
a pseudo-terminal with the real firmware logic on the other end.
"""

from __future__ import annotations

import importlib.util
import logging
import random
import time
from collections.abc import Callable
from typing import Any

from benchmarks.reliability.harness import (
    ROOT,
    Report,
)


def _simulator() -> Any:
    """firmware/simulator.py, the board's firmware on a PC. firmware/ is the Pico's own flat
    set of files, not a package, so the file is loaded by its path, under a private name."""
    path = ROOT / "firmware" / "simulator.py"
    spec = importlib.util.spec_from_file_location("nsboard_simulator", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def serial_line(
    actions: int = 40, *, seed: int = 3, unplug_every: int = 20, heartbeat_ms: int = 1000
) -> Report:
    """Garbage, overlong lines and bursts on the board's line, presses between them, and a
    mid-game unplug/replug every `unplug_every` actions: edges keep coming, the board is
    back within 2 s, and no button is left down."""
    from nsdevice.inputs.events import Button, ButtonTracker, Edge, QueueInbox
    from nsdevice.inputs.serial_board import MAX_LINE, SerialBoard
    from nsdevice.session import Session, Settings

    report = Report("serial_line")
    rng = random.Random(seed)
    logged = _CountingHandler()  # the reader's warnings, counted instead of printed
    logger = logging.getLogger("nsdevice.inputs.serial_board")
    logger.addHandler(logged)
    propagate, logger.propagate = logger.propagate, False
    simulator = _simulator()
    inbox = QueueInbox()
    tracker = ButtonTracker()
    session = Session(Settings(), seed_source=lambda: "SERIAL")
    pico = simulator.PicoOnPty(heartbeat_ms=heartbeat_ms)
    ports = [pico.path]
    host = SerialBoard(inbox, find_ports=lambda: list(ports))
    held: dict[Button, bool] = dict.fromkeys(Button, False)
    buttons = [Button.NEXT, Button.BACK, Button.MENU]
    reconnects: list[float] = []

    def pump(timeout: float) -> list[tuple[Button, bool]]:
        got = []
        for item in inbox.get(timeout):
            assert isinstance(item, Edge)
            held[item.button] = item.down
            got.append((item.button, item.down))
            for press in tracker.feed(item):
                session.press(press)
        for press in tracker.due(time.monotonic()):
            session.press(press)
        return got

    def expect(edge: tuple[Button, bool], timeout: float) -> float | None:
        started = time.monotonic()
        while (waited := time.monotonic() - started) < timeout:
            got = pump(0.02)
            extra = [e for e in got if e != edge]
            if extra:
                report.add("unexpected_edges", len(extra))
            if edge in got:
                return waited
        return None

    def wait_for(condition: Callable[[], bool], timeout: float) -> float | None:
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            if condition():
                return time.monotonic() - started
            pump(0.01)
        return None

    host.start()
    try:
        if wait_for(lambda: host.connected, 5.0) is None:
            report.fail(f"never connected: {host.status}")
            return report
        slow_edge = (heartbeat_ms / 1000) * 2 + 0.5  # a lost line is mended by a heartbeat
        for step in range(1, actions + 1):
            kind = rng.random()
            if kind < 0.25:
                data = rng.randbytes(rng.randint(1, 300))
                pico.inject(data if rng.random() < 0.5 else data + b"\n")
                report.add("garbage_injections")
            elif kind < 0.4:
                pico.inject(b"y" * rng.randint(MAX_LINE + 1, 5000) + rng.choice([b"", b"\r\n"]))
                report.add("overlong_lines")
            elif kind < 0.5:
                for _ in range(rng.randint(5, 40)):
                    pico.inject(rng.randbytes(rng.randint(1, 64)))
                pico.inject(b"\n")
                report.add("garbage_bursts")
            index = rng.randrange(3)
            button = buttons[index]
            pico.press(index)
            took = expect((button, True), slow_edge)
            if took is None:
                report.fail(f"action {step}: {button} pressed, no DOWN edge")
            elif took > 0.2:
                report.add("edges_mended_by_heartbeat")
            if step % unplug_every == 0:
                # Pull the cable with the button held: it must come up, then reconnect.
                ports.clear()
                pico.unplug()
                if expect((button, False), 3.0) is None:
                    report.fail(f"unplug {step}: {button} left down")
                wait_for(lambda: not host.connected, 5.0)
                pico.plug_in()  # a fresh pty at a new path, the board booted afresh
                ports.append(pico.path)
                took = wait_for(lambda: host.connected, 5.0)
                report.add("unplugs")
                if took is None or took > 2.0:
                    report.fail(f"unplug {step}: reconnected after {took} s (limit 2 s)")
                else:
                    reconnects.append(took)
                continue
            time.sleep(rng.uniform(0.0, 0.05))
            pico.release(index)
            if expect((button, False), slow_edge) is None:
                report.fail(f"action {step}: {button} released, no UP edge")
            report.add("presses")
        for index in range(len(pico.pins)):
            pico.release(index)
        # A heartbeat later every button must be up, on the line and in the tracker.
        wait_for(lambda: False, heartbeat_ms / 1000 * 1.5)
        stuck = [b for b, down in held.items() if down] + [b for b in buttons if tracker.is_down(b)]
        if stuck:
            report.fail(f"stuck buttons at the end: {sorted(set(stuck))}")
        if not host.connected or host._thread is None or not host._thread.is_alive():
            report.fail(f"the reader is not running at the end: {host.status}")
        if reconnects:
            report.counts["slowest_reconnect_s"] = round(max(reconnects), 3)
    finally:
        host.close()
        pico.unplug()
        logger.removeHandler(logged)
        logger.propagate = propagate
        if logged.count:
            report.counts["reader_warnings_logged"] = logged.count
    return report


class _CountingHandler(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1
