"""The game's scores: each seat's total (and the best lines that break a tie) typed in
digit by digit, from the box or from the seats' phones, and the result they make."""

from __future__ import annotations

import datetime
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from nsdevice import views
from nsdevice.inputs.events import Button, Press
from nsdevice.rules import scoring
from nsdevice.rules.cities import CityName, city
from nsdevice.rules.deal import Setup, daily_seed
from nsdevice.rules.modules import Module
from nsdevice.session.context import EVERY_BUTTON, Album, Context, Screen
from nsdevice.session.digits import MINUS, digits_of, fits, value_of
from nsdevice.session.names import Kind, ScreenName
from nsdevice.session.screens.common import hints
from nsdevice.session.screens.examples import DAILY_EXAMPLE, tables
from nsdevice.session.screens.fields import (
    SCORE_LIMITS,
    DigitEnds,
    asked_fields,
    entry_field,
    field_place,
    load_field,
    press_digits,
    score_field,
    score_fields,
)
from nsdevice.session.screens.menu import open_menu
from nsdevice.session.screens.score_sheet import (
    count_field,
    open_sheet,
    sheet_best_line,
    sheet_counts,
    sheet_sum,
    sheet_values,
)
from nsdevice.session.screens.setup import start_game
from nsdevice.session.settings import FinishedGame

SCORING = frozenset({ScreenName.GAME_END, ScreenName.SCORE_ENTRY, ScreenName.SCORE_SHEET})


# --- the score entry ------------------------------------------------------------------------
def score_entry_view(
    setup: Setup,
    scores: Sequence[int],
    entry: int,
    language: str,
    digits: Sequence[str] | None = None,
    cursor: int = 0,
    known: Collection[int] = (),
) -> views.ScoreEntryView:
    """`scores`: every field (solo: the total; else each seat's total and best line);
    `entry`: the one being set; `digits`: it as shown (by default, its value); `known`:
    the seats whose best line a score sheet gave (never asked)."""
    fields = score_fields(setup, scores, known)
    here = field_place(fields, entry)
    field = score_field(setup, entry)
    shown = tuple(digits) if digits is not None else digits_of(scores[entry], field)
    last = cursor + 1 == field.width
    total = setup.solo or entry % 2 == 0
    # The counter counts within its kind, so it never jumps as ties come and go: a total
    # is seat k of N; a best line, k of the seats tied on the top total still to give one.
    group = [f for f in fields if f % 2 == entry % 2] if not setup.solo else [0]
    step = group.index(entry) if entry in group else 0
    line_scoring = city(setup.city).line_scoring
    return views.ScoreEntryView(
        city=setup.city.value,
        seat=entry // 2 + 1,
        field="total" if total else "best_line",
        value=scores[entry],
        step=step,
        steps=max(len(group), step + 1),
        solo=setup.solo,
        digits=shown,
        cursor=cursor,
        sheet=total and bool(line_scoring),
        line_scoring=line_scoring,
        hints=hints(
            next="plus_five",
            back="minus_one",
            menu=("done" if here + 1 == len(fields) else "continue") if last else "next_digit",
        ),
        language=language,
    )


def show_score_entry(session: Context) -> views.ScoreEntryView:
    state = session.state
    return score_entry_view(
        session.current_setup(), state.scores, state.entry, session.language,
        state.digits, state.digit, state.sheet_best,
    )  # fmt: skip


def begin_scores(session: Context) -> None:
    """From the game's end: every field at zero unless already set, the first one up."""
    state = session.state
    setup = session.current_setup()
    fields = 1 if setup.solo else 2 * setup.players
    if len(state.scores) != fields:
        state.scores = [0] * fields
        state.sheet_best = []
    state.screen = ScreenName.SCORE_ENTRY
    enter_field(session, 0)


