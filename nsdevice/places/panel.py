"""The build's buttons as the screens meet them: what each button does on a screen (a hint)
and where it sits beside the glass, so its label is drawn right next to it. Plain data,
kept apart from the screens' views (nsdevice.views re-exports it)."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, Protocol, TypeVar

from nsdevice.rules.frozen import dataclass


class _HasHints(Protocol):
    """A view, as far as placing its labels goes (views import this module, not back)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def hints(self) -> tuple[Hint, ...]: ...


Hinted = TypeVar("Hinted", bound=_HasHints)


@dataclass(frozen=True, slots=True)
class Hint:
    """What a button does on this screen, and where its label is drawn: beside the button."""

    button: str  # "next", "back", "menu"
    action: str  # a key of texts.vocabulary.ACTIONS ("reveal", "select"…), or "language:de"
    edge: str = ""  # the screen edge the button sits at (EDGES); "" until placed
    order: int = 0  # its place along that edge, 1 = top (left, right) or left (top, bottom)
    slots: int = 0  # how many button places that edge has (its labels share it out)
    key: str = ""  # the keyboard key that presses it, where keys are the buttons ("→", "n")


EDGES = ("bottom", "top", "left", "right")


@dataclass(frozen=True, slots=True)
class Place:
    """Where a button sits beside the screen, seen from the front with the picture upright."""

    edge: str  # one of EDGES
    order: int  # 1, 2, …: top to bottom on the left and right edges, left to right below


@dataclass(frozen=True, slots=True)
class Panel:
    """The build's screen as the players meet it: where each button sits (its label goes
    there), the keys that stand in for buttons, and the screen's diagonal in inches (None:
    a desktop window, taken at 96 dots per inch)."""

    places: tuple[tuple[str, Place], ...]  # (button, place); "spare" may hold a place too
    keys: tuple[tuple[str, str], ...] = ()  # (button, key name) when a keyboard plays
    diagonal_inches: float | None = None

    def place(self, button: str) -> Place:
        return dict(self.places).get(button, Place("bottom", len(self.places) + 1))

    def slots(self, edge: str) -> int:
        """How many button places that edge has (the labels share it out evenly)."""
        return max((p.order for _, p in self.places if p.edge == edge), default=1)

    def with_keys(self, keys: tuple[tuple[str, str], ...]) -> Panel:
        return Panel(self.places, keys, self.diagonal_inches)

    def placed(self, view: Hinted, **changes: Any) -> Hinted:
        """`view` with each hint's edge, order and key filled in from this panel (and
        `changes` made in the same copy: `Session.view` adds its chime)."""
        if not view.hints:
            return dataclasses.replace(view, **changes) if changes else view
        return dataclasses.replace(view, hints=self.placed_hints(view.hints), **changes)

    def placed_hints(self, hints: tuple[Hint, ...]) -> tuple[Hint, ...]:
        """Each hint with its edge, order and key from this panel. Made directly, each
        place looked up once: three `dataclasses.replace` a hint and a dict of the places
        per lookup were 0.18 M instructions of every press on the Zero 2 W (issue 35)."""
        keys, places = dict(self.keys), dict(self.places)
        unplaced = Place("bottom", len(self.places) + 1)
        slots: dict[str, int] = {}
        placed = []
        for hint in hints:
            place = places.get(hint.button, unplaced)
            if place.edge not in slots:
                slots[place.edge] = self.slots(place.edge)
            key = keys.get(hint.button, "")
            placed.append(
                Hint(hint.button, hint.action, place.edge, place.order, slots[place.edge], key)
            )
        return tuple(placed)


# A plain PC window and the terminal: three labels below the screen, BACK left, NEXT right,
# as the arrow keys lie.
DEFAULT_PANEL = Panel(
    places=(
        ("back", Place("bottom", 1)),
        ("menu", Place("bottom", 2)),
        ("next", Place("bottom", 3)),
    )
)
