"""The terminal as a keypad, for runs with no window (over SSH, text display).

A terminal sends characters, not key-down and key-up, so there is no timing to
tell a tap from a hold: upper-case letters stand for holds instead. On the score
entry and the score sheet the digit keys (and `-`) set the digit under the cursor
directly. The pygame window reads its own keys; this is only for the terminal.
"""

from __future__ import annotations

import atexit
import codecs
import contextlib
import logging
import sys
import threading
from collections.abc import Iterator
from types import MappingProxyType
from typing import Any, TextIO

from nsdevice.inputs.device import InputDevice
from nsdevice.inputs.events import Button, Gesture, Inbox, Item, Press, Stop, Typed

log = logging.getLogger(__name__)
UNREADABLE = "\ufffd"  # what a byte that is not text decodes to

# The key table, as data so the README can be generated from it. Backspace arrives
# as DEL on most terminals and as ^H on some; Enter as \n, or \r where ICRNL is off.
# The keys named in the terminal's footer and on its labels, one per button.
KEY_LABELS = (("next", "n"), ("back", "b"), ("menu", "m"))
KEYS: MappingProxyType[str, Press | Stop | Typed] = MappingProxyType(
    {
        "n": Press(Button.NEXT),
        " ": Press(Button.NEXT),
        "\n": Press(Button.NEXT),
        "\r": Press(Button.NEXT),
        "b": Press(Button.BACK),
        "\x7f": Press(Button.BACK),
        "\b": Press(Button.BACK),
        "m": Press(Button.MENU),
        "\t": Press(Button.MENU),
        "N": Press(Button.NEXT, Gesture.HOLD),
        "B": Press(Button.BACK, Gesture.HOLD),
        "M": Press(Button.MENU, Gesture.HOLD),
        **{digit: Typed(digit) for digit in "0123456789-"},  # the score entry's digits
        "q": Stop("quit key"),
        "\x04": Stop("quit key"),  # Ctrl-D: cbreak mode reads it as a plain character
    }
)

KEY_NAMES = MappingProxyType(
    {" ": "Space", "\n": "Enter", "\r": "Enter", "\x7f": "Backspace", "\b": "Backspace",
     "\t": "Tab", "\x04": "Ctrl-D"}
)  # fmt: skip


def key_help() -> list[tuple[str, str]]:
    """(keys, action) rows for documentation, e.g. ("n, Space, Enter", "next")."""
    rows: dict[str, list[str]] = {}
    for key, item in KEYS.items():
        if isinstance(item, Typed):
            action = "type a score's digit"
        else:
            action = str(item) if isinstance(item, Press) else "quit"
        name = KEY_NAMES.get(key, key)
        if name not in rows.setdefault(action, []):
            rows[action].append(name)
    return [(", ".join(names), action) for action, names in rows.items()]


class TerminalKeys(InputDevice):
    """Reads single characters from `stream` on a daemon thread and puts presses in `inbox`.

    When `stream` is a terminal it is put in cbreak mode (keys arrive one at a
    time, without echo) and restored by `close()`, or at exit if nobody closed it.
    End of input puts a `Stop`.
    """

    key_labels = KEY_LABELS

    def __init__(self, inbox: Inbox, stream: TextIO = sys.stdin) -> None:
        self._inbox = inbox
        self._stream = stream
        self._saved_mode: list[Any] | None = None  # termios.tcgetattr's attributes
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._read, name="terminal-keys", daemon=True)

    def start(self) -> None:
        self._enter_cbreak()
        self._thread.start()

    def close(self) -> None:
        """Stop passing keys on and give the terminal back as it was. Safe to call twice."""
        self._closed.set()
        self._restore_mode()

    def __enter__(self) -> TerminalKeys:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _read(self) -> None:
        escape = ""  # an arrow or function key's sequence being skipped: ESC, ESC [, ESC O
        for key in self._characters():
            if self._closed.is_set():
                return
            if key == UNREADABLE:
                log.warning("skipped a key press that is not text (a byte of line noise?)")
                continue
            # Such a sequence can hold digits (Ctrl-Right is ESC [ 1 ; 5 C): skip it whole,
            # so that it never types a score's digit.
            if key == "\x1b":
                escape = key
                continue
            if escape == "\x1b" and key in "[O":
                escape += key
                continue
            if escape and escape != "\x1b":
                if "@" <= key <= "~":  # the sequence's last character
                    escape = ""
                continue
            escape = ""
            item = KEYS.get(key)
            if item is not None:
                self._deliver(item)
            if isinstance(item, Stop):
                return
        self._deliver(Stop("end of keyboard input"))

    def _deliver(self, item: Item) -> None:
        """Put `item`, waiting while the inbox is full (a key is never dropped), until closed."""
        while not self._closed.is_set() and not self._inbox.put(item, wait=0.5):
            pass

    def _characters(self) -> Iterator[str]:
        """The stream's characters until its end. Bytes are decoded here, one at a time, so
        a byte that is not text (line noise, another code page) becomes one UNREADABLE
        character instead of an error that would end the input."""
        raw = getattr(self._stream, "buffer", None)
        encoding = getattr(self._stream, "encoding", None) or "utf-8"
        decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        while not self._closed.is_set():
            try:
                if raw is None:
                    chunk = self._stream.read(1)
                else:
                    byte = raw.read(1)
                    chunk = decoder.decode(byte) if byte else ""
                    if not byte:
                        return
            except (OSError, ValueError):  # the terminal went away, or was closed
                return
            if not chunk and raw is None:
                return
            yield from chunk

    def _enter_cbreak(self) -> None:
        try:
            if not self._stream.isatty():
                return
            import termios
            import tty

            fd = self._stream.fileno()
            self._saved_mode = termios.tcgetattr(fd)
            tty.setcbreak(fd)
        except (ImportError, OSError, ValueError, AttributeError):
            return  # not a terminal we can drive (Windows, a closed stream): read it as it is
        atexit.register(self._restore_mode)

    def _restore_mode(self) -> None:
        saved, self._saved_mode = self._saved_mode, None
        if saved is None:
            return
        atexit.unregister(self._restore_mode)
        import termios

        with contextlib.suppress(OSError, ValueError):  # a terminal that is gone needs no restoring
            termios.tcsetattr(self._stream.fileno(), termios.TCSADRAIN, saved)