def on_score_entry(session: Context, press: Press) -> None:
    """Digit by digit (`fields.press_digits`). BACK on an empty field, or a held BACK,
    goes back (from the first: to the game's end); a held MENU on a total opens that
    seat's score sheet; MENU past the last digit moves to the next field."""
    state = session.state
    setup = session.current_setup()
    fields = asked_fields(session)
    here = field_place(fields, state.entry)

    def value(number: int) -> None:
        state.scores[state.entry] = number

    def done() -> None:
        if here + 1 < len(fields):
            enter_field(session, fields[here + 1])
        else:
            _finish(session)

    def leave() -> None:
        if here == 0:
            state.screen = ScreenName.GAME_END  # nothing entered yet: back to the game's end
        else:
            load_field(session, fields[here - 1])

    def sheet() -> None:
        if score_entry_view(setup, state.scores, state.entry, "en").sheet:
            open_sheet(session)

    press_digits(session, press, entry_field(session), DigitEnds(value, done, leave, sheet))


def enter_field(session: Context, entry: int) -> None:
    """Forward onto field `entry`: a seat's total whose lines were entered as the game went
    opens on that seat's score sheet, where only what is left is asked (its lines given)."""
    state = session.state
    load_field(session, entry)
    seat = entry // 2 + 1
    total = session.current_setup().solo or entry % 2 == 0
    if total and state.lines.get(seat) and seat not in state.sheets:
        open_sheet(session)


def set_typed_digit(session: Context, character: str) -> bool:
    """A digit typed on a keyboard ("0".."9", "-" for the minus sign) set under the cursor
    of the score entry or sheet (the session then moves on as MENU does). False (nothing
    changes) anywhere else, or where the field has no such character."""
    state = session.state
    if session.notices or state.screen not in (ScreenName.SCORE_ENTRY, ScreenName.SCORE_SHEET):
        return False
    sheet = state.screen is ScreenName.SCORE_SHEET
    field = count_field(session) if sheet else entry_field(session)
    wanted = MINUS if character == "-" else character
    if wanted not in field.wheel(state.digit):
        return False
    digits = [*state.digits]
    digits[state.digit] = wanted
    if not fits(digits, field):  # beyond the field's end: held there, as a turn would be
        digits = list(digits_of(value_of(digits), field))
    state.digits = digits
    value = value_of(state.digits)
    if sheet:
        state.sheet[state.sheet_step] = value
    else:
        state.scores[state.entry] = value
    return True


def enter_score(
    session: Context, seat: int, total: int, best_line: int, counts: Sequence[int] = ()
) -> bool:
    """A seat's score from its phone, at the game's end; the result shows once every
    seat is in. False (nothing changes) when no game is being scored or out of range.
    `counts`: the phone's sheet in the box's sheet order, kept for the result's breakdown
    when it adds up to `total` (a newer sheet without them drops the older ones)."""
    state = session.state
    setup = state.setup
    showing = session.showing()
    if setup is None or state.recorded or showing not in SCORING:
        return False
    low, high = SCORE_LIMITS
    if not (1 <= seat <= setup.players and low <= total <= high and low <= best_line <= high):
        return False
    fields = 1 if setup.solo else 2 * setup.players
    if len(state.scores) != fields:
        state.scores = [0] * fields
        state.sheet_best = []
    if setup.solo:
        state.scores[0] = total
    else:
        state.scores[2 * seat - 2 : 2 * seat] = [total, best_line]
    session.phone_seats.add(seat)
    fits = len(counts) == len(sheet_counts(setup)) and all(0 <= v <= 99 for v in counts)
    if fits and sheet_sum(setup, counts) == total:
        state.sheets[seat] = tuple(counts)
    else:
        state.sheets.pop(seat, None)
    if not setup.solo and seat not in state.sheet_best:  # the phone's sheet gave it (C-12)
        state.sheet_best.append(seat)
    if showing is ScreenName.SCORE_ENTRY:  # the field on the box shows the phone's value
        load_field(session, state.entry, state.digit)
    if len(session.phone_seats) == setup.players:
        load_field(session, asked_fields(session)[-1])
        _finish(session)  # over any menu too: the table asked for the result
        state.under = None
    return True


