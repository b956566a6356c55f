"""`web_seats`: a room seat belongs to its player and no phone squats the room (issue 32),
on a real `nsdevice run --room --web 127.0.0.1:PORT`.

- **Takeover.** `players` phones join tables of four, each from its own loopback address,
  and send their sheets at the room's end. Then `attempts` tries from fresh addresses to
  take their seats with the join code read off the box: a join with no claim, a made-up
  claim, another seat's claim, the claim's hash; and sheets with tokens of every shape.
  None may be taken: every join is 403, every sheet 403, and the results keep every
  player's name and total. Each player rejoins with their own claim (200).
- **Squatting.** On a fresh room, `squatters` phones (127.0.0.x) each try to open every
  table as a table of one, all at once; then a real table of four joins. At most one
  table (and one seat) a phone is taken, the four are seated. The caller then frees a
  squatter's table with the box's own keys (Menu, Tables and seats) and a real table
  takes its number.

A table nobody follows is freed after 10 minutes: that is tested with a fake clock
(tests/test_web_room_seats.py), not waited for here. Loopback only; every socket has a
timeout; the counts are bounded and the whole check ends within `seconds` more or less.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from benchmarks.reliability.harness import Report, working_folder
from benchmarks.reliability.web_box import WebBox, ask, get, lift_own_file_limit, loopback, post

TABLES = 99  # nsdevice.rules.room.MOST_TABLES
PER_ADDRESS = 15  # attempts from one address: under the page's JOINS (20) a minute


def _join(port: int, code: str, source: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    status, answer = ask(port, post("/room/join", port, body, f"X-Join-Code: {code}\r\n"),
                         source, timeout=10)  # fmt: skip
    return status, answer or {}


def _sheet(port: int, token: str, source: str, total: int) -> int:
    body = {"sheet": {"total": total, "best_line": 10}}
    return ask(port, post("/room/score", port, body, f"X-Seat-Token: {token}\r\n"), source)[0]


def _room(port: int) -> dict[str, Any]:
    status, data = ask(port, get("/state", port))
    return dict(data["room"]) if status == 200 and data and data.get("room") else {}


def _until(test: Any, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while not test():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def takeover(report: Report, folder: Path, players: int, attempts: int, seconds: float) -> None:
    box = WebBox(folder, options=("--room", "--seed", "SEATS32", "--city", "london"))
    try:
        box.wait_page()
        code = str(box.wait_screen("summary")["room"]["code"])
        port = box.port
        seated: list[dict[str, Any]] = []
        for number in range(players):
            body = {"name": f"P{number}", "table": number // 4 + 1, "size": 4,
                    "seat": number % 4 + 1}  # fmt: skip
            status, answer = _join(port, code, loopback(number), body)
            if status != 200:
                report.fail(f"player {number} was not seated: {status}")
                return
            seated.append({**body, **answer, "source": loopback(number)})
        if not _until(lambda: _room(port).get("players") == players):
            report.fail("the box never listed every player")
        for _ in range(600):  # the caller's NEXT, to the room's end
            if box.screens and box.screens[-1].get("screen") == "room_results":
                break
            box.keys("n", pause=0.03)
        box.wait_screen("room_results", len(box.screens) - 1, seconds=5)
        for index, player in enumerate(seated):
            if _sheet(port, player["token"], player["source"], 100 + index) != 200:
                report.fail(f"player {index}'s own sheet was refused")
        started, tried, taken, sheets_taken = time.monotonic(), 0, 0, 0
        source = 20_000
        while tried < attempts and time.monotonic() - started < seconds:
            target = seated[tried % len(seated)]
            other = seated[(tried + 1) % len(seated)]
            place = {"name": "Mallory", "table": target["table"], "size": 4,
                     "seat": target["seat"]}  # fmt: skip
            tries: list[dict[str, Any]] = [
                place,
                {**place, "claim": "guessed-claim-" + str(tried)},
                {**place, "claim": other.get("claim", "")},  # another seat's own claim
                {**place, "claim": ""},
            ]
            for body in tries:
                status, _ = _join(port, code, loopback(source + tried // PER_ADDRESS), body)
                taken += status == 200
                if status not in (403, 429):
                    report.fail(f"a takeover join got {status}")
            mark = f"{target['table']}-{target['seat']}."
            forged = [
                target["token"][:-1] + ("1" if target["token"].endswith("0") else "0"),
                mark + "0" * 32,
                mark + other["token"].partition(".")[2],  # another seat's own mark
            ]
            for token in forged:
                status = _sheet(port, token, loopback(source + tried // PER_ADDRESS), 0)
                sheets_taken += status == 200
            tried += 1
        report.counts["takeover_attempts"] = tried * 4
        report.counts["takeover_seconds"] = round(time.monotonic() - started, 2)
        report.counts["takeovers_taken"] = taken
        report.counts["forged_sheets_taken"] = sheets_taken
        if taken or sheets_taken:
            report.fail(f"{taken} takeover joins and {sheets_taken} forged sheets were taken")
        def ranked() -> list[dict[str, Any]]:
            return list((ask(port, get("/room/results.json", port))[1] or {}).get("ranking", []))

        # the sheets answered 200 are taken; the box ranks them with its next batch
        _until(lambda: len(ranked()) >= len(seated), 5.0)
        places = ranked()
        kept = {(p["table"], p["seat"]): (p["name"], p["total"]) for p in places}
        changed = [
            p for index, p in enumerate(seated)
            if kept.get((p["table"], p["seat"])) != (p["name"], 100 + index)
        ]  # fmt: skip
        report.counts["names_kept"] = len(seated) - len(changed)
        if changed:
            report.fail(f"{len(changed)} seats changed hands")
        back = sum(
            _join(port, code, loopback(30_000 + index),
                  {"name": p["name"], "table": p["table"], "size": 4, "seat": p["seat"],
                   "claim": p.get("claim", "")})[0] == 200
            for index, p in enumerate(seated)
        )  # fmt: skip
        report.counts["rejoined_with_claim"] = back
        if back != len(seated):
            report.fail(f"only {back} of {len(seated)} players rejoined with their claim")
    finally:
        box.close()


def squatting(report: Report, folder: Path, squatters: int) -> None:
    box = WebBox(folder, options=("--room", "--seed", "SQUAT32"))
    try:
        box.wait_page()
        code = str(box.wait_screen("summary")["room"]["code"])
        port = box.port

        def squat(index: int) -> int:
            source = f"127.0.0.{index + 2}"
            taken = 0
            for table in range(1, TABLES + 1):
                body = {"name": f"S{index}", "table": table, "size": 1, "seat": 1}
                taken += _join(port, code, source, body)[0] == 200
            return taken

        started = time.monotonic()
        with ThreadPoolExecutor(squatters) as pool:
            taken = sum(pool.map(squat, range(squatters)))
        report.counts["squat_tries"] = squatters * TABLES
        report.counts["squat_seconds"] = round(time.monotonic() - started, 2)
        report.counts["squat_tables_taken"] = taken
        if taken > squatters:
            report.fail(f"{squatters} phones opened {taken} tables")
        _until(lambda: _room(port).get("tables") == taken)
        held = sorted(int(t) for t in _room(port).get("seated", {}))
        free = next(t for t in range(TABLES, 0, -1) if t not in held)
        four = [_join(port, code, loopback(40_000 + seat),
                      {"name": f"R{seat}", "table": free, "size": 4, "seat": seat})[0]
                for seat in range(1, 5)]  # fmt: skip
        report.counts["real_table_of_four"] = four.count(200)
        if four != [200] * 4:
            report.fail(f"a real table of four got {four}")
        # the caller frees the first squatter's table from the box's own keys
        seen = len(box.screens)
        box.keys("nm")  # the round's start, then its menu (MENU on a summary is the setup)
        menu = box.wait_screen("menu", seen)
        keys = [row["key"] for row in menu["rows"]]
        if "room_tables" not in keys:
            report.fail("the box's menu has no Tables and seats: the caller cannot free one")
            return
        down = keys.index("room_tables")
        seen = len(box.screens)
        box.keys("n" * down + "m")
        listed = box.wait_screen("room_tables", seen)
        rows = [(row["table"], row["seat"]) for row in listed["rows"]]
        victim = held[0]
        seen = len(box.screens)
        box.keys("n" * (rows.index((victim, 0)) + 1) + "mm")
        freed = _until(lambda: str(victim) not in _room(port).get("seated", {}), 5)
        status, _ = _join(port, code, loopback(41_000),
                          {"name": "Late", "table": victim, "size": 3, "seat": 2})  # fmt: skip
        report.counts["caller_freed_then_joined"] = status if freed else 0
        if not freed or status != 200:
            report.fail(f"the caller's freeing: freed {freed}, then a join got {status}")
    finally:
        box.close()


def web_seats(
    players: int = 8,
    attempts: int = 50,
    squatters: int = 5,
    seconds: float = 60.0,
    folder: Path | None = None,
) -> Report:
    report = Report("web_seats")
    lift_own_file_limit()
    with working_folder(folder) as directory:
        takeover(report, directory / "takeover", players, attempts, seconds)
        squatting(report, directory / "squatting", squatters)
    return report
