"""A room game's routes (issue 25): many tables on one deal, each player on a phone.

- `POST /room/join` (the join code in `X-Join-Code`, as `/join`): a name, a table, its size
  and a seat, and the seat's claim when the phone has one. The seat's first join draws
  the claim (web.seating); a rejoin or rename without it is refused (403). The answer's
  token binds the phone to (game, table, seat, claim); the box hears `Joined`. A table's
  size is fixed by its first joiner (docs/decisions/0006): a joiner who says another size
  is refused, both once the box lists the table and in the moment before it does. A
  phone holds one seat and opens one table at a time.
- `POST /room/score` (`X-Seat-Token`): the seat's sheet, scored here by the rules
  (web/sheet.py); the box hears `RoomScored`.
- `GET /room/results.csv` and `.json`: the ranking so far in rules.room's forms.

A full inbox refuses with 503 and Retry-After: the phone tries again, no player is lost
silently. Wrong codes spend the box's one budget (guard.py); each address may join only
`JOINS` times a minute, so one machine cannot churn the room's names.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from nsdevice.inputs.events import Item, Joined, RoomScored
from nsdevice.rules.cities import CityName
from nsdevice.rules.modules import Module
from nsdevice.rules.room import (
    MOST_TABLES,
    ROOM,
    MarksOnly,
    Result,
    RoomKey,
    player_name,
    results_csv,
    results_json,
)
from nsdevice.views import TableView
from nsdevice.web.asgi import Request, Response, Route, get, post
from nsdevice.web.guard import Budget, Seats, Window, address_key
from nsdevice.web.replies import HEADERS, Refusal, answering, body, client, code_checked
from nsdevice.web.seating import CLAIM_LENGTH, Refused, Seating
from nsdevice.web.sheet import SheetError, score_sheet

JOINS = 20  # joins a minute from one address (an IPv6 /64 as one): a phone joins once or twice
TOKEN_HEADER = "x-seat-token"
RETRY = 1  # seconds a phone waits before it tries again when the box's inbox is full
UNSAFE = re.compile(r"[^A-Za-z0-9_-]")  # what a file name in a header may not carry
WRONG_CODE = "join with the code shown on the caller screen"
FIELDS = frozenset({"name", "table", "size", "seat"})


def checked_name(value: Any) -> str:
    """A player's name as the ranking shows it (rules.room.player_name: composed, 1..
    NAME_LENGTH printable characters, stripped: no control, format or line-separating
    character); a Refusal (400) for marks alone, SheetError otherwise."""
    if not isinstance(value, str):
        raise SheetError("name must be text")
    try:
        return player_name(value)
    except MarksOnly as error:  # a name that draws as nothing: the phone says so (D-15)
        raise Refusal(400, str(error).partition(", not")[0], why="name_marks") from None
    except ValueError as error:
        raise SheetError(str(error).partition(", not")[0]) from None


def _whole(data: dict[str, Any], name: str, high: int) -> int:
    value = data[name]
    if type(value) is not int or not 1 <= value <= high:  # bool is not a number here
        raise SheetError(f"{name} must be a whole number from 1 to {high}")
    return value


def _place_sent(data: Any) -> tuple[str, int, int, int, str]:
    """A join's name, table, size, seat and the seat's claim if the phone has one:
    SheetError when they do not fit."""
    if not isinstance(data, dict) or not FIELDS <= set(data) <= {*FIELDS, "claim"}:
        raise SheetError("send exactly {name, table, size, seat} and a claim if any")
    name = checked_name(data["name"])
    number = _whole(data, "table", MOST_TABLES)
    size = _whole(data, "size", 4)
    seat = _whole(data, "seat", size)
    claim = data.get("claim", "")
    if not isinstance(claim, str) or len(claim) > CLAIM_LENGTH:
        raise SheetError(f"claim must be text of at most {CLAIM_LENGTH} characters")
    return name, number, size, seat, claim


class RoomRoutes:
    """The room's routes over the page's own stage (`latest`), inbox, code budget, seat
    tokens and acts-per-seat window (shared with the one-table routes), who holds which
    seat (`seating`) and its look for tables nobody follows (`sweep`)."""

    def __init__(
        self,
        latest: Callable[[], tuple[int, TableView | None]],
        inbox_put: Callable[[Item], bool],
        budget: Budget,
        seats: Seats,
        acts: Window,
        seating: Seating,
        sweep: Callable[[], None] = lambda: None,
    ) -> None:
        self.latest, self.inbox_put = latest, inbox_put
        self.budget, self.seats, self.acts = budget, seats, acts
        self.seating, self.sweep = seating, sweep
        self.joins = Window(JOINS)

    @answering
    async def join(self, request: Request) -> Response:
        self.sweep()
        table = code_checked(request, self.latest()[1], self.budget, WRONG_CODE)
        if table.room is None:
            raise Refusal(409, "this game is for one table, not a room")
        name, number, size, seat, claim = _place_sent(await body(request))
        key = address_key(client(request.scope))
        seated = self.seating.seat(table, key, (number, seat), size, claim)
        if isinstance(seated, Refused):
            raise Refusal(seated.status, seated.reason, why=seated.why)
        if self.joins.full(key):
            raise Refusal(429, "too many joins from this phone; wait a minute", retry_after=60)
        ticket = self.seating.ticket()
        joined = Joined(
            number, size, seat, name, table.game, seated.hashed, seated.leaving, ticket
        )
        if not self.inbox_put(joined):
            raise Refusal(503, "the box is busy; trying again", retry_after=RETRY)
        self.joins.add(key)
        self.seating.taken(key, (number, seat), size, seated, ticket)
        token = self.seats.issue(table.game, seat, table.code, table=number, claim=seated.hashed)
        answer = {
            "game": table.game,
            "table": number,
            "seat": seat,
            "token": token,
            "claim": seated.claim,  # the phone keeps it: a rejoin or a rename needs it
        }
        return Response.json(answer, HEADERS)

    @answering
    async def score(self, request: Request) -> Response:
        _, table = self.latest()
        token = request.headers.get(TOKEN_HEADER, "")[:64]
        place = (
            self.seats.place_of(
                token, table.game, table.code, lambda p: self.seating.claim_of(table, p)
            )
            if table is not None
            else None
        )
        if table is None or place is None or place[0] == 0:
            raise Refusal(403, WRONG_CODE)
        number, seat = place
        data = await body(request)
        if not isinstance(data, dict) or set(data) != {"sheet"}:
            raise SheetError("send exactly {sheet}")
        if table.room is None or not table.scoring:
            raise Refusal(409, "scores are taken at the game's end")
        sheet = score_sheet(table.line_scoring, data["sheet"], table.objectives)
        key = f"{table.game}/{number}/{seat}"  # each act is a save on the box
        if self.acts.full(key):
            raise Refusal(429, "too many at once from this seat; wait a minute", retry_after=60)
        if not self.inbox_put(RoomScored(number, seat, sheet.total, sheet.best_line, table.game)):
            raise Refusal(503, "the box is busy; trying again", retry_after=RETRY)
        self.acts.add(key)
        return Response.json({"total": sheet.total, "best_line": sheet.best_line}, HEADERS)

    def ranked(self) -> tuple[RoomKey, list[Result], dict[tuple[str, int], int]]:
        """The ranking so far in rules.room's terms with each table's size, or the refusal."""
        _, table = self.latest()
        if table is None or table.room is None:
            raise Refusal(409, "this game is for one table, not a room")
        room = table.room
        if not room.ranking:
            raise Refusal(409, "no score has come in yet")
        key = RoomKey(room.code, CityName(table.city), tuple(Module(m) for m in room.modules))
        results = [
            Result(ROOM, p.table, p.seat, p.name, p.total, p.best_line) for p in room.ranking
        ]
        return key, results, {(ROOM, number): size for number, size in room.tables}

    @answering
    async def csv(self, request: Request) -> Response:
        key, results, sizes = self.ranked()
        name = f"nsdevice-room-{UNSAFE.sub('', key.code)}.csv"
        headers = {**HEADERS, "Content-Disposition": f'attachment; filename="{name}"'}
        text = results_csv(key, results, sizes)
        return Response.of(text, "text/csv", headers)

    @answering
    async def json_form(self, request: Request) -> Response:
        return Response.json(results_json(*self.ranked()), HEADERS)

    def routes(self) -> list[Route]:
        return [
            post("/room/join", self.join),
            post("/room/score", self.score),
            get("/room/results.csv", self.csv),
            get("/room/results.json", self.json_form),
        ]
