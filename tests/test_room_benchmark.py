"""benchmarks/room.py's own logic, on made-up bytes and figures (the benchmark itself runs a
real box and is not part of CI): the seating, the event streams' reading, which table
showed which card, and the check of a results file. No speed is judged here."""

from __future__ import annotations

import csv
import io
import json
import random

import pytest

from benchmarks.room_phones import (
    COLUMNS,
    EventReader,
    card_key,
    card_latencies,
    results_problems,
    room_players,
    seating,
    sheet,
    table_number,
)
from nsdevice.web.sheet import score_sheet


def test_three_hundred_players_sit_at_tables_of_every_size_from_one_to_four():
    sizes = seating(300)
    assert sum(sizes) == 300 and len(sizes) == 90
    assert {sizes.count(n) for n in (1, 2, 3)} == {10} and sizes.count(4) == 60
    players = room_players(300)
    assert len({(p.table, p.seat) for p in players}) == 300  # every seat once
    assert all(1 <= p.seat <= p.size == sizes[p.table - 1] for p in players)
    assert len({p.address for p in players}) == 300  # a phone, an address
    assert seating(7) == [4, 3]


def test_more_players_than_a_room_has_tables_for_is_refused():
    with pytest.raises(ValueError, match="99"):
        seating(400)


def _stream(payloads: list[dict[str, object]], chunked: bool) -> bytes:
    events = [f"data: {json.dumps(p, separators=(',', ':'))}\n\n".encode() for p in payloads]
    events.insert(1, b": still here\n\n")  # a comment: no event
    if not chunked:
        return b"HTTP/1.0 200 OK\r\nContent-Type: text/event-stream\r\n\r\n" + b"".join(events)
    body = b"".join(f"{len(e):x}\r\n".encode() + e + b"\r\n" for e in events) + b"0\r\n\r\n"
    return b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + body


@pytest.mark.parametrize("chunked", [True, False])
@pytest.mark.parametrize("step", [1, 2, 5, 64, 100_000])
def test_a_stream_read_in_pieces_of_any_size_gives_every_event_once(chunked, step):
    payloads = [{"number": n, "screen": "turn", "text": "é" * n} for n in range(1, 6)]
    whole = _stream(payloads, chunked)
    reader, events = EventReader(), []
    for start in range(0, len(whole), step):
        events += reader.feed(whole[start : start + step])
    assert reader.status == 200 and reader.ended is chunked
    assert [json.loads(e) for e in events] == payloads
    assert [table_number(e) for e in events] == [1, 2, 3, 4, 5]


def test_a_card_is_matched_to_its_own_table_when_another_round_shows_the_same_card():
    screen = {"cards": [{"kind": "street", "symbol": None, "special": "joker"}], "earlier": [],
              "room": {"rows": [[{"colour": "blue"}], [{"colour": "pink"}]]}}  # fmt: skip
    key = card_key(screen)
    assert key == "0|street:joker|pink"
    # rounds 1 and 2 (the same pencils here) both open with the joker: pressed at 10 and 20
    cards = [(10.0, key), (20.0, key), (30.0, "1|street:circle|pink")]
    tables = {5: ["turn", key, 0], 9: ["turn", key, 0], 12: ["turn", "1|street:circle|pink", 0],
              13: ["pencil_pass", "", 0]}  # fmt: skip
    receipts = [
        [[5, 10.010], [9, 20.300], [12, 30.002], [13, 31.0]],
        [[5, 10.020], [12, 30.004]],  # never got round 2's joker
    ]
    found = card_latencies(cards, tables, receipts)
    assert found["missing"] == 1 and found["ms"]["count"] == 5
    assert found["ms"]["max"] == 300.0 and found["ms"]["p50"] == 10.0
    assert found["each_card_median_and_max_ms"][1] == [300.0, 300.0]


def _csv(rows: list[list[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    for table, seat, name, place, total, best in rows:
        writer.writerow(["ROOM1", "tokyo", "", "room", table, seat, name, place, total, best,
                         "yes" if seat == 1 else "no"])  # fmt: skip
    return out.getvalue()


POSTED = [
    {"table": 1, "seat": 1, "name": "Ana", "total": 50, "best_line": 9},
    {"table": 2, "seat": 1, "name": "Zoë", "total": 44, "best_line": 7},
    {"table": 1, "seat": 2, "name": "=Olu", "total": 44, "best_line": 7},
    {"table": 3, "seat": 1, "name": "李", "total": 44, "best_line": 3},
]


def test_a_results_file_ranking_every_player_as_posted_with_shared_places_passes():
    text = _csv([[1, 1, "Ana", 1, 50, 9], [2, 1, "Zoë", 2, 44, 7], [1, 2, "'=Olu", 2, 44, 7],
                 [3, 1, "李", 4, 44, 3]])  # fmt: skip
    assert results_problems(text, POSTED) == []


@pytest.mark.parametrize(
    ("rows", "problem"),
    [
        ([[1, 1, "Ana", 1, 50, 9], [2, 1, "Zoë", 2, 44, 7], [1, 2, "=Olu", 3, 44, 7],
          [3, 1, "李", 4, 44, 3]], "place 3, not 2"),
        ([[1, 1, "Ana", 1, 50, 9], [2, 1, "Zoë", 2, 44, 7], [3, 1, "李", 3, 44, 3],
          [1, 2, "=Olu", 2, 44, 7]], "not best first"),
        ([[1, 1, "Ana", 1, 50, 9], [2, 1, "Zoë", 2, 44, 7], [1, 2, "=Olu", 2, 44, 7]],
         "3 rows for 4 players"),
        ([[1, 1, "Ana", 1, 50, 9], [2, 1, "Zoë", 2, 44, 7], [1, 2, "=Olu", 2, 44, 7],
          [3, 1, "李", 4, 44, 3]], "table 1 seat 2"),  # a name a spreadsheet would run
        ([[1, 1, "Ana", 1, 50, 9], [2, 1, "Zoë", 2, 44, 7], [1, 2, "'=Olu", 2, 44, 8],
          [3, 1, "李", 4, 44, 3]], "table 1 seat 2"),
    ],
)  # fmt: skip
def test_a_results_file_that_misranks_drops_or_changes_a_player_fails(rows, problem):
    found = results_problems(_csv(rows), POSTED)
    assert any(problem in line for line in found), found


@pytest.mark.parametrize("line_scoring", ["districts", "quarters", "totals"])
def test_every_sheet_the_phones_send_is_one_the_rules_score(line_scoring):
    rng = random.Random(1)
    totals = {score_sheet(line_scoring, sheet(line_scoring, rng)).total for _ in range(300)}
    assert len(totals) < 300  # a room of 300 has ties to rank
