"""What the box costs on a Pi Zero 2 W's own instruction set: guest instructions under qemu.

    sudo python benchmarks/pi_cost.py [--userland /work/userlands/bookworm] [--json PATH]

Builds (or reuses) an arm64 Debian bookworm userland with debootstrap, as
tools/pi-userland-check does, installs this checkout into a venv there with the aarch64
wheels (pygame-ce, numpy, st7789 with spidev and gpiod compiled in the userland), and runs
each measured program under `qemu-aarch64 -cpu cortex-a53` (the Zero 2 W's core) with a
small TCG plugin (pi_guest/count_instructions.c) that counts every guest instruction
executed. A count does not depend on how busy this machine is.

Figures: `python -c pass` and `import pygame`; process start → first frame (READY=1) for
`--display json`, a 320×240 window and the Display HAT Mini build; one NEXT press on the
HAT build through the real `st7789` library and `spidev` over a fake SPI device
(pi_guest/fake_spidev.c), from the difference of runs with N and N+k taps of NEXT (5 and
25: the taps cross round ends, as a game does), the median of three deal codes, and each
tap's own count between marks; the rules' `simulate` per round. Then press → picture
in milliseconds at 1 GHz and an IPC of 0.5, 0.7 and 0.9, with the SPI bus time of the
press's bytes at the profile's clock added.

Slow (minutes; a first build of the userland takes much longer) and root-only (chroot),
so not part of CI. docs/PERFORMANCE.md keeps the figures and explains the method.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from figures import unit_environment
from pi_userland import (
    WORK,
    build_tools,
    ensure_binfmt,
    ensure_userland,
    install,
    mounted,
    say,
)

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_USERLAND = Path("/work/userlands/bookworm")
DEFAULT_JSON = ROOT / "benchmarks" / "results" / "pi_cost.json"
# aarch64 system call numbers the plugin marks: the notifier's connect() to NOTIFY_SOCKET
# right after the first frame, and the press harness's getppid() around each tap.
CONNECT, GETPPID = 203, 173
# Three deal codes (Tokyo, 2 players): the figure is the median of their runs. In each,
# the 20 taps measured cross two round ends (round end → pencil pass → round start).
SEEDS = ("COST", "TAPS", "DEAL")
WARM_UP = 3  # summary → round start → first card → second card
CLOCK_HZ = 1_000_000_000  # the Zero 2 W's Cortex-A53 cores
IPCS = (0.5, 0.7, 0.9)  # assumed: an in-order core running CPython's dispatch loop
TARGETS = {
    "press_instructions": 4e6,  # (N+k taps − N taps) / k, median of the deal codes
    "tap_instructions": 8e6,  # any one tap, between its marks
    "first_frame_hat_instructions": 450e6,
    "press_ms": 20.0,  # at IPC 0.7, the bus at the profile's clock
}
TARGETS["tv_room_ratio"] = 2.0  # issue 35: the room caller's press against one table's
TV_PLAYERS = 300  # phones following the TV's room caller
TV_SEED = "COST"  # its first round has ten cards: the TV's measured taps are all reveals


# ---------------------------------------------------------------------------------------
# pure parts (tests/test_benchmarks.py)
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Counts:
    """What the plugin wrote: (system call, count) at each mark, and the count at exit."""

    marks: tuple[tuple[int, int], ...]
    at_exit: int | None

    def at(self, number: int) -> list[int]:
        return [count for call, count in self.marks if call == number]


def parse_counts(text: str) -> Counts:
    marks, at_exit = [], None
    for line in text.splitlines():
        words = line.split()
        if len(words) == 3 and words[0] == "mark":
            marks.append((int(words[1]), int(words[2])))
        elif len(words) == 2 and words[0] == "exit":
            at_exit = int(words[1])
    return Counts(tuple(marks), at_exit)


def spans(counts: Counts, number: int) -> list[int]:
    """Instructions between successive pairs of marks of `number` (start, end, start, ...)."""
    points = counts.at(number)
    return [end - start for start, end in zip(points[0::2], points[1::2], strict=False)]


def per_step(total: int, more_total: int, more: int) -> float:
    """What one more step costs: the difference of a run with N steps and one with N+k."""
    if more <= 0:
        raise ValueError("the second run needs more steps than the first")
    return (more_total - total) / more


def press_ms(instructions: float, ipc: float, spi_bytes: float, spi_hz: int) -> float:
    """Press → picture: the instructions at `ipc` on a 1 GHz core, then the bytes on the bus."""
    return instructions / (ipc * CLOCK_HZ) * 1000 + spi_bytes * 8 / spi_hz * 1000


def next_screens(seed: str, taps: int) -> list[str]:
    """The screen after each of `taps` NEXT taps on a fresh deal of `seed` (Tokyo, two
    players, English, as the guest deals it): what the box must show, from the session
    alone, to check that every tap the guest measured did what a NEXT does there."""
    from nsdevice.inputs.events import Button, Press
    from nsdevice.session import Session, Settings

    session = Session(Settings(language="en"), seed_source=lambda: seed)
    session.deal_new_game()
    screens = []
    for _ in range(taps):
        session.press(Press(Button.NEXT))
        screens.append(session.view().screen)
    return screens


def checked_screens(seen: Sequence[str], expected: Sequence[str]) -> None:
    """Raises unless the guest saw, tap by tap, the screens a NEXT leads to."""
    if list(seen) != list(expected):
        raise RuntimeError(f"the taps did not do what NEXT does: {seen} against {expected}")


def measured_taps(screens: Sequence[str], spans_of_taps: Sequence[int]) -> list[dict[str, Any]]:
    """Each measured tap (the last len(spans) of `screens`, one a tap after the warm-up):
    the screen it left, the one it reached, and its instructions between marks."""
    if len(spans_of_taps) >= len(screens):
        raise ValueError("every measured tap needs the screen before it")
    start = len(screens) - len(spans_of_taps)
    return [
        {"from": screens[start + i - 1], "to": screens[start + i], "instructions": span}
        for i, span in enumerate(spans_of_taps)
    ]


def heaviest(runs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The tap with the most instructions in any deal code's runs, with its code."""
    taps = [
        {"seed": seed, "tap": number, **tap}
        for seed, run in runs.items()
        for number, tap in enumerate(run["taps"], start=1)
    ]
    if not taps:
        raise ValueError("no measured tap")
    return max(taps, key=lambda tap: tap["instructions"])


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--userland",
        type=Path,
        default=DEFAULT_USERLAND,
        help="arm64 bookworm root, built there when missing",
    )
    parser.add_argument("--presses", type=int, default=5, help="N: taps in the shorter run")
    parser.add_argument("--more", type=int, default=20, help="k: extra taps in the longer run")
    parser.add_argument(
        "--seeds",
        type=lambda text: tuple(code for code in text.split(",") if code),
        default=SEEDS,
        help="deal codes, comma-separated; the press figure is their runs' median",
    )
    parser.add_argument("--rounds", type=int, default=2000, help="simulated rounds (N)")
    parser.add_argument(
        "--tv-players", type=int, default=TV_PLAYERS,
        help="phones following the TV's room caller (0: no TV figures)",
    )  # fmt: skip
    parser.add_argument("--tv-presses", type=int, default=1, help="N for the TV's taps")
    parser.add_argument("--tv-more", type=int, default=5, help="k for the TV's taps")
    parser.add_argument(
        "--only", choices=("tv",), help="only these figures (the TV's: the room's taps alone)"
    )
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write JSON")
    parser.add_argument(
        "--reinstall",
        action="store_true",
        help="install the checkout again even if its copy looks current",
    )
    args = parser.parse_args(argv)
    if args.presses < 0 or args.more < 1:
        parser.error("need 0 <= presses and 1 <= more")
    if not args.seeds:
        parser.error("--seeds needs at least one deal code")
    if args.rounds < 10:
        parser.error("--rounds must be at least 10")
    if args.tv_presses < 0 or args.tv_more < 1 or args.tv_presses + args.tv_more + WARM_UP > 10:
        parser.error("need 0 <= tv-presses, 1 <= tv-more, tv-presses + tv-more <= 7 (a round)")
    if args.tv_players < 0 or (args.only == "tv" and not args.tv_players):
        parser.error("--tv-players must be a positive number of phones (0: no TV figures)")
    return args


