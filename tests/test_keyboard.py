"""TerminalKeys: single characters from a stream become presses, read on a daemon thread."""

from __future__ import annotations

import io
import os
import termios
from collections.abc import Iterator

import pytest

from nsdevice.inputs.events import Button, Gesture, Item, Press, QueueInbox, Stop, Typed
from nsdevice.inputs.keyboard import KEYS, TerminalKeys, key_help

NEXT, BACK, MENU = Button.NEXT, Button.BACK, Button.MENU
END = Stop("end of keyboard input")


def read_all(text: str) -> list[Item]:
    """Everything TerminalKeys makes of `text`, up to and including its Stop."""
    inbox = QueueInbox()
    keys = TerminalKeys(inbox, io.StringIO(text))
    keys.start()
    items = collect_until_stop(inbox)
    keys.close()
    return items


def collect_until_stop(inbox: QueueInbox, timeout: float = 5.0) -> list[Item]:
    items: list[Item] = []
    while not any(isinstance(item, Stop) for item in items):
        got = inbox.get(timeout=timeout)
        assert got, f"no Stop within {timeout} s; got {items}"
        items += got
    return items


@pytest.mark.parametrize(
    ("key", "press"),
    [
        ("n", Press(NEXT)),
        (" ", Press(NEXT)),
        ("\n", Press(NEXT)),
        ("\r", Press(NEXT)),
        ("b", Press(BACK)),
        ("\x7f", Press(BACK)),
        ("\b", Press(BACK)),
        ("m", Press(MENU)),
        ("\t", Press(MENU)),
        ("N", Press(NEXT, Gesture.HOLD)),
        ("B", Press(BACK, Gesture.HOLD)),
        ("M", Press(MENU, Gesture.HOLD)),
    ],
)
def test_each_documented_key_gives_its_press(key: str, press: Press) -> None:
    assert read_all(key) == [press, END]


def test_keys_arrive_in_order_and_end_of_input_stops() -> None:
    assert read_all("nnbM") == [
        Press(NEXT),
        Press(NEXT),
        Press(BACK),
        Press(MENU, Gesture.HOLD),
        END,
    ]


def test_unknown_keys_are_ignored() -> None:
    assert read_all("x?%\x1b[Cn") == [Press(NEXT), END]


def test_digit_keys_type_a_score_digit_and_escape_sequences_never_do() -> None:
    """Ctrl-Right (ESC [ 1 ; 5 C) and F5 (ESC [ 1 5 ~) hold digits: skipped whole."""
    assert read_all("1\x1b[1;5C\x1b[15~\x1bOP-9n") == [
        Typed("1"), Typed("-"), Typed("9"), Press(NEXT), END
    ]  # fmt: skip


@pytest.mark.parametrize("quit_key", ["q", "\x04"])
def test_quit_key_stops_and_nothing_after_it_is_read(quit_key: str) -> None:
    stream = io.StringIO(f"n{quit_key}nnn")
    inbox = QueueInbox()
    keys = TerminalKeys(inbox, stream)
    keys.start()
    items = collect_until_stop(inbox)
    keys.close()
    assert items == [Press(NEXT), Stop("quit key")]
    assert stream.tell() == 2


@pytest.fixture
def pipe() -> Iterator[tuple[io.TextIOWrapper, io.TextIOWrapper]]:
    read_fd, write_fd = os.pipe()
    reader = open(read_fd, encoding="utf-8")  # noqa: SIM115 - closed below
    writer = open(write_fd, "w", encoding="utf-8")  # noqa: SIM115 - closed below
    yield reader, writer
    for stream in (writer, reader):
        if not stream.closed:
            stream.close()


def test_keys_written_to_a_pipe_arrive_as_they_are_typed(
    pipe: tuple[io.TextIOWrapper, io.TextIOWrapper],
) -> None:
    reader, writer = pipe
    inbox = QueueInbox()
    with TerminalKeys(inbox, reader):
        writer.write("n")
        writer.flush()
        assert inbox.get(timeout=5.0) == [Press(NEXT)]  # no newline needed, no waiting for more
        writer.write("B")
        writer.close()
        assert collect_until_stop(inbox) == [Press(BACK, Gesture.HOLD), END]


def test_after_close_keys_are_no_longer_passed_on(
    pipe: tuple[io.TextIOWrapper, io.TextIOWrapper],
) -> None:
    reader, writer = pipe
    inbox = QueueInbox()
    keys = TerminalKeys(inbox, reader)
    keys.start()
    keys.close()
    writer.write("nnn")
    writer.close()  # the reader wakes, sees it was closed and ends quietly
    keys._thread.join(timeout=5.0)
    assert not keys._thread.is_alive()
    assert inbox.get(timeout=0) == []


def test_a_terminal_is_put_in_cbreak_mode_and_restored_on_close() -> None:
    leader, follower = os.openpty()  # a pseudo-terminal: never the developer's own
    with open(follower, encoding="utf-8") as stream, open(leader, "wb", buffering=0) as keyboard:
        before = termios.tcgetattr(follower)
        assert before[3] & termios.ICANON and before[3] & termios.ECHO
        inbox = QueueInbox()
        keys = TerminalKeys(inbox, stream)
        keys.start()
        during = termios.tcgetattr(follower)
        assert not during[3] & (termios.ICANON | termios.ECHO)  # key by key, no echo
        keyboard.write(b"m")  # no Enter: only cbreak mode hands this over at once
        assert inbox.get(timeout=5.0) == [Press(MENU)]
        keys.close()
        assert termios.tcgetattr(follower) == before
        keys.close()  # twice is harmless


def test_key_help_documents_every_key_in_the_table() -> None:
    rows = dict((action, keys) for keys, action in key_help())
    assert rows["next"] == "n, Space, Enter"
    assert rows["back"] == "b, Backspace"
    assert rows["menu"] == "m, Tab"
    assert rows["hold:next"] == "N"
    assert rows["quit"] == "q, Ctrl-D"
    assert rows["type a score's digit"] == "0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -"
    presses = {str(item) for item in KEYS.values() if isinstance(item, Press)}
    assert len(rows) == len(presses) + 2  # and quit, and the digits


def test_a_byte_that_is_not_text_is_skipped_not_a_quit():
    """Line noise on the terminal (an invalid UTF-8 byte) costs nothing: the keys around it
    still arrive and only the end of input stops the box."""
    stream = io.TextIOWrapper(io.BytesIO(b"n\xffb\xc3(m\xe2\x82"), encoding="utf-8")
    inbox = QueueInbox()
    keys = TerminalKeys(inbox, stream)
    keys.start()
    items = collect_until_stop(inbox)
    keys.close()
    assert items == [Press(NEXT), Press(BACK), Press(MENU), END]
