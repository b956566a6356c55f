"""Text in the bundled font, fitted to a width: shrunk, then wrapped, then cut.

Text is never clipped by the screen edge: `fit_text` shrinks it a little, then wraps it,
then breaks words and cuts with an ellipsis as a last resort. The few characters the font
lacks (`DRAWN_GLYPHS`) are drawn here too, so that measuring and drawing always agree;
any other letter it lacks (a player's name may hold anything) is drawn as the nearest
one it has (`FontBook.readable`), never as the font's box.
"""

from __future__ import annotations

import dataclasses
import math
import re
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

if TYPE_CHECKING:  # (the C module has no stubs of its own: its Python module's are its)
    import pygame.freetype as freetype
else:
    import pygame._freetype as freetype  # not pygame.freetype: see FontBook

from nsdevice.displays.drawing import Box, Point
from nsdevice.displays.font_file import FontFile
from nsdevice.displays.hyphens import SOFT_HYPHEN
from nsdevice.displays.theme import Colour
from nsdevice.rules.frozen import dataclass

# The bundled font (FreeSans Bold) has every accented letter of our five languages and
# × · − but no arrow: these characters are drawn here instead.
DRAWN_GLYPHS = frozenset("→←")  # arrows the font lacks or draws too small: drawn here
ELLIPSIS = "…"
# The face has no glyph for the no-break spaces (French before ':'; FreeType would draw a
# box): drawn as the space they are. Lines still never break there: wrapping splits on
# plain spaces only. A soft hyphen (displays.hyphens) is drawn as nothing, or as "-" where
# a word wider than its line breaks there.
SPACES = str.maketrans({"\u00a0": " ", "\u202f": " ", SOFT_HYPHEN: None})
# wrapping splits at spaces but never at a no-break space (French keeps a colon with its word)
BREAKS = re.compile(r"[^\S\u00a0]+")
UNKNOWN = "?"  # a letter the font has nothing near (a script it lacks): never its box
WIDTHS_KEPT = 8192  # widths and fits remembered per font book: a few screens' words, sizes
# FreeType's glyph cache's buckets for the one face (its own default is 64), two glyphs
# each: with every size drawn from one face, 64 threw glyphs out several times per press,
# each coming back through the font's hinting program. Each draw or measure also walks
# every bucket to trim it, so more costs on every call: 512 against 1024 took 0.14 M off
# the heaviest tap and 0.015 M off a press on the Zero 2 W; 256 threw out the pencil pass's
GLYPHS_CACHED = 512
GLYPH_PROBE_POINTS = 16  # the face's own size: asking whether it has a letter loads no size


# what fit_text's answers are kept under: the text, its size, width, lines and least size
FitKey = tuple[str, int, int, int, int | None]
# Bounds on a letter at any size up to BOUNDED_POINTS, held for every glyph of the font by
# tests/test_text_fit.py: its hinted advance exceeds its outline's by at most
# HINTED_EXCESS pixels, and falls short of it by at most HINTED_SHORTFALL; its ink
# reaches past its advance, on either side, by at most INK_OUTSIDE of the size in points
# and a pixel. A text's width is then at most its advances from the file, scaled, and
# these (FontBook.wider: no glyph loaded), and at least its letters' advances less the
# shortfall (FontBook.narrowest).
HINTED_EXCESS = 2.6
HINTED_SHORTFALL = 1.8
INK_OUTSIDE = 0.175
BOUNDED_POINTS = 150
DEFAULT_SCALE = 0.6875  # pygame's own font at size s is its file at int(s * 0.6875) points


@dataclass(frozen=True, slots=True)
class Metrics:
    """The bundled font's measures of a line at one size, as pygame.font gives them.

    Why pygame.font's and not FreeType's: every layout was measured with them (line height,
    ascent), and FreeType rounds its own a pixel apart at small sizes. They are worked out
    from the font file's numbers as SDL_ttf works them out (font_file.FontFile.line), so
    that a size fitting only tries opens no font (issue 35; tests/test_text_fit.py holds
    them to pygame.font's at every size).
    """

    points: int
    height: int
    ascent: int
    linesize: int


