"""The seven serial link defects of issue 13, one test each (a few have two).

Each board here is a script of bytes on a fake port: what the board's USB buffer kept
from before the port opened (sent at once on open), its answer to the host's first
HELLO, and timed lines after that. The host's edges go through a real ButtonTracker,
so a test counts presses as the session would see them. These tests use only what the
host offered before protocol 1.1, so they also run against the older code, where each
one fails. The same defects against the real firmware on real MicroPython are in
tests/test_firmware_micropython.py.
"""

from __future__ import annotations

import logging
import re
import threading
import time

import pytest

from nsdevice.inputs.events import Button, ButtonTracker, Edge, Gesture, Press, QueueInbox
from nsdevice.inputs.serial_board import SerialBoard

HELLO_10 = b"HELLO nsboard proto=1.0 fw=0.1.0 buttons=4 led=rgb\r\n"
HELLO_11 = b"HELLO nsboard proto=1.1 fw=0.2.0 buttons=4 led=rgb\r\n"
HELLO_12 = b"HELLO nsboard proto=1.2 fw=0.3.0 buttons=4 led=rgb\r\n"  # a boot line: no echo
ANSWER_12 = b"HELLO nsboard proto=1.2 fw=0.3.0 buttons=4 led=rgb echo={echo}\r\n"


USB_PACKET = 64  # a full-speed USB bulk packet: the stale tail comes in these, 1 ms apart
FLUSH_DELAY = 0.016  # MicroPython sends its kept output 16 USB frames after the port opens


class ScriptedPort:
    """A port whose board is a script: `stale` comes `flush_delay` after the open, in USB
    packets; `answer` follows the host's first HELLO (behind the stale tail when that has
    not all gone yet; `{echo}` in it becomes the host's echo= word), then each (delay
    after the answer, bytes) of `later` in turn."""

    def __init__(
        self,
        stale: bytes,
        answer: bytes,
        later: list[tuple[float, bytes]],
        flush_delay: float = FLUSH_DELAY,
    ) -> None:
        self._flush_delay = flush_delay
        self._pending = bytearray()
        self._stale = [stale[at : at + USB_PACKET] for at in range(0, len(stale), USB_PACKET)]
        self._opened_at: float | None = None  # the host's first look at the port
        self._sent_stale = 0
        self._answer = answer
        self._later = list(later)
        self._asked = False
        self._answered_at: float | None = None  # when the answer went out to the host
        self._lock = threading.Lock()
        self.written = bytearray()

    @property
    def answered_at(self) -> float | None:
        """When the answer went out to the host (None: not yet)."""
        with self._lock:
            return self._answered_at

    def _release_due(self) -> None:
        if self._opened_at is None:
            self._opened_at = time.monotonic()
        since_open = time.monotonic() - self._opened_at - self._flush_delay
        packets_due = int(since_open / 0.001) + 1 if since_open >= 0 else 0
        while self._stale and self._sent_stale < packets_due:
            self._pending += self._stale.pop(0)
            self._sent_stale += 1
            if not self._stale and self._asked and self._answered_at is None:
                self._answered_at = time.monotonic()  # the answer was the tail's last packet
        if self._answered_at is None:
            return
        while self._later and time.monotonic() >= self._answered_at + self._later[0][0]:
            self._pending += self._later.pop(0)[1]

    @property
    def in_waiting(self) -> int:
        with self._lock:
            self._release_due()
            return len(self._pending)

    def read(self, size: int = 1) -> bytes:
        deadline = time.monotonic() + 0.02  # as a port with a short timeout
        while True:
            with self._lock:
                self._release_due()
                if self._pending:
                    data = bytes(self._pending[:size])
                    del self._pending[:size]
                    return data
            if time.monotonic() >= deadline:
                return b""
            time.sleep(0.002)

    def write(self, data: bytes) -> int:
        with self._lock:
            self.written += data
            if b"HELLO" in data and not self._asked:
                self._asked = True
                asked = re.search(rb"echo=(\w+)", data)
                answer = self._answer.replace(b"{echo}", asked.group(1) if asked else b"")
                if self._stale:  # the board's answer waits behind what its buffer kept
                    self._stale.append(answer)
                else:
                    self._answered_at = time.monotonic()
                    self._pending += answer
        return len(data)

    def close(self) -> None:
        pass


