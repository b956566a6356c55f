"""A session as a few plain values over its fixed deal (RULES D-1), and back.

`take` writes the state as JSON-able numbers and names; `load` puts them back into a
fresh session and `check` refuses, with `ValueError` and never `assert` (a check that
`python -O` would drop), whatever does not fit the deal: a screen the box could not be
on, a round end after two cards, a cursor past the end of its list, a seed code that is
not one, a score outside the entry's range. Each would crash the box on the first press,
at every start; refused, the store passes over that step as damaged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from nsdevice.locale import LANGUAGES
from nsdevice.rules.cities import CityName, city
from nsdevice.rules.deal import ROUNDS, SEED_MAX_LENGTH, Setup, normalize_seed
from nsdevice.rules.progress import Progress
from nsdevice.session.context import Context
from nsdevice.session.digits import fits, value_of
from nsdevice.session.names import Kind, ScreenName
from nsdevice.session.roster import Roster
from nsdevice.session.screens.fields import SCORE_LIMITS, entry_field, load_field
from nsdevice.session.screens.menu import session_menu_rows
from nsdevice.session.screens.room import show_room_results
from nsdevice.session.screens.score_sheet import count_field, sheet_counts
from nsdevice.session.screens.setup import SEED_CHARACTERS, lays_own_pencils, session_setup_rows

VERSION = 3  # 2: the score entry's digits and the score sheet; 3: a room game's roster
# A one-table game still saves as version 2, so a box from before room games resumes it;
# only a room game writes 3, which such a box refuses rather than playing it as one table.
ONE_TABLE_VERSION = 2
QUESTIONS = ("back_to_round", "restart_round", "new_game", "shutdown")
# A round's last card is shown on these: a snapshot on them holds every turn revealed.
ROUND_OVER = (ScreenName.ROUND_END, ScreenName.PENCIL_PASS, ScreenName.GAME_END)


def take(session: Context) -> dict[str, Any]:
    """The whole session as plain JSON-able values (a few numbers and names)."""
    state = session.state
    setup = state.setup
    # Choices made since version 1 are written only when made, so a game without them
    # saves exactly as it did before they existed (tests/test_saved_games.py).
    added: dict[str, Any] = {}
    if state.today:
        added["today"] = True
    if state.pencil_choice:
        added["pencil_choice"] = list(state.pencil_choice)
    if state.room is not None:
        added["room"] = state.room.as_dict()
    shown = state.screen if state.screen is not ScreenName.SHUTDOWN else state.under
    return {
        **added,
        "version": ONE_TABLE_VERSION if state.room is None else VERSION,
        "settings": state.settings.as_dict(),
        "screen": _name(shown) or "setup",
        "setup": None
        if setup is None
        else {
            "city": setup.city.value,
            "players": setup.players,
            "modules": [m.value for m in setup.modules],
            "seed": setup.seed,
            **({} if setup.pencil_order is None else {"pencil_order": setup.pencil_order}),
            **({} if setup.daily is None else {"daily": setup.daily}),
        },
        "round": state.progress.round,
        "revealed": state.progress.revealed,
        "cursor": state.cursor,
        "seed_code": state.seed_code,
        "seed_characters": list(state.seed_characters),
        "under": _name(state.under),
        "question": state.question,
        "scores": list(state.scores),
        "entry": state.entry,
        "digits": list(state.digits),
        "digit": state.digit,
        "sheet": list(state.sheet),
        "sheet_step": state.sheet_step,
        # left out when empty, so a game without them saves exactly what it did before
        **({"language_before": state.language_before} if state.language_before else {}),
        **({"sheet_best": list(state.sheet_best)} if state.sheet_best else {}),
        "recorded": state.recorded,
        "best_before": state.best_before,
    }


def _name(screen: ScreenName | None) -> str:
    """A screen as a snapshot writes it: its plain name, "" for none."""
    return screen.value if screen is not None else ""


def version(data: dict[str, Any]) -> int:
    """The snapshot's version, if this box reads it; ValueError otherwise."""
    found = data.get("version")
    if found not in (1, ONE_TABLE_VERSION, VERSION):
        raise ValueError(f"saved session version {found!r}")
    return int(found)


def load(session: Context, data: dict[str, Any]) -> None:
    """Put `data` (from `take`) into a fresh session made with its settings."""
    state = session.state
    raw = data["setup"]
    if raw is not None:
        order = raw.get("pencil_order")
        state.setup = Setup(
            CityName(raw["city"]),
            int(raw["players"]),
            tuple(raw["modules"]),
            raw["seed"],
            None if order is None else tuple(order),
            raw.get("daily"),
        )
    state.progress = Progress(int(data["round"]), int(data["revealed"]))
    state.screen = ScreenName(str(data["screen"]))  # ValueError for a name that is no screen
    state.cursor = int(data["cursor"])
    state.seed_code = data["seed_code"]
    state.seed_characters = [str(c) for c in data["seed_characters"]]
    state.today = data.get("today", False) is True
    state.pencil_choice = [str(c) for c in data.get("pencil_choice", [])]
    state.under = ScreenName(str(data["under"])) if data["under"] else None
    state.question = str(data["question"])
    state.scores = [int(v) for v in data["scores"]]
    state.entry = int(data["entry"])
    if version(data) == 1:  # before digits: a score entry shows its field's value, cursor first
        if ScreenName.SCORE_ENTRY in (state.screen, state.under):
            _require(0 <= state.entry < len(state.scores), f"entry {state.entry!r}")
            load_field(session, state.entry)
    else:
        state.digits = [str(d) for d in data["digits"]]
        state.digit = int(data["digit"])
        state.sheet = [int(v) for v in data["sheet"]]
        state.sheet_step = int(data["sheet_step"])
    state.sheet_best = [int(v) for v in data.get("sheet_best", [])]  # before: none known
    state.language_before = str(data.get("language_before", ""))
    state.recorded = bool(data["recorded"])
    room = data.get("room")
    state.room = None if room is None else Roster.from_dict(room)
    best = data.get("best_before")
    state.best_before = None if best is None else int(best)


def _require(condition: bool, what: str) -> None:
    if not condition:
        raise ValueError(f"saved session does not fit: {what}")


def check(session: Context) -> None:
    """Refuse a snapshot that would put the box in an impossible place (ValueError)."""
    state = session.state
    kind = session.screens[state.screen].kind
    _require(kind is not Kind.MESSAGE, f"on {state.screen}")  # never saved: going down
    if kind in (Kind.GAME, Kind.OVERLAY):
        _check_progress(session)
    if state.room is not None:
        _require(state.setup is not None, "a room without a game")
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
    if state.screen is ScreenName.ROOM_RESULTS:
        _require(0 <= state.cursor < show_room_results(session).pages, f"page {state.cursor!r}")
    if state.screen is ScreenName.SEED_ENTRY:
        _require(
            0 <= state.cursor < len(state.seed_characters) <= SEED_MAX_LENGTH + 1,
            f"seed cursor {state.cursor!r}",
        )
    _check_pencils(session)
    _check_values(session)
    view = session.screens[state.screen].view(session)  # builds every field it needs, or fails
    _require(bool(view.screen), f"no view for {state.screen}")


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
