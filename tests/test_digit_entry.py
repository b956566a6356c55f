"""The digit entry (nsdevice.session.digits): `presses_for` against a brute-force search,
the fields' limits (a total takes −50 to 999: S-T-END's ring penalty can take a Tokyo
total below zero), and score drafts restored from a damaged save.

The brute force below models the three buttons from the module's own description (a
wheel per digit: tap ±1, held NEXT +5, the first digit of a signed field also stops on
a minus sign between 9 and 0; a number the field does not take is held at its nearest
end; MENU moves on, past the last digit it takes the number; a held BACK goes to the
digit before; BACK on an untouched field leaves it), written again here without the
module's helpers, so a mutant in `turned`, `digits_of` or `_shortest` cannot also bend
the yardstick.
"""

from __future__ import annotations

import heapq
import json
from functools import cache

import pytest

from nsdevice.inputs.events import Button, Gesture, Press
from nsdevice.session import Session, Settings
from nsdevice.session.digits import (
    MINUS,
    NumberField,
    counting_field,
    digits_of,
    fits,
    presses_for,
    turned,
    untouched,
    value_of,
)

TOTAL = NumberField(3, -50, 999)  # a seat's total (S-T-END: may be negative)
BEST_LINE = NumberField(3, 0, 999)  # C-12's tie-break
FIELDS = {
    "total -50..999": TOTAL,
    "best line 0..999": BEST_LINE,
    "count 0..99": counting_field(None),
    "districts 0..13": counting_field(13),  # T-5, P-5
    "stamps 0..60": counting_field(60),  # S-T-END: 4 × 10 + 4 × 5
    "monuments 0..8": counting_field(8),  # P-5
    "objectives 0..2": counting_field(2),  # C-11
}
TAP_NEXT = Press(Button.NEXT)
TAP_BACK = Press(Button.BACK)
HOLD_NEXT = Press(Button.NEXT, Gesture.HOLD)
HOLD_BACK = Press(Button.BACK, Gesture.HOLD)
TAP_MENU = Press(Button.MENU)


# --- the yardstick: the buttons modelled from the description alone ---------------------
def model_wheel(field: NumberField, position: int) -> str:
    return "0123456789" + ("−" if position == 0 and field.low < 0 else "")


def model_value(digits: tuple[str, ...]) -> int:
    sign = -1 if digits[0] == "−" else 1
    return sign * int("".join(d for d in digits if d != "−") or "0")


def model_held(value: int, field: NumberField) -> tuple[str, ...]:
    """The digits of the nearest number the field takes."""
    value = min(max(value, field.low), field.high)
    text = str(abs(value)).rjust(field.width - (value < 0), "0")
    return tuple(("−" if value < 0 else "") + text)


def model_turn(digits: tuple[str, ...], at: int, step: int, field: NumberField):
    wheel = model_wheel(field, at)
    turned_to = wheel[(wheel.index(digits[at]) + step) % len(wheel)]
    result = (*digits[:at], turned_to, *digits[at + 1 :])
    value = model_value(result)
    return result if field.low <= value <= field.high else model_held(value, field)


def model_press(state, press: Press, field: NumberField):
    """(digits, cursor) after `press`; None when the press leaves the field (BACK on an
    untouched field, a held BACK on the first digit); ("taken", value) past the last."""
    digits, cursor = state
    if press == TAP_MENU:
        return ("taken", model_value(digits)) if cursor == field.width - 1 else (digits, cursor + 1)
    if press == HOLD_BACK:
        return (digits, cursor - 1) if cursor > 0 else None
    if press == TAP_BACK and cursor == 0 and set(digits) == {"0"}:
        return None
    step = {TAP_NEXT: 1, TAP_BACK: -1, HOLD_NEXT: 5}[press]
    return model_turn(digits, cursor, step, field), cursor