# ---------------------------------------------------------------------------------------
# the userland
# ---------------------------------------------------------------------------------------


def qemu_command(
    root: Path,
    command: Sequence[str],
    out: str,
    *,
    env: dict[str, str] | None = None,
    marks: Sequence[int] = (),
) -> list[str]:
    """`command` (guest paths) under qemu with the counting plugin writing to `out`, in
    the userland, as the host runs it."""
    (root / out.lstrip("/")).unlink(missing_ok=True)
    environment = {
        # the interpreter's settings as the service's (optimized, no bytecode written)
        **unit_environment("PYTHONOPTIMIZE", "PYTHONDONTWRITEBYTECODE"),
        "PYTHONHASHSEED": "0",
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "PYGAME_HIDE_SUPPORT_PROMPT": "1",
        **(env or {}),
    }
    clean = {"PATH": f"{WORK}/venv/bin:/usr/bin:/bin", "HOME": "/root", "LANG": "C.UTF-8"}
    return [
        "chroot",
        str(root),
        "env",
        "-i",
        *(f"{k}={v}" for k, v in {**clean, **environment}.items()),
        *counting_qemu(out, marks),
        *command,
    ]


def counting_qemu(out: str, marks: Sequence[int] = ()) -> list[str]:
    """qemu-aarch64 with the counting plugin (guest paths: run inside the userland)."""
    plugin = ",".join([f"{WORK}/libinsn.so", f"out={out}", *(f"mark={m}" for m in marks)])
    host = f"{WORK}/host"
    return [
        f"{host}/ld-linux-x86-64.so.2",
        "--library-path",
        host,
        f"{host}/qemu-aarch64",
        "-cpu",
        "cortex-a53",
        "-plugin",
        plugin,
    ]


