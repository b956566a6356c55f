"""`schema_flips`: one bit flipped in the text of the store's schema is damage, said.

SQLite keeps each table's `CREATE` text in the file and parses it at every opening; a
flipped bit there can make a sound-looking file that SQLite cannot use ("no such column:
snapshot"). The box must not take that for a card that cannot be written: it must set
the file aside, say so, save the next press in a fresh file, and a restart must show it.

Cases: the column `snapshot` of table `steps` renamed in its schema text (the message
the issue saw), then `flips` single-bit flips inside the text `CREATE TABLE steps (`
(160 bits in all; drawn with `seed` when fewer), each on a copy of one saved game. Each
case starts the real box on two presses, then once more: judged as
* `damage_announced`: a `store_damaged` notice, the file kept aside, the restart shows
  the screen the presses left and no notice;
* `held`: the flip did not matter (e.g. a letter's case): the saved game resumed, the
  presses saved;
* anything else fails: a crash, a "cannot write" notice, a lost press, a notice again.
"""

from __future__ import annotations

import contextlib
import random
import shutil
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from benchmarks.reliability.harness import Report, script_run, working_folder
from benchmarks.reliability.live_box import plain

SPAN = b"CREATE TABLE steps ("
KEYS = "next,next"


def _saved_game(folder: Path) -> None:
    from nsdevice.inputs.events import Press
    from nsdevice.session import Session, Settings
    from nsdevice.store import Store

    session = Session(Settings(city="london", players=2), seed_source=lambda: "FLIPS")
    store = Store.open(folder).store
    for word in ("menu", "next", "next", "next", "next", "next"):
        session.press(Press.parse(word))
        store.save(session.snapshot())
    store.close()  # the last connection: the log is folded into the file


def _renamed_column(path: Path) -> str:
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("PRAGMA writable_schema = ON")
        db.execute(
            "UPDATE sqlite_master SET sql = replace(sql, 'snapshot TEXT', 'snapshoT2 TEXT')"
            " WHERE name = 'steps'"
        )
    return "steps.snapshot renamed"


def _flip(path: Path, bit: int) -> str:
    data = bytearray(path.read_bytes())
    at = bytes(data).index(SPAN) + bit // 8
    data[at] ^= 1 << (bit % 8)
    path.write_bytes(bytes(data))
    return f"bit {bit % 8} of {SPAN.decode()!r}[{bit // 8}]"


def schema_flips(*, flips: int = 6, seed: int = 23, workdir: Path | None = None,
                 workers: int = 2) -> Report:  # fmt: skip
    from nsdevice.store import FILE_NAME

    report = Report("schema_flips")
    bits = list(range(len(SPAN) * 8))
    if flips < len(bits):
        bits = sorted(random.Random(seed).sample(bits, flips))
    with working_folder(workdir) as base:
        original = base / "original"
        original.mkdir()
        _saved_game(original)
        shutil.copytree(original, base / "sound")  # the start may not change the original
        resumed_screen, _ = script_run(base / "sound", "next")  # what a sound start shows
        first_sound = plain(resumed_screen[0]) if resumed_screen else None

        def one(case: int | None) -> tuple[str, str, str]:
            folder = base / f"case-{'renamed' if case is None else case}"
            shutil.copytree(original, folder)
            path = folder / FILE_NAME
            what = _renamed_column(path) if case is None else _flip(path, case)
            return (what, *_judge(folder, first_sound))

        with ThreadPoolExecutor(max_workers=workers) as pool:
            for what, outcome, problem in pool.map(one, [None, *bits]):
                report.add("cases")
                report.add(outcome)
                if problem:
                    report.fail(f"{what}: {problem}")
    return report


def _judge(folder: Path, first_sound: dict | None) -> tuple[str, str]:
    screens, result = script_run(folder, KEYS)
    if result.returncode != 0 or "Traceback" in result.stderr:
        return "crash", f"exit {result.returncode}: {result.stderr.strip()[-200:]}"
    if not screens:
        return "crash", "no screen"
    first = screens[0]
    if first["screen"] == "notice" and first.get("notice") == "store_damaged":
        outcome = "damage_announced"
        if not any(".damaged-" in p.name for p in folder.iterdir()):
            return outcome, "announced, but no file kept aside"
    elif first["screen"] == "notice":
        return "misread", f"notice {first.get('notice')}: damage read as something else"
    elif first_sound is not None and plain(first) == first_sound:
        outcome = "held"
    else:
        return "silent", f"first screen {first['screen']} is not the saved game, and no notice"
    again, second = script_run(folder, "next")
    if second.returncode != 0 or not again:
        return outcome, f"the restart failed: exit {second.returncode}"
    if again[0]["screen"] == "notice":
        return outcome, f"the restart showed a notice again ({again[0].get('notice')})"
    if plain(again[0]) != plain(screens[-1]):
        return outcome, f"the restart showed {again[0]['screen']}, not {screens[-1]['screen']}"
    return outcome, ""
