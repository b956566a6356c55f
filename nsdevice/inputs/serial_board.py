"""The USB button board: a Raspberry Pi Pico that reports its buttons over a serial line.

The board debounces on its own (firmware/board.py), so this back end only turns
its `DOWN`/`UP` lines into already-debounced `Edge`s, stamped with the board's own
times when it sends them (protocol 1.1). A daemon thread owns the port: it finds
the board, lets the stale tail the board's USB buffer kept go by, checks its
protocol version, reads lines and, when the cable is pulled or the heartbeat stops,
releases every button still held and starts looking again. firmware/PROTOCOL.md is
the contract this file speaks.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from nsdevice.inputs.device import InputDevice
from nsdevice.inputs.events import Button, Edge, Inbox

log = logging.getLogger(__name__)

PROTOCOL_MAJOR = 1  # the board's major version must equal this one
PROTOCOL_MINOR = 1  # asked for in HELLO, so a 1.1 board adds its event fields
BOARD_NAME = "nsboard"
MAX_LINE = 62  # longest line content the protocol allows, terminator excluded
USB_VID = 0x2E8A  # Raspberry Pi
USB_PID = 0x0005  # MicroPython's own id for RP2 boards (Pico, Pico W)
BUTTONS_BY_INDEX = (Button.NEXT, Button.BACK, Button.MENU)  # index 3 is a spare: ignored
EVENT_MODULO = 65536  # the board's event counter `n=` wraps here
TICKS_PERIOD = 1 << 30  # the board's times `t=` are milliseconds modulo this
# How much faster the board's clock may run than ours (ppm-level crystals, with room):
# the offset between the clocks may creep up by this much a second of board time.
CLOCK_DRIFT = 0.001

RGB = tuple[int, int, int]


class Link(Protocol):
    """What the reader needs of a port: the part of pyserial's `Serial` it uses."""

    in_waiting: int

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def close(self) -> None: ...


class BoardState(StrEnum):
    SEARCHING = "searching"  # no board answering yet, or it went away
    CONNECTED = "connected"
    INCOMPATIBLE = "incompatible"  # a board answered with a protocol we do not speak
    STOPPED = "stopped"


@dataclass(frozen=True, slots=True)
class BoardStatus:
    """Where the board stands, for a notice on screen or in the log."""

    state: BoardState
    port: str | None = None
    firmware: str | None = None
    protocol: str | None = None

    def __str__(self) -> str:
        if self.state is BoardState.CONNECTED:
            return f"button board on {self.port} (firmware {self.firmware})"
        if self.state is BoardState.INCOMPATIBLE:
            return (
                f"button board on {self.port} speaks protocol {self.protocol}, "
                f"this nsdevice speaks {PROTOCOL_MAJOR}.x: flash its firmware from this version"
            )
        if self.state is BoardState.STOPPED:
            return "button board stopped"
        return "looking for the button board"


@dataclass(frozen=True, slots=True)
class Hello:
    """The board's answer to HELLO."""

    protocol: str
    major: int
    firmware: str
    buttons: int
    led: str


def parse_hello(line: str) -> Hello | None:
    """`HELLO nsboard proto=1.0 fw=… buttons=4 led=rgb` → Hello; None for anything else.

    Unknown fields are skipped so a later minor version can add some.
    """
    words = line.split()
    if len(words) < 2 or words[0] != "HELLO" or words[1] != BOARD_NAME:
        return None
    fields = dict(word.partition("=")[::2] for word in words[2:])
    major, _, minor = fields.get("proto", "").partition(".")
    if not (major.isdigit() and minor.isdigit()):
        return None
    buttons = fields.get("buttons", "")
    return Hello(
        protocol=f"{major}.{minor}",
        major=int(major),
        firmware=fields.get("fw", "?"),
        buttons=int(buttons) if buttons.isdigit() else 0,
        led=fields.get("led", "none"),
    )


class LineSplitter:
    """Bytes in, complete lines out, never holding more than `max_len` bytes.

    A line ends at LF or CR. A line longer than `max_len`, or one with a byte
    that is not printable ASCII, is dropped whole and counted in `dropped`.
    """

    def __init__(self, max_len: int = MAX_LINE) -> None:
        self.max_len = max_len
        self.dropped = 0
        self._buffer = bytearray()
        self._overlong = False

    def feed(self, data: bytes) -> list[str]:
        *complete, rest = data.replace(b"\r", b"\n").split(b"\n")
        lines = [line for line in map(self._finish, complete) if line]
        self._hold(rest)
        return lines

    def _finish(self, tail: bytes) -> str | None:
        whole = bytes(self._buffer) + tail
        overlong = self._overlong or len(whole) > self.max_len
        self._buffer.clear()
        self._overlong = False
        if overlong or not _is_printable(whole):
            self.dropped += 1
            return None
        return whole.decode("ascii")

    def _hold(self, part: bytes) -> None:
        if self._overlong:
            return
        if len(self._buffer) + len(part) > self.max_len:
            self._buffer.clear()  # the rest of this line is dropped as it comes
            self._overlong = True
            return
        self._buffer += part


