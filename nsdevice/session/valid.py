"""What a valid session is: the one description that a press must keep and a restore
must find (RULES D-1: a place in the fixed deal the box can show).

Both sides read it. The machine checks it after every move (`check_move`, from
`Session.press` and from a phone's score or sheet): a move that breaks it is a
bug in its handler, raised there, never saved as a step the next start would refuse.
A restore checks it before the box takes a saved step (`check`, from
`Session.restore`) and refuses, with `ValueError` and never `assert` (a check that
`python -O` would drop), whatever it forbids: a screen the box could not be on, a room
without its game, a round end after two cards, a cursor past the end of its list, a
seed code that is not one, a score outside the entry's range. Each would crash the box
on the first press, at every start; refused, the store passes over that step as damaged.

Where two fields must agree, one function sets both (`State.leave_game`,
`Context.resume`), so that the handlers reach only what this description allows.
"""

from __future__ import annotations

from collections.abc import Sequence

from nsdevice.locale import LANGUAGES
from nsdevice.rules.cities import city
from nsdevice.rules.deal import ROUNDS, SEED_MAX_LENGTH, normalize_seed
from nsdevice.rules.room import player_name
from nsdevice.session.context import Context
from nsdevice.session.digits import counting_field, fits, value_of
from nsdevice.session.names import Kind, ScreenName
from nsdevice.session.screens.fields import SCORE_LIMITS, entry_field
from nsdevice.session.screens.lines import line_counts, takes_lines
from nsdevice.session.screens.menu import session_menu_rows
from nsdevice.session.screens.room import show_room_results
from nsdevice.session.screens.score_sheet import count_field, sheet_counts, sheet_sum
from nsdevice.session.screens.setup import SEED_CHARACTERS, lays_own_pencils, session_setup_rows

QUESTIONS = ("back_to_round", "restart_round", "new_game", "shutdown")
# A round's last card is shown on these: a state on them holds every turn revealed.
ROUND_OVER = (
    ScreenName.ROUND_END,
    ScreenName.LINE_ENTRY,
    ScreenName.PENCIL_PASS,
    ScreenName.GAME_END,
)


class ForbiddenState(AssertionError):
    """A press led where the description forbids: a bug inside the core (an
    `AssertionError`, as the core's other bad states), raised whatever `-O` says."""


def _require(condition: bool, what: str) -> None:
    if not condition:
        raise ValueError(f"saved session does not fit: {what}")


def fault(session: Context) -> str | None:
    """The first thing about `session`'s state that the description forbids, in words;
    None when it is a place the box may stand (and so restore). Cheap enough for every
    press: it reads the state, the deal and the lists, and builds no view."""
    try:
        _check_state(session)
    except ValueError as error:
        return str(error)
    return None


def check(session: Context) -> None:
    """Refuse a restored state that would put the box in an impossible place (ValueError),
    then build its view, which builds every field the screen needs or fails."""
    state = session.state
    _check_state(session)
    view = session.screens[state.screen].view(session)
    _require(bool(view.screen), f"no view for {state.screen}")


def check_move(session: Context, move: object) -> None:
    """After a move (a press, a phone's entry): the box may still stand there, or the
    move is a bug in its handler, raised here rather than saved as a step that no restart
    could take back. Shutting down is no place to stand: a snapshot saves the screen
    beneath it, as it was before the press."""
    if session.screens[session.state.screen].kind is Kind.MESSAGE:
        return
    found = fault(session)
    if found is not None:
        raise ForbiddenState(f"{move} led to a state the box could not restore: {found}")


def _check_state(session: Context) -> None:
    state = session.state
    kind = session.screens[state.screen].kind
    _require(kind is not Kind.MESSAGE, f"on {state.screen}")  # never saved: going down
    if kind in (Kind.GAME, Kind.OVERLAY):
        _check_progress(session)
    # a room is its game's: no game, no room (`State.leave_game` drops both together)
    _require(state.room is None or state.setup is not None, "a room without a game")
    for room_screen in (ScreenName.ROOM_RESULTS, ScreenName.ROOM_TABLES):
        _require(
            state.room is not None or room_screen not in (state.screen, state.under),
            f"{room_screen} in a one-table game",
        )
    if state.screen is ScreenName.ROOM_TABLES:  # the list shrinks as seats go: any row shows
        _require(state.cursor >= 0, f"cursor {state.cursor!r}")
    if kind is Kind.OVERLAY:
        under = state.under
        _require(
            under is not None and session.screens[under].kind is Kind.GAME,
            f"{state.screen} over {under}",
        )
    if state.screen in (ScreenName.SCORE_ENTRY, ScreenName.RESULT):
        _require(bool(state.scores) and 0 <= state.entry < len(state.scores), "no scores")
    _check_digits(session)
    if state.screen is ScreenName.ROOM_RESULTS:  # the page shown, from 0 (`Context.resume`)
        _require(0 <= state.cursor < show_room_results(session).pages, f"page {state.cursor!r}")
    if state.screen is ScreenName.SEED_ENTRY:
        _require(
            0 <= state.cursor < len(state.seed_characters) <= SEED_MAX_LENGTH + 1,
            f"seed cursor {state.cursor!r}",
        )
    _check_pencils(session)
    _check_values(session)
    _check_lines(session)


