"""What the box and the phones' page say to each other over their socket pair (issue 32).

The page answers the phones in its own process (`web.process`), so a storm of joins never
holds the box's interpreter. They meet on one socket pair, in frames of a kind (one
byte), a length (four bytes) and a body:

- box → page: `CONFIG` (JSON: address, buttons, streams), `ARTWORK` and `TABLE` (pickled:
  the page trusts the box, its parent; a room's seats apart, pickled again only when
  they change: `TablePacker`), `TAKEN` (JSON: how many items the box has taken since the
  last one, so the page may send as many more);
- page → box: `ITEM` (JSON: a join, a sheet, a press…, checked here field by field: the
  box never unpickles what a phone's side sends), `STARTED` and `STOPPED` (JSON text).

Light on purpose: both processes import it; it imports nothing of the server.
"""

from __future__ import annotations

import json
import struct
from dataclasses import replace
from typing import Any

from nsdevice.inputs.events import (
    Abandoned,
    Button,
    Gesture,
    Item,
    Joined,
    LineSent,
    Named,
    Press,
    RoomScored,
    Scored,
)
from nsdevice.views import RoomSeat, TableView

CONFIG = b"C"
ARTWORK = b"W"
TABLE = b"T"
TAKEN = b"A"
ITEM = b"I"
STARTED = b"S"
STOPPED = b"X"

HEAD = struct.Struct(">cI")
MOST_FROM_PAGE = 4096  # bytes in one frame from the page: an item is a few hundred
MOST_FROM_BOX = 64 * 1024 * 1024  # a room's table, its artwork: far below this


class WireError(ValueError):
    """A frame the other side should never have sent."""


def frame(kind: bytes, body: bytes) -> bytes:
    return HEAD.pack(kind, len(body)) + body


try:  # CPython's own C pickler: pickle.py's pure-Python one (178 kB of objects in the box
    # and its page, issue 35) is never used here, so never loaded
    from _pickle import dumps as _dumps
    from _pickle import loads as _loads
except ImportError:  # an interpreter without it
    from pickle import dumps as _dumps
    from pickle import loads as _loads


def pickled(thing: Any) -> bytes:
    """`thing` pickled at the highest protocol (the box's frames to its page)."""
    return _dumps(thing, -1)  # a negative protocol: the highest


def unpickled(data: bytes) -> Any:
    """What `pickled` made (the page's side: the box, its parent, is trusted)."""
    return _loads(data)


class TablePacker:
    """The box's `TABLE` frames: each table pickled with its room's seats apart, and those
    pickled again only when they are another tuple (the roster keeps its seats until a
    join, a sheet or a freed seat: issue 35). A 300-seat room's seats were most of the
    pickling of every press's table, and on a caller's press they never change."""

    def __init__(self) -> None:
        self._seats: tuple[RoomSeat, ...] | None = None
        self._packed = b""

    def pack(self, number: int, table: TableView) -> bytes:
        room, seats = table.room, b""
        if room is not None and room.seats:
            if room.seats is not self._seats:
                self._seats = room.seats
                self._packed = pickled(room.seats)
            seats = self._packed
            table = replace(table, room=replace(room, seats=()))
        return frame(TABLE, pickled((number, table, seats)))


class TableUnpacker:
    """The page's side of `TablePacker`: the table whole again, the seats unpickled only
    when their bytes changed. The box is the page's parent: trusted."""

    def __init__(self) -> None:
        self._packed = b""
        self._seats: tuple[RoomSeat, ...] = ()

    def unpack(self, body: bytes) -> tuple[int, TableView]:
        number, table, seats = unpickled(body)
        if not isinstance(table, TableView):
            raise WireError(f"a table frame without a table: {type(table).__name__}")
        if seats and table.room is not None:
            if seats != self._packed:
                self._packed, self._seats = seats, unpickled(seats)
            table = replace(table, room=replace(table.room, seats=self._seats))
        return int(number), table


