"""Measure the box against its performance budget: one command, a table and a JSON file.

    python benchmarks/measure.py                       # 1,000 presses, 10 starts, 10 s idle
    python benchmarks/measure.py --presses 20 --starts 1 --idle-seconds 1 --rounds 1000

What is measured (docs/PERFORMANCE.md explains each method and keeps the latest figures):

- press → frame: gpiozero mock pins → GpioButtons → the pygame display's own inbox →
  ButtonTracker → Session.press → SQLite save → paint → flip, in one process, with real
  games played. A tap is decided on release, so the latency counts from the release edge;
  the figure from the press edge (which includes the finger's time on the button) is kept
  beside it.
- cold start: process start → READY=1 on a NOTIFY_SOCKET we bind (sent right after the
  first frame), for `--display window` and `--display json`.
- idle: CPU time and wake-ups of an untouched box over --idle-seconds; peak RSS (VmHWM).
- rules core: `nsdevice simulate` rounds per second for each city.

Speed is measured here, never asserted in tests (DESIGN.md).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import glob
import json
import os
import platform
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_JSON = ROOT / "benchmarks" / "results" / "latest.json"
CITIES = ("tokyo", "paris", "london")
# The Display HAT Mini's button pins (nsdevice/profiles/display-hat-mini.toml).
PINS = {"next": 16, "back": 5, "menu": 6}
# `nsdevice run` options and environment for a start other than `--input keyboard`.
Build = tuple[tuple[str, ...], dict[str, str]]
# The Display HAT Mini build with gpiozero's mock pins. Its SPI panel cannot start here,
# so the terminal display stands in; like the panel it leaves the waiting to a plain queue.
BUTTON_BUILD: Build = (
    ("--input", "gpio", "--hardware", "display-hat-mini"),
    {"GPIOZERO_PIN_FACTORY": "mock"},
)

TARGETS = {
    "press_to_frame_p99_ms": 5.0,  # from the release, where a tap waits for it
    "press_edge_to_frame_p99_ms": 10.0,  # from the press edge: a reveal, a list's cursor
    "cold_start_s": 0.5,
    "idle_cpu_percent": 1.0,
    "rss_mb": 50.0,  # DESIGN: the HAT build with the phones' page on, on the Pi
    # DESIGN's budget: the rules core simulates at least half as many rounds per second
    # as a bare-Python shuffle-and-scan of the same deck, measured in the same run
    "share_of_bare_loop": 0.5,
}

# The same work as one simulated round, with none of the project: shuffle eleven cards,
# scan to the fifth underground one, find the switch. Run in its own interpreter, like
# `nsdevice simulate`, so both pay the same start-up and none of the benchmark's imports.
BARE_LOOP = """
import json, random, sys, time
rounds = int(sys.argv[1])
rng = random.Random("bare")
cards = [("underground" if n < 5 else "surface", n == 10) for n in range(11)]
started = time.perf_counter()
for _ in range(rounds):
    rng.shuffle(cards)
    seen = 0
    for position, (kind, switch) in enumerate(cards):
        if kind == "underground":
            seen += 1
            if seen == 5:
                break
    switch_at = next(i for i, card in enumerate(cards) if card[1])
