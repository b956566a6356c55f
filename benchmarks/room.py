"""A whole room on one box (issue 25): 300 phones through one game, one command, a table and JSON.

    python benchmarks/room.py                      # the room's game, then press → frame
    python benchmarks/room.py --rounds 0           # the room's game only (about 2 minutes)
    python benchmarks/room.py --players 40 --rounds 1 --presses 40   # a quick look

**The room's game.** A real box, `nsdevice run --room --display json --input keyboard
--web 127.0.0.1:PORT`, in its own process. One process at nice 19 (as crowd.py's: a room
of real phones does not take the box's CPU) holds `--players` event streams, each from
its own loopback address (phones on a Wi-Fi each have their own), in the five languages
in turn. Then every player joins over HTTP (`POST /room/join`), at tables of 1 to 4
(`seating`); the box plays the whole game, one NEXT on its terminal keys every `--pace`
seconds; for every card, the time from the press to each stream's receipt of it (every
card must reach every stream); at the game's end every player posts a score sheet
(`POST /room/score`), every stream must come to show the whole ranking, and
`GET /room/results.csv` must rank every player as posted. Last, the box's peak RSS
(VmHWM from /proc/PID/status).

**Press → frame.** benchmarks/crowd.py's method, reused: `press_to_frame` (mock GPIO
pins, the real loop, SQLite, the window's paint) in one process, playing a room game
with the room's players joined, runs without a phone and with the room's streams in turn
(A/B/A/B…), and benchmarks/verdict.py's run-to-run spread.

Speed is measured here, never asserted in tests (DESIGN.md).
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import io
import itertools
import json
import os
import random
import selectors
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.measure import machine, percentile, print_table  # noqa: E402
from benchmarks.reliability.harness import BOX, ENV  # noqa: E402
from benchmarks.reliability.web_box import (  # noqa: E402
    _box_limit,
    connect,
    free_port,
    get,
    lift_own_file_limit,
    loopback,
    post,
    stop,
)
from benchmarks.verdict import load_average, sentence, verdict  # noqa: E402

DEFAULT_JSON = ROOT / "benchmarks" / "results" / "room.json"
LANGUAGES = ("en", "es", "de", "it", "fr")
# 30 players at 9 tables: mostly full tables, and some of every size (a solo player too)
PATTERN = (4, 3, 4, 2, 4, 1, 4, 4, 4)
MOST_TABLES = 99  # rules.room.MOST_TABLES: table numbers 1..99
COLUMNS = ["code", "city", "modules", "room", "table", "seat", "name", "place", "total",
           "best_line", "table_winner"]  # fmt: skip
NAMES = ("Ana", "Jürgen", "Zoë", "Kenji", "Chiara", "Émile", "Sofía", "李", "Olu", "Maëlle")
TARGETS = {"card_p99_ms": 500.0, "rss_peak_mb": 90.0}
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


# ---------------------------------------------------------------------------------------
# the phones' side: event streams and plain requests
# ---------------------------------------------------------------------------------------


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
    each table's facts and, when `keep`, every stream's receipts ([number, time] each)."""
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
    while True:
        arrived = []  # timed as they come; parsed after, so parsing delays no receipt's time
        for key, _ in selector.select(0.2):
            if key.data == -1:
                words = sys.stdin.readline().split()
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


# ---------------------------------------------------------------------------------------
# score sheets and the results
# ---------------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------------
# the room's game on a real box
# ---------------------------------------------------------------------------------------


