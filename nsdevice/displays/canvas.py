"""One paint call's surface, the tools to draw on it, and the record of what went on it.

The layouts are plain functions over a `Canvas`: it carries the theme, the fonts and the
symbol images (owned and cached by the `Painter`, which makes one canvas per call), and it
notes every text and figure drawn so that `Painter.paint` can return a `Drawing`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from nsdevice.displays.codes import CodeBook
from nsdevice.displays.drawing import Box, Drawing, Figure, Placed, Point, Seated
from nsdevice.displays.hyphens import Hyphens
from nsdevice.displays.shapes import SymbolBook
from nsdevice.displays.text_fit import Fitted, FontBook
from nsdevice.displays.theme import Colour, Theme

FACES_KEPT = 12  # pictures kept per painter: a city's eleven cards at one size, about
# 0.13 MB each on the 2-inch panel; drawing one again cost 0.7 M instructions a reveal
FACES_BYTES = 8 * 1024 * 1024  # and at most this many bytes of them: on a 1080p TV one
# face or the room's join column is 1-2 MB, so twelve would hold up to 16 MB for good
COUNTS_KEPT = 12  # the small turn's counts kept: a round's k/5 in a city or two, about
# 20 KB each on the 2-inch panel; drawing one again cost 0.16 M instructions a reveal
PENCILS_KEPT = 32  # turned pencils kept per painter: a table's sides in a game's colours,
# a few KB each; turning one again (drawn aside, rotated) cost 0.1 M instructions
NOTES_DRAWN_KEPT = 4  # the small turn's pages of notes kept as drawn: about 0.1 MB each on
# the 2-inch panel (the last turn's, a joker's, this round's pairing), 0.3-0.4 M to draw


@dataclass(frozen=True)
class KeptLegend:
    """A legend as drawn: its bands, their pixels, and what it placed there."""

    bands: dict[str, Box]
    pictures: tuple[tuple[Box, pygame.Surface], ...]
    texts: tuple[Placed, ...]
    figures: tuple[Figure, ...]
    cut: tuple[str, ...]


@dataclass(frozen=True)
class _Face:
    """A picture drawn once, and what drawing it noted on the canvas."""

    picture: pygame.Surface
    texts: tuple[Placed, ...]
    figures: tuple[Figure, ...]
    cut: tuple[str, ...]


class Faces:
    """Pictures drawn once and copied after, by what they were drawn from: at most `kept`
    of them and `bytes_kept` bytes of pixels, the oldest dropped first (a picture bigger
    than that is drawn each time). One per painter (a canvas gets its painter's)."""

    def __init__(self, kept: int = FACES_KEPT, bytes_kept: int = FACES_BYTES) -> None:
        self._kept = kept
        self._bytes_kept = bytes_kept
        self._faces: dict[tuple[object, ...], _Face] = {}
        self.bytes = 0  # the pixels kept now

    def get(self, key: tuple[object, ...]) -> _Face | None:
        return self._faces.get(key)

    def keep(self, key: tuple[object, ...], face: _Face) -> None:
        size = _pixel_bytes(face.picture)
        if size > self._bytes_kept:
            return
        while self._faces and (
            len(self._faces) >= self._kept or self.bytes + size > self._bytes_kept
        ):
            self.bytes -= _pixel_bytes(self._faces.pop(next(iter(self._faces))).picture)
        self._faces[key] = face
        self.bytes += size

    def __len__(self) -> int:
        return len(self._faces)


def _pixel_bytes(picture: pygame.Surface) -> int:
    return picture.get_pitch() * picture.get_height()


@dataclass
class Canvas:
    """Mutable, but local and short-lived: one per paint call."""

    surface: pygame.Surface
    theme: Theme
    fonts: FontBook
    symbols: SymbolBook
    dots_per_mm: float = 96 / 25.4  # the glass's pixels per millimetre (a 96 dpi window)
    hyphens: Hyphens = field(default_factory=Hyphens)  # the painter's: where words may break
    codes: CodeBook = field(default_factory=CodeBook)  # the painter's: QR codes drawn once
    faces: Faces = field(default_factory=Faces)  # the painter's: pictures drawn once
    # the painter's: the small turn's counts, drawn once (a book of their own, so that
    # they never push a card face out of the faces' book)
    counts: Faces = field(default_factory=lambda: Faces(kept=COUNTS_KEPT))
    # the painter's: the small turn's note pages by what they are made from (its layout
    # keeps them, at most NOTES_KEPT), so a turn's notes met before are not fitted again
    notes: dict[tuple[object, ...], object] = field(default_factory=dict)
    # the painter's: the small turn's pages of notes as drawn (a book of their own too)
    notes_drawn: Faces = field(default_factory=lambda: Faces(kept=NOTES_DRAWN_KEPT))
    # the painter's: the button legends as drawn, by size, wording and place
    legends: dict[tuple[object, ...], KeptLegend] = field(default_factory=dict)
    # the painter's: pencils turned for a table's sides, by colour, size and turn
    pencils: dict[tuple[object, ...], pygame.Surface] = field(default_factory=dict)
    texts: list[Placed] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    seats: list[Seated] = field(default_factory=list)
    cut: list[str] = field(default_factory=list)  # texts whose words were broken or dropped
    seams: list[int] = field(default_factory=list)  # columns where the layout's parts meet

    # --- sizes ------------------------------------------------------------------------
    def px(self, fraction: float) -> int:
        """A text size from a fraction of the screen height (never below 6 pixels)."""
        return self.theme.px(fraction, self.surface.get_height(), least=6)

    def mm(self, millimetres: float) -> int:
        """A length on the glass in pixels: what the table sees, whatever the panel."""
        return max(1, round(millimetres * self.dots_per_mm))

    def cap_px(self, millimetres: float) -> int:
        """The smallest text size whose capitals stand `millimetres` tall on the glass."""
        return self.fonts.size_for_cap(millimetres * self.dots_per_mm)

    def glass_height_mm(self) -> float:
        return self.surface.get_height() / self.dots_per_mm

    def margin(self) -> int:
        return self.theme.px(self.theme.sizes.margin, self.surface.get_height(), least=2)

    # --- text -------------------------------------------------------------------------
    def text(self, text: str, px: int, colour: Colour, at: Point, role: str) -> Box:
        rect = self.fonts.draw(self.surface, text, px, colour, at)
        self.texts.append(Placed(text, rect, role))
        return rect

    def fitted(
        self, fitted: Fitted, colour: Colour, box: Box, role: str, *, centre: bool = False
    ) -> None:
        """Draws fitted lines from the top of `box`, left-aligned or centred."""
        x, y, w, _ = box
        if fitted.cut:
            self.cut.append(fitted.source)
        for index, line in enumerate(fitted.lines):
            left = x + (w - self.fonts.width(line, fitted.size)) / 2 if centre else x
            self.text(line, fitted.size, colour, (left, y + index * fitted.advance), role)

    # --- pictures drawn once ---------------------------------------------------------
    def once(
        self,
        key: tuple[object, ...],
        rect: pygame.Rect,
        draw: Callable[[], object],
        book: Faces | None = None,
    ) -> None:
        """What `draw` draws inside `rect`, drawn on the ground colour: the first time by
        `draw`, kept with what it noted (in `book`, else the card faces'), then copied.
        `key` names everything the picture depends on beyond the surface's format and the
        ground, which are added here; `draw` must draw only inside `rect`, on ground
        nothing else was drawn on."""
        surface = self.surface
        faces = self.faces if book is None else book
        key = (*key, self.theme.palette.background, surface.get_bitsize(), surface.get_masks())
        face = faces.get(key)
        if face is not None:
            surface.blit(face.picture, rect.topleft)
            self.note(face.texts, face.figures, face.cut)
            return
        mark = self.mark()
        draw()
        inside = rect.clip(surface.get_rect())
        if inside != rect:
            return  # partly off the surface: not kept, as a copy would land elsewhere
        faces.keep(key, _Face(surface.subsurface(rect).copy(), *self.noted_since(mark)))

    def mark(self) -> tuple[int, int, int]:
        """Where what the canvas has noted ends, for `noted_since`."""
        return len(self.texts), len(self.figures), len(self.cut)

    def noted_since(
        self, mark: tuple[int, int, int]
    ) -> tuple[tuple[Placed, ...], tuple[Figure, ...], tuple[str, ...]]:
        """What a drawing noted (texts, figures, cut) since `mark`: kept with its picture."""
        texts, figures, cut = mark
        return tuple(self.texts[texts:]), tuple(self.figures[figures:]), tuple(self.cut[cut:])

    def note(
        self, texts: tuple[Placed, ...], figures: tuple[Figure, ...], cut: tuple[str, ...]
    ) -> None:
        """What a kept picture noted when it was drawn, noted again where it is copied."""
        self.texts.extend(texts)
        self.figures.extend(figures)
        self.cut.extend(cut)

    # --- the record -------------------------------------------------------------------
    def drawing(self, bands: dict[str, Box]) -> Drawing:
        return Drawing(
            self.surface.get_size(),
            tuple(self.texts),
            tuple(self.figures),
            bands.get("bottom"),
            tuple(bands.items()),
            tuple(self.seats),
            tuple(self.cut),
            tuple(self.seams),
        )