print(json.dumps({"rounds_per_second": rounds / (time.perf_counter() - started)}))
"""


def _environment() -> dict[str, str]:
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "PYGAME_HIDE_SUPPORT_PROMPT": "1",
        "LANG": "C",
    }
    for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LC_ALL", "LC_MESSAGES"):
        env.pop(name, None)
    return env


# ---------------------------------------------------------------------------------------
# figures
# ---------------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile: the smallest value with at least `share` of them at or below."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * share // 1))  # ceil without floats going astray
    return ordered[int(rank) - 1]


def summary(values: list[float], scale: float = 1.0, digits: int = 3) -> dict[str, Any]:
    if not values:
        return {"count": 0, "median": None, "p90": None, "p99": None, "max": None, "min": None}
    return {
        "count": len(values),
        "median": round(statistics.median(values) * scale, digits),
        "p90": round(percentile(values, 0.90) * scale, digits),
        "p99": round(percentile(values, 0.99) * scale, digits),
        "max": round(max(values) * scale, digits),
        "min": round(min(values) * scale, digits),
    }


def machine() -> dict[str, Any]:
    model = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() in ("model name", "Model", "Hardware") and value.strip():
                model = value.strip()
                break
    try:
        import pygame

        pygame_version = (
            f"{pygame.version.ver} (SDL {'.'.join(map(str, pygame.get_sdl_version()))})"
        )
    except ImportError:
        pygame_version = None
    return {
        "platform": platform.platform(),
        "cpu_model": model,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "pygame": pygame_version,
    }


# ---------------------------------------------------------------------------------------
# press → frame
# ---------------------------------------------------------------------------------------


class _Timer:
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


class _Player:
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

    from nsdevice.displays.pygame_display import PygameDisplay
    from nsdevice.inputs.events import Button, ButtonTracker, QueueInbox, Stop
    from nsdevice.inputs.gpio import GpioButtons
    from nsdevice.loop import Loop
    from nsdevice.notify import Notifier
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
        flip = _Timer(pygame.display.flip)
        paint = _Timer(display._painter.paint)
        display._painter.paint = paint  # type: ignore[method-assign]
        session_press = _Timer(session.press)
        session.press = session_press  # type: ignore[method-assign]
        save = _Timer(store.save)
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

        from_release: list[float] = []  # taps decided on release (the hold means more there)
        edge_taps: list[float] = []  # taps decided on the press edge, from that edge
        reveals: list[float] = []  # NEXT on a turn, from the press edge
        decided: list[float] = []  # every tap in order, from the edge that decided it
        steps: list[dict] = []
        from_press: list[float] = []
        finger: list[float] = []
        missed = 0
        missed_taps: list[dict] = []
        player = _Player(rng)
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

        with _patched(pygame.display, "flip", flip):
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


@contextlib.contextmanager
def _patched(owner: Any, name: str, value: Any) -> Iterator[None]:
    original = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, original)


class _FakePanel:
    """In place of st7789.ST7789: takes the bytes an SPI transfer would send, sends nothing."""

    def __init__(self) -> None:
        self.sent = 0

    def set_window(self, *window: int) -> None:
        pass

    def data(self, data: bytes) -> None:
        self.sent = max(self.sent, len(data))  # the whole first frame; later ones are windows

    def set_backlight(self, value: bool) -> None:
        pass


def panel_frames(frames: int = 200, *, seed: int = 2) -> dict:
    """The Display HAT Mini's show() without the SPI bus: paint at 320x240, then turn and
    convert to the panel's RGB565 bytes, over the screens of real play."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from nsdevice.displays.st7789_display import St7789Display
    from nsdevice.inputs.events import Press
    from nsdevice.rules.deal import draw_seed
    from nsdevice.session import Session, Settings

    rng = random.Random(seed)
    panel = _FakePanel()
    display = St7789Display(panel=panel)
    paint = _Timer(display._painter.paint)
    display._painter.paint = paint  # type: ignore[method-assign]
    convert = _Timer(display._native_frame)  # turned and converted (bytes swapped per window)
    display._native_frame = convert  # type: ignore[method-assign]
    from nsdevice.displays import st7789_display

    window = _Timer(st7789_display.changed_windows)
    session = Session(Settings(language="en"), seed_source=lambda: draw_seed(rng))
    player = _Player(rng)
    with _patched(st7789_display, "changed_windows", window):
        for _ in range(frames):
            display.show(session.view())
            session.press(Press.parse(player.choose(session.view())))
    return {
        "frames": frames,
        "bytes_per_frame": panel.sent,
        "paint_ms": summary(paint.took, 1000),
        "convert_ms": summary(convert.took, 1000),
        "changed_window_ms": summary(window.took, 1000),
    }


