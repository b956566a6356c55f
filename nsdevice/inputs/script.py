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

WAIT = 0.5  # how long one wait for room in a full inbox lasts before close is checked
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
        items: list[Press | Stop] = [*self._presses, Stop("script ended")]
        if self._pace <= 0:  # what fits goes in now, read by the loop after its first frame
            taken = 0
            while taken < len(items) and self._inbox.put(items[taken]):
                taken += 1
            if taken == len(items):
                return
            items = items[taken:]  # a script longer than the inbox's room waits for the loop
        threading.Thread(
            target=self._play, args=(items,), name="nsdevice-script", daemon=True
        ).start()

    def _play(self, items: list[Press | Stop]) -> None:
        for item in items:
            if self._pace > 0 and self._closed.wait(self._pace):
                return
            if not self._deliver(item):
                return

    def _deliver(self, item: Press | Stop) -> bool:
        """Put `item`, waiting while the inbox is full; False once closed."""
        while not self._closed.is_set():
            if self._inbox.put(item, wait=WAIT):
                return True
        return False

    def close(self) -> None:
        self._closed.set()
