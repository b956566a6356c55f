"""Press → frame: gpiozero's mock pins or the window's own events → the real loop →
session → SQLite save → paint → flip, in one process, with real games played; and the
same with every fsync delayed (a slow card), against no delay."""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.figures import Build, box_environment, patched, percentile, summary  # noqa: E402

# The Display HAT Mini's button pins (nsdevice/profiles/display-hat-mini.toml).
PINS = {"next": 16, "back": 5, "menu": 6}


# The Display HAT Mini build with gpiozero's mock pins. Its SPI panel cannot start here,
# so the terminal display stands in; like the panel it leaves the waiting to a plain queue.
BUTTON_BUILD: Build = (
    ("--input", "gpio", "--hardware", "display-hat-mini"),
    {"GPIOZERO_PIN_FACTORY": "mock"},
)


class Timer:
    """Wraps a callable; keeps how long each call took (seconds)."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.took: list[float] = []

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return self.function(*args, **kwargs)
        finally:
            self.took.append(time.perf_counter() - started)


class Player:
    """Chooses the next button so that every press changes the screen (so it has a frame):
    whole games, mostly NEXT, some BACK (undo), a new city every game."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.plan: list[str] = []
        self.games = 0
        self.leaving = False  # a room game's results are over: to the menu's new game

    def choose(self, view: Any) -> str:
        if self.plan:
            return self.plan.pop(0)
        screen = view.screen
        if screen == "room_results":  # a room game's end (issue 25): MENU, then a new game
            self.leaving = True
            return "menu"
        if self.leaving and screen == "menu":
            keys = [getattr(row, "key", row) for row in view.rows]
            return "menu" if keys[view.cursor] == "new_game" else "next"
        if self.leaving and screen == "confirm":
            self.leaving = False
            self.games += 1
            return "next"
        if screen == "setup":
            self.games += 1
            # cursor to "city", change it, back to "start", start
            self.plan = ["menu", "back", "menu"]
            return "next"
        if screen == "turn":
            return "back" if self.rng.random() < 0.12 else "next"
        if screen == "score_entry":
            return "next" if view.value < 3 + view.step else "menu"
        return "next"


