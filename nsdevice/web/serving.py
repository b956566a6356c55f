"""The page's HTTP/1.1 server (issue 35): asyncio and h11, without uvicorn.

uvicorn's config, server, protocol, lifespan and loop modules were 0.7 MB of the page's
memory at the end of a judged run; the page needs one protocol (HTTP/1.1 over h11), one
listening address, the ASGI lifespan and a graceful end. This serves an ASGI app as uvicorn's h11
protocol did, message for message:
- a request's scope (path unquoted, query, headers lowercased, client and server), its
  body as it comes (reading pauses past `HIGH_WATER` bytes not taken), `100 Continue`
  when a client waits for it, `http.disconnect` once the phone goes or the answer is sent;
- the answer framed by h11 (a length, or chunks when the app streams), no body for HEAD,
  `Connection: close` echoed; a request h11 cannot read is answered 400 and closed;
- an app that fails before its answer starts: 500, the error on stderr, the connection
  serving on; after it: the connection closed;
- keep-alive: an idle connection is closed `KEEP_ALIVE` seconds after its last answer;
- `X-Forwarded-For` and `X-Forwarded-Proto` are believed from the box itself (loopback)
  only, as uvicorn's default: the tests' browsers play several phones so;
- at the end: no new connection, idle ones closed, answers under way given `GRACE`
  seconds, then the lifespan's shutdown.
There is no `Server` header (uvicorn named itself) and no `Date` (the page sent none).
`web.doorman` counts the connections and times out the slow ones around this protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import http
import sys
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import unquote

import h11

from nsdevice.web.asgi import App, Message, Scope

KEEP_ALIVE = 5.0  # seconds an idle connection stays open after an answer (uvicorn's)
HIGH_WATER = 65536  # body bytes read ahead of the app before reading pauses
MOST_HEAD = 16 * 1024  # bytes of a request's head at most (h11's default)
BACKLOG = 2048  # connections the kernel queues before the page accepts them
GRACE = 1.0  # seconds answers under way get at the end
TRUSTED = "127.0.0.1"  # the one peer whose forwarded headers are believed
CLOSE = (b"connection", b"close")
REASONS = {status.value: status.phrase.encode() for status in http.HTTPStatus}


def say(level: str, message: str, error: BaseException | None = None) -> None:
    """A line on stderr (the journal), as uvicorn's handler wrote it, with the error's
    traceback after it."""
    print(f"{level}:  {message}", file=sys.stderr, flush=True)
    if error is not None:
        import traceback  # only on an error

        traceback.print_exception(error, file=sys.stderr)


class Served:
    """What every connection of one server shares: the app, the connections open and
    the answers under way."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.connections: set[Connection] = set()
        self.tasks: set[asyncio.Task[None]] = set()