@cache
def fewest(field: NumberField) -> dict[int, tuple[int, int]]:
    """Every value a fresh field can take → the least (presses, holds) to take it, over
    every press sequence (moving back and forth included), by Dijkstra on the model."""
    start = (("0",) * field.width, 0)
    best = {start: (0, 0)}
    taken: dict[int, tuple[int, int]] = {}
    queue = [(0, 0, start)]
    while queue:
        presses, holds, state = heapq.heappop(queue)
        if best[state] < (presses, holds):
            continue
        for press in (TAP_NEXT, TAP_BACK, HOLD_NEXT, HOLD_BACK, TAP_MENU):
            after = model_press(state, press, field)
            if after is None:
                continue
            cost = (presses + 1, holds + (press.gesture is Gesture.HOLD))
            if after[0] == "taken":
                taken[after[1]] = min(taken.get(after[1], cost), cost)
            elif after not in best or cost < best[after]:
                best[after] = cost
                heapq.heappush(queue, (*cost, after))
    return taken


def replay(presses: tuple[Press, ...], field: NumberField) -> int | None:
    state = (("0",) * field.width, 0)
    for press in presses:
        state = model_press(state, press, field)
        if state is None:
            return None
        if state[0] == "taken":
            return state[1]
    return None


# --- presses_for ---------------------------------------------------------------------------
@pytest.mark.parametrize("field", FIELDS.values(), ids=FIELDS.keys())
def test_presses_for_is_the_fewest_presses_then_the_fewest_holds_of_any_search(field):
    """Every value the field takes: `presses_for` sets it (checked on the model), with no
    more presses than the best found by searching all press sequences, and among those
    no more holds."""
    search = fewest(field)
    assert sorted(search) == list(range(field.low, field.high + 1))  # every value, no other
    for value, (presses, holds) in search.items():
        planned = presses_for(value, field)
        assert replay(planned, field) == value, (value, planned)
        used_holds = sum(p.gesture is Gesture.HOLD for p in planned)
        assert (len(planned), used_holds) == (presses, holds), (value, planned)


def test_a_total_to_300_takes_eleven_presses_at_most_and_any_total_thirteen():
    """Issue 11: 0-300 in 11 presses on the field (12 with the NEXT that opens it). The
    first digit cannot start with BACK, so 8 on it costs four presses (833: 4 + 3 + 3 and
    three MENUs is the most)."""
    assert max(len(presses_for(v, TOTAL)) for v in range(0, 301)) == 11
    assert max(len(presses_for(v, TOTAL)) for v in range(-50, 1000)) == 13
    assert len(presses_for(833, TOTAL)) == 13
    assert sorted(map(str, presses_for(7, counting_field(8)))) == [
        "hold:next",
        "menu",
        "next",
        "next",
    ]
    assert presses_for(9, counting_field(None)) == (TAP_MENU, TAP_BACK, TAP_MENU)
    assert presses_for(0, TOTAL) == (TAP_MENU,) * 3


def test_one_digit_held_at_the_fields_end_sets_the_others_in_the_fewest_presses_T5():
    """13 districts (T-5): a held NEXT on the tens makes 50, held at 13, then MENU, MENU:
    three presses, where setting the digits one after the other takes four."""
    assert presses_for(13, counting_field(13)) == (HOLD_NEXT, TAP_MENU, TAP_MENU)


def test_presses_for_never_starts_with_back_which_would_leave_the_field():
    for name, field in FIELDS.items():
        for value in range(field.low, field.high + 1):
            assert presses_for(value, field)[0] != TAP_BACK, (name, value)


def test_a_value_the_field_does_not_take_is_planned_as_its_nearest_end_S_T_END():
    assert replay(presses_for(-60, TOTAL), TOTAL) == -50
    assert replay(presses_for(1200, TOTAL), TOTAL) == 999
    assert replay(presses_for(20, counting_field(13)), counting_field(13)) == 13
    assert presses_for(-60, TOTAL) == presses_for(-50, TOTAL)


# --- the digits and the field's limits -----------------------------------------------------
def test_a_total_field_shows_minus_50_to_999_and_holds_numbers_beyond_at_its_ends_S_T_END():
    assert digits_of(-50, TOTAL) == ("−", "5", "0")
    assert digits_of(-51, TOTAL) == ("−", "5", "0")
    assert digits_of(-7, TOTAL) == ("−", "0", "7")
    assert digits_of(999, TOTAL) == ("9", "9", "9")
    assert digits_of(1000, TOTAL) == ("9", "9", "9")
    assert digits_of(42, TOTAL) == ("0", "4", "2")
    assert digits_of(-3, BEST_LINE) == ("0", "0", "0")  # a best line is never negative


