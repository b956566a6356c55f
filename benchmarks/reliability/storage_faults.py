"""Storage faults of a real SD card, at random, and a command-line fuzz.

    python -m benchmarks.reliability.storage_faults                # the long run (minutes)
    python -m benchmarks.reliability.storage_faults --flips 30 --truncations 12 --cli 60

Two checks, each a plain function that takes its counts and returns a `Report`:

- `damaged_storage`: a game saved step by step (some states left as a killed box leaves
  them, the log full; some closed cleanly), then one seeded fault: a one-bit flip or a
  truncation of the database, of its write-ahead log, or of the saved snapshot's text
  (rewritten through SQL, so only the checksum can catch it). The real box then starts on
  it twice (`nsdevice run --input script --keys next --display json`). Every start is
  judged against the steps that were saved:
  * a crash (exit status not 0, or a traceback) is counted;
  * the first screen is the newest step: held;
  * a `store_rewound` notice, then an earlier saved step: an announced rewind;
  * a `store_damaged` notice, then a fresh setup, with the file kept aside: announced;
  * an earlier step or a fresh setup with no notice: a *silent rewind*;
  * a game screen that is none of the saved steps: *silent different cards*;
  * and the second start must show no notice and the screen the first start left.
- `command_line`: random command lines for every command, with over-long and undecodable
  arguments (bytes that are not UTF-8): every one must exit 0 or 2, and an exit 2 must
  write exactly one line on stderr, at most `LINE_LIMIT` characters, with no traceback.

Exit status 0 when both held. docs/RELIABILITY.md records the runs.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.reliability.harness import BOX, ENV, Report, script_run, working_folder

LINE_LIMIT = 400  # an error line a person can read in a terminal or the journal


# ---------------------------------------------------------------------------------------
# the box and its screens
# ---------------------------------------------------------------------------------------


def run_box(directory: Path, keys: str = "next") -> tuple[list[dict], subprocess.CompletedProcess]:
    return script_run(directory, keys, timeout=120)


def plain(screen: dict) -> dict:
    """A screen as the game has it: without its sound cue (a restored session has not just
    pressed anything), its button hints (they name the keys of whichever input runs) and
    what the JSON display says for it (derived from the rest)."""
    return {**screen, "chime": None, "hints": None, "say": None}


def view_of(snapshot: dict | None) -> dict:
    """The first screen a box shows for a saved snapshot (None: a fresh box, LANG=C, whose
    first screen is a newly dealt game of the default setup: see `is_fresh`)."""
    from nsdevice.session import Session, Settings

    if snapshot is None:
        session = Session(Settings(language="en"))
        session.deal_new_game()
    else:
        session = Session.restore(snapshot)
    return plain(json.loads(json.dumps(session.view().as_dict())))


# What a new deal draws from its random seed: two fresh boxes differ only in these.
SEED_DRAWN = ("objectives", "city_gates", "pencil_powers", "solo_order", "seed")


def is_fresh(screen: dict | None) -> bool:
    """Whether a screen is a fresh box's first: a new deal of the default setup."""
    if screen is None:
        return False

    def drawn_apart(view: dict) -> dict:
        return {key: value for key, value in plain(view).items() if key not in SEED_DRAWN}

    return drawn_apart(screen) == drawn_apart(view_of(None))


# ---------------------------------------------------------------------------------------
# saved games to damage
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Base:
    """A state folder with a saved game, and every step that was saved, oldest first."""

    folder: Path
    steps: tuple[dict, ...]
    killed: bool  # left as a killed box leaves it (log full) or closed cleanly


