"""The reliability harness: try hard to break the box, and say what held.

    python benchmarks/reliability.py                  # short mode (what tests run), ~16 s
    python benchmarks/reliability.py --long           # the long mode, for a person: ~2.5 min
    python benchmarks/reliability.py --only kill_storm --long --seed 7

Five checks, each a plain function that takes its counts as arguments and returns a
`Report` (counts of what was tried, and failures), so tests call them with small counts:

- `kill_storm`: SIGKILL a running box at random moments of play; it must come back on the
  screen it showed or the one the press in flight led to, with the same cards, and the
  database must pass `PRAGMA integrity_check`.
- `damaged_database`: start the box on broken state files; it must show a notice, keep
  the broken file aside and start clean, never crash or loop.
- `button_storm`: random chattering, overlapping and held button edges through the
  `ButtonTracker` into a `Session`, on a fake clock; invariants checked after every press.
- `serial_line`: garbage, overlong lines and unplug/replug on the Pico board's line, over
  a pseudo-terminal with the real firmware logic on the other end.
- `bad_command_line`: bad options for every command: one line on stderr, exit status 2.

Exit status 0 when every check held, 1 otherwise. docs/RELIABILITY.md records the runs.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import importlib.util
import json
import logging
import os
import queue
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ENV = {
    **os.environ,
    "SDL_VIDEODRIVER": "dummy",
    "SDL_AUDIODRIVER": "dummy",
    "GPIOZERO_PIN_FACTORY": "mock",
    "PYGAME_HIDE_SUPPORT_PROMPT": "1",
    "LANG": "C",
}
for _name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LC_ALL", "LC_MESSAGES"):
    ENV.pop(_name, None)
BOX = [sys.executable, "-m", "nsdevice"]
KEY_CHARACTERS = {"next": "n", "back": "b", "menu": "m"}


@dataclass
class Report:
    """What one check tried (`counts`) and what went wrong (`failures`, empty when it held)."""

    name: str
    counts: dict[str, Any] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.failures

    def add(self, key: str, amount: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + amount

    def fail(self, message: str) -> None:
        if len(self.failures) < 30:  # enough to see the pattern, not a flood
            self.failures.append(message)
        else:
            self.add("failures_not_listed")

    def as_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "ok": self.ok}


def _plain(screen: dict) -> dict:
    """A JSON screen without its sound cue: a restored session has no chime to play."""
    return {**screen, "chime": None}


# ---------------------------------------------------------------------------------------
# kill storm
# ---------------------------------------------------------------------------------------


class Box:
    """An interactive `nsdevice run --input keyboard --display json` on pipes."""

    def __init__(self, state: Path, log: Path) -> None:
        command = [*BOX, "run", "--input", "keyboard", "--display", "json",
                   "--state-dir", str(state)]  # fmt: skip
        self._log = log.open("ab")
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log,
            env=ENV, text=True, bufsize=1,
        )  # fmt: skip
        self.started = time.monotonic()
        self.lines: queue.Queue[dict | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.strip():
                self.lines.put(json.loads(line))
        self.lines.put(None)  # end of output: the box exited

    def next_screen(self, timeout: float = 15.0) -> dict:
        try:
            screen = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no screen within {timeout} s") from None
        if screen is None:
            raise EOFError(f"the box exited with status {self.process.wait()}")
        return screen

    def send(self, character: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(character)
        self.process.stdin.flush()

    def kill(self) -> list[dict]:
        """SIGKILL; returns the screens it had written and nobody had read yet."""
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        self._reader.join(timeout=10)  # reads what the pipe still holds, up to the end
        unread = []
        while (screen := self.lines.get_nowait() if not self.lines.empty() else None) is not None:
            unread.append(screen)
        for stream in (self.process.stdin, self.process.stdout):
            with contextlib.suppress(OSError):
                stream.close()  # type: ignore[union-attr]
        self._log.close()
        return unread


class ReadOnlyRecords:
    """The store's finished games as the model session sees them: read, never written."""

    def __init__(self, database: Path) -> None:
        self._database = database

    def best_solo(self, city: str) -> int | None:
        with contextlib.closing(_read_only(self._database)) as connection:
            row = connection.execute(
                "SELECT MAX(adjusted) FROM finished_games WHERE city = ? AND players = 1", (city,)
            ).fetchone()
        return None if row is None or row[0] is None else int(row[0])

    def record(self, game: object) -> None:
        pass  # the box records; the model only predicts screens


def _read_only(database: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5)


def _saved_snapshot(database: Path) -> dict:
    with contextlib.closing(_read_only(database)) as connection:
        row = connection.execute("SELECT snapshot FROM session WHERE id = 1").fetchone()
    return json.loads(row[0]) if row else {}