class Rig:
    """A host on scripted ports (a fresh one each open), its edges and presses recorded."""

    def __init__(self, *ports: ScriptedPort, **options: float) -> None:
        self.inbox = QueueInbox()
        self.ports = list(ports)
        self.opened = 0
        self.edges: list[Edge] = []
        self.host = SerialBoard(
            self.inbox, port="scripted", open_port=self._open, reconnect_interval=0.05, **options
        )

    def _open(self, name: str) -> ScriptedPort:
        self.opened += 1
        return self.ports[min(self.opened, len(self.ports)) - 1]

    def run(self, seconds: float) -> list[Press]:
        """Run the host for `seconds` from the first port's answer (the scripts' lines are
        timed from it; a loaded machine may take its time to get there), or from the
        start when no port answers; the presses a tracker made of its edges."""
        tracker = ButtonTracker()
        presses: list[Press] = []
        self.host.start()
        start = time.monotonic()
        try:
            while time.monotonic() < (self.ports[0].answered_at or start) + seconds:
                for item in self.inbox.get(timeout=0.01):
                    assert isinstance(item, Edge)
                    self.edges.append(item)
                    presses += tracker.feed(item)
                presses += tracker.due(time.monotonic())
        finally:
            self.host.close()
        return presses

    def changes(self) -> list[tuple[Button, bool]]:
        return [(edge.button, edge.down) for edge in self.edges]


def test_defect1_presses_kept_from_before_the_port_opened_are_not_pressed() -> None:
    # The board's USB buffer kept its boot HELLO, heartbeats and a tap made while
    # nobody listened; the tap's lines come in the buffer's second USB packet.
    stale = HELLO_10 + b"BEAT 0000\r\n" * 3 + b"DOWN 0\r\nUP 0\r\nBEAT 0000\r\n"
    later = [(step * 0.3, b"BEAT 0000\r\n") for step in range(1, 5)]
    rig = Rig(ScriptedPort(stale, HELLO_10, later), clock=time.monotonic)
    presses = rig.run(1.5)
    assert presses == [] and rig.changes() == []


@pytest.mark.parametrize("flush_delay", [0.3, 0.9])
def test_a_stale_tail_that_comes_late_is_not_pressed_either(flush_delay: float) -> None:
    """The kept tail comes after the host's 100 ms of quiet and its HELLO (a slow USB
    stack): its boot HELLO repeats no echo, so it is no answer, and its tap is old news.
    A tap after the real answer is pressed."""
    stale = HELLO_12 + b"BEAT 0000\r\n" * 2 + b"DOWN 0\r\nUP 0\r\nBEAT 0000\r\n"
    later = [(0.2, b"DOWN 1\r\n"), (0.3, b"UP 1\r\n")]
    later += [(0.2 + step * 0.3, b"BEAT 0000\r\n") for step in range(1, 6)]
    port = ScriptedPort(stale, ANSWER_12, later, flush_delay=flush_delay)
    rig = Rig(port, clock=time.monotonic)
    presses = rig.run(flush_delay + 1.5)
    assert presses == [Press(Button.BACK)], rig.changes()
    assert rig.changes() == [(Button.BACK, True), (Button.BACK, False)]


def test_a_first_event_whose_down_was_lost_is_still_a_tap() -> None:
    """1.2: the BEAT right after the answer gives the count, so the connection's very
    first event (`UP 0 n=6`) shows its DOWN (n=5) lost, and the tap is made whole."""
    answer = ANSWER_12 + b"BEAT 0000 n=4 t=1000\r\n"
    later = [(0.2, b"UP 0 n=6 t=1300 s=0000\r\n")]
    later += [(0.2 + step * 0.3, b"BEAT 0000 n=6 t=" + str(1300 + 300 * step).encode() + b"\r\n")
              for step in range(1, 5)]  # fmt: skip
    rig = Rig(ScriptedPort(b"", answer, later), clock=time.monotonic)
    presses = rig.run(1.4)
    assert presses == [Press(Button.NEXT)]
    assert rig.changes() == [(Button.NEXT, True), (Button.NEXT, False)]