def _check_progress(session: Context) -> None:
    """A game screen: a deal, and a place in it that the screen can show (D-1)."""
    state = session.state
    deal = session.deal
    if deal is None:
        raise ValueError(f"saved session does not fit: {state.screen} without a game")
    progress = state.progress
    _require(1 <= progress.round <= ROUNDS, f"round {progress.round}")
    turns = len(deal.rounds[progress.round - 1].turns)
    _require(0 <= progress.revealed <= turns, f"{progress.revealed} of {turns} turns")
    if state.screen is ScreenName.TURN:
        _require(progress.revealed >= 1, "a turn before any card")
    if state.screen in ROUND_OVER:
        _require(
            progress.revealed == turns,
            f"{state.screen} after {progress.revealed} of the round's {turns} cards",
        )


def _check_digits(session: Context) -> None:
    """A restored score entry or sheet: its digits are ones its field shows, and they
    hold the value saved beside them."""
    state = session.state
    showing = {state.screen, state.under}
    if ScreenName.SCORE_ENTRY in showing or ScreenName.SCORE_SHEET in showing:
        _require(state.setup is not None and bool(state.scores), "scores without a game")
        _require(0 <= state.entry < len(state.scores), f"entry {state.entry!r}")
    if ScreenName.SCORE_ENTRY in showing:
        field = entry_field(session)
        value = state.scores[state.entry]
    elif ScreenName.SCORE_SHEET in showing:
        setup = session.current_setup()
        _require(state.entry % 2 == 0 or setup.solo, "a sheet for a best line")
        _require(len(state.sheet) == len(sheet_counts(setup)), f"sheet {state.sheet!r}")
        _require(0 <= state.sheet_step < len(state.sheet), f"sheet step {state.sheet_step!r}")
        _require(all(0 <= v <= 99 for v in state.sheet), f"sheet {state.sheet!r}")
        field = count_field(session)
        value = state.sheet[state.sheet_step]
    else:
        return
    _require(fits(state.digits, field), f"digits {state.digits!r}")
    _require(0 <= state.digit < field.width, f"digit {state.digit!r}")
    _require(value_of(state.digits) == value, f"digits {state.digits!r} for {value}")


def _check_lines(session: Context) -> None:
    """The lines entered as the game goes, the sheets walked and the seats' names: only in
    a one-table game, for its seats and rounds, each count one its field takes, each
    sheet one the rules add up (S-T, S-P, S-T-END, S-P-END); the line entry on a seat."""
    state = session.state
    setup = state.setup
    given = bool(state.lines or state.sheets or state.names)
    _require(not given or (setup is not None and state.room is None), "lines without a table")
    on_entry = state.screen is ScreenName.LINE_ENTRY
    _require(on_entry or state.line_seat == 0, f"line seat {state.line_seat!r} off its entry")
    if setup is None:
        return
    seats = range(1, setup.players + 1)
    # the sheet's fields worked out only for what there is to check: every press is
    # checked, and most games enter no line as they go (issue 35)
    counts = line_counts(setup) if state.lines or on_entry else ()
    fields = [counting_field(count.most) for count in counts]
    for seat, rounds in state.lines.items():
        _require(seat in seats and bool(counts), f"lines of seat {seat!r}")
        for number, values in rounds.items():
            _require(1 <= number <= ROUNDS, f"a line of round {number!r}")
            _require(
                len(values) == len(fields)
                and all(f.low <= v <= f.high for f, v in zip(fields, values, strict=True)),
                f"seat {seat}'s line {number}: {values!r}",
            )
    layout = sheet_counts(setup) if state.sheets else ()
    for seat, sheet in state.sheets.items():
        _require(seat in seats and len(sheet) == len(layout), f"sheet of seat {seat!r}")
        _require(all(0 <= v <= 99 for v in sheet), f"sheet of seat {seat}: {sheet!r}")
        _require(sheet_sum(setup, sheet) is not None, f"sheet of seat {seat}: {sheet!r}")
    for seat, name in state.names.items():
        _require(seat in seats and _named(name), f"name of seat {seat!r}")
    if on_entry:
        _require(takes_lines(session), "a line entry where lines are not entered")
        _require(state.line_seat in seats, f"line seat {state.line_seat!r}")
        _require(len(state.sheet) == len(fields), f"line {state.sheet!r}")
        _require(0 <= state.sheet_step < len(fields), f"line step {state.sheet_step!r}")
        field = fields[state.sheet_step]
        _require(fits(state.digits, field), f"digits {state.digits!r}")
        _require(0 <= state.digit < field.width, f"digit {state.digit!r}")
        _require(value_of(state.digits) == state.sheet[state.sheet_step], "digits for the line")
        _require(
            all(f.low <= v <= f.high for f, v in zip(fields, state.sheet, strict=True)),
            f"line {state.sheet!r}",
        )