def counted(
    root: Path,
    command: Sequence[str],
    *,
    env: dict[str, str] | None = None,
    marks: Sequence[int] = (),
    stop_at_mark: int | None = None,
) -> tuple[Counts, str]:
    """Run `command` (guest paths) under qemu with the counting plugin; its counts and
    stdout. With `stop_at_mark` the program is ended once that mark is written (a box
    waiting for buttons never ends by itself)."""
    out = f"{WORK}/counts.txt"
    argv = qemu_command(root, command, out, env=env, marks=marks)
    if stop_at_mark is None:
        done = subprocess.run(argv, check=True, capture_output=True, text=True)
        stdout = done.stdout
    else:
        process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        path = root / out.lstrip("/")
        deadline = time.monotonic() + 600
        while not (path.exists() and f"mark {stop_at_mark} " in path.read_text()):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"no mark {stop_at_mark}: {process.communicate()[1][-2000:]}")
            time.sleep(0.2)
        process.kill()
        stdout = process.communicate()[0]
    return parse_counts((root / out.lstrip("/")).read_text()), stdout


def python(*arguments: str) -> list[str]:
    return [f"{WORK}/venv/bin/python", *arguments]


def first_frames(root: Path) -> dict[str, int]:
    """Process start → the notifier's connect() right after the first frame."""
    builds = {
        "json": ["--display", "json", "--input", "script", "--keys", "next"],
        "window_320x240": [
            "--display",
            "window",
            "--size",
            "320x240",
            "--input",
            "script",
            "--keys",
            "next",
        ],
        "hat": ["--hardware", "display-hat-mini"],
    }
    figures = {}
    for name, options in builds.items():
        state = tempfile.mkdtemp(dir=root / "tmp")
        guest_state = "/tmp/" + Path(state).name
        env = {
            "NOTIFY_SOCKET": "/run/nsdevice-cost-nobody-listens",
            "GPIOZERO_PIN_FACTORY": "mock",
            "LD_PRELOAD": f"{WORK}/fake_spidev.so",
            "PYTHONPATH": f"{WORK}/src/benchmarks/pi_guest/fake_gpio",
        }
        counts, _ = counted(
            root,
            python("-m", "nsdevice", "run", *options, "--state-dir", guest_state),
            env=env,
            marks=[CONNECT],
            stop_at_mark=CONNECT,
        )
        figures[name] = counts.at(CONNECT)[0]
        shutil.rmtree(state, ignore_errors=True)
        say(f"first frame, {name}: {figures[name] / 1e6:.1f} M")
    return figures