# The SPI figures run the real panel library (and numpy, which it brings): the dev extra
# installs it on x86-64 Linux only, so elsewhere (an ARM64 dev install) they are left out.
NO_PANEL_LIBRARY = (
    "the st7789 panel library is not installed (the dev extra brings it on x86-64 Linux"
    " only; on a Pi: apt install python3-dev, then pip install st7789)"
)


def panel_library() -> bool:
    try:
        import st7789  # noqa: F401  (only whether it imports: numpy and spidev with it)
    except ImportError:
        return False
    return True


def spi_bytes_per_press(presses: int = 400, *, seed: int = 3) -> dict:
    """The Display HAT Mini's SPI traffic per press, through the real `st7789` library over
    a fake SPI device (tests/panel_model.py), over scripted play: as sent now (the window
    that changed) and as before (every frame whole), same presses. The panel model replays
    both streams and must show the painter's picture at the end of each."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    sys.path.insert(0, str(ROOT / "tests"))
    import numpy
    import pygame
    from panel_model import fake_hardware, quantised

    from nsdevice.displays.st7789_display import St7789Display
    from nsdevice.hardware import load_profile
    from nsdevice.inputs.events import Press
    from nsdevice.rules.deal import draw_seed
    from nsdevice.session import Session, Settings

    spec = load_profile("display-hat-mini").display
    speed = spec.spi_speed_hz or 4_000_000  # the library's default when a profile has none
    figures: dict[str, Any] = {"profile": "display-hat-mini", "spi_speed_hz": speed}
    for how in ("window", "whole"):
        rng = random.Random(seed)
        session = Session(Settings(language="en"), seed_source=functools.partial(draw_seed, rng))
        player = _Player(rng)
        sent: list[int] = []
        windows: list[int] = []  # RAMWR commands: rectangles sent
        with fake_hardware() as bus:
            display = St7789Display(
                width=spec.width, height=spec.height, rotation=spec.rotation,
                spi_speed_hz=speed,
            )  # fmt: skip
            display.show(session.view())
            shown = session.view()
            for _ in range(presses):
                session.press(Press.parse(player.choose(session.view())))
                view = session.view()
                before = len(bus.transfers)
                if view != shown:  # the loop draws only a changed view
                    if how == "whole":
                        display._sent = None  # forget the panel's picture: the old way
                    display.show(view)
                    shown = view
                sent.append(bus.bytes_sent(before))
                windows.append(sum(1 for is_data, chunk in bus.transfers[before:]
                                   if not is_data and chunk == b"\x2c"))  # RAMWR  # fmt: skip
            seen = bus.panel().seen(spec.width, spec.height, spec.rotation)
            canvas = numpy.transpose(pygame.surfarray.array3d(display._canvas), (1, 0, 2))
            if not numpy.array_equal(seen, quantised(canvas)):
                raise AssertionError(f"{how}: the panel does not show the last screen")
        byte_summary = summary([float(n) for n in sent], 1, 0)
        figures[how] = {
            "presses": presses,
            "games": player.games,
            "bytes_per_press": {k: int(v) for k, v in byte_summary.items() if v is not None},
            "windows_per_press": {"median": statistics.median(windows), "max": max(windows)},
            "transfer_ms_at_spi_speed": {
                key: round(byte_summary[key] * 8 / speed * 1000, 3)
                for key in ("median", "p99", "max")
            },
        }
    return figures


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
        env = {**_environment(), "LD_PRELOAD": str(library), "FSYNC_SHIM_REPORT": "1"}
        command = [sys.executable, str(Path(__file__).resolve()),
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


def _press_to_frame_child(presses: int, delay_ms: float, block: int, save_first: bool) -> None:
    """The process of `press_to_frame_fsync_delayed`: the raw figures, by side, as JSON."""
    import ctypes

    from nsdevice.loop import Loop

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


def _saved_game(folder: Path) -> None:
    """A state folder with a game in progress (round 1, turn 3): what a box boots into."""
    from nsdevice.inputs.events import Press
    from nsdevice.session import Session, Settings
    from nsdevice.store import Store

    session = Session(Settings(language="en"), seed_source=lambda: "MEASURE")
    for word in ("menu", "next", "next", "next", "next"):
        session.press(Press.parse(word))
    store = Store.open(folder).store
    store.save(session.snapshot())
    store.close()


class _Started:
    """`nsdevice run` started with a NOTIFY_SOCKET of ours; `ready_after` is start → READY=1."""

    def __init__(
        self,
        display: str,
        state: Path,
        socket_path: Path,
        build: Build = ((), {}),
        timeout: float = 30,
        launcher: tuple[str, ...] = ("-m", "nsdevice"),
    ) -> None:
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._socket.bind(str(socket_path))
        self._socket.settimeout(timeout)
        options, environment = build
        env = {**_environment(), **environment, "NOTIFY_SOCKET": str(socket_path)}
        shown = ("--display", display) if display else ()  # none: the profile's own display
        command = [sys.executable, *launcher, "run", *shown,
                   *(options or ("--input", "keyboard")), "--state-dir", str(state)]  # fmt: skip
        started = time.perf_counter()
        # stdin stays open and silent: the terminal-key input waits on it, as on a box
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            env=env,
        )  # fmt: skip
        try:
            while True:
                message = self._socket.recv(256)
                if b"READY=1" in message.split(b"\n"):
                    break
        except TimeoutError:
            self.stop()
            raise RuntimeError(f"{display}: no READY=1 within {timeout} s") from None
        self.ready_after = time.perf_counter() - started

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(timeout=10)
        for stream in (self.process.stdin, self.process.stderr):
            with contextlib.suppress(OSError):
                stream.close()  # type: ignore[union-attr]
        self._socket.close()


def cold_start(display: str, starts: int) -> dict:
    times = []
    with tempfile.TemporaryDirectory(prefix="nsdevice-start-") as name:
        folder = Path(name)
        _saved_game(folder / "state")
        for run in range(starts):
            box = _Started(display, folder / "state", folder / f"notify-{run}")
            times.append(box.ready_after)
            box.stop()
    return {"runs": starts, **{k: v for k, v in summary(times, 1, 4).items() if k != "count"}}


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def _context_switches(pid: int) -> int:
    total = 0
    for status in glob.glob(f"/proc/{pid}/task/*/status"):
        with contextlib.suppress(OSError):
            for line in Path(status).read_text().splitlines():
                if "ctxt_switches:" in line:
                    total += int(line.split()[-1])
    return total


def _status_kb(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{key}:"):
            return int(line.split()[1])
    raise KeyError(key)


def idle(display: str, seconds: float, build: Build = ((), {})) -> dict:
    with tempfile.TemporaryDirectory(prefix="nsdevice-idle-") as name:
        folder = Path(name)
        _saved_game(folder / "state")
        box = _Started(display, folder / "state", folder / "notify", build)
        try:
            time.sleep(0.2)  # let the first frame's work finish
            cpu, switches, wall = (
                _cpu_seconds(box.pid),
                _context_switches(box.pid),
                time.perf_counter(),
            )
            time.sleep(seconds)
            cpu = _cpu_seconds(box.pid) - cpu
            switches = _context_switches(box.pid) - switches
            wall = time.perf_counter() - wall
            peak = _status_kb(box.pid, "VmHWM")
            threads = len(glob.glob(f"/proc/{box.pid}/task/*"))
        finally:
            box.stop()
    return {
        "how": " ".join(["--display", display, *(build[0] or ("--input", "keyboard"))]),
        "seconds": round(wall, 2),
        "cpu_percent_of_one_core": round(100 * cpu / wall, 2),
        "wakeups_per_second": round(switches / wall, 1),
        "rss_peak_mb": round(peak / 1024, 1),
        "threads": threads,
    }


# The Display HAT Mini build as it is on the box (`--hardware display-hat-mini`: the real
# st7789 library and spidev, gpiozero's pins), on a machine without the HAT: the SPI device
# is faked under spidev by an LD_PRELOAD library (only open and ioctl; writes go to
# /dev/null) and the panel's GPIO lines by a stand-in `gpiodevice`; the buttons are
# gpiozero's mock pins, which a thread in the box's own process taps when asked on stdin.
FAKE_SPIDEV = ROOT / "benchmarks" / "pi_guest" / "fake_spidev.c"
FAKE_GPIO_LINES = ROOT / "benchmarks" / "pi_guest" / "fake_gpio"
HAT_TAPPER = """
import sys, threading, time
def tap_when_asked():
    for line in sys.stdin:
        # asked once the box runs: gpiozero as the box loaded it, no more (the whole package
        # imported here would count in the box's memory)
        from gpiozero.devices import Device
        pin = Device.pin_factory.pin(16)  # NEXT on the Display HAT Mini
        for _ in range(int(line)):
            pin.drive_low(); time.sleep(0.05); pin.drive_high(); time.sleep(0.06)
