"""Scores and the ending card: line and game totals, solo tiers, the winner (RULES section 7)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from nsdevice.rules.cities import City

MODULE_PENALTY = 10  # C-13: per module used in a solo game
OBJECTIVE_POINTS = 10  # C-11
TOKYO_RING_STATIONS = 8  # T-5
TOKYO_RING_PENALTY = 3  # S-T-END
TOKYO_MOST_STAMPS = 4 * 10 + 4 * 5  # S-T-END: four corner districts and four other outer ones
TOKYO_INTERCHANGES = {3: 5, 4: 15, 5: 30}  # S-T-END: lines through one station → points
PARIS_INTERCHANGES = {2: 2, 3: 5, 4: 9}  # S-P-END
PARIS_OVERPASS_ONCE = 2
PARIS_OVERPASS_TWICE = 6
PARIS_MONUMENT_POINTS = 2  # S-P
TIERS = 6


def _count(name: str, value: int, most: int | None = None) -> int:
    if value < 0:
        raise ValueError(f"{name} cannot be negative ({value})")
    if most is not None and value > most:
        raise ValueError(f"{name} cannot be more than {most} ({value})")
    return value


def tokyo_line(districts: int, stations: int) -> int:
    """S-T: districts crossed × most stations in one district (double stations counted)."""
    return _count("districts", districts, 13) * _count("stations", stations)


def paris_line(quarters: int, stops: int, monuments: int) -> int:
    """S-P: quarters × most stops in one quarter + 2 per monument on the line."""
    return _count("quarters", quarters, 13) * _count(
        "stops", stops
    ) + PARIS_MONUMENT_POINTS * _count("monuments", monuments, 8)


def _interchange_points(table: Mapping[int, int], counts: Mapping[int, int]) -> int:
    total = 0
    for lines, how_many in counts.items():
        if lines not in table:
            raise ValueError(f"no interchange value for {lines} lines (known: {sorted(table)})")
        total += table[lines] * _count(f"{lines}-line interchanges", how_many)
    return total


def tokyo_total(
    lines: Sequence[int],
    stamps: int = 0,
    ring_unconnected: int = 0,
    interchanges: Mapping[int, int] | None = None,
    objectives: int = 0,
) -> int:
    """S-T-END: lines + stamps − 3 per lonely ring station + interchanges + objectives."""
    return (
        sum(_count("line score", line) for line in lines)
        + _count("tourist stamps", stamps, TOKYO_MOST_STAMPS)
        - TOKYO_RING_PENALTY
        * _count("unconnected ring stations", ring_unconnected, TOKYO_RING_STATIONS)
        + _interchange_points(TOKYO_INTERCHANGES, interchanges or {})
        + OBJECTIVE_POINTS * _count("objectives", objectives, 2)
    )


def paris_total(
    lines: Sequence[int],
    overpasses_once: int = 0,
    overpasses_twice: int = 0,
    interchanges: Mapping[int, int] | None = None,
    objectives: int = 0,
) -> int:
    """S-P-END: lines + overpasses + interchanges + objectives."""
    if overpasses_once + overpasses_twice > 8:  # P-5: the map has 8 overpasses
        raise ValueError("a map has only 8 overpasses")
    return (
        sum(_count("line score", line) for line in lines)
        + PARIS_OVERPASS_ONCE * _count("overpasses crossed once", overpasses_once)
        + PARIS_OVERPASS_TWICE * _count("overpasses crossed twice", overpasses_twice)
        + _interchange_points(PARIS_INTERCHANGES, interchanges or {})
        + OBJECTIVE_POINTS * _count("objectives", objectives, 2)
    )


def solo_adjusted(total: int, modules_used: int) -> int:
    """C-13: a solo score loses 10 points per module played."""
    return total - MODULE_PENALTY * _count("modules", modules_used, 4)


def solo_tier(city: City, adjusted: int) -> int:
    """S-SOLO: tier 1 (lowest) to 6 for an adjusted solo score; bounds are inclusive (D-4)."""
    for tier, upper in enumerate(city.tier_upper_bounds, start=1):
        if adjusted <= upper:
            return tier
    return TIERS


@dataclass(frozen=True, slots=True)
class SeatScore:
    seat: int
    total: int
    best_line: int


@dataclass(frozen=True, slots=True)
class Outcome:
    winners: tuple[int, ...]  # seats; more than one when they share the win
    decided_by: str  # "total", "best_line" (C-12 tie-break) or "shared"


def winner(scores: Sequence[SeatScore]) -> Outcome:
    """C-12: highest total; tie → best single line; still tied → a shared win."""
    assert scores, "no scores"
    top = max(s.total for s in scores)
    leaders = [s for s in scores if s.total == top]
    if len(leaders) == 1:
        return Outcome((leaders[0].seat,), "total")
    best = max(s.best_line for s in leaders)
    finalists = [s for s in leaders if s.best_line == best]
    if len(finalists) == 1:
        return Outcome((finalists[0].seat,), "best_line")
    return Outcome(tuple(s.seat for s in finalists), "shared")