def _saved_snapshot_showing(
    database: Path, shown: dict, records: Any, timeout: float = 2.0
) -> dict:
    """The saved snapshot once it shows `shown` (or the last one read after `timeout`).
    The box draws a press's frame before it saves the press (picture first), so the
    save lands a moment after the screen."""
    deadline = time.monotonic() + timeout
    while True:
        snapshot = _saved_snapshot(database)
        if _plain(_model(snapshot, records).view().as_dict()) == shown:
            return snapshot
        if time.monotonic() > deadline:
            return snapshot
        time.sleep(0.005)


def _integrity(database: Path) -> str:
    # Read-write, as the box opens it: this also replays a WAL left behind.
    with contextlib.closing(sqlite3.connect(database, timeout=5)) as connection:
        return str(connection.execute("PRAGMA integrity_check").fetchone()[0])


def _choose_key(rng: random.Random, screen: str, cursor: int) -> str:
    """A player's next key: plays whole games, visits the menu and undoes now and then."""
    roll = rng.random()
    if screen == "setup":
        if cursor == 0:
            return "menu" if roll < 0.8 else "next"
        if cursor in (1, 2, 3, 4, 5, 6):  # city, players, modules: change one, or go up
            return "menu" if roll < 0.35 else "back"
        return "back"  # seed and language rows: go back up
    if screen == "seed_entry":
        return "menu"
    if screen == "menu":
        if cursor == 0:
            return "menu" if roll < 0.85 else "next"
        return "back" if roll < 0.7 else "menu"
    if screen == "confirm":
        return "back" if roll < 0.6 else "next"
    if screen in ("about", "recall", "notice"):
        return "next"
    if screen == "score_entry":
        return "next" if roll < 0.4 else "menu" if roll < 0.9 else "back"
    if screen == "result":
        return "next" if roll < 0.7 else "menu" if roll < 0.9 else "back"
    return "next" if roll < 0.8 else "back" if roll < 0.95 else "menu"


def _session_key(rng: random.Random, model: Any) -> str | None:
    """A key that changes the screen (so there is a frame to wait for), or None."""
    from nsdevice.inputs.events import Press

    before = _plain(model.view().as_dict())
    for _ in range(6):
        word = _choose_key(rng, model.screen, getattr(model.view(), "cursor", 0))
        trial = _copy(model)
        trial.press(Press.parse(word))
        if _plain(trial.view().as_dict()) != before:
            return word
    return None


def _model(snapshot: dict, records: Any, seed_source: Callable[[], str] | None = None) -> Any:
    """The box as a session in this process: restored from its saved snapshot, or the
    fresh session a box with no saved game starts with (LANG=C: English)."""
    from nsdevice.session import Session, Settings, random_seed

    seed_source = seed_source or random_seed
    if not snapshot:
        return Session(Settings(language="en"), records=records, seed_source=seed_source)
    return Session.restore(snapshot, records=records, seed_source=seed_source)


def _copy(model: Any) -> Any:
    from nsdevice.session import Session

    copy = Session.restore(
        json.loads(json.dumps(model.snapshot())),
        records=model.records,
        seed_source=model._seed_source,
    )
    return copy