def _is_printable(line: bytes) -> bool:
    return all(0x20 <= byte <= 0x7E for byte in line)


def led_command(rgb: RGB | None, blink: float | None = None) -> bytes:
    """The protocol line for an LED colour (None: off), steady or blinking every `blink` s."""
    if rgb is None:
        return b"LED OFF\n"
    if len(rgb) != 3 or not all(isinstance(c, int) and 0 <= c <= 255 for c in rgb):
        raise ValueError(f"LED colour must be three integers 0-255, not {rgb!r}")
    red, green, blue = rgb
    if blink is None:
        return f"LED {red} {green} {blue}\n".encode()
    period_ms = round(blink * 1000)
    if not 100 <= period_ms <= 10_000:
        raise ValueError(f"LED blink period must be 0.1-10 s, not {blink!r}")
    return f"BLINK {red} {green} {blue} {period_ms}\n".encode()


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
        self._held: set[Button] = set()  # reader thread only, as the three below
        self._confirmed: dict[Button, float] = {}  # held button → when a line last said so
        self._link_state = _LinkState(buttons=0)  # per connection
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
            hello, following = self._handshake(link, splitter)
            if hello is None:
                self._say_once(("silent", port), logging.INFO, "no board answers on %s", port)
            elif hello.major != PROTOCOL_MAJOR:
                self._refuse(port, hello)
            else:
                self._link_state = _LinkState(buttons=hello.buttons)
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

    def _handshake(self, link: Link, splitter: LineSplitter) -> tuple[Hello | None, list[str]]:
        """Ask HELLO (twice, in case the first is lost) and wait for a board's answer.

        Returns the answer and the lines that came after it in the same read: those
        are live, and belong to the connection.
        """
        start = time.monotonic()
        asked = 0
        hello_line = _hello_line()
        while not self._stopping.is_set():
            elapsed = time.monotonic() - start
            if elapsed >= self._handshake_timeout:
                return None, []
            if asked < 2 and elapsed >= asked * self._handshake_timeout / 2:
                link.write(hello_line)
                asked += 1
            lines = splitter.feed(self._read(link))
            for position, line in enumerate(lines):
                hello = parse_hello(line)
                if hello is not None:
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
                if self._handle(line, now):
                    heard = now
            self._let_go_of_unconfirmed(now)
            if self._link_state.ask:
                with self._write_lock:
                    link.write(_hello_line())
                self._link_state.ask = False
                self._link_state.answer_due = True
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
        self._release_all()

    @staticmethod
    def _read(link: Link) -> bytes:
        # At least one byte (so the read waits up to its timeout), at most what is there.
        return link.read(min(max(link.in_waiting, 1), 4 * MAX_LINE))

    # Lines from the board ----------------------------------------------------

    def _handle(self, line: str, now: float) -> bool:
        """Act on one line; True when it was a line of the protocol (the board is alive).

        `now` is real time, for the hold check. Fields a later 1.x adds are skipped.
        """
        if not line.split():
            return False  # spaces only: not a line of the protocol
        word, *words = line.split()
        fields = _fields(words[1:])
        if word in ("DOWN", "UP"):
            index = _parse_index(words[0]) if words else None
            if index is None:
                return False
            self._event(index, word == "DOWN", fields, now)
            return True
        if word == "BEAT":
            return bool(words) and self._beat(words[0], fields, now)
        if word == "HELLO":
            return self._hello(line)
        if word in ("OK", "ERR"):
            if word == "ERR":
                log.debug("button board answered %r", line)
            return True
        if word == "FAULT":
            log.warning("button board caught a fault and carried on: %s", " ".join(words))
            return True
        log.debug("ignored line from button board: %r", line)
        return False

    def _hello(self, line: str) -> bool:
        """A HELLO we did not ask for: the board restarted, with a new count and clock,
        and back at 1.0 lines until asked again (the pump asks)."""
        hello = parse_hello(line)
        if hello is None:
            return False
        if self._link_state.answer_due:
            self._link_state.answer_due = False
        else:
            log.info("button board restarted")
            self._link_state = _LinkState(buttons=hello.buttons)
            self._link_state.ask = True
        return True

    def _event(self, index: int, down: bool, fields: dict[str, str], now: float) -> None:
        """A DOWN or UP line, mended at once with the 1.1 fields.

        One line lost (the count skips one) before an edge the host already has can
        only have been that button's other edge: it is made up, so a tap whose DOWN was
        lost is still a tap. Anything else that leaves the host disagreeing with the
        line's state word (more lines lost, a garbled button number) is settled by
        taking the state word, without acting on the doubtful event.
        """
        link = self._link_state
        at = link.stamp(fields.get("t"), self._clock())
        expected = link.next_event()
        count = _parse_count(fields.get("n"))
        if count is not None:
            link.last_event = count
        lost = 0 if count is None or expected is None else (count - expected) % EVENT_MODULO
        button = BUTTONS_BY_INDEX[index] if index < len(BUTTONS_BY_INDEX) else None
        made_up = lost == 1 and button is not None and down == (button in self._held)
        state = fields.get("s")
        if state is not None and link.valid_state(state):
            after = set(self._held)
            if button is not None:
                (after.add if down else after.discard)(button)
            if after != _held_in(state):
                log.info("button board line lost or garbled before %r: mending", fields)
                self._take_state(state, at, now)
                return
        if lost:
            log.info("button board lost %d line(s) before %r", lost, fields)
        if button is not None:
            if made_up:
                self._set_button(button, not down, at, now)
            self._set_button(button, down, at, now)

    def _beat(self, state: str, fields: dict[str, str], now: float) -> bool:
        """A heartbeat carries every button's state: mend any edge a lost line took away."""
        link = self._link_state
        if not link.valid_state(state):
            return False
        link.stamp(fields.get("t"), self._clock())  # keeps the two clocks' offset fresh
        count = _parse_count(fields.get("n"))
        if count is not None:
            if link.last_event is not None and count != link.last_event:
                log.info("button board events %s..%s were lost: mending", link.last_event, count)
            link.last_event = count
        self._take_state(state, self._clock(), now)
        return True

    def _take_state(self, state: str, at: float, now: float) -> None:
        held = _held_in(state)
        for button in BUTTONS_BY_INDEX:
            self._set_button(button, button in held, at, now)

    def _set_button(self, button: Button, down: bool, at: float, now: float) -> None:
        if down:
            self._confirmed[button] = now  # the board just said it is held
        if down == (button in self._held):
            return  # nothing changed: a repeat, or a heartbeat agreeing with us
        if down:
            self._held.add(button)
        else:
            self._held.discard(button)
            self._confirmed.pop(button, None)
        self._inbox.put(Edge(button, down, at, debounced=True))

    def _let_go_of_unconfirmed(self, now: float) -> None:
        """A held button no line has confirmed for hold_timeout is let go: the board
        beats every second, so its silence must not hold (and repeat) a press for long."""
        for button in sorted(self._held):
            if now - self._confirmed.get(button, now) > self._hold_timeout:
                log.warning("button board stopped confirming %s held: releasing it", button)
                self._set_button(button, False, self._clock(), now)

    def _release_all(self) -> None:
        """Let go of every held button, so a pulled cable never leaves one stuck down."""
        for button in sorted(self._held):
            self._inbox.put(Edge(button, False, self._clock(), debounced=True))
        self._held.clear()
        self._confirmed.clear()

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