def test_defect2_unknown_fields_on_down_and_up_are_skipped() -> None:
    later = [(0.2, b"DOWN 0 t=123\r\n"), (0.3, b"UP 0 t=223 x=1\r\n")]
    rig = Rig(ScriptedPort(b"", HELLO_10, later))
    assert rig.run(0.8) == [Press(Button.NEXT)]


def test_defect2_unknown_fields_on_beat_keep_the_board_alive() -> None:
    later = [(step * 0.2, b"BEAT 0000 up=5\r\n") for step in range(1, 14)]
    rig = Rig(ScriptedPort(b"", HELLO_10, later), heartbeat_timeout=1.0)
    rig.run(2.6)
    assert rig.opened == 1  # never taken for silent and reopened


def test_defect2_a_beat_of_the_wrong_length_is_ignored() -> None:
    later = [
        (0.2, b"DOWN 0\r\n"),
        (0.3, b"BEAT 000\r\n"),  # a character short: it says nothing reliable
        (0.4, b"BEAT 1000\r\n"),
        (0.5, b"UP 0\r\n"),
    ]
    rig = Rig(ScriptedPort(b"", HELLO_10, later))
    assert rig.run(0.9) == [Press(Button.NEXT)]
    assert rig.changes() == [(Button.NEXT, True), (Button.NEXT, False)]


def test_defect3_taps_that_arrive_together_stay_separate_taps() -> None:
    burst = b"DOWN 0\r\nUP 0\r\n" * 17  # a whole capture's taps in one read
    rig = Rig(ScriptedPort(b"", HELLO_10, [(0.2, burst)]))
    assert rig.run(0.7) == [Press(Button.NEXT)] * 17


def test_defect3_two_taps_80ms_apart_in_one_read_are_two_taps() -> None:
    taps = b"DOWN 1 n=1 t=1000 s=0100\r\nUP 1 n=2 t=1040 s=0000\r\n"
    taps += b"DOWN 1 n=3 t=1080 s=0100\r\nUP 1 n=4 t=1120 s=0000\r\n"
    rig = Rig(ScriptedPort(b"", HELLO_11, [(0.2, taps)]))
    assert rig.run(0.7) == [Press(Button.BACK)] * 2


def test_defect4_lines_in_the_same_read_as_the_hello_answer_are_kept() -> None:
    rig = Rig(ScriptedPort(b"", HELLO_10 + b"DOWN 2\r\nUP 2\r\n", []))
    assert rig.run(0.6) == [Press(Button.MENU)]


def test_defect5_a_silent_board_lets_go_of_a_held_button_within_1_5s() -> None:
    rig = Rig(ScriptedPort(b"", HELLO_10, [(0.1, b"DOWN 1\r\n")]))
    presses = rig.run(2.2)
    assert rig.changes() == [(Button.BACK, True), (Button.BACK, False)]
    held_for = rig.edges[1].at - rig.edges[0].at
    assert 1.4 <= held_for <= 1.75, held_for
    assert presses[0] == Press(Button.BACK, Gesture.HOLD)
    # Repeats only while it was believed held: none once it was let go.
    assert all(press.gesture is Gesture.REPEAT for press in presses[1:])
    assert len(presses) <= 1 + round((1.75 - 0.8) / 0.15)


def test_defect6_a_lost_line_is_mended_at_the_next_event() -> None:
    later = [
        (0.1, b"DOWN 0 n=1 t=100 s=1000\r\n"),
        # UP 0 n=2 is lost on the wire
        (0.2, b"DOWN 1 n=3 t=300 s=0100\r\n"),
    ]
    rig = Rig(ScriptedPort(b"", HELLO_11, later))
    rig.run(0.5)  # well before any heartbeat
    assert rig.changes() == [(Button.NEXT, True), (Button.NEXT, False), (Button.BACK, True)]


