"""What every route of the page shares: the headers on each answer, the refusal's shape
(raised where it is found, answered by `answering`), the size-limited JSON body, the
caller's address and the join code's check."""

from __future__ import annotations

import functools
import hmac
import json
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from nsdevice.views import TableView
from nsdevice.web.asgi import Request, Response, Scope
from nsdevice.web.guard import Budget
from nsdevice.web.sheet import SheetError

MOST_BODY = 2048  # bytes: a whole score sheet is a few hundred
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self'; object-src 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def refuse(status: int, reason: str, retry_after: int | None = None, why: str = "") -> Response:
    """A refusal: `reason` in English for whoever reads it; `why`, a key the phone's page
    words in its own language (web.seating's refusals)."""
    said = {"error": reason, **({"why": why} if why else {})}
    refusal = Response.json(said, HEADERS, status)
    return refusal if retry_after is None else refusal.with_header("Retry-After", str(retry_after))


async def body(request: Request) -> Any:
    """The request's JSON, at most MOST_BODY bytes: OverflowError past that (however the
    body comes, declared or chunked), SheetError when it is not JSON."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MOST_BODY):
        raise OverflowError
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > MOST_BODY:
            raise OverflowError
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        raise SheetError("the body is not JSON") from None


def client(scope: Scope) -> str:
    """The caller's address, as the limits count it."""
    peer = scope.get("client")
    return str(peer[0]) if peer else "?"


class Refusal(Exception):
    """A route's refusal, raised where it is found and answered by `answering`."""

    def __init__(
        self, status: int, reason: str, retry_after: int | None = None, why: str = ""
    ) -> None:
        super().__init__(reason)
        self.status, self.reason, self.retry_after, self.why = status, reason, retry_after, why


Routes = TypeVar("Routes")
Route = Callable[[Routes, Request], Awaitable[Response]]


def answering(route: Route[Routes]) -> Route[Routes]:
    """A route whose refusals are raised: a `Refusal` as itself, a body too big as 413,
    a body that does not fit as 422."""

    @functools.wraps(route)
    async def answer(routes: Routes, request: Request) -> Response:
        try:
            return await route(routes, request)
        except OverflowError:
            return refuse(413, f"at most {MOST_BODY} bytes")
        except SheetError as error:
            return refuse(422, str(error))
        except Refusal as refusal:
            return refuse(refusal.status, refusal.reason, refusal.retry_after, refusal.why)

    return answer


def code_checked(
    request: Request, table: TableView | None, budget: Budget, wrong: str
) -> TableView:
    """The table joined with the join code in `X-Join-Code`, compared in constant time;
    a wrong code spends the box's one budget (refused `wrong`), and while the budget is
    closed no code is checked, not even the right one."""
    address = client(request.scope)
    closed = budget.closed(address)
    if closed is not None:
        raise Refusal(429, closed, retry_after=2)
    given = request.headers.get("x-join-code", "")
    expected = table.code if table is not None else ""
    if not (expected and hmac.compare_digest(given.encode()[:64], expected.encode())):
        budget.missed(address)
        raise Refusal(403, wrong)
    assert table is not None
    return table