class Box:
    """`nsdevice run --room … --display json --input keyboard --web 127.0.0.1:PORT`; each
    screen it prints, with the time it came."""

    def __init__(self, folder: Path, port: int, city: str, seed: str) -> None:
        command = [*BOX, "run", "--room", "--city", city, "--seed", seed, "--display", "json",
                   "--input", "keyboard", "--state-dir", str(folder),
                   "--web", f"127.0.0.1:{port}"]  # fmt: skip
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=ENV, preexec_fn=_box_limit,
        )  # fmt: skip
        self.screens: list[tuple[float, dict[str, Any]]] = []
        self.said: list[bytes] = []  # its stderr, for the error
        self._changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self.said.extend(self.process.stderr or ()),
                         daemon=True).start()  # fmt: skip

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            at = time.monotonic()
            try:
                screen = json.loads(line)
            except ValueError:
                continue
            with self._changed:
                self.screens.append((at, screen))
                self._changed.notify_all()

    def wait(self, after: int = 0, seconds: float = 30, until: Any = None) -> dict[str, Any]:
        """The first screen past the first `after` for which `until(screen)` holds."""
        deadline = time.monotonic() + seconds
        with self._changed:
            while True:
                for _, screen in self.screens[after:]:
                    if until is None or until(screen):
                        return screen
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    said = b"".join(self.said[-5:]).decode(errors="replace")
                    raise RoomError(f"the box did not show it in {seconds} s ({said!r})")
                self._changed.wait(min(left, 1.0))

    def press(self) -> float:
        """NEXT on the terminal's keys; the time it went."""
        stdin = self.process.stdin
        assert stdin is not None
        at = time.monotonic()
        stdin.write(b"n")
        stdin.flush()
        return at

    def peak_mb(self, key: str = "VmHWM") -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith(f"{key}:"):
                return round(int(line.split()[1]) / 1024, 1)
        raise KeyError(key)

    def close(self) -> None:
        stop(self.process)


def ask_json(port: int, path: str) -> tuple[int, bytes]:
    status, _, body = asyncio.run(exchange(port, "127.0.0.1", get(path, port)))
    return status, body


def wait_page(port: int, seconds: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            status, body = ask_json(port, "/state")
            if status == 200:
                return dict(json.loads(body))
        except OSError:
            pass
        time.sleep(0.2)
    raise RoomError("the page never answered")


def streams_child(port: int, count: int, keep: bool) -> subprocess.Popen[str]:
    command = [sys.executable, __file__, "--hold-streams", str(port), str(count), str(int(keep))]
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    ready = child.stdout.readline().split()
    if ready != ["ready", str(count)]:
        child.kill()
        raise RoomError(f"the streams did not all open: {ready}")
    return child


def room_game(players: int, pace: float, city: str, seed: str) -> dict[str, Any]:
    """The room's whole game on a real box: see the module's docstring."""
    seated = room_players(players)
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="nsdevice-room-") as folder:
        box = Box(Path(folder), port, city, seed)
        child: subprocess.Popen[str] | None = None
        try:
            code = str(box.wait(until=lambda s: bool(s.get("room")))["room"]["code"])
            state = wait_page(port)
            if state.get("room") is None:
                raise RoomError("the page does not show a room game")
            child = streams_child(port, players, keep=True)
            joined = join_all(port, code, seated)
            box.wait(until=lambda s: (s.get("room") or {}).get("players") == players)
            started, presses = time.monotonic(), []
            while box.screens[-1][1]["screen"] != "room_results" and len(presses) < 300:
                seen = len(box.screens)
                pressed = box.press()
                presses.append((pressed, box.wait(seen, 10)))
                time.sleep(max(0.0, pressed + pace - time.monotonic()))
            played = time.monotonic() - started
            cards = [(at, card_key(s)) for at, s in presses if s["screen"] == "turn"]
            scored = score_all(port, state["line_scoring"], seated, joined.pop("tokens"))
            box.wait(until=lambda s: s.get("scored") == players)
            assert child.stdin is not None and child.stdout is not None
            child.stdin.write(f"end {players}\n")
            child.stdin.flush()
            heard = json.loads(child.stdout.readline())
            status, text = ask_json(port, "/room/results.csv")
            problems = results_problems(text.decode(), scored.pop("posted"))
            if status != 200:
                problems.insert(0, f"/room/results.csv answered {status}")
            peak, resident = box.peak_mb(), box.peak_mb("VmRSS")
        finally:
            if child is not None:
                child.kill()
                child.wait(10)
            box.close()
    tables = {int(number): facts for number, facts in heard["tables"].items()}
    latest = [tables[number][2] if number >= 0 else 0 for number in heard["latest"]]
    return {
        "how": f"nsdevice run --room --city {city} --seed {seed} --display json --input"
        f" keyboard --web; {players} phones; NEXT every {pace} s",
        "players": players,
        "tables": len(seating(players)),
        "table_sizes": {str(n): seating(players).count(n) for n in range(1, 5)},
        "streams_not_200": sum(status != 200 for status in heard["statuses"]),
        "joins": joined,
        "presses": len(presses),
        "play_seconds": round(played, 1),
        "card_to_stream": card_latencies(cards, tables, heard["receipts"]),
        "sheets": scored,
        "streams_showing_every_place": sum(n == players for n in latest),
        "results_csv_problems": problems,
        "rss_peak_mb": peak,
        "rss_at_the_end_mb": resident,
    }


