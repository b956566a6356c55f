"""A room of phones against the box's press → frame (issue 22): one command, a table and JSON.

    python benchmarks/crowd.py                      # 4 rounds of 300 presses, each way
    python benchmarks/crowd.py --rounds 1 --presses 100 --streams 100   # a quick look

Each round runs benchmarks/measure.py's press → frame (mock GPIO pins, the real loop,
SQLite, the window's paint) twice, in turn (A/B/A/B…): with the page on but no stream,
then with `--streams` event streams open on the phones' page (held and read by a separate
process, from many loopback addresses, as a room of phones would) plus `--half-sent`
requests that never finish their headers (opened again whenever the box closes them).
The spread of the no-stream rounds' p99 is the machine's own noise; the verdict
(benchmarks/verdict.py) says whether the streams' p99 falls within it, for every tap
(from the edge that decided it) and for taps decided on release, with the load average
before and after. The process holding the streams runs at nice 19: on a 2-core machine
it would otherwise take the box's CPU, which a room of real phones does not.
`--state-dir /dev/shm` keeps a shared machine's disk (fsync) noise out of both sides.

    python benchmarks/crowd.py --storm               # a join storm, 4 runs each way

`--storm` (issue 32): the caller plays room games (press → frame as above, the page
wired to the loop as `nsdevice run` wires it: joins to the loop's `RoomInbox`) while a
separate process at nice 19, on the page's core alone, sends joins from `--addresses`
loopback addresses (127.0.0.2, 127.0.0.3, …) for `--storm-seconds`, each address joining
its own seat again and again with a new name (a rename a join, with the seat's claim from
its first answer) as fast as the box answers, whatever it answers (an attacker does not
wait out a Retry-After). Runs without and with the storm
alternate (A/B/A/B…), each of `--storm-presses` taps (about 20 s of play); the verdict is
the storm's p99 against the no-storm runs' spread (benchmarks/verdict.py).

Speed is measured here, never asserted in tests (DESIGN.md).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.figures import machine  # noqa: E402
from benchmarks.phones import free_port  # noqa: E402
from benchmarks.presses import press_to_frame  # noqa: E402
from benchmarks.verdict import load_average, sentence, verdict  # noqa: E402

DEFAULT_JSON = ROOT / "benchmarks" / "results" / "crowd.json"


class HalfSent:
    """`count` requests that never finish their headers, each from its own address; one
    the box closes (after its 10 s) is opened again at the next look, as an attacker would."""

    def __init__(self, port: int, count: int) -> None:
        from benchmarks.reliability.web_box import connect, loopback

        self._open = lambda index: connect(port, loopback(5000 + index))
        self.sockets = [self._begin(index) for index in range(count)]
        self.reopened = 0

    def _begin(self, index: int) -> Any:
        sock = self._open(index)
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # never ends
        sock.setblocking(False)
        return sock

    def look(self) -> None:
        import select

        closed, _, _ = select.select(self.sockets, [], [], 0)
        for sock in closed:
            try:
                gone = sock.recv(4096) == b""
            except OSError:
                gone = True
            if gone:
                index = self.sockets.index(sock)
                sock.close()
                self.sockets[index] = self._begin(index)
                self.reopened += 1

    def close(self) -> None:
        for sock in self.sockets:
            sock.close()


def hold_streams(port: int, count: int, half_sent: int) -> int:
    """The child: open `count` streams and `half_sent` requests, say "ready", read the
    streams and keep the half-sent ones open until stdin closes."""
    import select

    from benchmarks.reliability.web_box import Streams, lift_own_file_limit

    lift_own_file_limit()
    os.nice(19)  # the phones' own work is not the box's: let it have the cores first
    streams = Streams(port, count)
    slow = HalfSent(port, half_sent)
    deadline = time.monotonic() + 5.0
    while streams.events < count and time.monotonic() < deadline:
        time.sleep(0.05)  # every stream has its first table
    print(f"ready {streams.refused}", flush=True)
    while not select.select([sys.stdin], [], [], 1.0)[0]:
        slow.look()
    sys.stdin.read()
    print(f"events {streams.events} refused {streams.refused} reopened {slow.reopened}",
          flush=True)  # fmt: skip
    streams.close()
    slow.close()
    return 0


def frames(presses: int, streams: int, state_dir: Path | None = None,
           half_sent: int = 0) -> dict[str, Any]:  # fmt: skip
    from nsdevice.inputs.events import Busy, QueueInbox
    from nsdevice.runner.web import open_web as _open_web

    port = free_port()
    busy = Busy()  # the loop's, shared with the page as `nsdevice run` shares it
    web = _open_web(("127.0.0.1", port), QueueInbox(), busy=busy)
    child: subprocess.Popen[str] | None = None

    def connect() -> None:
        nonlocal child
        if not web.started.wait(30):
            raise RuntimeError("the page did not start")
        if not streams:
            return
        command = [sys.executable, __file__, "--hold-streams", str(port), str(streams),
                   str(half_sent)]  # fmt: skip
        child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 text=True)  # fmt: skip
        assert child.stdout is not None
        ready = child.stdout.readline().split()
        if ready[:1] != ["ready"] or ready[1] != "0":
            raise RuntimeError(f"the streams did not all open: {ready}")

    web.start()
    said = ""
    try:
        figures = press_to_frame(
            presses, publish=web.publish, before_presses=connect, state_dir=state_dir,
            busy=busy,
        )  # fmt: skip
    finally:
        if child is not None:
            said, _ = child.communicate("", timeout=30)
        web.close()
    figures["streams"] = streams
    figures["half_sent"] = half_sent if streams else 0
    if said:
        figures["stream_events_read"] = int(said.split()[1])
        figures["half_sent_reopened"] = int(said.split()[5])
    return figures


def interleaved(presses: int, streams: int, block: int,
                state_dir: Path | None = None) -> dict[str, Any]:  # fmt: skip
    """One run with `streams` open throughout, the tables published to them in every
    other block of `block` taps and held back in the others, so the machine's load falls
    on both sides alike. A stream that is sent nothing costs nothing (it waits in the
    kernel), so the held-back blocks are the box with no stream to feed. A table fans out
    after its frame, so it weighs on the next tap: the first tap of each block (its
    predecessor was of the other kind) is left out of both sides."""
    from benchmarks.figures import summary
    from nsdevice.inputs.events import Busy, QueueInbox
    from nsdevice.runner.web import open_web as _open_web

    port = free_port()
    busy = Busy()
    web = _open_web(("127.0.0.1", port), QueueInbox(), busy=busy)
    child: subprocess.Popen[str] | None = None
    current = [0]

    def connect() -> None:
        nonlocal child
        if not web.started.wait(30):
            raise RuntimeError("the page did not start")
        command = [sys.executable, __file__, "--hold-streams", str(port), str(streams), "0"]
        child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 text=True)  # fmt: skip
        assert child.stdout is not None
        ready = child.stdout.readline().split()
        if ready[:1] != ["ready"] or ready[1] != "0":
            raise RuntimeError(f"the streams did not all open: {ready}")

    def before_tap(tap: int) -> None:
        current[0] = tap

    def publish(table: Any) -> None:
        if current[0] // block % 2 == 0:
            web.publish(table)

    samples: dict[str, list[float]] = {}
    web.start()
    said = ""
    try:
        press_to_frame(presses, publish=publish, before_presses=connect,
                                 before_tap=before_tap, samples=samples,
                                 state_dir=state_dir, busy=busy)  # fmt: skip
    finally:
        if child is not None:
            said, _ = child.communicate("", timeout=30)
        web.close()
    frames = samples["frame_ms"]
    if len(frames) != presses:
        raise RuntimeError(f"{presses - len(frames)} taps had no frame")
    sides: dict[str, list[float]] = {"fed": [], "held_back": []}
    for tap, took in enumerate(frames):
        if tap % block:
            sides["fed" if tap // block % 2 == 0 else "held_back"].append(took)
    return {
        "streams": streams,
        "block": block,
        "presses": presses,
        "stream_events_read": int(said.split()[1]) if said else 0,
        **{f"from_release_ms_{side}": summary(values, 1, 3) for side, values in sides.items()},
    }


def storm(port: int, addresses: int, seconds: float) -> int:
    """The child: joins from `addresses` loopback addresses for `seconds`, once the
    first join code comes on stdin (a new one comes with every new game); one JSON line
    of the answers' statuses at the end."""
    import asyncio

    from benchmarks.reliability.web_box import lift_own_file_limit, loopback, post
    from benchmarks.room import exchange

    lift_own_file_limit()
    os.nice(19)  # the phones are other machines: they do not take the box's cores
    # …and only the page's core: left free to roam, it kept a core a press had woken the
    # loop onto for up to 5 ms (perf sched), as real phones can't
    from nsdevice.web.process import page_core

    if (core := page_core(os.sched_getaffinity(0))) is not None:
        os.sched_setaffinity(0, {core})
    code = [sys.stdin.readline().strip()]
    statuses: dict[str, int] = {}

    async def codes() -> None:
        loop = asyncio.get_running_loop()
        while line := await loop.run_in_executor(None, sys.stdin.readline):
            code[0] = line.strip()

    async def phone(number: int, until: float) -> None:
        source = loopback(number)
        table, seat = number // 4 + 1, number % 4 + 1
        joins, claim, claimed_in = 0, "", ""
        while time.monotonic() < until:
            joins += 1
            body = {"name": f"Storm {number}.{joins}", "table": table, "size": 4, "seat": seat}
            if claim and claimed_in == code[0]:
                body["claim"] = claim  # the seat's claim, as the phone keeps it: a rename
            request = post("/room/join", port, body, f"X-Join-Code: {code[0]}\r\n")
            try:
                status, _, answer = await exchange(port, source, request, timeout=5)
                key = str(status)
                if status == 200 and not body.get("claim"):
                    claim, claimed_in = str(json.loads(answer).get("claim", "")), code[0]
            except (OSError, TimeoutError):
                key = "error"
                await asyncio.sleep(0.05)
            statuses[key] = statuses.get(key, 0) + 1

    async def everyone() -> None:
        reading = asyncio.ensure_future(codes())
        until = time.monotonic() + seconds
        await asyncio.gather(*(phone(number, until) for number in range(addresses)))
        reading.cancel()  # its thread ends when the parent closes stdin

    asyncio.run(everyone())
    print(json.dumps(statuses), flush=True)
    return 0


