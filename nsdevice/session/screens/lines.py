"""Each round's line entered at the round's end, as the game goes (issue 34): a held NEXT on
a round's end opens the line entry on seat 1; a seat's line is set count by count with
the score sheet's digits (S-T, S-P), MENU past its last count takes it and goes on to the
next seat, a held MENU skips a seat, and after the last seat the round's end is back. The
box keeps each seat's lines (`State.lines`), so the game's end asks only what is left
(`score_sheet.open_sheet`). Entering nothing along the way changes nothing at the end.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace

from nsdevice import views
from nsdevice.inputs.events import Press
from nsdevice.rules import scoring
from nsdevice.rules.cities import city
from nsdevice.rules.deal import Setup
from nsdevice.rules.room import player_name
from nsdevice.session.context import EVERY_BUTTON, Album, Context, Screen
from nsdevice.session.digits import NumberField, counting_field, digits_of
from nsdevice.session.names import Kind, ScreenName
from nsdevice.session.screens.common import hints
from nsdevice.session.screens.examples import tables
from nsdevice.session.screens.fields import DigitEnds, press_digits
from nsdevice.session.screens.score_sheet import known_counts, line_steps, sheet_view

Lines = Mapping[int, Sequence[int]]  # one seat's lines entered: round → that line's counts


def line_counts(setup: Setup) -> tuple[scoring.Count, ...]:
    """What one line counts in the setup's city (S-T, S-P); none where lines are not
    scored (London: totals only)."""
    return scoring.LINE_COUNTS.get(city(setup.city).line_scoring, ())


def takes_lines(session: Context) -> bool:
    """The round's end may open the line entry: a one-table game of a city whose lines
    are scored (a room's tables score on their phones)."""
    state = session.state
    return state.setup is not None and state.room is None and bool(line_counts(state.setup))


def running_totals(setup: Setup, lines: Mapping[int, Lines]) -> tuple[int | None, ...]:
    """Each seat's lines entered so far, added up by the city's line rule; None for a
    seat that entered none."""
    town = city(setup.city)
    return tuple(
        sum(scoring.line_points(town, counts) for counts in lines[seat].values())
        if lines.get(seat)
        else None
        for seat in range(1, setup.players + 1)
    )


def line_field(setup: Setup, step: int) -> NumberField:
    return counting_field(line_counts(setup)[step].most)


# --- the line entry ----------------------------------------------------------------------------
def line_view(
    setup: Setup,
    seat: int,
    number: int,
    lines: Lines,
    counts: Sequence[int],
    step: int,
    language: str,
    digits: Sequence[str] | None = None,
    cursor: int = 0,
) -> views.SheetView:
    """Seat `seat`'s line of round `number` as the score sheet shows a line: `counts`
    being set (count `step`, shown as `digits`), its points, and the seat's lines so far
    (`lines`, this round's left out) added up."""
    others = {round_number: c for round_number, c in lines.items() if round_number != number}
    sheet = known_counts(setup, {**others, number: counts})
    view = sheet_view(
        setup, 2 * (seat - 1), sheet, line_steps(setup, number)[step], language, digits, cursor
    )
    width = line_field(setup, step).width
    if cursor + 1 < width:
        menu = "next_digit"
    elif step + 1 < len(counts) or seat < setup.players:
        menu = "continue"
    else:
        menu = "done"
    return replace(
        view,
        along=True,
        step=seat - 1,
        steps=setup.players,
        module_penalty=0,
        hints=hints(next="plus_five", back="minus_one", menu=menu),
    )


def show_line_entry(session: Context) -> views.SheetView:
    state = session.state
    seat = state.line_seat
    return line_view(
        session.current_setup(),
        seat,
        state.progress.round,
        state.lines.get(seat, {}),
        state.sheet,
        state.sheet_step,
        session.language,
        state.digits,
        state.digit,
    )


def open_lines(session: Context) -> None:
    """From the round's end: seat 1's line of this round (as entered before, if it was)."""
    session.state.screen = ScreenName.LINE_ENTRY
    _load_seat(session, 1)


def _load_seat(session: Context, seat: int) -> None:
    state = session.state
    state.line_seat = seat
    entered = state.lines.get(seat, {}).get(state.progress.round)
    state.sheet = list(entered) if entered else [0] * len(line_counts(session.current_setup()))
    _load_count(session, 0)


def _load_count(session: Context, step: int) -> None:
    state = session.state
    state.sheet_step = step
    state.digits = list(digits_of(state.sheet[step], line_field(session.current_setup(), step)))
    state.digit = 0


def _next_seat(session: Context) -> None:
    state = session.state
    if state.line_seat < session.current_setup().players:
        _load_seat(session, state.line_seat + 1)
    else:
        close_lines(session)


def close_lines(session: Context) -> None:
    """Back to the round's end, the entry's draft gone (the lines taken are kept)."""
    state = session.state
    state.screen = ScreenName.ROUND_END
    state.line_seat = 0
    state.sheet, state.sheet_step, state.digits, state.digit = [], 0, [], 0


def on_line_entry(session: Context, press: Press) -> None:
    """The score sheet's digits (`fields.press_digits`) over one seat's line: MENU past its
    last count takes the line and goes to the next seat, a held MENU skips the seat, BACK
    on an untouched first count goes to the seat before (from seat 1: the round's end)."""
    state = session.state
    setup = session.current_setup()

    def value(number: int) -> None:
        state.sheet[state.sheet_step] = number

    def done() -> None:
        if state.sheet_step + 1 < len(state.sheet):
            _load_count(session, state.sheet_step + 1)
            return
        state.lines.setdefault(state.line_seat, {})[state.progress.round] = tuple(state.sheet)
        _next_seat(session)

    def leave() -> None:
        if state.sheet_step > 0:
            _load_count(session, state.sheet_step - 1)
        elif state.line_seat > 1:
            _load_seat(session, state.line_seat - 1)
        else:
            close_lines(session)

    def skip() -> None:
        _next_seat(session)

    field = line_field(setup, state.sheet_step)
    press_digits(session, press, field, DigitEnds(value, done, leave, skip))


# --- from the phones -------------------------------------------------------------------------
def open_round(session: Context) -> int:
    """The last round whose line may be sent now (0: none): the round under way once its
    last card is out, else the one before; none before the game's end is scored, in a
    room, or where lines are not scored. The phones' page refuses a later round."""
    state = session.state
    if not takes_lines(session) or state.recorded:
        return 0
    showing = session.screens[session.showing()]
    if showing.kind is not Kind.GAME or showing.over:
        return 0
    number = state.progress.round
    turns = len(session.current_deal().rounds[number - 1].turns)
    return number if state.progress.revealed == turns else number - 1


def enter_line(session: Context, seat: int, number: int, counts: Sequence[int]) -> bool:
    """A seat's line of round `number` from its phone: kept as the box's own line entry
    keeps one. Taken for any round up to the one under way while the game is played (so
    a line the page took is not lost to a BACK pressed meanwhile); if the box's line entry
    is open on that very line, it shows the phone's counts at once (the phone's row is the
    newer). False (nothing changes) when it does not fit."""
    state = session.state
    setup = state.setup
    if setup is None or not takes_lines(session) or state.recorded:
        return False
    showing = session.screens[session.showing()]
    if showing.kind is not Kind.GAME or showing.over:
        return False  # the game's end: its sheets take the lines
    fields = [counting_field(count.most) for count in line_counts(setup)]
    fits = len(counts) == len(fields) and all(
        type(v) is int and f.low <= v <= f.high for f, v in zip(fields, counts, strict=False)
    )
    if not (fits and 1 <= seat <= setup.players and 1 <= number <= state.progress.round):
        return False
    state.lines.setdefault(seat, {})[number] = tuple(counts)
    here = state.screen is ScreenName.LINE_ENTRY and state.progress.round == number
    if here and state.line_seat == seat:
        _load_seat(session, seat)
    return True


def name_seat(session: Context, seat: int, name: str) -> bool:
    """The name a one-table seat's phone joined with, for the result and the history;
    False (nothing changes) in a room, for a seat the table lacks or a name that is none
    (`rules.room.player_name`, the room's own rule)."""
    state = session.state
    setup = state.setup
    if setup is None or state.room is not None or not 1 <= seat <= setup.players:
        return False
    try:
        name = player_name(name)
    except ValueError:
        return False
    if state.names.get(seat) == name:
        return False
    state.names[seat] = name
    return True


# --- the gallery's examples ---------------------------------------------------------------
def _line_entry_examples(album: Album) -> Iterator[tuple[str, views.View]]:
    """Round 2's end at three seats: seat 2 on its line's second count, its round-1 line
    already in; none for a city without line scoring."""
    setup = tables(album.city).three.setup
    counts = line_counts(setup)
    if not counts:
        return
    first = tuple(min(v, c.most or 99) for v, c in zip((5, 4, 2), counts, strict=False))
    now = [min(v, c.most or 99) for v, c in zip((6, 3, 1), counts, strict=False)]
    yield "line-entry", line_view(setup, 2, 2, {1: first}, now, 1, album.language, cursor=1)


LINE_ENTRY = Screen(
    ScreenName.LINE_ENTRY,
    Kind.GAME,
    views.SheetView,
    on_line_entry,
    show_line_entry,
    _line_entry_examples,
    holds=EVERY_BUTTON,  # five at a time, a digit back, a seat skipped
)
RECORDS = (LINE_ENTRY,)
