"""Station cards: what one card shows (RULES section 1)."""

from __future__ import annotations

from enum import StrEnum

from nsdevice.rules.frozen import dataclass


class Kind(StrEnum):
    UNDERGROUND = "underground"  # counts toward the round's end (C-4); Paris calls it metro
    STREET = "street"


class Symbol(StrEnum):
    SQUARE = "square"
    CIRCLE = "circle"
    TRIANGLE = "triangle"
    PENTAGON = "pentagon"


class Special(StrEnum):
    JOKER = "joker"  # C-6
    SWITCH = "switch"  # C-5
    FREE_ENTRY = "free_entry"  # P-3, Paris's joker


@dataclass(frozen=True, slots=True)
class StationCard:
    """One of a city's 11 cards: a symbol or a special, on a street or underground back."""

    id: str
    kind: Kind
    symbol: Symbol | None = None
    special: Special | None = None

    def __post_init__(self) -> None:
        assert (self.symbol is None) != (self.special is None), f"{self.id}: symbol xor special"

    @property
    def underground(self) -> bool:
        return self.kind is Kind.UNDERGROUND

    @property
    def switch(self) -> bool:
        return self.special is Special.SWITCH

    def as_dict(self) -> dict[str, str | None]:
        return {
            "id": self.id,
            "kind": self.kind.value,
            "symbol": self.symbol.value if self.symbol else None,
            "special": self.special.value if self.special else None,
        }
