"""Which parts of a frame changed: the rectangles to send a panel again.

Frames are raw pictures, row after row, `pixel_bytes` per pixel (RGB565: 2). Only whole
rows and row prefixes/suffixes are compared, each one C-level bytes comparison, so a
320×240 frame costs a few hundred comparisons, not 76,800 pixel steps in Python.

`before` is the copy kept of what was sent (bytes, or a bytearray rewritten in place);
`after` may be a view of the picture itself (a memoryview), so that finding what changed
copies no frame. Every comparison is asked of `before`: a bytearray compares with any
buffer as one `memcmp`, where a memoryview asked first compares byte by byte.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from nsdevice.rules.frozen import dataclass

# Unchanged rows between two changed bands that are cheaper to send again than to start a
# second window for: a window costs 11 tiny SPI transfers (CASET, RASET, RAMWR and their
# bytes), each a system call, worth a few kilobytes of pixels on the bus.
MERGED_GAP = 8
# Rows compared at once when looking for the changed ones; at most MERGED_GAP, so that the
# rows of one block always fall in one band.
BLOCK = 8

Kept = bytes | bytearray  # the frame sent last
Frame = bytes | memoryview  # the frame now


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
    before: Kept | None,
    after: Frame,
    width: int,
    height: int,
    pixel_bytes: int = 2,
    gap: int = MERGED_GAP,
    *,
    row_by_row: bool = True,
) -> list[Window]:
    """Rectangles, top to bottom, that together cover every pixel that differs: one per
    band of changed rows, each as narrow as its changes allow. Bands closer than `gap`
    unchanged rows share one rectangle. All of the frame when there is no `before`;
    none when nothing changed. Without `row_by_row`, a band whose changes the quick look
    from both sides does not find (`_columns`) keeps every column: small changes strewn
    over a tall band (a round's start after the pencil pass) cost 1.6 M instructions of
    the Zero 2 W to narrow row by row, more than the bus time of the ground they spare."""
    rows = changed_rows(before, after, width, height, pixel_bytes, gap)
    if before is None or len(before) != len(after):
        return rows  # the whole frame: nothing to narrow it against
    windows = []
    for band in rows:
        left, right = _columns(before, after, band.top, band.bottom, width, pixel_bytes, row_by_row)
        windows.append(Window(left, band.top, right, band.bottom))
    return windows


def changed_rows(
    before: Kept | None,
    after: Frame,
    width: int,
    height: int,
    pixel_bytes: int = 2,
    gap: int = MERGED_GAP,
) -> list[Window]:
    """The bands of `changed_windows` as whole rows, their columns not looked for: where
    a layout's seams cut each band anyway (`parted`), the search for its two ends costs
    more than the few columns of ground it would leave out (issue 35)."""
    if before is None or len(before) != len(after):
        return [Window(0, 0, width - 1, height - 1)]
    if before == after:
        return []
    bands = _bands(before, after, height, width * pixel_bytes, gap)
    return [Window(0, top, width - 1, bottom) for top, bottom in bands]


def _differ(before: Kept, after: Frame, start: int, length: int) -> bool:
    return before[start : start + length] != after[start : start + length]


def _bands(before: Kept, after: Frame, height: int, pitch: int, gap: int) -> list[list[int]]:
    """[first row, last row] of each band of changed rows. Rows are compared BLOCK at a
    time, and row by row only where a band may start or end: within a block the rows are
    closer than `gap`, so they are one band whatever lies between; and two changed blocks
    side by side are one band when a row either side of their boundary changed (then
    their changes are at most BLOCK rows apart), which one comparison tells. A band's
    last row is looked for once, when it ends (issue 35: a reveal's band of 26 blocks was
    about 100 row comparisons, 0.35 M instructions on the Zero 2 W)."""
    bands: list[list[int]] = []
    block = BLOCK * pitch
    open_block = -1  # the first row of the changed block the open band's last row is in
    now = memoryview(after)

    def last_row(first: int) -> int:
        bottom = min(first + BLOCK, height) - 1
        while before.startswith(now[bottom * pitch : (bottom + 1) * pitch], bottom * pitch):
            bottom -= 1
        return bottom

    # comparisons written out, each a view of `after` matched in place in `before`
    # (`startswith`: nothing copied; a copied slice was a third of the cost): the hot loop
    for start in range(0, height * pitch, block):
        if before.startswith(now[start : start + block], start):
            continue
        first = start // pitch
        beside = open_block >= 0 and first == open_block + BLOCK
        if beside and not before.startswith(now[start - pitch : start + pitch], start - pitch):
            open_block = first  # the band goes on into this block
            continue
        if open_block >= 0:
            bands[-1][1] = last_row(open_block)
        top = first
        while before.startswith(now[top * pitch : (top + 1) * pitch], top * pitch):
            top += 1
        if not (bands and top - bands[-1][1] <= gap):
            bands.append([top, top])
        open_block = first
    if open_block >= 0:
        bands[-1][1] = last_row(open_block)
    return bands


def _columns(
    before: Kept, after: Frame, top: int, bottom: int, width: int, size: int,
    row_by_row: bool = True,
) -> tuple[int, int]:  # fmt: skip
    """The leftmost and rightmost pixel that differ in rows `top`..`bottom`.

    A tall band whose changes come near both sides of the picture (a reveal: the card on
    the left, the notes on the right) is read a column at a time from each side in turn:
    one strided slice takes a column's byte from every row, so a column costs a few steps
    whatever the band's height. Past a sixth of the band's height in columns (about half of
    what reading its rows costs), the rows are read instead, one comparison a row (issue
    23: a reveal's band 1.33 M → 0.59 M instructions on the Zero 2 W; a band changed on one
    side only pays the columns in vain, 1.30 M → 1.79 M for the card alone)."""
    pitch = width * size
    first, end = top * pitch, (bottom + 1) * pitch

    def changed(column: int) -> bool:
        at = first + column * size
        return any(
            # (a strided view has no single buffer: it compares byte by byte, a column's)
            before[at + byte : end : pitch] != after[at + byte : end : pitch]
            for byte in range(size)
        )

    left, right = 0, width - 1
    found_left = found_right = False
    for _ in range(max(2, (bottom - top + 1) // 6)):
        if not found_left:
            found_left = changed(left)
            left += not found_left
        elif not found_right:
            found_right = changed(right)
            right -= not found_right
        if found_right or left > right:  # (both found: the left is looked for first)
            break
    if found_left and found_right:
        return left, right
    if not row_by_row:
        return 0, width - 1
    return _by_rows(before, after, top, bottom, width, size)


def _by_rows(
    before: Kept, after: Frame, top: int, bottom: int, width: int, size: int
) -> tuple[int, int]:
    """The leftmost and rightmost pixel that differ in rows `top`..`bottom`. One comparison
    a row: the end of a row and the start of the next lie side by side in the frame, so
    the part right of the rightmost change so far and the part left of the leftmost are
    compared together; only where that differs is each side looked at on its own."""
    pitch = width * size
    left, right = width, -1  # no change seen yet: everything is "outside" the window
    for row in range(top, bottom + 2):
        start = row * pitch
        tail = (width - 1 - right) * size if row > top else 0  # the row above's right part
        head = left * size if row <= bottom else 0
        if before[start - tail : start + head] == after[start - tail : start + head]:
            continue
        if tail and _differ(before, after, start - tail, tail):
            right = _rightmost(before, after, start, right, width, size)
        if head and _differ(before, after, start, head):
            left = _leftmost(before, after, start, left, size)
    return left, right


def _leftmost(before: Kept, after: Frame, start: int, left: int, size: int) -> int:
    """The first changed pixel of the row at `start`, known to be left of `left`."""
    low, high = 0, left - 1
    while low < high:
        middle = (low + high) // 2
        if _differ(before, after, start, (middle + 1) * size):
            high = middle
        else:
            low = middle + 1
    return low


def _rightmost(before: Kept, after: Frame, end: int, right: int, width: int, size: int) -> int:
    """The last changed pixel of the row ending at `end`, known to be right of `right`."""
    low, high = right + 1, width - 1
    while low < high:
        middle = (low + high + 1) // 2
        length = (width - middle) * size
        if _differ(before, after, end - length, length):
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


# What one more window costs, in bytes of pixels: its 11 small SPI transfers and the
# Python round them, against the bus time of the bytes a cut leaves out.
WINDOW_BYTES = 1024


def parted(
    before: Kept,
    after: Frame,
    width: int,
    window: Window,
    seams: Sequence[int],
    pixel_bytes: int = 2,
) -> list[Window]:
    """`window` cut at each seam inside it (a column where a part of the picture starts:
    the layout's, `Drawing.seams`), each part kept only to the rows where it changed; or
    the window whole, when that sends fewer bytes (counting WINDOW_BYTES a window). A
    reveal on the 2-inch turn changes the card top to bottom and, beside it, the count at
    the top: one window round both sends the unchanged notes under the count again (issue
    35). Any cut covers every change: each part is the window's full height first."""
    columns = sorted({c for c in seams if window.left < c <= window.right})
    if not columns:
        return [window]
    pitch = width * pixel_bytes
    edges = [window.left, *columns, window.right + 1]
    parts = []
    for left, end in pairwise(edges):
        part = _changed_rows(
            before, after, pitch, pixel_bytes, Window(left, window.top, end - 1, window.bottom)
        )
        if part is not None:
            parts.append(part)
    sent = sum(part.width * part.height * pixel_bytes + WINDOW_BYTES for part in parts)
    return parts if sent < window.width * window.height * pixel_bytes + WINDOW_BYTES else [window]


def _changed_rows(before: Kept, after: Frame, pitch: int, size: int, part: Window) -> Window | None:
    """`part` from its first changed row to its last; None when nothing in it changed.
    Each row is one view of `after` matched in place in `before` (`startswith`: nothing
    copied), its offsets stepped rather than worked out: the hot loop of a reveal, down the
    unchanged notes beside the card (issue 35)."""
    width = (part.right - part.left + 1) * size
    top, bottom = part.top, part.bottom
    start = top * pitch + part.left * size
    now = memoryview(after)  # views: nothing copied
    while top <= bottom and before.startswith(now[start : start + width], start):
        top += 1
        start += pitch
    if top > bottom:
        return None
    start = bottom * pitch + part.left * size
    while before.startswith(now[start : start + width], start):
        bottom -= 1
        start -= pitch
    return Window(part.left, top, part.right, bottom)
