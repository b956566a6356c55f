"""`nsdevice results` takes only files (issue 32; DESIGN: bad input is one line on stderr
and exit 2): every file of the fuzz corpus (tests/data/results/, each one described in its
README) is refused by the real command in one line, with no traceback and no hang; so is
whatever random bytes hypothesis writes."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nsdevice.cli import RESULTS_FILE_LIMIT, main
from nsdevice.rules.modules import Module
from nsdevice.rules.room import (
    FIELD_LIMIT,
    MODULE_JOIN,
    NAME_LENGTH,
    Result,
    RoomKey,
    read_results,
    results_csv,
    results_json,
)

CORPUS = Path(__file__).resolve().parent / "data" / "results"
README = CORPUS / "README.md"
SECONDS = 60  # a file the command waits on (a FIFO once did) fails here, not in CI's limit
KEY = RoomKey("EVENT7", "paris", (Module.CITY_GATES,))
PLAYERS = [Result("A", 1, 1, "Ana", 70, 12), Result("A", 1, 2, "Bo", 55, 9)]
VALID = (results_csv(KEY, PLAYERS), json.dumps(results_json(KEY, PLAYERS)))


def corpus() -> list[str]:
    return sorted(path.name for path in CORPUS.iterdir() if path != README)


def refused_in_one_line(path: str | Path) -> str:
    """`nsdevice results PATH` as a person would run it: exit 2, nothing on stdout, one
    line on stderr and no traceback; that line."""
    result = subprocess.run(
        [sys.executable, "-m", "nsdevice", "results", str(path)],
        capture_output=True, text=True, timeout=SECONDS, cwd=CORPUS, check=False,
    )  # fmt: skip
    assert (result.returncode, result.stdout) == (2, ""), result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("nsdevice results: ") and result.stderr.count("\n") == 1
    return result.stderr


def test_the_corpus_readme_describes_every_file_and_no_other():
    described = set(re.findall(r"^- `([^`]+)`(?:, `([^`]+)`)?:", README.read_text(), re.M))
    named = {name for pair in described for name in pair if name}
    assert named == set(corpus())


@pytest.mark.parametrize("name", corpus())
def test_every_file_of_the_corpus_is_refused_in_one_line(name):
    refused_in_one_line(name)


def test_the_attacks_the_issue_found_are_refused_for_what_they_are():
    assert "not CSV (field larger than field limit" in refused_in_one_line("long-cell-131073.csv")
    assert "nested 100,001 deep" in refused_in_one_line("deep-100000.json")
    assert "code must be text, not 5" in refused_in_one_line("code-number.json")
    assert "code must be text, not None" in refused_in_one_line("code-null.json")
    assert "name must be text, not 7" in refused_in_one_line("name-number.json")
    assert "Too many levels of symbolic links" in refused_in_one_line("symlink-loop-a")


def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path):
    fifo = tmp_path / "results.csv"
    os.mkfifo(fifo)
    assert "not a regular file (a pipe)" in refused_in_one_line(fifo)


def test_a_folder_and_a_device_are_refused(tmp_path):
    assert "not a regular file (a folder)" in refused_in_one_line(tmp_path)
    assert "not a regular file (a device)" in refused_in_one_line("/dev/zero")


def test_a_file_over_the_limit_is_refused_before_it_is_read(tmp_path):
    huge = tmp_path / "huge.csv"
    with huge.open("wb") as file:
        file.write(VALID[0].encode())
        file.truncate(RESULTS_FILE_LIMIT + 1)  # sparse: no megabyte written to the disk
    assert f"over {RESULTS_FILE_LIMIT:,}" in refused_in_one_line(huge)


def test_the_field_limit_leaves_room_for_every_field_a_room_writes():
    """The limits refuse what is not a room's, never a room's own file: the longest name
    and label, quoted against a spreadsheet's formulas, and every module joined."""
    longest = "=" + "x" * (NAME_LENGTH - 1)  # written with a quote in front
    _, players = read_results(results_csv(KEY, [Result(longest, 1, 1, longest, 70, 12)]))
    assert players[0].name == longest
    assert len(MODULE_JOIN.join(module.value for module in Module)) < FIELD_LIMIT


# --- random input ------------------------------------------------------------------------


def outcome(data: bytes) -> tuple[int, str, str]:
    """`nsdevice results` on a file of `data`, in this process: (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "results.csv"
        path.write_bytes(data)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["results", str(path)])
    return status, out.getvalue(), err.getvalue()


def check_outcome(data: bytes) -> None:
    status, out, err = outcome(data)
    if status == 0:  # random bytes that are a results file after all: read, not refused
        assert err == "" and out
    else:
        assert (status, out) == (2, "")
        assert err.startswith("nsdevice results: ") and err.count("\n") == 1


@settings(max_examples=150)
@given(st.binary(max_size=2000))
def test_random_bytes_are_read_or_refused_in_one_line(data):
    check_outcome(data)


@settings(max_examples=150)
@given(
    st.sampled_from(VALID),
    st.lists(st.tuples(st.integers(0, 400), st.integers(0, 8), st.binary(max_size=12)),
             min_size=1, max_size=4),
)  # fmt: skip
def test_a_results_file_damaged_at_random_is_read_or_refused_in_one_line(valid, edits):
    """Random bytes almost never look like a results file; a real one with a few bytes
    cut, replaced or added reaches the checks inside."""
    data = bytearray(valid.encode())
    for at, cut, added in edits:
        at = min(at, len(data))
        data[at : at + cut] = added
    check_outcome(bytes(data))


@settings(max_examples=100)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                    max_size=4),
        max_leaves=20,
    ),
    st.sampled_from(["code", "city", "modules", "ranking", "room", "table", "seat", "name",
                     "total", "best_line"]),
)  # fmt: skip
def test_any_json_value_in_any_field_is_read_or_refused_in_one_line(value, field):
    data = json.loads(VALID[1])
    if field in data:
        data[field] = value
    else:
        data["ranking"][0][field] = value
    check_outcome(json.dumps(data).encode())
