"""The bundled font's own numbers, read from its file: its vertical measures and each
letter's advance in font units, with no size set and no glyph loaded.

Why read the file: FreeType loads, hints and renders a letter at every size it is asked
about, about 40,000 instructions a letter on the Pi Zero 2 W. Fitting tries sizes; from
these numbers a line's height at any size is exact (pygame.font's own arithmetic,
`FontFile.line`) and a width is a close guess (`FontFile.units`), so that only the sizes a
fit lands on are measured by FreeType (text_fit.Estimates).
"""

from __future__ import annotations

import bisect
import struct
from collections.abc import Callable
from pathlib import Path

from nsdevice.rules.frozen import dataclass

LETTERS_KEPT = 4096  # advances remembered: more than the letters of every catalog


@dataclass(frozen=True, slots=True)
class Line:
    """pygame.font's measures of a line at one point size, in pixels."""

    height: int
    ascent: int
    linesize: int


def _mul_fix(a: int, b: int) -> int:
    """FreeType's FT_MulFix: a × b / 65536, rounded half away from zero."""
    product = (abs(a) * abs(b) + 0x8000) >> 16
    return -product if (a < 0) != (b < 0) else product


def _ceil_pixels(value: int) -> int:
    """A 26.6 fixed-point length rounded up to whole pixels (FreeType's FT_CEIL)."""
    return (value + 63) >> 6


class FontFile:
    """A TrueType file's units per em, ascender, descender and line gap, and its letters'
    advances (cmap formats 4 and 12, hmtx), read once."""

    def __init__(self, path: str) -> None:
        data = Path(path).read_bytes()
        (count,) = struct.unpack_from(">H", data, 4)
        tables = {
            data[12 + 16 * i : 16 + 16 * i].decode("latin-1"): struct.unpack_from(
                ">I", data, 20 + 16 * i
            )[0]
            for i in range(count)
        }
        (self.units_per_em,) = struct.unpack_from(">H", data, tables["head"] + 18)
        hhea = tables["hhea"]
        self.ascender, self.descender, self.line_gap = struct.unpack_from(">hhh", data, hhea + 4)
        (metric_count,) = struct.unpack_from(">H", data, hhea + 34)
        self._advances = struct.unpack_from(f">{2 * metric_count}H", data, tables["hmtx"])[0::2]
        self._data = data
        self._lookup = self._cmap(data, tables["cmap"])
        self._units: dict[str, int] = {}
        self.lacking: set[str] = set()  # letters looked up that the font has no glyph for

    def letters(self) -> list[str]:
        """Every letter of the Basic Multilingual Plane the font has a glyph for."""
        return [chr(code) for code in range(0x20, 0x10000) if self._lookup(code)]

    def line(self, points: int) -> Line:
        """A line's height, ascent and line size at `points`, as SDL_ttf works them out
        for a scalable font (72 dots an inch: a point is a pixel of em)."""
        scale = ((points << 22) + self.units_per_em // 2) // self.units_per_em  # FT_DivFix
        ascent = _ceil_pixels(_mul_fix(self.ascender, scale))
        height = _ceil_pixels(_mul_fix(self.ascender - self.descender, scale))
        linesize = _ceil_pixels(_mul_fix(self.ascender - self.descender + self.line_gap, scale))
        return Line(height, ascent, linesize)

    def units(self, text: str) -> int:
        """The advances of `text`'s letters summed, in font units (the missing glyph's
        for a letter the font lacks)."""
        known = self._units
        try:
            return sum(map(known.__getitem__, text))  # each letter looked up once, then kept
        except KeyError:
            if len(known) >= LETTERS_KEPT:
                known.clear()
                self.lacking.clear()
            for char in set(text).difference(known):
                glyph = self._lookup(ord(char))
                known[char] = self._advances[min(glyph, len(self._advances) - 1)]
                if glyph == 0:
                    self.lacking.add(char)
            return sum(map(known.__getitem__, text))

    @staticmethod
    def _cmap(data: bytes, cmap: int) -> Callable[[int], int]:
        """The glyph-of-a-code-point function of the file's Unicode map."""
        (count,) = struct.unpack_from(">H", data, cmap + 2)
        found: dict[tuple[int, int], int] = {}
        for i in range(count):
            platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
            found[(platform, encoding)] = cmap + offset
        if (3, 10) in found and struct.unpack_from(">H", data, found[(3, 10)])[0] == 12:
            return _format12(data, found[(3, 10)])
        start = found.get((3, 1), found.get((0, 3)))
        if start is None:
            raise ValueError("the font has no Unicode map")
        return _format4(data, start)


def _format12(data: bytes, at: int) -> Callable[[int], int]:
    (groups,) = struct.unpack_from(">I", data, at + 12)
    triples = struct.unpack_from(f">{3 * groups}I", data, at + 16)
    starts, ends, glyphs = triples[0::3], triples[1::3], triples[2::3]

    def glyph(code: int) -> int:
        i = bisect.bisect_left(ends, code)
        if i < len(ends) and starts[i] <= code:
            return int(glyphs[i] + code - starts[i])
        return 0

    return glyph


def _format4(data: bytes, at: int) -> Callable[[int], int]:
    (doubled,) = struct.unpack_from(">H", data, at + 6)
    segments = doubled // 2
    ends = struct.unpack_from(f">{segments}H", data, at + 14)
    starts = struct.unpack_from(f">{segments}H", data, at + 16 + doubled)
    deltas = struct.unpack_from(f">{segments}h", data, at + 16 + 2 * doubled)
    ranges_at = at + 16 + 3 * doubled
    ranges = struct.unpack_from(f">{segments}H", data, ranges_at)

    def glyph(code: int) -> int:
        i = bisect.bisect_left(ends, code)
        if i >= segments or starts[i] > code:
            return 0
        if ranges[i] == 0:
            return int((code + deltas[i]) & 0xFFFF)
        where = ranges_at + 2 * i + ranges[i] + 2 * (code - starts[i])
        (index,) = struct.unpack_from(">H", data, where)
        return int((index + deltas[i]) & 0xFFFF) if index else 0

    return glyph