def test_turning_past_a_fields_end_holds_it_there_S_T_END():
    # tens of −50 up one: −60 is past the end, held at −50
    assert turned(("−", "5", "0"), 1, 1, TOTAL) == ("−", "5", "0")
    # −00's tens back one: 9 → −90, held at −50
    assert turned(("−", "0", "0"), 1, -1, TOTAL) == ("−", "5", "0")
    # 999's hundreds up one: the minus sign follows 9 → −99, held at −50
    assert turned(("9", "9", "9"), 0, 1, TOTAL) == ("−", "5", "0")
    # a count of districts: 13's tens up one → 23, held at 13 (T-5: 13 districts)
    assert turned(("1", "3"), 0, 1, counting_field(13)) == ("1", "3")
    assert turned(("0", "9"), 0, 1, counting_field(13)) == ("1", "3")
    # within the field the wheel goes all the way round
    assert turned(("0", "9"), 1, 1, counting_field(None)) == ("0", "0")
    assert turned(("0", "0"), 1, -1, counting_field(None)) == ("0", "9")
    assert turned(("0", "7"), 1, 5, counting_field(None)) == ("0", "2")
    assert turned(("4",), 0, 5, counting_field(8)) == ("8",)  # 9 monuments: held at 8 (P-5)


def test_the_minus_sign_sits_between_9_and_0_on_a_signed_first_digit_only():
    assert turned(("9", "0", "0"), 0, 1, TOTAL) == ("−", "0", "0")
    assert turned(("−", "0", "0"), 0, 1, TOTAL) == ("0", "0", "0")
    assert turned(("0", "0", "0"), 0, -1, TOTAL) == ("−", "0", "0")
    assert turned(("5", "0", "0"), 0, 5, TOTAL) == ("−", "0", "0")  # a held NEXT: 5 → −
    assert turned(("9", "0", "0"), 0, 1, BEST_LINE) == ("0", "0", "0")  # no sign here
    assert turned(("0", "9", "0"), 1, 1, TOTAL) == ("0", "0", "0")  # nor on a later digit
    assert TOTAL.wheel(0)[-1] == MINUS and MINUS not in TOTAL.wheel(1)
    assert MINUS not in BEST_LINE.wheel(0)


def test_value_of_reads_the_sign_and_the_digits():
    assert value_of(("−", "0", "7")) == -7
    assert value_of(("−", "5", "0")) == -50
    assert value_of(("−", "0", "0")) == 0  # "−00" keeps its sign while digits are set
    assert value_of(("1", "0", "7")) == 107
    assert value_of(("−",)) == 0
    assert value_of(()) == 0


@pytest.mark.parametrize(
    ("digits", "field", "fitting"),
    [
        (("−", "5", "0"), TOTAL, True),
        (("−", "0", "0"), TOTAL, True),
        (("9", "9", "9"), TOTAL, True),
        (("−", "5", "1"), TOTAL, False),  # −51: below the field
        (("0", "−", "1"), TOTAL, False),  # a sign past the first digit
        (("−", "0", "1"), BEST_LINE, False),  # a sign on an unsigned field
        (("1", "2"), TOTAL, False),  # too few digits
        (("0", "1", "2", "3"), TOTAL, False),  # too many
        (("1", "x", "3"), TOTAL, False),  # not a digit
        (("1", "4"), counting_field(13), False),  # past the field's most
        (("1", "3"), counting_field(13), True),
        (("9",), counting_field(8), False),
    ],
)
def test_fits_accepts_only_digits_the_field_could_show(digits, field, fitting):
    assert fits(digits, field) is fitting


def test_a_counting_field_has_as_many_digits_as_its_most():
    assert counting_field(None) == NumberField(2, 0, 99)  # no bound: two digits
    assert counting_field(13) == NumberField(2, 0, 13)
    assert counting_field(8) == NumberField(1, 0, 8)
    assert counting_field(60) == NumberField(2, 0, 60)


def test_untouched_is_all_zeros_with_the_cursor_on_the_first_digit():
    assert untouched(("0", "0", "0"), 0)
    assert not untouched(("0", "0", "0"), 1)
    assert not untouched(("0", "1", "0"), 0)
    assert not untouched(("−", "0", "0"), 0)


# --- through the session: limits and restored drafts ---------------------------------------
def at_score_entry(players: int = 1, city: str = "tokyo") -> Session:
    session = Session(Settings(city=city, players=players), seed_source=lambda: "DIGITS")
    session.deal_new_game()
    while session.screen != "game_end":
        session.next()
    session.next()
    return session