def storm_frames(presses: int, addresses: int, seconds: float,
                 state_dir: Path | None) -> dict[str, Any]:  # fmt: skip
    """press → frame playing room games with the page wired to the loop; with a join
    storm from `addresses` loopback addresses (or none, `addresses` 0)."""
    from benchmarks.presses import press_to_frame
    from nsdevice.inputs.events import Busy
    from nsdevice.inputs.room_inbox import RoomInbox
    from nsdevice.runner.web import open_web as _open_web
    from nsdevice.session import Settings

    port = free_port()
    busy = Busy()
    pages: list[Any] = []
    child: subprocess.Popen[str] | None = None
    sent: list[Any] = [None, None]  # [-, the game whose join code the storm has]

    def wire(inbox: Any) -> RoomInbox:
        room = RoomInbox(inbox)  # as nsdevice run wires the page (runner/__init__.py)
        pages.append(_open_web(("127.0.0.1", port), inbox, busy=busy, room=room))
        pages[0].start()
        return room

    def publish(table: Any) -> None:
        pages[0].publish(table)

    def connect() -> None:
        nonlocal child
        if not pages[0].started.wait(30):
            raise RuntimeError("the page did not start")
        if addresses:
            command = [sys.executable, __file__, "--storm-child", str(port), str(addresses),
                       str(seconds)]  # fmt: skip
            child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True)  # fmt: skip

    def between(session: Any, inbox: Any) -> None:
        if child is None or session.game == sent[1] or child.poll() is not None:
            return
        code = session.table().code  # the join code the caller shows, as phones read it
        if code:
            assert child.stdin is not None
            child.stdin.write(code + "\n")
            child.stdin.flush()
            sent[1] = session.game

    started = time.monotonic()
    try:
        figures = press_to_frame(
            presses, publish=publish, before_presses=connect, state_dir=state_dir,
            busy=busy, settings=Settings(language="en", room=True), between=between,
            room_inbox=wire,
        )  # fmt: skip
    finally:
        said = ""
        if child is not None:
            said, _ = child.communicate("", timeout=seconds + 60)
        for page in pages:
            page.close()
    figures["addresses"] = addresses
    figures["play_seconds"] = round(time.monotonic() - started, 1)
    figures["storm_answers"] = json.loads(said.strip().splitlines()[-1]) if said.strip() else {}
    return figures


