"""What every measurement shares: a quiet environment for the box, percentiles and
summaries, the machine's description, the table printed, and a started box's process
(its CPU time, context switches, memory) with a saved game to start from."""

from __future__ import annotations

import contextlib
import glob
import os
import platform
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CITIES = ("tokyo", "paris", "london")


# `nsdevice run` options and environment for a start other than `--input keyboard`.
Build = tuple[tuple[str, ...], dict[str, str]]


def box_environment() -> dict[str, str]:
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "PYGAME_HIDE_SUPPORT_PROMPT": "1",
        "LANG": "C",
    }
    for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LC_ALL", "LC_MESSAGES"):
        env.pop(name, None)
    return env


def unit_environment(*prefixes: str) -> dict[str, str]:
    """The `Environment=` settings of the service's unit (systemd/nsdevice.service) whose
    names start with one of `prefixes`: a benchmark starts the box as the service does."""
    settings = {}
    for line in (ROOT / "systemd" / "nsdevice.service").read_text().splitlines():
        name, _, value = line.removeprefix("Environment=").partition("=")
        if line.startswith("Environment=") and name.startswith(prefixes):
            settings[name] = value
    return settings


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile: the smallest value with at least `share` of them at or below."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * share // 1))  # ceil without floats going astray
    return ordered[int(rank) - 1]


def summary(values: list[float], scale: float = 1.0, digits: int = 3) -> dict[str, Any]:
    if not values:
        return {"count": 0, "median": None, "p90": None, "p99": None, "max": None, "min": None}
    return {
        "count": len(values),
        "median": round(statistics.median(values) * scale, digits),
        "p90": round(percentile(values, 0.90) * scale, digits),
        "p99": round(percentile(values, 0.99) * scale, digits),
        "max": round(max(values) * scale, digits),
        "min": round(min(values) * scale, digits),
    }


def machine() -> dict[str, Any]:
    model = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() in ("model name", "Model", "Hardware") and value.strip():
                model = value.strip()
                break
    try:
        import pygame

        pygame_version = (
            f"{pygame.version.ver} (SDL {'.'.join(map(str, pygame.get_sdl_version()))})"
        )
    except ImportError:
        pygame_version = None
    return {
        "platform": platform.platform(),
        "cpu_model": model,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "pygame": pygame_version,
    }


def print_table(table: list[dict], stream: Any = sys.stdout) -> None:
    width = max(len(row["metric"]) for row in table)
    print(f"{'metric':{width}}  {'figure':>10}  {'target':>10}  ok?", file=stream)
    for row in table:
        target = "" if row["target"] is None else number(row["target"])
        verdict = {True: "yes", False: "NO", None: ""}[row["ok"]]
        print(f"{row['metric']:{width}}  {number(row['figure']):>10}  {target:>10}  {verdict}",
              file=stream)  # fmt: skip


def number(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, int) or (isinstance(value, float) and value >= 1000):
        return f"{value:,.0f}"
    return f"{value:g}"


@contextlib.contextmanager
def patched(owner: Any, name: str, value: Any) -> Iterator[None]:
    original = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, original)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def children(pid: int) -> list[int]:
    """The processes `pid` started (since issue 32, the phones' page's own), from /proc."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            found += [int(child) for child in (task / "children").read_text().split()]
    return found


def context_switches(pid: int) -> int:
    total = 0
    for status in glob.glob(f"/proc/{pid}/task/*/status"):
        with contextlib.suppress(OSError):
            for line in Path(status).read_text().splitlines():
                if "ctxt_switches:" in line:
                    total += int(line.split()[-1])
    return total


def status_kb(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{key}:"):
            return int(line.split()[1])
    raise KeyError(key)


def saved_game(folder: Path) -> None:
    """A state folder with a game in progress (round 1, turn 3): what a box boots into."""
    from nsdevice.inputs.events import Press
    from nsdevice.session import Session, Settings
    from nsdevice.store import Store

    session = Session(Settings(language="en"), seed_source=lambda: "MEASURE")
    for word in ("menu", "next", "next", "next", "next"):
        session.press(Press.parse(word))
    store = Store.open(folder).store
    store.save(session.snapshot())
    store.close()


class Started:
    """`nsdevice run` started with a NOTIFY_SOCKET of ours; `ready_after` is start → READY=1."""

    def __init__(
        self,
        display: str,
        state: Path,
        socket_path: Path,
        build: Build = ((), {}),
        timeout: float = 30,
        launcher: tuple[str, ...] = ("-m", "nsdevice"),
        spawned: Callable[[int], object] | None = None,  # told the pid before READY=1
    ) -> None:
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._socket.bind(str(socket_path))
        self._socket.settimeout(timeout)
        options, environment = build
        env = {**box_environment(), **environment, "NOTIFY_SOCKET": str(socket_path)}
        shown = ("--display", display) if display else ()  # none: the profile's own display
        command = [sys.executable, *launcher, "run", *shown,
                   *(options or ("--input", "keyboard")), "--state-dir", str(state)]  # fmt: skip
        started = time.perf_counter()
        # stdin stays open and silent: the terminal-key input waits on it, as on a box
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            env=env,
        )  # fmt: skip
        if spawned is not None:
            spawned(self.process.pid)
        try:
            while True:
                message = self._socket.recv(256)
                if b"READY=1" in message.split(b"\n"):
                    break
        except TimeoutError:
            self.stop()
            raise RuntimeError(f"{display}: no READY=1 within {timeout} s") from None
        self.ready_after = time.perf_counter() - started

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(timeout=10)
        for stream in (self.process.stdin, self.process.stderr):
            with contextlib.suppress(OSError):
                stream.close()  # type: ignore[union-attr]
        self._socket.close()
