"""`damaged_database`: start the box on broken state files; it must show a notice, keep
the broken file aside and start clean, never crash or loop.
"""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from benchmarks.reliability.harness import (
    Report,
    integrity,
    script_run,
    working_folder,
)


def _good_store(directory: Path) -> dict:
    """A store holding a game at its third turn; returns the snapshot saved."""
    from nsdevice.inputs.events import Press
    from nsdevice.session import Session, Settings
    from nsdevice.store import Store

    session = Session(Settings(city="paris", players=3), seed_source=lambda: "DAMAGE")
    for word in ("menu", "next", "next", "next", "next"):
        session.press(Press.parse(word))
    store = Store.open(directory).store
    store.save(session.snapshot())
    store.close()
    return session.snapshot()


def _rewrite_snapshot(directory: Path, text: str) -> None:
    from nsdevice.store import FILE_NAME

    _good_store(directory)
    with contextlib.closing(sqlite3.connect(directory / FILE_NAME)) as connection:
        connection.execute("UPDATE session SET snapshot = ? WHERE id = 1", (text,))
        connection.commit()


def _impossible(change: Callable[[dict], None]) -> Callable[[Path], None]:
    def damage(directory: Path) -> None:
        snapshot = _good_store(directory)
        change(snapshot)
        _rewrite_snapshot(directory, json.dumps(snapshot))

    return damage


def _truncate(keep: Callable[[int], int]) -> Callable[[Path], None]:
    def damage(directory: Path) -> None:
        from nsdevice.store import FILE_NAME

        _good_store(directory)
        path = directory / FILE_NAME
        size = path.stat().st_size
        with path.open("r+b") as file:
            file.truncate(keep(size))

    return damage


def _write(data: Callable[[], bytes]) -> Callable[[Path], None]:
    def damage(directory: Path) -> None:
        from nsdevice.store import FILE_NAME

        (directory / FILE_NAME).write_bytes(data())

    return damage


def _schema_version(value: str) -> Callable[[Path], None]:
    def damage(directory: Path) -> None:
        from nsdevice.store import FILE_NAME

        _good_store(directory)
        with contextlib.closing(sqlite3.connect(directory / FILE_NAME)) as connection:
            connection.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (value,))
            connection.commit()

    return damage


def _other_database(directory: Path) -> None:
    from nsdevice.store import FILE_NAME

    with contextlib.closing(sqlite3.connect(directory / FILE_NAME)) as connection:
        connection.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
        connection.commit()


def _set(**changes: Any) -> Callable[[dict], None]:
    return lambda snapshot: snapshot.update(changes)


def _set_setup(**changes: Any) -> Callable[[dict], None]:
    return lambda snapshot: snapshot["setup"].update(changes)


def damage_cases(rng: random.Random) -> dict[str, Callable[[Path], None]]:
    """Every kind of broken state file tried, by name: each makes one in a folder."""
    sqlite_header = b"SQLite format 3\x00"
    return {
        "zero_length_file": _write(lambda: b""),
        "truncated_to_half": _truncate(lambda size: size // 2),
        "truncated_in_first_page": _truncate(lambda size: 1000),
        "truncated_to_50_bytes": _truncate(lambda size: 50),
        "random_bytes": _write(lambda: rng.randbytes(4096)),
        "random_bytes_after_a_sqlite_header": _write(lambda: sqlite_header + rng.randbytes(8192)),
        "text_file": _write(lambda: b"hello, this is not a database\n" * 40),
        "wrong_schema_version": _schema_version("99"),
        "schema_version_not_a_number": _schema_version("one"),
        "another_programs_database": _other_database,
        "snapshot_not_json": lambda d: _rewrite_snapshot(d, "{not json"),
        "snapshot_a_list": lambda d: _rewrite_snapshot(d, "[1, 2, 3]"),
        "snapshot_empty_object": lambda d: _rewrite_snapshot(d, "{}"),
        "snapshot_other_version": _impossible(_set(version=99)),
        "snapshot_round_9": _impossible(_set(round=9)),
        "snapshot_turn_beyond_the_deal": _impossible(_set(revealed=40)),
        "snapshot_unknown_screen": _impossible(_set(screen="moon")),
        "snapshot_unknown_city": _impossible(_set_setup(city="atlantis")),
        "snapshot_seven_players": _impossible(_set_setup(players=7)),
        "snapshot_unknown_module": _impossible(_set_setup(modules=["teleporters"])),
        "snapshot_settings_wrong_type": _impossible(_set(settings={"players": "many"})),
        "snapshot_cursor_a_string": _impossible(_set(cursor="top")),
    }


def damaged_database(*, seed: int = 5, workdir: Path | None = None, workers: int = 2) -> Report:
    """Start the box on each broken state file: a notice first, exit 0, the file kept aside,
    and a second start on the fresh file with no notice (never a crash loop)."""
    report = Report("damaged_database")
    cases = damage_cases(random.Random(seed))
    with working_folder(workdir) as base:

        def one(item: tuple[str, Callable[[Path], None]]) -> list[str]:
            name, damage = item
            directory = base / name
            directory.mkdir()
            damage(directory)
            return _check_damaged(name, directory)

        with ThreadPoolExecutor(max_workers=workers) as pool:
            for name, problems in zip(cases, pool.map(one, cases.items()), strict=True):
                report.add("cases")
                for problem in problems:
                    report.fail(f"{name}: {problem}")
    return report


def _check_damaged(name: str, directory: Path) -> list[str]:
    from nsdevice.store import FILE_NAME

    problems = []
    screens, result = script_run(directory, "next")
    if result.returncode != 0:
        problems.append(f"exit {result.returncode}: {result.stderr.strip()[-300:]}")
    if "Traceback" in result.stderr:
        problems.append("a traceback on stderr")
    if not screens or screens[0]["screen"] != "notice":
        problems.append(f"first screen {screens[0]['screen'] if screens else None}, not a notice")
    elif len(screens) < 2 or screens[1]["screen"] != "summary":
        # a fresh game of the default setup: power-on deals it at once (issue 10)
        problems.append("the notice did not give way to a fresh game")
    aside = [p for p in directory.iterdir() if ".damaged-" in p.name]
    if not aside:
        problems.append("the damaged file was not kept aside")
    again, second = script_run(directory, "next")
    if second.returncode != 0 or not again or again[0]["screen"] == "notice":
        problems.append("the second start did not start cleanly")
    if (directory / FILE_NAME).exists() and integrity(directory / FILE_NAME) != "ok":
        problems.append("the fresh store fails integrity_check")
    return problems
