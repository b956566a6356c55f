"""A seat's score sheet from a phone: checked field by field, then scored by the same
rules functions the box and `nsdevice score` use (`nsdevice.rules.scoring`).

Anything unexpected is refused with the reason: an unknown field, a missing one, a number
that is not a whole number or is out of range.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nsdevice.rules import scoring
from nsdevice.rules.frozen import dataclass

MOST_LINES = 4  # one line per pencil colour a seat holds over the game (C-8)
MOST_COUNT = 99  # no count on a sheet comes near this
SCORE_LIMITS = (-50, 999)  # as on the box's own score entry
OBJECTIVES = frozenset({"objectives"})


class SheetError(ValueError):
    """The sheet cannot be scored; the message says why."""


@dataclass(frozen=True, slots=True)
class Sheet:
    total: int
    best_line: int


def _number(value: Any, name: str, low: int = 0, high: int = MOST_COUNT) -> int:
    if type(value) is not int or not low <= value <= high:  # bool is not a number here
        raise SheetError(f"{name} must be a whole number from {low} to {high}")
    return value


def _fields(
    data: Any, required: set[str], name: str = "sheet", optional: frozenset[str] = frozenset()
) -> Mapping[str, Any]:
    if not isinstance(data, dict):
        raise SheetError(f"{name} must be an object")
    unknown = set(data) - required - optional
    if unknown:
        raise SheetError(f"unknown field {sorted(unknown)[0]!r} in {name}")
    missing = required - set(data)
    if missing:
        raise SheetError(f"missing field {sorted(missing)[0]!r} in {name}")
    return data


def _lines(data: Any, parts: int) -> list[list[int]]:
    if not isinstance(data, list) or not 1 <= len(data) <= MOST_LINES:
        raise SheetError(f"lines must be a list of 1 to {MOST_LINES} lines")
    lines = []
    for line in data:
        if not isinstance(line, list) or len(line) != parts:
            raise SheetError(f"each line must be {parts} numbers")
        lines.append([_number(value, "a line's number") for value in line])
    return lines


def _interchanges(data: Any, table: Mapping[int, int]) -> dict[int, int]:
    counts = _fields(data, {str(lines) for lines in table}, "interchanges")
    return {int(lines): _number(count, "interchanges") for lines, count in counts.items()}


def _objectives(data: Any, played: bool) -> int:
    """C-11: objectives met count only where the module is played; a sheet without the
    module may leave the field out (the phone does) or send 0, never more."""
    met = _number(data.get("objectives", 0), "objectives")
    if met and not played:
        raise SheetError("no objectives are played in this game (C-11)")
    return met


def score_sheet(line_scoring: str, data: Any, objectives: bool = True) -> Sheet:
    """The total and best line of one seat's sheet, for a city scored by `line_scoring`;
    `objectives`: the objectives module is played (C-11), so its field is asked."""
    # C-11: the objectives field is asked only when played; without them it may come as 0
    wanted, spare = ({"objectives"}, frozenset()) if objectives else (set(), OBJECTIVES)
    try:
        if line_scoring == "districts":
            sheet = _fields(
                data,
                {"lines", "stamps", "ring_unconnected", "interchanges"} | wanted,
                optional=spare,
            )
            lines = [scoring.tokyo_line(*line) for line in _lines(sheet["lines"], 2)]
            total = scoring.tokyo_total(
                lines,
                stamps=_number(sheet["stamps"], "stamps"),
                ring_unconnected=_number(sheet["ring_unconnected"], "ring stations"),
                interchanges=_interchanges(sheet["interchanges"], scoring.TOKYO_INTERCHANGES),
                objectives=_objectives(sheet, objectives),
            )
        elif line_scoring == "quarters":
            sheet = _fields(
                data,
                {"lines", "overpasses_once", "overpasses_twice", "interchanges"} | wanted,
                optional=spare,
            )
            lines = [scoring.paris_line(*line) for line in _lines(sheet["lines"], 3)]
            total = scoring.paris_total(
                lines,
                overpasses_once=_number(sheet["overpasses_once"], "overpasses"),
                overpasses_twice=_number(sheet["overpasses_twice"], "overpasses"),
                interchanges=_interchanges(sheet["interchanges"], scoring.PARIS_INTERCHANGES),
                objectives=_objectives(sheet, objectives),
            )
        else:  # a city with no line scoring (London): the totals themselves
            sheet = _fields(data, {"total", "best_line"})
            low, high = SCORE_LIMITS
            return Sheet(
                _number(sheet["total"], "total", low, high),
                _number(sheet["best_line"], "best line", 0, high),
            )
    except SheetError:
        raise
    except ValueError as error:  # the rules' own bounds (13 districts, 8 overpasses, …)
        raise SheetError(str(error)) from None
    low, high = SCORE_LIMITS
    if not low <= total <= high:
        raise SheetError(f"a total of {total} is outside {low} to {high}")
    return Sheet(total, max(lines))


def score_line(line_scoring: str, data: Any) -> tuple[tuple[int, ...], int]:
    """One round's line from a phone, as the game goes (issue 34): its counts, checked
    against what the city's line counts (S-T, S-P), and its points."""
    counts = scoring.LINE_COUNTS.get(line_scoring)
    if counts is None:
        raise SheetError("this city's lines are not scored: send totals at the game's end")
    (line,) = _lines([data], len(counts))
    for count, value in zip(counts, line, strict=True):
        if count.most is not None and value > count.most:
            raise SheetError(f"{count.key} must be a whole number from 0 to {count.most}")
    town_line = scoring.tokyo_line if line_scoring == "districts" else scoring.paris_line
    try:
        return tuple(line), town_line(*line)
    except ValueError as error:
        raise SheetError(str(error)) from None


def sheet_counts(line_scoring: str, data: Any, objectives: bool) -> tuple[int, ...]:
    """A sheet `score_sheet` took, as the box's own sheet holds it: every count in the
    sheet's order (`rules.scoring.sheet_items`: four lines, lines not sent at zero, then the
    city's items, then the objectives when played), for the result's breakdown; () for a
    city whose totals are entered as they are."""
    counts = scoring.LINE_COUNTS.get(line_scoring)
    if counts is None:
        return ()
    sent = [list(line) for line in data["lines"]]
    lines = [*sent, *([[0] * len(counts)] * (scoring.LINES - len(sent)))]
    tokyo = line_scoring == "districts"
    own = ("stamps", "ring_unconnected") if tokyo else ("overpasses_once", "overpasses_twice")
    table = scoring.TOKYO_INTERCHANGES if tokyo else scoring.PARIS_INTERCHANGES
    return (
        *(value for line in lines for value in line),
        *(data[key] for key in own),
        *(data["interchanges"][str(lines)] for lines in sorted(table)),
        *((data.get("objectives", 0),) if objectives else ()),
    )