def presses(root: Path, seeds: Sequence[str], first: int, more: int) -> dict[str, Any]:
    """One NEXT tap on the HAT build: for each deal code, runs with N and N+k taps (the
    difference over k), each tap's own span; the median of the codes."""
    runs = {seed: one_deal(root, seed, first, more) for seed in seeds}
    middle = statistics.median(run["instructions"] for run in runs.values())
    figures = {
        "instructions": middle,
        "spi_bytes": statistics.median(run["spi_bytes"] for run in runs.values()),
        "spi_transfers": statistics.median(run["spi_transfers"] for run in runs.values()),
        "heaviest_tap": heaviest(runs),
        "deals": runs,
    }
    say(f"one NEXT press, HAT build, median of {len(runs)}: {middle / 1e6:.2f} M")
    return figures


def one_deal(root: Path, seed: str, first: int, more: int) -> dict[str, Any]:
    """Runs with N and N+k taps on deal code `seed`, each checked against what NEXT does."""
    runs = {}
    for taps in (first, first + more):
        state = tempfile.mkdtemp(dir=root / "tmp")
        report = f"{WORK}/spi-report.txt"
        env = {
            "GPIOZERO_PIN_FACTORY": "mock",
            "LD_PRELOAD": f"{WORK}/fake_spidev.so",
            "FAKE_SPIDEV_REPORT": report,
            "PYTHONPATH": f"{WORK}/src/benchmarks/pi_guest/fake_gpio",
        }
        counts, stdout = counted(
            root,
            python(
                f"{WORK}/src/benchmarks/pi_guest/presses.py",
                "/tmp/" + Path(state).name,
                seed,
                str(WARM_UP),
                str(taps),
            ),
            env=env,
            marks=[GETPPID],
        )
        shutil.rmtree(state, ignore_errors=True)
        screens = stdout.split()
        checked_screens(screens, next_screens(seed, WARM_UP + taps))
        spi = (root / report.lstrip("/")).read_text().split()
        runs[taps] = {
            "instructions": counts.at_exit,
            "screens": screens,
            "taps": measured_taps(["summary", *screens], spans(counts, GETPPID)),
            "spi_bytes": int(spi[1]),
            "spi_transfers": int(spi[3]),
        }
    short, long = runs[first], runs[first + more]
    figures = {
        "instructions": per_step(short["instructions"], long["instructions"], more),
        "spi_bytes": per_step(short["spi_bytes"], long["spi_bytes"], more),
        "spi_transfers": per_step(short["spi_transfers"], long["spi_transfers"], more),
        "taps": long["taps"],
        "runs": {str(taps): run for taps, run in runs.items()},
    }
    tour = " ".join(f"{tap['to']}:{tap['instructions'] / 1e6:.2f}" for tap in long["taps"])
    say(f"deal {seed}: {figures['instructions'] / 1e6:.2f} M a press; each tap (M): {tour}")
    return figures