def test_the_session_total_holds_at_minus_50_and_999_S_T_END():
    session = at_score_entry()
    for press in (HOLD_NEXT, HOLD_NEXT, TAP_MENU, TAP_BACK):  # −, then tens 0 → 9: −90
        session.press(press)
    assert session.view().value == -50
    session = at_score_entry()
    for press in (HOLD_NEXT, TAP_NEXT, TAP_NEXT, TAP_NEXT, TAP_NEXT):
        session.press(press)  # hundreds 0 → 5 → 9
    assert session.view().value == 900
    session.press(TAP_NEXT)  # 9 → −: −00 is 0, in the field
    assert session.view().digits == ("−", "0", "0")
    session.press(TAP_MENU)
    assert session.type_digit("9")  # −90: held at −50
    assert session.view().value == -50 and session.view().digits == ("−", "5", "0")
    session = at_score_entry()
    assert session.type_digit("9") and session.type_digit("9") and session.type_digit("9")
    assert session.screen == "result" and session.view().total == 999


def mid_entry(players: int = 1) -> tuple[Session, dict]:
    """A session saved with 15 typed on the first total, the cursor on the units."""
    session = at_score_entry(players)
    for press in (TAP_MENU, TAP_NEXT, TAP_MENU, HOLD_NEXT):
        session.press(press)
    assert session.view().digits == ("0", "1", "5") and session.view().cursor == 2
    return session, json.loads(json.dumps(session.snapshot()))


def test_a_draft_total_restores_to_the_same_digits_and_goes_on_the_same_way():
    session, saved = mid_entry()
    again = Session.restore(saved)
    assert again.view() == session.view()
    for one in (session, again):
        one.press(TAP_NEXT)
        one.press(TAP_MENU)
    assert again.view() == session.view() and again.view().total == 16


@pytest.mark.parametrize(
    "damage",
    [
        {"digits": ["0", "−", "5"]},  # a sign past the first digit
        {"digits": ["1", "5"]},  # too few digits for a total
        {"digits": ["0", "0", "1", "5"]},  # too many
        {"digits": ["0", "1", "x"]},  # not a digit
        {"digits": ["0", "1", "6"]},  # not the value saved beside it (15)
        {"digits": ["−", "5", "1"], "scores": [-51, 0]},  # below the field
        {"digit": 3},  # the cursor past the last digit
        {"digit": -1},
        {"entry": 2},  # a field the game does not have
    ],
    ids=repr,
)
def test_a_damaged_draft_total_is_refused_with_value_error(damage):
    _, saved = mid_entry()
    with pytest.raises(ValueError):
        Session.restore({**saved, **damage})


def test_a_best_line_draft_with_a_minus_sign_is_refused_C12():
    """A best line (C-12's tie-break) is never negative: its first digit has no sign."""
    session = at_score_entry(players=2)
    for value in (120, 120):  # two seats tied: their best lines are asked
        for press in presses_for(value, TOTAL):
            session.press(press)
    assert session.view().field == "best_line"
    saved = json.loads(json.dumps(session.snapshot()))
    assert Session.restore(saved).view() == session.view()
    with pytest.raises(ValueError):
        Session.restore({**saved, "digits": ["−", "0", "0"]})


def test_a_sheet_count_past_its_most_is_refused_T5():
    """A count of districts on the sheet takes 0-13 (T-5); a saved 14 is damage."""
    session = at_score_entry()
    session.press(Press(Button.MENU, Gesture.HOLD))  # the sheet: line 1's districts first
    assert session.screen == "score_sheet"
    session.press(TAP_NEXT)
    saved = json.loads(json.dumps(session.snapshot()))
    assert saved["digits"] == ["1", "0"] and saved["sheet"][0] == 10
    assert Session.restore(saved).view() == session.view()
    for sheet_digits, value in ((["1", "3"], 13), (["1", "4"], 14)):
        restored = {**saved, "digits": sheet_digits, "sheet": [value, *saved["sheet"][1:]]}
        if value <= 13:
            assert Session.restore(restored).view().digits == tuple(sheet_digits)
        else:
            with pytest.raises(ValueError):
                Session.restore(restored)