def storm_verdict(args: argparse.Namespace) -> dict[str, Any]:
    runs = []
    for _ in range(args.rounds):
        for count in (0, args.addresses):  # the baseline first, then the storm: A/B/A/B
            run = storm_frames(args.storm_presses, count, args.storm_seconds, args.state_dir)
            runs.append(run)
            took, woke = run["from_the_deciding_edge_ms"], run["edge_to_loop_ms"]
            print(f"addresses {count:3}: press → frame from the deciding edge p90"
                  f" {took['p90']} ms, p99 {took['p99']} ms, max {took['max']} ms"
                  f" ({took['count']} taps in {run['play_seconds']} s; edge → loop p90"
                  f" {woke['p90']} ms, p99 {woke['p99']} ms), joins answered"
                  f" {run['storm_answers']}, load {load_average()[0]}", flush=True)  # fmt: skip
    figures: dict[str, Any] = {"runs": runs}
    for edge in ("from_the_deciding_edge_ms", "from_release_ms"):
        p99 = {n: [r[edge]["p99"] for r in runs if r["addresses"] == n]
               for n in (0, args.addresses)}  # fmt: skip
        figures[f"verdict_{edge}"] = found = verdict(p99[0], p99[args.addresses])
        print(sentence(f"press → frame {edge}", "no storm",
                       f"a join storm from {args.addresses} addresses", found))  # fmt: skip
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=300, help="per run")
    parser.add_argument("--rounds", type=int, default=4, help="runs of each, alternated")
    parser.add_argument("--streams", type=int, default=500)
    parser.add_argument("--half-sent", type=int, default=100)
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    parser.add_argument(
        "--state-dir", type=Path, help="the store's folder (e.g. /dev/shm: no disk noise)"
    )
    parser.add_argument("--block", type=int, default=10, help="taps a side, interleaved")
    parser.add_argument("--interleaved-presses", type=int, default=2000)
    parser.add_argument("--storm", action="store_true", help="a join storm instead (issue 32)")
    parser.add_argument("--addresses", type=int, default=200, help="the storm's loopback addresses")
    parser.add_argument("--storm-seconds", type=float, default=20.0)
    parser.add_argument("--storm-presses", type=int, default=250, help="per run: about 20 s")
    parser.add_argument("--hold-streams", nargs=3, type=int, help=argparse.SUPPRESS)
    parser.add_argument("--storm-child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.hold_streams:
        return hold_streams(*args.hold_streams)
    if args.storm_child:
        port, addresses, seconds = args.storm_child
        return storm(int(port), int(addresses), float(seconds))
    if args.storm:
        if args.json == DEFAULT_JSON:
            args.json = DEFAULT_JSON.with_name("crowd-storm.json")
        started = time.time()
        figures = {"command": " ".join(["python", "benchmarks/crowd.py", *(argv or sys.argv[1:])]),
                   "date": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(started)),
                   "machine": machine(), "load_average_before": load_average(),
                   **storm_verdict(args), "load_average_after": load_average(),
                   "seconds": round(time.time() - started, 1)}  # fmt: skip
        print(f"load average before {figures['load_average_before']},"
              f" after {figures['load_average_after']}; {figures['seconds']} s")  # fmt: skip
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
        print(f"wrote {args.json}")
        return 0
    figures: dict[str, Any] = {"machine": machine(), "load_average_before": load_average(),
                               "runs": []}  # fmt: skip
    for _ in range(args.rounds):
        for streams in (0, args.streams):  # the baseline first, then the crowd: A/B/A/B
            run = frames(args.presses, streams, args.state_dir, args.half_sent)
            figures["runs"].append(run)
            print(f"streams {streams:4}: p99 from the deciding edge"
                  f" {run['from_the_deciding_edge_ms']['p99']} ms, from release"
                  f" {run['from_release_ms']['p99']} ms ({run['from_release_ms']['count']}"
                  f" taps), load {load_average()[0]}", flush=True)  # fmt: skip
    for edge in ("from_the_deciding_edge_ms", "from_release_ms") if args.rounds else ():
        p99 = {n: [r[edge]["p99"] for r in figures["runs"] if r["streams"] == n]
               for n in (0, args.streams)}  # fmt: skip
        figures[f"verdict_{edge}"] = found = verdict(p99[0], p99[args.streams])
        print(sentence(f"press → frame {edge}", "no stream",
                       f"{args.streams} streams + {args.half_sent} half-sent", found))  # fmt: skip
    if args.interleaved_presses:
        mixed = interleaved(args.interleaved_presses, args.streams, args.block, args.state_dir)
        figures["interleaved"] = mixed
        for side in ("fed", "held_back"):
            took = mixed[f"from_release_ms_{side}"]
            print(f"interleaved, {side:9}: median {took['median']} ms, p99 {took['p99']} ms,"
                  f" {took['count']} taps")  # fmt: skip
    figures["load_average_after"] = load_average()
    print(f"load average before {figures['load_average_before']},"
          f" after {figures['load_average_after']}")  # fmt: skip
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(figures, indent=2) + "\n")
    print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
