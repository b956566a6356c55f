"""A number set digit by digit with three buttons: the score entry and the score sheet.

Each digit is a wheel: a tap of NEXT or BACK turns it by one, a held NEXT by five, all
the way round, so any digit is at most three presses away (0→5 by a hold, 5→7 by two
taps; 9 is one BACK from 0). A held BACK is left to the session: the digit before.
A field's first digit may also stop on a minus sign, between 9 and 0, when the field
takes negative numbers (a Tokyo total can be below zero: S-T-END's ring penalty).
The digits are kept as shown, so "−00" keeps its sign while the digits after it are set.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from nsdevice.inputs.events import Button, Gesture, Press

MINUS = "−"
WHEEL = tuple("0123456789")
SIGNED_WHEEL = (*WHEEL, MINUS)  # a first digit that may be a minus sign
HOLD_STEP = 5  # a held NEXT turns a digit by five


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
    than a tap): for scripts, tests and the benchmark. Each step is tried with `turned`
    itself, so a number held at the field's end is planned for as it happens; a BACK is
    never the first press, where it would leave the empty field instead of turning."""
    target = digits_of(value, field)
    digits = ("0",) * field.width
    presses: list[Press] = []
    for position in range(field.width):
        path, digits = _shortest(digits, position, target[: position + 1], field)
        presses += [*path, Press(Button.MENU)]
    return tuple(presses)


def _shortest(
    digits: tuple[str, ...], position: int, goal: tuple[str, ...], field: NumberField
) -> tuple[list[Press], tuple[str, ...]]:
    """Breadth first over the digits a press at `position` can make (tap NEXT, tap BACK,
    hold NEXT) until the digits up to it read `goal`; ties go to fewer holds."""
    moves = (
        (Press(Button.NEXT), 1),
        (Press(Button.BACK), -1),
        (Press(Button.NEXT, Gesture.HOLD), HOLD_STEP),
    )
    best: dict[tuple[str, ...], tuple[int, int, list[Press]]] = {digits: (0, 0, [])}
    frontier = [digits]
    while frontier:
        done = [d for d in frontier if d[: position + 1] == goal]
        if done:
            reached = min(done, key=lambda d: best[d][:2])
            return best[reached][2], reached
        following: list[tuple[str, ...]] = []
        for at in frontier:
            presses, holds, path = best[at]
            for press, step in moves:
                if press.button is Button.BACK and untouched(at, position):
                    continue
                there = turned(at, position, step, field)
                cost = (presses + 1, holds + (press.gesture is Gesture.HOLD))
                if there not in best or cost < best[there][:2]:
                    best[there] = (*cost, [*path, press])
                    if there not in following:
                        following.append(there)
        frontier = following
    raise ValueError(f"{goal} cannot be reached on {field}")
