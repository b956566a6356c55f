"""QR codes drawn once and kept: a room's caller shows the page's address on every turn,
and encoding one (segno, pure Python: eight masks tried over the whole matrix) cost more
than the rest of the join column's painting. Owned by the `Painter`, like its symbols.
"""

from __future__ import annotations

import pygame

QUIET = 2  # modules of white round the code (scanners need some; the panel's edge is dark)
KEPT = 8  # codes kept: the page's address and the Wi-Fi's, at a size or two each


class CodeBook:
    """QR code images by text and module size, each encoded and drawn once (bounded)."""

    def __init__(self) -> None:
        self._matrices: dict[str, tuple[tuple[int, ...], ...]] = {}
        self._images: dict[tuple[str, int], pygame.Surface] = {}

    def modules(self, text: str) -> int:
        """The code's side in modules, its quiet zone included."""
        return len(self._matrix(text)) + 2 * QUIET

    def image(self, text: str, cell: int) -> pygame.Surface:
        """`text`'s code at `cell` pixels a module: black squares on a white square."""
        key = (text, cell)
        image = self._images.get(key)
        if image is None:
            if len(self._images) >= KEPT:
                self._images.clear()
            image = self._images[key] = _drawn(self._matrix(text), cell)
        return image

    def _matrix(self, text: str) -> tuple[tuple[int, ...], ...]:
        matrix = self._matrices.get(text)
        if matrix is None:
            import segno  # late: it brings urllib, http and ssl; only a code's screen needs it

            if len(self._matrices) >= KEPT:
                self._matrices.clear()
            made = segno.make(text, error="m", boost_error=False).matrix
            matrix = self._matrices[text] = tuple(tuple(row) for row in made)
        return matrix


def _drawn(matrix: tuple[tuple[int, ...], ...], cell: int) -> pygame.Surface:
    side = cell * (len(matrix) + 2 * QUIET)
    image = pygame.Surface((side, side))
    image.fill((255, 255, 255))
    for row, bits in enumerate(matrix):
        for column, bit in enumerate(bits):
            if bit:
                rect = ((column + QUIET) * cell, (row + QUIET) * cell, cell, cell)
                pygame.draw.rect(image, (0, 0, 0), rect)
    return image
