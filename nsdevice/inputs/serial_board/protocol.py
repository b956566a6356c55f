"""The button board's line protocol, host side: pure, with no port and no thread.

Bytes become lines (`LineSplitter`), the board's answer is recognised (`parse_hello`,
`is_answer`), and `BoardMirror` keeps the host's picture of the board's buttons from its
lines, mending what a lost line took away, and hands each change to the inbox as an
already-debounced `Edge`. firmware/PROTOCOL.md is the contract this file speaks;
`port.py` owns the serial port and the thread that feeds this.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Sequence
from enum import StrEnum

from nsdevice.inputs.events import Button, Edge, Inbox
from nsdevice.rules.frozen import dataclass

log = logging.getLogger("nsdevice.inputs.serial_board")

PROTOCOL_MAJOR = 1  # the board's major version must equal this one
PROTOCOL_MINOR = 2  # asked for in HELLO: a 1.1 board adds its event fields, 1.2 the echo
ECHO_FROM = 2  # the minor version from which a board repeats HELLO's echo= word
BOARD_NAME = "nsboard"
MAX_LINE = 62  # longest line content the protocol allows, terminator excluded
BUTTONS_BY_INDEX = (Button.NEXT, Button.BACK, Button.MENU)  # index 3 is a spare: ignored
EVENT_MODULO = 65536  # the board's event counter `n=` wraps here
TICKS_PERIOD = 1 << 30  # the board's times `t=` are milliseconds modulo this
# How much faster the board's clock may run than ours (ppm-level crystals, with room):
# the offset between the clocks may creep up by this much a second of board time.
CLOCK_DRIFT = 0.001
# A release the host makes up when the board goes away waits this long for room in a
# full inbox: a button must never stay held because a flood filled it.
RELEASE_WAIT = 1.0

RGB = tuple[int, int, int]


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
    """The board's HELLO line."""

    protocol: str
    major: int
    firmware: str
    buttons: int
    led: str
    minor: int = 0
    echo: str | None = None  # the host's echo= word, in an answer from a 1.2 board


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
        minor=int(minor[:5]),
        echo=fields.get("echo"),
    )


def new_echo() -> str:
    """A fresh echo= word for one HELLO: four capital hex digits (the board upper-cases)."""
    return secrets.token_hex(2).upper()


def hello_line(echo: str) -> bytes:
    # The leading LF ends any half line the board holds from before.
    return f"\nHELLO proto={PROTOCOL_MAJOR}.{PROTOCOL_MINOR} echo={echo}\n".encode()


def is_answer(hello: Hello, echo: str) -> bool:
    """Whether a HELLO line answers the HELLO we sent with `echo`.

    A board of 1.2 or later repeats the word, so an old HELLO kept in its USB buffer (the
    boot line, or the answer to an earlier connection) is told apart however late it
    comes. An older board cannot: any HELLO from it is taken, as before. A board of
    another major version is taken too, to be refused by its version.
    """
    if hello.major != PROTOCOL_MAJOR or hello.minor < ECHO_FROM:
        return True
    return hello.echo == echo


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


class BoardMirror:
    """The host's picture of the board's buttons, kept from its lines.

    Each change goes to the inbox as a debounced `Edge`. When the inbox refuses one (it is
    full: a flood), the picture stays as it was, so the next line that shows the board's
    state (its `s=` word, the next `BEAT`) sends the change again: no button is left held
    and no release is lost, and the flood costs no memory.
    """

    def __init__(self, inbox: Inbox, clock: Callable[[], float], hold_timeout: float) -> None:
        self._inbox = inbox
        self._clock = clock
        self._hold_timeout = hold_timeout
        self.held: set[Button] = set()
        self._confirmed: dict[Button, float] = {}  # held button → when a line last said so
        self.link = _LinkState(buttons=0, echo="")  # per connection

    def connect(self, hello: Hello, echo: str) -> None:
        """A new connection: its button count and event count start afresh."""
        self.link = _LinkState(buttons=hello.buttons, echo=echo)

    def handle(self, line: str, now: float) -> bool:
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

    def ask_again(self) -> str | None:
        """The echo word of a HELLO to send now (the board restarted), or None."""
        if not self.link.ask:
            return None
        self.link.ask = False
        self.link.answer_due = True
        self.link.echo = new_echo()
        return self.link.echo

    def _hello(self, line: str) -> bool:
        """A HELLO we did not ask for: the board restarted, with a new count and clock,
        and back at 1.0 lines until asked again (`ask_again`)."""
        hello = parse_hello(line)
        if hello is None:
            return False
        if hello.echo is not None and hello.echo == self.link.echo:
            self.link.answer_due = False  # an answer to us (perhaps to the second asking)
        elif self.link.answer_due and is_answer(hello, self.link.echo):
            self.link.answer_due = False
        else:
            log.info("button board restarted")
            self.link = _LinkState(buttons=hello.buttons, echo=self.link.echo)
            self.link.ask = True
        return True

    def _event(self, index: int, down: bool, fields: dict[str, str], now: float) -> None:
        """A DOWN or UP line, mended at once with the 1.1 fields.

        One line lost (the count skips one) before an edge the host already has can
        only have been that button's other edge: it is made up, so a tap whose DOWN was
        lost is still a tap. Anything else that leaves the host disagreeing with the
        line's state word (more lines lost, a garbled button number) is settled by
        taking the state word, without acting on the doubtful event.
        """
        link = self.link
        at = link.stamp(fields.get("t"), self._clock())
        expected = link.next_event()
        count = _parse_count(fields.get("n"))
        if count is not None:
            link.last_event = count
        lost = 0 if count is None or expected is None else (count - expected) % EVENT_MODULO
        button = BUTTONS_BY_INDEX[index] if index < len(BUTTONS_BY_INDEX) else None
        made_up = lost == 1 and button is not None and down == (button in self.held)
        state = fields.get("s")
        if state is not None and link.valid_state(state):
            after = set(self.held)
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
        link = self.link
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
        if down == (button in self.held):
            return  # nothing changed: a repeat, or a heartbeat agreeing with us
        if not self._inbox.put(Edge(button, down, at, debounced=True)):
            return  # the inbox is full: unchanged, so the board's next state line resends it
        if down:
            self.held.add(button)
        else:
            self.held.discard(button)
            self._confirmed.pop(button, None)

    def let_go_of_unconfirmed(self, now: float) -> None:
        """A held button no line has confirmed for hold_timeout is let go: the board
        beats every second, so its silence must not hold (and repeat) a press for long."""
        for button in sorted(self.held):
            if now - self._confirmed.get(button, now) > self._hold_timeout:
                log.warning("button board stopped confirming %s held: releasing it", button)
                self._set_button(button, False, self._clock(), now)

    def release_all(self) -> None:
        """Let go of every held button, so a pulled cable never leaves one stuck down."""
        for button in sorted(self.held):
            self._inbox.put(Edge(button, False, self._clock(), debounced=True), RELEASE_WAIT)
        self.held.clear()
        self._confirmed.clear()


def _parse_index(word: str) -> int | None:
    return int(word) if word.isdigit() and len(word) <= 2 else None


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

    def __init__(self, buttons: int, echo: str) -> None:
        self.buttons = buttons  # from HELLO; 0: unknown, any length goes
        self.echo = echo  # the echo= word of our last HELLO
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
