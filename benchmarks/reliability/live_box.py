"""A running `nsdevice run` driven through its terminal keys, for the checks that need a
box alive across their actions (a kill at a chosen moment, a second box beside it, a
lock held under it). Not a check itself."""

from __future__ import annotations

import contextlib
import json
import queue
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from benchmarks.reliability.harness import BOX, ENV, plain

KEYS = {"next": "n", "back": "b", "menu": "m"}
__all__ = ["KEYS", "LiveBox", "plain"]


class LiveBox:
    """`nsdevice run --input keyboard --display json` on pipes: keys in, screens out."""

    def __init__(self, state: Path, env: dict[str, str] | None = None) -> None:
        command = [*BOX, "run", "--input", "keyboard", "--display", "json",
                   "--state-dir", str(state)]  # fmt: skip
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, env={**ENV, **(env or {})}, bufsize=1,
        )  # fmt: skip
        self.screens: queue.Queue[tuple[float, dict[str, Any]]] = queue.Queue()
        self.errors: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_errors, daemon=True).start()

    @property
    def pid(self) -> int:
        return self.process.pid

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with contextlib.suppress(json.JSONDecodeError):
                self.screens.put((time.monotonic(), json.loads(line)))

    def _read_errors(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.errors.append(line.rstrip("\n"))

    def next_screen(self, timeout: float = 15) -> dict[str, Any]:
        return self.screens.get(timeout=timeout)[1]

    def timed_screen(self, timeout: float = 15) -> tuple[float, dict[str, Any]]:
        return self.screens.get(timeout=timeout)

    def press(self, word: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(KEYS[word])
        self.process.stdin.flush()

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> int:
        """End it as a person would (SIGTERM), or kill it after a while."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                return self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.process.returncode

