"""`web_stream_cap`: every event stream the box takes held open, then one more phone
(issue 32, item 7), on a real `nsdevice run --web 127.0.0.1:PORT`.

With `streams` (web.app.MOST_WATCHERS: 1,000) streams held from many loopback
addresses, a new phone's stream is refused with 503 and a Retry-After, but its
`GET /state` answers 200 with the table (what web/assets/phone.js shows while it waits;
the browser test `tests/test_web_stream_cap_browser.py` checks the page does); and the
moment one held stream closes, the new phone's stream is taken.

Loopback only; every socket has a timeout.
"""

from __future__ import annotations

import socket
import time
from pathlib import Path

from benchmarks.reliability.harness import Report, working_folder
from benchmarks.reliability.web_box import (
    Streams,
    WebBox,
    ask,
    connect,
    get,
    lift_own_file_limit,
    loopback,
)

TAKEN_WITHIN = 5.0  # seconds for a freed place to be the new phone's


def first_answer(port: int, source: str) -> tuple[int, bytes, socket.socket]:
    """A stream's opening from `source`: its status, its head and its socket (open)."""
    sock = connect(port, source, timeout=5)
    sock.sendall(get("/events", port).replace(b"Connection: close\r\n", b""))
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            break
        head += chunk
    return int(head.split(b" ", 2)[1]), head, sock


def web_stream_cap(streams: int = 1000, folder: Path | None = None) -> Report:
    report = Report("web_stream_cap")
    lift_own_file_limit()
    with working_folder(folder) as directory:
        box = WebBox(directory / "state")
        crowd: Streams | None = None
        try:
            box.wait_page()
            crowd = Streams(box.port, streams, per=4, first=1000)
            deadline = time.monotonic() + 30
            while crowd.events < streams and time.monotonic() < deadline:
                time.sleep(0.1)  # every held stream has its first table
            report.counts["streams_held"] = streams - crowd.refused
            if crowd.refused:
                report.fail(f"{crowd.refused} of the first {streams} streams were refused")
            phone = loopback(9000)
            status, head, sock = first_answer(box.port, phone)
            sock.close()
            report.counts["one_more_stream"] = status
            if status != 503 or b"retry-after" not in head.lower():
                report.fail(f"one stream past the cap: {status}, {head[:120]!r}")
            status, table = ask(box.port, get("/state", box.port), phone)
            report.counts["its_state"] = status
            if status != 200 or not table or "screen" not in table:
                report.fail(f"the refused phone's /state: {status}")
            crowd.sockets[0].close()  # one phone leaves
            deadline = time.monotonic() + TAKEN_WITHIN
            while True:
                status, _, sock = first_answer(box.port, phone)
                sock.close()
                if status == 200 or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
            report.counts["after_one_left"] = status
            if status != 200:
                report.fail(f"a freed place was not taken: {status}")
        finally:
            if crowd is not None:
                crowd.close()
            box.close()
    return report
