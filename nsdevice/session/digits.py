"""A number set digit by digit with three buttons: the score entry and the score sheet.

Each digit is a wheel: a tap of NEXT or BACK turns it by one, a held NEXT by five, all
the way round, so any digit is at most three presses away (0→5 by a hold, 5→7 by two
taps; 9 is one BACK from 0). A held BACK is left to the session: the digit before.
A field's first digit may also stop on a minus sign, between 9 and 0, when the field
takes negative numbers (a Tokyo total can be below zero: S-T-END's ring penalty).
The digits are kept as shown, so "−00" keeps its sign while the digits after it are set.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from functools import lru_cache

from nsdevice.inputs.events import Button, Gesture, Press
from nsdevice.rules.frozen import dataclass

MINUS = "−"
WHEEL = tuple("0123456789")
SIGNED_WHEEL = (*WHEEL, MINUS)  # a first digit that may be a minus sign
HOLD_STEP = 5  # a held NEXT turns a digit by five
# A total may go below zero (S-T-END's ring penalty), a best line may not; both end at 999.
SCORE_LIMITS = (-50, 999)


@dataclass(frozen=True, slots=True)
class NumberField:
    """How many digits a field has and the numbers it takes."""

    width: int
    low: int
    high: int

    def wheel(self, position: int) -> tuple[str, ...]:
        return SIGNED_WHEEL if position == 0 and self.low < 0 else WHEEL


def counting_field(most: int | None) -> NumberField:
    """A count off the sheet: as many digits as its largest value, two when unbounded."""
    high = 99 if most is None else most
    return NumberField(len(str(high)), 0, high)


def digits_of(value: int, field: NumberField) -> tuple[str, ...]:
    """`value`, held within the field, as the digits the screen shows."""
    value = max(field.low, min(field.high, value))
    if value < 0:
        return (MINUS, *str(-value).zfill(field.width - 1))
    return tuple(str(value).zfill(field.width))


def value_of(digits: Sequence[str]) -> int:
    if digits and digits[0] == MINUS:
        return -int("".join(digits[1:]) or "0")
    return int("".join(digits) or "0")


def turned(digits: Sequence[str], position: int, step: int, field: NumberField) -> tuple[str, ...]:
    """The digits with the one at `position` turned `step` places; a number the field
    does not take is held at its nearest end."""
    wheel = field.wheel(position)
    here = wheel[(wheel.index(digits[position]) + step) % len(wheel)]
    result = (*digits[:position], here, *digits[position + 1 :])
    value = value_of(result)
    if field.low <= value <= field.high:
        return result
    return digits_of(value, field)


def fits(digits: Sequence[str], field: NumberField) -> bool:
    """The digits are ones this field could show (a restored draft is checked with it)."""
    return (
        len(digits) == field.width
        and all(d in field.wheel(i) for i, d in enumerate(digits))
        and field.low <= value_of(digits) <= field.high
    )


def untouched(digits: Sequence[str], cursor: int) -> bool:
    """Nothing set on this field yet: all zeros, the cursor on its first digit."""
    return cursor == 0 and all(d == "0" for d in digits)


def presses_for(value: int, field: NumberField) -> tuple[Press, ...]:
    """The fewest presses that set a fresh field (all zeros, cursor first) to `value` and
    take it (MENU past the last digit), and of those the fewest holds (a hold is slower
    than a tap): for scripts, tests and the benchmark. A number the field does not take
    is planned as its nearest end. The search runs over every press the field answers,
    a held BACK to the digit before included, each tried with `turned` itself: a digit
    set first can hold a number at the field's end and set the others (13 on a count of
    0-13 is a held NEXT on the tens, then MENU, MENU). A BACK on the untouched field, or
    a held BACK on its first digit, would leave it, so neither is ever planned."""
    return _plans(field)[max(field.low, min(field.high, value))]


@lru_cache(maxsize=16)  # one search a field, for every value; a box has only a few fields
def _plans(field: NumberField) -> dict[int, tuple[Press, ...]]:
    """Dijkstra over (digits, cursor) from the fresh field, by (presses, holds): the best
    plan for every value the field takes."""
    moves = (
        (Press(Button.NEXT), 1),
        (Press(Button.BACK), -1),
        (Press(Button.NEXT, Gesture.HOLD), HOLD_STEP),
        (Press(Button.MENU), 0),
        (Press(Button.BACK, Gesture.HOLD), 0),
    )
    start: tuple[tuple[str, ...], int] = (("0",) * field.width, 0)
    paths: dict[tuple[tuple[str, ...], int], tuple[Press, ...]] = {start: ()}
    costs = {start: (0, 0)}
    plans: dict[int, tuple[Press, ...]] = {}
    queue = [(0, 0, 0, start)]
    pushed = 1  # a tie-break for the heap: the order states were first reached
    while queue:
        presses, holds, _, state = heapq.heappop(queue)
        if costs[state] != (presses, holds):
            continue  # reached again more cheaply since this entry was queued
        digits, cursor = state
        for press, step in moves:
            hold = press.gesture is Gesture.HOLD
            if press.button is Button.MENU:
                if cursor + 1 == field.width:
                    plans.setdefault(value_of(digits), (*paths[state], press))
                    continue
                there = (digits, cursor + 1)
            elif press.button is Button.BACK and (hold or untouched(digits, cursor)):
                if cursor == 0:
                    continue  # it would leave the field
                there = (digits, cursor - 1)
            else:
                there = (turned(digits, cursor, step, field), cursor)
            cost = (presses + 1, holds + hold)
            if there not in costs or cost < costs[there]:
                costs[there] = cost
                paths[there] = (*paths[state], press)
                heapq.heappush(queue, (*cost, pushed, there))
                pushed += 1
    return plans
