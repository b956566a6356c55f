"""The phones' page against the box's budget (issue 14): one command, a table and JSON.

    python benchmarks/phones.py                        # 1,000 presses, 10 pages, 5 starts
    python benchmarks/phones.py --presses 50 --starts 1 --idle-seconds 2   # a quick look

- press → frame with 10 pages connected: benchmarks/measure.py's press → frame (mock GPIO
  pins, the real loop, SQLite, the window's paint) with the loop publishing every table
  to the web side, and 10 Server-Sent Event streams open on loopback: 9 pages reading
  every update, and 1 that never reads (a phone gone to sleep mid-stream).
- cold start with the page on: process start → READY=1, `--web 127.0.0.1:PORT`.
- idle with the page on and no phone: CPU of an untouched box once the page is up.
- memory with the page on and 4 phones: peak RSS (VmHWM) after 4 pages have followed
  100 presses.

Speed is measured here, never asserted in tests (DESIGN.md).
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.figures import (  # noqa: E402  (the path above makes it importable)
    Started,
    children,
    cpu_seconds,
    machine,
    saved_game,
    status_kb,
    summary,
)
from benchmarks.presses import BUTTON_BUILD, press_to_frame  # noqa: E402

DEFAULT_JSON = ROOT / "benchmarks" / "results" / "phones.json"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Page:
    """One phone: an open event stream on loopback; `reading` False is a phone that
    stopped reading (its socket fills up and stays full)."""

    def __init__(self, port: int, reading: bool = True) -> None:
        self.events = 0
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.socket.sendall(b"GET /events?lang=en HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        if reading:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            while chunk := self.socket.recv(65536):
                self.events += chunk.count(b"data: ")  # one per table sent
        except OSError:
            pass

    def close(self) -> None:
        self.socket.close()


def frames_with_pages(presses: int, pages: int) -> dict:
    from nsdevice.inputs.events import QueueInbox
    from nsdevice.runner.web import open_web as _open_web

    port = free_port()
    web = _open_web(("127.0.0.1", port), QueueInbox())
    opened: list[Page] = []

    def connect() -> None:
        if not web.started.wait(30):
            raise RuntimeError("the page did not start")
        opened.extend(Page(port, reading=index < pages - 1) for index in range(pages))
        time.sleep(0.5)  # every stream has its first table

    web.start()
    try:
        figures = press_to_frame(presses, publish=web.publish, before_presses=connect)
    finally:
        events = [page.events for page in opened]
        for page in opened:
            page.close()
        web.close()
    figures["pages"] = pages
    figures["events_per_reading_page"] = summary([float(e) for e in events[:-1]], 1, 0)
    return figures


def _web_build(port: int, keys: bool = False) -> tuple[tuple[str, ...], dict[str, str]]:
    """The button build with the page on; `keys`: the terminal's keys instead, so the
    benchmark can press through stdin."""
    options, environment = BUTTON_BUILD
    if keys:
        options, environment = ("--input", "keyboard"), {}
    return (*options, "--web", f"127.0.0.1:{port}"), environment


def wait_for_page(port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("the page did not start")


def cold_start(starts: int) -> dict:
    """Start → READY=1 with the page on, each start followed by one without it (the
    machine's load changes by the minute: the pairs show what the page costs)."""
    times: dict[str, list[float]] = {"with_page": [], "without_page": []}
    with tempfile.TemporaryDirectory(prefix="nsdevice-phones-") as name:
        folder = Path(name)
        saved_game(folder / "state")
        for run in range(starts):
            port = free_port()
            box = Started("text", folder / "state", folder / f"n{run}", _web_build(port))
            times["with_page"].append(box.ready_after)
            wait_for_page(port)  # and the page does come up after the first frame
            box.stop()
            box = Started("text", folder / "state", folder / f"o{run}", BUTTON_BUILD)
            times["without_page"].append(box.ready_after)
            box.stop()
    return {
        "runs": starts,
        **{
            way: {k: v for k, v in summary(values, 1, 4).items() if k != "count"}
            for way, values in times.items()
        },
    }


def idle_and_memory(seconds: float, phones: int, presses: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="nsdevice-phones-") as name:
        folder = Path(name)
        saved_game(folder / "state")
        port = free_port()
        box = Started("text", folder / "state", folder / "notify", _web_build(port, keys=True))
        try:
            wait_for_page(port)
            time.sleep(1.0)  # the page's start-up work is over
            # the box and the page's own process (issue 32)
            processes = [box.pid, *children(box.pid)]
            cpu, wall = sum(map(cpu_seconds, processes)), time.perf_counter()
            time.sleep(seconds)
            cpu, wall = sum(map(cpu_seconds, processes)) - cpu, time.perf_counter() - wall
            rss_no_phone = sum(status_kb(pid, "VmHWM") for pid in processes)
            pages = [Page(port) for _ in range(phones)]
            time.sleep(0.5)
            stdin = box.process.stdin
            assert stdin is not None
            for _ in range(presses):  # the terminal keys: `n` is NEXT
                stdin.write(b"n")
                stdin.flush()
                time.sleep(0.02)
            time.sleep(1.0)
            rss = sum(status_kb(pid, "VmHWM") for pid in processes)
            rss_box = status_kb(box.pid, "VmHWM")
            events = [page.events for page in pages]
            for page in pages:
                page.close()
        finally:
            box.stop()
    return {
        "how": "--display text --input keyboard --web (presses as `n` on stdin)",
        "idle_seconds": round(wall, 2),
        "idle_cpu_percent_of_one_core": round(100 * cpu / wall, 2),
        "rss_peak_mb_no_phone": round(rss_no_phone / 1024, 1),
        "phones": phones,
        "presses_followed": presses,
        "events_per_phone": events,
        "rss_peak_mb_with_phones": round(rss / 1024, 1),  # the box's and the page's processes
        "box_process_rss_peak_mb_with_phones": round(rss_box / 1024, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=1000, help="in two halves, each way")
    parser.add_argument("--pages", type=int, default=10)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--idle-seconds", type=float, default=10.0)
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    args = parser.parse_args(argv)
    figures: dict[str, Any] = {"machine": machine()}
    # in halves, alternating with the box without its page: the machine's load changes by
    # the minute, and the difference is what the page costs
    half = max(1, args.presses // 2)
    runs = [frames_with_pages(half, args.pages), press_to_frame(half)]
    runs += [frames_with_pages(half, args.pages), press_to_frame(half)]
    with_pages, without = runs[0::2], runs[1::2]
    figures["press_to_frame_with_pages"] = with_pages
    figures["press_to_frame_without_page"] = without
    figures["cold_start_with_page"] = cold_start(args.starts)
    figures["idle_and_memory"] = idle_and_memory(args.idle_seconds, 4, 100)
    # each tap from the edge that decided it: the press edge, or the release where a hold
    # means more (benchmarks/measure.py)
    p99 = [
        max(run["from_the_deciding_edge_ms"]["p99"] for run in runs)
        for runs in (with_pages, without)
    ]
    rows = [
        ("press → frame p99, 10 pages", p99[0], "ms", 5.0),
        ("press → frame p99, no page", p99[1], "ms", 5.0),
        ("cold start median, page on",
         figures["cold_start_with_page"]["with_page"]["median"], "s", 0.5),
        ("cold start median, no page",
         figures["cold_start_with_page"]["without_page"]["median"], "s", 0.5),
        ("idle CPU, page on, no phone",
         figures["idle_and_memory"]["idle_cpu_percent_of_one_core"], "%", 1.0),
        ("peak RSS, page on, 4 phones",
         figures["idle_and_memory"]["rss_peak_mb_with_phones"], "MB", 60.0),
    ]  # fmt: skip
    for what, value, unit, target in rows:
        verdict = "ok" if value <= target else "OVER"
        print(f"{what:32} {value:>9} {unit:3} (≤ {target} {unit}) {verdict}")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(figures, indent=2) + "\n")
    print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
