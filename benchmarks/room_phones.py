"""The room's phones for benchmarks/room.py: players seated at tables of 1 to 4, their
event streams held from their own loopback addresses and read card by card, their joins
and score sheets over HTTP (retried on 503), and the checks of what came back: every card
to every stream, the results as posted."""

from __future__ import annotations

import asyncio
import csv
import io
import itertools
import json
import os
import random
import selectors
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.figures import percentile  # noqa: E402
from benchmarks.reliability.web_box import (  # noqa: E402
    connect,
    get,
    lift_own_file_limit,
    loopback,
    post,
)

LANGUAGES = ("en", "es", "de", "it", "fr")


# 30 players at 9 tables: mostly full tables, and some of every size (a solo player too)
PATTERN = (4, 3, 4, 2, 4, 1, 4, 4, 4)


MOST_TABLES = 99  # rules.room.MOST_TABLES: table numbers 1..99


COLUMNS = ["code", "city", "modules", "room", "table", "seat", "name", "place", "total",
           "best_line", "table_winner"]  # fmt: skip


NAMES = ("Ana", "Jürgen", "Zoë", "Kenji", "Chiara", "Émile", "Sofía", "李", "Olu", "Maëlle")


FIRST_ADDRESS = 20_000  # the streams' and players' loopback addresses start here


class RoomError(RuntimeError):
    """The room's game could not go on: what happened."""


@dataclass(frozen=True)
class Player:
    number: int  # 0-based: its stream, its address
    table: int
    size: int
    seat: int
    name: str

    @property
    def address(self) -> str:
        return loopback(FIRST_ADDRESS + self.number)

    @property
    def language(self) -> str:
        return LANGUAGES[self.number % len(LANGUAGES)]


def seating(players: int) -> list[int]:
    """Each table's size (table n + 1 seats sizes[n]) for `players`: PATTERN over and over,
    the last table takes who is left."""
    sizes: list[int] = []
    left = players
    for size in itertools.cycle(PATTERN):
        if left <= 0:
            break
        sizes.append(min(size, left))
        left -= sizes[-1]
    if len(sizes) > MOST_TABLES:
        raise ValueError(f"{players} players need {len(sizes)} tables; a room has {MOST_TABLES}")
    return sizes


def room_players(players: int) -> list[Player]:
    seated = []
    for table, size in enumerate(seating(players), start=1):
        for seat in range(1, size + 1):
            number = len(seated)
            name = f"{NAMES[number % len(NAMES)]} {number + 1}"
            seated.append(Player(number, table, size, seat, name))
    return seated


class EventReader:
    """One event stream's bytes → its events' data: the HTTP head, chunked or not, then
    Server-Sent Events (`data:` lines, a blank line ends one). Linear in the bytes: a
    phone that fell behind gets many tables in one read."""

    def __init__(self) -> None:
        self.status: int | None = None
        self.ended = False
        self._chunked = False
        self._raw = bytearray()  # as received, not yet taken
        self._left = 0  # bytes of the current chunk still to come
        self._body = bytearray()  # the event stream itself

    def feed(self, data: bytes) -> list[bytes]:
        self._raw += data
        if self.status is None:
            end = self._raw.find(b"\r\n\r\n")
            if end < 0:
                return []
            lines = bytes(self._raw[:end]).split(b"\r\n")
            self.status = int(lines[0].split()[1])
            self._chunked = any(
                line.lower().startswith(b"transfer-encoding:") and b"chunked" in line.lower()
                for line in lines[1:]
            )
            del self._raw[: end + 4]
        if self._chunked:
            self._dechunk()
        else:
            self._body += self._raw
            self._raw.clear()
        events, start = [], 0
        while (end := self._body.find(b"\n\n", start)) >= 0:
            data = [line[5:].lstrip(b" ") for line in bytes(self._body[start:end]).split(b"\n")
                    if line.startswith(b"data:")]  # fmt: skip
            if data:
                events.append(b"\n".join(data))
            start = end + 2
        del self._body[:start]
        return events

    def _dechunk(self) -> None:
        at = 0
        while not self.ended and at < len(self._raw):
            if self._left:  # the rest of a chunk (and its CRLF, counted in _left)
                take = min(self._left, len(self._raw) - at)
                self._body += self._raw[at : at + take]
                self._left -= take
                at += take
                if self._left == 0:
                    del self._body[-2:]  # the chunk's closing CRLF
                continue
            end = self._raw.find(b"\r\n", at)
            if end < 0:
                break
            size = int(bytes(self._raw[at:end]).split(b";")[0], 16)
            at = end + 2
            self.ended = size == 0
            self._left = size + 2 if size else 0
        del self._raw[:at]


