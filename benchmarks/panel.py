"""The Display HAT Mini's panel: a frame painted and converted to RGB565, and the SPI
bytes each press sends through the real st7789 library over a fake bus."""

from __future__ import annotations

import functools
import os
import random
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.figures import patched, summary  # noqa: E402
from benchmarks.presses import Player, Timer  # noqa: E402


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
    """The Display HAT Mini's show() without the SPI bus: paint at 320x240, then find
    what changed and convert it to the panel's RGB565 bytes, over the screens of real
    play (`convert_ms` is the whole push: the windows found, converted and handed over)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from nsdevice.displays.st7789_display import St7789Display
    from nsdevice.inputs.events import Press
    from nsdevice.rules.deal import draw_seed
    from nsdevice.session import Session, Settings

    rng = random.Random(seed)
    panel = _FakePanel()
    display = St7789Display(panel=panel)
    paint = Timer(display._painter.paint)
    display._painter.paint = paint  # type: ignore[method-assign]
    # the push: the changed windows found in the painted picture, each converted to
    # RGB565, turned and byte-swapped (issue 35: only the windows are converted)
    convert = Timer(display._push)
    display._push = convert  # type: ignore[method-assign]
    from nsdevice.displays import st7789_display

    window = Timer(st7789_display.changed_windows)
    rows = Timer(st7789_display.changed_rows)  # where the layout's seams cut the bands
    session = Session(Settings(language="en"), seed_source=lambda: draw_seed(rng))
    player = Player(rng)
    with (
        patched(st7789_display, "changed_windows", window),
        patched(st7789_display, "changed_rows", rows),
    ):
        for _ in range(frames):
            display.show(session.view())
            session.press(Press.parse(player.choose(session.view())))
    return {
        "frames": frames,
        "bytes_per_frame": panel.sent,
        "paint_ms": summary(paint.took, 1000),
        "convert_ms": summary(convert.took, 1000),
        "changed_window_ms": summary([*window.took, *rows.took], 1000),
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
    from nsdevice.hardware.profiles import load_profile
    from nsdevice.inputs.events import Press
    from nsdevice.rules.deal import draw_seed
    from nsdevice.session import Session, Settings

    spec = load_profile("display-hat-mini").display
    speed = spec.spi_speed_hz or 4_000_000  # the library's default when a profile has none
    figures: dict[str, Any] = {"profile": "display-hat-mini", "spi_speed_hz": speed}
    for how in ("window", "whole"):
        rng = random.Random(seed)
        session = Session(Settings(language="en"), seed_source=functools.partial(draw_seed, rng))
        player = Player(rng)
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
