"""Where the page keeps the box's latest table: a replace-latest slot.

`publish` never waits for a phone: it swaps the slot and, once the page's event loop is
there, schedules a wake-up on it. In the box the page's process publishes each table the
box sends (web.process); tests publish from their own thread. Each event stream waits on
an asyncio event, so with no change nothing runs (no polling). `busy` is the box's loop
(`Busy`, or its `BusyMirror` in the page's process): the fan-out lets a frame go first.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from nsdevice.inputs.events import Busy, BusyMirror
from nsdevice.views import TableView

if TYPE_CHECKING:  # asyncio itself is imported by the page, after the first frame
    import asyncio


FRAME_POLL = 0.001  # seconds between two looks at a loop that is making a frame
MOST_FRAME_WAIT = 0.05  # a loop busy for longer (a stuck one) does not stop the phones


class Stage:
    def __init__(self, busy: Busy | BusyMirror | None = None) -> None:
        self.busy = busy if busy is not None else Busy()
        self._lock = threading.Lock()
        self._number = 0  # counts the tables published: a stream sends each number once
        self._table: TableView | None = None
        self._first = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Event | None = None
        self._frame: asyncio.Future[None] | None = None  # the one poll for a frame's end
        self._closing = False

    def publish(self, table: TableView, number: int | None = None) -> None:
        """Replace the latest table (numbered `number`, or the next number); never blocks
        on the page. Any thread: the box's loop, or the page's own reading the box."""
        with self._lock:
            self._number = self._number + 1 if number is None else number
            self._table = table
            loop = self._loop
        self._first.set()
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake)

    def latest(self) -> tuple[int, TableView | None]:
        with self._lock:
            return self._number, self._table

    def wait_first(self, timeout: float | None = None) -> bool:
        """Wait for the first table before serving anything."""
        return self._first.wait(timeout)

    def release(self) -> None:
        """The box is closing: `wait_first` returns and every stream ends."""
        with self._lock:
            self._closing = True
            loop = self._loop
        self._first.set()
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake)

    def bind(self) -> None:
        """On the page's event loop, once: where the wake-ups go."""
        import asyncio

        self._changed = asyncio.Event()
        with self._lock:
            self._loop = asyncio.get_running_loop()

    def _wake(self) -> None:
        import asyncio

        changed, self._changed = self._changed, asyncio.Event()
        if changed is not None:
            changed.set()

    async def after_frame(self) -> None:
        """On the page's event loop: return once the loop is not making a frame (at most
        MOST_FRAME_WAIT later). A short poll, and only while a frame is under way: the
        loop's thread would otherwise have to wake this one after every frame. One poll
        for every waiter: a storm's hundreds of joins waiting out a frame must not each
        wake every millisecond, taking a core just when the frame wants one."""
        if not self.busy.busy:
            return
        import asyncio

        frame = self._frame
        if frame is None or frame.done():
            frame = self._frame = asyncio.ensure_future(self._frame_over())
        await asyncio.shield(frame)  # a phone that goes cancels its wait, not the poll

    async def _frame_over(self) -> None:
        import asyncio

        waited = 0.0
        while self.busy.busy and waited < MOST_FRAME_WAIT:
            await asyncio.sleep(FRAME_POLL)
            waited += FRAME_POLL

    async def next_after(self, seen: int) -> tuple[int, TableView] | None:
        """The first table newer than number `seen`, waiting for it if need be; None once
        the box is closing."""
        while True:
            changed = self._changed
            if self._closing:
                return None
            number, table = self.latest()
            if number != seen and table is not None:
                return number, table
            assert changed is not None, "bind() first"
            await changed.wait()