def kill_storm(
    kills: int = 15,
    *,
    seed: int = 20261122,
    max_delay: float = 0.030,
    startup_kill_share: float = 0.1,
    workdir: Path | None = None,
) -> Report:
    """SIGKILL a playing box `kills` times; after each restart check screen, cards and file.

    After the key is written the kill comes at once (a quarter), 0-2 ms later (a quarter:
    inside the box's step of reading the key, saving and drawing) or 0-`max_delay` s later;
    a share of the kills instead hit a box that is still starting. The expectation comes
    from a model: the saved snapshot restored in-process (`Session.restore`), pressed the
    same way. A screen the box wrote before the kill survives it, or (killed between that
    frame and its save: picture first) the box comes back one step before it.
    """
    from nsdevice.inputs.events import Press
    from nsdevice.store import FILE_NAME

    report = Report("kill_storm")
    rng = random.Random(seed)
    with _workdir(workdir) as base:
        state = base / "state"
        log = base / "box.log"
        database = state / FILE_NAME
        records = ReadOnlyRecords(database)
        box = Box(state, log)
        try:
            shown = _plain(box.next_screen())
            report.add("starts")
            while report.counts.get("kills", 0) < kills:
                # A little play between kills, waiting for each screen.
                for _ in range(rng.randint(0, 6)):
                    model = _model(_saved_snapshot_showing(database, shown, records), records)
                    word = _session_key(rng, model)
                    if word is None:
                        continue
                    box.send(KEY_CHARACTERS[word])
                    shown = _plain(box.next_screen())
                    report.add("presses")
                    expected = _model(_saved_snapshot_showing(database, shown, records), records)
                    if _plain(expected.view().as_dict()) != shown:
                        report.fail(f"screen {shown['screen']} is not the saved one")
                if rng.random() < startup_kill_share:
                    # Kill a box that is starting up: nothing may be lost or damaged.
                    box.kill()
                    box = Box(state, log)
                    time.sleep(rng.uniform(0.0, 0.25))
                    box.kill()
                    report.add("kills")
                    report.add("kills_during_start")
                    _check_file(report, database)
                    box = Box(state, log)
                    resumed = _plain(box.next_screen())
                    report.add("starts")
                    if resumed != shown:
                        report.fail(
                            f"after a start-up kill: {resumed['screen']} != {shown['screen']}"
                        )
                    shown = resumed
                    continue
                # The press in flight, and the kill.
                before_snapshot = _saved_snapshot_showing(database, shown, records)
                model = _model(before_snapshot, records)
                if _plain(model.view().as_dict()) != shown:
                    report.fail("the saved snapshot does not show the screen on display")
                word = _session_key(rng, model)
                if word is None:
                    word = "next"
                share = rng.random()
                delay = 0.0 if share < 0.25 else rng.uniform(0, 0.002) if share < 0.5 else (
                    rng.uniform(0, max_delay))  # fmt: skip
                box.send(KEY_CHARACTERS[word])
                _pause(delay)
                drawn = [_plain(screen) for screen in box.kill()]
                report.add("kills")
                report.add(
                    "kills_at_once" if not delay
                    else "kills_within_2ms" if delay < 0.002 else "kills_2_to_30ms"
                )  # fmt: skip
                _check_file(report, database)
                after_snapshot = _saved_snapshot(database)
                # A press that starts a game draws a fresh seed in the box: give the model it.
                new_seed = (after_snapshot.get("setup") or {}).get("seed", "UNSEEN")
                predict = _model(before_snapshot, records, lambda s=new_seed: s)
                predict.press(Press.parse(word))
                after = _plain(predict.view().as_dict())
                box = Box(state, log)
                resumed = _plain(box.next_screen())
                report.add("starts")
                if resumed == after and after != shown:
                    report.add("resumed_after_the_press")
                    _extreme(report, "shortest_delay_resumed_after_ms", delay, min)
                elif resumed == shown:
                    report.add("resumed_before_the_press")
                    _extreme(report, "longest_delay_resumed_before_ms", delay, max)
                if drawn:
                    # The press's frame was out before the kill. The box draws before it
                    # saves (picture first), so a kill between the two may lose that one
                    # step, never more: it comes back on that frame or the one before.
                    report.add("kills_after_the_frame")
                    if resumed not in (drawn[-1], shown):
                        report.fail(
                            f"kill {report.counts['kills']}: came back more than one step "
                            "before a screen shown"
                        )
                    elif resumed != drawn[-1]:
                        report.add("kills_between_frame_and_save")
                if resumed not in (shown, after):
                    report.fail(
                        f"kill {report.counts['kills']} ({word}, {delay * 1000:.1f} ms): "
                        f"came back on {resumed['screen']}, expected {shown['screen']} "
                        f"or {after['screen']}"
                    )
                if resumed["screen"] == "turn":
                    report.add("resumed_on_a_turn")
                    _check_turn_cards(report, resumed, _saved_snapshot(database))
                shown = resumed
        except (TimeoutError, EOFError) as error:
            tail = log.read_text(errors="replace")[-600:] if log.exists() else ""
            report.fail(f"the box stopped answering: {error}; its stderr ends: {tail!r}")
        finally:
            box.kill()
    return report


def _extreme(report: Report, key: str, seconds: float, pick: Callable[..., float]) -> None:
    """Keep the smallest or largest delay (in ms) seen under `key`."""
    value = round(seconds * 1000, 3)
    report.counts[key] = pick(report.counts.get(key, value), value)


def _pause(seconds: float) -> None:
    """Wait `seconds`; below 2 ms by spinning, as sleep() is too coarse to land inside the
    box's step (read the key, save, draw: about a millisecond)."""
    if seconds >= 0.002:
        time.sleep(seconds)
        return
    until = time.perf_counter() + seconds
    while time.perf_counter() < until:
        pass


def _check_file(report: Report, database: Path) -> None:
    """`PRAGMA integrity_check` on a copy of the files the kill left (database and WAL), so
    the box itself, not this check, is the one that replays the log when it restarts."""
    if not database.exists():
        return  # killed before it was ever created
    with tempfile.TemporaryDirectory(prefix="nsdevice-copy-") as folder:
        for suffix in ("", "-wal"):
            source = Path(f"{database}{suffix}")
            if source.exists():
                shutil.copyfile(source, Path(folder) / f"{database.name}{suffix}")
        result = _integrity(Path(folder) / database.name)
    report.add("integrity_checks")
    if result != "ok":
        report.fail(f"integrity_check after kill {report.counts.get('kills')}: {result}")


