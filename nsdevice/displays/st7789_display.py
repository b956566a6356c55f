"""The SPI panel of the Pimoroni Display HAT Mini (320×240, ST7789), through Pimoroni's
`st7789` library (1.0 or later, which uses gpiod and works on the Pi 5).

Frames are painted into an off-screen pygame Surface (no SDL video needed), converted
to the panel's RGB565 by an SDL blit and sent as the library's `set_window()` and
`data()` would send them, but each run of bytes as one `spidev.writebytes2()` call: the
library's `data()` goes through `xfer()`, which turns every byte into a Python int and
back (about 150 instructions a byte on a Cortex-A53, against under one for
`writebytes2`). We do not use its `display(image)`: that wants a PIL image (or a numpy
array) and converts it with numpy on every frame; the blit does the same conversion in
C and needs neither Pillow nor a numpy copy, which matters on a Pi Zero 2 W.

Only what changed is sent: the panel keeps its picture, so each frame goes out as the
windows around the pixels that differ from the last one sent (`dirty.changed_windows`),
instead of the whole 153,600 bytes every time.

Brightness: st7789 1.0 switches the backlight only on or off (a plain gpiod line,
no PWM), so levels 1-5 dim the picture itself and the backlight goes off only at 0.
"""

from __future__ import annotations

import struct
import sys
import types
from array import array
from collections.abc import Callable
from typing import Any, Protocol, Self, cast

import pygame

from nsdevice.displays import BRIGHTNESS_LEVELS, DisplayUnavailable
from nsdevice.displays.dirty import (
    Window,
    changed_rows,
    changed_windows,
    parted,
)
from nsdevice.displays.painted import PaintedDisplay
from nsdevice.displays.painter import Painter
from nsdevice.inputs.events import Inbox

# The share of full brightness at each level: the steps look even to the eye, and level 1
# still reads in a dark room.
DIMMING = {0: 0.0, 1: 0.3, 2: 0.45, 3: 0.62, 4: 0.8, 5: 1.0}
INSTALL_HINT = "st7789 library not installed: pip install 'nsdevice[pi]'"
# The controller's commands that place a window and fill it (as the library sends them).
CASET, RASET, RAMWR = b"\x2a", b"\x2b", b"\x2c"
PAINTED_BYTES = 4  # a pixel of the painted picture (32 bits): where changes are found


class Panel(Protocol):
    """The part of `st7789.ST7789` we use (tests pass a fake with the same methods)."""

    def set_window(
        self, x0: int = 0, y0: int = 0, x1: int | None = None, y1: int | None = None
    ) -> None: ...
    def data(self, data: bytes) -> None: ...
    def set_backlight(self, value: bool) -> None: ...


