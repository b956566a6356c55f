"""The command: run the checks, short or long, print one line each, optionally write JSON."""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.reliability.bad_command_line import bad_command_line
from benchmarks.reliability.bad_voice import bad_voice
from benchmarks.reliability.button_storm import button_storm
from benchmarks.reliability.damage_notice import damage_notice
from benchmarks.reliability.damaged_database import damaged_database
from benchmarks.reliability.every_step import every_step
from benchmarks.reliability.harness import (
    Report,
)
from benchmarks.reliability.kill_storm import kill_storm
from benchmarks.reliability.locked_store import locked_store
from benchmarks.reliability.results_fuzz import results_fuzz
from benchmarks.reliability.schema_flips import schema_flips
from benchmarks.reliability.serial_flood import serial_flood
from benchmarks.reliability.serial_line import serial_line
from benchmarks.reliability.two_boxes import two_boxes
from benchmarks.reliability.web_acting import web_acting
from benchmarks.reliability.web_connections import web_connections
from benchmarks.reliability.web_guessing import web_guessing
from benchmarks.reliability.web_join_storm import web_join_storm
from benchmarks.reliability.web_room import web_room
from benchmarks.reliability.web_seats import web_seats
from benchmarks.reliability.web_stream_cap import web_stream_cap

# name → (function, short-mode arguments, long-mode arguments)
CHECKS: dict[str, tuple[Callable[..., Report], dict[str, Any], dict[str, Any]]] = {
    "kill_storm": (kill_storm, {"kills": 15}, {"kills": 200}),
    "damaged_database": (damaged_database, {}, {}),
    "button_storm": (button_storm, {"edges": 10_000}, {"edges": 200_000}),
    "every_step": (
        every_step,
        {"presses": 5_000, "seconds": 300.0},
        {"presses": 200_000, "seconds": 3_600.0},
    ),
    "serial_line": (
        serial_line,
        {"actions": 30, "unplug_every": 15},
        {"actions": 400, "unplug_every": 20},
    ),
    "bad_command_line": (bad_command_line, {}, {}),
    "serial_flood": (serial_flood, {"seconds": 20.0}, {"seconds": 60.0}),
    "schema_flips": (schema_flips, {"flips": 4}, {"flips": 160}),
    "damage_notice": (damage_notice, {"kills": 2}, {"kills": 10}),
    "two_boxes": (two_boxes, {"tries": 2}, {"tries": 5}),
    "locked_store": (locked_store, {"hold": 4.0}, {"hold": 30.0}),
    "web_connections": (web_connections, {}, {}),
    "web_guessing": (web_guessing, {"seconds": 15.0}, {"seconds": 60.0}),
    "web_acting": (web_acting, {}, {}),
    "web_room": (web_room, {"players": 60}, {"players": 380}),
    "bad_voice": (
        bad_voice,
        {"presses": 14},
        {"presses": 30, "languages": ("en", "es", "de", "it", "fr")},
    ),
    "results_fuzz": (results_fuzz, {"random_count": 60}, {"random_count": 400}),
    "web_seats": (web_seats, {"attempts": 50}, {"attempts": 1000, "players": 40}),
    "web_join_storm": (
        web_join_storm,
        {"addresses": 100, "seconds": 5.0},
        {"addresses": 200, "seconds": 20.0},
    ),
    "web_stream_cap": (web_stream_cap, {}, {}),
}


def run_check(name: str, long: bool = False, **overrides: Any) -> Report:
    function, short_arguments, long_arguments = CHECKS[name]
    arguments = {**(long_arguments if long else short_arguments), **overrides}
    started = time.perf_counter()
    try:
        report = function(**arguments)
    except Exception:
        report = Report(name)
        report.fail("the check itself failed:\n" + traceback.format_exc())
    report.seconds = round(time.perf_counter() - started, 2)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.reliability",
        description="The reliability harness: try hard to break the box, and say what held.",
    )
    parser.add_argument("--long", action="store_true", help="the long mode (minutes)")
    parser.add_argument("--only", choices=sorted(CHECKS), action="append", help="one check")
    parser.add_argument("--seed", type=int, help="seed every check's random choices")
    parser.add_argument("--json", type=Path, help="also write the reports here")
    args = parser.parse_args(argv)
    names = args.only or list(CHECKS)
    overrides = {} if args.seed is None else {"seed": args.seed}
    reports = []
    for name in names:
        takes_seed = "seed" in CHECKS[name][0].__code__.co_varnames
        report = run_check(name, args.long, **(overrides if takes_seed else {}))
        reports.append(report)
        verdict = "held" if report.ok else "FAILED"
        counts = ", ".join(f"{key} {value}" for key, value in report.counts.items())
        print(f"{name:18} {verdict:6} {report.seconds:7.1f} s  {counts}", flush=True)
        for failure in report.failures:
            print(f"    {failure}", flush=True)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        record = {
            "mode": "long" if args.long else "short",
            "seed": args.seed,
            "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "command": " ".join(["python", "-m", "benchmarks.reliability", *sys.argv[1:]]),
            "reports": [report.as_dict() for report in reports],
        }
        args.json.write_text(json.dumps(record, indent=1) + "\n")
    return 0 if all(report.ok for report in reports) else 1