def make_base(folder: Path, rng: random.Random, *, killed: bool) -> Base:
    """Play a random game in-process through the box's own store, saving every step."""
    from nsdevice.inputs.events import Press
    from nsdevice.session import CITIES, Session, Settings
    from nsdevice.store import FILE_NAME, MARK_NAME, Store

    live = folder.with_name(folder.name + "-live")
    live.mkdir(parents=True)
    settings = Settings(city=rng.choice(CITIES), players=rng.randint(1, 4), language="en")
    seed = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
    session = Session(settings, seed_source=lambda: seed)
    store = Store.open(live).store
    steps: list[dict] = []
    played = rng.choices(["next"] * 6 + ["back"], k=rng.randint(4, 25))
    presses = ["menu", "next", "next", *played]
    for word in presses:
        session.press(Press.parse(word))
        snapshot = session.snapshot()
        if store.save(snapshot):
            steps.append(json.loads(json.dumps(snapshot)))
    folder.mkdir(parents=True)
    if killed:  # copy while the connection is open: what a SIGKILL leaves behind
        for name in (FILE_NAME, f"{FILE_NAME}-wal", MARK_NAME):
            if (live / name).exists():
                shutil.copyfile(live / name, folder / name)
        store.close()
    else:
        store.close()  # a clean stop: the log is folded into the database and removed
        for name in (FILE_NAME, MARK_NAME):
            shutil.copyfile(live / name, folder / name)
    shutil.rmtree(live)
    return Base(folder, tuple(steps), killed)


def flip_bit(path: Path, rng: random.Random) -> str:
    data = bytearray(path.read_bytes())
    if not data:
        return "empty file"
    offset = rng.randrange(len(data))
    bit = rng.randrange(8)
    data[offset] ^= 1 << bit
    path.write_bytes(bytes(data))
    return f"bit {bit} of byte {offset}/{len(data)}"


def truncate(path: Path, rng: random.Random) -> str:
    size = path.stat().st_size
    keep = rng.randrange(size) if size else 0
    with path.open("r+b") as file:
        file.truncate(keep)
    return f"to {keep}/{size} bytes"


def damage_snapshot(folder: Path, rng: random.Random, kind: str) -> str:
    """Flip a bit in, or cut, the saved text of the newest step (one of its two copies),
    through SQL: SQLite sees nothing wrong, only the checksum can."""
    from nsdevice.store import FILE_NAME

    with contextlib.closing(sqlite3.connect(folder / FILE_NAME, isolation_level=None)) as db:
        table = rng.choice(["session", "steps"])
        key = "id" if table == "session" else "serial"
        (row_key, text) = db.execute(
            f"SELECT {key}, CAST(snapshot AS BLOB) FROM {table} ORDER BY {key} DESC LIMIT 1"
        ).fetchone()
        data = bytearray(text)
        if kind == "flip":
            offset = rng.randrange(len(data))
            data[offset] ^= 1 << rng.randrange(8)
            what = f"{table} text, byte {offset}"
        else:
            cut = rng.randrange(len(data))
            data = data[:cut]
            what = f"{table} text cut to {cut}/{len(text)}"
        db.execute(
            f"UPDATE {table} SET snapshot = CAST(? AS TEXT) WHERE {key} = ?", (bytes(data), row_key)
        )
    return what


def damage(folder: Path, target: str, kind: str, rng: random.Random) -> str:
    from nsdevice.store import FILE_NAME

    if target == "snapshot":
        return damage_snapshot(folder, rng, kind)
    path = folder / (FILE_NAME if target == "db" else f"{FILE_NAME}-wal")
    return (flip_bit if kind == "flip" else truncate)(path, rng)


# ---------------------------------------------------------------------------------------
# judging a start
# ---------------------------------------------------------------------------------------


def judge(base: Base, folder: Path) -> tuple[str, str]:
    """Start the box twice on a damaged folder; (outcome, details)."""
    screens, result = run_box(folder)
    if result.returncode != 0 or "Traceback" in result.stderr or not screens:
        return "crash", f"exit {result.returncode}: {result.stderr.strip()[-400:]}"
    views = [view_of(step) for step in base.steps]
    first = plain(screens[0])
    if first["screen"] == "notice":
        notice = first["notice"]
        game = plain(screens[1]) if len(screens) > 1 else None
        if notice == "store_rewound" and game in views[:-1]:
            outcome = "announced_rewind"
        elif notice == "store_rewound" and game == views[-1]:
            outcome = "announced_same"  # said more than it had to: not a failure
        elif notice == "store_damaged" and is_fresh(game):
            kept = any(".damaged-" in p.name for p in folder.iterdir())
            outcome = "announced_fresh" if kept else "fresh_file_not_kept"
        else:
            outcome = f"unexpected_{notice}"
    elif first == views[-1]:
        outcome = "same_step"
    elif first in views[:-1] or is_fresh(first):
        outcome = "silent_rewind"
    else:
        outcome = "silent_different"
    again, second = run_box(folder)
    if second.returncode != 0 or "Traceback" in second.stderr or not again:
        return "crash_on_second_start", second.stderr.strip()[-400:]
    if again[0]["screen"] == "notice":
        return "notice_on_second_start", again[0].get("notice", "")
    if plain(again[0]) != plain(screens[-1]):
        return "second_start_elsewhere", f"{again[0]['screen']} after {screens[-1]['screen']}"
    return outcome, ""


