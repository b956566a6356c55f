"""The page's routes (web.asgi): its own assets, the live table, joining and scores.

Watching needs nothing; joining needs the current join code in the `X-Join-Code` header,
compared in constant time, with wrong codes limited for the whole box, and binds the
phone to one seat: the answer's token goes back in `X-Seat-Token` with every act, and a
phone acts only for its seat (guard.py). Only the box's own names are answered and no
other site's page may act. Every body is size-limited and every field checked; any other
path is a 404.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from nsdevice.inputs.events import Abandoned, Button, Item, LineSent, Named, Press, Scored
from nsdevice.rules.deal import ROUNDS
from nsdevice.rules.room import player_name
from nsdevice.views import TableView
from nsdevice.voice.clips import BrokenManifest, clip_bytes
from nsdevice.web.asgi import App, Message, Receive, Request, Response, Route, Router, Scope, Send
from nsdevice.web.asgi import get as _get
from nsdevice.web.asgi import post as _post
from nsdevice.web.guard import (
    Budget,
    Seats,
    Window,
    address_key,
    own_host,
    own_names,
    same_origin,
)
from nsdevice.web.payload import Artwork, language_of, payload
from nsdevice.web.replies import HEADERS, Refusal, answering, code_checked
from nsdevice.web.replies import MOST_BODY as MOST_BODY
from nsdevice.web.replies import body as _body
from nsdevice.web.replies import client as _client
from nsdevice.web.replies import refuse as _refuse
from nsdevice.web.room import RoomRoutes
from nsdevice.web.seating import SWEEP, Seating
from nsdevice.web.sheet import SheetError, score_line, score_sheet, sheet_counts
from nsdevice.web.stage import Stage

ACTIONS = 120  # acts per seat a minute: a joined phone cannot flood the box's store
PRESSABLE = ("round_start", "turn")  # where the controller's phone may press NEXT and BACK
MOST_WATCHERS = 1000  # event streams open at once: a room of phones
WATCHERS_PER_ADDRESS = 8  # a phone has one; a few tabs at most
TOKEN_HEADER = "x-seat-token"
CACHED = {**HEADERS, "Cache-Control": "max-age=86400"}  # a symbol's picture, a phrase's clip
WRONG_CODE = "join with the code shown on the box (Menu, Phones)"
SLICE = 50  # streams written between two looks at the box's loop (a frame goes first)
ASSETS = {  # the page's own files, by the only paths that serve them
    "/": ("index.html", "text/html; charset=utf-8"),
    "/phone.js": ("phone.js", "text/javascript; charset=utf-8"),
    "/phone.css": ("phone.css", "text/css; charset=utf-8"),
    "/voice.js": ("voice.js", "text/javascript; charset=utf-8"),
}


class Gate:
    """Around the whole page: only the box's own names, and no act from another site
    (refused before any code is checked, so it spends nothing and locks nobody out).
    An act (a join, a sheet: work for the box) waits while the box's loop makes a frame
    (`after_frame`), so a storm of them takes the interpreter from no press."""

    def __init__(
        self,
        app: App,
        names: frozenset[str],
        after_frame: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.app, self.names, self.after_frame = app, names, after_frame

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = {key.decode("latin-1"): value.decode("latin-1")
                       for key, value in scope["headers"]}  # fmt: skip
            host = headers.get("host", "")
            server = scope.get("server")
            if not own_host(host, self.names, str(server[0]) if server else None):
                await _refuse(421, "this box answers only to its own name")(scope, receive, send)
                return
            if scope["method"] not in ("GET", "HEAD"):
                if not same_origin(headers.get, host):
                    await _refuse(403, "only the box's own page may act")(scope, receive, send)
                    return
                if self.after_frame is not None:
                    await self.after_frame()
        await self.app(scope, receive, send)


class Watchers:
    """Event streams open, by address and in all."""

    def __init__(self, most: int = MOST_WATCHERS, per_address: int = WATCHERS_PER_ADDRESS):
        self.most, self.per_address = most, per_address
        self.by_address: dict[str, int] = {}
        self.total = 0

    def admit(self, address: str) -> bool:
        if self.total >= self.most or self.by_address.get(address, 0) >= self.per_address:
            return False
        self.by_address[address] = self.by_address.get(address, 0) + 1
        self.total += 1
        return True

    def leave(self, address: str) -> None:
        left = self.by_address.pop(address) - 1
        if left:
            self.by_address[address] = left
        self.total -= 1


class Relay:
    """A stream written through ASGI `send` (any server): the latest table only, one
    send at a time, so a slow phone skips tables and never queues them."""

    def __init__(self, send: Send) -> None:
        self._send = send
        self._latest: bytes | None = None
        self._sending: asyncio.Future[None] | None = None

    def push(self, data: bytes) -> None:
        self._latest = data
        if self._sending is None or self._sending.done():
            self._sending = asyncio.ensure_future(self._drain())

    async def _drain(self) -> None:
        while self._latest is not None:
            data, self._latest = self._latest, None
            await self._send({"type": "http.response.body", "body": data, "more_body": True})


class Direct:
    """A stream written straight to its connection (`web.doorman`'s protocol): one
    write a table, no task woken per phone. Its bytes come framed as HTTP/1.1 chunks
    when `chunked` (see `framed`)."""

    def __init__(self, connection: Any, chunked: bool) -> None:
        self._connection, self.chunked = connection, chunked

    def push(self, data: bytes) -> None:
        self._connection.push(data)


def framed(data: bytes, chunked: bool) -> bytes:
    return b"%x\r\n" % len(data) + data + b"\r\n" if chunked else data


class Events:
    """`GET /events`: the table as Server-Sent Events. One broadcaster writes each new
    table to every stream in turn (500 streams cost one loop, not 500 task wake-ups), in
    slices of SLICE that wait while the box's loop makes a frame (`Stage.after_frame`);
    each stream's own task only waits for its phone's going, and ends the moment the
    phone goes, not at the next table (a streaming response would notice only when it
    next writes). A raw ASGI app."""

    def __init__(
        self,
        stage: Stage,
        event: Callable[[int, TableView, str], bytes],
        most: int = MOST_WATCHERS,
    ) -> None:
        self.stage, self.event = stage, event
        self.watchers = Watchers(most)
        # each stream → [its language, the number it was sent last, its framing's key]
        self._streams: dict[Relay | Direct, list[Any]] = {}
        self._broadcasting: asyncio.Future[None] | None = None
        self._closed: asyncio.Event | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        address = _client(scope)
        if not self.watchers.admit(address):
            refusal = _refuse(503, "the box has as many watchers as it takes; try later", 10)
            await refusal(scope, receive, send)
            return
        try:
            await self._stream(scope, receive, send)
        finally:
            self.watchers.leave(address)

    async def _broadcast(self) -> None:
        seen = -1
        while True:
            newer = await self.stage.next_after(seen)
            if newer is None:  # the box is closing: every stream ends
                break
            seen, table = newer
            # one encoding per language and framing, however many streams: a table then
            # allocates nothing per phone (and wakes no collector for 500 of them)
            frames: dict[str, bytes] = {}
            sinks = list(self._streams)  # streams come and go between two slices
            for start in range(0, len(sinks), SLICE):
                # a press's frame goes first; a newer table is sent instead of this one
                await self.stage.after_frame()
                if self.stage.latest()[0] != seen:
                    break
                for sink in sinks[start : start + SLICE]:
                    said = self._streams.get(sink)
                    if said is None or said[1] >= seen:
                        continue  # gone, or sent this table already (it came in since)
                    said[1] = seen
                    frame = frames.get(said[2])
                    if frame is None:
                        frame = self._frame(seen, table, said[0], said[2].endswith("+"))
                        frames[said[2]] = frame
                    if frame:
                        sink.push(frame)
        assert self._closed is not None
        self._closed.set()

    def _frame(self, number: int, table: TableView, language: str, chunked: bool) -> bytes:
        """The table's event for one language and framing; b"" (nothing sent, this once)
        when it cannot be made: one bad table must not end every phone's stream."""
        try:
            return framed(self.event(number, table, language), chunked)
        except Exception as error:  # the broadcaster outlives any table
            print(f"nsdevice: the phones' page skipped table {number}: {error!r}", file=sys.stderr)
            return b""

    async def _stream(self, scope: Scope, receive: Receive, send: Send) -> None:
        language = language_of(Request(scope).query_params.get("lang"))
        headers = {**HEADERS, "Content-Type": "text/event-stream", "X-Accel-Buffering": "no"}
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
            }
        )
        if self._broadcasting is None:
            self._closed = asyncio.Event()
            self._broadcasting = asyncio.ensure_future(self._broadcast())
        assert self._closed is not None
        connection = scope.get("extensions", {}).get("nsdevice.connection")
        chunked = scope.get("http_version") == "1.1"
        sink = Direct(connection, chunked) if connection is not None else Relay(send)
        chunked = isinstance(sink, Direct) and chunked
        number, table = self.stage.latest()  # a reconnecting phone starts from the latest
        self._streams[sink] = [language, number, language + ("+" if chunked else "")]
        if table is not None and (first := self._frame(number, table, language, chunked)):
            sink.push(first)

        async def gone() -> None:
            message: Message = {"type": ""}
            while message["type"] != "http.disconnect":
                message = await receive()

        waits = {asyncio.ensure_future(gone()), asyncio.ensure_future(self._closed.wait())}
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()
            del self._streams[sink]
        await send({"type": "http.response.body", "body": b"", "more_body": False})


