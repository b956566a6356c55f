"""Runs inside the arm64 userland under qemu (benchmarks/pi_cost.py): the Display HAT Mini
build as `nsdevice run --hardware display-hat-mini` opens it (the real `st7789` library and
`spidev` over a fake device, gpiozero's mock pins), then taps NEXT through the pins.

    python presses.py STATE_DIR SEED WARM_UP PRESSES [phases]

The first WARM_UP taps bring the game to its turns; the next PRESSES taps are measured
(NEXT wherever the game is: a reveal, or a round's end and the next start, which
pi_cost.py checks from the screens printed). Around each measured tap it calls
getppid(), which the counting plugin marks; the tap goes through GpioButtons, the
tracker and `Loop.handle` (press, frame, save) as in the box. Prints the screens it saw,
one per tap. With `phases`, the parts of a tap are marked too, each with a system call
of its own (PHASES), so the plugin's marks tell what each part cost.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from nsdevice import runner
from nsdevice.box.loop import Loop
from nsdevice.inputs.events import Button, ButtonTracker, Edge
from nsdevice.options import RunOptions
from nsdevice.session import Session, Settings
from nsdevice.store import Store

PIN = {Button.NEXT: 16}  # the Display HAT Mini's NEXT (profiles/display-hat-mini.toml)
# part of a tap: (owner, attribute, the call that marks its start and end)
PHASES = {
    "press": ("nsdevice.session:Session", "press", os.getuid),  # aarch64 call 174 (156: getsid)
    "paint": ("nsdevice.displays.painter:Painter", "paint", os.geteuid),  # 175
    "frame": ("nsdevice.displays.st7789_display", "_for_panel", os.getgid),  # 176: a window
    "windows": ("nsdevice.displays.st7789_display", "changed_windows", os.getegid),  # 177
    "save": ("nsdevice.store:Store", "save", os.sched_yield),  # 124
    "view": ("nsdevice.session:Session", "view", os.getpgrp),  # 155
    "card": ("nsdevice.displays.figures", "card", lambda: os.getpriority(os.PRIO_PROCESS, 0)),
    "text": ("nsdevice.displays.text_fit:FontBook", "draw", os.getgroups),  # 158 (card: 141)
    "push": ("nsdevice.displays.st7789_display:St7789Display", "_push", lambda: os.getsid(0)),
}


def mark_phases() -> None:
    import importlib

    for module_name, attribute, mark in PHASES.values():
        module_name, _, class_name = module_name.partition(":")
        owner = importlib.import_module(module_name)
        if class_name:
            owner = getattr(owner, class_name)
        original = getattr(owner, attribute)

        def marked(*args, _original=original, _mark=mark, **kwargs):  # type: ignore[no-untyped-def]
            _mark()
            try:
                return _original(*args, **kwargs)
            finally:
                _mark()

        setattr(owner, attribute, marked)


def main() -> int:
    state_dir, seed, warm_up, presses = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:5])
    if sys.argv[5:] == ["phases"]:
        mark_phases()
    chosen = runner.plan(RunOptions(hardware="display-hat-mini"))
    display, inbox, inputs = runner.open_hardware(chosen)
    store = Store.open(Path(state_dir)).store
    session = Session(Settings(language="en"), records=store, seed_source=lambda: seed)
    session.deal_new_game()
    # a clock that stands still: no hold and no page turn can fall due while qemu is slow
    loop = Loop(session, display, inbox, ButtonTracker(), save=store.save, clock=lambda: 0.0)
    loop.draw()
    from gpiozero import Device

    pin = Device.pin_factory.pin(PIN[Button.NEXT])
    screens = []
    for tap in range(warm_up + presses):
        measured = tap >= warm_up
        if measured:
            os.getppid()  # the plugin's mark: this tap starts
        pin.drive_low()
        pin.drive_high()
        for item in inbox.get(0):
            assert isinstance(item, Edge)
            # the pins' own times would make a quick tap bounce: a 50 ms finger instead
            edge = Edge(item.button, item.down, tap + (0.0 if item.down else 0.05))
            for press in loop.tracker.feed(edge):
                loop.handle(press)
        if measured:
            os.getppid()  # and ends
        screens.append(session.view().screen)
    print(" ".join(screens))
    for device in inputs:
        device.close()
    display.close()
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