class Connection(asyncio.Protocol):
    """One phone's connection: its requests one after another (pipelined ones wait)."""

    def __init__(self, served: Served) -> None:
        self.served = served
        self.loop = asyncio.get_running_loop()
        self.conn = h11.Connection(h11.SERVER, MOST_HEAD)
        self.transport: asyncio.Transport = None  # type: ignore[assignment]
        self.client: tuple[str, int] | None = None
        self.server: tuple[str, int] | None = None
        self.cycle: Exchange | None = None
        self.write_paused = False
        self._drained: asyncio.Future[None] | None = None
        self._idle: asyncio.TimerHandle | None = None
        self._behind: bytes | None = None  # a stream's latest bytes, while writing is paused

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.served.connections.add(self)
        self.client = _address(transport.get_extra_info("peername"))
        self.server = _address(transport.get_extra_info("sockname"))

    def connection_lost(self, exc: Exception | None) -> None:
        self.served.connections.discard(self)
        if self.cycle is not None and not self.cycle.complete:
            self.cycle.disconnected = True
        if self.conn.our_state is not h11.ERROR:
            with contextlib.suppress(h11.LocalProtocolError):  # gone before its answer
                self.conn.send(h11.ConnectionClosed())
        if self.cycle is not None:
            self.cycle.wake()
        self.resume_writing()
        self._stop_idle()
        if exc is None:
            self.transport.close()

    def eof_received(self) -> None:
        return None  # the answer under way still goes out; then the transport closes

    def data_received(self, data: bytes) -> None:
        self._stop_idle()
        self.conn.receive_data(data)
        self._events()

    def _events(self) -> None:
        while True:
            try:
                event = self.conn.next_event()
            except h11.RemoteProtocolError:
                say("WARNING", "Invalid HTTP request received.")
                self._refuse_unread()
                return
            if event is h11.NEED_DATA:
                break
            if event is h11.PAUSED:  # a pipelined request: read on after this answer
                self.transport.pause_reading()
                break
            if isinstance(event, h11.Request):
                self._stop_idle()
                self._start(event)
            elif isinstance(event, h11.Data):
                if self.conn.our_state is h11.DONE or self.cycle is None:
                    continue
                self.cycle.body += event.data
                if len(self.cycle.body) > HIGH_WATER:
                    self.transport.pause_reading()
                self.cycle.wake()
            elif isinstance(event, h11.EndOfMessage):
                if self.conn.our_state is h11.DONE:  # answered before the body ended
                    self.transport.resume_reading()
                    self.conn.start_next_cycle()
                    continue
                if self.cycle is not None:
                    self.cycle.more_body = False
                    self.cycle.wake()
                if self.conn.their_state is h11.MUST_CLOSE:
                    break
            else:  # the peer closed (h11.ConnectionClosed)
                break

    def _start(self, request: h11.Request) -> None:
        headers = [(name.lower(), value) for name, value in request.headers]
        raw_path, _, query = request.target.partition(b"?")
        client, scheme = _forwarded(self.client, headers)
        scope: Scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": request.http_version.decode("ascii"),
            "server": self.server,
            "client": client,
            "scheme": scheme,
            "method": request.method.decode("ascii"),
            "root_path": "",
            "path": unquote(raw_path.decode("ascii")),
            "raw_path": raw_path,
            "query_string": query,
            "headers": headers,
            "extensions": {"nsdevice.connection": self},  # app.Direct writes here
        }
        self.cycle = Exchange(self, scope)
        task = self.loop.create_task(self.cycle.run(self.served.app))
        task.add_done_callback(self.served.tasks.discard)
        self.served.tasks.add(task)

    def _refuse_unread(self) -> None:
        """A request h11 could not read: 400, and the connection closed."""
        with contextlib.suppress(h11.LocalProtocolError):
            headers = [(b"content-type", b"text/plain; charset=utf-8"), CLOSE]
            self.write(self.conn.send(h11.Response(status_code=400, headers=headers,
                                                   reason=REASONS[400])))  # fmt: skip
            self.write(self.conn.send(h11.Data(data=b"Invalid HTTP request received.")))
            self.write(self.conn.send(h11.EndOfMessage()))
        self.transport.close()

    def write(self, data: bytes | None) -> None:
        if data:
            self.transport.write(data)

    def push(self, frame: bytes) -> None:
        """An event stream's bytes, written straight to the phone (app.Direct). A phone
        whose buffer is full is sent the latest once it drains, no more."""
        if self.transport.is_closing():
            return
        if self.write_paused:
            self._behind = frame
            return
        self._behind = None
        self.transport.write(frame)

    def pause_writing(self) -> None:
        self.write_paused = True

    def resume_writing(self) -> None:
        self.write_paused = False
        if self._drained is not None and not self._drained.done():
            self._drained.set_result(None)
        self._drained = None
        behind, self._behind = self._behind, None
        if behind is not None and not self.transport.is_closing():
            self.transport.write(behind)

    async def drain(self) -> None:
        if self.write_paused:
            if self._drained is None:
                self._drained = self.loop.create_future()
            await self._drained

    def on_response_complete(self) -> None:
        if self.transport.is_closing():
            return
        self._stop_idle()
        self._idle = self.loop.call_later(KEEP_ALIVE, self._close_idle)
        self.transport.resume_reading()
        if self.conn.our_state is h11.DONE and self.conn.their_state is h11.DONE:
            self.conn.start_next_cycle()  # a pipelined request waits no longer
            self._events()

    def shutdown(self) -> None:
        """The server ends: an idle connection closes now, a busy one after its answer."""
        if self.cycle is None or self.cycle.complete:
            with contextlib.suppress(h11.LocalProtocolError):
                self.conn.send(h11.ConnectionClosed())
            self.transport.close()
        else:
            self.cycle.keep_alive = False

    def _close_idle(self) -> None:
        if not self.transport.is_closing():
            with contextlib.suppress(h11.LocalProtocolError):
                self.conn.send(h11.ConnectionClosed())
            self.transport.close()

    def _stop_idle(self) -> None:
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None