class FontBook:
    """The bundled font at any pixel height: one FreeType face, the size given per call.

    Sizes here are the height of a line of text in pixels: pygame's size argument for
    its default font is about 1.5 times that, so it is converted once, here.

    Why FreeType draws and not pygame.font: SDL_ttf places each glyph at the font's *hinted*
    advance, grid-fitted by the font's bytecode and rounded to a whole pixel, and at small
    sizes FreeSans Bold's hints widen some letters and narrow others ("pl ace le ft",
    "Purp le" at 480×320). pygame.freetype places them at their outline advances, as the
    font was designed, so a word keeps its rhythm. One face serves every size (a size that
    fitting only tries costs no font of its own: issue 23); pygame.font's line measures
    are worked out from the font file (issue 35).

    FreeType alone, without pygame.font (SDL_ttf) loaded, nor pygame.freetype's Python
    module, which imports it for `SysFont` (issue 35): SDL_ttf brings its own harfbuzz,
    which FreeType's autohinter then finds and uses, 1.3 MB of the box's memory. Without
    it FreeType looks for the system's harfbuzz, which the box's image does not have, and
    hints without; its glyphs are the same, pixel for pixel (`tests/test_text_fit.py`).
    """

    def __init__(self, path: str | None = None) -> None:
        freetype.init(cache_size=GLYPHS_CACHED)  # (the first init's size stays)
        # pygame's own font is a file in its package, opened by name so that each size
        # need not look it up again; its sizes are scaled as pygame scales them
        self._path = path or str(Path(pygame.__file__).parent / freetype.get_default_font())
        self._scaled = path is None
        self._face = freetype.Font(self._path, GLYPH_PROBE_POINTS)
        self._face.kerning = False  # the font's kerning pairs are hinted as well
        self._face.pad = True  # a string's box is its advances wide, its baseline at .y
        self._file = FontFile(self._path)
        self._point_sizes: dict[int, int] = {}
        self._space = self._file.units(" ")
        self._metrics: dict[int, Metrics] = {}
        self._lifts: dict[int, int] = {}
        self._caps: dict[int, int] = {}
        self._glyphs: dict[str, bool] = {}
        self._readable: dict[str, str] = {}  # texts with a letter the font lacks, as drawn
        # letters met that are drawn as they are: a text of only these is readable as it is
        # (a note's soft hyphens or "×" made each of its lines a letter-by-letter look)
        self._drawn: set[str] = set()
        self._for_cap: dict[float, int] = {}
        self._widths: dict[tuple[str, int], int] = {}  # fitting asks for the same words often
        self._fits: dict[FitKey, Fitted] = {}  # see fit_text
        # a text's words as wrapping splits them, each its advances and letters: a guess
        self._words: dict[str, tuple[tuple[int, int], ...]] = {}
        # layouts' answers kept for the next paint (layouts.stack.fit_rows): its own keys
        self.kept: dict[tuple[object, ...], object] = {}
        self._scale = self._file.line(self._points(100, 1.0)).height / 100

    def _points(self, size: int, scale: float | None = None) -> int:
        """pygame.font's point size for `size` (a pixel height, or pygame's size with a
        scale of 1). Kept per height: every measure asks it."""
        known = self._point_sizes.get(size) if scale is None else None
        if known is None:
            pixels = max(1, round(size / (self._scale if scale is None else scale)))
            known = max(1, int(pixels * DEFAULT_SCALE)) if self._scaled else pixels
            if scale is None:
                self._point_sizes[size] = known
        return known

    def metrics(self, px: int) -> Metrics:
        px = max(1, px)
        known = self._metrics.get(px)
        if known is None:
            points = self._points(px)
            line = self._file.line(points)
            known = self._metrics[px] = Metrics(points, line.height, line.ascent, line.linesize)
        return known

    def lift(self, px: int) -> int:
        """How far to move FreeType's box down so that its baseline is pygame.font's."""
        known = self._lifts.get(px)
        if known is None:
            metrics = self.metrics(px)
            ascender = int(self._face.get_rect("H", size=metrics.points).y)
            known = self._lifts[px] = metrics.ascent - ascender
        return known

    def height(self, px: int) -> int:
        return self.metrics(px).height

    def cap(self, px: int) -> int:
        """The height in pixels of a capital (the top of an "H" above the baseline), as
        pygame.font measures it: FreeType's hinted "H" is the same glyph, and asking it
        opens no font, so sizes only tried for their capitals cost none (issue 23)."""
        known = self._caps.get(px)
        if known is None:
            (h,) = self._face.get_metrics("H", size=self._points(px))
            known = self._caps[px] = int(h[3]) if h else self.height(px)
        return known

    def size_for_cap(self, cap: float) -> int:
        """The smallest size whose capitals are at least `cap` pixels tall (found once per
        height: every paint asks for the same few). A capital never outgrows its line, so
        the walk starts no lower than `cap`; it starts where a size already met says the
        capitals scale to, and walks down or up from there (each size walked loads an "H":
        five of them for each height a turn's notes first met, issue 35)."""
        px = self._for_cap.get(cap)
        if px is None:
            least = max(1, math.ceil(cap))
            known = next((k for k, c in self._caps.items() if c > 0), None)
            px = max(least, math.ceil(cap * known / self._caps[known])) if known else least
            if self.cap(px) >= cap:
                while px > least and self.cap(px - 1) >= cap:
                    px -= 1
            else:
                while self.cap(px) < cap:
                    px += 1
            self._for_cap[cap] = px
        return px

    def advance(self, px: int) -> int:
        """Distance from one wrapped line to the next."""
        return self.metrics(px).linesize

    def _arrow_width(self, px: int) -> int:
        return max(4, round(self.height(px) * 0.9))

    def width(self, text: str, px: int) -> int:
        known = self._widths.get((text, px))
        if known is not None:
            return known
        if text.isascii():  # drawn as it is (no space to map, no arrow): measured at once
            total = self._width(text, px)
        else:
            total = 0
            for piece in _pieces(self.readable(text)):
                total += self._arrow_width(px) if piece in DRAWN_GLYPHS else self._width(piece, px)
        if len(self._widths) >= WIDTHS_KEPT:
            self._widths.clear()
        self._widths[(text, px)] = total
        return total

    def _width(self, text: str, px: int) -> int:
        if not text:
            return 0
        points = self._points(px)
        drawn = text if text.isascii() else text.translate(SPACES)
        return int(self._face.get_rect(drawn, size=points).width)

    def wider(self, text: str, px: int, width: int) -> bool:
        """Whether `text` is wider than `width` at `px`: no glyph is loaded when the font
        file's advances and the bounds above show that it is not (a word checked for a
        break, which almost never needs one), else FreeType measures it."""
        points = self._points(px)
        drawn = self.readable(text).translate(SPACES)
        if points <= BOUNDED_POINTS and DRAWN_GLYPHS.isdisjoint(drawn):
            advances = self._file.units(drawn) * points / self._file.units_per_em
            ink = 2 * (points * INK_OUTSIDE + 1) + 1  # both sides, and a pixel rounded up
            most = advances + len(drawn) * HINTED_EXCESS + ink
            if most <= width and self._file.lacking.isdisjoint(drawn):
                return False
        return self.width(text, px) > width

    def narrowest(self, text: str, px: int) -> float:
        """A width `text` on one line is never narrower than at `px`, its spaces left out
        (so also any line its words are wrapped into, joined): from the font file's
        advances, no glyph loaded; 0 where no bound holds (a letter the font lacks, an arrow
        drawn here, a size past BOUNDED_POINTS). It grows with `px`."""
        points = self._points(px)
        letters = "".join(BREAKS.split(self.readable(text).translate(SPACES)))
        if points > BOUNDED_POINTS or not DRAWN_GLYPHS.isdisjoint(letters):
            return 0.0
        advances = self._file.units(letters) * points / self._file.units_per_em
        if not self._file.lacking.isdisjoint(letters):
            return 0.0
        return float(advances - len(letters) * HINTED_SHORTFALL)

    def guessed_lines(self, text: str, px: int, width: int) -> int | None:
        """The lines `text` would take wrapped within `width` at `px` by widths guessed
        from the font file's advances (None when a word is wider than a line): where a
        fit may land, found with no glyph loaded (layouts.stack.fit_rows), never what is
        drawn. Hinting widens most letters a little: a quarter of a pixel each, which
        keeps the guess within a few pixels of FreeType's widths on the catalogs."""
        words = self._words.get(text)
        if words is None:
            advances = self._file.units
            split = BREAKS.split(self.readable(text).strip())
            words = tuple((advances(word := w.translate(SPACES)), len(word)) for w in split)
            if len(self._words) >= WIDTHS_KEPT:
                self._words.clear()
            self._words[text] = words
        scale = self._points(px) / self._file.units_per_em
        space = self._space * scale + 0.25
        lines, line = 1, -space
        for units, letters in words:
            wide = units * scale + letters * 0.25
            if wide > width:
                return None
            if line + space + wide <= width:
                line += space + wide
            else:
                lines, line = lines + 1, wide
        return lines

    def has_glyph(self, char: str) -> bool:
        """Whether the font draws `char` itself, rather than its 'missing' box: whether
        the face that draws (FreeType) maps it to a glyph. Asked of the face at a size
        it already has, not by rendering `char` with a font opened for it (3.5 M
        instructions on the Zero 2 W for the first letter outside ASCII on a screen)."""
        known = self._glyphs.get(char)
        if known is None:
            (metrics,) = self._face.get_metrics(char, size=GLYPH_PROBE_POINTS)
            known = self._glyphs[char] = char.isspace() or metrics is not None
        return known

    def readable(self, text: str) -> str:
        """`text` as it is drawn and measured: each letter the font lacks as the nearest
        one it has ("Ṩ" as "S", "ǅ" as "Dž"), a combining mark it lacks left out (its
        letter stays), a letter of a script it lacks as UNKNOWN: never the font's box. A
        player's name may be anything (rules.room.player_name keeps it composed)."""
        if text.isascii() or self._drawn.issuperset(text):  # each letter drawn as it is
            return text
        known = self._readable.get(text)
        if known is None:
            known = "".join(self._nearest(char) for char in text)
            if len(self._readable) >= WIDTHS_KEPT:
                self._readable.clear()
            self._readable[text] = known
        return known

    def _nearest(self, char: str) -> str:
        # printable ASCII is all in the font (asking the face would load each letter)
        drawn = " " <= char <= "~" or char in DRAWN_GLYPHS or char == SOFT_HYPHEN
        if drawn or self.has_glyph(char):
            self._drawn.add(char)  # (at most the letters the font has, and these)
            return char
        parts = unicodedata.normalize("NFKD", char)
        for end in range(len(parts), 0, -1):  # the letter with as many of its marks as drawn
            shorter = unicodedata.normalize("NFC", parts[:end])
            if shorter != char and all(self.has_glyph(c) for c in shorter):
                return shorter
        return "" if unicodedata.category(char).startswith("M") else UNKNOWN

    def missing_glyphs(self, text: str) -> set[str]:
        """Characters of `text` that would show as boxes (the drawn glyphs are fine)."""
        return {c for c in set(text) if c not in DRAWN_GLYPHS and not self.has_glyph(c)}

    def draw(self, surface: pygame.Surface, text: str, px: int, colour: Colour, at: Point) -> Box:
        """Draws one line with its top-left at `at`; returns the rectangle it covers."""
        metrics = self.metrics(px)
        x, y = round(at[0]), round(at[1])
        if text.isascii():  # drawn as it is, in one piece (as `width` measures it)
            if text:
                lifted = (x, y + self.lift(px))
                self._face.render_to(surface, lifted, text, colour, size=metrics.points)
            return (x, y, self.width(text, px), metrics.height)
        start = x
        for piece in _pieces(self.readable(text)):
            if piece in DRAWN_GLYPHS:
                width = self._arrow_width(px)
                _draw_arrow(surface, (x, y), width, metrics, colour, leftward=piece == "←")
                x += width
            elif piece:
                # straight onto `surface` (no picture in between to blit); FreeType's box
                # is a little taller than pygame.font's line, the baselines level
                self._face.render_to(
                    surface, (x, y + self.lift(px)), piece.translate(SPACES), colour,
                    size=metrics.points,
                )  # fmt: skip
                x += self.width(piece, px)
        return (start, y, x - start, metrics.height)