class St7789Display(PaintedDisplay):
    """The panel. Its keyword arguments are a hardware profile's `[display]` fields, by the
    same names, so a profile opens it as it stands."""

    supports_brightness = True

    def __init__(
        self,
        *,
        spi_port: int = 0,
        spi_chip_select: int = 1,
        data_command_pin: int = 9,
        backlight_pin: int = 13,
        rotation: int = 180,
        spi_speed_hz: int = 60_000_000,
        width: int = 320,
        height: int = 240,
        panel: Panel | None = None,
        diagonal_inches: float | None = 2.0,  # the Display HAT Mini's panel
    ) -> None:
        if rotation not in (0, 90, 180, 270):
            raise ValueError(f"rotation must be 0, 90, 180 or 270, not {rotation}")
        if panel is None:
            panel = _open_panel(
                port=spi_port,
                cs=spi_chip_select,
                dc=data_command_pin,
                backlight=backlight_pin,
                rotation=rotation,
                spi_speed_hz=spi_speed_hz,
                width=width,
                height=height,
            )
        self._panel = panel
        self._rotation = rotation
        # 90 and 270 turn the picture a quarter: we paint upright, the panel is sideways
        self.size = (height, width) if rotation in (90, 270) else (width, height)
        self._canvas = pygame.Surface(self.size)
        self._panel_size = (width, height)
        self._painter = Painter(diagonal_inches=diagonal_inches)
        self._level = BRIGHTNESS_LEVELS
        # the panel's picture, what we last sent it: one buffer rewritten in place after each
        # push (a new copy each time held two frames at once, 300 kB more, issue 35)
        self._sent: bytearray | None = None
        self._send = _window_sender(panel)

    @classmethod
    def open(cls, size: tuple[int, int], **options: Any) -> Self:
        width, height = size
        return cls(width=width, height=height, **options)

    @property
    def _surface(self) -> pygame.Surface:  # type: ignore[override]
        return self._canvas

    def _present(self) -> None:
        self._push()  # only the pixels that differ go over SPI

    def frame(self) -> bytes:
        """The current picture in the panel's format: RGB565, big-endian, row by row."""
        return _big_endian(self._native_frame())

    def _native_frame(self) -> bytes:
        """The whole picture as the panel is turned, RGB565 in this machine's byte order
        (`frame`; a push converts only its windows)."""
        # made here, not kept: a push converts only its windows, so the whole picture in
        # 16 bits is asked for by screenshots and checks alone (150 kB held for nothing)
        upright = pygame.Surface(self.size, 0, 16)  # SDL's 16 bit is RGB565
        upright.blit(self._picture(), (0, 0))  # to 16 bits first: half the bytes to turn
        frame = _turned(upright, self._rotation)
        width, height = frame.get_size()
        raw = frame.get_buffer().raw
        pitch = frame.get_pitch()
        if pitch != width * 2:  # rows padded in memory: keep only the pixels
            raw = b"".join(raw[row * pitch : row * pitch + width * 2] for row in range(height))
        return raw

    def _picture(self) -> pygame.Surface:
        """The painted picture at the brightness level: the canvas, or a dimmed copy."""
        factor = DIMMING[self._level]
        if factor >= 1.0:
            return self._canvas
        picture = self._canvas.copy()
        shade = round(255 * factor)
        picture.fill((shade, shade, shade), special_flags=pygame.BLEND_MULT)
        return picture

    def _push(self) -> None:
        """The windows round what changed since the last frame sent, found in the painted
        picture itself (32 bits, upright), and only their pixels made RGB565 and turned
        for the panel (`_for_panel`): converting the whole frame to find them cost 0.87 M
        instructions a press on the Zero 2 W, a reveal's windows about half of that
        (issue 35). The layout's seams cut a band in parts (`dirty.parted`)."""
        picture = self._picture()
        width, height = self.size
        seams = self.drawing.seams if self.drawing is not None else ()
        sent = self._sent
        with _pixels(picture) as painted:  # the picture itself, not a copy
            if seams and sent is not None:  # whole rows, cut at the seams
                rows = changed_rows(sent, painted, width, height, PAINTED_BYTES)
                windows = [
                    part
                    for band in rows
                    for part in parted(sent, painted, width, band, seams, PAINTED_BYTES)
                ]
            else:
                windows = changed_windows(
                    sent, painted, width, height, PAINTED_BYTES, row_by_row=False
                )
        if not windows:
            return
        # forgotten first: if a transfer fails half-way, the next frame goes out whole
        self._sent = None
        for window in windows:  # (the view let go: a locked surface cannot be blitted)
            self._send(*_for_panel(picture, window, self._rotation))
        kept = sent if sent is not None else bytearray(picture.get_pitch() * height)
        with _pixels(picture) as painted, memoryview(kept) as copy:
            copy[:] = painted  # in place (a bytearray's own slice takes a copy first)
        self._sent = kept

    def inbox(self) -> Inbox | None:
        return None  # the HAT's buttons are GPIO inputs, read by the GPIO back end

    def set_brightness(self, level: int) -> None:
        level = max(0, min(BRIGHTNESS_LEVELS, level))
        if level == self._level:
            return
        self._level = level
        self._panel.set_backlight(level > 0)
        if level > 0 and self.drawing is not None:
            self._push()  # show the new level now, not at the next change of screen

    def chime(self, name: str) -> None:
        pass  # the HAT has no speaker

    def close(self) -> None:
        self._panel.set_backlight(False)  # "unplug when the screen goes dark"


def _pixels(picture: pygame.Surface) -> memoryview:
    """The picture's own bytes, row after row, not a copy: the surface stays locked (no
    blit from it) until the view is released."""
    return memoryview(cast(Any, picture.get_buffer()))  # (pygame's stubs: no Buffer)


def _for_panel(picture: pygame.Surface, window: Window, rotation: int) -> tuple[Window, bytes]:
    """A window of the painted picture as the panel takes it: where it lands on the panel
    turned by `rotation`, and its pixels in RGB565, high byte first, row after row. Only
    the window is converted (an SDL blit to 16 bits), a column (or, turned a quarter, a
    row) wider where its 16-bit rows would otherwise be padded to 4 bytes."""
    width, height = picture.get_size()
    quarter = rotation in (90, 270)
    if (window.height if quarter else window.width) % 2:
        window = _widened(window, width, height, tall=quarter)
    part = pygame.Surface((window.width, window.height), 0, 16)  # SDL's 16 bit is RGB565
    part.blit(picture, (0, 0), (window.left, window.top, window.width, window.height))
    if rotation == 180 and sys.byteorder == "little":
        pixels = _half_turned_swapped(part)
    else:
        pixels = _big_endian(_turned(part, rotation).get_buffer().raw)
    left, top, right, bottom = window.left, window.top, window.right, window.bottom
    if rotation == 180:
        placed = Window(width - 1 - right, height - 1 - bottom, width - 1 - left, height - 1 - top)
    elif rotation == 90:
        placed = Window(top, width - 1 - right, bottom, width - 1 - left)
    elif rotation == 270:
        placed = Window(height - 1 - bottom, left, height - 1 - top, right)
    else:
        placed = window
    return placed, pixels


