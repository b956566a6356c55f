"""Scripted presses: replay a fixed list of keys, for end-to-end tests and demos.

`--keys next,next,back,hold:menu` becomes presses fed to the loop exactly as a
player's would be, then a `Stop` so the run ends by itself.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable

from nsdevice.inputs.device import InputDevice
from nsdevice.inputs.events import Inbox, Press, Stop

# Commas or whitespace separate words; spaces around a colon belong to the word.
_SEPARATORS = re.compile(r"[\s,]+")
_COLON = re.compile(r"\s*:\s*")


def parse_keys(text: str) -> list[Press]:
    """`next, next, back, hold:menu, tap:next` → presses; ValueError naming the bad word."""
    words = [word for word in _SEPARATORS.split(_COLON.sub(":", text)) if word]
    presses = []
    for position, word in enumerate(words, start=1):
        try:
            presses.append(Press.parse(word))
        except ValueError:
            raise ValueError(
                f"unknown key {word!r} (word {position}): use next, back or menu, "
                "optionally as tap:, hold: or repeat:"
            ) from None
    return presses


class ScriptInput(InputDevice):
    """Puts every press, then `Stop("script ended")`, into the inbox on `start()`.

    With `pace` (seconds, `--pace`) the presses come one by one that far apart, from a
    thread, as a player's would: a watcher (the phones' page) then sees every card."""

    def __init__(self, presses: Iterable[Press], inbox: Inbox, pace: float = 0.0) -> None:
        self._presses = tuple(presses)
        self._inbox = inbox
        self._pace = pace
        self._closed = threading.Event()

    def start(self) -> None:
        if self._pace <= 0:
            self._play()
        else:
            threading.Thread(target=self._play, name="nsdevice-script", daemon=True).start()

    def _play(self) -> None:
        for press in self._presses:
            if self._pace > 0 and self._closed.wait(self._pace):
                return
            self._inbox.put(press)
        if self._pace > 0 and self._closed.wait(self._pace):
            return
        self._inbox.put(Stop("script ended"))

    def close(self) -> None:
        self._closed.set()