def card_key(screen: dict[str, Any]) -> str:
    """A turn's card as both the box's JSON screen and a phone's payload name it: how many
    turns came before it this round, each card's kind and symbol (or special), and the
    round's pencils for a table of four (they differ from round to round, C-8)."""
    faces = ",".join(f"{c['kind']}:{c.get('symbol') or c.get('special') or ''}"
                     for c in screen["cards"])  # fmt: skip
    rows = (screen.get("room") or {}).get("rows") or [[]]
    return f"{len(screen['earlier'])}|{faces}|{','.join(p['colour'] for p in rows[-1])}"


def table_number(event: bytes) -> int:
    """The table's number from the start of its payload, without reading the rest."""
    head = event[: event.index(b",")]
    if not head.startswith(b'{"number":'):
        raise ValueError(f"a payload that does not start with its number: {event[:40]!r}")
    return int(head[len(b'{"number":') :])


def table_facts(data: dict[str, Any]) -> list[Any]:
    """What the harness needs from one payload: screen, the card's key, the ranking's length."""
    room = data.get("room") or {}
    key = card_key(data) if data.get("screen") == "turn" else ""
    return [data.get("screen", ""), key, len(room.get("ranking") or ())]


def hold_streams(port: int, count: int, keep: int) -> int:
    """The child: `count` streams, one per address; "ready N" once each has its first
    table (N: how many have, after at most 30 s). On "end N" (stdin) it waits, at most
    15 s, until every stream's latest table ranks N players, then prints one JSON line:
    each table's facts and, when `keep`, every stream's receipts ([number, time] each).
    On "at N" it prints "at N" once every stream's latest table is numbered N or later
    ("late N" after 120 s: qemu is slow), and goes on reading stdin (benchmarks/pi_tv.py's taps)."""
    lift_own_file_limit()
    os.nice(19)  # the phones' own work is not the box's: let it have the cores first
    selector = selectors.DefaultSelector()
    readers: list[EventReader] = []
    receipts: list[list[list[Any]]] = []
    latest: list[int] = []  # each stream's latest table
    tables: dict[int, list[Any]] = {}
    for player in room_players(count):
        sock = connect(port, player.address, timeout=10)
        request = get(f"/events?lang={player.language}", port)
        sock.sendall(request.replace(b"Connection: close\r\n", b""))
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, len(readers))
        readers.append(EventReader())
        receipts.append([])
        latest.append(-1)
    selector.register(sys.stdin, selectors.EVENT_READ, -1)
    ready_by, ranked, deadline = time.monotonic() + 30, -1, 0.0
    wanted, wanted_by = -1, 0.0  # the table every stream is to have ("at N"), until when
    while True:
        arrived = []  # timed as they come; parsed after, so parsing delays no receipt's time
        for key, _ in selector.select(0.2):
            if key.data == -1:
                words = sys.stdin.readline().split()
                if words[:1] == ["at"]:
                    wanted, wanted_by = int(words[1]), time.monotonic() + 120
                    continue
                ranked, deadline = int(words[1]) if words else 0, time.monotonic() + 15
                selector.unregister(sys.stdin)
                continue
            try:
                chunk = key.fileobj.recv(262144)  # type: ignore[union-attr]
            except OSError:
                chunk = b""
            arrived.append((key.data, time.monotonic(), chunk))
            if not chunk:
                selector.unregister(key.fileobj)
        for stream, at, chunk in arrived:
            for event in readers[stream].feed(chunk):
                number = table_number(event)
                if number not in tables:  # a table is read whole once, not by 300 phones
                    tables[number] = table_facts(json.loads(event))
                latest[stream] = number
                if keep:
                    receipts[stream].append([number, at])
        if ready_by and (min(latest) >= 0 or time.monotonic() > ready_by):
            ready_by = 0
            print(f"ready {sum(number >= 0 for number in latest)}", flush=True)
        if wanted >= 0 and (min(latest) >= wanted or time.monotonic() > wanted_by):
            print(f"{'at' if min(latest) >= wanted else 'late'} {wanted}", flush=True)
            wanted = -1
        if ranked >= 0 and (
            min(tables[n][2] if n >= 0 else 0 for n in latest) >= ranked
            or time.monotonic() > deadline
        ):
            break
    print(json.dumps({"tables": tables, "receipts": receipts, "latest": latest,
                      "statuses": [reader.status for reader in readers]}), flush=True)  # fmt: skip
    return 0