def _check_turn_cards(report: Report, screen: dict, snapshot: dict) -> None:
    """The turn on screen shows exactly the cards of the fixed deal (D-1)."""
    from nsdevice.rules.cities import CityName
    from nsdevice.rules.deal import Setup, deal_game
    from nsdevice.rules.modules import Module

    raw = snapshot["setup"]
    deal = deal_game(
        Setup(CityName(raw["city"]), raw["players"], tuple(Module(m) for m in raw["modules"]),
              raw["seed"])
    )  # fmt: skip
    turn = deal.rounds[screen["round"] - 1].turns[screen["turn"] - 1]
    if screen["cards"] != [card.as_dict() for card in turn.cards]:
        report.fail(f"round {screen['round']} turn {screen['turn']}: cards differ from the deal")


@contextlib.contextmanager
def _workdir(given: Path | None) -> Iterator[Path]:
    if given is not None:
        given.mkdir(parents=True, exist_ok=True)
        yield given
        return
    with tempfile.TemporaryDirectory(prefix="nsdevice-reliability-") as name:
        yield Path(name)


# ---------------------------------------------------------------------------------------
# damaged database
# ---------------------------------------------------------------------------------------


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
    with _workdir(workdir) as base:

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


def _script_run(directory: Path, keys: str) -> tuple[list[dict], subprocess.CompletedProcess]:
    command = [*BOX, "run", "--input", "script", "--keys", keys, "--display", "json",
               "--state-dir", str(directory)]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, env=ENV, timeout=60)
    screens = []
    for line in result.stdout.splitlines():
        with contextlib.suppress(json.JSONDecodeError):
            screens.append(json.loads(line))
    return screens, result


def _check_damaged(name: str, directory: Path) -> list[str]:
    from nsdevice.store import FILE_NAME

    problems = []
    screens, result = _script_run(directory, "next")
    if result.returncode != 0:
        problems.append(f"exit {result.returncode}: {result.stderr.strip()[-300:]}")
    if "Traceback" in result.stderr:
        problems.append("a traceback on stderr")
    if not screens or screens[0]["screen"] != "notice":
        problems.append(f"first screen {screens[0]['screen'] if screens else None}, not a notice")
    elif len(screens) < 2 or screens[1]["screen"] != "setup":
        problems.append("the notice did not give way to a fresh setup")
    aside = [p for p in directory.iterdir() if ".damaged-" in p.name]
    if not aside:
        problems.append("the damaged file was not kept aside")
    again, second = _script_run(directory, "next")
    if second.returncode != 0 or not again or again[0]["screen"] == "notice":
        problems.append("the second start did not start cleanly")
    if (directory / FILE_NAME).exists() and _integrity(directory / FILE_NAME) != "ok":
        problems.append("the fresh store fails integrity_check")
    return problems


# ---------------------------------------------------------------------------------------
# button storm
# ---------------------------------------------------------------------------------------


@dataclass
class _Intent:
    """One burst that starts a press on a button (or a glitch that may read as one)."""

    button: Any
    start: float
    taps_and_holds: int = 0
    held: bool = False


def storm_edges(rng: random.Random, count: int, debounce: float) -> Iterator[tuple[Any, ...]]:
    """(time, button, down, intent) edges: taps, long holds, overlapping presses and glitches.

    Every change of level is a burst of 1-8 edges within 1-20 ms (an odd number for a real
    change, an even one for a glitch that comes back); bursts on one contact are kept more
    than `debounce` apart, so each burst is one debounced change and the intent of every
    press the tracker sends is known.
    """
    from nsdevice.inputs.events import Button

    buttons = list(Button)
    weights = [0.8, 0.12, 0.08]
    free_at = dict.fromkeys(buttons, 0.0)  # when each contact may bounce again
    gap = debounce + 0.015
    now = 0.0
    made = 0
    pending: list[tuple[float, int, Any, bool, _Intent | None]] = []
    order = 0

    def burst(button: Any, at: float, to_down: bool, edges: int, intent: _Intent | None) -> float:
        nonlocal order, made
        span = rng.uniform(0.001, 0.020)
        times = sorted(at + rng.uniform(0, span) for _ in range(edges))
        level = not to_down
        for moment in times:
            level = not level
            pending.append((moment, order, button, level, intent))
            order += 1
            made += 1
        return times[-1]

    def odd(limit: int = 8) -> int:
        return rng.choice([n for n in range(1, limit + 1) if n % 2])

    while made < count:
        kind = rng.random()
        button = rng.choices(buttons, weights)[0]
        start = max(now, free_at[button]) + rng.uniform(0, 0.02)
        if kind < 0.06:  # a glitch: the contact flickers and comes back up
            intent = _Intent(button, start)
            end = burst(button, start, True, rng.choice([2, 4, 6, 8]), intent)
            free_at[button] = end + gap
            now = end + rng.uniform(0.0, 0.1)
            yield from _flush(pending, now)
            continue
        if kind < 0.80:
            down_for = rng.uniform(0.04, 0.5)  # a tap
        elif kind < 0.92:
            down_for = rng.uniform(0.8, 4.0)  # a long hold: HOLD, then REPEATs
        else:
            down_for = rng.uniform(0.1, 1.2)  # another press overlaps this one
        intent = _Intent(button, start)
        pressed = burst(button, start, True, odd(), intent)
        release_at = max(pressed + gap, start + down_for)
        if kind >= 0.92:
            other = rng.choice([b for b in buttons if b is not button])
            other_start = max(free_at[other], start + rng.uniform(0.0, down_for))
            other_intent = _Intent(other, other_start)
            other_pressed = burst(other, other_start, True, odd(), other_intent)
            other_release = max(other_pressed + gap, other_start + rng.uniform(0.04, 0.9))
            free_at[other] = burst(other, other_release, False, odd(), None) + gap
        released = burst(button, release_at, False, odd(), None)
        free_at[button] = released + gap
        if rng.random() < 0.85:
            now = released + rng.uniform(0.0, 0.3)
        else:  # the next press, on another button, overlaps this one
            now = start + rng.uniform(0.0, down_for)
        yield from _flush(pending, now)
    yield from _flush(pending, float("inf"))