class Exchange:
    """One request and its answer: the app's `receive` and `send`."""

    def __init__(self, connection: Connection, scope: Scope) -> None:
        self.connection, self.scope = connection, scope
        self.body = bytearray()
        self.more_body = True
        self.disconnected = False
        self.keep_alive = True
        self.started = False
        self.complete = False
        self.waiting_for_continue = connection.conn.they_are_waiting_for_100_continue
        self._message = asyncio.Event()

    def wake(self) -> None:
        self._message.set()

    async def run(self, app: App) -> None:
        try:
            await app(self.scope, self.receive, self.send)
        except BaseException as error:  # the connection serves on, or closes; never the page
            say("ERROR", "Exception in ASGI application", error)
            if not self.started:
                await self._fail()
            else:
                self.connection.transport.close()
        else:
            if not self.started and not self.disconnected:
                say("ERROR", "ASGI callable returned without starting response.")
                await self._fail()
            elif not self.complete and not self.disconnected:
                say("ERROR", "ASGI callable returned without completing response.")
                self.connection.transport.close()

    async def _fail(self) -> None:
        headers = [(b"content-type", b"text/plain; charset=utf-8"), CLOSE]
        await self.send({"type": "http.response.start", "status": 500, "headers": headers})
        await self.send({"type": "http.response.body", "body": b"Internal Server Error"})

    async def send(self, message: Message) -> None:
        connection = self.connection
        if connection.write_paused and not self.disconnected:
            await connection.drain()
        if self.disconnected:
            return
        conn = connection.conn
        if not self.started:
            if message["type"] != "http.response.start":
                raise RuntimeError(f"expected http.response.start, not {message['type']}")
            self.started, self.waiting_for_continue = True, False
            status = int(message["status"])
            headers = list(message.get("headers", []))
            if CLOSE in self.scope["headers"] and CLOSE not in headers:
                headers.append(CLOSE)
            reason = REASONS.get(status, b"")
            connection.write(conn.send(h11.Response(status_code=status, headers=headers,
                                                    reason=reason)))  # fmt: skip
        elif not self.complete:
            if message["type"] != "http.response.body":
                raise RuntimeError(f"expected http.response.body, not {message['type']}")
            body = b"" if self.scope["method"] == "HEAD" else bytes(message.get("body", b""))
            connection.write(conn.send(h11.Data(data=body)))
            if not message.get("more_body", False):
                self.complete = True
                self.wake()
                connection.write(conn.send(h11.EndOfMessage()))
        else:
            raise RuntimeError(f"{message['type']} after the answer was complete")
        if self.complete:
            if conn.our_state is h11.MUST_CLOSE or not self.keep_alive:
                conn.send(h11.ConnectionClosed())
                connection.transport.close()
            connection.on_response_complete()

    async def receive(self) -> Message:
        connection = self.connection
        if self.waiting_for_continue and not connection.transport.is_closing():
            continuing = h11.InformationalResponse(status_code=100, headers=[], reason="Continue")
            connection.write(connection.conn.send(continuing))
            self.waiting_for_continue = False
        if not self.disconnected and not self.complete:
            connection.transport.resume_reading()
            await self._message.wait()
            self._message.clear()
        if self.disconnected or self.complete:
            return {"type": "http.disconnect"}
        message = {"type": "http.request", "body": bytes(self.body), "more_body": self.more_body}
        self.body = bytearray()
        return message