def _named(name: object) -> bool:
    """A seat's name as a phone's join leaves it (`rules.room.player_name`)."""
    try:
        return isinstance(name, str) and player_name(name) == name
    except ValueError:
        return False


def _check_pencils(session: Context) -> None:
    """A solo player's own pencil row, part laid (C-8)."""
    state = session.state
    colours = city(state.settings.city).colours
    laid = state.pencil_choice
    _require(len(set(laid)) == len(laid) < len(colours) - 1, f"pencils {laid!r}")
    _require(set(laid) <= set(colours), f"pencils {laid!r}")
    if state.screen is ScreenName.PENCIL_ORDER:
        settings = state.settings
        _require(lays_own_pencils(settings), "a pencil row not asked")
        _require(
            0 <= state.cursor < len(colours) and colours[state.cursor] not in laid,
            f"pencil cursor {state.cursor!r}",
        )
        preferred = state.pencil_preference  # the order offered: none, or the whole row
        _require(
            not preferred or sorted(preferred) == sorted(colours),
            f"pencil order offered {preferred!r}",
        )


def _check_values(session: Context) -> None:
    """Raise ValueError naming the first value that does not fit."""
    state = session.state
    _seed(state.seed_code, "seed code")
    if state.setup is not None and state.setup.seed != _seed(state.setup.seed, "deal seed"):
        raise ValueError(f"deal seed {state.setup.seed!r} is not in its written form")
    if len(state.seed_characters) > SEED_MAX_LENGTH + 1 or any(
        character not in SEED_CHARACTERS for character in state.seed_characters
    ):
        raise ValueError(f"seed characters {state.seed_characters!r}")
    rows: Sequence[object] | None = None
    if state.screen is ScreenName.SETUP:
        rows = session_setup_rows(session)
    elif state.screen is ScreenName.MENU:
        rows = session_menu_rows(session)
    if rows is not None and not _within(state.cursor, len(rows)):
        raise ValueError(f"cursor {state.cursor!r} outside the {len(rows)} rows of {state.screen}")
    if state.screen is ScreenName.CONFIRM:
        if state.question not in QUESTIONS:
            raise ValueError(f"unknown question {state.question!r}")
        if state.question == "back_to_round" and state.under is not ScreenName.ROUND_START:
            raise ValueError("back_to_round asked away from a round's start")
    low, high = SCORE_LIMITS
    if any(not isinstance(v, int) or not low <= v <= high for v in state.scores):
        raise ValueError(f"scores {state.scores!r} outside {low} to {high}")
    if state.language_before and (
        state.language_before not in LANGUAGES
        or state.screen not in (ScreenName.SETUP, ScreenName.MENU)
    ):
        raise ValueError(f"language to undo {state.language_before!r} on {state.screen}")
    seats = len(state.scores) // 2
    known = state.sheet_best
    if len(set(known)) != len(known) or not all(_within(seat - 1, seats) for seat in known):
        raise ValueError(f"sheet best lines {known!r} for {seats} seats")
    if state.scores and not _within(state.entry, len(state.scores)):
        raise ValueError(f"entry {state.entry!r} outside {len(state.scores)} fields")
    if state.best_before is not None and not isinstance(state.best_before, int):
        raise ValueError(f"best_before {state.best_before!r}")


def _seed(code: object, what: str) -> str | None:
    if code is None:
        return None
    if not isinstance(code, str) or normalize_seed(code) != code:
        raise ValueError(f"{what} {code!r} is not a written seed code")
    return code


def _within(index: object, length: int) -> bool:
    return isinstance(index, int) and not isinstance(index, bool) and 0 <= index < length
