"""Stand-in for the rp2 `machine` module, for firmware tests on MicroPython's unix port.

Test-only: tests/test_firmware_micropython.py puts this folder on MICROPYPATH so
firmware/main.py runs unchanged. Button levels follow a script in NSBOARD_PINS,
`at_ms:gpio:level` entries split by commas, timed from this module's import;
level 0 is pressed (wired to GND), `raise` makes the pin's next read fail once,
`fail` makes every read from then on fail. LED changes are appended to the file
named by NSBOARD_LOG as `ms led r g b` lines, a reset as `ms reset`, and each level the
firmware reads for the first time as `ms level gpio level previous_ms` (previous_ms: when
the firmware last read that pin, at its old level; -1 for none), so a test can wait for the
board to have seen a press instead of guessing how fast the interpreter starts, and can
tell which of its own readings an event's time came from. The first line,
`0 start ticks`, is this module's `time.ticks_ms()` at import: the firmware's `t=` less
that is the log's time.

A Pico reads its pins every few milliseconds whatever else the machine does; this
interpreter can be starved for tens of milliseconds on a loaded machine, long enough to
miss a scripted 40 ms tap. So the script waits for the board: a level meant to count
(one lasting at least HELD_MS, the firmware's settle time) ends only once the board has
read it, first to last, for as long as the script says, and every later step of the
script (all pins) moves back by that wait. Shorter levels (a bouncing contact, a blip)
follow the clock, so a starved board may miss them, as a real one would a shorter blip.
A gap of more than GAP_LOGGED ms between two reads is logged as `ms gap length`: how
long the board was starved, for the tests that time its heartbeat and blink.

With NSBOARD_GO naming a file, the script's clock starts at the first read once that file
exists (the test makes it when the board has answered its HELLO): until then every pin
is released.
"""

import os
import sys
import time

_START = time.ticks_ms()
HELD_MS = 20  # firmware/board.py's SETTLE_MS: a level this long is a press or a pause
GAP_LOGGED = 15  # ms between two reads (every 5 ms or so when the machine is quiet)


def _script():
    steps = []
    for entry in (os.getenv("NSBOARD_PINS") or "").split(","):
        if entry:
            at, gpio, level = entry.split(":")
            steps.append((int(at), int(gpio), level))
    steps.sort(key=lambda step: step[0])
    return steps


def _lengths(steps):
    """Each level step's length: until the same pin's next level step (None: for good)."""
    lengths = []
    for index in range(len(steps)):
        at, gpio, level = steps[index]
        length = None
        if level in ("0", "1"):
            for later, other, next_level in steps[index + 1 :]:
                if other == gpio and next_level in ("0", "1"):
                    length = later - at
                    break
        lengths.append(length)
    return lengths


_STEPS = _script()
_LENGTHS = _lengths(_STEPS)
_shift = 0  # ms the script has waited for the board so far
_taken = 0  # steps taken so far, in order
_faults = {}  # gpio -> "raise" (the next read fails once) or "fail" (every read fails)


class _Level:
    """What one pin shows now, and when the board read it."""

    def __init__(self, level, length):
        self.level = level
        self.length = length  # ms the board must see it for (None: as the clock goes)
        self.first = None  # ms of the board's first read of it
        self.last = None  # ms of the board's latest read of it

    def seen_long_enough(self):
        if self.length is None or self.length < HELD_MS:
            return True
        return self.first is not None and self.last - self.first >= self.length


_pins = {}  # gpio -> its _Level; released (pulled up) until its first step
_read = {}  # gpio -> (the level the board last read, when)
_go = os.getenv("NSBOARD_GO")
_clock = {"go": None if _go else 0, "read": None}  # when the script began; the last read


def _script_time(elapsed):
    """Ms of the script's clock at `elapsed`, or None while it waits for NSBOARD_GO."""
    if _clock["go"] is None:
        try:
            os.stat(_go)
        except OSError:
            return None
        _clock["go"] = elapsed
    return elapsed - _clock["go"]


def _pin(gpio):
    if gpio not in _pins:
        first = [at for at, other, level in _STEPS if other == gpio and level in ("0", "1")]
        _pins[gpio] = _Level(1, first[0] if first else None)
    return _pins[gpio]


def _take_steps(elapsed):
    """Take the steps due by `elapsed`, unless a level meant to count has not been seen
    for its length yet: then the rest of the script waits."""
    global _shift, _taken
    while _taken < len(_STEPS):
        at, gpio, level = _STEPS[_taken]
        if at + _shift > elapsed:
            return
        if level in ("raise", "fail"):
            _faults[gpio] = level
        else:
            if not _pin(gpio).seen_long_enough():
                _shift = elapsed - at  # the script waits: this step is due at the next read
                return
            _pins[gpio] = _Level(int(level), _LENGTHS[_taken])
        _taken += 1


def now_ms():
    return time.ticks_diff(time.ticks_ms(), _START)


def log(*words):
    path = os.getenv("NSBOARD_LOG")
    if path:
        with open(path, "a") as file:
            file.write(" ".join([str(now_ms())] + [str(word) for word in words]) + "\n")


def log_led(red, green, blue):
    log("led", red, green, blue)


log("start", _START)


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
        last, _clock["read"] = _clock["read"], elapsed
        if last is not None and elapsed - last > GAP_LOGGED:
            log("gap", elapsed - last)
        script = _script_time(elapsed)
        if script is not None:
            _take_steps(script)
        fault = _faults.get(self.gpio)
        if fault == "raise":
            del _faults[self.gpio]
        if fault is not None:
            raise OSError(f"scripted fault on GP{self.gpio}")
        shown = _pin(self.gpio)
        if shown.first is None:
            shown.first = elapsed
        shown.last = elapsed
        level, previous = _read.get(self.gpio, (1, -1))
        if level != shown.level:  # a change the board reads for the first time
            log("level", self.gpio, shown.level, previous)
        _read[self.gpio] = (shown.level, elapsed)
        return shown.level


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
