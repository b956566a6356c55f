"""How long the history page's read takes over a long history.

    python benchmarks/history.py [--games N] [--reads N]

Fills a fresh store (in a temporary folder, committed as the box commits: with its steps)
with N finished games — half solo over four module sets and the three cities, a daily
date on every solo one, half tables of three — then times `Store.history()` (what opening
the history page reads, on the press that opens it) and prints the median and the slowest
read in milliseconds. A box that plays five games a day for three years has about 5000.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from nsdevice.session import FinishedGame
from nsdevice.store import Store

MODULE_SETS = ((), ("objectives",), ("objectives", "city_gates"), ("pencil_powers",))
CITIES = ("tokyo", "paris", "london")


def filled(store: Store, games: int) -> None:
    for number in range(games):
        city = CITIES[number % len(CITIES)]
        if number % 2:
            modules = MODULE_SETS[number % len(MODULE_SETS)]
            day = f"2026-{1 + number % 12:02d}-{1 + number % 28:02d}"
            score = 80 + number % 60
            game = FinishedGame(city, 1, modules, f"S{number}", (score + 10 * len(modules),),
                                score, 3, daily=day)  # fmt: skip
        else:
            game = FinishedGame(city, 3, (), f"T{number}", (100, 120, 110), None, None,
                                winners=(2,))  # fmt: skip
        store.record(game)
        if number % 50 == 49:
            store.save({"games": number + 1})  # finished games are committed with a step
    store.save({"games": games})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--reads", type=int, default=50)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = Store.open(Path(folder)).store
        filled(store, arguments.games)
        seconds = []
        for _ in range(arguments.reads):
            start = time.perf_counter()
            store.history()
            seconds.append(time.perf_counter() - start)
        store.close()
    print(
        f"history() over {arguments.games} finished games: median "
        f"{statistics.median(seconds) * 1000:.2f} ms, slowest {max(seconds) * 1000:.2f} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