def _assets() -> dict[str, tuple[bytes, str]]:
    """The page's own files by path, read once (installed as files, never zipped)."""
    files = Path(__file__).resolve().parent / "assets"
    return {
        path: (files.joinpath(name).read_bytes(), kind) for path, (name, kind) in ASSETS.items()
    }


def _seat_sent(data: Any, fields: set[str], players: int) -> int:
    """The seat a body names, when it has exactly `fields`: SheetError otherwise."""
    if not isinstance(data, dict) or set(data) != fields:
        raise SheetError("send exactly {" + ", ".join(sorted(fields)) + "}")
    seat = data["seat"]
    if type(seat) is not int or not 1 <= seat <= players:
        raise SheetError(f"seat must be 1 to {players}")
    return seat


def _name_sent(value: Any) -> str:
    """A one-table seat's name as a room keeps one (`rules.room.player_name`); "" for none."""
    if value == "":
        return ""
    try:
        return player_name(value)
    except ValueError as error:
        raise SheetError(str(error)) from None


class TableRoutes:
    """The one-table page's routes, each a method over what they share: the box's stage
    and inbox, the artwork, the code budget, the seat tokens, each seat's acts, the event
    streams and who holds which room seat (`seating`, which the room's routes share)."""

    def __init__(
        self,
        stage: Stage,
        inbox_put: Callable[[Item], bool],
        art: Artwork,
        buttons: bool,
        budget: Budget,
        clock: Callable[[], float] | None = None,
        streams: int = MOST_WATCHERS,
    ) -> None:
        self.stage, self.inbox_put, self.art, self.buttons = stage, inbox_put, art, buttons
        self.budget, self.seats, self.acts = budget, Seats(), Window(ACTIONS)
        self.assets = _assets()
        self.encoded: dict[tuple[int, str], bytes] = {}  # the latest table's event, by language
        self.events = Events(stage, self.event, streams)
        # `clock`: for the room's tables nobody follows (web.seating; tests give a fake one)
        following = self.following
        self.seating = Seating(following, clock) if clock is not None else Seating(following)

    def following(self) -> set[str]:
        return {address_key(address) for address in self.events.watchers.by_address}

    def sweep(self, every: float = 1.0) -> None:
        """Hands the box the room's tables nobody has followed for long (web.seating):
        looked at on the page's own requests and every SWEEP seconds besides."""
        _, table = self.stage.latest()
        if table is None or table.room is None or not self.seating.due(every):
            return
        for number in self.seating.abandoned(table):
            if self.inbox_put(Abandoned(number, table.game)):  # a full inbox: asked again later
                self.seating.freeing(number)

    async def asset(self, request: Request) -> Response:
        content, kind = self.assets[request.path]
        return Response.of(content, kind, HEADERS)

    async def symbol(self, request: Request) -> Response:
        image = self.art.symbols.get(request.path_params["name"])
        if image is None:
            return _refuse(404, "no such symbol")
        return Response.of(image, "image/png", CACHED)

    async def clip(self, request: Request) -> Response:
        """A phrase's clip (issue 24): only what the manifest names, never a path."""
        try:
            data = clip_bytes(request.path_params["language"], request.path_params["phrase"])
        except (OSError, BrokenManifest):  # lost or damaged on the card: the phone says nothing
            return _refuse(503, "clip unreadable")
        if data is None:
            return _refuse(404, "no such clip")
        return Response.of(data, "audio/ogg", CACHED)

    async def state(self, request: Request) -> Response:
        self.sweep()
        number, table = self.stage.latest()
        if table is None:
            return _refuse(503, "the box has not drawn yet")
        language = language_of(request.query_params.get("lang"))
        data = payload(number, table, language, self.art, self.buttons)
        return Response.json(data, HEADERS)

    def event(self, number: int, table: TableView, language: str) -> bytes:
        """One encoding per table and language, however many phones read it."""
        key = (number, language)
        if key not in self.encoded:
            if self.encoded and next(iter(self.encoded))[0] != number:
                self.encoded.clear()
            data = payload(number, table, language, self.art, self.buttons)
            self.encoded[key] = f"data: {json.dumps(data, separators=(',', ':'))}\n\n".encode()
        return self.encoded[key]

    def seat_of(self, request: Request, table: TableView | None) -> tuple[TableView, int]:
        """The table and the seat this phone joined for in this game, or the refusal."""
        token = request.headers.get(TOKEN_HEADER, "")[:64]
        seat = self.seats.seat_of(token, table.game, table.code) if table is not None else None
        if table is None or seat is None:
            raise Refusal(403, WRONG_CODE)
        return table, seat

    def act(self, table: TableView, seat: int, item: Item) -> None:
        """Each act is a save on the box: not a flood of them from one seat; a full inbox
        is answered 503, and the phone tries again."""
        key = f"{table.game}/{seat}"
        if self.acts.full(key):
            raise Refusal(429, "too many at once from this seat; wait a minute")
        self.acts.add(key)
        if not self.inbox_put(item):
            raise Refusal(503, "the box is busy; try again", retry_after=1)

    @answering
    async def join(self, request: Request) -> Response:
        table = code_checked(request, self.stage.latest()[1], self.budget, WRONG_CODE)
        if table.room is not None:
            raise Refusal(409, "a room game: join with a name and a table (/room/join)")
        data = await _body(request)
        named = isinstance(data, dict) and "name" in data
        seat = _seat_sent(data, {"seat", "name"} if named else {"seat"}, table.players)
        name = _name_sent(data["name"]) if named else ""
        token = self.seats.issue(table.game, seat, table.code)
        if name:  # the seat's name on the result and in the history (issue 34)
            self.act(table, seat, Named(seat, name, table.game))
        answer = {"game": table.game, "seat": seat, "token": token}
        return Response.json(answer, HEADERS)

    @answering
    async def score(self, request: Request) -> Response:
        table, mine = self.seat_of(request, self.stage.latest()[1])
        data = await _body(request)
        if not isinstance(data, dict) or set(data) != {"seat", "sheet"}:
            raise SheetError("send exactly {seat, sheet}")
        if not table.scoring:
            raise Refusal(409, "scores are taken at the game's end")
        seat = _seat_sent(data, {"seat", "sheet"}, table.players)
        if seat != mine:  # the box's own buttons correct any seat; a phone only its own
            raise Refusal(403, f"this phone joined for seat {mine}")
        sheet = score_sheet(table.line_scoring, data["sheet"], table.objectives)
        counts = sheet_counts(table.line_scoring, data["sheet"], table.objectives)
        self.act(table, seat, Scored(seat, sheet.total, sheet.best_line, table.game, counts))
        return Response.json({"total": sheet.total, "best_line": sheet.best_line}, HEADERS)

    @answering
    async def line(self, request: Request) -> Response:
        """A seat's line of a round, as the game goes (issue 34): for its own seat, for a
        round whose last card is out, before the game's end takes whole sheets. Answered
        once checked against the table the phones see; the box takes what the page took
        (its line entry open on that very line shows the phone's counts)."""
        table, mine = self.seat_of(request, self.stage.latest()[1])
        data = await _body(request)
        fields = {"seat", "round", "line"}
        if not isinstance(data, dict) or set(data) != fields:
            raise SheetError("send exactly {line, round, seat}")
        seat = _seat_sent(data, fields, table.players)
        if seat != mine:
            raise Refusal(403, f"this phone joined for seat {mine}")
        number = data["round"]
        if type(number) is not int or not 1 <= number <= ROUNDS:
            raise SheetError(f"round must be 1 to {ROUNDS}")
        if table.room is not None or not table.line_scoring:
            raise Refusal(409, "lines are sent with the sheet at the game's end")
        if number > table.line_round:
            raise Refusal(409, "a round's line is taken once its last card is out")
        counts, points = score_line(table.line_scoring, data["line"])
        self.act(table, seat, LineSent(seat, number, counts, table.game))
        return Response.json({"round": number, "points": points}, HEADERS)

    @answering
    async def press(self, request: Request) -> Response:
        if not self.buttons:
            raise Refusal(403, "this table keeps NEXT and BACK on the box")
        table, mine = self.seat_of(request, self.stage.latest()[1])
        data = await _body(request)
        if not isinstance(data, dict) or set(data) != {"seat", "button"}:
            raise SheetError("send exactly {seat, button}")
        if data["button"] not in ("next", "back"):
            raise SheetError("button must be next or back")
        if type(data["seat"]) is not int:
            raise SheetError("seat must be a whole number")
        if data["seat"] != mine:
            raise Refusal(403, f"this phone joined for seat {mine}")
        controller = getattr(table.view, "controller", None)
        if table.view is None or table.view.screen not in PRESSABLE or controller is None:
            raise Refusal(409, "NEXT and BACK from a phone work during a round only")
        if mine != controller:
            raise Refusal(409, f"seat {controller} turns the cards this round")
        self.act(table, mine, Press(Button(data["button"])))
        return Response.json({"pressed": data["button"]}, HEADERS)

    def routes(self) -> list[Route]:
        return [
            *(_get(path, self.asset) for path in ASSETS),
            _get("/symbol/{name}.png", self.symbol),
            _get("/voice/{language}/{phrase}.ogg", self.clip),
            _get("/state", self.state),
            _get("/events", app=self.events),
            _post("/join", self.join),
            _post("/score", self.score),
            _post("/press", self.press),
            _post("/line", self.line),
        ]