def _pieces(text: str) -> list[str]:
    """`text` split so that each drawn glyph stands alone."""
    if DRAWN_GLYPHS.isdisjoint(text):  # nearly always: no letter by letter look
        return [text] if text else []
    pieces: list[str] = []
    current = ""
    for char in text:
        if char in DRAWN_GLYPHS:
            pieces += [current, char] if current else [char]
            current = ""
        else:
            current += char
    if current:
        pieces.append(current)
    return pieces


def _draw_arrow(
    surface: pygame.Surface,
    at: tuple[int, int],
    width: int,
    font: Metrics,
    colour: Colour,
    *,
    leftward: bool = False,
) -> None:
    """An arrow at the height of the font's small letters, standing in for '→' (or '←',
    the window's BACK key, which the font has no glyph for)."""
    x, y = at
    middle = y + round(font.ascent * 0.62)
    thick = max(1, round(font.height * 0.09))
    head = max(3, round(width * 0.32))
    left, right = x + round(width * 0.1), x + round(width * 0.9)
    tip, base = (left, left + head) if leftward else (right, right - head)
    tail = right if leftward else left
    neck = tip + head // 2 if leftward else tip - head // 2
    pygame.draw.line(surface, colour, (tail, middle), (neck, middle), thick)
    pygame.draw.polygon(
        surface,
        colour,
        [(tip, middle), (base, middle - head * 0.75), (base, middle + head * 0.75)],
    )


