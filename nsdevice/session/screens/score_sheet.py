"""One seat's score sheet, count by count (S-T-END, S-P-END), from the score entry: the
same digits as the entry, and the sheet's sum goes back into the seat's total."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from nsdevice import views
from nsdevice.inputs.events import Button, Gesture, Press
from nsdevice.rules import scoring
from nsdevice.rules.cities import city
from nsdevice.rules.deal import Setup
from nsdevice.rules.modules import Module
from nsdevice.session.context import EVERY_BUTTON, Album, Context, Screen
from nsdevice.session.digits import NumberField, counting_field, digits_of, untouched
from nsdevice.session.names import Kind, ScreenName
from nsdevice.session.screens.common import hints
from nsdevice.session.screens.examples import tables
from nsdevice.session.screens.fields import SCORE_LIMITS, entry_field, load_field, turn_digit


def sheet_counts(setup: Setup) -> tuple[tuple[int, scoring.Count], ...]:
    """Every count of the setup's score sheet in order, each with its item's index."""
    items = scoring.sheet_items(city(setup.city), Module.OBJECTIVES in setup.modules)
    return tuple((index, count) for index, item in enumerate(items) for count in item.counts)


def sheet_values(
    items: Sequence[scoring.SheetItem], counts: Sequence[int]
) -> list[tuple[int, ...]]:
    """The flat counts of the session, grouped by sheet item."""
    values, start = [], 0
    for item in items:
        values.append(tuple(counts[start : start + len(item.counts)]))
        start += len(item.counts)
    return values


def sheet_sum(setup: Setup, counts: Sequence[int]) -> int | None:
    """The sheet's total so far (scoring.sheet_total); None while the counts cannot all be
    right: more overpasses than the map has, or a total no game reaches, past what the
    seat's total can hold (SCORE_LIMITS: the entry's digits, and what a restore takes)."""
    town = city(setup.city)
    items = scoring.sheet_items(town, Module.OBJECTIVES in setup.modules)
    try:
        total = scoring.sheet_total(town, items, sheet_values(items, counts))
    except ValueError:
        return None
    low, high = SCORE_LIMITS
    return total if low <= total <= high else None


def sheet_view(
    setup: Setup,
    entry: int,
    counts: Sequence[int],
    step: int,
    language: str,
    digits: Sequence[str] | None = None,
    cursor: int = 0,
) -> views.SheetView:
    """Seat `entry // 2 + 1`'s sheet; `counts`: every count in sheet order; `step`: the
    one being set, shown as `digits` (by default, its value)."""
    town = city(setup.city)
    items = scoring.sheet_items(town, Module.OBJECTIVES in setup.modules)
    layout = sheet_counts(setup)
    index, count = layout[step]
    item = items[index]
    first = next(n for n, (i, _) in enumerate(layout) if i == index)
    mine = counts[first : first + len(item.counts)]
    alone = [0] * len(counts)
    alone[first : first + len(item.counts)] = mine
    field = counting_field(count.most)
    shown = tuple(digits) if digits is not None else digits_of(counts[step], field)
    last = cursor + 1 == field.width and step + 1 == len(layout)
    return views.SheetView(
        city=setup.city.value,
        seat=entry // 2 + 1,
        solo=setup.solo,
        item=item.key,
        number=item.number,
        counts=tuple(views.SheetCount(c.key, v) for c, v in zip(item.counts, mine, strict=True)),
        count=step - first,
        digits=shown,
        cursor=cursor,
        points=sheet_sum(setup, alone),
        running=sheet_sum(setup, counts),
        step=index,
        steps=len(items),
        line_scoring=town.line_scoring,
        module_penalty=scoring.MODULE_PENALTY * len(setup.modules) if setup.solo else 0,
        hints=hints(
            next="plus_five",
            back="minus_one",
            menu="done" if last else ("continue" if cursor + 1 == field.width else "next_digit"),
        ),
        language=language,
    )


def show_score_sheet(session: Context) -> views.SheetView:
    state = session.state
    return sheet_view(
        session.current_setup(),
        state.entry,
        state.sheet,
        state.sheet_step,
        session.language,
        state.digits,
        state.digit,
    )


def open_sheet(session: Context) -> None:
    """The sheet of the seat whose total the entry is on, every count at zero."""
    state = session.state
    state.sheet = [0] * len(sheet_counts(session.current_setup()))
    state.screen = ScreenName.SCORE_SHEET
    _load_count(session, 0)


def _load_count(session: Context, step: int) -> None:
    state = session.state
    state.sheet_step = step
    state.digits = list(digits_of(state.sheet[step], count_field(session)))
    state.digit = 0


def count_field(session: Context) -> NumberField:
    """The field of the sheet's cursor."""
    counts = sheet_counts(session.current_setup())
    return counting_field(counts[session.state.sheet_step][1].most)


