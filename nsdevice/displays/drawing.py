"""What a paint call placed: every run of text and every figure, with its rectangle.

Plain records (no pygame), so that tests can check that nothing spills over the screen
or under the legend without looking at pixels.
"""

from __future__ import annotations

from nsdevice.rules.frozen import dataclass

Box = tuple[int, int, int, int]  # x, y, width, height
Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Placed:
    """One run of text as drawn: its words and the rectangle its pixels may cover."""

    text: str
    rect: Box
    role: str


@dataclass(frozen=True, slots=True)
class Figure:
    """A drawn shape; `rect` is the bounding box of the pixels actually painted."""

    name: str
    rect: Box
    role: str


@dataclass(frozen=True, slots=True)
class Drawing:
    size: tuple[int, int]
    texts: tuple[Placed, ...]
    figures: tuple[Figure, ...]
    legend: Box | None  # the band of button hints at the bottom, if any
    bands: tuple[tuple[str, Box], ...] = ()  # every edge with labels on it, and its box

    def figures_of(self, role: str) -> list[Figure]:
        return [f for f in self.figures if f.role == role]
