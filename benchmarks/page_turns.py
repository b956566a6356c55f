#!/usr/bin/env python3
"""Idle CPU of the 2-inch panel's turn screen, which turns its pages by itself (the card
5 s, the count and notes 3 s): the real loop, the real St7789Display painting and
converting each page and choosing the changed windows, with a panel that only counts what
it is sent (no SPI here), left alone on a turn for SECONDS.

Usage: python benchmarks/page_turns.py [SECONDS]   (default 40)
Prints the CPU time used while idle as a share of one core, the page turns and the bytes
the panel would have been sent per turn.
"""

from __future__ import annotations

import os
import sys
import threading
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from nsdevice.box.loop import Loop
from nsdevice.displays.st7789_display import St7789Display
from nsdevice.hardware.profiles import load_profile
from nsdevice.inputs.events import ButtonTracker, Press, QueueInbox, Stop
from nsdevice.session import Session, Settings


class CountingPanel:
    def __init__(self) -> None:
        self.sent = 0
        self.windows = 0

    def set_window(self, *window: int) -> None:
        self.windows += 1

    def data(self, data: bytes) -> None:
        self.sent += len(data)

    def set_backlight(self, value: bool) -> None:
        pass


def main() -> int:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 40.0
    panel = CountingPanel()
    hat = load_profile("display-hat-mini")
    display = St7789Display(panel=panel, diagonal_inches=hat.display.diagonal_inches)
    inbox = QueueInbox()
    session = Session(Settings(players=2), seed_source=lambda: "PAGES")
    loop = Loop(session=session, display=display, inbox=inbox, tracker=ButtonTracker())
    for word in ("menu", "next", "next"):  # power-on's setup → summary → first card
        inbox.put(Press.parse(word))
    turns = []
    original = display.next_page

    def counted() -> None:
        turns.append(panel.sent)
        original()

    display.next_page = counted  # type: ignore[method-assign]
    runner = threading.Thread(target=loop.run)
    runner.start()
    time.sleep(1.0)  # the presses are handled and the turn is on screen
    assert session.view().screen == "turn", session.view().screen
    start_cpu, start_wall, sent = time.process_time(), time.monotonic(), panel.sent
    time.sleep(seconds)
    cpu, wall = time.process_time() - start_cpu, time.monotonic() - start_wall
    inbox.put(Stop())
    runner.join()
    idle_turns = len([t for t in turns if t >= sent])
    print(f"idle {wall:.1f} s on the turn: CPU {100 * cpu / wall:.2f} % of one core, "
          f"{idle_turns} page turns, {(panel.sent - sent) / max(1, idle_turns):,.0f} bytes "
          f"to the panel per turn (a whole frame is {320 * 240 * 2:,})")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
