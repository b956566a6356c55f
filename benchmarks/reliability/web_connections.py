"""`web_connections`: hundreds of idle event streams and half-sent requests, from many
loopback addresses, against a real box with its page (issue 22, item 1).

Done when: with `streams` idle event streams plus `half_sent` requests that never finish
their headers, a phone with the code gets `GET /` and `POST /join` answered within 2 s.
Also: the half-sent ones are closed by the box (10 s), the streams' places come back the
moment they close (a second crowd as big as the first is let in), and the box still
answers a press. The box starts with a soft limit of 1,024 open files and lifts it itself.
"""

from __future__ import annotations

import time
from pathlib import Path

from benchmarks.figures import children
from benchmarks.reliability.harness import Report, working_folder
from benchmarks.reliability.web_box import (
    Streams,
    WebBox,
    ask,
    connect,
    get,
    lift_own_file_limit,
    loopback,
    post,
)

ANSWER_SECONDS = 2.0
CLOSED_WITHIN = 15.0  # the box's 10 s for a whole request, and some slack


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def web_connections(
    streams: int = 500, half_sent: int = 100, folder: Path | None = None
) -> Report:
    report = Report("web_connections")
    lift_own_file_limit()
    with working_folder(folder) as directory:
        box = WebBox(directory / "state")
        crowd: Streams | None = None
        held = []
        try:
            box.wait_page()
            code = box.join_code()
            crowd = Streams(box.port, streams)
            for index in range(half_sent):
                sock = connect(box.port, loopback(5000 + index))
                sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # never ends
                held.append(sock)
            time.sleep(1.0)  # every stream has had its first table
            report.counts["streams_open"] = streams
            report.counts["streams_refused"] = crowd.refused
            report.counts["half_sent_open"] = half_sent
            started = time.perf_counter()
            page, _ = ask(box.port, get("/", box.port))
            page_seconds = time.perf_counter() - started
            started = time.perf_counter()
            joined, body = ask(box.port, post("/join", box.port, {"seat": 1},
                                              f"X-Join-Code: {code}\r\n"))  # fmt: skip
            join_seconds = time.perf_counter() - started
            report.counts["page_ms"] = round(page_seconds * 1000, 1)
            report.counts["join_ms"] = round(join_seconds * 1000, 1)
            if page != 200 or page_seconds > ANSWER_SECONDS:
                report.fail(f"GET / gave {page} after {page_seconds:.2f} s")
            if joined != 200 or join_seconds > ANSWER_SECONDS or not body or "token" not in body:
                report.fail(f"POST /join gave {joined} after {join_seconds:.2f} s")
            if crowd.refused:
                report.fail(f"{crowd.refused} of {streams} event streams were refused")
            report.counts["first_tables_received"] = crowd.events
            report.counts["box_peak_rss_mb"] = peak_rss_mb(box.process.pid)
            # the page's own process (issue 32)
            report.counts["page_peak_rss_mb"] = sum(
                peak_rss_mb(pid) for pid in children(box.process.pid)
            )
            # a press still reaches every reading stream
            before = crowd.events
            menu = box.screens[-1]
            box.keys("b" * int(menu.get("cursor", 0)) + "m")  # resume: the round's start
            box.keys("n")  # its first card
            time.sleep(1.0)
            report.counts["streams_that_saw_the_press"] = crowd.events - before
            if crowd.events - before < streams:
                report.fail(f"only {crowd.events - before} of {streams} streams saw a press")
            # the half-sent requests are closed by the box itself
            deadline = time.monotonic() + CLOSED_WITHIN
            closed = 0
            for sock in held:
                sock.settimeout(max(0.1, deadline - time.monotonic()))
                try:
                    closed += sock.recv(1) == b""
                except ConnectionResetError:
                    closed += 1
                except TimeoutError:
                    pass
            report.counts["half_sent_closed_by_the_box"] = closed
            if closed < half_sent:
                report.fail(f"{half_sent - closed} half-sent requests were still open")
            # the streams' places come back the moment they close
            crowd.close()
            crowd = Streams(box.port, streams, first=3000)
            time.sleep(1.0)
            report.counts["second_crowd_refused"] = crowd.refused
            if crowd.refused:
                report.fail(f"{crowd.refused} streams refused after the first crowd left")
        finally:
            if crowd is not None:
                crowd.close()
            for sock in held:
                sock.close()
            box.close()
    return report
