"""The page's own ASGI layer (web.asgi, issue 35): what Starlette's app answered and the
page relies on, on a router of its own (the page's routes: test_web.py, test_web_room.py)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import pytest
from starlette.testclient import TestClient

from nsdevice.web.asgi import Request, Response, Router, get, post


def _router(events: list[str]) -> Router:
    async def echo(request: Request) -> Response:
        body = b"".join([part async for part in request.stream()])
        said = {"path": request.path_params, "query": request.query_params}
        return Response.json({**said, "body": body.decode(), "kind": request.headers.get("X-Kind")})

    async def fails(request: Request) -> Response:
        raise ValueError("a route's own mistake")

    @contextlib.asynccontextmanager
    async def lifespan() -> AsyncIterator[None]:
        events.append("started")
        yield
        events.append("stopped")

    routes = [get("/item/{name}.png", echo), post("/item/{name}.png", echo), get("/fails", fails)]
    return Router(routes, lifespan)


def test_a_route_reads_its_path_parameter_query_headers_and_body():
    client = TestClient(_router([]))
    answer = client.post("/item/a%20b.png?lang=de&lang=fr&x=", content=b"{}",
                         headers={"x-kind": "one"})  # fmt: skip
    assert answer.status_code == 200
    assert answer.json() == {"path": {"name": "a b"}, "query": {"lang": "fr", "x": ""},
                             "body": "{}", "kind": "one"}  # fmt: skip
    assert answer.headers["content-type"] == "application/json"
    assert answer.headers["content-length"] == str(len(answer.content))


def test_a_path_without_this_method_is_405_with_allow_and_no_path_404():
    client = TestClient(_router([]))
    refused = client.put("/item/x.png")
    assert (refused.status_code, refused.text) == (405, "Method Not Allowed")
    assert (
        refused.headers["allow"] == "GET, HEAD, POST".rpartition(", POST")[0]
    )  # the first route's
    missing = client.get("/item/x/y.png")
    assert (missing.status_code, missing.text) == (404, "Not Found")
    assert missing.headers["content-type"] == "text/plain; charset=utf-8"


def test_a_trailing_slash_is_sent_to_the_path_that_has_a_route():
    client = TestClient(_router([]), base_url="http://box.local:8414", follow_redirects=False)
    moved = client.get("/fails/?x=1")
    assert moved.status_code == 307
    assert moved.headers["location"] == "http://box.local:8414/fails?x=1"
    assert client.get("/nowhere/").status_code == 404


def test_an_uncaught_error_is_answered_500_and_the_page_answers_on():
    with TestClient(_router([]), raise_server_exceptions=False) as client:
        failed = client.get("/fails")
        assert (failed.status_code, failed.text) == (500, "Internal Server Error")
        assert client.get("/item/x.png").status_code == 200
    with TestClient(_router([])) as client, pytest.raises(ValueError):
        client.get("/fails")  # raised on for the server's log (web.serving's, in the page)


def test_the_lifespan_runs_around_serving():
    events: list[str] = []
    with TestClient(_router(events)) as client:
        assert events == ["started"]
        client.get("/item/x.png")
    assert events == ["started", "stopped"]
