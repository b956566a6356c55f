"""The changed windows (nsdevice.displays.dirty) against the plainest way to find them:
every pixel compared, one band per run of changed rows closer than the gap."""

from __future__ import annotations

import random

from nsdevice.displays.dirty import MERGED_GAP, Window, changed_windows


def pixel_by_pixel(before: bytes, after: bytes, width: int, height: int) -> list[Window]:
    def changed(x: int, y: int) -> bool:
        at = (y * width + x) * 2
        return before[at : at + 2] != after[at : at + 2]

    rows = [y for y in range(height) if any(changed(x, y) for x in range(width))]
    bands: list[list[int]] = []
    for y in rows:
        if bands and y - bands[-1][1] <= MERGED_GAP:
            bands[-1][1] = y
        else:
            bands.append([y, y])
    windows = []
    for top, bottom in bands:
        columns = [x for y in range(top, bottom + 1) for x in range(width) if changed(x, y)]
        windows.append(Window(min(columns), top, max(columns), bottom))
    return windows


def test_the_windows_are_those_a_pixel_by_pixel_search_finds():
    rng = random.Random(23)
    for _ in range(1500):
        width, height = rng.randint(1, 14), rng.randint(1, 45)
        before = rng.randbytes(width * height * 2)
        after = bytearray(before)
        for _ in range(rng.randint(1, 9)):
            after[rng.randrange(len(after))] ^= rng.randint(1, 255)
        assert changed_windows(before, bytes(after), width, height) == pixel_by_pixel(
            before, bytes(after), width, height
        )