# --- the result -----------------------------------------------------------------------------
def result_view(
    setup: Setup,
    scores: Sequence[int],
    best_before: int | None,
    language: str,
    names: Mapping[int, str] | None = None,
    sheets: Mapping[int, Sequence[int]] | None = None,
) -> views.ResultView:
    """`scores` as for `score_entry_view`; `best_before`: the solo best before this game
    in the same city with the same module set (C-13), if any; `names`: the seats' names
    from their phones; `sheets`: the seats' walked sheets, each seat's breakdown where its
    sheet gave its total."""
    names, sheets = names or {}, sheets or {}

    def parts(seat: int, total: int) -> tuple[views.SheetPart, ...]:
        counts = sheets.get(seat)
        if counts is None:
            return ()
        town = city(setup.city)
        items = scoring.sheet_items(town, Module.OBJECTIVES in setup.modules)
        found = scoring.sheet_parts(town, items, sheet_values(items, counts))
        if sum(points for _, points in found) != total:
            return ()  # the total was typed over the sheet's: no breakdown to show
        return tuple(views.SheetPart(key, points) for key, points in found)

    common: dict[str, Any] = {
        "city": setup.city.value,
        "seed": setup.seed,
        "daily": setup.daily,
        "hints": hints(next="new_game", back="back", menu="menu"),
        "language": language,
    }
    if setup.solo:
        total = scores[0]
        used = len(setup.modules)
        adjusted = scoring.solo_adjusted(total, used)
        tier = scoring.solo_tier(city(setup.city), adjusted)
        low, high = city(setup.city).tier_band(tier)
        return views.ResultView(
            solo=True,
            total=total,
            modules_used=used,
            penalty=scoring.MODULE_PENALTY * used,
            adjusted=adjusted,
            tier=tier,
            tier_low=low,
            tier_high=high,
            personal_best=best_before,
            new_best=best_before is None or adjusted > best_before,
            parts=parts(1, total),
            **common,
        )
    seats = tuple(
        views.SeatResult(
            seat,
            scores[2 * seat - 2],
            scores[2 * seat - 1],
            names.get(seat, ""),
            parts(seat, scores[2 * seat - 2]),
        )
        for seat in range(1, setup.players + 1)
    )
    outcome = scoring.winner([scoring.SeatScore(s.seat, s.total, s.best_line) for s in seats])
    return views.ResultView(
        solo=False,
        seats=seats,
        winners=outcome.winners,
        decided_by=outcome.decided_by,
        **common,
    )


def show_result(session: Context) -> views.ResultView:
    state = session.state
    return result_view(
        session.current_setup(),
        state.scores,
        state.best_before,
        session.language,
        state.names,
        state.sheets,
    )


def _finish(session: Context) -> None:
    """The result up, and the game among the records (once, however often it shows)."""
    state = session.state
    state.screen = ScreenName.RESULT
    if state.recorded:
        return
    setup = session.current_setup()
    modules = tuple(m.value for m in setup.modules)
    if setup.solo:  # read before this game joins the records; per module set (C-13)
        state.best_before = session.records.best_solo(setup.city.value, modules)
    result = show_result(session)
    totals = (result.total,) if setup.solo else tuple(s.total for s in result.seats)
    session.records.record(
        FinishedGame(
            city=setup.city.value,
            players=setup.players,
            modules=modules,
            seed=setup.seed,
            totals=totals,
            adjusted=result.adjusted if setup.solo else None,
            tier=result.tier if setup.solo else None,
            winners=() if setup.solo else result.winners,
            daily=setup.daily,
            names=tuple(state.names.get(seat, "") for seat in range(1, setup.players + 1))
            if state.names
            else (),
        )
    )
    state.recorded = True


def on_result(session: Context, press: Press) -> None:
    state = session.state
    if press.button is Button.NEXT:
        start_game(session)  # the same setup again, a new deal: NEXT always goes forward
    elif press.button is Button.BACK:
        state.screen = ScreenName.SCORE_ENTRY
        load_field(session, asked_fields(session)[-1])
    else:
        open_menu(session)