def make_app(
    stage: Stage,
    inbox_put: Callable[[Item], bool],
    art: Artwork,
    buttons: bool = False,
    budget: Budget | None = None,
    names: frozenset[str] | None = None,
    clock: Callable[[], float] | None = None,
    streams: int = MOST_WATCHERS,
) -> Gate:
    """`buttons`: the table lets the controller's phone press NEXT and BACK (`--phone-buttons`).
    `budget`: wrong codes for the whole box; `names`: the box's own (guard.py). `inbox_put`
    says whether the box's inbox took the item: a full one is answered 503 (web/room.py).
    `clock`: for the room's tables nobody follows (web.seating; tests give a fake one).
    `streams`: event streams open at once; one more is answered 503."""
    budget = budget if budget is not None else Budget()
    table = TableRoutes(stage, inbox_put, art, buttons, budget, clock, streams)
    room = RoomRoutes(
        stage.latest, inbox_put, budget, table.seats, table.acts, table.seating, table.sweep
    )

    @contextlib.asynccontextmanager
    async def lifespan() -> AsyncIterator[None]:
        stage.bind()  # the wake-ups go to this event loop

        async def look() -> None:
            while True:
                await asyncio.sleep(SWEEP)
                table.sweep(SWEEP / 2)

        looking = asyncio.ensure_future(look())
        try:
            yield
        finally:
            looking.cancel()

    routes = [*table.routes(), *room.routes()]
    return Gate(Router(routes, lifespan), names or own_names(), stage.after_frame)
