"""The page's own small ASGI layer (issue 35): routes, a request, responses, the lifespan.

Starlette and anyio cost the page's process 2.7 MB of anonymous memory for what these few
lines do. The page stays an ASGI callable (`web.serving` serves it, Starlette's test client
drives it in the tests), and answers as Starlette's app did:
- routes by method and path, with `{name}` for one segment (`/symbol/{name}.png`);
- a path with a route but not for this method: 405, with `Allow`; a path with none: 404,
  or a 307 to the same path with its trailing slash toggled where that one has a route;
- an uncaught error: 500 "Internal Server Error" when nothing was sent yet, and the error
  raised on, for the server to write to the journal (`web.serving` serves on; the test client
  raises it in the test);
- the lifespan: startup and shutdown around the page's own context.

Everything here runs in the page's process, after the box's first frame (web.process).
"""

from __future__ import annotations

import json
import re
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Iterable,
    Mapping,
    MutableMapping,
)
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, overload
from urllib.parse import parse_qsl, quote

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]
RawHeaders = tuple[tuple[bytes, bytes], ...]

PARAMETER = re.compile(r"{([a-z_]+)}")  # a path's one-segment parameter, as `{name}`
DEFAULT_PORTS = {"http": 80, "https": 443}


class Gone(Exception):
    """The phone went before its request's body had all come."""


class Request:
    """What a route reads of its request: the path and its parameters, the query, the
    headers (first of a name, any case), the caller and the body as it comes."""

    def __init__(self, scope: Scope, receive: Receive | None = None) -> None:
        self.scope, self._receive = scope, receive
        self._read = False

    @property
    def path(self) -> str:
        return str(self.scope["path"])

    @property
    def path_params(self) -> dict[str, str]:
        return dict(self.scope.get("path_params", {}))

    @property
    def query_params(self) -> dict[str, str]:
        """The query's fields; of a field given twice, the last (as Starlette)."""
        query = bytes(self.scope.get("query_string", b"")).decode("latin-1")
        return dict(parse_qsl(query, keep_blank_values=True))

    @property
    def headers(self) -> Headers:
        return Headers(self.scope.get("headers", ()))

    async def stream(self) -> AsyncIterator[bytes]:
        """The body's parts as they come, once; Gone when the phone goes first."""
        if self._read or self._receive is None:
            raise RuntimeError("the body is read once, by a route given `receive`")
        self._read = True
        while True:
            message = await self._receive()
            if message["type"] == "http.disconnect":
                raise Gone
            if message["type"] == "http.request":
                if part := message.get("body", b""):
                    yield part
                if not message.get("more_body", False):
                    return


class Headers:
    """A request's headers by name, any case; the first of a name given twice."""

    def __init__(self, raw: Iterable[tuple[bytes, bytes]]) -> None:
        self._by_name: dict[str, str] = {}
        for key, value in raw:
            self._by_name.setdefault(key.decode("latin-1").lower(), value.decode("latin-1"))

    @overload
    def get(self, name: str) -> str | None: ...
    @overload
    def get(self, name: str, default: str) -> str: ...
    def get(self, name: str, default: str | None = None) -> str | None:
        return self._by_name.get(name.lower(), default)


@dataclass(frozen=True)
class Response:
    """An answer whole: its status, headers and body (bytes)."""

    body: bytes
    status: int = 200
    raw_headers: RawHeaders = ()

    @classmethod
    def of(
        cls,
        content: bytes | str,
        media_type: str | None,
        headers: Mapping[str, str] | None = None,
        status: int = 200,
    ) -> Response:
        """`content` with its type (text in UTF-8, said so), `headers` first, then its
        length and type, in the order and case Starlette gave them."""
        body = content.encode() if isinstance(content, str) else content
        given = (headers or {}).items()
        raw = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in given]
        names = {name for name, _ in raw}
        if b"content-length" not in names and not (status < 200 or status in (204, 304)):
            raw.append((b"content-length", str(len(body)).encode()))
        if media_type is not None and b"content-type" not in names:
            if media_type.startswith("text/") and "charset=" not in media_type.lower():
                media_type += "; charset=utf-8"
            raw.append((b"content-type", media_type.encode("latin-1")))
        return cls(body, status, tuple(raw))

    @classmethod
    def json(
        cls, data: Any, headers: Mapping[str, str] | None = None, status: int = 200
    ) -> Response:
        text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        return cls.of(text.encode(), "application/json", headers, status)

    @classmethod
    def text(cls, text: str, status: int, headers: Mapping[str, str] | None = None) -> Response:
        return cls.of(text, "text/plain", headers, status)

    def with_header(self, name: str, value: str) -> Response:
        """This answer with one header more, after the others."""
        added = (name.lower().encode("latin-1"), value.encode("latin-1"))
        return Response(self.body, self.status, (*self.raw_headers, added))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        start = {"type": "http.response.start", "status": self.status}
        await send({**start, "headers": list(self.raw_headers)})
        await send({"type": "http.response.body", "body": self.body})