threading.Thread(target=tap_when_asked, daemon=True).start()
from nsdevice.cli import main
sys.exit(main(sys.argv[1:]))
"""


def service_malloc_settings() -> dict[str, str]:
    """The malloc settings the systemd unit gives the box (systemd/nsdevice.service)."""
    unit = (ROOT / "systemd" / "nsdevice.service").read_text()
    settings = {}
    for line in unit.splitlines():
        if line.startswith("Environment=MALLOC_"):
            name, _, value = line.removeprefix("Environment=").partition("=")
            settings[name] = value
    return settings


def _fake_spidev(folder: Path) -> Path:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise RuntimeError("the HAT build's memory needs a C compiler (apt-get install gcc)")
    library = folder / "fake_spidev.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", str(library), str(FAKE_SPIDEV),
                    "-ldl"], check=True)  # fmt: skip
    return library


def hat_memory(phones: int = 4, presses: int = 100, web: bool = True) -> dict:
    """Peak RSS (VmHWM) of the HAT build after `presses` taps of NEXT, with the phones'
    page on and `phones` pages following every table (or without the page)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from phones import Page, _wait_for_page, free_port

    with tempfile.TemporaryDirectory(prefix="nsdevice-hat-") as name:
        folder = Path(name)
        _saved_game(folder / "state")
        port = free_port()
        environment = {
            **service_malloc_settings(),  # as the service runs it
            "GPIOZERO_PIN_FACTORY": "mock",
            "LD_PRELOAD": str(_fake_spidev(folder)),
            "PYTHONPATH": os.pathsep.join([str(FAKE_GPIO_LINES), str(ROOT)]),
        }
        page = ("--web", f"127.0.0.1:{port}") if web else ()
        options = ("--hardware", "display-hat-mini", *page)
        box = _Started("", folder / "state", folder / "notify", (options, environment),
                       launcher=("-c", HAT_TAPPER))  # fmt: skip
        try:
            pages = []
            if web:
                _wait_for_page(port)
                pages = [Page(port) for _ in range(phones)]
            time.sleep(0.5)
            stdin = box.process.stdin
            assert stdin is not None
            stdin.write(f"{presses}\n".encode())
            stdin.flush()
            time.sleep(presses * 0.12 + 2.0)
            peak = _status_kb(box.pid, "VmHWM")
            resident = _status_kb(box.pid, "VmRSS")
            modules = "numpy" in Path(f"/proc/{box.pid}/maps").read_text()
            events = [page.events for page in pages]
            for page in pages:
                page.close()
        finally:
            box.stop()
    return {
        "how": "nsdevice run --hardware display-hat-mini"
        + (f" --web, {phones} pages following" if web else "")
        + f"; {presses} taps of NEXT on mock pins; SPI faked under spidev",
        "rss_peak_mb": round(peak / 1024, 1),
        "rss_at_the_end_mb": round(resident / 1024, 1),
        "events_per_phone": events,
        "numpy_mapped": modules,
    }


