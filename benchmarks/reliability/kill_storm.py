"""`kill_storm`: SIGKILL a running box at random moments of play; it must come back on the
screen it showed or the one the press in flight led to, with the same cards, and the
database must pass `PRAGMA integrity_check`.
"""

from __future__ import annotations

import contextlib
import json
import queue
import random
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.reliability.harness import (
    BOX,
    ENV,
    Report,
    integrity,
    plain,
    read_only,
    working_folder,
)

KEY_CHARACTERS = {"next": "n", "back": "b", "menu": "m"}  # the terminal keys


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
    """The store's finished games as the model session sees them: read through the
    store's own queries on a read-only connection, never written."""

    def __init__(self, database: Path) -> None:
        self._database = database

    def best_solo(self, city: str, modules: tuple[str, ...]) -> int | None:
        from nsdevice.store import Store

        with contextlib.closing(read_only(self._database)) as connection:
            return Store(connection, None).best_solo(city, modules)

    def history(self, limit: int = 5) -> Any:
        from nsdevice.store import Store

        with contextlib.closing(read_only(self._database)) as connection:
            return Store(connection, None).history(limit)

    def record(self, game: object) -> None:
        pass  # the box records; the model only predicts screens


def _saved_snapshot(database: Path) -> dict:
    with contextlib.closing(read_only(database)) as connection:
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
        if plain(_model(snapshot, records).view().as_dict()) == shown:
            return snapshot
        if time.monotonic() > deadline:
            return snapshot
        time.sleep(0.005)

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

    before = plain(model.view().as_dict())
    for _ in range(6):
        word = _choose_key(rng, model.screen, getattr(model.view(), "cursor", 0))
        trial = model.copy()
        trial.press(Press.parse(word))
        if plain(trial.view().as_dict()) != before:
            return word
    return None


def _model(snapshot: dict, records: Any, seed_source: Callable[[], str] | None = None) -> Any:
    """The box as a session in this process: restored from its saved snapshot, or the
    fresh session a box with no saved game starts with (LANG=C: English)."""
    from nsdevice.inputs.keyboard import KEY_LABELS
    from nsdevice.session import Capabilities, Session, Settings, random_seed
    from nsdevice.views import DEFAULT_PANEL

    seed_source = seed_source or random_seed
    # the box reads the terminal's keys, so its labels name them
    capabilities = Capabilities(panel=DEFAULT_PANEL.with_keys(KEY_LABELS))
    if not snapshot:
        return Session(
            Settings(language="en"),
            capabilities=capabilities,
            records=records,
            seed_source=seed_source,
        )
    return Session.restore(
        snapshot, capabilities=capabilities, records=records, seed_source=seed_source
    )


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
    with working_folder(workdir) as base:
        state = base / "state"
        log = base / "box.log"
        database = state / FILE_NAME
        records = ReadOnlyRecords(database)
        box = Box(state, log)
        try:
            shown = plain(box.next_screen())
            report.add("starts")
            while report.counts.get("kills", 0) < kills:
                # A little play between kills, waiting for each screen.
                for _ in range(rng.randint(0, 6)):
                    model = _model(_saved_snapshot_showing(database, shown, records), records)
                    word = _session_key(rng, model)
                    if word is None:
                        continue
                    box.send(KEY_CHARACTERS[word])
                    shown = plain(box.next_screen())
                    report.add("presses")
                    expected = _model(_saved_snapshot_showing(database, shown, records), records)
                    if plain(expected.view().as_dict()) != shown:
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
                    resumed = plain(box.next_screen())
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
                if plain(model.view().as_dict()) != shown:
                    report.fail("the saved snapshot does not show the screen on display")
                word = _session_key(rng, model)
                if word is None:
                    word = "next"
                share = rng.random()
                delay = 0.0 if share < 0.25 else rng.uniform(0, 0.002) if share < 0.5 else (
                    rng.uniform(0, max_delay))  # fmt: skip
                box.send(KEY_CHARACTERS[word])
                _pause(delay)
                drawn = [plain(screen) for screen in box.kill()]
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
                after = plain(predict.view().as_dict())
                box = Box(state, log)
                resumed = plain(box.next_screen())
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
        result = integrity(Path(folder) / database.name)
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