# --- the gallery's examples ---------------------------------------------------------------
def _solo_total(album: Album) -> int:
    """A solo game with every module, scored into its third tier."""
    solo = tables(album.city).solo
    return city(album.city).tier_upper_bounds[2] + 4 + 10 * len(solo.setup.modules)


def _score_entry_examples(album: Album) -> Iterator[tuple[str, views.View]]:
    games, language = tables(album.city), album.language
    entry = score_entry_view(games.solo.setup, (_solo_total(album),), 0, language, cursor=1)
    yield "score-entry-solo", entry  # the cursor on the tens
    tied = (156, 31, 156, 38, 149, 0)  # seats 1 and 2 tied: seat 2's best line (C-12)
    yield "score-entry-best-line", score_entry_view(games.three.setup, tied, 3, language, cursor=2)


def _result_examples(album: Album) -> Iterator[tuple[str, views.View]]:
    """A solo game with every module, a new solo best, the day's deal, and tables won on
    total, on the best line, and shared."""
    games, language = tables(album.city), album.language
    tiers = city(album.city).tier_upper_bounds
    solo, plain_solo = games.solo, games.plain_solo
    solo_total = _solo_total(album)
    best_before = scoring.solo_adjusted(solo_total, len(solo.setup.modules)) + 12  # not beaten
    yield "result-solo", result_view(solo.setup, (solo_total,), best_before, language)
    yield (
        "result-solo-new-best",
        result_view(plain_solo.setup, (tiers[4] + 9,), tiers[3], language),
    )
    day = datetime.date.fromisoformat(DAILY_EXAMPLE)  # D-2: the day's deal, as dealt that day
    seed = daily_seed(day, CityName(album.city))
    daily = replace(plain_solo.setup, seed=seed, daily=DAILY_EXAMPLE)
    yield "result-solo-daily", result_view(daily, (tiers[3] + 2,), tiers[3] + 7, language)
    three = games.three.setup
    if sheet_counts(three):  # names from the phones, each seat's sheet
        sheets = {seat: _example_sheet(three, seat) for seat in (1, 2, 3)}
        scores = tuple(v for seat in (1, 2, 3) for v in _example_scores(three, sheets[seat]))
        names = {1: "Ana", 2: "Bernd", 3: "Chloé"}
        yield "result-named", result_view(three, scores, None, language, names, sheets)
    for name, dealt, scores in (
        ("result-players", games.three, (142, 31, 156, 36, 149, 40)),
        ("result-tie-best-line", games.four, (151, 33, 151, 38, 120, 30, 147, 41)),
        ("result-shared", games.two, (133, 35, 133, 35)),
    ):
        yield name, result_view(dealt.setup, scores, None, language)


def _example_sheet(setup: Setup, seat: int) -> tuple[int, ...]:
    """A plausible sheet for the gallery, a little different for each seat."""
    plain = {"stamps": 15 + 5 * seat, "ring_unconnected": seat, "objectives": 1}
    plain |= {"overpasses_once": 2 + seat, "overpasses_twice": 1}
    interchanges = iter((2, 1, seat % 2))
    counts = []
    for n, (_, count) in enumerate(sheet_counts(setup)):
        if count.key.startswith("interchanges_"):
            counts.append(next(interchanges))
        else:
            counts.append(plain.get(count.key, min(count.most or 99, 2 + (n * 7 + seat * 3) % 5)))
    return tuple(counts)


def _example_scores(setup: Setup, sheet: Sequence[int]) -> tuple[int, int]:
    total = sheet_sum(setup, sheet)
    assert total is not None, "an example sheet the rules refuse"
    return total, sheet_best_line(setup, sheet)


SCORE_ENTRY = Screen(
    ScreenName.SCORE_ENTRY,
    Kind.GAME,
    views.ScoreEntryView,
    on_score_entry,
    show_score_entry,
    _score_entry_examples,
    holds=EVERY_BUTTON,  # five at a time, a digit back, the sheet
    over=True,
)
RESULT = Screen(
    ScreenName.RESULT, Kind.GAME, views.ResultView, on_result, show_result, _result_examples,
    over=True,
)  # fmt: skip
RECORDS = (SCORE_ENTRY, RESULT)
