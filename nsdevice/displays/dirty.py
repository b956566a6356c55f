"""Which parts of a frame changed: the rectangles to send a panel again.

Frames are raw pictures, row after row, `pixel_bytes` per pixel (RGB565: 2). Only whole
rows and row prefixes/suffixes are compared, each one C-level bytes comparison, so a
320×240 frame costs a few hundred comparisons, not 76,800 pixel steps in Python.
"""

from __future__ import annotations

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
        left = _first_change(before, after, starts, width, pixel_bytes)
        right = _last_change(before, after, [start + pitch for start in starts], width, pixel_bytes)
        windows.append(Window(left, top, right, bottom))
    return windows


def _differ(before: bytes, after: bytes, start: int, length: int) -> bool:
    return before[start : start + length] != after[start : start + length]


def _first_change(before: bytes, after: bytes, starts: list[int], width: int, size: int) -> int:
    """The leftmost pixel that differs in any of the rows starting at `starts`. Each row
    costs one comparison of the part left of the best so far, and a search only when it
    changes there: a few hundred comparisons a band, not a search in every row."""
    best = width
    for start in starts:
        if not _differ(before, after, start, best * size):
            continue
        low, high = 0, best - 1  # the row differs left of `best`: find where
        while low < high:
            middle = (low + high) // 2
            if _differ(before, after, start, (middle + 1) * size):
                high = middle
            else:
                low = middle + 1
        best = low
        if best == 0:
            break
    return best


def _last_change(before: bytes, after: bytes, ends: list[int], width: int, size: int) -> int:
    """The rightmost pixel that differs in any of the rows ending at `ends`, the same way."""
    best = -1  # rightmost changed column so far
    for end in ends:
        tail = (width - 1 - best) * size  # the part right of `best`
        if not _differ(before, after, end - tail, tail):
            continue
        low, high = best + 1, width - 1
        while low < high:
            middle = (low + high + 1) // 2
            length = (width - middle) * size
            if _differ(before, after, end - length, length):
                low = middle
            else:
                high = middle - 1
        best = low
        if best == width - 1:
            break
    return best


def window_bytes(frame: bytes, width: int, window: Window, pixel_bytes: int = 2) -> bytes:
    """The pixels inside `window`, row after row, as a panel takes them after RAMWR."""
    pitch = width * pixel_bytes
    if window.width == width:  # whole rows: one slice
        return frame[window.top * pitch : (window.bottom + 1) * pitch]
    first, last = window.left * pixel_bytes, (window.right + 1) * pixel_bytes
    rows = range(window.top, window.bottom + 1)
    return b"".join(frame[row * pitch + first : row * pitch + last] for row in rows)
