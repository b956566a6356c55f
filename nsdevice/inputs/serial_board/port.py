"""The USB button board's port: a daemon thread that finds the board, opens its serial
port, lets the stale tail its USB buffer kept go by, shakes hands, and pumps lines into
the protocol (`protocol.BoardMirror`); when the cable is pulled or the heartbeat stops it
releases every button still held and starts looking again.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from nsdevice.inputs.device import InputDevice
from nsdevice.inputs.events import Inbox
from nsdevice.inputs.serial_board.protocol import (
    MAX_LINE,
    PROTOCOL_MAJOR,
    RGB,
    BoardMirror,
    BoardState,
    BoardStatus,
    Hello,
    LineSplitter,
    hello_line,
    is_answer,
    led_command,
    new_echo,
    parse_hello,
)

log = logging.getLogger("nsdevice.inputs.serial_board")

USB_VID = 0x2E8A  # Raspberry Pi
USB_PID = 0x0005  # MicroPython's own id for RP2 boards (Pico, Pico W)


class Link(Protocol):
    """What the reader needs of a port: the part of pyserial's `Serial` it uses."""

    in_waiting: int

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def close(self) -> None: ...


def find_board_ports(vendor_id: int = USB_VID, product_id: int = USB_PID) -> list[str]:
    """Serial ports whose USB ids match (MicroPython Picos by default), in name order.

    Any MicroPython Pico matches the default ids; the handshake tells ours from others.
    """
    from serial.tools import list_ports  # late: only a box with the board needs pyserial

    wanted = (vendor_id, product_id)
    return sorted(info.device for info in list_ports.comports() if (info.vid, info.pid) == wanted)


READ_TIMEOUT = 0.05  # how often the reader looks up from the port to check stop and heartbeat
# On open, MicroPython's USB serial sends what it kept while no port was open (the last
# 256 bytes written: boot HELLO, old DOWN/UP lines). Wait for this much silence, and
# throw what came before it away, before the handshake; give up waiting after QUIET_MAX.
QUIET = 0.1
QUIET_MAX = 1.0
WRITE_TIMEOUT = 0.5  # a wedged port must not stall whoever calls set_led


def open_serial(port: str) -> Link:
    """Open a device path or a pyserial URL (`loop://`) the way the board needs it."""
    import serial  # late, as above

    # The baud rate means nothing to USB CDC; it matters only for a UART adapter.
    # Exclusive: a second nsdevice or a stray mpremote must not share the board.
    link: Link = serial.serial_for_url(
        port, baudrate=115200, timeout=READ_TIMEOUT, write_timeout=WRITE_TIMEOUT, exclusive=True
    )
    return link