def said(kind: bytes, data: Any) -> bytes:
    """A frame whose body is JSON."""
    return frame(kind, json.dumps(data, separators=(",", ":")).encode())


class Frames:
    """Bytes as they arrive → whole frames; a frame longer than `most` is a WireError."""

    def __init__(self, most: int) -> None:
        self._most = most
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[tuple[bytes, bytes]]:
        self._buffer += data
        frames = []
        while len(self._buffer) >= HEAD.size:
            kind, length = HEAD.unpack_from(self._buffer)
            if length > self._most:
                raise WireError(f"a frame of {length} bytes")
            end = HEAD.size + length
            if len(self._buffer) < end:
                break
            frames.append((kind, bytes(self._buffer[HEAD.size : end])))
            del self._buffer[:end]
        return frames


# Each item the page may send, by name, with its fields in order and each field's type.
_FIELDS: dict[str, tuple[type, tuple[tuple[str, type], ...]]] = {
    "joined": (
        Joined,
        (
            ("table", int),
            ("size", int),
            ("seat", int),
            ("name", str),
            ("game", int),
            ("claim", str),
            ("leaving", tuple),
            ("ticket", int),
        ),
    ),
    "room_scored": (
        RoomScored,
        (("table", int), ("seat", int), ("total", int), ("best_line", int), ("game", int)),
    ),
    "abandoned": (Abandoned, (("table", int), ("game", int))),
    "scored": (
        Scored,
        (("seat", int), ("total", int), ("best_line", int), ("game", int), ("counts", list)),
    ),
    "line": (LineSent, (("seat", int), ("round", int), ("counts", list), ("game", int))),
    "named": (Named, (("seat", int), ("name", str), ("game", int))),
}
MOST_COUNTS = 24  # a line's counts (2 or 3), a whole sheet's (14 to 18)
_NAMES = {kind: name for name, (kind, _) in _FIELDS.items()}


def item_frame(item: Item) -> bytes:
    """The page's item for the box, as JSON."""
    if isinstance(item, Press):
        return said(ITEM, {"kind": "press", "button": item.button.value,
                           "gesture": item.gesture.value})  # fmt: skip
    name = _NAMES[type(item)]
    fields = _FIELDS[name][1]
    return said(ITEM, {"kind": name, **{field: getattr(item, field) for field, _ in fields}})


def _field(data: dict[str, Any], name: str, kind: type) -> Any:
    value = data[name]
    if kind is tuple:  # a join's `leaving`: null or [table, seat]
        if value is None:
            return None
        if (
            not isinstance(value, list)
            or len(value) != 2
            or any(type(number) is not int for number in value)
        ):
            raise WireError(f"{name} must be null or two whole numbers")
        return (value[0], value[1])
    if kind is list:  # a line's counts: a few whole numbers
        if (
            not isinstance(value, list)
            or not len(value) <= MOST_COUNTS
            or any(type(number) is not int for number in value)
        ):
            raise WireError(f"{name} must be at most {MOST_COUNTS} whole numbers")
        return tuple(value)
    if type(value) is not kind:  # a bool is not a number here
        raise WireError(f"{name} must be {kind.__name__}")
    return value


def item_of(body: bytes) -> Item:
    """The item an ITEM frame's body says; WireError when it is anything else."""
    try:
        data = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise WireError(f"not JSON ({error})") from None
    if not isinstance(data, dict):
        raise WireError("not an object")
    name = data.get("kind")
    try:
        if name == "press" and set(data) == {"kind", "button", "gesture"}:
            return Press(Button(data["button"]), Gesture(data["gesture"]))
        if not isinstance(name, str) or name not in _FIELDS:
            raise WireError(f"no item called {name!r}")
        kind, fields = _FIELDS[name]
        if set(data) != {"kind", *(field for field, _ in fields)}:
            raise WireError(f"{name} with other fields")
        item: Item = kind(*(_field(data, field, of) for field, of in fields))
        return item
    except (ValueError, TypeError) as error:
        raise WireError(str(error)) from None
