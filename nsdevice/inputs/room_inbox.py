"""The phones' joins, renames, sheets and tables left, apart from the buttons' inbox.

A room of phones can send thousands of joins in seconds. Were they items of the buttons'
inbox, they would fill it (the box's own presses refused) and each would cost the loop a
frame and a save before the next press. Here they wait in their own bounded list; the
buttons' inbox gets one `RoomWaiting` at a time, only to wake the loop, which takes them
all at once (`take`) as one batch: one frame and one save for the lot, after any press.
"""

from __future__ import annotations

import threading

from nsdevice.inputs.events import Abandoned, Inbox, Joined, RoomScored, RoomWaiting

RoomItem = Joined | RoomScored | Abandoned

# Every seat of a full room (rules.room.MOST_TABLES tables of four) fits in one batch,
# so a whole room joining at once is never refused for room; more waits for the next.
ROOM_BOUND = 400


class RoomInbox:
    """Thread-safe: the page `put`s, the loop `take`s. Bounded by `bound` items."""

    def __init__(self, wake: Inbox, bound: int = ROOM_BOUND) -> None:
        self._wake = wake
        self._bound = bound
        self._lock = threading.Lock()
        self._items: list[RoomItem] = []
        self._told = False  # a RoomWaiting is in the buttons' inbox and not yet taken

    def put(self, item: RoomItem) -> bool:
        """Keep `item` for the loop's next batch; False (never waits) when full."""
        with self._lock:
            if len(self._items) >= self._bound:
                return False
            self._items.append(item)
            tell, self._told = not self._told, True
        # A full buttons' inbox refuses the wake-up: its own items wake the loop, which
        # looks here after them, so nothing is lost; the next put tries again.
        if tell and not self._wake.put(RoomWaiting()):
            with self._lock:
                self._told = False
        return True

    def take(self) -> list[RoomItem]:
        """Everything waiting, oldest first; the next put wakes the loop again."""
        with self._lock:
            items, self._items, self._told = self._items, [], False
        return items

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)
