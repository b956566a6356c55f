"""The phones' page in its own process (issue 32): the box's process never holds the
page's server (a storm of joins cannot take its interpreter lock), what the page sends is
checked field by field before it becomes a box's item, a join the page answered is kept
while the box's inbox is full, and the page ends with the box, even a killed one.

Behaviour only: what the split does to press → frame under a storm is measured in
benchmarks/crowd.py --storm (docs/PERFORMANCE.md)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from nsdevice.inputs.events import (
    Abandoned,
    Busy,
    BusyMirror,
    Button,
    Dropped,
    Edge,
    Gesture,
    Item,
    Joined,
    LineSent,
    Named,
    Press,
    RoomScored,
    RoomWaiting,
    Scored,
    Stop,
    Typed,
)
from nsdevice.web.payload import Artwork
from nsdevice.web.process import ToBox
from nsdevice.web.server import WebSide
from nsdevice.web.wire import HEAD, ITEM, TABLE, Frames, WireError, frame, item_frame, item_of
from tests.test_web_browser import free_port
from tests.test_web_room_seats import room_session

ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
ROOT = Path(__file__).resolve().parent.parent
ITEMS = [
    Joined(3, 4, 2, "Zoë <b>", 7, "c" * 43, (1, 1), 12),
    Joined(99, 1, 1, "A", 1),
    RoomScored(3, 2, 61, 9, 7),
    Abandoned(5, 7),
    Scored(2, 40, 8, 3),
    Scored(2, 40, 8, 3, (5, 4, 20)),
    LineSent(2, 1, (3, 4), 7),
    Named(3, "Zoë", 7),
    Press(Button.NEXT),
    Press(Button.BACK, Gesture.HOLD),
]


def body(item_or_data: object) -> bytes:
    if isinstance(item_or_data, dict):
        return json.dumps(item_or_data).encode()
    return item_frame(item_or_data)[HEAD.size :]  # type: ignore[arg-type]


@pytest.mark.parametrize("item", ITEMS, ids=lambda item: type(item).__name__)
def test_every_item_the_page_sends_crosses_the_socket_unchanged(item):
    assert item_frame(item)[:1] == ITEM
    assert item_of(body(item)) == item


BOX_ONLY = {Edge, Stop, Typed, Dropped, RoomWaiting}  # made in the box, never by the page


def test_every_item_the_page_can_make_has_a_form_on_the_socket():
    """A new kind of item from the phones needs its fields in web.wire (or the page would
    fail to send it); one made only in the box goes in BOX_ONLY, a choice made here."""
    from typing import get_args

    from nsdevice.web import wire

    assert set(get_args(Item)) - BOX_ONLY == {*wire._NAMES, Press}
    assert {type(item) for item in ITEMS} == {*wire._NAMES, Press}  # each crosses above


JOIN = {"kind": "joined", "table": 3, "size": 4, "seat": 2, "name": "Ana", "game": 7,
        "claim": "", "leaving": None, "ticket": 1}  # fmt: skip


@pytest.mark.parametrize(
    "sent",
    [
        b"not json",
        b"\xff\xfe",
        b"[1, 2]",
        {"kind": "pickle"},
        {**JOIN, "seat": True},  # a bool is not a seat
        {**JOIN, "table": "3"},
        {**JOIN, "name": 5},
        {**JOIN, "leaving": [1, "2"]},
        {**JOIN, "leaving": [1, 2, 3]},
        {**JOIN, "extra": 1},
        {key: value for key, value in JOIN.items() if key != "ticket"},
        {"kind": "press", "button": "power", "gesture": "tap"},
        {"kind": "press", "button": "next"},
        {"kind": "scored", "seat": 1, "total": 1.5, "best_line": 1, "game": 1},
    ],
)
def test_the_box_refuses_what_the_page_should_never_send(sent):
    with pytest.raises(WireError):
        item_of(sent if isinstance(sent, bytes) else body(sent))


def test_frames_cut_anywhere_come_out_whole_and_in_order():
    sent = [(TABLE, b"x" * 1000), (ITEM, b""), (ITEM, body(ITEMS[0]))]
    data = b"".join(frame(kind, payload) for kind, payload in sent)
    frames = Frames(4096)
    heard = [whole for byte in range(len(data)) for whole in frames.feed(data[byte : byte + 1])]
    assert heard == sent


def test_a_frame_longer_than_the_bound_is_refused_before_it_is_read():
    with pytest.raises(WireError):
        Frames(100).feed(frame(ITEM, b"x" * 101)[: HEAD.size])


def test_the_pages_view_of_the_loops_busy_byte_follows_the_loop():
    busy = Busy()
    busy.start()
    mirror = BusyMirror(busy.share())  # a second mapping of the shared byte
    assert mirror.busy
    busy.done()
    assert not mirror.busy
    busy.start()
    assert mirror.busy and busy.share() == busy.share()


def test_the_page_refuses_once_the_box_has_not_taken_its_items():
    sent: list[bytes] = []
    to_box = ToBox(most=2)
    assert to_box.put(ITEMS[0]) and to_box.put(ITEMS[2])
    assert not to_box.put(ITEMS[3])  # the route answers 503: the phone tries again
    to_box.attach(sent.append)  # items put before the socket was there go first
    to_box.taken(1)
    assert to_box.put(ITEMS[3])
    assert [item_of(data[HEAD.size :]) for data in sent] == [ITEMS[0], ITEMS[2], ITEMS[3]]


def _join(port: int, code: str, address: str = "127.0.0.1") -> int:
    data = json.dumps({"name": "Ana", "table": 2, "size": 3, "seat": 1}).encode()
    request = urllib.request.Request(
        f"http://{address}:{port}/room/join", data=data, method="POST",
        headers={"X-Join-Code": code, "Content-Type": "application/json",
                 "Host": f"127.0.0.1:{port}"},
    )  # fmt: skip
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return error.code


def test_a_join_the_page_answered_reaches_the_box_after_its_inbox_was_full():
    session = room_session()
    offers: list[object] = []

    def full_at_first(item: object) -> bool:
        offers.append(item)
        return len(offers) > 3  # the first three offers find the inbox full

    web = WebSide("127.0.0.1", free_port(), full_at_first, Artwork)
    web.publish(session.table())
    web.start()
    try:
        assert web.started.wait(30), "the page did not start"
        assert web.process is not None and web.process.pid != os.getpid()
        assert _join(web.port, session.join_code) == 200
        deadline = time.monotonic() + 30
        while len(offers) < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        web.close()
    assert len(offers) == 4 and len(set(offers)) == 1
    joined = offers[0]
    assert isinstance(joined, Joined) and (joined.name, joined.table, joined.seat) == ("Ana", 2, 1)
    assert web.process.returncode == 0  # the box's close ended it


BOX = """
import sys
from nsdevice.inputs.events import QueueInbox
from nsdevice.runner.web import open_web
from nsdevice.session import Session
web = open_web(("127.0.0.1", int(sys.argv[1])), QueueInbox())
web.publish(Session().table())
web.start()
assert web.started.wait(30)
server = [m for m in ("uvicorn", "starlette", "asyncio") if m in sys.modules]
print(web.process.pid, server, flush=True)
sys.stdin.read()
"""


def test_the_pages_process_yields_to_the_box_ends_when_it_is_killed_and_never_loads_pygame():
    box = subprocess.Popen([sys.executable, "-c", BOX, str(free_port())], cwd=ROOT, env=ENV,
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert box.stdout is not None
        pid, server = box.stdout.readline().split(" ", 1)
        page = Path(f"/proc/{pid}")
        maps = (page / "maps").read_text()
        assert "pygame" not in maps and "SDL" not in maps  # the box draws the artwork
        assert server.strip() == "[]"  # the box's own process: no server, no asyncio
        # the page yields a busy processor to the caller's frames: the idle class, where
        # the box's loop takes its core the moment a press wakes it, and niced besides
        assert _stat(page)[POLICY] == os.SCHED_IDLE
        assert _stat(Path(f"/proc/{box.pid}"))[POLICY] == os.SCHED_OTHER
        # …and on one core of the box's (the last), so a press never wakes the loop there
        box_cores = _cores(Path(f"/proc/{box.pid}"))
        assert _cores(page) == ({max(box_cores)} if len(box_cores) > 1 else box_cores)
        assert _stat(page)[16] > _stat(Path(f"/proc/{box.pid}"))[16]
        box.send_signal(signal.SIGKILL)
        box.wait(30)
        deadline = time.monotonic() + 30
        while page.exists() and "Z" not in _state(page) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not page.exists() or "Z" in _state(page), "the page outlived the box"
    finally:
        box.kill()


POLICY = 38  # /proc/PID/stat's 41st field, the scheduling policy (proc(5))


def _stat(process: Path) -> list[int | str]:
    """/proc/PID/stat's fields after the name: [0] the state, [16] the niceness."""
    fields = (process / "stat").read_text().rsplit(")", 1)[1].split()
    return [int(field) if field.lstrip("-").isdigit() else field for field in fields]