class Lifespan:
    """The app's lifespan: startup before the page listens, shutdown after it stops."""

    def __init__(self, app: App) -> None:
        self.app = app
        self._inbox: asyncio.Queue[Message] = asyncio.Queue()
        self._started = asyncio.Event()
        self._ended = asyncio.Event()
        self.failed = False
        self._said_failed = False
        self._task: asyncio.Task[None] | None = None

    async def startup(self) -> bool:
        """True when the app started."""
        self._task = asyncio.ensure_future(self._run())
        await self._inbox.put({"type": "lifespan.startup"})
        await self._started.wait()
        return not self.failed

    async def shutdown(self) -> None:
        if self.failed or self._task is None or self._task.done():
            return
        await self._inbox.put({"type": "lifespan.shutdown"})
        await self._ended.wait()

    async def _run(self) -> None:
        scope = {"type": "lifespan", "asgi": {"version": "3.0", "spec_version": "2.0"}}
        try:
            await self.app(scope, self._inbox.get, self._send)
        except BaseException as error:
            if not self._said_failed:  # else the app has said why
                say("ERROR", "Exception in 'lifespan' protocol", error)
            self.failed = self.failed or not self._started.is_set()
        finally:
            self._started.set()
            self._ended.set()

    async def _send(self, message: Message) -> None:
        kind = message["type"]
        if kind in ("lifespan.startup.failed", "lifespan.shutdown.failed"):
            self.failed = self.failed or kind == "lifespan.startup.failed"
            self._said_failed = True
            say("ERROR", str(message.get("message", "")))
        if kind.startswith("lifespan.startup"):
            self._started.set()
        elif kind.startswith("lifespan.shutdown"):
            self._ended.set()


class Server:
    """The page's server on one address: `run` until `until` returns."""

    def __init__(
        self,
        app: App,
        host: str,
        port: int,
        connection: Callable[[Served], Connection] = Connection,
        grace: float = GRACE,
    ) -> None:
        self.app, self.host, self.port = app, host, port
        self.connection, self.grace = connection, grace
        self.started = False

    async def run(self, until: Callable[[], Awaitable[Any]]) -> bool:
        """Serve until `until()` returns; False (said on stderr) when the page could not
        start: its lifespan failed or the address could not be listened on."""
        lifespan = Lifespan(self.app)
        if not await lifespan.startup():
            say("ERROR", "Application startup failed. Exiting.")
            return False
        served = Served(self.app)
        loop = asyncio.get_running_loop()
        try:
            listening = await loop.create_server(
                lambda: self.connection(served), host=self.host, port=self.port, backlog=BACKLOG
            )
        except OSError as error:
            say("ERROR", str(error))
            await lifespan.shutdown()
            return False
        self.started = True
        try:
            await until()
        finally:
            await self._end(listening, served)
            await lifespan.shutdown()
        return True

    async def _end(self, listening: asyncio.base_events.Server, served: Served) -> None:
        listening.close()
        for connection in list(served.connections):
            connection.shutdown()
        await asyncio.sleep(0.1)
        deadline = asyncio.get_running_loop().time() + self.grace
        while (served.connections or served.tasks) and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        for task in list(served.tasks):
            task.cancel()
        for connection in list(served.connections):
            connection.transport.abort()


def _address(info: Any) -> tuple[str, int] | None:
    """A socket's (host, port) as the transport gives it (IPv6 adds two more)."""
    if isinstance(info, tuple | list) and len(info) >= 2:
        return str(info[0]), int(info[1])
    return None


def _forwarded(
    peer: tuple[str, int] | None, headers: list[tuple[bytes, bytes]]
) -> tuple[tuple[str, int] | None, str]:
    """The client and scheme, from `X-Forwarded-For` and `-Proto` when the peer is the
    box itself (uvicorn's default): the nearest address the box did not add."""
    if peer is None or peer[0] != TRUSTED:
        return peer, "http"
    scheme, hops = "http", []
    for name, value in headers:
        if name == b"x-forwarded-proto":
            proto = value.decode("latin-1").strip()
            scheme = proto if proto in ("http", "https") else scheme
        elif name == b"x-forwarded-for":
            hops += [hop.strip() for hop in value.decode("latin-1").split(",")]
    if not hops:
        return peer, scheme
    untrusted = [hop for hop in hops if hop != TRUSTED]
    return (untrusted[-1] if untrusted else hops[0], 0), scheme