# ---------------------------------------------------------------------------------------
# press → frame: the room's streams against no phone (crowd.py's method)
# ---------------------------------------------------------------------------------------


def frames(presses: int, streams: int, players: int, state_dir: Path | None) -> dict[str, Any]:
    """benchmarks/measure.py's press → frame playing room games: each game's `players` join
    at its summary and send their sheets at its end, through the loop's inbox (as the page
    puts them), with `streams` of the room's event streams open (or none)."""
    from benchmarks.measure import press_to_frame
    from nsdevice.inputs.events import Busy, Joined, QueueInbox, RoomScored
    from nsdevice.runner.web import open_web
    from nsdevice.session import Settings

    port = free_port()
    busy = Busy()
    web = open_web(("127.0.0.1", port), QueueInbox(), busy=busy)
    child: subprocess.Popen[str] | None = None
    seated = room_players(players)
    rng = random.Random(players)

    def connect() -> None:
        nonlocal child
        if not web.started.wait(30):
            raise RoomError("the page did not start")
        if streams:
            child = streams_child(port, streams, keep=False)

    def settled(done: Any) -> None:
        deadline = time.monotonic() + 60
        while not done() and time.monotonic() < deadline:
            time.sleep(0.01)
        if not done():
            raise RoomError("the loop did not take the room's joins or sheets")
        quiet = 0.0  # and their last frame is out: it must not count as the next tap's
        while quiet < 0.5:
            time.sleep(0.01)
            quiet = 0.0 if busy.busy else quiet + 0.01

    def give(inbox: Any, item: Any) -> None:
        """As the page does: a full inbox (it is bounded) is tried again, never skipped."""
        if not inbox.put(item, 10.0):
            raise RoomError("the loop's inbox stayed full for 10 s")

    def between(session: Any, inbox: Any) -> None:
        room, view = session.state.room, session.view()
        if room is None:
            return
        if view.screen == "summary" and not room.seats:
            for p in seated:
                give(inbox, Joined(p.table, p.size, p.seat, p.name, session.game))
            settled(lambda: len(room.seats) == players)
        elif view.screen == "room_results" and not room.scores:
            for p in seated:
                best = rng.randint(3, 20)
                give(inbox, RoomScored(p.table, p.seat, best + rng.randint(10, 60), best,
                                       session.game))  # fmt: skip
            settled(lambda: len(room.scores) == players)

    web.start()
    try:
        figures = press_to_frame(
            presses, publish=web.publish, before_presses=connect, state_dir=state_dir,
            busy=busy, settings=Settings(language="en", room=True), between=between,
        )  # fmt: skip
    finally:
        if child is not None:
            child.communicate("end 0\n", timeout=60)
        web.close()
    figures["streams"] = streams
    figures["players"] = players
    return figures


def press_to_frame_verdict(rounds: int, presses: int, streams: int, players: int,
                           state_dir: Path | None) -> dict[str, Any]:  # fmt: skip
    runs = []
    for _ in range(rounds):
        for count in (0, streams):  # the baseline first, then the room: A/B/A/B
            run = frames(presses, count, players, state_dir)
            runs.append(run)
            print(f"streams {count:4}: press → frame p99 from the deciding edge"
                  f" {run['from_the_deciding_edge_ms']['p99']} ms, {run['games']} games,"
                  f" load {load_average()[0]}", flush=True)  # fmt: skip
    figures: dict[str, Any] = {"runs": runs}
    for edge in ("from_the_deciding_edge_ms", "from_release_ms"):
        p99 = {n: [r[edge]["p99"] for r in runs if r["streams"] == n] for n in (0, streams)}
        figures[f"verdict_{edge}"] = verdict(p99[0], p99[streams])
    return figures