def tv_presses(root: Path, first: int, more: int, players: int) -> dict[str, Any]:
    """One NEXT reveal on the TV profile at 1920×1080 (pi_guest/tv_presses.py): a
    one-table game, then the room's caller with `players` phones joined and following
    (their streams held from this machine, pi_tv.py). Runs with N and N+k taps each; a
    tap is counted from its start to its frame, its save and (in the room) every phone's
    receipt of the new table, so the difference of the two runs' taps is k taps. The
    page's own process is counted too, through a wrapper that starts it under the
    counting qemu (page_marks.py), at the same marks: a second figure, unjudged."""
    from pi_tv import Talked, ended, harness_arguments, talk

    from benchmarks.reliability.web_box import free_port, lift_own_file_limit

    lift_own_file_limit()
    harness = f"{WORK}/src/benchmarks/pi_guest/tv_presses.py"
    figures: dict[str, Any] = {}
    for name, phones in (("one_table", 0), ("room", players)):
        runs: dict[int, dict[str, Any]] = {}
        for taps in (first, first + more):
            state = tempfile.mkdtemp(dir=root / "tmp")
            port = free_port() if phones else None
            fifo = wrapper = None
            if phones:
                fifo, wrapper = page_counting(root)
            arguments = harness_arguments(
                "/tmp/" + Path(state).name, TV_SEED, WARM_UP, taps, port, fifo, wrapper
            )
            argv = qemu_command(
                root, python(harness, *arguments), f"{WORK}/counts.txt", marks=[GETPPID]
            )
            log = root / "tmp" / f"tv-{name}-{taps}.log"
            with open(log, "w") as errors:
                box = subprocess.Popen(
                    argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, text=True
                )
                try:
                    talked: Talked = talk(box, phones, port or 0)
                    ended(box)
                except BaseException:
                    box.kill()
                    say(f"the TV harness failed; its log: {log}")
                    raise
            shutil.rmtree(state, ignore_errors=True)
            if list(talked.screens[WARM_UP - 1 :]) != ["turn"] * (taps + 1):
                raise RuntimeError(f"the measured taps were not all reveals: {talked.screens}")
            each = spans(parse_counts((root / WORK.lstrip("/") / "counts.txt").read_text()),
                         GETPPID)  # fmt: skip
            if len(each) != taps:
                raise RuntimeError(f"{len(each)} taps marked of {taps}")
            run: dict[str, Any] = {"instructions": sum(each), "spans": each}
            if phones:
                page = root / WORK.lstrip("/") / "page-counts.txt"
                page_each = spans(parse_counts(page.read_text()), GETPPID) if page.exists() else []
                run.update(page_instructions=sum(page_each), page_spans=page_each,
                           streams_ready=talked.streams_ready, late=talked.late,
                           page_marked=len(page_each) == taps)  # fmt: skip
            runs[taps] = run
        short, long = runs[first], runs[first + more]
        figure: dict[str, Any] = {
            "instructions": per_step(short["instructions"], long["instructions"], more),
            "each_tap_between_marks": long["spans"],
            "runs": {str(taps): run for taps, run in runs.items()},
        }
        if phones:
            figure["players"] = phones
            if short["page_marked"] and long["page_marked"]:
                figure["page_instructions"] = per_step(
                    short["page_instructions"], long["page_instructions"], more
                )
                # the page's first table after the joins costs it more, in one run only
                figure["page_median_tap"] = statistics.median(long["page_spans"])
        figures[name] = figure
        say(f"one NEXT press, TV {name}: {figure['instructions'] / 1e6:.2f} M")
    figures["ratio"] = figures["room"]["instructions"] / figures["one_table"]["instructions"]
    say(f"room caller / one table: {figures['ratio']:.2f}")
    return figures