def _cores(process: Path) -> set[int]:
    """The cores a process may run on, as the kernel says (any thread of it)."""
    return os.sched_getaffinity(int(process.name))


def _state(page: Path) -> str:
    try:
        return str(_stat(page)[0])
    except (OSError, IndexError):
        return "Z"


def _said(errors: list[str], deadline: float = 30) -> None:
    until = time.monotonic() + deadline
    while not errors and time.monotonic() < until:
        time.sleep(0.02)


def test_a_page_that_cannot_listen_says_so_to_the_box_which_goes_on():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        errors: list[str] = []
        session = room_session()
        web = WebSide("127.0.0.1", taken.getsockname()[1], lambda item: True, Artwork,
                      on_error=errors.append)  # fmt: skip
        web.publish(session.table())
        web.start()
        try:
            _said(errors)
        finally:
            web.close()
    assert errors and "could not start on 127.0.0.1:" in errors[0]
    assert not web.started.is_set()


def test_the_box_hears_when_its_pages_process_ends_under_it():
    errors: list[str] = []
    web = WebSide("127.0.0.1", free_port(), lambda item: True, Artwork, on_error=errors.append)
    web.publish(room_session().table())
    web.start()
    try:
        assert web.started.wait(30), "the page did not start"
        assert web.process is not None
        web.process.kill()
        _said(errors)
        web.publish(room_session().table())  # the loop goes on publishing: nothing waits
        # the sender's write into the closed socket breaks the pipe: told once, not twice
        until = time.monotonic() + 2
        while len(errors) < 2 and time.monotonic() < until:
            time.sleep(0.02)
    finally:
        web.close()
    assert errors == ["the phones' page stopped (its process ended)"]


