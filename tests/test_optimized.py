"""The box as its service runs it: optimized, without docstrings or asserts (the unit's
PYTHONOPTIMIZE=2, issue 35: about 1.2 MB less memory, docs/PERFORMANCE.md). Optimized, it
must play exactly as it does in the tests' plain interpreter."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "nsdevice.service"

# A game through its setup, a round of reveals (the joker and the switch among them when
# they come), the menu and its pages, an undo, and a held press
KEYS = ",".join(
    ["next"] * 6 + ["back", "next"] + ["next"] * 12 + ["menu", "next", "next", "back"]
    + ["hold:menu", "back"] + ["next"] * 10
)  # fmt: skip


def played(state: Path, **more: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "nsdevice", "run", "--input", "script", "--keys", KEYS,
         "--display", "json", "--city", "paris", "--players", "3", "--seed", "Optimized7",
         "--state-dir", str(state)],
        capture_output=True, text=True, timeout=180, check=False, cwd=ROOT,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", **more},
    )  # fmt: skip


def test_the_service_runs_the_box_optimized() -> None:
    lines = UNIT.read_text().splitlines()
    assert "Environment=PYTHONOPTIMIZE=2" in lines
    assert "Environment=PYTHONDONTWRITEBYTECODE=1" in lines  # so its bytecode is compiled


def test_an_optimized_box_plays_the_same_game(tmp_path: Path) -> None:
    plain = played(tmp_path / "plain")
    optimized = played(tmp_path / "optimized", PYTHONOPTIMIZE="2", PYTHONDONTWRITEBYTECODE="1")
    assert plain.returncode == 0, plain.stderr
    assert (optimized.returncode, optimized.stderr) == (0, plain.stderr)
    screens = plain.stdout.splitlines()
    assert len(screens) > 30 and len({line[:40] for line in screens}) > 3
    assert optimized.stdout == plain.stdout


def test_optimized_dataclasses_are_named_without_their_signature() -> None:
    """nsdevice.optimized: with docstrings stripped the standard decorator would name each
    dataclass by `inspect.signature`; optimized, it gets the class's name alone, and in a
    plain process nothing changes."""
    program = (
        "import dataclasses, nsdevice\n"
        "@dataclasses.dataclass\n"
        "class Card:\n"
        "    symbol: str\n"
        "print(Card.__doc__)\n"
    )

    def doc(*flags: str) -> str:
        done = subprocess.run(
            [sys.executable, *flags, "-c", program], capture_output=True, text=True,
            timeout=60, check=True, cwd=ROOT,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        )  # fmt: skip
        return done.stdout.strip()

    assert doc() == "Card(symbol: str)"
    assert doc("-OO") == "Card"