Answer = Callable[[Request], Awaitable[Response]]


@dataclass(frozen=True)
class Route:
    """A path (with `{name}` for one segment) answered for `methods` (GET takes HEAD
    too) by `answer`, a request's response, or by `app`, an ASGI app of its own (an event
    stream)."""

    path: str
    methods: frozenset[str]
    answer: Answer | None = None
    app: App | None = None
    pattern: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        assert (self.answer is None) != (self.app is None), "an answer or an app, not both"
        parts = PARAMETER.split(self.path)  # literal, name, literal, name, …, literal
        regex = "".join(
            f"(?P<{part}>[^/]+)" if index % 2 else re.escape(part)
            for index, part in enumerate(parts)
        )
        object.__setattr__(self, "pattern", re.compile(f"^{regex}$"))
        if "GET" in self.methods:
            object.__setattr__(self, "methods", self.methods | {"HEAD"})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.app is not None:
            await self.app(scope, receive, send)
        else:
            assert self.answer is not None
            response = await self.answer(Request(scope, receive))
            await response(scope, receive, send)


def get(path: str, answer: Answer | None = None, app: App | None = None) -> Route:
    return Route(path, frozenset({"GET"}), answer, app)


def post(path: str, answer: Answer) -> Route:
    return Route(path, frozenset({"POST"}), answer)


Lifespan = Callable[[], AbstractAsyncContextManager[None]]


class Router:
    """The page as one ASGI app: its routes in order (the first that matches answers),
    the lifespan's context around its serving."""

    def __init__(self, routes: Iterable[Route], lifespan: Lifespan | None = None) -> None:
        self.routes, self.lifespan = tuple(routes), lifespan

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "http":
            await self._http(scope, receive, send)
        else:  # a websocket: the page has none
            await send({"type": "websocket.close", "code": 1000, "reason": ""})

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        started = False
        await receive()  # lifespan.startup
        try:
            if self.lifespan is None:
                await send({"type": "lifespan.startup.complete"})
                started = True
                await receive()  # lifespan.shutdown
            else:
                async with self.lifespan():
                    await send({"type": "lifespan.startup.complete"})
                    started = True
                    await receive()
        except BaseException:
            import traceback  # only when the page's own start or end failed

            said = traceback.format_exc()
            failed = "lifespan.shutdown.failed" if started else "lifespan.startup.failed"
            await send({"type": failed, "message": said})
            raise
        await send({"type": "lifespan.shutdown.complete"})

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self._route(scope, receive, sending)
        except Gone:
            return  # nobody is left to answer
        except Exception:
            if not started:
                await Response.text("Internal Server Error", 500)(scope, receive, send)
            raise  # for the server's log; it serves on

    async def _route(self, scope: Scope, receive: Receive, send: Send) -> None:
        path, method = str(scope["path"]), scope["method"]
        allowed: Route | None = None
        for route in self.routes:
            found = route.pattern.match(path)
            if found is None:
                continue
            if method in route.methods:
                scope["path_params"] = found.groupdict()
                await route(scope, receive, send)
                return
            allowed = allowed or route
        if allowed is not None:
            allow = ", ".join(sorted(allowed.methods))
            answer = Response.text("Method Not Allowed", 405, {"Allow": allow})
        elif path != "/" and any(r.pattern.match(_toggled(path)) for r in self.routes):
            answer = Response.of(b"", None, status=307).with_header(
                "location", quote(_url(scope, _toggled(path)), safe=":/%#?=@[]!$&'()*+,;")
            )
        else:
            answer = Response.text("Not Found", 404)
        await answer(scope, receive, send)


def _toggled(path: str) -> str:
    """The path with its trailing slash taken off, or put on."""
    return path.rstrip("/") if path.endswith("/") else path + "/"


def _url(scope: Scope, path: str) -> str:
    """The request's URL with `path` (a redirect's): by its Host, else the server's."""
    scheme = str(scope.get("scheme", "http"))
    path = path.replace("?", "%3F").replace("#", "%23").replace("\\", "%5C")
    query = bytes(scope.get("query_string", b"")).decode()
    host = Headers(scope.get("headers", ())).get("host")
    if host is None and scope.get("server") is not None:
        name, port = scope["server"]
        name = f"[{name}]" if ":" in name and not name.startswith("[") else name
        host = name if port == DEFAULT_PORTS.get(scheme) else f"{name}:{port}"
    if host is None:
        return f"{path}?{query}" if query else path
    return f"{scheme}://{host}{path}" + (f"?{query}" if query else "")
