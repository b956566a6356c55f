"""The page's routes (Starlette): its own assets, the live table, joining and scores.

Watching needs nothing; acting needs the current join code in the `X-Join-Code` header
(never a cookie), compared in constant time, with failed tries limited per address.
Every body is size-limited and every field checked; any other path is a 404.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from nsdevice.inputs.events import Button, Press, Scored
from nsdevice.views import TableView
from nsdevice.voice.clips import clip_bytes
from nsdevice.web.payload import Artwork, language_of, payload
from nsdevice.web.sheet import SheetError, score_sheet
from nsdevice.web.stage import Stage

MOST_BODY = 2048  # bytes: a whole score sheet is a few hundred
TRIES = 5  # wrong codes per address per window before it must wait
ACTIONS = 120  # and actions with the right code: a joined phone cannot flood the box's store
PRESSABLE = ("round_start", "turn")  # where the controller's phone may press NEXT and BACK
TRY_WINDOW = 60.0  # seconds
ASSETS = {  # the page's own files, by the only paths that serve them
    "/": ("index.html", "text/html; charset=utf-8"),
    "/phone.js": ("phone.js", "text/javascript; charset=utf-8"),
    "/phone.css": ("phone.css", "text/css; charset=utf-8"),
    "/voice.js": ("voice.js", "text/javascript; charset=utf-8"),
}
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self'; object-src 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class Tries:
    """Tries per address in a sliding window: with 5 wrong codes a minute, guessing six
    digits takes months."""

    def __init__(self, most: int = TRIES, clock: Callable[[], float] = time.monotonic) -> None:
        self._most = most
        self._clock = clock
        self._wrong: dict[str, deque[float]] = {}

    def blocked(self, address: str) -> bool:
        wrong = self._wrong.get(address)
        if wrong is None:
            return False
        while wrong and wrong[0] < self._clock() - TRY_WINDOW:
            wrong.popleft()
        if not wrong:
            del self._wrong[address]
        return len(wrong) >= self._most

    def missed(self, address: str) -> None:
        if len(self._wrong) > 10_000:  # a flood of addresses cannot grow this forever
            self._wrong.clear()
        self._wrong.setdefault(address, deque()).append(self._clock())


def _refuse(status: int, reason: str) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status, headers=HEADERS)


async def _body(request: Request) -> Any:
    """The request's JSON, at most MOST_BODY bytes; SheetError otherwise."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MOST_BODY):
        raise OverflowError
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MOST_BODY:
            raise OverflowError
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        raise SheetError("the body is not JSON") from None


