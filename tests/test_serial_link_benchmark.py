"""`benchmarks/serial_link.py` runs end to end on real MicroPython and holds.

Only that it works, with a tiny count: speed and long runs are for a person
(docs/RELIABILITY.md has the figures).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from micropython_rig import MICROPYTHON_WHEELS  # firmware/, on the path through conftest

ROOT = Path(__file__).resolve().parent.parent


def test_the_soak_harness_runs_and_every_press_arrives_once(tmp_path: Path) -> None:
    if not MICROPYTHON_WHEELS:
        pytest.skip("MicroPython's unix port has wheels for x86-64 Linux only")
    out = tmp_path / "serial.json"
    command = [sys.executable, str(ROOT / "benchmarks" / "serial_link.py"), "--presses", "4",
               "--seed", "3", "--json", str(out)]  # fmt: skip
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(out.read_text())
    assert report["held"] and report["presses_reported"] == report["presses_scripted"] == 4
    assert report["edges"] == 8  # a DOWN and an UP a press, none from before the port opened


def test_a_bad_count_is_refused() -> None:
    command = [sys.executable, str(ROOT / "benchmarks" / "serial_link.py"), "--presses", "0"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "at least 1" in result.stderr