FAILURES = ("crash", "silent_rewind", "silent_different", "fresh_file_not_kept",
            "crash_on_second_start", "notice_on_second_start",
            "second_start_elsewhere")  # fmt: skip


def damaged_storage(
    *, flips: int = 500, truncations: int = 200, seed: int = 12, workers: int = 2,
    workdir: Path | None = None,
) -> Report:  # fmt: skip
    """`flips` one-bit flips and `truncations` cuts, spread evenly over db, WAL and text."""
    report = Report("damaged_storage")
    started = time.monotonic()
    rng = random.Random(seed)
    plan = [("flip", ["db", "wal", "snapshot"][i % 3]) for i in range(flips)]
    plan += [("truncate", ["db", "wal", "snapshot"][i % 3]) for i in range(truncations)]
    with working_folder(workdir) as base_dir:
        bases = [
            make_base(base_dir / f"base-{i}", random.Random(seed * 1000 + i), killed=i % 3 != 2)
            for i in range(12)
        ]

        def one(index: int) -> tuple[str, str, str, str]:
            kind, target = plan[index]
            case_rng = random.Random(seed * 100_003 + index)
            choices = [b for b in bases if target != "wal" or b.killed]
            base = case_rng.choice(choices)
            folder = base_dir / f"case-{index}"
            shutil.copytree(base.folder, folder)
            what = damage(folder, target, kind, case_rng)
            outcome, details = judge(base, folder)
            shutil.rmtree(folder, ignore_errors=True)
            return f"{kind} {target}", what, outcome, details

        with ThreadPoolExecutor(max_workers=workers) as pool:
            for name, what, outcome, details in pool.map(one, range(len(plan))):
                report.add(name)
                report.add(outcome)
                if outcome in FAILURES or outcome.startswith("unexpected"):
                    report.fail(f"{name} ({what}): {outcome} {details}")
    del rng
    report.seconds = time.monotonic() - started
    return report


# ---------------------------------------------------------------------------------------
# the command line
# ---------------------------------------------------------------------------------------

OPTIONS = {
    "run": ["--display", "--input", "--keys", "--size", "--hardware", "--port", "--state-dir",
            "--shutdown-command"],
    "deal": ["--city", "--players", "--modules", "--seed"],
    "score": ["--city", "--line", "--stamps", "--ring-unconnected", "--interchanges", "--total",
              "--solo-modules", "--overpasses-once"],
    "simulate": ["--city", "--rounds", "--seed"],
    "screenshot": ["--out", "--size"],
    "hwtest": ["--hardware", "--timeout"],
}  # fmt: skip


def fuzz_value(rng: random.Random, workdir: Path) -> bytes:
    """An argument: long or short, text, odd Unicode, or bytes that are not UTF-8."""
    length = rng.choice([0, 1, 5, 40, 81, 255, 256, 300, 1000, 5000, 20000])
    kind = rng.choice(["ascii", "unicode", "undecodable", "path", "control"])
    if kind == "ascii":
        return "".join(rng.choice("abcxyz019.-_/ ") for _ in range(length)).encode()
    if kind == "unicode":
        return "".join(rng.choice("éß東京🚇\u200b\u202e") for _ in range(length)).encode()
    if kind == "control":
        return "".join(rng.choice("a\n\r\t\x1b[") for _ in range(length)).encode()
    if kind == "path":
        name = bytes(rng.choice(b"ab\xff\xfe") for _ in range(length))
        return os.fsencode(workdir) + b"/" + name
    return bytes(rng.choice(b"\x80\xff\xfe\xc3\x28a") for _ in range(max(length, 1)))


RENDERS = 4  # the first cases render every screen into an odd --out (some 20 s each); later
# screenshot cases pair their odd --out with an unusable --size, so nothing is drawn


