"""The box's side of the phones' page: starts the page's own process and talks to it.

The page answers phones in a process of its own (`web.process`, issue 32): a storm of
joins there takes a core, never this process's interpreter lock, so the caller's frame
does not wait behind it. This side imports no asyncio, nor the page's server or routes.

- `publish` is the loop's output, after each frame: it packs the table (the loop's own
  thread, while it waits for the next input) and leaves it for the sending thread, which
  sends only the latest (a page behind skips tables, never queues them).
- The sending thread waits for the box's first frame, starts the page's process with one
  end of a socket pair and the loop's shared `Busy` byte, draws the artwork and sends it,
  then each new table and how many items the box took.
- The reading thread turns what the page sends into the box's items (checked field by
  field, `web.wire`), after any frame in the making and at most every READ_PERIOD, and
  puts them in the inbox; one the inbox refuses is tried again, so a join the page
  answered is never lost.

`close` closes the box's end: the page's process ends (it would as well if the box were
killed, its end closed by the kernel).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from nsdevice.inputs.events import Busy, Item
from nsdevice.views import TableView
from nsdevice.web.forked import Forked
from nsdevice.web.payload import Artwork
from nsdevice.web.wire import (
    ARTWORK,
    CONFIG,
    ITEM,
    MOST_FROM_PAGE,
    STARTED,
    STOPPED,
    TAKEN,
    Frames,
    TablePacker,
    WireError,
    frame,
    item_of,
    pickled,
    said,
)

if TYPE_CHECKING:
    import subprocess

DEFAULT_PORT = 8414
FIRST_FRAME_WAIT = 30.0  # seconds: a box that never draws never serves
SETTLE = 0.2  # seconds after the first frame before the page's process is started
MOST_FRAME_WAIT = 0.05  # seconds the page's items wait for a frame, at most (a stuck loop)
RETRY = 0.01  # seconds between two offers of an item a full inbox refused
CLOSE_WAIT = 3.0  # seconds the page's process has to end once its socket is closed
READ_PERIOD = 0.05  # seconds between two reads of the page's items: half a batch's period
TELL_TAKEN = 32  # items taken that are told the page at once, without waiting for a table


def parse_address(text: str) -> tuple[str, int]:
    """`[HOST:]PORT` → (host, port); ValueError naming what is wrong."""
    host, sep, port = text.rpartition(":")
    if not sep:
        host = "0.0.0.0"
    host = host.strip("[]") or "0.0.0.0"
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ValueError(f"--web wants [HOST:]PORT with a port from 1 to 65535, not {text!r}")
    return host, int(port)


class WebSide:
    def __init__(
        self,
        host: str,
        port: int,
        inbox_put: Callable[[Item], bool],
        artwork: Callable[[], Artwork],
        on_error: Callable[[str], None] = lambda message: None,
        buttons: bool = False,
        busy: Busy | None = None,
        streams: int | None = None,  # event streams open at once: None, the page's own bound
        forked: Forked | None = None,  # the page's process forked early (else spawned)
    ) -> None:
        self.host, self.port = host, port
        self._config = {"host": host, "port": port, "buttons": buttons, "streams": streams}
        self.busy = busy if busy is not None else Busy()  # the loop's: a frame goes first
        self._inbox_put = inbox_put
        self._artwork = artwork
        self._on_error = on_error
        self._changed = threading.Condition()
        self._number = 0  # tables published: the page numbers them the same
        self._packed: bytes | None = None  # the latest table's frame, not sent yet
        self._packer = TablePacker()  # a room's seats pickled again only when they change
        self._taken = 0  # items put in the inbox since the page was last told
        self._first = threading.Event()
        self._stopping = threading.Event()
        self._said_stopped = False  # the page's end is told once (`_page_stopped`)
        self._socket: socket.socket | None = None
        self._forked = forked
        self.process: subprocess.Popen[bytes] | Forked | None = None
        self.started = threading.Event()  # set once the page answers
        self._thread = threading.Thread(target=self._serve, name="nsdevice-web", daemon=True)
        self._reader = threading.Thread(target=self._read, name="nsdevice-web-items", daemon=True)

    def publish(self, table: TableView) -> None:
        """On the loop's thread, after a frame: the table packed for the page, never waiting."""
        number = self._number + 1
        packed = self._packer.pack(number, table)
        with self._changed:
            self._number, self._packed = number, packed
            self._changed.notify()
        self._first.set()

    @property
    def published(self) -> int:
        """The number of the latest table published (the page's `Stage` says the same)."""
        return self._number

    def start(self) -> None:
        self._thread.start()

    def _serve(self) -> None:
        if not self._first.wait(FIRST_FRAME_WAIT):
            return
        # The first table comes with the first frame, just before the loop tells systemd
        # it is ready: let that go first.
        if self._stopping.wait(SETTLE):
            return
        try:
            mine = self._open()
            if mine is None:
                return
            self._reader.start()
            # drawn here, not in the page's process, which then needs no pygame
            mine.sendall(frame(ARTWORK, pickled(self._artwork())))
            self._send(mine)
        except Exception as error:  # the box goes on without its page
            self._page_stopped(str(error))

    def _open(self) -> socket.socket | None:
        """The page's process, started with the other end of a new socket pair (or the
        one forked early, told to serve)."""
        shared = self.busy.share()
        if self._forked is not None:
            with self._changed:  # `close` either comes first, or finds the process to end
                if self._stopping.is_set():
                    return None
                mine = self._forked.go(shared)
                self.process, self._socket = self._forked, mine
            mine.sendall(said(CONFIG, self._config))
            return mine
        mine, theirs = socket.socketpair()
        package = str(Path(__file__).resolve().parents[2])  # where `nsdevice` is found
        path = os.environ.get("PYTHONPATH")
        environment = {**os.environ, "PYTHONPATH": package + (os.pathsep + path if path else "")}
        environment.pop("NOTIFY_SOCKET", None)  # systemd hears the box alone (NotifyAccess=main)
        command = [sys.executable, "-m", "nsdevice.web.process", str(theirs.fileno()), str(shared)]
        with self._changed:  # `close` either comes first, or finds the process to end
            if self._stopping.is_set():
                mine.close()
                theirs.close()
                return None
            import subprocess  # only to spawn: a forked page (`web.forked`) needs none

            try:
                # stdout is the box's (`--display json` writes its screens there): the
                # page writes nothing but its log lines, which go to stderr as the box's
                self.process = subprocess.Popen(
                    command, pass_fds=(theirs.fileno(), shared), stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL, env=environment,
                )  # fmt: skip
            finally:
                theirs.close()
            self._socket = mine
        mine.sendall(said(CONFIG, self._config))
        return mine

    def _send(self, mine: socket.socket) -> None:
        """The latest table and the items taken, whenever there are new ones."""
        while True:
            with self._changed:
                while not self._stopping.is_set() and self._packed is None and not self._taken:
                    self._changed.wait()
                if self._stopping.is_set():
                    return
                packed, self._packed = self._packed, None
                taken, self._taken = self._taken, 0
            if taken:
                mine.sendall(said(TAKEN, taken))
            if packed is not None:
                mine.sendall(packed)

    def _read(self) -> None:
        """What the page sends, until its end closes."""
        assert self._socket is not None
        frames = Frames(MOST_FROM_PAGE)
        try:
            while data := self._socket.recv(1 << 16):
                self.busy.wait(MOST_FRAME_WAIT)  # a frame in the making goes first
                taken = 0
                for kind, body in frames.feed(data):
                    taken += self._heard(kind, body)
                if taken:
                    with self._changed:
                        self._taken += taken
                        # told with the next table (a batch's, at most ROOM_PERIOD away),
                        # or at once when many wait: not a wake-up of the sender per join
                        if self._taken >= TELL_TAKEN:
                            self._changed.notify()
                # The loop takes the room's items in batches anyway: waking for each
                # phone's join would only give a storm more turns at the interpreter lock
                # (each a chance to be descheduled holding it while a frame waits).
                if self._stopping.wait(READ_PERIOD):
                    return
        except (OSError, WireError) as error:
            self._page_stopped(str(error))
            return
        if self.started.is_set():
            self._page_stopped("its process ended")

    def _page_stopped(self, reason: str) -> None:
        """Say once that the page stopped, whichever of the two threads sees it first (the
        reader hears the socket close; the sender's next write then breaks the pipe)."""
        with self._changed:
            if self._stopping.is_set() or self._said_stopped:
                return
            self._said_stopped = True
        self._on_error(f"the phones' page stopped ({reason})")

    def _heard(self, kind: bytes, body: bytes) -> int:
        """One frame from the page; the number of items put in the inbox (0 or 1)."""
        if kind == STARTED:
            self.started.set()
        elif kind == STOPPED:
            self._on_error(str(json.loads(body)))
        elif kind == ITEM:
            try:
                item = item_of(body)
            except WireError as error:
                print(f"nsdevice: the page sent an item the box refused ({error})",
                      file=sys.stderr)  # fmt: skip
                return 1  # counted all the same: the page may send another
            while not self._inbox_put(item):  # the page answered 200: the box keeps it
                if self._stopping.wait(RETRY):
                    return 0
            return 1
        return 0

    def close(self) -> None:
        with self._changed:
            self._stopping.set()
            self._first.set()  # a thread still waiting for the first frame
            self._changed.notify()
        if self._socket is not None:
            with contextlib.suppress(OSError):
                self._socket.shutdown(socket.SHUT_RDWR)  # the page's end reads its close
        for thread in (self._thread, self._reader):
            if thread.is_alive():
                thread.join(timeout=CLOSE_WAIT)
        if self._forked is not None and self.process is None:
            self._forked.close()  # never told to serve: its end closes, it ends
            self.process = self._forked
        if self.process is not None:
            import subprocess

            try:
                self.process.wait(CLOSE_WAIT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self._socket is not None:
            self._socket.close()
