"""The button board's logic: debounce, the line protocol, events and heartbeats.

Pure logic with no hardware import, so this one file runs on the Pico under
MicroPython and on a PC under CPython in the tests. main.py hands it the button
pins, an LED, a function that writes bytes to the host and a millisecond tick.

Keep to the Python both share: no f-strings, no typing, no dataclasses, no
bytearray tricks that need optional MicroPython features. PROTOCOL.md beside
this file is the contract; change both together.
"""

PROTOCOL_MAJOR = 1
PROTOCOL_MINOR = 2
FIRMWARE_VERSION = "0.3.0"
BOARD_NAME = "nsboard"

# Longest line content either side may send, terminator excluded. With CR LF a
# line is never more than 64 bytes, which fits one USB full-speed packet.
MAX_LINE = 62
SETTLE_MS = 20  # a reading must hold this long to count: longer than any switch bounce
HEARTBEAT_MS = 1000
BLINK_MIN_MS = 100
BLINK_MAX_MS = 10000
# Protocol 1.1 fields: the event counter wraps here, and board times are sent modulo
# 2**30 ms, the period of MicroPython's ticks_ms, so every port sends the same numbers.
EVENT_MODULO = 65536
TICKS_MASK = 0x3FFFFFFF
FAULT_NAME_MAX = 24
ECHO_MAX = 4  # characters of HELLO's ECHO= repeated in the answer (1.2): within 62 bytes
_ECHO_CHARACTERS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

LED_RGB = "rgb"
LED_MONO = "mono"
LED_NONE = "none"

_CR = 13
_LF = 10


def _plain_diff(later, earlier):
    """ticks_diff for a tick that never wraps (the tests' fake clock)."""
    return later - earlier


class Debouncer:
    """One button's settled state: a change counts once the raw reading holds for settle_ms."""

    def __init__(self, settle_ms=SETTLE_MS):
        self.settle_ms = settle_ms
        self.pressed = False
        self.changed_at = 0  # tick the settled state's reading began: the real moment of the edge
        self._raw = False
        self._since = 0

    def update(self, raw_pressed, now, ticks_diff=_plain_diff):
        """Feed one reading taken at tick `now`; True when the settled state just changed."""
        if raw_pressed != self._raw:
            # Any flicker restarts the wait, so a bouncing contact never reports.
            self._raw = raw_pressed
            self._since = now
            return False
        if raw_pressed != self.pressed and ticks_diff(now, self._since) >= self.settle_ms:
            self.pressed = raw_pressed
            self.changed_at = self._since
            return True
        return False


class LineReader:
    """Splits incoming bytes into lines, never holding more than max_len bytes.

    A line ends at LF or at CR (terminals send CR for Enter); the empty line a
    CR LF pair leaves behind is skipped. `feed` returns the finished lines as
    bytes, with None standing for a line that grew past max_len: its bytes were
    dropped as they came and nothing of it is kept.
    """

    def __init__(self, max_len=MAX_LINE):
        self.max_len = max_len
        self._buffer = bytearray()
        self._overlong = False

    def feed(self, data):
        lines = []
        for byte in data:
            if byte in (_LF, _CR):
                if self._overlong:
                    lines.append(None)
                elif len(self._buffer):
                    lines.append(bytes(self._buffer))
                self._buffer = bytearray()
                self._overlong = False
            elif self._overlong:
                continue
            elif len(self._buffer) >= self.max_len:
                self._buffer = bytearray()
                self._overlong = True
            else:
                self._buffer.append(byte)
        return lines


def _is_printable(line):
    return all(0x20 <= byte <= 0x7E for byte in line)


def _parse_number(word, low, high):
    """A plain decimal within [low, high], or None: no sign, no spaces, at most 5 digits."""
    if not word or len(word) > 5:
        return None
    for char in word:
        if char not in "0123456789":
            return None
    value = int(word)
    if value < low or value > high:
        return None
    return value


def _asks_events_with_fields(arguments):
    """Whether HELLO's words ask for the 1.1 event fields: PROTO=1.m with m >= 1."""
    for word in arguments:
        if word.startswith("PROTO=1."):
            minor = _parse_number(word[8:], 0, 99999)
            return minor is not None and minor >= 1
    return False


def _echo_word(arguments):
    """HELLO's ECHO=WORD (1.2): 1 to 4 letters or digits to repeat in the answer, or None."""
    for word in arguments:
        if word.startswith("ECHO="):
            value = word[5:]
            if 0 < len(value) <= ECHO_MAX and all(char in _ECHO_CHARACTERS for char in value):
                return value
            return None
    return None


def _parse_colour(words):
    if len(words) != 3:
        return None
    colour = []
    for word in words:
        value = _parse_number(word, 0, 255)
        if value is None:
            return None
        colour.append(value)
    return (colour[0], colour[1], colour[2])