@dataclass(frozen=True, slots=True)
class Fitted:
    """Text laid out at one size: its lines, and the room they take."""

    size: int
    lines: tuple[str, ...]
    width: int
    height: int
    advance: int
    cut: bool = False  # True when words had to be broken or dropped to fit
    source: str = ""  # when cut: the whole text, so that a check can say what was lost


def fit_text(
    text: str,
    font_size: int,
    max_width: int,
    *,
    fonts: FontBook,
    max_lines: int = 2,
    min_size: int | None = None,
) -> Fitted:
    """Lays `text` out within `max_width`, in at most `max_lines` lines.

    In order of preference: one line, shrinking a little (to 85%); wrapped lines at the
    largest size down to `min_size`; at `min_size`, words broken and the rest cut with
    an ellipsis. The result never exceeds `max_width` nor `max_lines`. The same text in the
    same room comes back from the font book's memory: a turn's notes repeat all round.
    """
    key = (text, font_size, max_width, max_lines, min_size)
    known = fonts._fits.get(key)
    if known is None:
        known = _whole(text, font_size, max_width, fonts, max_lines, min_size) or _cut_to_fit(
            text, font_size, max_width, fonts, max_lines, min_size
        )
        _keep(fonts, key, known)
    return known


def fit_whole(
    text: str,
    font_size: int,
    max_width: int,
    *,
    fonts: FontBook,
    max_lines: int = 2,
    min_size: int | None = None,
) -> Fitted | None:
    """`fit_text`'s answer when it keeps every word whole; None when it would cut, with no
    cut worked out (a size only tried: its cut lines would never be drawn, issue 35)."""
    key = (text, font_size, max_width, max_lines, min_size)
    known = fonts._fits.get(key)
    if known is not None:
        return None if known.cut else known
    whole = _whole(text, font_size, max_width, fonts, max_lines, min_size)
    if whole is not None:
        _keep(fonts, key, whole)
    return whole