def sheet_best_line(setup: Setup, counts: Sequence[int]) -> int:
    """The best of the sheet's lines (C-12's tie-break), by the city's line rule."""
    town = city(setup.city)
    items = scoring.sheet_items(town, Module.OBJECTIVES in setup.modules)
    lines = [
        scoring.line_points(town, values)
        for item, values in zip(items, sheet_values(items, counts), strict=True)
        if item.key == "line"
    ]
    return max(lines, default=0)


def _leave_sheet(session: Context, total: int | None) -> None:
    """Back to the seat's total: filled from the sheet, the cursor on its last digit so
    one MENU takes it, and the seat's best line taken from the sheet too (never asked
    again, C-12); or (skipped) as it was."""
    state = session.state
    state.screen = ScreenName.SCORE_ENTRY
    if total is None:
        load_field(session, state.entry)
        return
    state.scores[state.entry] = total
    setup = session.current_setup()
    if not setup.solo:
        state.scores[state.entry + 1] = sheet_best_line(setup, state.sheet)
        seat = state.entry // 2 + 1
        if seat not in state.sheet_best:
            state.sheet_best.append(seat)
    load_field(session, state.entry, digit=entry_field(session).width - 1)


def on_score_sheet(session: Context, press: Press) -> None:
    """The same digits as the score entry, one count of the sheet after another; a held
    MENU skips to typing the total in."""
    state = session.state
    if press.gesture is Gesture.REPEAT:
        return
    setup = session.current_setup()
    field = count_field(session)
    steps = len(state.sheet)
    if press.button is Button.MENU:
        if press.gesture is Gesture.HOLD:
            _leave_sheet(session, None)
        elif state.digit + 1 < field.width:
            state.digit += 1
        elif state.sheet_step + 1 < steps:
            _load_count(session, state.sheet_step + 1)
        else:
            total = sheet_sum(setup, state.sheet)
            if total is not None:  # else the sheet says which counts cannot be right
                _leave_sheet(session, total)
        return
    back = press.button is Button.BACK
    if back and press.gesture is Gesture.HOLD and state.digit > 0:
        state.digit -= 1
    elif back and (press.gesture is Gesture.HOLD or untouched(state.digits, state.digit)):
        if state.sheet_step == 0:
            _leave_sheet(session, None)
        else:
            _load_count(session, state.sheet_step - 1)
    else:
        state.sheet[state.sheet_step] = turn_digit(session, press, field)


# --- the gallery's examples ---------------------------------------------------------------
def _score_sheet_examples(album: Album) -> Iterator[tuple[str, views.View]]:
    """The score sheet walk-through (S-T-END, S-P-END): a line's second count at a table,
    a solo game's interchanges and its last count (the objectives when played); none for
    a city without line scoring."""
    games, language = tables(album.city), album.language
    solo, table = games.solo, games.three
    if not sheet_counts(solo.setup):
        return

    def counts(setup: Setup) -> list[int]:
        layout = sheet_counts(setup)
        example = (5, 4, 3, 6, 2, 4, 7, 3, 1, 2, 1, 0, 1, 1, 0, 1, 1)
        padded = (*example, *(0,) * len(layout))  # zeros for any further counts
        return [min(v, c.most or 99) for v, (_, c) in zip(padded, layout, strict=False)]

    def step(setup: Setup, key: str) -> int:
        return next(n for n, (_, c) in enumerate(sheet_counts(setup)) if c.key.startswith(key))

    at_table = counts(table.setup)
    second_line = next(n for n, (i, _) in enumerate(sheet_counts(table.setup)) if i == 1) + 1
    yield "score-sheet-line", sheet_view(table.setup, 2, at_table, second_line, language, cursor=1)
    alone = counts(solo.setup)
    changes = step(solo.setup, "interchanges_") + 1
    yield "score-sheet-interchanges", sheet_view(solo.setup, 0, alone, changes, language)
    yield "score-sheet-last", sheet_view(solo.setup, 0, alone, len(alone) - 1, language)


SCORE_SHEET = Screen(
    ScreenName.SCORE_SHEET,
    Kind.GAME,
    views.SheetView,
    on_score_sheet,
    show_score_sheet,
    _score_sheet_examples,
    holds=EVERY_BUTTON,
    over=True,
)
RECORDS = (SCORE_SHEET,)
