"""The board's firmware on a PC: board.py with stand-in pins and LED, optionally serving
one end of a pseudo-terminal.

Host-only: CPython on the developer's machine or the Pi, for the tests and the
reliability harness. This is not MicroPython and never goes on the Pico (main.py is
the board's entry point there, and only board.py and main.py are copied over).

- `load_board()`: board.py from beside this file, as a module of its own.
- `FakePin`, `FakeLed`: what main.py hands board.Board on the Pico, in memory.
- `PicoOnPty`: a Pico on its USB cable: board.Board run by a thread on the master end
  of a pty, so a host opens `path` as it would /dev/ttyACM0. It can be unplugged and
  plugged back in, inject bytes between its own lines, and hang.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import queue
import select
import threading
import time
import tty
import types
from collections.abc import Callable
from pathlib import Path

POLL_MS = 5  # as main.py: the longest wait for host bytes before the buttons are read again
READ_BUDGET = 256  # bytes taken from the host per pass
# MicroPython's USB serial waits this long for the host to take output, then drops it.
SEND_TIMEOUT_S = 0.5


def load_board() -> types.ModuleType:
    """board.py from beside this file, freshly loaded.

    Under a private name, not plain `board`: that could be some other installed package
    (Adafruit's Blinka has one), and it is the name main.py imports on the Pico.
    """
    path = Path(__file__).resolve().with_name("board.py")
    spec = importlib.util.spec_from_file_location("nsboard_firmware", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


firmware = load_board()  # the copy this module's boards run; tests read its constants


def monotonic_ms() -> int:
    """time.ticks_ms for board.py from the PC's clock: it never wraps, as board.py's
    default ticks_diff expects."""
    return int(time.monotonic() * 1000)


class FakePin:
    """A button's input with the pull-up main.py sets: reads 1 while up, 0 while pressed."""

    def __init__(self) -> None:
        self.level = 1

    def value(self) -> int:
        return self.level


class FakeLed:
    """An LED that keeps what it shows: `now` is the last colour, None before the first."""

    def __init__(self, kind: str = firmware.LED_RGB) -> None:
        self.kind = kind
        self.now: tuple[int, int, int] | None = None

    def show(self, red: int, green: int, blue: int) -> None:
        self.now = (red, green, blue)


class PicoOnPty:
    """A Pico on a USB cable: the firmware on the master end of a fresh pseudo-terminal.

    A thread of its own runs the board as main.py does (read what the host sent, feed it,
    tick), with `buttons` fake pins and a fake LED, on the clock `ticks_ms`. `unplug()`
    pulls the cable: the firmware stops and the pty closes, so the host's port fails.
    `plug_in()` plugs it back: a new pty at a new `path`, and the firmware boots again with
    its buttons up and its LED dark, as a Pico does on power-up.

    `received` is every byte the host sent since plugging in; setting `frozen` hangs the
    board (it reads nothing and sends nothing) until it is cleared.
    """

    def __init__(
        self,
        *,
        buttons: int = 4,
        led_kind: str = firmware.LED_RGB,
        settle_ms: int = firmware.SETTLE_MS,
        heartbeat_ms: int = firmware.HEARTBEAT_MS,
        ticks_ms: Callable[[], int] = monotonic_ms,
    ) -> None:
        self._buttons = buttons
        self._led_kind = led_kind
        self._options = {"settle_ms": settle_ms, "heartbeat_ms": heartbeat_ms}
        self._ticks_ms = ticks_ms
        self._thread: threading.Thread | None = None
        self.plug_in()

    def plug_in(self) -> None:
        """A fresh pty and a freshly booted board on it; `path` names the new port."""
        assert self._thread is None, "plugged in already: unplug first"
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo or line editing before the host takes the port
        os.set_blocking(self._master, False)
        self.path = os.ttyname(self._slave)
        self.pins = [FakePin() for _ in range(self._buttons)]
        self.led = FakeLed(self._led_kind)
        self.received = bytearray()
        self.frozen = threading.Event()
        self._stop = threading.Event()
        self._inject: queue.SimpleQueue[bytes] = queue.SimpleQueue()
        self.board = firmware.Board(
            self.pins, self.led, self._send, self._ticks_ms, **self._options
        )
        self._thread = threading.Thread(target=self._run, name="pico-on-pty", daemon=True)
        self._thread.start()

    def unplug(self) -> None:
        """Pull the cable: the firmware stops and both ends of the pty close. Again: nothing."""
        if self._thread is None:
            return
        self._stop.set()
        self._thread.join(timeout=2)
        if self._thread.is_alive():
            # Closed under a running thread, its descriptors' numbers would be reused
            # by the next open file, and it would read and write that one.
            raise RuntimeError("the simulated board's thread did not stop")
        self._thread = None
        os.close(self._master)
        os.close(self._slave)

    def press(self, index: int) -> None:
        self.pins[index].level = 0

    def release(self, index: int) -> None:
        self.pins[index].level = 1

    def inject(self, data: bytes) -> None:
        """Send raw bytes from the board. The board's thread sends them between two of
        its own lines, so they never split one."""
        self._inject.put(data)

    def _send(self, data: bytes) -> None:
        """All of `data`, waiting for the host to make room as the Pico's USB serial does;
        what finds no room in SEND_TIMEOUT_S, or nobody to take it, is dropped like there."""
        deadline = time.monotonic() + SEND_TIMEOUT_S
        while data:
            try:
                data = data[os.write(self._master, data) :]
            except BlockingIOError:
                if time.monotonic() > deadline or self._stop.is_set():
                    return
                time.sleep(0.001)
            except OSError:
                return

    def _run(self) -> None:
        poller = select.poll()  # not select.select: it fails on descriptors past 1023
        poller.register(self._master, select.POLLIN)
        self.board.boot()
        while not self._stop.is_set():
            if self.frozen.is_set():
                time.sleep(POLL_MS / 1000)
                continue
            if poller.poll(POLL_MS):
                with contextlib.suppress(OSError):
                    data = os.read(self._master, READ_BUDGET)
                    self.received += data
                    self.board.feed(data)
            with contextlib.suppress(queue.Empty):
                while True:
                    self._send(self._inject.get_nowait())
            self.board.tick()
