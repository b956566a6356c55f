"""The numbers typed in digit by digit (`nsdevice.session.digits`): each seat's total and
best line, as the score entry and the score sheet both set them, and one press on any of
the three digit screens (the score entry, the sheet, a round's line entry: `press_digits`)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from nsdevice.inputs.events import Button, Gesture, Press
from nsdevice.rules.deal import Setup
from nsdevice.rules.frozen import dataclass
from nsdevice.session.context import Context
from nsdevice.session.digits import (
    HOLD_STEP,
    SCORE_LIMITS,
    NumberField,
    digits_of,
    turned,
    untouched,
    value_of,
)

__all__ = ["SCORE_LIMITS"]  # kept here for the score entry's readers

TOTAL_FIELD = NumberField(3, *SCORE_LIMITS)
BEST_LINE_FIELD = NumberField(3, 0, SCORE_LIMITS[1])


def score_field(setup: Setup, entry: int) -> NumberField:
    return TOTAL_FIELD if setup.solo or entry % 2 == 0 else BEST_LINE_FIELD


def score_fields(
    setup: Setup, scores: Sequence[int], known: Collection[int] = ()
) -> tuple[int, ...]:
    """The fields asked, in order: every seat's total, then the best line of only the
    seats tied for the top total (C-12: nobody else's decides anything), unless a score
    sheet already gave it (`known`: those seats)."""
    if setup.solo:
        return (0,)
    totals = tuple(range(0, 2 * setup.players, 2))
    top = max(scores[t] for t in totals)
    tied = tuple(t + 1 for t in totals if scores[t] == top)
    if len(tied) < 2:
        return totals
    return totals + tuple(t for t in tied if t // 2 + 1 not in known)


def asked_fields(session: Context) -> tuple[int, ...]:
    """The session's fields asked (`score_fields`), its sheets' best lines left out."""
    state = session.state
    return score_fields(session.current_setup(), state.scores, state.sheet_best)


def field_place(fields: Sequence[int], entry: int) -> int:
    """Where `entry` stands among `fields`; a best line no longer asked stands by its
    seat's total (a total changed under it: the cursor goes on from there)."""
    return fields.index(entry) if entry in fields else fields.index(entry - entry % 2)


def entry_field(session: Context) -> NumberField:
    """The field of the score entry's cursor."""
    return score_field(session.current_setup(), session.state.entry)


def load_field(session: Context, entry: int, digit: int = 0) -> None:
    """Put the cursor on field `entry`, its digits showing its value."""
    state = session.state
    state.entry = entry
    state.digits = list(digits_of(state.scores[entry], entry_field(session)))
    state.digit = digit


def turn_digit(session: Context, press: Press, field: NumberField) -> int:
    """NEXT/BACK on the digit under the cursor (a held NEXT: five); its new value."""
    state = session.state
    step = HOLD_STEP if press.gesture is Gesture.HOLD else 1
    step = step if press.button is Button.NEXT else -1
    state.digits = list(turned(state.digits, state.digit, step, field))
    return value_of(state.digits)


@dataclass(frozen=True, slots=True)
class DigitEnds:
    """What a digit screen does where its digits end: the one thing each screen does its
    own way, around the press ladder they share (`press_digits`)."""

    value: Callable[[int], None]  # the field's new value, once a digit turned
    done: Callable[[], None]  # MENU past the field's last digit: the next field, or the end
    leave: Callable[[], None]  # BACK on an untouched field, or held on its first digit
    held_menu: Callable[[], None]  # the screen's own hold (the sheet, a skip)


def press_digits(session: Context, press: Press, field: NumberField, ends: DigitEnds) -> None:
    """One press on a digit screen: NEXT/BACK turn the digit under the cursor (a held
    NEXT by five), MENU moves on a digit (past the last: `ends.done`), a held BACK goes
    to the digit before, and BACK on a field nothing was set in leaves it. A repeat does
    nothing: one press, one step, so a wheel never races."""
    state = session.state
    if press.gesture is Gesture.REPEAT:
        return
    if press.button is Button.MENU:
        if press.gesture is Gesture.HOLD:
            ends.held_menu()
        elif state.digit + 1 < field.width:
            state.digit += 1
        else:
            ends.done()
        return
    back = press.button is Button.BACK
    if back and press.gesture is Gesture.HOLD and state.digit > 0:
        state.digit -= 1
    elif back and (press.gesture is Gesture.HOLD or untouched(state.digits, state.digit)):
        ends.leave()
    else:
        ends.value(turn_digit(session, press, field))