def _flush(pending: list, until: float) -> Iterator[tuple[Any, ...]]:
    """Edges before `until`, in time order, out of `pending`."""
    pending.sort(key=lambda edge: (edge[0], edge[1]))
    while pending and pending[0][0] < until:
        moment, _, button, down, intent = pending.pop(0)
        yield moment, button, down, intent


def button_storm(
    edges: int = 10_000, *, seed: int = 11, presses_per_game: int | None = None
) -> Report:
    """Random edges with chatter, overlaps and holds → ButtonTracker → Session, on a fake
    clock, all cities, player counts and modules; invariants checked after every press.

    Each session starts a game of the next (city, players) with random modules; it is
    replaced when play returns to the setup screen or after `presses_per_game` presses
    (by default about a twelfth of the expected presses, so a short run still plays
    every city at every player count).
    """
    from nsdevice.inputs.events import Button, ButtonTracker, Edge, Gesture, Press
    from nsdevice.rules.deal import draw_seed
    from nsdevice.session import CITIES, GAME_SCREENS, MODULES, Session, Settings
    from nsdevice.store import Store

    report = Report("button_storm")
    rng = random.Random(seed)
    tracker = ButtonTracker()
    records = Store.in_memory()
    setups = [(c, p) for c in CITIES for p in (1, 2, 3, 4)]
    rng.shuffle(setups)
    games: set[tuple[str, int]] = set()
    modules_seen: set[str] = set()
    budget = presses_per_game or max(60, edges // 120)
    pressed_in_game = 0

    def fresh_session() -> Session:
        nonlocal pressed_in_game
        city, players = setups[report.counts.get("sessions", 0) % len(setups)]
        modules = tuple(m for m in MODULES if rng.random() < 0.4)
        report.add("sessions")
        fresh = Session(
            Settings(city=city, players=players, modules=modules),
            records=records,
            seed_source=lambda: draw_seed(rng),
        )
        fresh.press(Press(Button.MENU))  # "start", the setup's first row
        _started(fresh)
        pressed_in_game = 0
        return fresh

    def _started(started: Session) -> None:
        setup = started.deal.setup if started.deal else None
        if setup is not None:
            games.add((setup.city.value, setup.players))
            modules_seen.update(m.value for m in setup.modules)
            report.add("games_started")

    session = fresh_session()
    latest: dict[Any, _Intent] = {}  # the newest press intent of each button

    def handle(presses: list, now: float) -> None:
        nonlocal session, pressed_in_game
        for press in presses:
            intent = latest.get(press.button)
            if press.gesture in (Gesture.TAP, Gesture.HOLD):
                report.add(f"{press.gesture.value}s")
                if intent is None or intent.start > now:
                    report.fail(f"{press} at {now:.3f} s with no press of its button")
                else:
                    intent.taps_and_holds += 1
                    intent.held = intent.held or press.gesture is Gesture.HOLD
                    if intent.taps_and_holds > 1:
                        report.fail(f"two presses from one press of {press.button} at {now:.3f}")
            else:
                report.add("repeats")
                if intent is None or not intent.held:
                    report.fail(f"a REPEAT of {press.button} at {now:.3f} s without its HOLD")
            was = session.screen
            try:
                session.press(press)
                _check_session(report, session, GAME_SCREENS)
            except Exception as error:
                report.fail(f"{type(error).__name__} on {press} in {was}: {error}")
                report.add("crashes")
                session = fresh_session()
                continue
            report.add("presses")
            pressed_in_game += press.gesture is not Gesture.REPEAT
            if session.screen == "summary" and was == "setup":
                _started(session)
            if session.screen == "result" and was != "result":
                report.add("games_finished")
            if (session.screen == "setup" and was != "setup") or pressed_in_game >= budget:
                session = fresh_session()  # the next setup, as a player would choose it

    for moment, button, down, intent in storm_edges(rng, edges, tracker.debounce):
        try:
            while (deadline := tracker.next_deadline()) is not None and deadline <= moment:
                handle(tracker.due(deadline), deadline)
            if down and intent is not None:
                latest[button] = intent
            report.add("edges")
            handle(tracker.feed(Edge(button, down, moment)), moment)
        except Exception as error:  # the tracker itself must never fail
            report.fail(f"tracker: {type(error).__name__}: {error}")
            report.add("crashes")
            tracker = ButtonTracker()
    while (deadline := tracker.next_deadline()) is not None:
        handle(tracker.due(deadline), deadline)
    if any(tracker.is_down(button) for button in latest):
        report.fail("a button is still down after every contact was released")
    report.counts["setups_played"] = len(games)
    report.counts["modules_played"] = len(modules_seen)
    return report


def _check_session(report: Report, session: Any, game_screens: tuple[str, ...]) -> None:
    """After a press: the snapshot round-trips, progress is inside the deal, a turn shows
    the deal's own cards."""
    from nsdevice.session import Session

    snapshot = json.loads(json.dumps(session.snapshot()))
    restored = Session.restore(snapshot, records=session.records)
    if json.loads(json.dumps(restored.snapshot())) != snapshot:
        report.fail(f"snapshot does not round-trip on {session.screen}")
    view = session.view()
    if dataclasses.replace(restored.view(), chime=None) != dataclasses.replace(view, chime=None):
        report.fail(f"restored view differs on {session.screen}")
    deal = session.deal
    if deal is not None and session.screen in game_screens:
        progress = session.progress
        if not 1 <= progress.round <= 4:
            report.fail(f"round {progress.round}")
        elif not 0 <= progress.revealed <= len(deal.rounds[progress.round - 1].turns):
            report.fail(f"turn {progress.revealed} beyond round {progress.round}")
    if view.screen == "turn":
        assert deal is not None
        turns = deal.rounds[view.round - 1].turns
        if view.cards != turns[view.turn - 1].cards or view.turn != session.progress.revealed:
            report.fail(f"round {view.round} turn {view.turn}: cards differ from the deal")
        report.add("turns_checked")


# ---------------------------------------------------------------------------------------
# serial line
# ---------------------------------------------------------------------------------------


def _simulator() -> Any:
    """firmware/simulator.py, the board's firmware on a PC. firmware/ is the Pico's own flat
    set of files, not a package, so the file is loaded by its path, under a private name."""
    path = ROOT / "firmware" / "simulator.py"
    spec = importlib.util.spec_from_file_location("nsboard_simulator", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def serial_line(
    actions: int = 40, *, seed: int = 3, unplug_every: int = 20, heartbeat_ms: int = 1000
) -> Report:
    """Garbage, overlong lines and bursts on the board's line, presses between them, and a
    mid-game unplug/replug every `unplug_every` actions: edges keep coming, the board is
    back within 2 s, and no button is left down."""
    from nsdevice.inputs.events import Button, ButtonTracker, Edge, QueueInbox
    from nsdevice.inputs.serial_board import MAX_LINE, SerialBoard
    from nsdevice.session import Session, Settings

    report = Report("serial_line")
    rng = random.Random(seed)
    logged = _CountingHandler()  # the reader's warnings, counted instead of printed
    logger = logging.getLogger("nsdevice.inputs.serial_board")
    logger.addHandler(logged)
    propagate, logger.propagate = logger.propagate, False
    simulator = _simulator()
    inbox = QueueInbox()
    tracker = ButtonTracker()
    session = Session(Settings(), seed_source=lambda: "SERIAL")
    pico = simulator.PicoOnPty(heartbeat_ms=heartbeat_ms)
    ports = [pico.path]
    host = SerialBoard(inbox, find_ports=lambda: list(ports))
    held: dict[Button, bool] = dict.fromkeys(Button, False)
    buttons = [Button.NEXT, Button.BACK, Button.MENU]
    reconnects: list[float] = []

    def pump(timeout: float) -> list[tuple[Button, bool]]:
        got = []
        for item in inbox.get(timeout):
            assert isinstance(item, Edge)
            held[item.button] = item.down
            got.append((item.button, item.down))
            for press in tracker.feed(item):
                session.press(press)
        for press in tracker.due(time.monotonic()):
            session.press(press)
        return got

    def expect(edge: tuple[Button, bool], timeout: float) -> float | None:
        started = time.monotonic()
        while (waited := time.monotonic() - started) < timeout:
            got = pump(0.02)
            extra = [e for e in got if e != edge]
            if extra:
                report.add("unexpected_edges", len(extra))
            if edge in got:
                return waited
        return None

    def wait_for(condition: Callable[[], bool], timeout: float) -> float | None:
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            if condition():
                return time.monotonic() - started
            pump(0.01)
        return None

    host.start()
    try:
        if wait_for(lambda: host.connected, 5.0) is None:
            report.fail(f"never connected: {host.status}")
            return report
        slow_edge = (heartbeat_ms / 1000) * 2 + 0.5  # a lost line is mended by a heartbeat
        for step in range(1, actions + 1):
            kind = rng.random()
            if kind < 0.25:
                data = rng.randbytes(rng.randint(1, 300))
                pico.inject(data if rng.random() < 0.5 else data + b"\n")
                report.add("garbage_injections")
            elif kind < 0.4:
                pico.inject(b"y" * rng.randint(MAX_LINE + 1, 5000) + rng.choice([b"", b"\r\n"]))
                report.add("overlong_lines")
            elif kind < 0.5:
                for _ in range(rng.randint(5, 40)):
                    pico.inject(rng.randbytes(rng.randint(1, 64)))
                pico.inject(b"\n")
                report.add("garbage_bursts")
            index = rng.randrange(3)
            button = buttons[index]
            pico.press(index)
            took = expect((button, True), slow_edge)
            if took is None:
                report.fail(f"action {step}: {button} pressed, no DOWN edge")
            elif took > 0.2:
                report.add("edges_mended_by_heartbeat")
            if step % unplug_every == 0:
                # Pull the cable with the button held: it must come up, then reconnect.
                ports.clear()
                pico.unplug()
                if expect((button, False), 3.0) is None:
                    report.fail(f"unplug {step}: {button} left down")
                wait_for(lambda: not host.connected, 5.0)
                pico.plug_in()  # a fresh pty at a new path, the board booted afresh
                ports.append(pico.path)
                took = wait_for(lambda: host.connected, 5.0)
                report.add("unplugs")
                if took is None or took > 2.0:
                    report.fail(f"unplug {step}: reconnected after {took} s (limit 2 s)")
                else:
                    reconnects.append(took)
                continue
            time.sleep(rng.uniform(0.0, 0.05))
            pico.release(index)
            if expect((button, False), slow_edge) is None:
                report.fail(f"action {step}: {button} released, no UP edge")
            report.add("presses")
        for index in range(len(pico.pins)):
            pico.release(index)
        # A heartbeat later every button must be up, on the line and in the tracker.
        wait_for(lambda: False, heartbeat_ms / 1000 * 1.5)
        stuck = [b for b, down in held.items() if down] + [b for b in buttons if tracker.is_down(b)]
        if stuck:
            report.fail(f"stuck buttons at the end: {sorted(set(stuck))}")
        if not host.connected or host._thread is None or not host._thread.is_alive():
            report.fail(f"the reader is not running at the end: {host.status}")
        if reconnects:
            report.counts["slowest_reconnect_s"] = round(max(reconnects), 3)
    finally:
        host.close()
        pico.unplug()
        logger.removeHandler(logged)
        logger.propagate = propagate
        if logged.count:
            report.counts["reader_warnings_logged"] = logged.count
    return report


class _CountingHandler(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


# ---------------------------------------------------------------------------------------
# bad command-line input
# ---------------------------------------------------------------------------------------


def bad_command_lines(folder: Path) -> list[list[str]]:
    """Bad input for every command; each must be refused with one line and status 2."""
    bad_toml = folder / "broken.toml"
    bad_toml.write_text("[display\nkind = 'window'\n")
    bad_pins = folder / "pins.toml"
    bad_pins.write_text(
        'name = "pins"\n[display]\nkind = "window"\nwidth = 480\nheight = 320\n'
        '[input]\nkind = "gpio"\n[input.buttons]\nnext = 99\nback = 99\nmenu = -3\n'
    )
    a_file = folder / "a-file"
    a_file.write_text("")
    state = ["--state-dir", str(folder / "state")]
    script = ["--input", "script", "--keys", "next", "--display", "json", *state]
    return [
        [],
        ["launch"],
        ["--colour"],
        ["run", "--display", "hologram"],
        ["run", "--input", "telepathy"],
        ["run", "--size", "10x10"],
        ["run", "--size", "wide"],
        ["run", "--size", "480x320x2"],
        ["run", "--size", "99999x320"],
        ["run", "--hardware", "no-such-build"],
        ["run", "--hardware", str(bad_toml)],
        ["run", "--hardware", str(bad_pins)],
        ["run", "--hardware", "/etc/hostname"],
        ["run", "--keys", "next", "--display", "json", *state],
        ["run", "--input", "script", "--display", "json", *state],
        ["run", "--input", "script", "--keys", "next,jump", "--display", "json", *state],
        ["run", "--input", "script", "--keys", "hold:", "--display", "json", *state],
        ["run", *script, "--shutdown-command", '"unclosed'],
        ["run", *script, "--frobnicate"],
        ["deal"],
        ["deal", "--city", "atlantis", "--players", "2"],
        ["deal", "--city", "tokyo", "--players", "0"],
        ["deal", "--city", "tokyo", "--players", "two"],
        ["deal", "--city", "tokyo", "--players", "2", "--seed", "no spaces!"],
        ["deal", "--city", "tokyo", "--players", "2", "--seed", "A" * 17],
        ["deal", "--city", "tokyo", "--players", "2", "--modules", "teleporters"],
        ["deal", "--city", "tokyo", "--players", "2", "extra"],
        ["score", "--city", "tokyo", "--line", "5by4"],
        ["score", "--city", "paris", "--line", "5x4"],
        ["score", "--city", "tokyo", "--line", "99x4"],
        ["score", "--city", "tokyo", *["--line", "1x1"] * 5],
        ["score", "--city", "tokyo", "--interchanges", "9:1"],
        ["score", "--city", "tokyo", "--interchanges", "3:x"],
        ["score", "--city", "tokyo", "--stamps", "-1"],
        ["score", "--city", "tokyo", "--total", "lots"],
        ["score", "--city", "tokyo", "--total", "5", "--stamps", "3"],
        ["score", "--city", "london", "--line", "2x2"],
        ["score", "--city", "tokyo", "--total", "10", "--solo-modules", "9"],
        ["simulate", "--city", "tokyo", "--rounds", "0"],
        ["simulate", "--city", "tokyo", "--rounds", "-5"],
        ["simulate", "--city", "tokyo", "--rounds", "1e6"],
        ["simulate", "--city", "rome"],
        ["simulate", "--city", "tokyo", "--seed", ""],
        ["screenshot"],
        ["screenshot", "--out", str(folder / "shots"), "--size", "5x5"],
        ["screenshot", "--out", str(folder / "shots"), "--size", "huge"],
        ["screenshot", "--out", str(a_file / "below-a-file")],
        ["hwtest"],
        ["hwtest", "--hardware", "no-such-build"],
        ["hwtest", "--hardware", str(bad_toml)],
        ["hwtest", "--hardware", "desktop", "--timeout", "soon"],
        ["hwtest", "--hardware", "desktop", "--timeout", "-1"],
        ["hwtest", "--hardware", "desktop", "--timeout", "nan"],
    ]


def bad_command_line(*, workers: int = 4, workdir: Path | None = None) -> Report:
    """Every bad command line: exit status 2, exactly one line on stderr, no traceback."""
    report = Report("bad_command_line")
    with _workdir(workdir) as base:
        commands = bad_command_lines(base)

        def one(arguments: list[str]) -> subprocess.CompletedProcess:
            return subprocess.run(
                [*BOX, *arguments], capture_output=True, text=True, env=ENV, timeout=60,
                stdin=subprocess.DEVNULL, cwd=base,
            )  # fmt: skip

        with ThreadPoolExecutor(max_workers=workers) as pool:
            for arguments, result in zip(commands, pool.map(one, commands), strict=True):
                report.add("command_lines")
                word = arguments[0] if arguments and not arguments[0].startswith("-") else "-"
                report.counts.setdefault("commands", [])
                if word not in report.counts["commands"]:
                    report.counts["commands"].append(word)
                lines = result.stderr.strip().splitlines()
                if result.returncode != 2 or len(lines) != 1 or "Traceback" in result.stderr:
                    shown = " ".join(arguments)
                    report.fail(
                        f"`nsdevice {shown}`: exit {result.returncode}, "
                        f"{len(lines)} stderr lines: {result.stderr.strip()[-200:]!r}"
                    )
    return report


# ---------------------------------------------------------------------------------------
# the command
# ---------------------------------------------------------------------------------------

# name → (function, short-mode arguments, long-mode arguments)
CHECKS: dict[str, tuple[Callable[..., Report], dict[str, Any], dict[str, Any]]] = {
    "kill_storm": (kill_storm, {"kills": 15}, {"kills": 200}),
    "damaged_database": (damaged_database, {}, {}),
    "button_storm": (button_storm, {"edges": 10_000}, {"edges": 200_000}),
    "serial_line": (
        serial_line,
        {"actions": 30, "unplug_every": 15},
        {"actions": 400, "unplug_every": 20},
    ),
    "bad_command_line": (bad_command_line, {}, {}),
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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
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
            "command": " ".join(["python", *sys.argv]),
            "reports": [report.as_dict() for report in reports],
        }
        args.json.write_text(json.dumps(record, indent=1) + "\n")
    return 0 if all(report.ok for report in reports) else 1


if __name__ == "__main__":
    sys.exit(main())
