"""What every reliability check shares: how to start the box, and the report it returns."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
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


def plain(screen: dict) -> dict:
    """A JSON screen without its sound cue (a restored session has no chime to play) and
    what the JSON display says for it (derived from the rest)."""
    return {**screen, "chime": None, "say": None}


def read_only(database: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5)


def integrity(database: Path) -> str:
    # Read-write, as the box opens it: this also replays a WAL left behind.
    with contextlib.closing(sqlite3.connect(database, timeout=5)) as connection:
        return str(connection.execute("PRAGMA integrity_check").fetchone()[0])


@contextlib.contextmanager
def working_folder(given: Path | None) -> Iterator[Path]:
    if given is not None:
        given.mkdir(parents=True, exist_ok=True)
        yield given
        return
    with tempfile.TemporaryDirectory(prefix="nsdevice-reliability-") as name:
        yield Path(name)


def script_run(
    directory: Path, keys: str, timeout: float = 60
) -> tuple[list[dict[str, Any]], subprocess.CompletedProcess[str]]:
    """`nsdevice run` on scripted presses with JSON screens: the screens it printed (lines
    that are not JSON are passed over) and how it ended."""
    command = [*BOX, "run", "--input", "script", "--keys", keys, "--display", "json",
               "--state-dir", str(directory)]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, env=ENV, timeout=timeout)
    screens = []
    for line in result.stdout.splitlines():
        with contextlib.suppress(json.JSONDecodeError):
            screens.append(json.loads(line))
    return screens, result
