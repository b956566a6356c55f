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
import json
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.figures import machine, print_table  # noqa: E402
from benchmarks.reliability.harness import BOX, ENV  # noqa: E402
from benchmarks.reliability.web_box import (  # noqa: E402
    _box_limit,
    free_port,
    get,
    lift_own_file_limit,
    stop,
)
from benchmarks.room_phones import (  # noqa: E402
    RoomError,
    card_key,
    card_latencies,
    exchange,
    hold_streams,
    join_all,
    results_problems,
    room_players,
    score_all,
    seating,
)
from benchmarks.verdict import load_average, sentence, verdict  # noqa: E402

DEFAULT_JSON = ROOT / "benchmarks" / "results" / "room.json"
TARGETS = {"card_p99_ms": 500.0, "rss_peak_mb": 90.0}










# ---------------------------------------------------------------------------------------
# the phones' side: event streams and plain requests
# ---------------------------------------------------------------------------------------




















# ---------------------------------------------------------------------------------------
# score sheets and the results
# ---------------------------------------------------------------------------------------












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
        """The box's process and the page's own (issue 32), added."""
        from benchmarks.figures import children, status_kb

        pids = [self.process.pid, *children(self.process.pid)]
        return round(sum(status_kb(pid, key) for pid in pids) / 1024, 1)

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
    from benchmarks.presses import press_to_frame
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
