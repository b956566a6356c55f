"""The changed windows (nsdevice.displays.dirty) against the plainest way to find them:
every pixel compared, one band per run of changed rows closer than the gap."""

from __future__ import annotations

import random

from nsdevice.displays.dirty import MERGED_GAP, Window, changed_rows, changed_windows, parted


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


def test_a_window_cut_at_seams_covers_every_change_and_nothing_twice():
    """`parted` cuts a window at the layout's seams and keeps each part to its changed
    rows (issue 35): whatever the seams, every changed pixel is in exactly one window."""
    rng = random.Random(35)
    for _ in range(1500):
        width, height = rng.randint(2, 40), rng.randint(1, 40)
        before = rng.randbytes(width * height * 2)
        after = bytearray(before)
        for _ in range(rng.randint(1, 6)):
            x, y = rng.randrange(width), rng.randrange(height)
            for row in range(y, min(height, y + rng.randint(1, 9))):
                for column in range(x, min(width, x + rng.randint(1, 9))):
                    after[(row * width + column) * 2 + rng.randrange(2)] ^= 0x5A
        seams = [rng.randrange(-2, width + 2) for _ in range(rng.randint(0, 3))]
        owners: dict[tuple[int, int], Window] = {}
        for whole in changed_windows(before, bytes(after), width, height):
            for window in parted(before, bytes(after), width, whole, seams):
                assert whole.left <= window.left <= window.right <= whole.right
                assert whole.top <= window.top <= window.bottom <= whole.bottom
                for row in range(window.top, window.bottom + 1):
                    for column in range(window.left, window.right + 1):
                        assert (column, row) not in owners
                        owners[column, row] = window
        for row in range(height):
            for column in range(width):
                at = (row * width + column) * 2
                if before[at : at + 2] != after[at : at + 2]:
                    assert (column, row) in owners


def test_a_reveal_sends_the_card_and_the_count_but_not_the_notes_under_the_count():
    """The 2-inch turn, as the panel holds it: the card changes top to bottom on one
    side of its seam, the count at the top of the other, the notes under it stay. Cut
    at the seam, the notes' rows are not sent again."""
    width, height, seam = 320, 240, 175
    before = bytes(width * height * 2)
    after = bytearray(before)
    for row in range(28, 236):
        for column in range(3, seam - 2):
            after[(row * width + column) * 2] = 7  # the card
        for column in range(seam + 5, 315) if row < 60 else ():
            after[(row * width + column) * 2 + 1] = 7  # the count and its pips
    (whole,) = changed_windows(before, bytes(after), width, height)
    card, count = parted(before, bytes(after), width, whole, [seam])
    assert (card.left, card.top, card.right, card.bottom) == (3, 28, seam - 1, 235)
    assert (count.left, count.top, count.right, count.bottom) == (seam, 28, 314, 59)
    assert parted(before, bytes(after), width, whole, []) == [whole]  # no seam: as it was


def test_the_changed_rows_are_the_changed_windows_bands_as_whole_rows():
    rng = random.Random(36)
    for _ in range(800):
        width, height = rng.randint(1, 14), rng.randint(1, 45)
        before = rng.randbytes(width * height * 2)
        after = bytearray(before)
        for _ in range(rng.randint(0, 9)):
            after[rng.randrange(len(after))] ^= rng.randint(1, 255)
        bands = [Window(0, w.top, width - 1, w.bottom)
                 for w in changed_windows(before, bytes(after), width, height)]  # fmt: skip
        assert changed_rows(before, bytes(after), width, height) == bands
    assert changed_rows(None, bytes(8), 2, 2) == [Window(0, 0, 1, 1)]  # a first frame: whole


def test_windows_not_narrowed_row_by_row_still_cover_every_change():
    """Without `row_by_row` a band the quick look from both sides does not narrow keeps
    every column (issue 35): the same bands, each at least as wide, covering every change."""
    rng = random.Random(37)
    for _ in range(800):
        width, height = rng.randint(1, 30), rng.randint(1, 45)
        before = rng.randbytes(width * height * 2)
        after = bytearray(before)
        for _ in range(rng.randint(1, 9)):
            after[rng.randrange(len(after))] ^= rng.randint(1, 255)
        narrow = changed_windows(before, bytes(after), width, height)
        quick = changed_windows(before, bytes(after), width, height, row_by_row=False)
        assert [(w.top, w.bottom) for w in quick] == [(w.top, w.bottom) for w in narrow]
        for q, n in zip(quick, narrow, strict=True):
            assert q.left <= n.left and n.right <= q.right
            assert (q.left, q.right) in ((n.left, n.right), (0, width - 1))
