"""The box as its service runs it: optimized, without docstrings or asserts (the unit's
PYTHONOPTIMIZE=2, issue 35: about 1.2 MB less memory, docs/PERFORMANCE.md). Optimized, it
must play exactly as it does in the tests' plain interpreter."""

from __future__ import annotations

import importlib.util
import os
import py_compile
import subprocess
import sys
from pathlib import Path

from compiled_code import code_in, keeps_columns

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "nsdevice.service"
OPTIMIZED_BYTECODE = ROOT / "systemd" / "optimized-bytecode"

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


def test_level_two_bytecode_is_compiled_without_columns_and_again_where_it_kept_them(
    tmp_path: Path,
) -> None:
    """Decision 0011: the service's level-2 bytecode keeps each instruction's line, not its
    columns (0.3 MB of the box's and its page's memory). apt's hook and install.sh compile
    the system's modules with systemd/optimized-bytecode, whatever Python starts it;
    what an install before that compiled with columns is compiled again. Level 0 (read
    by a command run by hand) is left as it is."""
    module = tmp_path / "things" / "thing.py"
    module.parent.mkdir()
    module.write_text("def total(a, b):\n    return a.count + b.count\n")
    level_two = Path(importlib.util.cache_from_source(str(module), optimization=2))
    level_zero = Path(importlib.util.cache_from_source(str(module)))
    for level in (0, 2):  # as an install before the decision compiled them: with columns
        py_compile.compile(str(module), optimize=level,
                           invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP)  # fmt: skip
    assert keeps_columns(level_two) and keeps_columns(level_zero)
    plain = {name: value for name, value in os.environ.items() if name != "PYTHONNODEBUGRANGES"}
    subprocess.run([sys.executable, str(OPTIMIZED_BYTECODE), str(module.parent)],
                   env=plain, check=True, timeout=120)  # fmt: skip
    assert not keeps_columns(level_two) and keeps_columns(level_zero)
    lines = [line for _, _, line in code_in(level_two).co_lines()]
    assert lines and None not in lines  # lines kept, for the journal's tracebacks


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