class SerialBoard(InputDevice):
    """Edges from the Pico button board, which it finds, watches and re-finds on its own.

        board = SerialBoard(inbox)        # no port: look for a Pico by USB id
        board.start()
        board.set_led((0, 120, 0))        # kept, and sent again after a reconnect
        ...
        board.close()

    `port` names one port (or pyserial URL) instead of searching by USB id;
    `usb_vendor_id` / `usb_product_id` change the ids searched for (None: the
    board's own). `clock` stamps the edges; timeouts (handshake, heartbeat, the
    `hold_timeout` after which a held button no line confirms is let go) run on
    real time. `find_ports` and `open_port` replace the search and pyserial.
    """

    has_led = True

    def __init__(
        self,
        inbox: Inbox,
        *,
        port: str | None = None,
        clock: Callable[[], float] = time.monotonic,
        reconnect_interval: float = 0.5,
        heartbeat_timeout: float = 3.0,
        handshake_timeout: float = 1.0,
        hold_timeout: float = 1.5,
        usb_vendor_id: int | None = None,
        usb_product_id: int | None = None,
        find_ports: Callable[[], Sequence[str]] | None = None,
        open_port: Callable[[str], Link] = open_serial,
    ) -> None:
        self._inbox = inbox
        self._clock = clock
        self._reconnect_interval = reconnect_interval
        self._heartbeat_timeout = heartbeat_timeout
        self._handshake_timeout = handshake_timeout
        self._hold_timeout = hold_timeout
        if find_ports is None:
            find_ports = _port_finder(port, usb_vendor_id, usb_product_id)
        self._find_ports = find_ports
        self._open_port = open_port
        self._status = BoardStatus(BoardState.SEARCHING)
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._write_lock = threading.Lock()  # guards _link and _led across threads
        self._link: Link | None = None
        self._led: bytes | None = None
        self._mirror = BoardMirror(inbox, clock, hold_timeout)  # reader thread only
        self._said: set[tuple[str, ...]] = set()  # notices already logged, so each shows once

    # Public ------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self._status.state is BoardState.CONNECTED

    @property
    def status(self) -> BoardStatus:
        return self._status

    def start(self) -> None:
        """Start the reader thread; it keeps looking for the board until `close`."""
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="serial-board", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the reader and let go of the port; buttons still held are released."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        self._status = BoardStatus(BoardState.STOPPED)

    def set_led(self, rgb: RGB | None, *, blink: float | None = None) -> None:
        """Light the board's LED (None turns it off), steady or blinking every `blink` seconds.

        Remembered, so a board that reconnects shows it again. Asking for the colour
        already shown sends nothing, so a caller may simply ask on every screen.
        """
        command = led_command(rgb, blink)
        with self._write_lock:
            if command == self._led:
                return  # already sent, or waiting for the next connection
            self._led = command
            self._send_led()

    def __enter__(self) -> SerialBoard:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # The reader thread -------------------------------------------------------

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                self._round()
            except Exception:
                # A dead reader is a box whose buttons silently stop: log, wait, go on.
                log.exception("button board reader failed; trying again")
            self._stopping.wait(self._reconnect_interval)

    def _round(self) -> None:
        """Try each candidate port once; a board that answers is kept until it goes away."""
        try:
            ports = list(self._find_ports())
        except OSError as error:
            self._say_once(("find", str(error)), logging.WARNING, "cannot list ports: %s", error)
            ports = []
        if not ports and self._status.state is not BoardState.SEARCHING:
            self._status = BoardStatus(BoardState.SEARCHING)
        for port in ports:
            if self._stopping.is_set():
                return
            self._session(port)

    def _session(self, port: str) -> None:
        try:
            link = self._open_port(port)
        except (OSError, ValueError) as error:  # SerialException is an OSError
            # Once: a missing dialout membership must be seen, but not twice a second.
            self._say_once(("open", port, str(error)), logging.WARNING, "cannot open %s", error)
            return
        try:
            self._let_stale_tail_go(link)
            splitter = LineSplitter()
            echo = new_echo()
            hello, following = self._handshake(link, splitter, echo)
            if hello is None:
                self._say_once(("silent", port), logging.INFO, "no board answers on %s", port)
            elif hello.major != PROTOCOL_MAJOR:
                self._refuse(port, hello)
            else:
                self._mirror.connect(hello, echo)
                self._attach(port, hello, link)
                self._pump(link, splitter, following)
        except OSError as error:
            log.warning("button board on %s went away: %s", port, error)
        finally:
            self._detach(link)

    def _refuse(self, port: str, hello: Hello) -> None:
        """A board we cannot speak with: say so once, and keep trying in case it is reflashed."""
        self._status = BoardStatus(BoardState.INCOMPATIBLE, port, hello.firmware, hello.protocol)
        self._say_once(("incompatible", port, hello.protocol), logging.WARNING, "%s", self._status)

    def _let_stale_tail_go(self, link: Link) -> None:
        """Read and drop what arrives until the line is quiet for QUIET seconds.

        The board's USB buffer kept its last output from before the port was open and
        sends it now; its DOWN/UP lines are old news, not presses.
        """
        start = quiet_since = time.monotonic()
        while not self._stopping.is_set():
            data = self._read(link)
            now = time.monotonic()
            if data:
                quiet_since = now
            if now - quiet_since >= QUIET or now - start >= QUIET_MAX:
                return

    def _handshake(
        self, link: Link, splitter: LineSplitter, echo: str
    ) -> tuple[Hello | None, list[str]]:
        """Ask HELLO (twice, in case the first is lost) and wait for the board's answer:
        the HELLO that repeats our `echo` (`protocol.is_answer`); any line before it,
        however late it comes, is the stale tail.

        Returns the answer and the lines that came after it in the same read: those
        are live, and belong to the connection.
        """
        start = time.monotonic()
        asked = 0
        asking = hello_line(echo)
        while not self._stopping.is_set():
            elapsed = time.monotonic() - start
            if elapsed >= self._handshake_timeout:
                return None, []
            if asked < 2 and elapsed >= asked * self._handshake_timeout / 2:
                link.write(asking)
                asked += 1
            lines = splitter.feed(self._read(link))
            for position, line in enumerate(lines):
                hello = parse_hello(line)
                if hello is not None and is_answer(hello, echo):
                    return hello, lines[position + 1 :]
        return None, []

    def _attach(self, port: str, hello: Hello, link: Link) -> None:
        with self._write_lock:
            self._link = link
            self._status = BoardStatus(BoardState.CONNECTED, port, hello.firmware, hello.protocol)
            self._send_led()
        self._said.clear()  # after a good connection, old troubles are worth saying again
        log.info("%s", self._status)

    def _pump(self, link: Link, splitter: LineSplitter, following: list[str]) -> None:
        """Read lines until the board goes silent for heartbeat_timeout, or the port fails."""
        heard = time.monotonic()
        lines = following
        while not self._stopping.is_set():
            now = time.monotonic()
            for line in lines:
                if self._mirror.handle(line, now):
                    heard = now
            self._mirror.let_go_of_unconfirmed(now)
            echo = self._mirror.ask_again()
            if echo is not None:
                with self._write_lock:
                    link.write(hello_line(echo))
            if now - heard > self._heartbeat_timeout:
                log.warning("button board on %s fell silent", self._status.port)
                return
            lines = splitter.feed(self._read(link))

    def _detach(self, link: Link) -> None:
        with self._write_lock:
            self._link = None
            if self._status.state is BoardState.CONNECTED:
                self._status = BoardStatus(BoardState.SEARCHING)
        with contextlib.suppress(OSError):  # already gone with the cable
            link.close()
        self._mirror.release_all()

    @staticmethod
    def _read(link: Link) -> bytes:
        # At least one byte (so the read waits up to its timeout), at most what is there.
        return link.read(min(max(link.in_waiting, 1), 4 * MAX_LINE))

    # Helpers -----------------------------------------------------------------

    def _send_led(self) -> None:
        """Send the remembered LED command, if there is one and a board; caller holds the lock."""
        if self._link is None or self._led is None:
            return
        try:
            self._link.write(self._led)
        except OSError as error:
            log.debug("LED command not sent: %s", error)  # the reader notices the loss

    def _say_once(self, key: tuple[str, ...], level: int, message: str, *args: object) -> None:
        if key not in self._said:
            self._said.add(key)
            log.log(level, message, *args)


def _port_finder(
    port: str | None, vendor_id: int | None, product_id: int | None
) -> Callable[[], Sequence[str]]:
    if port is not None:
        return lambda: [port]
    vendor_id = USB_VID if vendor_id is None else vendor_id
    product_id = USB_PID if product_id is None else product_id
    return lambda: find_board_ports(vendor_id, product_id)
