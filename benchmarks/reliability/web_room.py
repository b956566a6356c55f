"""`web_room`: a room game's page (issue 25) against what a café's Wi-Fi may send, on a
real `nsdevice run --room --web 127.0.0.1:PORT`.

- `players` phones (at most 380) join at once, each from its own loopback address (phones on a Wi-Fi
  each have their own), at tables of four: each answer is 200, or 503/429 with
  Retry-After, and a refused phone tries again; every player ends up seated, none lost
  silently (the box's own count of players says so).
- One address cannot churn the room: of `JOINS` + 20 joins from it, at most `JOINS` are
  taken.
- Bad bodies (not JSON, deep JSON, a megabyte, a name with a control character, a seat
  the table does not have, a table joined with another size) get a 4xx and seat nobody;
  a name with markup is taken as text.
- No result before a score (409); and after all of it the box still answers its own
  button (a NEXT draws the round's start) and a fresh phone.

Loopback only; every socket has a timeout.
"""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from benchmarks.reliability.harness import Report, working_folder
from benchmarks.reliability.web_box import WebBox, ask, get, lift_own_file_limit, loopback, post

JOINS = 20  # nsdevice.web.room.JOINS: joins a minute one address may make
TRIES = 30  # a phone's tries before it gives up (the page's own)
ROOMY = 95  # tables the crowd fills, four a table; 96..99 are this check's own


def raw(path: str, port: int, body: bytes, extra: str = "") -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{extra}Connection: close\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode() + body


def players_in(port: int) -> int:
    status, data = ask(port, get("/state", port))
    return int(data["room"]["players"]) if status == 200 and data and data["room"] else -1


def settled(port: int, expected: int, seconds: float = 10.0) -> int:
    """The box's count of players once it has taken what was sent (`expected`, or what
    it still shows after `seconds`)."""
    deadline = time.monotonic() + seconds
    while (seen := players_in(port)) != expected and time.monotonic() < deadline:
        time.sleep(0.1)
    return seen


def web_room(players: int = 300, folder: Path | None = None) -> Report:
    report = Report("web_room")
    lift_own_file_limit()
    with working_folder(folder) as directory:
        box = WebBox(directory / "state", options=("--room", "--seed", "EDGES25"))
        try:
            box.wait_page()
            code = str(box.wait_screen("summary")["room"]["code"])
            port = box.port
            key = f"X-Join-Code: {code}\r\n"

            def join(number: int) -> tuple[str, int]:
                """A phone's join, tried again on 429/503: (how it ended, its retries)."""
                body = {"name": f"P{number}", "table": number // 4 + 1, "size": 4,
                        "seat": number % 4 + 1}  # fmt: skip
                for tried in range(TRIES):
                    try:
                        status, answer = ask(port, post("/room/join", port, body, key),
                                             loopback(number), timeout=10)  # fmt: skip
                    except OSError as error:
                        return f"error {type(error).__name__}", tried
                    if status == 200 and answer and answer.get("seat") == body["seat"]:
                        return "200", tried
                    if status not in (429, 503):
                        return f"status {status}", tried
                    time.sleep(0.5)
                return "gave up", TRIES

            started = time.monotonic()
            seatable = min(players, ROOMY * 4)
            with ThreadPoolExecutor(64) as pool:
                ended = list(pool.map(join, range(seatable)))
            report.counts["join_seconds"] = round(time.monotonic() - started, 2)
            report.counts["join_retries"] = sum(tried for _, tried in ended)
            outcomes = [outcome for outcome, _ in ended]
            for outcome in set(outcomes):
                report.counts[f"joined_{outcome}"] = outcomes.count(outcome)
            if outcomes.count("200") != seatable:
                report.fail(f"of {seatable} phones {outcomes.count('200')} were seated")
            report.counts["box_players"] = settled(port, seatable)
            if report.counts["box_players"] != seatable:
                report.fail(f"{seatable} phones were told they joined; the box lists "
                            f"{report.counts['box_players']}")  # fmt: skip

            one = loopback(5000)  # one machine joining again and again (names churned)
            taken = sum(
                ask(port, post("/room/join", port, {"name": f"X{n}", "table": 99, "size": 4,
                                                    "seat": 1}, key), one)[0] == 200
                for n in range(JOINS + 20)
            )  # fmt: skip
            report.counts["one_address_joins_taken"] = taken
            if taken > JOINS:
                report.fail(f"one address joined {taken} times in a minute")

            before = settled(port, seatable + 1)  # and table 99's seat 1
            def join_body(**given: object) -> bytes:
                return json.dumps({"name": "A", "table": 1, "size": 4, "seat": 1, **given}).encode()

            bad: list[tuple[str, bytes]] = [
                ("not_json", b"{name: 1"),
                ("deep_json", b"[" * 1000 + b"]" * 1000),
                ("megabyte", b"{" + b" " * 1_000_000 + b"}"),
                ("control_name", join_body(name="A\u0007")),
                ("seat_past_size", join_body(table=98, size=2, seat=3)),
                ("other_size", join_body(size=3)),  # table 1 seats four
            ]
            for index, (name, body) in enumerate(bad):
                try:
                    request = raw("/room/join", port, body, key)
                    status, _ = ask(port, request, loopback(6000 + index))
                except OSError:  # refused before the whole megabyte was sent
                    status = 413
                report.counts[f"bad_{name}"] = status
                if not 400 <= status < 500:
                    report.fail(f"{name}: {status}")
            markup = {"name": "<img src=x>", "table": 97, "size": 1, "seat": 1}
            status, _ = ask(port, post("/room/join", port, markup, key), loopback(6100))
            report.counts["markup_name"] = status
            if status != 200:
                report.fail(f"a name with markup got {status} (it is only text)")
            if settled(port, before + 1) != before + 1:
                report.fail("a bad join seated someone, or the markup name nobody")

            status, _ = ask(port, get("/room/results.csv", port))
            report.counts["results_before_scores"] = status
            if status != 409:
                report.fail(f"results before any score: {status}")

            seen = len(box.screens)
            box.keys("n")  # the caller's own button
            box.wait_screen("round_start", seen, seconds=5)
            late = {"name": "Late", "table": 96, "size": 1, "seat": 1}
            status, _ = ask(port, post("/room/join", port, late, key), loopback(7000))
            report.counts["fresh_phone_after"] = status
            if status != 200:
                report.fail(f"a fresh phone after it all: {status}")
        finally:
            box.close()
    return report