def make_app(
    stage: Stage,
    inbox_put: Callable[[Scored | Press], None],
    art: Artwork,
    buttons: bool = False,
) -> Starlette:
    """`buttons`: the table lets the controller's phone press NEXT and BACK (`--phone-buttons`)."""
    tries, actions = Tries(TRIES), Tries(ACTIONS)
    files = resources.files("nsdevice.web") / "assets"
    assets = {
        path: (files.joinpath(name).read_bytes(), kind) for path, (name, kind) in ASSETS.items()
    }

    async def asset(request: Request) -> Response:
        content, kind = assets[request.url.path]
        return Response(content, media_type=kind, headers=HEADERS)

    async def symbol(request: Request) -> Response:
        image = art.symbols.get(request.path_params["name"])
        if image is None:
            return _refuse(404, "no such symbol")
        headers = {**HEADERS, "Cache-Control": "max-age=86400"}
        return Response(image, media_type="image/png", headers=headers)

    async def clip(request: Request) -> Response:
        """A phrase's clip (issue 24): only what the manifest names, never a path."""
        data = clip_bytes(request.path_params["language"], request.path_params["phrase"])
        if data is None:
            return _refuse(404, "no such clip")
        headers = {**HEADERS, "Cache-Control": "max-age=86400"}
        return Response(data, media_type="audio/ogg", headers=headers)

    async def state(request: Request) -> Response:
        number, table = stage.latest()
        if table is None:
            return _refuse(503, "the box has not drawn yet")
        language = language_of(request.query_params.get("lang"))
        return JSONResponse(payload(number, table, language, art, buttons), headers=HEADERS)

    encoded: dict[tuple[int, str], bytes] = {}  # the latest table's event, per language

    def event(number: int, table: TableView, language: str) -> bytes:
        """One encoding per table and language, however many phones read it."""
        key = (number, language)
        if key not in encoded:
            if encoded and next(iter(encoded))[0] != number:
                encoded.clear()
            data = json.dumps(payload(number, table, language, art, buttons), separators=(",", ":"))
            encoded[key] = f"data: {data}\n\n".encode()
        return encoded[key]

    async def events(request: Request) -> Response:
        language = language_of(request.query_params.get("lang"))

        async def stream() -> AsyncIterator[bytes]:
            seen = -1
            while True:  # a reconnecting phone starts again from the latest table
                newer = await stage.next_after(seen)
                if newer is None:  # the box is closing
                    return
                seen, table = newer
                yield event(seen, table, language)

        headers = {**HEADERS, "X-Accel-Buffering": "no"}
        return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)

    def authorised(request: Request) -> JSONResponse | None:
        """None when the request carries the current code; else the refusal."""
        address = request.client.host if request.client else "?"
        if tries.blocked(address):
            return _refuse(429, "too many wrong codes; wait a minute")
        _, table = stage.latest()
        given = request.headers.get("x-join-code", "")
        expected = table.code if table is not None else ""
        if not (expected and hmac.compare_digest(given.encode()[:64], expected.encode())):
            tries.missed(address)
            return _refuse(403, "join with the code shown on the box (Menu, Phones)")
        return None

    async def join(request: Request) -> Response:
        refused = authorised(request)
        if refused is not None:
            return refused
        _, table = stage.latest()
        assert table is not None
        return JSONResponse({"game": table.game}, headers=HEADERS)

    async def score(request: Request) -> Response:
        refused = authorised(request)
        if refused is not None:
            return refused
        try:
            data = await _body(request)
            if not isinstance(data, dict) or set(data) != {"seat", "sheet"}:
                raise SheetError("send exactly {seat, sheet}")
            _, table = stage.latest()
            assert table is not None
            if not table.scoring:
                return _refuse(409, "scores are taken at the game's end")
            seat = data["seat"]
            if type(seat) is not int or not 1 <= seat <= table.players:
                raise SheetError(f"seat must be 1 to {table.players}")
            sheet = score_sheet(table.line_scoring, data["sheet"])
        except OverflowError:
            return _refuse(413, f"at most {MOST_BODY} bytes")
        except SheetError as error:
            return _refuse(422, str(error))
        address = request.client.host if request.client else "?"
        if actions.blocked(address):  # each score is a save on the box: not a flood of them
            return _refuse(429, "too many scores; wait a minute")
        actions.missed(address)
        inbox_put(Scored(seat, sheet.total, sheet.best_line, table.game))
        return JSONResponse({"total": sheet.total, "best_line": sheet.best_line}, headers=HEADERS)

    async def press(request: Request) -> Response:
        if not buttons:
            return _refuse(403, "this table keeps NEXT and BACK on the box")
        refused = authorised(request)
        if refused is not None:
            return refused
        try:
            data = await _body(request)
            if not isinstance(data, dict) or set(data) != {"seat", "button"}:
                raise SheetError("send exactly {seat, button}")
            if data["button"] not in ("next", "back"):
                raise SheetError("button must be next or back")
            if type(data["seat"]) is not int:
                raise SheetError("seat must be a whole number")
        except OverflowError:
            return _refuse(413, f"at most {MOST_BODY} bytes")
        except SheetError as error:
            return _refuse(422, str(error))
        _, table = stage.latest()
        assert table is not None
        controller = getattr(table.view, "controller", None)
        if table.view is None or table.view.screen not in PRESSABLE or controller is None:
            return _refuse(409, "NEXT and BACK from a phone work during a round only")
        if data["seat"] != controller:
            return _refuse(409, f"seat {controller} turns the cards this round")
        address = request.client.host if request.client else "?"
        if actions.blocked(address):
            return _refuse(429, "too many presses; wait a minute")
        actions.missed(address)
        inbox_put(Press(Button(data["button"])))
        return JSONResponse({"pressed": data["button"]}, headers=HEADERS)

    routes = [
        *(Route(path, asset, methods=["GET"]) for path in ASSETS),
        Route("/symbol/{name:str}.png", symbol, methods=["GET"]),
        Route("/voice/{language:str}/{phrase:str}.ogg", clip, methods=["GET"]),
        Route("/state", state, methods=["GET"]),
        Route("/events", events, methods=["GET"]),
        Route("/join", join, methods=["POST"]),
        Route("/score", score, methods=["POST"]),
        Route("/press", press, methods=["POST"]),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        stage.bind()  # the wake-ups go to this event loop
        yield

    return Starlette(routes=routes, lifespan=lifespan)
