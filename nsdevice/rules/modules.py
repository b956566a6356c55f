"""The optional modules and which of them may be mixed (RULES C-11, section 6)."""

from __future__ import annotations

from enum import StrEnum


class Module(StrEnum):
    OBJECTIVES = "objectives"  # C-11, each city its own cards
    SPECIAL_STATIONS = "special_stations"  # T-SP, Tokyo's, playable anywhere
    CITY_GATES = "city_gates"  # P-CG, Paris's, playable anywhere
    PENCIL_POWERS = "pencil_powers"  # L-PP, London's, playable anywhere


# the rulebooks advise at most one of these card modules at a time.
CARD_MODULES = frozenset({Module.SPECIAL_STATIONS, Module.CITY_GATES, Module.PENCIL_POWERS})


def parse_modules(text: str) -> tuple[Module, ...]:
    """`objectives,city_gates` → modules in canonical order; ValueError names a bad word."""
    chosen: set[Module] = set()
    for word in text.split(","):
        word = word.strip().lower().replace("-", "_")
        if not word:
            continue
        try:
            chosen.add(Module(word))
        except ValueError:
            known = ", ".join(m.value for m in Module)
            raise ValueError(f"unknown module {word!r} (known: {known})") from None
    return canonical(chosen)


def canonical(modules: set[Module] | frozenset[Module] | tuple[Module, ...]) -> tuple[Module, ...]:
    return tuple(m for m in Module if m in set(modules))


def mixes_card_modules(modules: tuple[Module, ...] | frozenset[Module]) -> bool:
    """True when two or more of the advise-one-at-a-time modules are chosen (X-4)."""
    return len(CARD_MODULES & set(modules)) >= 2