# ---------------------------------------------------------------------------------------
# the command
# ---------------------------------------------------------------------------------------


def checks(figures: dict[str, Any]) -> list[dict[str, Any]]:
    """The table's rows (metric, figure, target, ok), as measure.py prints them."""
    rows: list[dict[str, Any]] = []

    def row(metric: str, figure: Any, target: Any = None, ok: bool | None = None) -> None:
        rows.append({"metric": metric, "figure": figure, "target": target, "ok": ok})

    game = figures.get("room_game")
    if game:
        took = game["card_to_stream"]
        sizes = " / ".join(map(str, game["table_sizes"].values()))
        row(f"players, at tables (of 1 / 2 / 3 / 4: {sizes})", game["players"])
        row("tables", game["tables"])
        row("join, p99 (ms)", game["joins"]["join_ms"]["p99"])
        row("cards × streams", took["cards"] * took["streams"])
        row("cards × streams not received", took["missing"], 0, took["missing"] == 0)
        for name in ("p50", "p95", "p99", "max"):
            target = TARGETS["card_p99_ms"] if name == "p99" else None
            figure = took["ms"][name]
            row(f"press → card on every stream, {name} (ms)", figure, target,
                None if target is None or figure is None else figure <= target)  # fmt: skip
        every = game["streams_showing_every_place"]
        row("streams showing the whole ranking", every, game["players"], every == game["players"])
        problems = len(game["results_csv_problems"])
        row(f"results.csv problems ({game['players']} ranked rows)", problems, 0, problems == 0)
        peak = game["rss_peak_mb"]
        row("box peak RSS (MB)", peak, TARGETS["rss_peak_mb"], peak <= TARGETS["rss_peak_mb"])
    # every tap, from the edge that decided it (a room game has few taps decided on
    # release, a handful a run: their verdict stays in the JSON, not in the table)
    found = figures.get("press_to_frame", {}).get("verdict_from_the_deciding_edge_ms")
    if found and found["within_spread"] is not None:
        low, high = found["baseline_spread_ms"]
        row(f"press → frame p99: streams' median run (no phone: {low}–{high} ms)",
            found["other_median_ms"], high, found["within_spread"])  # fmt: skip
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300, help="phones: streams and sheets")
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between two NEXTs")
    parser.add_argument("--city", default="tokyo")
    parser.add_argument("--seed", default="ROOMLOAD", help="the room's deal code")
    parser.add_argument("--rounds", type=int, default=4, help="press → frame runs of each")
    parser.add_argument("--presses", type=int, default=200, help="per press → frame run")
    parser.add_argument("--no-game", action="store_true", help="press → frame only")
    parser.add_argument("--state-dir", type=Path, help="press → frame's store (/dev/shm: no disk)")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    parser.add_argument("--hold-streams", nargs=3, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.hold_streams:
        return hold_streams(*args.hold_streams)
    try:
        seating(args.players)
    except ValueError as error:
        print(f"room.py: {error}", file=sys.stderr)
        return 2
    lift_own_file_limit()
    started = time.time()
    figures: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(started)),
        "command": " ".join(["python", "benchmarks/room.py", *(argv or sys.argv[1:])]),
        "machine": machine(),
        "load_average_before": load_average(),
    }
    if not args.no_game:
        figures["room_game"] = room_game(args.players, args.pace, args.city, args.seed)
        figures["load_average_after_the_game"] = load_average()
    if args.rounds:
        figures["press_to_frame"] = found = press_to_frame_verdict(
            args.rounds, args.presses, args.players, args.players, args.state_dir
        )
        for edge in ("from_the_deciding_edge_ms", "from_release_ms"):
            print(sentence(f"press → frame {edge}", "no phone", f"{args.players} streams",
                           found[f"verdict_{edge}"]))  # fmt: skip
    figures["load_average_after"] = load_average()
    figures["seconds"] = round(time.time() - started, 1)
    figures["table"] = table = checks(figures)
    print_table(table)
    print(f"load average before {figures['load_average_before']}, after"
          f" {figures['load_average_after']}; {figures['seconds']} s")  # fmt: skip
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(figures, indent=1) + "\n")
    print(f"written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
