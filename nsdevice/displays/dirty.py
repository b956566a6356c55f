"""Which parts of a frame changed: the rectangles to send a panel again.

Frames are raw pictures, row after row, `pixel_bytes` per pixel (RGB565: 2). Only whole
rows and row prefixes/suffixes are compared, each one C-level bytes comparison, so a
320×240 frame costs a few hundred comparisons, not 76,800 pixel steps in Python.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

# Unchanged rows between two changed bands that are cheaper to send again than to start a
# second window for: a window costs 11 tiny SPI transfers (CASET, RASET, RAMWR and their
# bytes), each a system call, worth a few kilobytes of pixels on the bus.
MERGED_GAP = 8


@dataclass(frozen=True, slots=True)
class Window:
    """Columns `left`..`right` and rows `top`..`bottom`, ends included (as CASET/RASET)."""

    left: int
    top: int
    right: int
    bottom: int

    @property
    def width(self) -> int:
        return self.right - self.left + 1

    @property
    def height(self) -> int:
        return self.bottom - self.top + 1


def changed_windows(
    before: bytes | None,
    after: bytes,
    width: int,
    height: int,
    pixel_bytes: int = 2,
    gap: int = MERGED_GAP,
) -> list[Window]:
    """Rectangles, top to bottom, that together cover every pixel that differs: one per
    band of changed rows, each as narrow as its changes allow. Bands closer than `gap`
    unchanged rows share one rectangle. All of the frame when there is no `before`;
    none when nothing changed."""
    if before is None or len(before) != len(after):
        return [Window(0, 0, width - 1, height - 1)]
    if before == after:
        return []
    pitch = width * pixel_bytes
    bands: list[list[int]] = []  # [first row, last row]
    for row in range(height):
        if _differ(before, after, row * pitch, pitch):
            if bands and row - bands[-1][1] <= gap:
                bands[-1][1] = row
            else:
                bands.append([row, row])
    windows = []
    for top, bottom in bands:
        starts = [row * pitch for row in range(top, bottom + 1)]

        def same_start(pixels: int, starts: list[int] = starts) -> bool:
            length = pixels * pixel_bytes
            return not any(_differ(before, after, start, length) for start in starts)

        def same_end(pixels: int, starts: list[int] = starts) -> bool:
            length = pixels * pixel_bytes
            return not any(
                _differ(before, after, start + pitch - length, length) for start in starts
            )

        windows.append(
            Window(_longest(same_start, width), top, width - 1 - _longest(same_end, width), bottom)
        )
    return windows


def _differ(before: bytes, after: bytes, start: int, length: int) -> bool:
    return before[start : start + length] != after[start : start + length]


def _longest(holds: Callable[[int], bool], most: int) -> int:
    """The largest n in 0..most for which `holds(n)` is true, `holds` being true up to
    some n and false beyond (holds(0) is always true)."""
    low, high = 0, most
    while low < high:
        middle = (low + high + 1) // 2
        if holds(middle):
            low = middle
        else:
            high = middle - 1
    return low


def window_bytes(frame: bytes, width: int, window: Window, pixel_bytes: int = 2) -> bytes:
    """The pixels inside `window`, row after row, as a panel takes them after RAMWR."""
    pitch = width * pixel_bytes
    if window.width == width:  # whole rows: one slice
        return frame[window.top * pitch : (window.bottom + 1) * pitch]
    first, last = window.left * pixel_bytes, (window.right + 1) * pixel_bytes
    rows = range(window.top, window.bottom + 1)
    return b"".join(frame[row * pitch + first : row * pitch + last] for row in rows)