def page_counting(root: Path) -> tuple[str, str]:
    """A FIFO for the page's marks and a wrapper that starts the page's process under
    the counting qemu (guest paths): tv_presses.py's --page-marks and --page-python."""
    fifo, wrapper, out = f"{WORK}/page-marks", f"{WORK}/page-python", f"{WORK}/page-counts.txt"
    for name in (fifo, out):
        (root / name.lstrip("/")).unlink(missing_ok=True)
    os.mkfifo(root / fifo.lstrip("/"))
    page = [*counting_qemu(out, [GETPPID]), f"{WORK}/venv/bin/python",
            f"{WORK}/src/benchmarks/pi_guest/page_marks.py", fifo]  # fmt: skip
    script = root / wrapper.lstrip("/")
    script.write_text("#!/bin/sh\nexec " + " ".join(page) + ' "$@"\n')
    script.chmod(0o755)
    return fifo, wrapper


def simple(root: Path) -> dict[str, int]:
    figures = {}
    for name, code in (("python_pass", "pass"), ("import_pygame", "import pygame")):
        counts, _ = counted(root, python("-c", code))
        assert counts.at_exit is not None
        figures[name] = counts.at_exit
        say(f"{name}: {figures[name] / 1e6:.1f} M")
    return figures


def simulate(root: Path, rounds: int) -> dict[str, float]:
    figures = {}
    for city in ("tokyo", "paris", "london"):
        totals = []
        for count in (rounds, 2 * rounds):
            counts, _ = counted(
                root, python("-m", "nsdevice", "simulate", "--city", city, "--rounds", str(count))
            )
            totals.append(counts.at_exit or 0)
        figures[city] = per_step(totals[0], totals[1], rounds)
        say(f"simulate {city}: {figures[city]:,.0f} per round")
    return figures


# ---------------------------------------------------------------------------------------
# the table
# ---------------------------------------------------------------------------------------


