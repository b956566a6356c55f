"""The host's side of pi_guest/tv_presses.py (benchmarks/pi_cost.py's TV figures): the
room's phones joined and their event streams held from this machine, one loopback
address each (benchmarks/room_phones.py, as room.py seats them: tables of 1 to 4), while
the box taps NEXT under qemu. Also runs the harness on the PC (`python benchmarks/pi_tv.py
--players 300`), a quick look at the same taps without qemu's counts.
"""

from __future__ import annotations

import argparse
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
HARNESS = "benchmarks/pi_guest/tv_presses.py"
JOIN_CHUNK = 25  # joins at once: an emulated page answers a few at a time within their timeout
LINE_WAIT = 1800.0  # seconds for the harness's next line under qemu (a 300-seat room's frames)


class TalkError(RuntimeError):
    """The harness or the phones did not do what the conversation expects: what happened."""


@dataclass(frozen=True)
class Talked:
    """What the conversation saw: the screen after each tap, the streams that had their
    first table when they were ready, and the measured taps whose delivery was late."""

    screens: tuple[str, ...]
    streams_ready: int
    late: int


class Lines:
    """A process's stdout, line by line, with a deadline for each (a reader thread)."""

    def __init__(self, stream: IO[str]) -> None:
        self._lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self._lines.put(line)
        self._lines.put("")

    def next(self, seconds: float = LINE_WAIT) -> list[str]:
        try:
            line = self._lines.get(timeout=seconds)
        except queue.Empty:
            raise TalkError(f"no line in {seconds:.0f} s") from None
        if not line:
            raise TalkError("the process ended")
        return line.split()


def expect(words: list[str], first: str) -> list[str]:
    if words[:1] != [first]:
        raise TalkError(f"expected {first!r}, got {' '.join(words)[:200]!r}")
    return words[1:]


def talk(box: subprocess.Popen[str], players: int, port: int) -> Talked:
    """The conversation with a running harness (see its docstring); `players` 0: one table."""
    assert box.stdin is not None and box.stdout is not None
    said = Lines(box.stdout)
    streams: subprocess.Popen[str] | None = None
    ready, late = 0, 0
    try:
        if players:
            from benchmarks.room_phones import join_all, room_players

            (code,) = expect(said.next(), "ready")
            streams = subprocess.Popen(
                [sys.executable, str(ROOT / "benchmarks" / "room.py"), "--hold-streams",
                 str(port), str(players), "0"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            )  # fmt: skip
            assert streams.stdin is not None and streams.stdout is not None
            heard = Lines(streams.stdout)
            ready = int(expect(heard.next(120), "ready")[0])
            seated = room_players(players)
            for start in range(0, players, JOIN_CHUNK):
                join_all(port, code, seated[start : start + JOIN_CHUNK])
            box.stdin.write(f"joined {players}\n")
            box.stdin.flush()
        while True:
            words = said.next()
            if words[:1] == ["screens"]:
                return Talked(tuple(words[1:]), ready, late)
            (number,) = expect(words, "published")
            if streams is None or streams.stdin is None:
                raise TalkError("a table published with no phones")
            streams.stdin.write(f"at {number}\n")
            streams.stdin.flush()
            answer = heard.next(180)
            late += answer[0] == "late"
            box.stdin.write("delivered\n")
            box.stdin.flush()
    finally:
        if streams is not None:
            streams.kill()
            streams.wait(10)


def ended(box: subprocess.Popen[str], seconds: float = 600) -> None:
    """The harness's exit (its Stop closes the page and the display); killed past `seconds`."""
    try:
        if box.wait(seconds) != 0:
            raise TalkError(f"the harness ended with {box.returncode}")
    except subprocess.TimeoutExpired:
        box.kill()
        raise TalkError(f"the harness did not end in {seconds:.0f} s") from None


def harness_arguments(
    state_dir: str,
    seed: str,
    warm_up: int,
    taps: int,
    port: int | None,
    fifo: str | None = None,
    page_python: str | None = None,
) -> list[str]:
    """tv_presses.py's arguments: the room caller's with `port`, else the one-table box's;
    with `fifo` and `page_python`, the page's process counted and marked too."""
    arguments = [state_dir, seed, str(warm_up), str(taps)]
    if port is not None:
        arguments += ["--room", str(port)]
    if fifo is not None and page_python is not None:
        arguments += ["--page-marks", fifo, "--page-python", page_python]
    return arguments


def main(argv: Sequence[str] | None = None) -> int:
    """The harness on the PC, under cProfile when asked: where a tap's time goes."""
    import tempfile

    from benchmarks.reliability.web_box import free_port, lift_own_file_limit

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=0, help="the room's phones (0: one table)")
    parser.add_argument("--taps", type=int, default=5)
    parser.add_argument("--warm-up", type=int, default=3)
    parser.add_argument("--seed", default="COST")
    parser.add_argument("--profile", type=Path, help="cProfile output of the box's process")
    args = parser.parse_args(argv)
    lift_own_file_limit()
    port = free_port() if args.players else None
    with tempfile.TemporaryDirectory(prefix="nsdevice-tv-") as folder:
        command = [sys.executable]
        if args.profile is not None:
            command += ["-m", "cProfile", "-o", str(args.profile)]
        command += [
            str(ROOT / HARNESS),
            *harness_arguments(folder, args.seed, args.warm_up, args.taps, port, None),
        ]
        started = time.monotonic()
        box = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            talked = talk(box, args.players, port or 0)
            ended(box)
        except BaseException:
            box.kill()  # else it waits for players who never come, and its page with it
            raise
    print(f"{time.monotonic() - started:.1f} s; screens {' '.join(talked.screens)}; streams"
          f" ready {talked.streams_ready}; late {talked.late}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
