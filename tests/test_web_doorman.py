"""Connections that cannot starve the page (issue 22), over loopback against the real
server: half-sent requests are closed, an address has a cap, a full box makes room for
a phone, and an event stream's place is free the moment its phone goes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator

from nsdevice.inputs.events import Busy, Button, Press, QueueInbox
from nsdevice.session import Capabilities, ScreenName, Session, Settings
from nsdevice.web import stage as stage_module
from nsdevice.web.app import WATCHERS_PER_ADDRESS, make_app
from nsdevice.web.doorman import Doorman, guarded
from nsdevice.web.payload import Artwork
from nsdevice.web.serving import Server
from nsdevice.web.stage import Stage


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def served(doorman: Doorman, stage: Stage | None = None) -> Iterator[tuple[int, Session]]:
    """The page over a Tokyo game at its first round, served on loopback (web.serving)."""
    session = Session(
        Settings(city="tokyo", players=2),
        capabilities=Capabilities(phones=("http://127.0.0.1/",)),
        seed_source=lambda: "DOORMAN",
        code_source=lambda: "12345678",
    )
    while session.screen is not ScreenName.SUMMARY:
        session.press(Press(Button.MENU))
    stage = stage if stage is not None else Stage()
    stage.publish(session.table())
    port = free_port()
    app = make_app(stage, QueueInbox().put, Artwork())
    server = Server(app, "127.0.0.1", port, guarded(doorman))
    ended = threading.Event()
    loop = asyncio.new_event_loop()

    async def until_ended() -> None:
        await loop.run_in_executor(None, ended.wait)

    thread = threading.Thread(target=loop.run_until_complete, args=(server.run(until_ended),),
                              daemon=True)  # fmt: skip
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield port, session
    finally:
        stage.release()
        ended.set()
        thread.join(5)


def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.socket()
    sock.settimeout(5)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def ask(port: int, request: bytes, source: str = "127.0.0.1") -> tuple[int, bytes]:
    with connect(port, source) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return int(answer.split(b" ", 2)[1]), answer


def page(port: int) -> bytes:
    return f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()


def join(port: int) -> bytes:
    body = json.dumps({"seat": 1}).encode()
    return (
        f"POST /join HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
        f"X-Join-Code: 12345678\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body


def closed_within(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        return sock.recv(1) == b""
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def test_a_half_sent_request_is_closed_after_its_time():
    with served(Doorman(request_seconds=0.5)) as (port, _):
        headers = connect(port)
        headers.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never the blank line
        body = connect(port)
        body.sendall(join(port)[:-5])  # the body stops short of its length
        idle = connect(port)  # says nothing at all
        started = time.monotonic()
        for sock in (headers, body, idle):
            assert closed_within(sock, 3)
            sock.close()
        assert time.monotonic() - started < 3
        assert ask(port, page(port))[0] == 200


def test_an_address_has_a_cap_and_others_are_still_served():
    with served(Doorman(per_address=4)) as (port, _):
        held = [connect(port, "127.0.0.2") for _ in range(4)]
        extra = connect(port, "127.0.0.2")
        assert closed_within(extra, 2)
        assert ask(port, page(port), "127.0.0.3")[0] == 200
        for sock in held:
            sock.close()
        time.sleep(0.2)
        assert ask(port, page(port), "127.0.0.2")[0] == 200  # their places came back


def test_a_full_box_makes_room_for_a_phone_by_closing_the_longest_waiting():
    with served(Doorman(most=30, per_address=100)) as (port, _):
        held = []
        for number in range(30):
            sock = connect(port, f"127.0.1.{number + 1}")
            sock.sendall(b"GET / HTTP/1.1\r\n")  # half-sent
            held.append(sock)
        time.sleep(0.2)
        started = time.monotonic()
        assert ask(port, page(port))[0] == 200
        assert ask(port, join(port))[0] == 200
        assert time.monotonic() - started < 2
        assert closed_within(held[0], 2)  # the oldest made room
        for sock in held:
            sock.close()


def test_an_event_streams_place_is_free_the_moment_its_phone_goes():
    stream = b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    doorman = Doorman()
    with served(doorman) as (port, _):
        for _ in range(3):  # no table is published in between: nothing wakes the streams
            phones = []
            for _ in range(WATCHERS_PER_ADDRESS):
                sock = connect(port, "127.0.0.4")
                sock.sendall(stream)
                assert sock.recv(4096).startswith(b"HTTP/1.1 200")
                phones.append(sock)
            assert ask(port, stream.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n"),
                       "127.0.0.4")[0] == 503  # fmt: skip
            for sock in phones:
                sock.close()
            deadline = time.monotonic() + 2
            while doorman.total and time.monotonic() < deadline:
                time.sleep(0.02)
            assert doorman.total == 0
            time.sleep(0.1)  # the streams' own ends run on the server's loop


def read_events(sock: socket.socket, seconds: float, most: int = 1) -> int:
    """How many events arrive on a stream within `seconds` (reading stops at `most`)."""
    events, deadline = 0, time.monotonic() + seconds
    with contextlib.suppress(TimeoutError):
        while events < most and time.monotonic() < deadline:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            events += sock.recv(65536).count(b"data: ")
    return events


def test_a_table_waits_for_the_boxs_frame_before_it_fans_out(monkeypatch):
    """Issue 22: a press never waits for the interpreter behind the phones' writes: the
    fan-out starts (and goes on, slice by slice) only while the loop makes no frame."""
    monkeypatch.setattr(stage_module, "MOST_FRAME_WAIT", 30.0)  # no way round the frame
    busy = Busy()
    stage = Stage(busy)
    stream = b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    with served(Doorman(), stage) as (port, session):
        phones = []
        for number in range(3):
            sock = connect(port, f"127.0.2.{number + 1}")
            sock.sendall(stream)
            assert read_events(sock, 1.0) == 1  # the table as it is
            phones.append(sock)
        busy.start()  # a press arrived: the loop is making its frame
        session.press(Press(Button.NEXT))
        stage.publish(session.table())
        time.sleep(0.3)
        assert [read_events(sock, 0.01) for sock in phones] == [0, 0, 0]
        busy.done()  # the frame is out
        assert [read_events(sock, 2.0) for sock in phones] == [1, 1, 1]
        for sock in phones:
            sock.close()
