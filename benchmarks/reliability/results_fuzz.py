"""`results_fuzz`: `nsdevice results` on files that are not results (issue 32).

Every file of the committed corpus (tests/data/results/), what git cannot keep (a FIFO, a
folder, a device, a sparse file over the size limit) and `random_files` more written here
from a seed: random bytes, and real results files with a few bytes cut, replaced or added.
Each through the real command with a timeout: a file that is not a room's results is exit
status 2 with one line on stderr and no traceback; one that still reads is exit 0. Nothing
waits: the slowest file's seconds are reported.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from benchmarks.reliability.harness import BOX, ENV, ROOT, Report, working_folder
from nsdevice.cli import RESULTS_FILE_LIMIT
from nsdevice.rules.modules import Module
from nsdevice.rules.room import Result, RoomKey, results_csv, results_json

CORPUS = ROOT / "tests" / "data" / "results"
SECONDS = 30.0  # a file the command would wait on is a failure, not a hang
KEY = RoomKey("EVENT7", "paris", (Module.CITY_GATES,))
PLAYERS = [Result("A", 1, 1, "Ana", 70, 12), Result("A", 1, 2, "Bo", 55, 9)]


def made_files(folder: Path) -> list[Path]:
    """What the corpus cannot hold in git: made here, each refused."""
    fifo = folder / "fifo.csv"
    os.mkfifo(fifo)
    huge = folder / "huge.csv"
    with huge.open("wb") as file:
        file.write(results_csv(KEY, PLAYERS).encode())
        file.truncate(RESULTS_FILE_LIMIT + 1)  # sparse
    a_folder = folder / "a-folder.csv"
    a_folder.mkdir()
    return [fifo, huge, a_folder, Path("/dev/zero")]


def random_files(folder: Path, count: int, seed: int) -> list[Path]:
    """Half random bytes, half real files (CSV and JSON) damaged at a few random places."""
    chance = random.Random(seed)
    valid = [results_csv(KEY, PLAYERS).encode(), json.dumps(results_json(KEY, PLAYERS)).encode()]
    paths = []
    for number in range(count):
        if number % 2:
            data = bytearray(chance.choice(valid))
            for _ in range(chance.randint(1, 4)):
                at = chance.randrange(len(data) + 1)
                data[at : at + chance.randint(0, 8)] = chance.randbytes(chance.randint(0, 12))
        else:
            data = bytearray(chance.randbytes(chance.randint(0, 4000)))
        path = folder / f"random-{number:05}.csv"
        path.write_bytes(bytes(data))
        paths.append(path)
    return paths


def results_fuzz(
    *, random_count: int = 60, seed: int = 32, workers: int = 4, workdir: Path | None = None
) -> Report:
    report = Report("results_fuzz")
    with working_folder(workdir) as base:
        corpus = sorted(path for path in CORPUS.iterdir() if path.name != "README.md")
        must_refuse = corpus + made_files(base)
        files = must_refuse + random_files(base, random_count, seed)

        def one(path: Path) -> tuple[subprocess.CompletedProcess[str] | None, float]:
            started = time.perf_counter()
            try:
                result = subprocess.run(
                    [*BOX, "results", str(path)], capture_output=True, text=True, env=ENV,
                    timeout=SECONDS, stdin=subprocess.DEVNULL, cwd=CORPUS,
                )  # fmt: skip
            except subprocess.TimeoutExpired:
                return None, SECONDS
            return result, time.perf_counter() - started

        slowest = 0.0
        with ThreadPoolExecutor(max_workers=workers) as pool:
            for path, (result, seconds) in zip(files, pool.map(one, files), strict=True):
                slowest = max(slowest, seconds)
                report.add("files")
                report.add("corpus_and_made" if path in must_refuse else "random")
                if result is None:
                    report.fail(f"{path.name}: still running after {SECONDS:.0f} s")
                    continue
                lines = result.stderr.splitlines()
                if result.returncode == 0 and path not in must_refuse and not lines:
                    report.add("read")  # damaged at random and still a results file
                    continue
                report.add("refused")
                if result.returncode != 2 or len(lines) != 1 or "Traceback" in result.stderr:
                    report.fail(
                        f"{path.name}: exit {result.returncode}, {len(lines)} stderr lines: "
                        f"{result.stderr.strip()[-200:]!r}"
                    )
        report.counts["slowest_file_s"] = round(slowest, 2)
    return report
