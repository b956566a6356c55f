"""The Pico firmware's logic (firmware/board.py, firmware/main.py) run on CPython.

board.py takes its pins, LED, writer and tick from outside, so these tests hand
it the stand-ins of firmware/simulator.py and a clock they move by hand. main.py
is run once with stand-ins for MicroPython's modules, to check the wiring around
the logic.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import simulator  # firmware/simulator.py: tests/conftest.py puts firmware/ on the path
from hypothesis import given, settings
from hypothesis import strategies as st
from simulator import FakeLed, FakePin

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
fw = simulator.firmware
HELLO = "HELLO nsboard proto=1.2 fw=0.3.0 buttons=4 led=rgb"


class Rig:
    """A board with four fake buttons, a fake LED and a millisecond clock moved by hand."""

    def __init__(self, **options: int) -> None:
        self.ms = 0
        self.pins = [FakePin() for _ in range(4)]
        self.led = FakeLed()
        self.sent = bytearray()
        self.board = fw.Board(self.pins, self.led, self.sent.extend, lambda: self.ms, **options)
        self.board.boot()

    def lines(self) -> list[str]:
        """Everything the board sent since the last call, as lines without CR LF."""
        text = self.sent.decode("ascii")
        self.sent.clear()
        assert text == "" or text.endswith("\r\n")
        return text.split("\r\n")[:-1]

    def run(self, until_ms: int, step_ms: int = 1) -> None:
        while self.ms < until_ms:
            self.ms += step_ms
            self.board.tick()

    def ask(self, data: bytes) -> list[str]:
        self.lines()
        self.board.feed(data)
        return self.lines()


# Debounce ---------------------------------------------------------------------


def test_press_reports_once_after_it_settles() -> None:
    rig = Rig(settle_ms=20)
    rig.lines()
    rig.pins[1].level = 0
    rig.run(19)
    assert rig.lines() == []
    rig.run(25)
    assert rig.lines() == ["DOWN 1"]
    rig.pins[1].level = 1
    rig.run(60)
    assert rig.lines() == ["UP 1"]


def test_bouncing_contact_gives_one_down_and_one_up() -> None:
    rig = Rig(settle_ms=20)
    rig.lines()
    # A contact chattering every 3 ms for 30 ms, then held; later released with chatter too.
    for level in [0, 1] * 5:
        rig.pins[0].level = level
        rig.run(rig.ms + 3)
    rig.pins[0].level = 0
    rig.run(rig.ms + 50)
    for level in [1, 0] * 5:
        rig.pins[0].level = level
        rig.run(rig.ms + 3)
    rig.pins[0].level = 1
    rig.run(rig.ms + 50)
    assert rig.lines() == ["DOWN 0", "UP 0"]


def test_a_blip_shorter_than_settle_time_is_ignored() -> None:
    rig = Rig(settle_ms=20)
    rig.lines()
    rig.pins[2].level = 0
    rig.run(15)
    rig.pins[2].level = 1
    rig.run(100)
    assert rig.lines() == []


def test_debounce_survives_the_tick_counter_wrapping() -> None:
    # MicroPython's ticks_ms wraps; ticks_diff gives the signed distance across the wrap.
    period = 1 << 30

    def ticks_diff(later: int, earlier: int) -> int:
        return ((later - earlier + period // 2) % period) - period // 2

    debouncer = fw.Debouncer(settle_ms=20)
    start = period - 10
    assert not debouncer.update(True, start, ticks_diff)
    assert not debouncer.update(True, (start + 15) % period, ticks_diff)
    assert debouncer.update(True, (start + 20) % period, ticks_diff)
    assert debouncer.pressed


# Heartbeat ----------------------------------------------------------------------


def test_heartbeat_every_interval_carries_button_state() -> None:
    rig = Rig(heartbeat_ms=1000, settle_ms=20)
    assert rig.lines() == [HELLO]
    rig.run(999)
    assert rig.lines() == []
    rig.run(1000)
    assert rig.lines() == ["BEAT 0000"]
    rig.pins[2].level = 0
    rig.run(1999)
    assert rig.lines() == ["DOWN 2"]
    rig.run(2000)
    assert rig.lines() == ["BEAT 0010"]


def test_heartbeat_keeps_its_pace_with_a_coarse_tick() -> None:
    rig = Rig(heartbeat_ms=1000)
    rig.lines()
    rig.run(10_000, step_ms=7)
    assert rig.lines() == ["BEAT 0000"] * 9  # one a second, never two at once


# Lines from the host ------------------------------------------------------------


def test_hello_answers_with_versions_and_hardware() -> None:
    rig = Rig()
    assert rig.ask(b"HELLO\n") == [HELLO]
    assert rig.ask(b"hello 1\n") == [HELLO]


def test_terminal_line_endings_cr_and_crlf_give_one_answer_each() -> None:
    rig = Rig()
    assert rig.ask(b"LED OFF\r") == ["OK LED"]
    assert rig.ask(b"LED OFF\r\n") == ["OK LED"]
    assert rig.ask(b"\r\n\n\r   \n") == []


def test_a_line_split_across_reads_is_put_back_together() -> None:
    rig = Rig()
    assert rig.ask(b"LE") == []
    assert rig.ask(b"D 1 2") == []
    assert rig.ask(b" 3\n") == ["OK LED"]
    assert rig.led.now == (1, 2, 3)


def test_garbage_gets_an_error_and_the_next_line_still_works() -> None:
    rig = Rig()
    assert rig.ask(b"FROB 1 2\n") == ["ERR unknown FROB"]
    assert rig.ask(b"\xff\xfe\x00garbage\n") == ["ERR bad-byte"]
    assert rig.ask(b"A" * 10 + b"\n") == ["ERR unknown " + "A" * 10]
    assert rig.ask(b"LED 0 0 9\n") == ["OK LED"]


def test_ctrl_c_bytes_are_data_not_an_interrupt() -> None:
    # main.py turns off MicroPython's Ctrl-C, so 0x03 reaches the parser like any byte.
    rig = Rig()
    assert rig.ask(b"\x03\x03\n") == ["ERR bad-byte"]
    assert rig.ask(b"LED 1\x03 2 3\n") == ["ERR bad-byte"]
    assert rig.led.now == (0, 0, 0)
    assert rig.ask(b"\x03\nHELLO\n")[1].startswith("HELLO nsboard")


def test_longest_allowed_line_is_accepted() -> None:
    rig = Rig()
    line = b"LED 1 2 3".ljust(fw.MAX_LINE)
    assert len(line) == 62
    assert rig.ask(line + b"\r\n") == ["OK LED"]


def test_overlong_line_is_dropped_with_one_error() -> None:
    rig = Rig()
    line = b"LED 1 2 3".ljust(fw.MAX_LINE + 1)
    assert rig.ask(line + b"\n") == ["ERR too-long"]
    assert rig.led.now == (0, 0, 0)
    assert rig.ask(b"LED 4 5 6\n") == ["OK LED"]


def test_endless_line_never_grows_the_buffer() -> None:
    reader = fw.LineReader(fw.MAX_LINE)
    for _ in range(200):
        assert reader.feed(b"x" * 500) == []
        assert len(reader._buffer) <= fw.MAX_LINE
    assert reader.feed(b"\nHELLO\n") == [None, b"HELLO"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=80), max_size=20))
def test_any_bytes_get_only_protocol_lines_back(chunks: list[bytes]) -> None:
    rig = Rig()
    rig.lines()
    for chunk in chunks:
        rig.board.feed(chunk)
        assert len(rig.board._reader._buffer) <= fw.MAX_LINE
    for line in rig.lines():
        assert len(line) + 2 <= 64
        assert line.split(" ")[0] in {"HELLO", "OK", "ERR"}


# LED commands -------------------------------------------------------------------


def test_led_set_and_off() -> None:
    rig = Rig()
    assert rig.led.now == (0, 0, 0)  # dark from boot
    assert rig.ask(b"LED 255 0 10\n") == ["OK LED"]
    assert rig.led.now == (255, 0, 10)
    assert rig.ask(b"led off\n") == ["OK LED"]
    assert rig.led.now == (0, 0, 0)


@pytest.mark.parametrize(
    "line",
    [b"LED\n", b"LED 1 2\n", b"LED 1 2 3 4\n", b"LED 256 0 0\n", b"LED -1 0 0\n", b"LED a b c\n"],
)
def test_bad_led_arguments_change_nothing(line: bytes) -> None:
    rig = Rig()
    rig.ask(b"LED 7 7 7\n")
    assert rig.ask(line) == ["ERR bad-args LED"]
    assert rig.led.now == (7, 7, 7)


def test_blink_alternates_each_half_period_until_a_steady_colour() -> None:
    rig = Rig(heartbeat_ms=100_000)
    assert rig.ask(b"BLINK 0 0 255 200\n") == ["OK BLINK"]
    seen = []
    for _ in range(4):
        seen.append(rig.led.now)
        rig.run(rig.ms + 100)
    assert seen == [(0, 0, 255), (0, 0, 0), (0, 0, 255), (0, 0, 0)]
    rig.ask(b"LED 9 9 9\n")
    rig.run(rig.ms + 1000)
    assert rig.led.now == (9, 9, 9)


@pytest.mark.parametrize("line", [b"BLINK 1 2 3\n", b"BLINK 1 2 3 50\n", b"BLINK 1 2 3 20000\n"])
def test_bad_blink_is_refused(line: bytes) -> None:
    rig = Rig()
    assert rig.ask(line) == ["ERR bad-args BLINK"]
    assert rig.board.blink_ms == 0


def test_repl_command_ends_the_loop() -> None:
    rig = Rig()
    assert rig.ask(b"REPL\n") == ["OK REPL"]
    assert rig.board.finished


# Protocol 1.1 fields ------------------------------------------------------------


def test_event_fields_only_for_a_host_that_asks_for_them() -> None:
    rig = Rig(settle_ms=20)
    assert rig.lines() == [HELLO]
    rig.pins[0].level = 0
    rig.run(30)
    assert rig.lines() == ["DOWN 0"]  # a 1.0 host reads these lines only
    # 1.2: a BEAT right after the answer gives the count and every button at once
    assert rig.ask(b"HELLO proto=1.1\n") == [HELLO, "BEAT 1000 n=1 t=30"]
    rig.pins[0].level = 1
    rig.ms = 100
    rig.run(130)
    # n counts every event since boot; t is when the contact let go, not when it settled.
    assert rig.lines() == ["UP 0 n=2 t=101 s=0000"]
    rig.run(1030)
    assert rig.lines() == ["BEAT 0000 n=2 t=1030"]
    assert rig.ask(b"HELLO\n") == [HELLO]  # a plain HELLO: a 1.0 host again
    rig.pins[1].level = 0
    rig.run(1060)
    assert rig.lines() == ["DOWN 1"]


def test_event_counter_wraps() -> None:
    rig = Rig(settle_ms=20)
    rig.ask(b"hello PROTO=1.4\n")
    rig.board.events = fw.EVENT_MODULO - 1
    rig.pins[2].level = 0
    rig.run(30)
    assert rig.lines() == ["DOWN 2 n=0 t=1 s=0010"]


def test_a_fault_is_reported_as_its_own_line() -> None:
    rig = Rig()
    rig.lines()
    rig.board.report_fault(OSError("no"))
    assert rig.lines() == ["FAULT OSError"]


def test_hello_echo_comes_back_in_the_answer_and_a_bad_one_is_skipped() -> None:
    """1.2: the host's echo word ends the answer, so an old HELLO is never taken for it;
    the answer stays within 62 bytes."""
    rig = Rig(settle_ms=20)
    rig.lines()
    answer, beat = rig.ask(b"hello proto=1.2 echo=5c1e\n")
    assert answer == HELLO + " echo=5C1E" and len(answer) <= 62
    assert beat.startswith("BEAT 0000 n=0 t=")
    for bad in (b"echo=ABCDE", b"echo=", b"echo=A-1"):
        assert rig.ask(b"HELLO proto=1.2 " + bad + b"\n")[0] == HELLO
    assert rig.ask(b"HELLO echo=5C1E\n") == [HELLO + " echo=5C1E"]  # 1.0 lines: no BEAT