def press_to_frame(
    presses: int = 1000,
    *,
    seed: int = 1,
    size: tuple[int, int] = (480, 320),
    state_dir: Path | None = None,
    display_kind: str = "window",
    samples: dict[str, list[float]] | None = None,
    before_tap: Callable[[int], None] | None = None,
    publish: Callable[[Any], None] | None = None,
    before_presses: Callable[[], None] | None = None,
    outputs: tuple[Callable[[Any], None], ...] = (),
    busy: Any = None,
    settings: Any = None,
    between: Callable[[Any, Any], None] | None = None,
    room_inbox: Callable[[Any], Any] | None = None,
) -> dict:
    """Tap `presses` times on mock GPIO pins while the real loop runs; time every frame.

    `state_dir` puts the SQLite store somewhere else than a fresh temporary folder (e.g.
    a tmpfs, to see what fsync costs: for attribution). The inbox is the one `nsdevice run`
    would choose for GPIO buttons on `display_kind`: the window's own pygame inbox for
    "window", a plain queue for "kmsdrm" (runner.opening.choose_inbox). `publish` is the loop's
    output to the phones' page, `before_presses` runs after the first frame
    (benchmarks/phones.py connects its pages there), `outputs` the loop's other outputs
    (benchmarks/voice.py adds the speaker), `busy` the loop's `inputs.events.Busy` when the
    page or the speaker shares it (as `nsdevice run` wires them). `settings`: the session's
    (a room game's, benchmarks/room.py), `between(session, inbox)` runs before each tap on
    the playing thread (room.py puts the room's joins and sheets in the inbox there).
    `room_inbox(inbox)`: the loop's `RoomInbox` over its inbox, made once the inbox is
    chosen (crowd.py's storm wires the page to both there, as `nsdevice run` does).
    """
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame
    from gpiozero.pins.mock import MockFactory

    from nsdevice.box.loop import Loop
    from nsdevice.box.notify import Notifier
    from nsdevice.displays.pygame_display import PygameDisplay
    from nsdevice.inputs.events import Button, ButtonTracker, Edge, QueueInbox, Stop
    from nsdevice.inputs.gpio import GpioButtons
    from nsdevice.rules.deal import draw_seed
    from nsdevice.runner.opening import choose_inbox
    from nsdevice.session import Session, Settings
    from nsdevice.store import Store

    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="nsdevice-measure-", dir=state_dir) as folder:
        store = Store.open(Path(folder)).store
        session = Session(
            settings or Settings(language="en"), records=store,
            seed_source=lambda: draw_seed(rng),
        )  # fmt: skip
        display = PygameDisplay(size)
        inbox = choose_inbox(display, display_kind, "gpio") or QueueInbox()
        inbox_kind = type(inbox).__name__
        factory = MockFactory()
        buttons = GpioButtons(
            {Button(name): pin for name, pin in PINS.items()}, inbox, pin_factory=factory
        )
        pins = {name: factory.pin(pin) for name, pin in PINS.items()}

        shown = threading.Event()
        frames: list[float] = []
        original_show = display.show

        parts: list[tuple[float, float]] = []  # (save, paint) of each frame's step

        pressing = [False]  # the loop is handling a press: its frame is the tap's

        def show(view: Any) -> None:
            original_show(view)
            if frames and not pressing[0]:
                return  # a frame of the room's joins or sheets (a batch): no tap's
            frames.append(time.perf_counter())  # the frame is flipped when show returns
            parts.append((save.took[-1] if save.took else 0.0, paint.took[-1]))
            shown.set()

        display.show = show  # type: ignore[method-assign]
        flip = Timer(pygame.display.flip)
        paint = Timer(display._painter.paint)
        display._painter.paint = paint  # type: ignore[method-assign]
        session_press = Timer(session.press)
        session.press = session_press  # type: ignore[method-assign]
        save = Timer(store.save)
        loop = Loop(
            session, display, inbox, ButtonTracker(), save=save, notifier=Notifier({}),
            publish=publish, outputs=outputs, **({"busy": busy} if busy is not None else {}),
            room_inbox=room_inbox(inbox) if room_inbox is not None else None,
        )  # fmt: skip
        handle = loop.handle

        def handle_press(press: Any) -> None:
            pressing[0] = True
            try:
                handle(press)
            finally:
                pressing[0] = False

        loop.handle = handle_press  # type: ignore[method-assign]
        # from each edge to the loop taking it: the wait for the loop's thread to wake and
        # get a core (and the interpreter's lock), before any of the tap's own work
        edge_to_loop: list[float] = []
        take = loop.take

        def take_timed(item: Any) -> bool:
            if isinstance(item, Edge):
                edge_to_loop.append(time.monotonic() - item.at)  # the edge's own clock
            return take(item)

        loop.take = take_timed  # type: ignore[method-assign]

        from_release: list[float] = []  # taps decided on release (the hold means more there)
        edge_taps: list[float] = []  # taps decided on the press edge, from that edge
        reveals: list[float] = []  # NEXT on a turn, from the press edge
        decided: list[float] = []  # every tap in order, from the edge that decided it
        steps: list[dict] = []
        from_press: list[float] = []
        finger: list[float] = []
        missed = 0
        missed_taps: list[dict] = []
        player = Player(rng)
        failure: list[BaseException] = []

        def drive() -> None:
            nonlocal missed
            try:
                if not shown.wait(10):
                    raise TimeoutError("no first frame")
                if before_presses is not None:
                    before_presses()
                for tap in range(presses):
                    if between is not None:
                        between(session, inbox)
                    if before_tap is not None:
                        before_tap(tap)
                    word = player.choose(session.view())
                    screen_before = session.screen
                    pin = pins[word]
                    shown.clear()
                    before = len(frames)
                    pressed_at = time.perf_counter()
                    pin.drive_low()  # pulled up: low is pressed
                    time.sleep(rng.uniform(0.035, 0.050))  # a quick tap, past the debounce
                    released_at = time.perf_counter()
                    pin.drive_high()
                    if not shown.wait(2.0) or len(frames) != before + 1:
                        missed += 1
                        missed_taps.append(
                            {"tap": tap, "button": word, "screen": screen_before,
                             "frames": len(frames) - before}
                        )  # fmt: skip
                        continue
                    frame_at = frames[-1]
                    on_edge = frame_at < released_at  # a tap decided on the press edge
                    if on_edge:
                        edge_taps.append(frame_at - pressed_at)
                    else:
                        from_release.append(frame_at - released_at)
                    decided.append(edge_taps[-1] if on_edge else from_release[-1])
                    if word == "next" and screen_before == "turn":
                        reveals.append(frame_at - pressed_at)
                    saved, painted = parts[-1]
                    steps.append(
                        {
                            "ms": (frame_at - (pressed_at if on_edge else released_at)) * 1000,
                            "from": "press" if on_edge else "release",
                            "save_ms": saved * 1000,
                            "paint_ms": painted * 1000,
                            "screen": session.screen,
                        }
                    )
                    from_press.append(frame_at - pressed_at)
                    finger.append(released_at - pressed_at)
                    time.sleep(rng.uniform(0.031, 0.040))  # the contact's debounce, and a breath
            except BaseException as error:  # reported by the main thread
                failure.append(error)
            finally:
                inbox.put(Stop("measured"))

        with patched(pygame.display, "flip", flip):
            driver = threading.Thread(target=drive, name="presser", daemon=True)
            driver.start()
            loop.run()
            driver.join(timeout=10)
        buttons.close()
        display.close()
        store.close()
    if failure:
        raise failure[0]
    if samples is not None:  # the raw figures, for a caller that merges runs
        samples["frame_ms"] = [took * 1000 for took in decided]
        samples["save_ms"] = [took * 1000 for took in save.took]
    slowest = sorted(steps, key=lambda step: step["ms"], reverse=True)[: max(1, presses // 100)]
    return {
        "inbox": inbox_kind,
        "store_folder": str(state_dir or tempfile.gettempdir()),
        "presses": presses,
        "games": player.games,
        "frames": len(frames),
        "presses_without_a_frame": missed,
        "taps_without_one_frame": missed_taps,
        "from_release_ms": summary(from_release, 1000),
        "from_press_ms": summary(from_press, 1000),
        "decided_on_press_edge_ms": summary(edge_taps, 1000),
        "from_the_deciding_edge_ms": summary(decided, 1000),
        "reveal_from_press_edge_ms": summary(reveals, 1000),
        "finger_down_ms": summary(finger, 1000, 1),
        "edge_to_loop_ms": summary(edge_to_loop, 1000),
        "parts_median_ms": {
            "session_press": round(statistics.median(session_press.took) * 1000, 3),
            "save": round(statistics.median(save.took) * 1000, 3),
            "paint": round(statistics.median(paint.took) * 1000, 3),
            "flip": round(statistics.median(flip.took) * 1000, 3),
        },
        "parts_p99_ms": {
            "save": round(percentile(save.took, 0.99) * 1000, 3),
            "paint": round(percentile(paint.took, 0.99) * 1000, 3),
            "flip": round(percentile(flip.took, 0.99) * 1000, 3),
        },
        # the slowest 1 %: where their time went (a slow save is an fsync that waited)
        "slowest": [{key: (round(v, 3) if isinstance(v, float) else v)
                     for key, v in step.items()} for step in slowest],
    }  # fmt: skip


FSYNC_SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

long fsync_delay_us = 0;  /* set from Python through ctypes, press by press */
static unsigned long calls, delayed;

static void wait_after(void) {
    long us = fsync_delay_us;
    calls++;
    if (us > 0) {
        struct timespec left = {us / 1000000, (us % 1000000) * 1000};
        delayed++;
        while (nanosleep(&left, &left) == -1) {}
    }
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    int result = real(fd);
    wait_after();
    return result;
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    int result = real(fd);
    wait_after();
    return result;
}

__attribute__((destructor)) static void report(void) {
    if (getenv("FSYNC_SHIM_REPORT"))
        fprintf(stderr, "fsync-shim calls=%lu delayed=%lu\n", calls, delayed);
}
"""


def _fsync_shim(folder: Path) -> Path:
    """Build the LD_PRELOAD library that delays every fsync and fdatasync, after the real
    call returns (as strace's delay_exit would), by its `fsync_delay_us`."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise RuntimeError("the fsync delay needs a C compiler (apt-get install gcc)")
    source, library = folder / "fsync_shim.c", folder / "fsync_shim.so"
    source.write_text(FSYNC_SHIM)
    subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", str(library), str(source), "-ldl"],
                   check=True)  # fmt: skip
    return library


def press_to_frame_fsync_delayed(
    presses: int, delay_ms: float, *, block: int = 1, save_first: bool = False
) -> dict:
    """press → frame with every fsync delayed by `delay_ms`, against no delay, in one run:
    one process (the button-build queue of `press_to_frame`) with the shim preloaded
    plays `presses` taps, switching the delay on and off every `block` taps (every other
    tap by default: a burst of load on a shared machine then falls on both sides alike;
    each save ends long before the next tap, so one side's delay cannot reach the other).
    `save_first` times the order before the picture came first (save, then draw)."""
    with tempfile.TemporaryDirectory(prefix="nsdevice-fsync-") as name:
        library = _fsync_shim(Path(name))
        env = {**box_environment(), "LD_PRELOAD": str(library), "FSYNC_SHIM_REPORT": "1"}
        command = [sys.executable, str(ROOT / "benchmarks" / "measure.py"),
                   "--press-to-frame-child", str(presses),
                   "--fsync-delay-ms", str(delay_ms), "--block", str(block)]  # fmt: skip
        if save_first:
            command.append("--save-first")
        result = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    child = json.loads(result.stdout)
    calls = result.stderr.rsplit("fsync-shim calls=", 1)[1].split()
    figures: dict[str, Any] = {
        "delay_ms": delay_ms,
        "block": block,
        "save_first": save_first,
        "fsync_calls": int(calls[0]),
        "fsync_calls_delayed": int(calls[1].removeprefix("delayed=")),
    }
    for side in ("undelayed", "delayed"):
        figures[side] = {
            "from_release_ms": summary(child[side]["frame_ms"], 1, 3),
            "save_ms": summary(child[side]["save_ms"], 1, 3),
        }
    figures["p99_growth_ms"] = round(
        figures["delayed"]["from_release_ms"]["p99"]
        - figures["undelayed"]["from_release_ms"]["p99"], 3
    )  # fmt: skip
    return figures


def press_to_frame_child(presses: int, delay_ms: float, block: int, save_first: bool) -> None:
    """The process of `press_to_frame_fsync_delayed`: the raw figures, by side, as JSON."""
    import ctypes

    from nsdevice.box.loop import Loop

    if save_first:  # the order before issue 13: the frame waits for the save

        def handle(self: Any, press: Any) -> None:
            self.session.press(press)
            self.save(self.session.snapshot())
            self.draw()

        Loop.handle = handle  # type: ignore[method-assign]
    # the preloaded shim's own variable (LD_PRELOAD put it first in the symbol lookup)
    delay_us = ctypes.c_long.in_dll(ctypes.CDLL(None), "fsync_delay_us")
    sides: list[str] = []

    def before_tap(tap: int) -> None:
        delayed = (tap // block) % 2 == 1
        delay_us.value = round(delay_ms * 1000) if delayed else 0
        sides.append("delayed" if delayed else "undelayed")

    samples: dict[str, list[float]] = {}
    press_to_frame(presses, display_kind="kmsdrm", samples=samples, before_tap=before_tap)
    by_side: dict[str, dict[str, list[float]]] = {
        side: {"frame_ms": [], "save_ms": []} for side in ("undelayed", "delayed")
    }
    # one frame and one save per tap (the player only presses what changes the screen)
    for side, frame, save in zip(sides, samples["frame_ms"], samples["save_ms"], strict=True):
        by_side[side]["frame_ms"].append(frame)
        by_side[side]["save_ms"].append(save)
    json.dump(by_side, sys.stdout)
