"""Command examples in the docs run, so they cannot drift from what the box does.

A fenced block marked `console` in any of the repository's Markdown is a transcript: each
line starting with `$ ` is a command, run by bash at the top of the clone with the venv's
`nsdevice` first on the path, a fresh home and state folder, and SDL's dummy drivers; the
lines under it are what it prints (stdout and stderr together), matched exactly, where a
line `...` alone stands for any number of lines; a last line `[exit N]` says the command
ends with status N (else it must end with 0). Blocks marked `sh` are never run.

Why this and not a library: the transcripts are plain Markdown that reads well on a forge
and on the site, the runner is these few lines, and it needs nothing beyond pytest."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.markdown_pages import markdown_files

ROOT = Path(__file__).resolve().parent.parent
EXIT = re.compile(r"^\[exit (\d+)\]$")


@dataclass(frozen=True)
class Example:
    page: str
    line: int
    command: str
    expected: tuple[str, ...]
    status: int




def examples_in(text: str, page: str) -> list[Example]:
    found: list[Example] = []
    inside = False
    current: list[str] = []
    start = 0
    lines = text.splitlines()

    def close() -> None:
        if not current:
            return
        command, *output = current
        status = 0
        if output and EXIT.match(output[-1]):
            status = int(EXIT.match(output.pop())[1])  # type: ignore[index]
        found.append(Example(page, start, command[2:], tuple(output), status))
        current.clear()

    for number, line in enumerate(lines, start=1):
        if not inside and line.strip() == "```console":
            inside = True
        elif inside and line.strip() == "```":
            close()
            inside = False
        elif inside and line.startswith("$ "):
            close()
            current.append(line)
            start = number
        elif inside and current:
            current.append(line)
    return found


def all_examples() -> list[Example]:
    return [
        example
        for path in markdown_files()
        for example in examples_in(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    ]


def matches(expected: tuple[str, ...], got: list[str]) -> bool:
    """Line by line; a line `...` stands for any number of lines (none included)."""
    if not expected:
        return not got
    if expected[0] == "...":
        return any(matches(expected[1:], got[skip:]) for skip in range(len(got) + 1))
    return bool(got) and got[0] == expected[0] and matches(expected[1:], got[1:])


EXAMPLES = all_examples()


def test_the_docs_have_examples_that_run() -> None:
    pages = {example.page for example in EXAMPLES}
    assert {"docs/reference/commands.md", "docs/reference/automation.md"} <= pages, pages


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"{e.page}:{e.line}" for e in EXAMPLES])
def test_each_example_prints_what_the_page_says(example: Example, tmp_path: Path) -> None:
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "HOME": str(tmp_path),
        "STATE_DIRECTORY": str(tmp_path / "state"),
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
    }
    done = subprocess.run(
        ["bash", "-c", example.command], cwd=ROOT, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, timeout=120,
    )
    got = done.stdout.splitlines()
    assert (done.returncode, matches(example.expected, got)) == (example.status, True), (
        f"{example.page}:{example.line} `{example.command}` printed:\n{done.stdout}"
    )


def test_the_transcript_reader_and_matcher() -> None:
    page = "\n".join([
        "```console", "$ echo a", "a", "$ false", "[exit 1]", "```",
        "```sh", "$ not run", "```",
    ])
    found = examples_in(page, "x.md")
    assert [(e.command, e.expected, e.status) for e in found] == [
        ("echo a", ("a",), 0), ("false", (), 1)
    ]
    assert matches(("a", "...", "d"), ["a", "b", "c", "d"])
    assert matches(("a", "...", "b"), ["a", "b"])
    assert not matches(("a", "...", "d"), ["a", "b"])
    assert not matches(("a",), ["a", "b"])
