"""The page's own HTTP/1.1 server (web.serving, issue 35: not uvicorn), over real sockets
on loopback with a small ASGI app of the test's; the page itself behind it: test_web_process,
test_web_doorman and the browser tests."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

from nsdevice.web.serving import Server
from tests.test_web_doorman import free_port


async def echo(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Says the request back: method, path, query, client, body; `/fail` fails, before
    or after its answer starts; `/stream` sends its body in three parts."""
    if scope["type"] == "lifespan":
        while (message := await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    body = b""
    more = True
    while more:
        message = await receive()
        body += message.get("body", b"")
        more = message.get("more_body", False)
    if scope["path"] == "/fail":
        raise RuntimeError("the test's own failure")
    start = {"type": "http.response.start", "status": 200,
             "headers": [(b"content-type", b"text/plain")]}  # fmt: skip
    if scope["path"] == "/stream":
        await send(start)
        for part in (b"one ", b"two ", b"three"):
            await send({"type": "http.response.body", "body": part, "more_body": True})
        await send({"type": "http.response.body", "body": b""})
        return
    said = f"{scope['method']} {scope['path']} {scope['query_string'].decode()} "
    said += f"{scope['client'][0]} {scope['scheme']} {body.decode()}"
    await send({**start, "headers": [*start["headers"],
                                     (b"content-length", str(len(said)).encode())]})  # fmt: skip
    await send({"type": "http.response.body", "body": said.encode()})


@contextlib.contextmanager
def serving(app: Any = echo) -> Iterator[tuple[int, Server]]:
    port = free_port()
    server = Server(app, "127.0.0.1", port)
    ended = threading.Event()
    loop = asyncio.new_event_loop()
    result: list[bool] = []

    async def run() -> None:
        result.append(await server.run(lambda: loop.run_in_executor(None, ended.wait)))

    thread = threading.Thread(target=loop.run_until_complete, args=(run(),), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and not result and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield port, server
    finally:
        ended.set()
        thread.join(10)
        assert not thread.is_alive()


def exchange(port: int, data: bytes, source: str = "127.0.0.1") -> bytes:
    """What the server sends back until it closes the connection."""
    with socket.socket() as sock:
        sock.settimeout(10)
        sock.bind((source, 0))
        sock.connect(("127.0.0.1", port))
        sock.sendall(data)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def request(path: str, extra: str = "", body: bytes = b"", method: str = "POST") -> bytes:
    head = f"{method} {path} HTTP/1.1\r\nHost: box\r\nContent-Length: {len(body)}\r\n{extra}"
    return head.encode() + b"\r\n" + body


def test_a_request_is_answered_with_its_path_query_client_and_body_and_pipelined_ones_in_turn():
    with serving() as (port, _):
        answer = exchange(port, request("/a%20b?x=1", body=b"hi")
                          + request("/next", "Connection: close\r\n"))  # fmt: skip
    first, _, second = answer.partition(b"HTTP/1.1 200 OK\r\n")[2].partition(b"HTTP/1.1 200")
    assert first.endswith(b"\r\n\r\nPOST /a b x=1 127.0.0.1 http hi")
    assert second.endswith(b"POST /next  127.0.0.1 http ")
    assert b"connection: close" in second.lower()  # said back, then closed
    assert b"server:" not in answer.lower() and b"date:" not in answer.lower()


def test_head_has_no_body_and_a_stream_is_chunked_on_1_1_and_closed_on_1_0():
    with serving() as (port, _):
        head = exchange(port, request("/x", "Connection: close\r\n", method="HEAD"))
        assert head.startswith(b"HTTP/1.1 200 OK\r\n") and head.endswith(b"\r\n\r\n")
        chunked = exchange(port, request("/stream", "Connection: close\r\n", method="GET"))
        assert b"transfer-encoding: chunked" in chunked.lower()
        assert chunked.endswith(b"4\r\none \r\n4\r\ntwo \r\n5\r\nthree\r\n0\r\n\r\n")
        old = exchange(port, b"GET /stream HTTP/1.0\r\n\r\n")
        assert b"transfer-encoding" not in old.lower()  # a 1.0 client is sent the bytes as
        assert old.endswith(b"\r\n\r\none two three")  # they are, then the connection closes


def test_an_unreadable_request_is_400_and_a_failing_app_500_and_the_server_serves_on():
    with serving() as (port, _):
        bad = exchange(port, b"NOT HTTP AT ALL\r\n\r\n")
        assert bad.startswith(b"HTTP/1.1 400 Bad Request\r\n")
        assert bad.endswith(b"Invalid HTTP request received.")
        failed = exchange(port, request("/fail"))
        assert failed.startswith(b"HTTP/1.1 500 Internal Server Error\r\n")
        assert b"connection: close" in failed.lower()
        assert failed.endswith(b"\r\n\r\n15\r\nInternal Server Error\r\n0\r\n\r\n")  # chunked
        assert b"POST /after " in exchange(port, request("/after", "Connection: close\r\n"))


def test_a_client_that_waits_for_100_continue_is_told_to_send():
    with serving() as (port, _):
        answer = exchange(port, request("/c", "Expect: 100-continue\r\nConnection: close\r\n",
                                        body=b"late"))  # fmt: skip
    assert answer.startswith(b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n")
    assert answer.endswith(b"127.0.0.1 http late")


def test_forwarded_headers_are_believed_from_the_box_itself_only():
    forwarded = "X-Forwarded-For: 10.1.2.3, 127.0.0.1\r\nX-Forwarded-Proto: https\r\n"
    with serving() as (port, _):
        own = exchange(port, request("/f", forwarded + "Connection: close\r\n"))
        other = exchange(port, request("/f", forwarded + "Connection: close\r\n"), "127.0.0.2")
    assert own.endswith(b"POST /f  10.1.2.3 https ")
    assert other.endswith(b"POST /f  127.0.0.2 http ")


def test_a_page_that_cannot_start_or_listen_says_so():
    async def refuses(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await receive()
        raise RuntimeError("no start")

    with serving(refuses) as (_, refused):
        assert not refused.started
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        busy = Server(echo, "127.0.0.1", holder.getsockname()[1])
        assert asyncio.run(busy.run(lambda: asyncio.sleep(0))) is False and not busy.started
