"""Stand-in for the rp2 `machine` module, for firmware tests on MicroPython's unix port.

Test-only: tests/test_firmware_micropython.py puts this folder on MICROPYPATH so
firmware/main.py runs unchanged. Button levels follow a script in NSBOARD_PINS,
`at_ms:gpio:level` entries split by commas, timed from this module's import;
level 0 is pressed (wired to GND), `raise` makes the pin's next read fail once,
`fail` makes every read from then on fail. LED changes are appended to the file
named by NSBOARD_LOG as `ms led r g b` lines, a reset as `ms reset`, and each level the
firmware reads for the first time as `ms level gpio level` (so a test can wait for the
board to have seen a press, instead of guessing how fast the interpreter starts).
"""

import os
import sys
import time

_START = time.ticks_ms()


def _script():
    steps = []
    for entry in (os.getenv("NSBOARD_PINS") or "").split(","):
        if entry:
            at, gpio, level = entry.split(":")
            steps.append((int(at), int(gpio), level))
    return steps


_STEPS = _script()
_raised = []  # steps whose one-off fault has been raised
_levels = {}  # gpio -> the level last read, to log each change once


def now_ms():
    return time.ticks_diff(time.ticks_ms(), _START)


def log(*words):
    path = os.getenv("NSBOARD_LOG")
    if path:
        with open(path, "a") as file:
            file.write(" ".join([str(now_ms())] + [str(word) for word in words]) + "\n")


def log_led(red, green, blue):
    log("led", red, green, blue)


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, gpio, mode=IN, pull=None):
        self.gpio = gpio
        self._out = 0

    def value(self, level=None):
        if level is not None:
            self._out = level
            log_led(255 * level, 255 * level, 255 * level)
            return None
        elapsed = now_ms()
        current = 1  # pulled up: released
        for index in range(len(_STEPS)):
            at, gpio, level = _STEPS[index]
            if gpio != self.gpio or at > elapsed:
                continue
            if level == "fail" or (level == "raise" and index not in _raised):
                _raised.append(index)
                raise OSError(f"scripted fault on GP{gpio}")
            if level != "raise":
                current = int(level)
        if _levels.get(self.gpio, 1) != current:
            log("level", self.gpio, current)
        _levels[self.gpio] = current
        return current


class PWM:
    def __init__(self, pin):
        self.pin = pin

    def freq(self, hertz):
        pass

    def duty_u16(self, duty):
        level = duty * 255 // 65535
        log_led(level, level, level)


def reset():
    # A real reset ends this run of main.py (and starts a fresh one): log it and leave.
    log("reset")
    sys.exit(99)