def test_a_storm_of_acts_waits_out_a_frame_on_one_poll_not_one_each(monkeypatch):
    """While the box makes a frame, hundreds of joins waiting for it share one poll of
    the busy byte (each polling every millisecond took a core just when the frame needed
    it); a phone that goes stops its own wait only; all go on once the frame is out."""
    import asyncio

    from nsdevice.web import stage as stage_module
    from nsdevice.web.stage import Stage

    monkeypatch.setattr(stage_module, "MOST_FRAME_WAIT", 30.0)  # no way round the frame
    busy = Busy()
    mirror = BusyMirror(busy.share())
    stage = Stage(mirror)
    polls: list[int] = []
    real = stage._frame_over

    async def counted() -> None:
        polls.append(1)
        await real()

    stage._frame_over = counted  # type: ignore[method-assign]

    async def storm() -> tuple[int, int]:
        busy.start()
        waits = [asyncio.ensure_future(stage.after_frame()) for _ in range(300)]
        await asyncio.sleep(0.02)
        waits[0].cancel()  # that phone went
        await asyncio.sleep(0.01)
        waiting = sum(not wait.done() for wait in waits)
        busy.done()
        await asyncio.gather(*waits[1:])
        return waiting, len(polls)

    waiting, polled = asyncio.run(storm())
    assert (waiting, polled) == (299, 1)
    asyncio.run(stage.after_frame())  # no frame under way: no poll at all
    assert len(polls) == 1


def test_the_page_keeps_to_the_last_core_where_the_box_has_more_than_one():
    from nsdevice.web.process import page_core

    assert page_core({0, 1, 2, 3}) == 3
    assert page_core({0, 2}) == 2  # the cores the box was given, not the machine's
    assert page_core({5}) is None  # one core: nothing to keep apart