def _parse_index(word: str) -> int | None:
    return int(word) if word.isdigit() and len(word) <= 2 else None


def _hello_line() -> bytes:
    # The leading LF ends any half line the board holds from before.
    return f"\nHELLO proto={PROTOCOL_MAJOR}.{PROTOCOL_MINOR}\n".encode()


def _parse_count(word: str | None) -> int | None:
    if word is None or not word.isdigit() or len(word) > 5:
        return None
    value = int(word)
    return value if value < EVENT_MODULO else None


def _fields(words: Sequence[str]) -> dict[str, str]:
    """`key=value` words as a dict; other words (from a later 1.x) are skipped."""
    return dict(word.split("=", 1) for word in words if "=" in word)


def _held_in(state: str) -> set[Button]:
    return {button for button, char in zip(BUTTONS_BY_INDEX, state, strict=False) if char == "1"}


class _LinkState:
    """What the reader knows of one connection: the button count, the last event
    number, and how the board's clock maps onto ours. Reader thread only."""

    def __init__(self, buttons: int) -> None:
        self.buttons = buttons  # from HELLO; 0: unknown, any length goes
        self.ask = False  # the board restarted: ask HELLO again, for the 1.1 fields
        self.answer_due = False  # we asked: the next HELLO is the answer, not a restart
        self.last_event: int | None = None
        self._ticks: int | None = None  # the last board time seen, as sent
        self._board = 0.0  # board seconds since the first time seen, unwrapped
        self._offset: float | None = None  # our clock minus the board's

    def next_event(self) -> int | None:
        return None if self.last_event is None else (self.last_event + 1) % EVENT_MODULO

    def valid_state(self, state: str) -> bool:
        if not state or any(char not in "01" for char in state):
            return False
        return self.buttons == 0 or len(state) == self.buttons

    def stamp(self, ticks_word: str | None, arrival: float) -> float:
        """Our clock's time for a board time, or `arrival` when the line has none.

        The offset is the smallest arrival-minus-board gap seen (the least delayed
        line), allowed to creep up by CLOCK_DRIFT, so a stamp is never after arrival.
        """
        if ticks_word is None or not ticks_word.isdigit() or len(ticks_word) > 10:
            return arrival
        ticks = int(ticks_word) % TICKS_PERIOD
        if self._ticks is not None:
            step = (ticks - self._ticks) % TICKS_PERIOD
            if step >= TICKS_PERIOD // 2:
                step -= TICKS_PERIOD  # an event stamped before the last heartbeat
            previous = self._board
            self._board += step / 1000
        else:
            previous = self._board
        self._ticks = ticks
        gap = arrival - self._board
        if self._offset is None:
            self._offset = gap
        else:
            crept = self._offset + CLOCK_DRIFT * max(0.0, self._board - previous)
            self._offset = min(gap, crept)
        return self._board + self._offset
