"""Scores and the ending card: line and game totals, solo tiers, the winner (RULES section 7)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from nsdevice.rules import cities
from nsdevice.rules.cities import City
from nsdevice.rules.frozen import dataclass

MODULE_PENALTY = 10  # C-13: per module used in a solo game
OBJECTIVE_POINTS = 10  # C-11
TOKYO_RING_STATIONS = 8  # T-5
TOKYO_RING_PENALTY = 3  # S-T-END
TOKYO_INTERCHANGES = {3: 5, 4: 15, 5: 30}  # S-T-END: lines through one station → points
PARIS_INTERCHANGES = {2: 2, 3: 5, 4: 9}  # S-P-END
PARIS_OVERPASS_ONCE = 2
PARIS_OVERPASS_TWICE = 6
PARIS_MONUMENT_POINTS = 2  # S-P
PARIS_OVERPASSES = 8  # P-5: the map has 8 overpasses
LINES = 4  # S-T-END, S-P-END: one line per round, four rounds
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


def _stamps(stamps: int) -> int:
    """S-T-END: the points of a sheet's tourist stamps, a sum the city's stamps can make
    (Tokyo: corner districts 10, the other outer ones 5, so fives from 0 to 60)."""
    town = cities.city("tokyo")
    most = sum(town.stamp_values)
    _count("tourist stamps", stamps, most)
    if stamps not in town.stamp_totals():
        raise ValueError(f"tourist stamps come in {_values(town.stamp_values)} ({stamps})")
    return stamps


def _values(values: Sequence[int]) -> str:
    return " and ".join(str(v) for v in sorted(set(values)))


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
        + _stamps(stamps)
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
    if overpasses_once + overpasses_twice > PARIS_OVERPASSES:
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


# --- the score sheet, item by item (the box's walk-through and `nsdevice score`) ----------
@dataclass(frozen=True, slots=True)
class Count:
    """One number a player reads off their sheet; `most` bounds it where the rules do."""

    key: str  # "districts", "stations", "quarters", "stops", "monuments", "stamps", ...
    most: int | None = None


@dataclass(frozen=True, slots=True)
class SheetItem:
    """One line of the city's score sheet, in sheet order: what is counted for it."""

    key: str  # "line", "stamps", "ring", "overpasses", "interchanges", "objectives"
    counts: tuple[Count, ...]
    number: int = 0  # a line: its round (one line per round)


# What a round's line counts, by the city's line scoring (S-T, S-P); London has none.
LINE_COUNTS: dict[str, tuple[Count, ...]] = {
    "districts": (Count("districts", 13), Count("stations")),
    "quarters": (Count("quarters", 13), Count("stops"), Count("monuments", 8)),
}


def _interchanges(table: Mapping[int, int]) -> SheetItem:
    return SheetItem("interchanges", tuple(Count(f"interchanges_{n}") for n in sorted(table)))


def sheet_items(city: City, objectives: bool) -> tuple[SheetItem, ...]:
    """The city's score sheet in its order (S-T-END, S-P-END): a line per round, then the
    city's own items, then the objectives when that module is played (C-11). Empty for a
    city whose data gives no line scoring (London: totals only)."""
    counts = LINE_COUNTS.get(city.line_scoring)
    if counts is None:
        return ()
    lines = tuple(SheetItem("line", counts, number) for number in range(1, LINES + 1))
    if city.line_scoring == "districts":
        own: tuple[SheetItem, ...] = (
            SheetItem("stamps", (Count("stamps", sum(city.stamp_values)),)),
            SheetItem("ring", (Count("ring_unconnected", TOKYO_RING_STATIONS),)),
            _interchanges(TOKYO_INTERCHANGES),
        )
    else:
        own = (
            SheetItem(
                "overpasses",
                (Count("overpasses_once", PARIS_OVERPASSES), Count("overpasses_twice", 8)),
            ),
            _interchanges(PARIS_INTERCHANGES),
        )
    extra = (SheetItem("objectives", (Count("objectives", 2),)),) if objectives else ()
    return (*lines, *own, *extra)


def line_points(city: City, counts: Sequence[int]) -> int:
    """One round's line by the city's rule (S-T or S-P)."""
    if city.line_scoring == "districts":
        return tokyo_line(*counts)
    if city.line_scoring == "quarters":
        return paris_line(*counts)
    raise ValueError(f"{city.name} has no line scoring: enter its totals")


def sheet_total(city: City, items: Sequence[SheetItem], values: Sequence[Sequence[int]]) -> int:
    """The game total from the sheet's counts (`values[i]` holds `items[i]`'s counts, in
    order): the one sum the walk-through and `nsdevice score` both use. ValueError for
    counts the rules refuse."""
    lines: list[int] = []
    found: dict[str, int] = {}
    interchanges: dict[int, int] = {}
    for item, counts in zip(items, values, strict=True):
        if len(counts) != len(item.counts):
            raise ValueError(f"{item.key} takes {len(item.counts)} counts")
        if item.key == "line":
            lines.append(line_points(city, counts))
            continue
        for count, value in zip(item.counts, counts, strict=True):
            if item.key == "interchanges":
                interchanges[int(count.key.removeprefix("interchanges_"))] = value
            else:
                found[count.key] = value
    if city.line_scoring == "districts":
        return tokyo_total(
            lines,
            stamps=found.get("stamps", 0),
            ring_unconnected=found.get("ring_unconnected", 0),
            interchanges=interchanges,
            objectives=found.get("objectives", 0),
        )
    return paris_total(
        lines,
        overpasses_once=found.get("overpasses_once", 0),
        overpasses_twice=found.get("overpasses_twice", 0),
        interchanges=interchanges,
        objectives=found.get("objectives", 0),
    )


def sheet_parts(
    city: City, items: Sequence[SheetItem], values: Sequence[Sequence[int]]
) -> tuple[tuple[str, int], ...]:
    """A sheet's total by part, in the sheet's order (S-T-END, S-P-END): ("lines", the four
    lines' sum), then each other item's points under its key ("ring" is negative); they
    add up to `sheet_total`. ValueError for counts the rules refuse."""
    sheet_total(city, items, values)  # the same refusals as the total
    parts: dict[str, int] = {}
    for item, counts in zip(items, values, strict=True):
        if item.key == "line":
            points = line_points(city, counts)
            parts["lines"] = parts.get("lines", 0) + points
            continue
        found = {count.key: value for count, value in zip(item.counts, counts, strict=True)}
        if item.key == "interchanges":
            table = TOKYO_INTERCHANGES if city.line_scoring == "districts" else PARIS_INTERCHANGES
            by_lines = {int(key.removeprefix("interchanges_")): v for key, v in found.items()}
            parts[item.key] = _interchange_points(table, by_lines)
        elif item.key == "stamps":
            parts[item.key] = found["stamps"]
        elif item.key == "ring":
            parts[item.key] = -TOKYO_RING_PENALTY * found["ring_unconnected"]
        elif item.key == "overpasses":
            once, twice = found["overpasses_once"], found["overpasses_twice"]
            parts[item.key] = PARIS_OVERPASS_ONCE * once + PARIS_OVERPASS_TWICE * twice
        elif item.key == "objectives":
            parts[item.key] = OBJECTIVE_POINTS * found["objectives"]
        else:
            raise ValueError(f"no points for sheet item {item.key!r}")
    return tuple(parts.items())