def _keep(fonts: FontBook, key: FitKey, fitted: Fitted) -> None:
    if len(fonts._fits) >= WIDTHS_KEPT:
        fonts._fits.clear()
    fonts._fits[key] = fitted


def _whole(
    text: str, font_size: int, max_width: int, fonts: FontBook, max_lines: int,
    min_size: int | None,
) -> Fitted | None:  # fmt: skip
    """One line, shrinking a little; else wrapped lines at the largest size that takes
    them; None when neither keeps every word whole."""
    smallest = max(1, min(font_size, font_size if min_size is None else min_size))
    floor = max(smallest, round(font_size * 0.85)) if max_lines > 1 else smallest
    for px in range(font_size, floor - 1, -1):
        if fonts.width(text, px) <= max_width:
            return _fitted(fonts, (text,), px)
    if max_lines > 1:
        for px in range(font_size, smallest - 1, -1):
            lines = _wrap(text, px, max_width, fonts, break_words=False)
            if lines is not None and len(lines) <= max_lines:
                return _fitted(fonts, tuple(lines), px)
    return None


def _cut_to_fit(
    text: str, font_size: int, max_width: int, fonts: FontBook, max_lines: int,
    min_size: int | None,
) -> Fitted:  # fmt: skip
    """At the least size: words broken, and what still does not fit cut with an ellipsis."""
    smallest = max(1, min(font_size, font_size if min_size is None else min_size))
    lines = _wrap(text, smallest, max_width, fonts, break_words=True) or [""]
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] += ELLIPSIS
    fitted = tuple(_cut(line, smallest, max_width, fonts) for line in lines)
    source = text.replace(SOFT_HYPHEN, "")
    return dataclasses.replace(_fitted(fonts, fitted, smallest, cut=True), source=source)


