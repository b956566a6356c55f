"""The box's tables to the page (web/wire.py, issue 35): a room's seats travel apart and
are pickled again only when the roster gives another tuple; the page puts every table
back whole, unpickling the seats only when their bytes changed."""

from __future__ import annotations

import pickle
import subprocess
import sys

import pytest

from nsdevice.inputs.events import Press
from nsdevice.session import Session, Settings
from nsdevice.web import wire
from nsdevice.web.wire import TABLE, Frames, TablePacker, TableUnpacker, WireError


def room_session(players: int = 12) -> Session:
    session = Session(Settings(language="en", room=True))
    session.deal_new_game(seed="COST")
    for number in range(players):
        table, seat = divmod(number, 4)
        assert session.join(table + 1, 4, seat + 1, f"Player {number}", f"claim-{number}")
    return session


def body(packed: bytes) -> bytes:
    ((kind, inside),) = Frames(wire.MOST_FROM_BOX).feed(packed)
    assert kind == TABLE
    return inside


def test_a_rooms_table_reaches_the_page_whole_and_its_seats_are_pickled_once(monkeypatch):
    session = room_session()
    pickled: list[object] = []
    dumps = wire.pickled
    monkeypatch.setattr(wire, "pickled", lambda data: pickled.append(data) or dumps(data))
    packer, unpacker = TablePacker(), TableUnpacker()
    first = session.table()
    assert first.room is not None and len(first.room.seats) == 12
    assert unpacker.unpack(body(packer.pack(1, first))) == (1, first)
    session.press(Press.parse("next"))  # the round starts: the seats stay as they were
    second = session.table()
    assert second != first and second.room is not None and second.room.seats is first.room.seats
    number, again = unpacker.unpack(body(packer.pack(2, second)))
    assert (number, again) == (2, second)
    seats = [data for data in pickled if isinstance(data, tuple) and data[:1] != (1,)
             and data[:1] != (2,)]  # fmt: skip
    assert seats == [first.room.seats]  # pickled once: the second table's were the same tuple


def test_a_join_sends_the_new_seats_and_a_one_table_game_goes_as_it_is():
    session = room_session(5)
    packer, unpacker = TablePacker(), TableUnpacker()
    unpacker.unpack(body(packer.pack(1, session.table())))
    assert session.join(9, 2, 1, "Late", "claim-late")
    joined = session.table()
    _, seen = unpacker.unpack(body(packer.pack(2, joined)))
    assert seen == joined and seen.room is not None
    assert [s.name for s in seen.room.seats][-1] == "Late"
    alone = Session(Settings(language="en"))
    alone.deal_new_game(seed="COST")
    assert unpacker.unpack(body(packer.pack(3, alone.table()))) == (3, alone.table())


def test_a_table_frame_without_a_table_is_refused():
    with pytest.raises(WireError):
        TableUnpacker().unpack(pickle.dumps((1, "not a table", b"")))


def test_the_frames_are_pickled_at_the_highest_protocol_without_pickle_py():
    """Issue 35: the box and its page pickle with CPython's C pickler itself, never
    loading pickle.py's pure-Python one (178 kB of objects each); the same bytes."""
    table = room_session().table()
    data = wire.pickled(table)
    assert data == pickle.dumps(table, pickle.HIGHEST_PROTOCOL)
    assert wire.unpickled(data) == table
    code = (
        "import sys, nsdevice.web.wire as w\n"
        "w.unpickled(w.pickled(1)); print('pickle' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