def test_defect6_a_garbled_button_number_is_mended_at_once() -> None:
    # `DOWN 0` arrived as `DOWN 1`: the state word says NEXT, and NEXT it is.
    later = [(0.1, b"DOWN 1 n=1 t=100 s=1000\r\n"), (0.3, b"UP 0 n=2 t=300 s=0000\r\n")]
    rig = Rig(ScriptedPort(b"", HELLO_11, later))
    assert rig.run(0.6) == [Press(Button.NEXT)]
    assert rig.changes() == [(Button.NEXT, True), (Button.NEXT, False)]


def test_a_10_board_still_works_with_the_new_host() -> None:
    later = [
        (0.1, b"DOWN 0\r\n"),
        (0.2, b"UP 0\r\n"),
        (0.3, b"BEAT 0000\r\n"),
        (0.4, b"DOWN 2\r\n"),
        (0.5, b"BEAT 0010\r\n"),
        (1.5, b"BEAT 0010\r\n"),
        (1.6, b"UP 2\r\n"),
    ]
    port = ScriptedPort(b"", HELLO_10, later)
    rig = Rig(port)
    presses = rig.run(2.0)
    assert presses[0] == Press(Button.NEXT)
    assert presses[1] == Press(Button.MENU, Gesture.HOLD)  # held 1.2 s, confirmed by beats
    assert rig.changes()[-1] == (Button.MENU, False)
    assert rig.opened == 1


def test_a_board_that_restarts_is_asked_again_and_its_new_count_is_no_loss(
    caplog: pytest.LogCaptureFixture,
) -> None:
    later = [
        (0.1, b"DOWN 0 n=41 t=5000 s=1000\r\nUP 0 n=42 t=5100 s=0000\r\n"),
        (0.2, HELLO_11),  # unasked: the board restarted (its count and clock start again)
        (0.4, b"DOWN 2 n=1 t=80 s=0010\r\nUP 2 n=2 t=180 s=0000\r\n"),
    ]
    port = ScriptedPort(b"", HELLO_11, later)
    rig = Rig(port)
    with caplog.at_level(logging.INFO, logger="nsdevice.inputs.serial_board"):
        presses = rig.run(0.8)
    assert presses == [Press(Button.NEXT), Press(Button.MENU)]
    assert port.written.count(b"HELLO proto=1.2") == 2  # asked again after the restart
    assert not any("lost" in record.getMessage() for record in caplog.records)


def test_a_tap_whose_down_line_was_lost_is_still_one_tap() -> None:
    later = [
        (0.1, b"BEAT 0000 n=0 t=1000\r\n"),
        # DOWN 2 n=1 is lost on the wire
        (0.2, b"UP 2 n=2 t=1150 s=0000\r\n"),
    ]
    rig = Rig(ScriptedPort(b"", HELLO_11, later))
    assert rig.run(0.5) == [Press(Button.MENU)]


def test_two_taps_whose_middle_up_was_lost_stay_two_taps() -> None:
    later = [
        (0.1, b"DOWN 0 n=1 t=1000 s=1000\r\n"),
        # UP 0 n=2 is lost on the wire
        (0.2, b"DOWN 0 n=3 t=1200 s=1000\r\n"),
        (0.3, b"UP 0 n=4 t=1300 s=0000\r\n"),
    ]
    rig = Rig(ScriptedPort(b"", HELLO_11, later))
    assert rig.run(0.6) == [Press(Button.NEXT)] * 2


def test_a_line_of_spaces_is_no_line_and_keeps_the_connection() -> None:
    later = [(0.1, b"   \r\nDOWN 0\r\n \t \r\nUP 0\r\n")]
    rig = Rig(ScriptedPort(b"", HELLO_10, later))
    assert rig.run(0.5) == [Press(Button.NEXT)]
    assert rig.opened == 1
