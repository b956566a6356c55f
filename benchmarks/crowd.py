"""A room of phones against the box's press → frame (issue 22): one command, a table and JSON.

    python benchmarks/crowd.py                      # 3 rounds of 300 presses, each way
    python benchmarks/crowd.py --rounds 1 --presses 100 --streams 100   # a quick look

Each round runs benchmarks/measure.py's press → frame (mock GPIO pins, the real loop,
SQLite, the window's paint) twice, in turn: with `--streams` event streams open on the
phones' page (held and read by a separate process, from many loopback addresses, as a
room of phones would), and with the page on but no stream. The spread between rounds of
the same kind is the machine's own noise; the streams cost nothing measurable when their
p99 falls within it. The process holding the streams runs at nice 19: on a 2-core machine
it would otherwise take the box's CPU, which a room of real phones does not.
`--state-dir /dev/shm` keeps a shared machine's disk (fsync) noise out of both sides.

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

from benchmarks.measure import machine, press_to_frame  # noqa: E402
from benchmarks.phones import free_port  # noqa: E402

DEFAULT_JSON = ROOT / "benchmarks" / "results" / "crowd.json"


def hold_streams(port: int, count: int) -> int:
    """The child: open `count` streams, say "ready", read them until stdin closes."""
    from benchmarks.reliability.web_box import Streams, lift_own_file_limit

    lift_own_file_limit()
    os.nice(19)  # the phones' own work is not the box's: let it have the cores first
    streams = Streams(port, count)
    time.sleep(1.0)  # every stream has its first table
    print(f"ready {streams.refused}", flush=True)
    sys.stdin.read()
    print(f"events {streams.events} refused {streams.refused}", flush=True)
    streams.close()
    return 0


def frames(presses: int, streams: int, state_dir: Path | None = None) -> dict[str, Any]:
    from nsdevice.inputs.events import QueueInbox
    from nsdevice.runner.web import open_web as _open_web

    port = free_port()
    web = _open_web(("127.0.0.1", port), QueueInbox())
    child: subprocess.Popen[str] | None = None

    def connect() -> None:
        nonlocal child
        if not web.started.wait(30):
            raise RuntimeError("the page did not start")
        if not streams:
            return
        command = [sys.executable, __file__, "--hold-streams", str(port), str(streams)]
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
            presses, publish=web.publish, before_presses=connect, state_dir=state_dir
        )
    finally:
        if child is not None:
            said, _ = child.communicate("", timeout=30)
        web.close()
    figures["streams"] = streams
    if said:
        figures["stream_events_read"] = int(said.split()[1])
    return figures


def interleaved(presses: int, streams: int, block: int,
                state_dir: Path | None = None) -> dict[str, Any]:  # fmt: skip
    """One run with `streams` open throughout, the tables published to them in every
    other block of `block` taps and held back in the others, so the machine's load falls
    on both sides alike. A stream that is sent nothing costs nothing (it waits in the
    kernel), so the held-back blocks are the box with no stream to feed. A table fans out
    after its frame, so it weighs on the next tap: the first tap of each block (its
    predecessor was of the other kind) is left out of both sides."""
    from benchmarks.measure import summary
    from nsdevice.inputs.events import QueueInbox
    from nsdevice.runner.web import open_web as _open_web

    port = free_port()
    web = _open_web(("127.0.0.1", port), QueueInbox())
    child: subprocess.Popen[str] | None = None
    current = [0]

    def connect() -> None:
        nonlocal child
        if not web.started.wait(30):
            raise RuntimeError("the page did not start")
        command = [sys.executable, __file__, "--hold-streams", str(port), str(streams)]
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
                                 state_dir=state_dir)  # fmt: skip
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=300, help="per run")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--streams", type=int, default=500)
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    parser.add_argument(
        "--state-dir", type=Path, help="the store's folder (e.g. /dev/shm: no disk noise)"
    )
    parser.add_argument("--block", type=int, default=10, help="taps a side, interleaved")
    parser.add_argument("--interleaved-presses", type=int, default=2000)
    parser.add_argument("--hold-streams", nargs=2, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.hold_streams:
        return hold_streams(*args.hold_streams)
    figures: dict[str, Any] = {"machine": machine(), "runs": []}
    for _ in range(args.rounds):
        for streams in (args.streams, 0):
            run = frames(args.presses, streams, args.state_dir)
            figures["runs"].append(run)
            print(f"streams {streams:4}: p99 from press {run['from_press_ms']['p99']} ms,"
                  f" from release {run['from_release_ms']['p99']} ms", flush=True)  # fmt: skip
    for streams in (args.streams, 0) if args.rounds else ():
        for edge in ("from_press_ms", "from_release_ms"):
            p99 = [r[edge]["p99"] for r in figures["runs"] if r["streams"] == streams]
            figures[f"p99_{edge}_{streams}_streams"] = {"runs": p99, "low": min(p99),
                                                         "high": max(p99)}  # fmt: skip
            print(f"{streams:4} streams: p99 {edge} {min(p99)} to {max(p99)} ms,"
                  f" {len(p99)} runs")  # fmt: skip
    if args.interleaved_presses:
        mixed = interleaved(args.interleaved_presses, args.streams, args.block, args.state_dir)
        figures["interleaved"] = mixed
        for side in ("fed", "held_back"):
            took = mixed[f"from_release_ms_{side}"]
            print(f"interleaved, {side:9}: median {took['median']} ms, p99 {took['p99']} ms,"
                  f" {took['count']} taps")  # fmt: skip
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(figures, indent=2) + "\n")
    print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
