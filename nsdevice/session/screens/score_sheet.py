"""One seat's score sheet, count by count (S-T-END, S-P-END), from the score entry: the
same digits as the entry, and the sheet's sum goes back into the seat's total."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from nsdevice import views
from nsdevice.inputs.events import Press
from nsdevice.rules import scoring
from nsdevice.rules.cities import city
from nsdevice.rules.deal import Setup
from nsdevice.rules.modules import Module
from nsdevice.session.context import EVERY_BUTTON, Album, Context, Screen
from nsdevice.session.digits import NumberField, counting_field, digits_of
from nsdevice.session.names import Kind, ScreenName
from nsdevice.session.screens.common import hints
from nsdevice.session.screens.examples import tables
from nsdevice.session.screens.fields import (
    SCORE_LIMITS,
    DigitEnds,
    entry_field,
    load_field,
    press_digits,
)


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
    """The sheet of the seat whose total the entry is on, on its first count not given:
    its counts as far as they are known (its whole sheet once walked, else the lines
    entered as the game went, the rest at zero)."""
    state = session.state
    setup = session.current_setup()
    seat = state.entry // 2 + 1
    state.sheet = list(known_counts(setup, state.lines.get(seat, {}), state.sheets.get(seat)))
    state.screen = ScreenName.SCORE_SHEET
    _load_count(session, _asked_after(session, -1) or 0)


def known_counts(
    setup: Setup, lines: Mapping[int, Sequence[int]], sheet: Sequence[int] | None = None
) -> tuple[int, ...]:
    """A seat's sheet as far as it is known: `sheet` when it was walked, else zeros with
    the lines entered as the game went (`lines`: round → that line's counts) in place."""
    if sheet is not None:
        return tuple(sheet)
    counts = [0] * len(sheet_counts(setup))
    for number, values in lines.items():
        first = line_steps(setup, number)[0]
        counts[first : first + len(values)] = values
    return tuple(counts)


def line_steps(setup: Setup, number: int) -> tuple[int, ...]:
    """The sheet's steps of round `number`'s line."""
    items = scoring.sheet_items(city(setup.city), Module.OBJECTIVES in setup.modules)
    return tuple(
        step
        for step, (index, _) in enumerate(sheet_counts(setup))
        if items[index].key == "line" and items[index].number == number
    )


def _asked_after(session: Context, step: int) -> int | None:
    """The sheet's next count after `step` that was not given as the game went (a line
    entered at its round's end is not asked again); None past the last."""
    state = session.state
    setup = session.current_setup()
    seat = state.entry // 2 + 1
    given = {s for number in state.lines.get(seat, {}) for s in line_steps(setup, number)}
    return next((s for s in range(step + 1, len(state.sheet)) if s not in given), None)


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
    state.sheets[state.entry // 2 + 1] = tuple(state.sheet)  # for the result's breakdown
    if not setup.solo:
        state.scores[state.entry + 1] = sheet_best_line(setup, state.sheet)
        seat = state.entry // 2 + 1
        if seat not in state.sheet_best:
            state.sheet_best.append(seat)
    load_field(session, state.entry, digit=entry_field(session).width - 1)


def on_score_sheet(session: Context, press: Press) -> None:
    """The same digits as the score entry (`fields.press_digits`), one count of the sheet
    after another (past the lines given as the game went); a held MENU skips to typing
    the total in, BACK walks back over every count, given ones too, to correct them."""
    state = session.state
    setup = session.current_setup()

    def value(number: int) -> None:
        state.sheet[state.sheet_step] = number

    def done() -> None:
        later = _asked_after(session, state.sheet_step)
        if later is not None:
            _load_count(session, later)
            return
        total = sheet_sum(setup, state.sheet)
        if total is not None:  # else the sheet says which counts cannot be right
            _leave_sheet(session, total)

    def leave() -> None:
        if state.sheet_step == 0:
            _leave_sheet(session, None)
        else:
            _load_count(session, state.sheet_step - 1)

    def skip() -> None:
        _leave_sheet(session, None)

    press_digits(session, press, count_field(session), DigitEnds(value, done, leave, skip))


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
