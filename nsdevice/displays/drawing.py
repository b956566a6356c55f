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
class Seated:
    """One place at a table as drawn (the 2-inch round start and pencil pass): the slot,
    the pencil lying there, its start symbol and power, and where each part went, so a
    test reads every seat back and checks the pixels under it."""

    table: int  # a room's table size (1-4); 0 for the box's own table
    slot: str  # "1".."4", "table", "table-1", "table-2" (C-8)
    colour: str
    start: str | None  # the symbol drawn beside the pencil (C-9), if any
    power: str | None  # the icon drawn beside it (L-PP), if any
    controller: bool  # the chair drawn as the controller's, with the deck beside it (C-10)
    pencil: Box
    chair: Box | None  # None: a spare spot on the table, no chair


@dataclass(frozen=True, slots=True)
class Drawing:
    size: tuple[int, int]
    texts: tuple[Placed, ...]
    figures: tuple[Figure, ...]
    legend: Box | None  # the band of button hints at the bottom, if any
    bands: tuple[tuple[str, Box], ...] = ()  # every edge with labels on it, and its box
    seats: tuple[Seated, ...] = ()  # the places of a table drawn as the table
    cut: tuple[str, ...] = ()  # whole texts that had to be broken between letters or cut
    # columns where parts of the layout meet, side by side (the 2-inch turn's card and the
    # column beside it): what changes on one side says nothing of the other, so a panel
    # sends each side's changed rows on their own (St7789Display)
    seams: tuple[int, ...] = ()

    def figures_of(self, role: str) -> list[Figure]:
        return [f for f in self.figures if f.role == role]