def _half_turned_swapped(part: pygame.Surface) -> bytes:
    """A 16-bit picture (rows not padded) turned a half and in the panel's byte order, in
    one step: on a little-endian machine both are the picture's bytes backwards, which an
    8-bit view of them turned a half gives (one C loop; the flip and `array.byteswap` it
    replaces cost 0.37 M instructions of a Zero 2 W for a 172×208 window, this 0.20 M).
    The 8-bit picture is a surface of its own the bytes are copied into, not
    `pygame.image.frombuffer`'s view of them: pygame.image is not loaded for it (issue 35:
    0.1 MB of the box's memory, and its library's pages). Its rows, twice the width in
    bytes, are never padded: `_for_panel` makes the width even."""
    width, height = part.get_size()
    as_bytes = pygame.Surface((width * 2, height), 0, 8)
    as_bytes.get_buffer().write(part.get_buffer().raw)
    return bytes(pygame.transform.rotate(as_bytes, 180).get_buffer().raw)


def _turned(picture: pygame.Surface, rotation: int) -> pygame.Surface:
    """`picture` turned as the panel is mounted. The library turns images with
    numpy.rot90 (anticlockwise); pygame's rotate turns anticlockwise too, so the picture
    lands the same way up; a half turn is a flip both ways, at a third of rotate's cost."""
    if rotation == 180:
        return pygame.transform.flip(picture, True, True)
    if rotation:
        return pygame.transform.rotate(picture, rotation)
    return picture


def _widened(window: Window, width: int, height: int, *, tall: bool) -> Window:
    """`window` one column (or, `tall`, one row) larger: to the right (below) where the
    picture goes on, else to the left (above)."""
    if tall:
        lower = window.bottom + 1 < height
        return Window(window.left, window.top - (not lower), window.right, window.bottom + lower)
    wider = window.right + 1 < width
    return Window(window.left - (not wider), window.top, window.right + wider, window.bottom)


def _big_endian(pixels: bytes) -> bytes:
    """RGB565 words in the panel's byte order (high byte first) from this machine's."""
    if sys.byteorder == "big":
        return pixels
    words = array("H")
    words.frombytes(pixels)
    words.byteswap()
    return words.tobytes()


def _window_sender(panel: Panel) -> Callable[[Window, bytes], None]:
    """How a window of pixels reaches the panel: through the library's own SPI device and
    data/command line with `writebytes2` (st7789 1.0's `_spi`, `_dc` and `set_pin`), the
    same bytes `set_window()` and `data()` send; through those two where they are absent
    (an older library, or a test's stand-in)."""
    spi = getattr(panel, "_spi", None)
    write = getattr(spi, "writebytes2", None)
    set_pin = getattr(panel, "set_pin", None)
    line = getattr(panel, "_dc", None)
    if write is None or set_pin is None or line is None:

        def through_library(window: Window, pixels: bytes) -> None:
            panel.set_window(window.left, window.top, window.right, window.bottom)
            panel.data(pixels)

        return through_library
    left = getattr(panel, "_offset_left", 0)
    top = getattr(panel, "_offset_top", 0)

    def written(window: Window, pixels: bytes) -> None:
        columns = struct.pack(">HH", window.left + left, window.right + left)
        rows = struct.pack(">HH", window.top + top, window.bottom + top)
        for command, data in ((CASET, columns), (RASET, rows), (RAMWR, pixels)):
            set_pin(line, False)  # a command
            write(command)
            set_pin(line, True)  # its data
            write(data)

    return written


class _NumpyOnFirstUse(types.ModuleType):
    """Stands for numpy inside st7789: imports the real one when the library first uses
    it (only its `display(image)`, which we never call)."""

    def __getattr__(self, name: str) -> Any:
        import numpy

        return getattr(numpy, name)


def _import_library() -> Any:
    """st7789, without numpy: the library imports it at once, but numpy is about a fifth
    of the HAT build's start on a Cortex-A53 and several megabytes of memory, and nothing
    we call needs it."""
    if "numpy" in sys.modules or "st7789" in sys.modules:
        import st7789

        return st7789
    stand_in = _NumpyOnFirstUse("numpy")
    sys.modules["numpy"] = stand_in
    try:
        import st7789
    finally:
        if sys.modules.get("numpy") is stand_in:  # others importing numpy get the real one
            del sys.modules["numpy"]
    return st7789


def _open_panel(**settings: Any) -> Panel:
    try:
        st7789 = _import_library()  # late: only a Pi with the HAT has it
    except ImportError:
        raise DisplayUnavailable(INSTALL_HINT) from None
    try:
        panel: Panel = st7789.ST7789(**settings)
    except (OSError, RuntimeError, ValueError) as error:  # no SPI device, pin busy, ...
        raise DisplayUnavailable(f"SPI panel did not start: {error}") from None
    return panel
