"""nsdevice's SerialBoard against the real firmware logic, over pseudo-terminals.

The "Pico" is firmware/simulator.py's PicoOnPty: board.py driven by a thread on the
master end of a pty, with fake buttons and LED; SerialBoard opens the slave end
through pyserial as it would /dev/ttyACM0. Pulling the cable closes the pty; plugging
it back is a fresh pty that the port finder starts returning. A few narrower checks
use pyserial's loop:// and plain unit tests.
"""

from __future__ import annotations

import logging
import re
import subprocess
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator

import pytest
import serial
import simulator  # firmware/simulator.py: tests/conftest.py puts firmware/ on the path
from simulator import FakeLed, FakePin, PicoOnPty

from nsdevice.inputs.events import Button, Edge, QueueInbox
from nsdevice.inputs.serial_board import (
    MAX_LINE,
    BoardState,
    LineSplitter,
    SerialBoard,
    find_board_ports,
    led_command,
    parse_hello,
)

fw = simulator.firmware


def wait_for(condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def take(inbox: QueueInbox, count: int, timeout: float = 5.0) -> list[tuple[Button, bool]]:
    """The next `count` edges as (button, down), or fewer if the time runs out."""
    got: list[tuple[Button, bool]] = []
    deadline = time.monotonic() + timeout
    while len(got) < count and time.monotonic() < deadline:
        for item in inbox.get(timeout=0.05):
            assert isinstance(item, Edge)
            got.append((item.button, item.down))
    return got


@pytest.fixture
def pico() -> Iterator[PicoOnPty]:
    # Quick settling and heartbeats, so a lost line is mended well inside a test's wait.
    board = PicoOnPty(settle_ms=5, heartbeat_ms=100)
    yield board
    board.unplug()


@pytest.fixture
def inbox() -> QueueInbox:
    return QueueInbox()


def start_host(inbox: QueueInbox, ports: list[str], **options) -> SerialBoard:
    host = SerialBoard(inbox, find_ports=lambda: list(ports), **options)
    host.start()
    assert wait_for(lambda: host.connected), host.status
    return host


# End to end over a pty ------------------------------------------------------------


def test_presses_on_the_board_arrive_as_edges(pico: PicoOnPty, inbox: QueueInbox) -> None:
    host = start_host(inbox, [pico.path])
    try:
        assert host.status.port == pico.path and host.status.firmware == fw.FIRMWARE_VERSION
        for index, button in enumerate([Button.NEXT, Button.BACK, Button.MENU]):
            pico.press(index)
            assert take(inbox, 1) == [(button, True)]
            pico.release(index)
            assert take(inbox, 1) == [(button, False)]
        pico.press(3)  # the spare: ignored, so the next edge is NEXT's
        pico.press(0)
        assert take(inbox, 1) == [(Button.NEXT, True)]
    finally:
        host.close()


def test_edges_carry_the_injected_clock(pico: PicoOnPty, inbox: QueueInbox) -> None:
    host = start_host(inbox, [pico.path], clock=lambda: 42.0)
    try:
        pico.press(1)
        [edge] = inbox.get(timeout=5.0)
        assert edge == Edge(Button.BACK, True, 42.0, debounced=True)
    finally:
        host.close()


def test_garbage_and_overlong_lines_from_the_board_are_survived(
    pico: PicoOnPty, inbox: QueueInbox
) -> None:
    host = start_host(inbox, [pico.path])
    try:
        pico.inject(b"\x00\xff\xfe junk\r\n")
        pico.inject(b"DOWN 9x\r\nDOWN\r\nUP banana\r\nBEAT 2x1\r\n")
        pico.inject(b"Traceback (most recent call last):\r\n")
        pico.inject(b"y" * 5000 + b"\r\n")
        # The tail of an overlong line is part of it, never a line of its own.
        pico.inject(b"z" * (MAX_LINE + 1) + b"DOWN 0\r\n")
        pico.press(2)
        assert take(inbox, 1) == [(Button.MENU, True)]
        assert host.connected
    finally:
        host.close()


def test_led_commands_reach_the_board(pico: PicoOnPty, inbox: QueueInbox) -> None:
    host = start_host(inbox, [pico.path])
    try:
        host.set_led((10, 20, 30))
        assert wait_for(lambda: pico.led.now == (10, 20, 30))
        host.set_led(None)
        assert wait_for(lambda: pico.led.now == (0, 0, 0))
        host.set_led((0, 0, 255), blink=0.2)
        assert wait_for(lambda: pico.board.blink_ms == 200 and pico.board.colour == (0, 0, 255))
    finally:
        host.close()


def test_asking_for_the_same_colour_again_sends_nothing(pico: PicoOnPty, inbox: QueueInbox) -> None:
    host = start_host(inbox, [pico.path])
    try:
        for _ in range(3):
            host.set_led((1, 2, 3))
        host.set_led((4, 5, 6))  # lines arrive in order: once this shows, the rest came
        assert wait_for(lambda: pico.led.now == (4, 5, 6))
        assert pico.received.count(b"LED 1 2 3\n") == 1
    finally:
        host.close()


def test_unplug_releases_held_buttons_and_replug_is_back_within_2s(
    pico: PicoOnPty, inbox: QueueInbox
) -> None:
    ports = [pico.path]
    host = start_host(inbox, ports)  # the default reconnect_interval: what the box uses
    try:
        host.set_led((0, 90, 0))
        assert wait_for(lambda: pico.led.now == (0, 90, 0))
        pico.press(0)
        assert take(inbox, 1) == [(Button.NEXT, True)]

        ports.clear()
        pico.unplug()
        assert take(inbox, 1) == [(Button.NEXT, False)]  # nothing stays stuck down
        assert wait_for(lambda: not host.connected)
        assert host.status.state is BoardState.SEARCHING

        pico.plug_in()  # a fresh pty at a new path, the board booted dark
        plugged_at = time.monotonic()
        ports.append(pico.path)
        assert wait_for(lambda: host.connected, timeout=2.0)
        assert time.monotonic() - plugged_at < 2.0
        assert wait_for(lambda: pico.led.now == (0, 90, 0))  # remembered and resent
        pico.press(1)
        assert take(inbox, 1) == [(Button.BACK, True)]
    finally:
        host.close()


def test_a_silent_board_is_dropped_and_taken_back(pico: PicoOnPty, inbox: QueueInbox) -> None:
    host = start_host(inbox, [pico.path], heartbeat_timeout=0.5, reconnect_interval=0.1)
    try:
        pico.press(1)
        assert take(inbox, 1) == [(Button.BACK, True)]
        pico.frozen.set()
        assert take(inbox, 1) == [(Button.BACK, False)]
        assert not host.connected
        pico.frozen.clear()
        assert wait_for(lambda: host.connected)
        # Still held on the board: the first heartbeat puts it back down.
        assert take(inbox, 1) == [(Button.BACK, True)]
    finally:
        host.close()


def test_close_stops_the_reader_and_releases_buttons(pico: PicoOnPty, inbox: QueueInbox) -> None:
    host = start_host(inbox, [pico.path])
    pico.press(2)
    assert take(inbox, 1) == [(Button.MENU, True)]
    host.close()
    assert take(inbox, 1) == [(Button.MENU, False)]
    assert host.status.state is BoardState.STOPPED
    assert not any(thread.name == "serial-board" for thread in threading.enumerate())


# With pyserial's loop:// -----------------------------------------------------------


class LoopPorts:
    """open_port for SerialBoard: each open is a fresh loop:// that answers the host's
    first line with `preload` (after the echo of that line, as a loop does)."""

    def __init__(self, preload: bytes) -> None:
        self.preload = preload
        self.opened = 0

    def __call__(self, url: str) -> AnsweringLoop:
        self.opened += 1
        return AnsweringLoop(serial.serial_for_url(url, timeout=0.02), self.preload)


class AnsweringLoop:
    """A loop:// port that adds `answer` after the first bytes written to it."""

    def __init__(self, loop: serial.SerialBase, answer: bytes) -> None:
        self._loop = loop
        self._answer = answer

    @property
    def in_waiting(self) -> int:
        return self._loop.in_waiting

    def read(self, size: int = 1) -> bytes:
        return self._loop.read(size)

    def write(self, data: bytes) -> int | None:
        written = self._loop.write(data)
        answer, self._answer = self._answer, b""
        asked = re.search(rb"echo=(\w+)", data)
        if asked:  # a 1.2 board repeats the host's echo= word
            answer = answer.replace(b"{echo}", asked.group(1))
        self._loop.write(answer)
        return written

    def close(self) -> None:
        self._loop.close()


def test_a_board_with_another_major_version_is_refused_with_one_notice(
    inbox: QueueInbox, caplog: pytest.LogCaptureFixture
) -> None:
    ports = LoopPorts(b"HELLO nsboard proto=2.0 fw=9.0.0 buttons=4 led=rgb\r\nDOWN 0\r\n")
    host = SerialBoard(inbox, port="loop://", open_port=ports, reconnect_interval=0.02)
    with caplog.at_level(logging.INFO, logger="nsdevice.inputs.serial_board"):
        host.start()
        assert wait_for(lambda: ports.opened >= 4)
        host.close()
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "protocol 2.0" in warnings[0].getMessage()
    assert inbox.get(timeout=0) == []  # its DOWN was never taken


def test_an_echoing_repl_is_not_taken_for_a_board(inbox: QueueInbox) -> None:
    # A Pico at the REPL echoes what it is sent: "HELLO" comes back, without the board's name.
    ports = LoopPorts(b">>> ")
    host = SerialBoard(inbox, port="loop://", open_port=ports, handshake_timeout=0.2)
    host.start()
    try:
        assert wait_for(lambda: ports.opened >= 2)
        assert not host.connected and host.status.state is BoardState.SEARCHING
    finally:
        host.close()


def test_minor_version_and_unknown_fields_are_accepted(inbox: QueueInbox) -> None:
    ports = LoopPorts(b"HELLO nsboard proto=1.7 fw=1.2.3 buttons=3 dial=1 echo={echo}\n")
    host = SerialBoard(inbox, port="loop://", open_port=ports)
    host.start()
    try:
        assert wait_for(lambda: host.connected)
        assert host.status.protocol == "1.7" and host.status.firmware == "1.2.3"
    finally:
        host.close()


# Pieces -----------------------------------------------------------------------------


def test_line_splitter_drops_overlong_lines_and_stays_bounded() -> None:
    splitter = LineSplitter()
    assert splitter.feed(b"DOWN 0\r\nUP") == ["DOWN 0"]
    assert splitter.feed(b" 0\n") == ["UP 0"]
    for _ in range(100):
        assert splitter.feed(b"x" * 1000) == []
        assert len(splitter._buffer) <= MAX_LINE
    assert splitter.feed(b"DOWN 1\nBEAT 0000\n") == ["BEAT 0000"]
    assert splitter.feed(b"a" * MAX_LINE + b"\n") == ["a" * MAX_LINE]
    assert splitter.feed(b"\x03DOWN 0\n\xffUP 0\n") == []
    assert splitter.dropped == 3


@pytest.mark.parametrize(
    "line",
    [
        "HELLO",
        "HELLO otherboard proto=1.0",
        "HELLO nsboard",
        "HELLO nsboard proto=one.0",
        "HELLO nsboard proto=1",
        "hello nsboard proto=1.0",
    ],
)
def test_parse_hello_refuses_what_is_not_our_board(line: str) -> None:
    assert parse_hello(line) is None


def test_parse_hello_reads_the_fields() -> None:
    hello = parse_hello("HELLO nsboard proto=1.0 fw=0.1.0 buttons=4 led=rgb")
    assert hello is not None
    assert (hello.major, hello.protocol, hello.firmware, hello.buttons, hello.led) == (
        1,
        "1.0",
        "0.1.0",
        4,
        "rgb",
    )


def test_led_command_lines_and_their_checks() -> None:
    assert led_command((255, 0, 7)) == b"LED 255 0 7\n"
    assert led_command(None) == b"LED OFF\n"
    assert led_command((1, 2, 3), blink=0.5) == b"BLINK 1 2 3 500\n"
    for bad in [(256, 0, 0), (-1, 0, 0), (1, 2), (1.5, 0, 0)]:
        with pytest.raises(ValueError):
            led_command(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        led_command((1, 2, 3), blink=0.01)


def test_led_commands_are_lines_the_firmware_accepts() -> None:
    # One contract, two sides: what the host sends, the board must answer OK.
    led = FakeLed()
    sent = bytearray()
    board = fw.Board([FakePin()], led, sent.extend, lambda: 0)
    for command in [led_command((9, 8, 7)), led_command(None), led_command((1, 1, 1), 2.0)]:
        sent.clear()
        board.feed(command)
        assert bytes(sent).startswith(b"OK "), (command, bytes(sent))


def test_find_board_ports_picks_micropython_picos_by_usb_id(monkeypatch) -> None:
    from serial.tools import list_ports

    def port(device: str, vid: int | None, pid: int | None) -> types.SimpleNamespace:
        return types.SimpleNamespace(device=device, vid=vid, pid=pid)

    found = [
        port("/dev/ttyACM1", 0x2E8A, 0x0005),
        port("/dev/ttyUSB0", 0x0403, 0x6001),  # an FTDI adapter
        port("/dev/ttyACM2", 0x2E8A, 0x000A),  # a Pico with other firmware
        port("/dev/ttyS0", None, None),
        port("/dev/ttyACM0", 0x2E8A, 0x0005),
    ]
    monkeypatch.setattr(list_ports, "comports", lambda: found)
    assert find_board_ports() == ["/dev/ttyACM0", "/dev/ttyACM1"]
    assert find_board_ports(0x0403, 0x6001) == ["/dev/ttyUSB0"]
    # SerialBoard's own search: the profile's ids, else the board's.
    assert SerialBoard(QueueInbox())._find_ports() == ["/dev/ttyACM0", "/dev/ttyACM1"]
    assert SerialBoard(QueueInbox(), usb_product_id=0x000A)._find_ports() == ["/dev/ttyACM2"]
    assert SerialBoard(QueueInbox(), port="/dev/ttyS0")._find_ports() == ["/dev/ttyS0"]


def test_importing_the_module_does_not_load_pyserial() -> None:
    code = "import sys, nsdevice.inputs.serial_board; print('serial' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr


def test_a_flood_the_inbox_refused_is_told_to_the_loop_once_there_is_room():
    """Issue 22: a flood loses taps (both edges refused); the box must not lose them
    silently. The refused edges are counted and told, at most every DROPPED_SECONDS."""
    from nsdevice.inputs.events import Dropped
    from nsdevice.inputs.serial_board.protocol import DROPPED_SECONDS, BoardMirror

    inbox = QueueInbox(bound=4)
    mirror = BoardMirror(inbox, lambda: 7.0, hold_timeout=2.0)
    for _ in range(10):  # ten taps of NEXT into room for four edges
        mirror.handle("DOWN 0", 100.0)
        mirror.handle("UP 0", 100.0)
    taken = inbox.get(0)
    assert taken == [Edge(Button.NEXT, down, 7.0, debounced=True)
                     for down in (True, False, True, False)]  # fmt: skip
    assert mirror.dropped == 8  # each later DOWN (its UP then changes nothing)
    mirror.handle("BEAT 0000", 100.5)  # room again: the loop hears of the lost ones
    assert inbox.get(0) == [Dropped(8)]
    for _ in range(2):  # the inbox full again
        mirror.handle("DOWN 0", 101.0)
        mirror.handle("UP 0", 101.0)
    mirror.handle("DOWN 0", 101.0)  # the fifth edge since: refused
    inbox.get(0)
    mirror.handle("BEAT 0000", 101.0 + DROPPED_SECONDS / 2)
    assert inbox.get(0) == []  # not again so soon
    mirror.handle("BEAT 0000", 100.5 + DROPPED_SECONDS)
    assert inbox.get(0) == [Dropped(1)]