def _fitted(fonts: FontBook, lines: tuple[str, ...], px: int, cut: bool = False) -> Fitted:
    lines = tuple(line.replace(SOFT_HYPHEN, "") for line in lines)  # drawn: nothing
    advance = fonts.advance(px)
    height = (len(lines) - 1) * advance + fonts.height(px)
    width = max(fonts.width(line, px) for line in lines)
    return Fitted(px, lines, width, height, advance, cut)


def _wrap(
    text: str, px: int, width: int, fonts: FontBook, *, break_words: bool
) -> list[str] | None:
    """Greedy word wrap; None if a word is wider than a line and may not be broken.
    Leading spaces (an indented sub-item) indent its wrapped lines twice as far, so
    that each item still stands out from the next."""
    first = text[: len(text) - len(text.lstrip(" "))]
    lines: list[str] = []
    current = ""

    def fits(line: str) -> bool:
        indent = first * 2 if lines else first
        return fonts.width(indent + line, px) <= width

    for word in BREAKS.split(text.strip()):
        if fits(f"{current} {word}" if current else word):
            current = f"{current} {word}" if current else word
            continue
        if not fits(word):  # wider than a line: its first syllables end this one
            head, word = _syllables(current, word, fits)
            if head:
                lines.append(f"{current} {head}-" if current else f"{head}-")
                current = ""
        if current:
            lines.append(current)
            current = ""
        while not fits(word):  # and its next ones fill lines while it is wider
            head, word = _syllables("", word, fits)
            if not head:
                break
            lines.append(f"{head}-")
        if fits(word):
            current = word
            continue
        if not break_words:
            return None
        for char in word:  # a word wider than a line: break it between letters
            if not current or fits(current + char):
                current += char
                continue
            hyphen = current.rfind("-")
            if 0 < hyphen < len(current) - 1:  # after a hyphen, rather (k7dm-x4qp- / 9wre)
                lines.append(current[: hyphen + 1])
                current = current[hyphen + 1 :] + char
            else:
                lines.append(current)
                current = char
    lines.append(current)
    return [(first * 2 if index else first) + line for index, line in enumerate(lines)]


def _syllables(current: str, word: str, fits: Callable[[str], bool]) -> tuple[str, str]:
    """The most of `word`, up to one of its soft hyphens, that fits after `current` with a
    hyphen, and the rest; ("", word) when none does."""
    breaks = [index for index, char in enumerate(word) if char == SOFT_HYPHEN]
    for index in reversed(breaks):
        head = word[:index]
        if fits(f"{current} {head}-" if current else f"{head}-"):
            return head, word[index + 1 :]
    return "", word


def _cut(text: str, px: int, width: int, fonts: FontBook) -> str:
    """`text` shortened with an ellipsis until it fits `width` (possibly to nothing)."""
    if fonts.width(text, px) <= width:
        return text
    while text:
        text = text[:-1].rstrip()
        if fonts.width(text + ELLIPSIS, px) <= width:
            return text + ELLIPSIS
    return ""