def table(figures: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(what, figure, target) rows."""
    million = lambda n: f"{n / 1e6:,.1f} M"  # noqa: E731
    rows = [
        (
            "`python -c pass` / `import pygame`",
            f"{million(figures['python_pass'])} / {million(figures['import_pygame'])}",
            "",
        ),
    ]
    frames = figures["first_frame"]
    rows.append(
        (
            "start → first frame, json / window 320×240 / HAT build",
            " / ".join(million(frames[k]) for k in ("json", "window_320x240", "hat")),
            f"HAT ≤ {million(TARGETS['first_frame_hat_instructions'])}",
        )
    )
    press = figures["press"]
    deals = press["deals"]
    rows.append(
        (
            f"one NEXT press, HAT build (real `spidev`), median of {', '.join(deals)}",
            f"{press['instructions'] / 1e6:.2f} M",
            f"≤ {million(TARGETS['press_instructions'])}",
        )
    )
    rows.append(
        (
            "  each deal code's",
            " / ".join(f"{run['instructions'] / 1e6:.2f}" for run in deals.values()) + " M",
            "",
        )
    )
    top = press["heaviest_tap"]
    rows.append(
        (
            f"  the heaviest tap ({top['seed']}, tap {top['tap']}: {top['from']} → {top['to']})",
            f"{top['instructions'] / 1e6:.2f} M",
            f"≤ {million(TARGETS['tap_instructions'])}",
        )
    )
    rows.append(
        (
            "  its SPI bytes / transfers",
            f"{press['spi_bytes']:,.0f} / {press['spi_transfers']:.0f}",
            "",
        )
    )
    for city, per_round in figures["simulate"].items():
        rows.append((f"`simulate --city {city}`, per round", f"{per_round:,.0f}", ""))
    bus = f"{figures['spi_hz'] // 1_000_000} MHz"
    for ipc, ms in figures["press_ms"].items():
        target = f"≤ {TARGETS['press_ms']:g} ms" if ipc == "0.7" else ""
        rows.append(
            (f"press → picture at IPC {ipc}, with the bus at {bus}", f"{ms:.1f} ms", target)
        )
    for ipc, seconds in figures["first_frame_hat_s"].items():
        rows.append((f"start → first frame, HAT build, at IPC {ipc}", f"{seconds:.2f} s", ""))
    return rows


def tv_rows(tv: dict[str, Any] | None) -> list[tuple[str, str, str]]:
    """The TV's rows: one table's press, the room caller's, their ratio (issue 35), and
    what the page's own process spends on each of the caller's presses."""
    if tv is None:
        return []
    room = tv["room"]
    rows = [
        ("one NEXT press, TV 1920×1080, one table",
         f"{tv['one_table']['instructions'] / 1e6:.2f} M", ""),
        (f"one NEXT press, TV 1920×1080, room caller, {room['players']} phones following",
         f"{room['instructions'] / 1e6:.2f} M", ""),
        ("  room caller / one table", f"{tv['ratio']:.2f}×", f"≤ {TARGETS['tv_room_ratio']:g}×"),
    ]  # fmt: skip
    if "page_instructions" in room:
        # its median tap first: the difference of its runs moves with what its first
        # table after the joins costs it, from run to run
        rows.append(("  the page's own process, per caller's press: median tap (difference)",
                     f"{room['page_median_tap'] / 1e6:.2f} M"
                     f" ({room['page_instructions'] / 1e6:.2f} M)", ""))  # fmt: skip
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if os.geteuid() != 0:
        print("pi_cost: run me as root (debootstrap and chroot need it)", file=sys.stderr)
        return 2
    for tool in ("debootstrap", "chroot", "qemu-aarch64", "cc", "update-binfmts"):
        if shutil.which(tool) is None:
            print(
                f"pi_cost: missing {tool}: apt-get install -y debootstrap qemu-user "
                "qemu-user-static binfmt-support gcc",
                file=sys.stderr,
            )
            return 2
    root = args.userland
    ensure_binfmt()
    ensure_userland(root)
    with mounted(root):
        return _measure(root, args)


def _measure(root: Path, args: argparse.Namespace) -> int:
    install(root, args.reinstall)
    build_tools(root)
    from nsdevice.hardware.profiles import load_profile

    spi_hz = load_profile("display-hat-mini").display.spi_speed_hz or 4_000_000
    figures: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "commit": _commit(),
        "spi_hz": spi_hz,
    }
    if args.only == "tv":
        figures["tv_press"] = tv_presses(root, args.tv_presses, args.tv_more, args.tv_players)
        return written(figures, tv_rows(figures["tv_press"]), args.json)
    figures.update(simple(root))
    figures["first_frame"] = first_frames(root)
    figures["press"] = presses(root, args.seeds, args.presses, args.more)
    figures["simulate"] = simulate(root, args.rounds)
    if args.tv_players:
        figures["tv_press"] = tv_presses(root, args.tv_presses, args.tv_more, args.tv_players)
    deals = figures["press"]["deals"].values()
    figures["press_ms"] = {  # each deal code's press → picture, then their median
        f"{ipc:g}": statistics.median(
            press_ms(run["instructions"], ipc, run["spi_bytes"], spi_hz) for run in deals
        )
        for ipc in IPCS
    }
    figures["first_frame_hat_s"] = {
        f"{ipc:g}": figures["first_frame"]["hat"] / (ipc * CLOCK_HZ) for ipc in IPCS
    }
    return written(figures, table(figures) + tv_rows(figures.get("tv_press")), args.json)


def written(figures: dict[str, Any], rows: list[tuple[str, str, str]], path: Path) -> int:
    """The table printed and everything written to `path` as JSON."""
    figures["table"] = rows
    print("| what | guest instructions / estimate | target |")
    print("| --- | ---: | --- |")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


def _commit() -> str:
    done = subprocess.run(
        ["git", "-C", str(ROOT), "describe", "--always", "--dirty"], capture_output=True, text=True
    )
    return done.stdout.strip()


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