def idle_on_x11(seconds: float) -> dict | None:
    """The window on a real X server (Xvfb), where SDL itself could block; None without Xvfb."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        return None
    number = next(n for n in range(90, 200) if not Path(f"/tmp/.X11-unix/X{n}").exists())
    server = subprocess.Popen(
        [xvfb, f":{number}", "-screen", "0", "800x600x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 10
        while not Path(f"/tmp/.X11-unix/X{number}").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        build = ((), {"SDL_VIDEODRIVER": "x11", "DISPLAY": f":{number}"})
        return idle("window", seconds, build)
    finally:
        server.terminate()
        server.wait(timeout=10)


# ---------------------------------------------------------------------------------------
# rules core, and reference points for the Pi estimate
# ---------------------------------------------------------------------------------------


def simulate(rounds: int) -> dict:
    rates = {}
    for city in CITIES:
        command = [sys.executable, "-m", "nsdevice", "simulate", "--city", city,
                   "--rounds", str(rounds), "--json"]  # fmt: skip
        result = subprocess.run(
            command, capture_output=True, text=True, env=_environment(), check=True
        )
        rates[city] = json.loads(result.stdout)["rounds_per_second"]
    bare = subprocess.run([sys.executable, "-c", BARE_LOOP, str(rounds)], capture_output=True,
                          text=True, env=_environment(), check=True)  # fmt: skip
    return {
        "rounds": rounds,
        "rounds_per_second": rates,
        "bare_loop_rounds_per_second": round(json.loads(bare.stdout)["rounds_per_second"]),
    }


def interpreter_start(runs: int) -> dict:
    """The floor under every cold start: Python itself, and Python importing pygame."""
    figures = {}
    for name, code in (("python_s", "pass"), ("python_and_pygame_s", "import pygame")):
        times = []
        for _ in range(max(1, runs)):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], env=_environment(), check=True)
            times.append(time.perf_counter() - started)
        figures[name] = round(statistics.median(times), 4)
    return figures


# ---------------------------------------------------------------------------------------
# the command
# ---------------------------------------------------------------------------------------


def measure(presses: int, starts: int, idle_seconds: float, rounds: int, x11: bool) -> dict:
    figures = {
        "press_to_frame": press_to_frame(presses),
        "press_to_frame_button_build": press_to_frame(presses, display_kind="kmsdrm"),
        "panel_frame_320x240": panel_frames(max(20, presses // 5)),
        "spi_bytes_per_press": spi_bytes_per_press(max(20, min(400, presses)))
        if panel_library()
        else {"unavailable": NO_PANEL_LIBRARY},
        "cold_start_window_s": cold_start("window", starts),
        "cold_start_json_s": cold_start("json", starts),
        "interpreter_start": interpreter_start(starts),
        "idle_window": idle("window", idle_seconds),
        "idle_json": idle("json", idle_seconds),
        "idle_button_build": idle("text", idle_seconds, BUTTON_BUILD),
        "simulate": simulate(rounds),
    }
    if panel_library():
        taps = min(100, presses)
        figures["memory_hat_build"] = hat_memory(web=False, presses=taps)
        figures["memory_hat_build_with_phones"] = hat_memory(phones=4, presses=taps)
    if x11:
        figures["idle_window_x11"] = idle_on_x11(idle_seconds)
    return figures


def checks(figures: dict) -> list[dict]:
    """The table: (metric, figure, target, ok); target None is for information."""
    window = figures["press_to_frame"]
    button = figures["press_to_frame_button_build"]
    target_ms, start_s = TARGETS["press_to_frame_p99_ms"], TARGETS["cold_start_s"]
    edge_ms = TARGETS["press_edge_to_frame_p99_ms"]
    rows: list[tuple[str, Any, Any]] = [
        ("press edge→frame p99, a reveal, window inbox (ms)",
         window["reveal_from_press_edge_ms"]["p99"], edge_ms),
        ("press edge→frame median, a reveal, window inbox (ms)",
         window["reveal_from_press_edge_ms"]["median"], None),
        ("press edge→frame p99, taps decided on the edge, window (ms)",
         window["decided_on_press_edge_ms"]["p99"], edge_ms),
        ("release→frame p99, taps decided on release, window (ms)",
         window["from_release_ms"]["p99"], target_ms),
        ("press edge→frame p99, a reveal, button-build queue (ms)",
         button["reveal_from_press_edge_ms"]["p99"], edge_ms),
        ("press edge→frame median, a reveal, button-build queue (ms)",
         button["reveal_from_press_edge_ms"]["median"], None),
        ("release→frame p99, taps decided on release, button build (ms)",
         button["from_release_ms"]["p99"], target_ms),
        ("320x240 panel paint + RGB565, median (ms)",
         round(figures["panel_frame_320x240"]["paint_ms"]["median"]
               + figures["panel_frame_320x240"]["convert_ms"]["median"], 3), None),
        ("320x240 panel changed window, median (ms)",
         figures["panel_frame_320x240"]["changed_window_ms"]["median"], None),
        ("cold start, window, median (s)", figures["cold_start_window_s"]["median"], start_s),
        ("cold start, json, median (s)", figures["cold_start_json_s"]["median"], start_s),
    ]  # fmt: skip
    spi = figures["spi_bytes_per_press"]
    if "unavailable" not in spi:
        window, whole = spi["window"], spi["whole"]
        rows += [
            ("SPI bytes per press, median, window sent",
             window["bytes_per_press"]["median"], None),
            ("SPI bytes per press, max, window sent", window["bytes_per_press"]["max"], None),
            ("SPI bytes per press, median, whole frames",
             whole["bytes_per_press"]["median"], None),
            ("SPI transfer per press at 60 MHz, median, window (ms)",
             window["transfer_ms_at_spi_speed"]["median"], None),
            ("SPI transfer per press at 60 MHz, median, whole (ms)",
             whole["transfer_ms_at_spi_speed"]["median"], None),
        ]  # fmt: skip
    idles = [
        ("window", "idle_window"),
        ("json", "idle_json"),
        ("button build", "idle_button_build"),
        ("window on X11", "idle_window_x11"),
    ]
    for label, key in idles:
        if figures.get(key):
            rows.append(
                (
                    f"idle CPU, {label} (% of a core)",
                    figures[key]["cpu_percent_of_one_core"],
                    TARGETS["idle_cpu_percent"],
                )
            )
    for label, key in idles[:3]:
        rows.append((f"peak RSS, {label} (MB)", figures[key]["rss_peak_mb"], TARGETS["rss_mb"]))
    hat_builds = (
        ("HAT build, real st7789 path", "memory_hat_build"),
        ("HAT build, page on, 4 phones", "memory_hat_build_with_phones"),
    )
    for label, key in hat_builds:
        if key in figures:
            rows.append((f"peak RSS, {label} (MB)", figures[key]["rss_peak_mb"], TARGETS["rss_mb"]))
    bare = figures["simulate"]["bare_loop_rounds_per_second"]
    rows.append(("bare-Python shuffle-and-scan (rounds/s)", bare, None))
    for city, rate in figures["simulate"]["rounds_per_second"].items():
        floor = round(TARGETS["share_of_bare_loop"] * bare)
        rows.append((f"simulate {city} (rounds/s)", rate, floor))
    table = []
    for metric, figure, target in rows:
        if target is None or figure is None:
            ok = None
        elif "rounds/s" in metric:
            ok = figure >= target
        else:
            ok = figure <= target
        table.append({"metric": metric, "figure": figure, "target": target, "ok": ok})
    return table


def print_table(table: list[dict], stream: Any = sys.stdout) -> None:
    width = max(len(row["metric"]) for row in table)
    print(f"{'metric':{width}}  {'figure':>10}  {'target':>10}  ok?", file=stream)
    for row in table:
        target = "" if row["target"] is None else _number(row["target"])
        verdict = {True: "yes", False: "NO", None: ""}[row["ok"]]
        print(f"{row['metric']:{width}}  {_number(row['figure']):>10}  {target:>10}  {verdict}",
              file=stream)  # fmt: skip


def _number(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, int) or (isinstance(value, float) and value >= 1000):
        return f"{value:,.0f}"
    return f"{value:g}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=1000, help="taps timed (default 1000)")
    parser.add_argument("--starts", type=int, default=10, help="cold starts per display")
    parser.add_argument("--idle-seconds", type=float, default=10.0, help="idle window (s)")
    parser.add_argument("--rounds", type=int, default=300_000, help="simulated rounds per city")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write JSON")
    parser.add_argument(
        "--no-x11", action="store_true", help="skip the idle figure on Xvfb even if it is there"
    )
    parser.add_argument(
        "--fsync-delay-ms", type=float, default=0.0,
        help="only measure press→frame with every fsync delayed this much against no delay",
    )  # fmt: skip
    parser.add_argument(
        "--save-first", action="store_true",
        help="with --fsync-delay-ms: time the old order (save, then draw)",
    )  # fmt: skip
    parser.add_argument(
        "--spi-bytes", action="store_true",
        help="only measure the Display HAT Mini's SPI bytes per press (--presses of them)",
    )  # fmt: skip
    parser.add_argument("--press-to-frame-child", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--block", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.press_to_frame_child:
        _press_to_frame_child(
            args.press_to_frame_child, args.fsync_delay_ms, args.block, args.save_first
        )
        return 0
    if args.fsync_delay_ms > 0:
        return _fsync_main(args, argv)
    if args.spi_bytes:
        if not panel_library():
            print(f"measure.py: {NO_PANEL_LIBRARY}", file=sys.stderr)
            return 2
        print(json.dumps(spi_bytes_per_press(args.presses), indent=1))
        return 0
    if args.presses < 1 or args.starts < 1 or args.idle_seconds <= 0 or args.rounds < 1:
        parser.error("counts must be positive")
    started = time.time()
    figures = measure(args.presses, args.starts, args.idle_seconds, args.rounds, not args.no_x11)
    table = checks(figures)
    print_table(table)
    record = {
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(started)),
        "seconds": round(time.time() - started, 1),
        "command": " ".join(["python", "benchmarks/measure.py", *(argv or sys.argv[1:])]),
        "machine": machine(),
        "settings": {
            "presses": args.presses,
            "starts": args.starts,
            "idle_seconds": args.idle_seconds,
            "rounds": args.rounds,
            "sdl_videodriver": "dummy",
        },
        "targets": TARGETS,
        "figures": figures,
        "table": table,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(record, indent=1) + "\n")
    print(f"written to {args.json}")
    return 0


def _fsync_main(args: argparse.Namespace, argv: list[str] | None) -> int:
    started = time.time()
    figures = press_to_frame_fsync_delayed(
        args.presses, args.fsync_delay_ms, save_first=args.save_first
    )
    for side in ("undelayed", "delayed"):
        frame, save = figures[side]["from_release_ms"], figures[side]["save_ms"]
        print(f"{side:10}  press→frame median {frame['median']} ms, p99 {frame['p99']} ms, "
              f"max {frame['max']} ms ({frame['count']} taps); save median {save['median']} ms, "
              f"min {save['min']} ms")  # fmt: skip
    print(f"fsync calls {figures['fsync_calls']}, delayed {figures['fsync_calls_delayed']}")
    print(f"p99 growth with every fsync delayed {args.fsync_delay_ms} ms: "
          f"{figures['p99_growth_ms']} ms")  # fmt: skip
    path = args.json if args.json != DEFAULT_JSON else DEFAULT_JSON.with_name("fsync-delay.json")
    record = {
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(started)),
        "command": " ".join(["python", "benchmarks/measure.py", *(argv or sys.argv[1:])]),
        "machine": machine(),
        "figures": figures,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1) + "\n")
    print(f"written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