def command_line_case(
    rng: random.Random, workdir: Path, index: int, renders: int = RENDERS
) -> list[bytes]:
    command = "screenshot" if index < renders else rng.choice([*OPTIONS, "run", "hwtest"])
    args: list[bytes] = [command.encode()]
    options = OPTIONS[command]
    if command == "run":  # always one that ends: scripted, one press, into the work folder
        args += [b"--input", b"script", b"--keys", b"next", b"--display", b"json",
                 b"--state-dir", os.fsencode(workdir / "state")]  # fmt: skip
    elif command == "screenshot":
        args += [b"--out", fuzz_value(rng, workdir)]
        if index >= renders:
            sizes = [b"1x1", b"480x320x2", b"big", fuzz_value(rng, workdir)]
            args += [b"--size", rng.choice(sizes)]
        return args
    for _ in range(rng.randint(1, 2)):
        args += [rng.choice(options).encode(), fuzz_value(rng, workdir)]
    if rng.random() < 0.1:
        args.append(fuzz_value(rng, workdir))  # a stray argument
    return args


def command_line(
    *, invocations: int = 1000, seed: int = 3, workers: int = 2, renders: int = RENDERS
) -> Report:
    report = Report("command_line")
    started = time.monotonic()
    with working_folder(None) as workdir:
        cases = [command_line_case(random.Random(seed * 7919 + i), workdir, i, renders)
                 for i in range(invocations)]  # fmt: skip

        def one(args: list[bytes]) -> tuple[list[bytes], subprocess.CompletedProcess]:
            command = [os.fsencode(part) for part in BOX] + args
            # screenshot and run may do real work (render, play): both end on their own
            return args, subprocess.run(  # relative paths land in the work folder
                command, capture_output=True, env=ENV, timeout=300, stdin=subprocess.DEVNULL,
                cwd=workdir,
            )  # fmt: skip

        with ThreadPoolExecutor(max_workers=workers) as pool:
            for args, result in pool.map(one, cases):
                report.add("invocations")
                stderr = result.stderr.decode("utf-8", "replace")
                shown = b" ".join(args)[:120]
                report.add(f"exit_{result.returncode}")
                report.add(f"command_{args[0].decode()}")
                if b"\xff" in b"".join(args) or b"\x80" in b"".join(args):
                    report.add("undecodable")
                if max(len(a) for a in args) > 255:
                    report.add("over_long")
                if "Traceback" in stderr:
                    report.add("tracebacks")
                    report.fail(f"traceback for {shown!r}: {stderr.strip()[-300:]}")
                elif result.returncode not in (0, 2):
                    report.fail(f"exit {result.returncode} for {shown!r}: {stderr[-300:]}")
                elif result.returncode == 2:
                    lines = stderr.strip().splitlines()
                    if len(lines) != 1:
                        report.fail(f"{len(lines)} lines on stderr for {shown!r}")
                    elif len(lines[0]) > LINE_LIMIT:
                        report.fail(f"a {len(lines[0])}-character line for {shown!r}")
    report.seconds = time.monotonic() - started
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flips", type=int, default=500)
    parser.add_argument("--truncations", type=int, default=200)
    parser.add_argument("--cli", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path, default=None, help="write the reports here")
    args = parser.parse_args(argv)
    checks: list[Callable[[], Report]] = [
        lambda: damaged_storage(flips=args.flips, truncations=args.truncations,
                                seed=args.seed, workers=args.workers),
        lambda: command_line(invocations=args.cli, seed=args.seed, workers=args.workers),
    ]  # fmt: skip
    reports = []
    for check in checks:
        report = check()
        reports.append(report)
        state = "held" if report.ok else f"FAILED ({len(report.failures)})"
        print(f"{report.name}: {state} in {report.seconds:.0f} s")
        for key, value in sorted(report.counts.items()):
            print(f"  {key}: {value}")
        for failure in report.failures[:30]:
            print(f"  ! {failure}")
    if args.json is not None:
        data: list[dict[str, Any]] = [r.__dict__ for r in reports]
        args.json.write_text(json.dumps(data, indent=1))
    return 0 if all(r.ok for r in reports) else 1


if __name__ == "__main__":
    sys.exit(main())
