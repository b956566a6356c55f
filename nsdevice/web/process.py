"""The phones' page in its own process (issue 32): `python -m nsdevice.web.process SOCKET BUSY`.

The box (`web.server.WebSide`) starts it after its first frame, with one end of a socket
pair (`SOCKET`, a file descriptor) and the loop's shared `Busy` byte (`BUSY`). Over the
socket (`web.wire`) it reads the page's settings, the box's artwork and each new table,
and sends back the phones' joins, sheets and presses; the box says how many it has taken,
so no more than `MOST_IN_FLIGHT` wait between the two (past that a phone is answered 503
and tries again, as with a full inbox). Serving a storm of phones here takes a core, never
the box's interpreter lock: the box's process imports no asyncio, nor the page's server or routes.
And it takes only the processor time the box leaves (`yield_processor`: Linux's idle
class, `NICENESS` besides): a press wakes the box's loop onto a core the page was using at
once, never after the page's time slice (the page also waits while the loop makes a
frame: `Stage.after_frame`, `Gate`). It serves on one core alone (`page_core`), so the
loop is never woken onto the page's core.

It ends when the box's end of the socket closes: the box closing, or killed outright.
Ctrl-C in a terminal reaches the whole process group; the page leaves its end to the box.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sys
from collections.abc import Sequence
from typing import Any

from nsdevice.inputs.events import BusyMirror, Item
from nsdevice.inputs.room_inbox import ROOM_BOUND
from nsdevice.web.payload import Artwork
from nsdevice.web.wire import (
    ARTWORK,
    CONFIG,
    MOST_FROM_BOX,
    STARTED,
    STOPPED,
    TABLE,
    TAKEN,
    Frames,
    TableUnpacker,
    item_frame,
    said,
    unpickled,
)

# Items sent that the box has not taken yet: past this, 503. A whole room's seats, as the
# box's own RoomInbox takes: a whole room joining at once is never refused for room.
MOST_IN_FLIGHT = ROOM_BOUND
# The page's priority where the idle class is refused (0 is the box's, 19 the least): a
# storm of phones takes what the caller's frames leave, never a core a frame waits for.
NICENESS = 10


class ToBox:
    """The page's `inbox_put`: an item goes to the box at once, never waiting; False when
    `MOST_IN_FLIGHT` are on their way already (the box's inbox is full)."""

    def __init__(self, most: int = MOST_IN_FLIGHT) -> None:
        self.most = most
        self.in_flight = 0
        self._write: Any = None  # the socket's asyncio transport's write, once attached
        self._waiting: list[bytes] = []  # items put before it was

    def attach(self, write: Any) -> None:
        self._write = write
        for data in self._waiting:
            write(data)
        self._waiting.clear()

    def put(self, item: Item) -> bool:
        if self.in_flight >= self.most:
            return False
        self.in_flight += 1
        data = item_frame(item)
        if self._write is None:
            self._waiting.append(data)
        else:
            self._write(data)
        return True

    def taken(self, count: int) -> None:
        self.in_flight = max(0, self.in_flight - count)


def opening(
    connection: socket.socket, frames: Frames
) -> tuple[dict[str, Any], Artwork, list[tuple[bytes, bytes]]]:
    """Read, waiting, what the page needs before it serves: its settings, the artwork and
    a table; with the other frames that came in the same reads (a part of one stays in
    `frames`). EOFError: the box went."""
    config: dict[str, Any] | None = None
    artwork: Artwork | None = None
    later: list[tuple[bytes, bytes]] = []
    while config is None or artwork is None or not any(kind == TABLE for kind, _ in later):
        data = connection.recv(1 << 20)
        if not data:
            raise EOFError("the box closed the page's socket")
        for kind, body in frames.feed(data):
            if kind == CONFIG:
                config = json.loads(body)
            elif kind == ARTWORK:
                artwork = unpickled(body)  # the box, this process's parent: trusted
            else:
                later.append((kind, body))
    return config, artwork, later


def serve(connection: socket.socket, busy: BusyMirror) -> int:
    """Serve the page until the box's end of `connection` closes."""
    frames = Frames(MOST_FROM_BOX)
    try:
        config, artwork, later = opening(connection, frames)
    except EOFError:
        return 0
    from nsdevice.imports import lean_asyncio, without_openssl

    without_openssl()  # (the forked page has it from the box already)
    lean_asyncio()  # no `ssl` (plain HTTP), no subprocess
    import asyncio

    from nsdevice.web.app import MOST_WATCHERS, make_app
    from nsdevice.web.doorman import Doorman, guarded, raise_file_limit
    from nsdevice.web.guard import own_names
    from nsdevice.web.serving import Server
    from nsdevice.web.stage import Stage

    host, port = str(config["host"]), int(config["port"])
    stage = Stage(busy)
    to_box = ToBox()

    tables = TableUnpacker()

    def heard(kind: bytes, body: bytes) -> None:
        if kind == TABLE:
            number, table = tables.unpack(body)
            stage.publish(table, number)
        elif kind == TAKEN:
            to_box.taken(int(json.loads(body)))

    for kind, body in later:
        heard(kind, body)

    class FromBox(asyncio.Protocol):
        """The box's end of the socket, once the page serves: tables and what it took."""

        def __init__(self, gone: asyncio.Event) -> None:
            self.gone = gone

        def data_received(self, data: bytes) -> None:
            for kind, body in frames.feed(data):
                heard(kind, body)

        def connection_lost(self, exc: Exception | None) -> None:
            self.gone.set()

    async def until_the_box_goes() -> None:
        """Serving, tell the box; then wait for its end to close (an idle page wakes for
        nothing)."""
        gone = asyncio.Event()
        loop = asyncio.get_running_loop()
        transport, _ = await loop.create_unix_connection(lambda: FromBox(gone), sock=connection)
        to_box.attach(transport.write)
        transport.write(said(STARTED, f"{host}:{port}"))
        await gone.wait()

    # Connections are counted and timed out by the doorman (web.doorman)
    doorman = Doorman(raise_file_limit())
    names = own_names([host] if host not in ("0.0.0.0", "::") else [])
    streams = config.get("streams")
    app = make_app(
        stage, to_box.put, artwork, bool(config["buttons"]), None, names,
        streams=int(streams) if streams is not None else MOST_WATCHERS,
    )  # fmt: skip
    server = Server(app, host, port, guarded(doorman))
    failure: BaseException | None = None
    try:
        served = asyncio.run(server.run(until_the_box_goes))
    except Exception as error:
        served, failure = False, error
    if served:
        return 0
    why = (
        f"the phones' page could not start on {host}:{port}"
        if not server.started
        else f"the phones' page stopped ({failure})"
    )
    with contextlib.suppress(OSError):
        connection.sendall(said(STOPPED, why))
    return 1


def yield_processor() -> None:
    """Take only the processor time the box leaves: the idle class where Linux has it
    (the box's loop, woken by a press, takes a core from the page at once, where a nice
    page could keep it for the rest of its slice), else a lower priority; and one core
    alone (`page_core`)."""
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    with contextlib.suppress(OSError, AttributeError):  # (AttributeError: not Linux)
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    with contextlib.suppress(OSError, AttributeError):
        cores = os.sched_getaffinity(0)
        if (core := page_core(cores)) is not None:
            os.sched_setaffinity(0, {core})


def page_core(cores: set[int]) -> int | None:
    """The one core the page serves on where the box has more than one: the last. Linux
    counts a core running only idle-class work as free and may wake the box's loop there,
    yet the loop can then wait for the page to give the core up until the next tick (3 to
    5 ms a press in a join storm, seen with `perf sched` on a kernel without forced
    preemption); on its own core the page leaves the box the others. With one core there
    is nothing to keep apart."""
    return max(cores) if len(cores) > 1 else None


def forked(connection: socket.socket, busy: int) -> int:
    """Serve in a process forked from the box (`web.forked`), told to by the box."""
    yield_processor()
    return serve(connection, BusyMirror(busy))


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if len(arguments) != 2 or not all(argument.isdigit() for argument in arguments):
        print("nsdevice.web.process: the box starts it with SOCKET BUSY (file descriptors)",
              file=sys.stderr)  # fmt: skip
        return 2
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the box's to handle
    yield_processor()
    connection = socket.socket(fileno=int(arguments[0]))
    return serve(connection, BusyMirror(int(arguments[1])))


if __name__ == "__main__":
    sys.exit(main())