async def exchange(port: int, source: str, request: bytes,
                   timeout: float = 15) -> tuple[int, dict[str, str], bytes]:  # fmt: skip
    """One request on its own connection from `source`: status, headers and body."""
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), timeout
    )
    try:
        writer.write(request)
        answer = await asyncio.wait_for(reader.read(), timeout)  # Connection: close
    finally:
        writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {name.strip().lower(): value.strip()
               for name, _, value in (line.partition(":") for line in lines[1:])}  # fmt: skip
    if headers.get("transfer-encoding") == "chunked":
        parsed = EventReader()
        parsed.feed(b"HTTP/1.1 200\r\nTransfer-Encoding: chunked\r\n\r\n" + body)
        body = parsed._body
    return int(lines[0].split()[1]), headers, body


async def with_retries(port: int, source: str, request: bytes,
                       tally: dict[str, int]) -> tuple[float, dict[str, Any]]:  # fmt: skip
    """As a phone does: a 503 or 429 is tried again after its Retry-After (at most 2 s).
    The seconds from the first try to the answer, and the answer."""
    started = time.monotonic()
    for _ in range(30):
        status, headers, body = await exchange(port, source, request)
        if status == 200:
            return time.monotonic() - started, json.loads(body)
        if status not in (429, 503):
            raise RoomError(f"{request.split(b' ', 2)[1].decode()} from {source}: {status} "
                            f"{body[:200]!r}")  # fmt: skip
        tally[str(status)] = tally.get(str(status), 0) + 1
        await asyncio.sleep(min(2.0, float(headers.get("retry-after", "1"))))
    raise RoomError(f"{source}: refused 30 times")


def join_all(port: int, code: str, players: list[Player]) -> dict[str, Any]:
    """Every player joins at once; each answer must name its table and seat."""
    tally: dict[str, int] = {}

    async def join(player: Player) -> tuple[float, str]:
        body = {"name": player.name, "table": player.table, "size": player.size,
                "seat": player.seat}  # fmt: skip
        request = post("/room/join", port, body, f"X-Join-Code: {code}\r\n")
        took, answer = await with_retries(port, player.address, request, tally)
        if (answer.get("table"), answer.get("seat")) != (player.table, player.seat):
            raise RoomError(f"{player}: joined as {answer}")
        return took, str(answer["token"])

    async def everyone() -> list[tuple[float, str]]:
        return await asyncio.gather(*(join(player) for player in players))

    started = time.monotonic()
    answers = asyncio.run(everyone())
    return {
        "seconds": round(time.monotonic() - started, 2),
        "join_ms": spread([took * 1000 for took, _ in answers]),
        "retried": tally,
        "tokens": [token for _, token in answers],
    }


def spread(values: list[float]) -> dict[str, Any]:
    """p50/p95/p99/max of `values` (nearest rank), in the values' own unit."""
    if not values:
        return {"count": 0, "p50": None, "p95": None, "p99": None, "max": None}
    return {"count": len(values),
            **{f"p{round(share * 100)}": round(percentile(values, share), 1)
               for share in (0.5, 0.95, 0.99)},
            "max": round(max(values), 1)}  # fmt: skip


def sheet(line_scoring: str, rng: random.Random) -> dict[str, Any]:
    """A plausible sheet for a city scored by `line_scoring` (web.sheet's fields); small
    ranges, so a room of 300 has ties."""
    if line_scoring == "districts":
        from nsdevice.rules.cities import city

        return {"lines": [[rng.randint(1, 6), rng.randint(1, 4)] for _ in range(4)],
                "stamps": rng.choice(sorted(city("tokyo").stamp_totals())[:6]),
                "ring_unconnected": rng.randint(0, 3),
                "interchanges": {"3": rng.randint(0, 2), "4": rng.randint(0, 1), "5": 0},
                "objectives": 0}  # fmt: skip
    if line_scoring == "quarters":
        return {"lines": [[rng.randint(1, 5), rng.randint(1, 4), rng.randint(0, 2)]
                          for _ in range(4)],
                "overpasses_once": rng.randint(0, 2), "overpasses_twice": rng.randint(0, 1),
                "interchanges": {"2": rng.randint(0, 3), "3": rng.randint(0, 2), "4": 0},
                "objectives": 0}  # fmt: skip
    return {"total": rng.randint(20, 60), "best_line": rng.randint(5, 15)}