class Board:
    """The whole board: call `boot` once, then `feed` bytes from the host and `tick` often.

    pins: objects with value(), 0 while pressed (wired to GND, pulled up).
    led: an object with show(r, g, b) and a `kind` of "rgb", "mono" or "none".
    write: called with the bytes of each outgoing line.
    ticks_ms / ticks_diff: time.ticks_ms and time.ticks_diff on the Pico.
    """

    def __init__(
        self,
        pins,
        led,
        write,
        ticks_ms,
        ticks_diff=_plain_diff,
        settle_ms=SETTLE_MS,
        heartbeat_ms=HEARTBEAT_MS,
    ):
        self.pins = pins
        self.led = led
        self._write = write
        self._ticks_ms = ticks_ms
        self._ticks_diff = ticks_diff
        self._heartbeat_ms = heartbeat_ms
        self._debouncers = [Debouncer(settle_ms) for _ in pins]
        self._reader = LineReader(MAX_LINE)
        self._last_beat = 0
        self.colour = (0, 0, 0)  # what the host asked for
        self.blink_ms = 0  # 0: steady
        self._lit = False  # whether the LED shows `colour` right now (blink phase)
        self._blink_since = 0
        self.finished = False  # the host asked to leave for the REPL
        self.events = 0  # DOWN and UP lines sent since boot, modulo EVENT_MODULO
        # Whether the host asked for 1.1 fields (HELLO proto=1.1): a 1.0 host reads
        # `DOWN 0` only, so it gets the plain lines it knows.
        self.with_fields = False
        self._beat_due = False  # a BEAT right after the answer to HELLO proto=1.1 or later

    # Outgoing ---------------------------------------------------------------

    def send(self, text):
        # CR LF so a plain serial terminal shows tidy lines; the host ignores the CR.
        self._write((text + "\r\n").encode())

    def hello_line(self):
        return (
            "HELLO "
            + BOARD_NAME
            + " proto="
            + str(PROTOCOL_MAJOR)
            + "."
            + str(PROTOCOL_MINOR)
            + " fw="
            + FIRMWARE_VERSION
            + " buttons="
            + str(len(self.pins))
            + " led="
            + self.led.kind
        )

    def state_word(self):
        """One character a button, index 0 first: 1 pressed, 0 released."""
        return "".join("1" if debouncer.pressed else "0" for debouncer in self._debouncers)

    # Driving ----------------------------------------------------------------

    def boot(self):
        """Dark LED and an unasked HELLO, so a host already listening learns who we are."""
        now = self._ticks_ms()
        self._last_beat = now
        self._show(False)
        self.send(self.hello_line())

    def tick(self):
        """Read the buttons, report settled changes, and keep heartbeat and blink on time."""
        now = self._ticks_ms()
        for index in range(len(self.pins)):
            debouncer = self._debouncers[index]
            raw_pressed = self.pins[index].value() == 0
            if debouncer.update(raw_pressed, now, self._ticks_diff):
                self._send_event(index, debouncer)
        if self._ticks_diff(now, self._last_beat) >= self._heartbeat_ms:
            self._beat(now)
        if self.blink_ms and self._ticks_diff(now, self._blink_since) >= self.blink_ms // 2:
            self._blink_since = now
            self._show(not self._lit)

    def _beat(self, now):
        self._last_beat = now
        beat = "BEAT " + self.state_word()
        if self.with_fields:
            beat += " n=" + str(self.events) + " t=" + str(now & TICKS_MASK)
        self.send(beat)

    def _send_event(self, index, debouncer):
        self.events = (self.events + 1) % EVENT_MODULO
        line = ("DOWN " if debouncer.pressed else "UP ") + str(index)
        if self.with_fields:
            # n: lets the host see a lost line; t: when the contact changed, so the host
            # need not debounce again; s: every button after this edge, to mend at once.
            line += (
                " n="
                + str(self.events)
                + " t="
                + str(debouncer.changed_at & TICKS_MASK)
                + " s="
                + self.state_word()
            )
        self.send(line)

    def report_fault(self, error):
        """Tell the host the loop caught `error` and carries on (main.py calls this)."""
        self.send("FAULT " + type(error).__name__[:FAULT_NAME_MAX])

    def feed(self, data):
        """Take bytes from the host; every complete line gets its answer at once."""
        for line in self._reader.feed(data):
            reply = self.handle(line)
            if reply:
                self.send(reply)
            if self._beat_due:
                # 1.2: the host learns the event count and every button at once, so even
                # the first event of the connection shows a line lost before it.
                self._beat_due = False
                self._beat(self._ticks_ms())

    # Commands ---------------------------------------------------------------

    def handle(self, line):
        """The reply to one line (None for a blank one); never raises on bad input."""
        if line is None:
            return "ERR too-long"
        if not _is_printable(line):
            return "ERR bad-byte"
        words = line.decode().split()
        if not words:
            return None
        command = words[0].upper()
        arguments = [word.upper() for word in words[1:]]
        if command == "HELLO":
            # Other words after HELLO are for later versions and are skipped.
            self.with_fields = _asks_events_with_fields(arguments)
            self._beat_due = self.with_fields
            echo = _echo_word(arguments)
            # 1.2: the host's ECHO= word comes back, so it can tell this answer from an
            # old HELLO kept in the USB buffer while no program had the port open.
            return self.hello_line() + (" echo=" + echo if echo else "")
        if command == "LED":
            return self._led(arguments)
        if command == "BLINK":
            return self._blink(arguments)
        if command == "REPL":
            self.finished = True
            return "OK REPL"
        return "ERR unknown " + command[:16]

    def _led(self, arguments):
        if arguments == ["OFF"]:
            self._set_light((0, 0, 0), 0)
            return "OK LED"
        colour = _parse_colour(arguments)
        if colour is None:
            return "ERR bad-args LED"
        self._set_light(colour, 0)
        return "OK LED"

    def _blink(self, arguments):
        colour = _parse_colour(arguments[:3])
        period = None
        if len(arguments) == 4:
            period = _parse_number(arguments[3], BLINK_MIN_MS, BLINK_MAX_MS)
        if colour is None or period is None:
            return "ERR bad-args BLINK"
        self._set_light(colour, period)
        return "OK BLINK"

    # The LED ----------------------------------------------------------------

    def _set_light(self, colour, blink_ms):
        self.colour = colour
        self.blink_ms = blink_ms
        self._blink_since = self._ticks_ms()
        self._show(True)

    def _show(self, lit):
        self._lit = lit
        if lit:
            self.led.show(self.colour[0], self.colour[1], self.colour[2])
        else:
            self.led.show(0, 0, 0)
