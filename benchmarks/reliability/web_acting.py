"""`web_acting`: who may act through the page of a real box (issue 22, items 3 and 4).

- A phone joined for seat 1 posts seat 2's score: refused, and the box never shows it.
- Requests naming another host (DNS rebinding) are not answered.
- Cross-site POSTs (another site's page in a player's browser) act on nothing and lock
  nobody out: `cross_site` of them with wrong codes, then the player's own page joins.
"""

from __future__ import annotations

import time
from pathlib import Path

from benchmarks.reliability.harness import Report, working_folder
from benchmarks.reliability.web_box import WebBox, ask, get, post, to_game_end

SHEET = {"total": 50, "best_line": 20}  # London: the totals themselves
TOKYO = {
    "lines": [[5, 4], [5, 5]],
    "stamps": 20,
    "ring_unconnected": 3,
    "interchanges": {"3": 0, "4": 1, "5": 0},
    "objectives": 0,
}


def web_acting(cross_site: int = 20, folder: Path | None = None) -> Report:
    report = Report("web_acting")
    with working_folder(folder) as directory:
        box = WebBox(directory / "state")
        try:
            box.wait_page()
            code = box.join_code()
            port = box.port
            # DNS rebinding: a name that is not the box's
            for host in ("evil.example", f"evil.example:{port}", "127.0.0.1.evil.example"):
                request = get("/state", port).replace(
                    f"Host: 127.0.0.1:{port}".encode(), f"Host: {host}".encode()
                )
                status, _ = ask(port, request)
                report.add(f"host_{status}")
                if status != 421:
                    report.fail(f"Host: {host} was answered ({status})")
            # cross-site: wrong codes, then the right one, from another site's page
            for index in range(cross_site):
                origin = "Origin: http://evil.example\r\nSec-Fetch-Site: cross-site\r\n"
                guess = code if index == cross_site - 1 else "00000000"
                status, _ = ask(port, post("/join", port, {"seat": 1},
                                           f"{origin}X-Join-Code: {guess}\r\n"))  # fmt: skip
                report.add(f"cross_site_{status}")
                if status != 403:
                    report.fail(f"a cross-site join got {status}")
            same = f"Origin: http://127.0.0.1:{port}\r\nSec-Fetch-Site: same-origin\r\n"
            status, body = ask(port, post("/join", port, {"seat": 1},
                                          f"{same}X-Join-Code: {code}\r\n"))  # fmt: skip
            report.counts["own_page_join_after_cross_site"] = status
            if status != 200 or body is None:
                report.fail(f"after {cross_site} cross-site tries the player's join got {status}")
                return report
            token = f"X-Seat-Token: {body['token']}\r\n"
            to_game_end(box)
            time.sleep(0.3)
            state = ask(port, get("/state", port))[1] or {}
            sheet = {"districts": TOKYO}.get(state.get("line_scoring", ""), SHEET)
            if state.get("line_scoring") == "quarters":
                report.fail("this check has no Paris sheet; the box dealt Paris")
            status, _ = ask(port, post("/score", port, {"seat": 2, "sheet": sheet},
                                       f"{same}{token}"))  # fmt: skip
            report.counts["seat_1_scoring_seat_2"] = status
            if status != 403:
                report.fail(f"a phone joined for seat 1 scored seat 2 ({status})")
            forged = "Origin: http://evil.example\r\n"
            status, _ = ask(port, post("/score", port, {"seat": 1, "sheet": sheet},
                                       f"{forged}{token}"))  # fmt: skip
            report.counts["cross_site_score_with_token"] = status
            if status != 403:
                report.fail(f"a cross-site score with a token got {status}")
            time.sleep(0.3)
            seats_in = (ask(port, get("/state", port))[1] or {}).get("seats_in")
            report.counts["seats_in_after_refusals"] = str(seats_in)
            if seats_in:
                report.fail(f"the box took scores it should have refused: {seats_in}")
            status, _ = ask(port, post("/score", port, {"seat": 1, "sheet": sheet},
                                       f"{same}{token}"))  # fmt: skip
            report.counts["seat_1_scoring_seat_1"] = status
            time.sleep(0.3)
            seats_in = (ask(port, get("/state", port))[1] or {}).get("seats_in")
            if status != 200 or seats_in != [1]:
                report.fail(f"seat 1's own score got {status}, seats in {seats_in}")
        finally:
            box.close()
    return report
