"""What every route of the page shares: the headers on each answer, the refusal's shape,
the size-limited JSON body and the caller's address."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import Scope

from nsdevice.web.sheet import SheetError

MOST_BODY = 2048  # bytes: a whole score sheet is a few hundred
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self'; object-src 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def refuse(
    status: int, reason: str, retry_after: int | None = None, why: str = ""
) -> JSONResponse:
    """A refusal: `reason` in English for whoever reads it; `why`, a key the phone's page
    words in its own language (web.seating's refusals)."""
    said = {"error": reason, **({"why": why} if why else {})}
    refusal = JSONResponse(said, status_code=status, headers=HEADERS)
    if retry_after is not None:
        refusal.headers["Retry-After"] = str(retry_after)
    return refusal


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