def score_all(port: int, line_scoring: str, players: list[Player], tokens: list[str],
              seed: int = 25) -> dict[str, Any]:  # fmt: skip
    """Every player posts a sheet at once; the box's total and best line must be the
    rules' (web.sheet.score_sheet, as `nsdevice score`)."""
    from nsdevice.web.sheet import score_sheet

    rng = random.Random(seed)
    sheets = [sheet(line_scoring, rng) for _ in players]
    tally: dict[str, int] = {}

    async def score(player: Player, token: str, data: dict[str, Any]) -> dict[str, Any]:
        request = post("/room/score", port, {"sheet": data}, f"X-Seat-Token: {token}\r\n")
        _, answer = await with_retries(port, player.address, request, tally)
        expected = score_sheet(line_scoring, data)
        if (answer.get("total"), answer.get("best_line")) != (expected.total, expected.best_line):
            raise RoomError(f"{player}: scored {answer}, the rules say {expected}")
        return {"table": player.table, "seat": player.seat, "name": player.name,
                "total": expected.total, "best_line": expected.best_line}  # fmt: skip

    async def everyone() -> list[dict[str, Any]]:
        return await asyncio.gather(
            *(score(p, t, s) for p, t, s in zip(players, tokens, sheets, strict=True))
        )

    started = time.monotonic()
    posted = asyncio.run(everyone())
    return {"seconds": round(time.monotonic() - started, 2), "retried": tally, "posted": posted}


def spreadsheet_safe(name: str) -> str:
    """A name as the results file writes it: never run as a formula (room-spec.md)."""
    return f"'{name}" if name[:1] in ("=", "+", "-", "@") else name


def results_problems(text: str, posted: list[dict[str, Any]]) -> list[str]:
    """What is wrong with a results CSV for these posted scores (empty: it ranks them all):
    the columns, one row per player as posted, best total first (then best line), places
    shared by ties (1, 2, 2, 4), one key on every row, a winner at every table."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or rows[0] != COLUMNS:
        return [f"the header is {rows[:1]}, not {COLUMNS}"]
    found = [dict(zip(COLUMNS, row, strict=False)) for row in rows[1:]]
    problems = []
    if len(found) != len(posted):
        problems.append(f"{len(found)} rows for {len(posted)} players")
    wanted = {(p["table"], p["seat"]): p for p in posted}
    seen: set[tuple[int, int]] = set()
    for row in found:
        place = (int(row["table"]), int(row["seat"]))
        player = wanted.get(place)
        if player is None or place in seen:
            problems.append(f"table {place[0]} seat {place[1]}: not posted, or twice")
            continue
        seen.add(place)
        if (row["name"], int(row["total"]), int(row["best_line"])) != (
            spreadsheet_safe(player["name"]), player["total"], player["best_line"]
        ):  # fmt: skip
            problems.append(f"table {place[0]} seat {place[1]}: {row} is not {player}")
    order = [(int(row["total"]), int(row["best_line"])) for row in found]
    for index, mark in enumerate(order):
        place = 1 + sum(other > mark for other in order)
        if int(found[index]["place"]) != place:
            problems.append(f"row {index + 1} {mark}: place {found[index]['place']}, not {place}")
    if order != sorted(order, reverse=True):
        problems.append("the rows are not best first")
    if len({(row["code"], row["city"], row["modules"]) for row in found}) > 1:
        problems.append("the rows carry different keys")
    winners = {int(row["table"]) for row in found if row["table_winner"] == "yes"}
    if winners != {int(row["table"]) for row in found}:
        problems.append("a table without a winner")
    return problems[:20]


def card_latencies(cards: list[tuple[float, str]], tables: dict[int, list[Any]],
                   receipts: list[list[list[Any]]]) -> dict[str, Any]:  # fmt: skip
    """For every card (pressed at, key), the time until each stream received a table
    showing it: a table is that card's when its key is the card's and the card is the
    last one with that key pressed before the table first arrived anywhere."""
    first: dict[int, float] = {}
    for stream in receipts:
        for number, at in stream:
            first[number] = min(at, first.get(number, at))
    numbers: dict[int, set[int]] = {index: set() for index in range(len(cards))}
    for number, (screen, key, _) in tables.items():
        if screen != "turn" or number not in first:
            continue
        before = [index for index, (at, card) in enumerate(cards)
                  if card == key and at <= first[number]]  # fmt: skip
        if before:
            numbers[before[-1]].add(number)
    took: list[float] = []
    each: list[list[float]] = []  # per card: the median and the slowest stream
    missing = 0
    for index, (pressed, _) in enumerate(cards):
        this = []
        for stream in receipts:
            times = [at for number, at in stream if number in numbers[index]]
            if times:
                this.append((min(times) - pressed) * 1000)
            else:
                missing += 1
        took += this
        each.append([round(percentile(this, 0.5), 1), round(max(this), 1)] if this else [])
    return {"cards": len(cards), "streams": len(receipts), "missing": missing,
            "ms": spread(took), "each_card_median_and_max_ms": each}  # fmt: skip
