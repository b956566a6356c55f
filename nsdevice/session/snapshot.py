"""A session as a few plain values over its fixed deal (RULES D-1), and back.

`take` writes the state as JSON-able numbers and names; `load` puts them back into a
fresh session; whether the box may stand where they put it is `nsdevice.session.valid`'s
to say, the same description every press keeps (`check`, re-exported here).
"""

from __future__ import annotations

from typing import Any

from nsdevice.rules.cities import CityName, city
from nsdevice.rules.deal import Setup
from nsdevice.rules.progress import Progress
from nsdevice.session.context import Context
from nsdevice.session.names import ScreenName
from nsdevice.session.roster import Roster
from nsdevice.session.screens.fields import load_field
from nsdevice.session.state import State
from nsdevice.session.valid import QUESTIONS, ROUND_OVER, check

__all__ = ["QUESTIONS", "ROUND_OVER", "check", "load", "take", "version"]

VERSION = 4  # 2: the score entry's digits and the score sheet; 3: a room game's roster;
# 4: the lines entered as the game goes, the sheets walked and the seats' names
# A one-table game still saves as version 2, so a box from before room games resumes it;
# only a room game writes 3, which such a box refuses rather than playing it as one table;
# only a game that entered lines, walked a sheet or named a seat writes 4.
ONE_TABLE_VERSION = 2
ROOM_VERSION = 3


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
    if _offers_own_order(session):
        added["pencil_preference"] = list(state.pencil_preference)
    if state.room is not None:
        added["room"] = state.room.as_dict()
    scored = _scored_along(session)
    shown = state.screen if state.screen is not ScreenName.SHUTDOWN else state.under
    version = ONE_TABLE_VERSION if state.room is None else ROOM_VERSION
    return {
        **added,
        **scored,
        "version": VERSION if scored else version,
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


def _scored_along(session: Context) -> dict[str, Any]:
    """Version 4's values, each only when it holds something: a seat's line per round
    (seat, round, counts…), a seat's walked sheet (seat, counts…), a seat's name, and
    the seat the line entry is on."""
    state = session.state
    scored: dict[str, Any] = {}
    if state.lines:
        scored["lines"] = [
            [seat, number, *counts]
            for seat, rounds in sorted(state.lines.items())
            for number, counts in sorted(rounds.items())
        ]
    if state.sheets:
        scored["sheets"] = [[seat, *counts] for seat, counts in sorted(state.sheets.items())]
    if state.names:
        scored["names"] = [[seat, name] for seat, name in sorted(state.names.items())]
    if state.line_seat:
        scored["line_seat"] = state.line_seat
    return scored


def _load_scored_along(state: State, data: dict[str, Any]) -> None:
    """Version 4's values back (absent before it: none); each is checked by `valid`."""
    lines: dict[int, dict[int, tuple[int, ...]]] = {}
    for seat, number, *counts in data.get("lines", []):
        rounds = lines.setdefault(_whole(seat), {})
        if _whole(number) in rounds:
            raise ValueError(f"saved session does not fit: seat {seat}'s line {number} twice")
        rounds[_whole(number)] = tuple(_whole(v) for v in counts)
    state.lines = lines
    state.sheets = {}
    for seat, *counts in data.get("sheets", []):
        if _whole(seat) in state.sheets:
            raise ValueError(f"saved session does not fit: seat {seat}'s sheet twice")
        state.sheets[_whole(seat)] = tuple(_whole(v) for v in counts)
    state.names = {}
    for seat, name in data.get("names", []):
        if _whole(seat) in state.names or not isinstance(name, str):
            raise ValueError(f"saved session does not fit: seat {seat}'s name")
        state.names[_whole(seat)] = name
    state.line_seat = _whole(data.get("line_seat", 0))


def _whole(value: object) -> int:
    if type(value) is not int:
        raise ValueError(f"saved session does not fit: {value!r} is not a whole number")
    return value


def _offers_own_order(session: Context) -> bool:
    """The pencil row is being laid in the last game's own order, not the city's: saved,
    so that a restart offers the same colour next (left out otherwise, as before)."""
    state = session.state
    return (
        state.screen is ScreenName.PENCIL_ORDER
        and bool(state.pencil_preference)
        and state.pencil_preference != city(state.settings.city).colours
    )


def _name(screen: ScreenName | None) -> str:
    """A screen as a snapshot writes it: its plain name, "" for none."""
    return screen.value if screen is not None else ""


def _screen(session: Context, name: object) -> ScreenName:
    """The screen a snapshot names, checked against the records: ValueError for a name
    no screen's record declares (a damaged or foreign file)."""
    if not isinstance(name, str) or name not in session.screens:
        raise ValueError(f"no screen is named {name!r}")
    return ScreenName(name)


def version(data: dict[str, Any]) -> int:
    """The snapshot's version, if this box reads it; ValueError otherwise."""
    found = data.get("version")
    if found not in (1, ONE_TABLE_VERSION, ROOM_VERSION, VERSION):
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
    state.screen = _screen(session, data["screen"])
    state.cursor = int(data["cursor"])
    state.seed_code = data["seed_code"]
    state.seed_characters = [str(c) for c in data["seed_characters"]]
    state.today = data.get("today", False) is True
    state.pencil_choice = [str(c) for c in data.get("pencil_choice", [])]
    state.pencil_preference = tuple(str(c) for c in data.get("pencil_preference", []))
    state.under = _screen(session, data["under"]) if data["under"] else None
    state.question = str(data["question"])
    state.scores = [int(v) for v in data["scores"]]
    state.entry = int(data["entry"])
    if version(data) == 1:  # before digits: a score entry shows its field's value, cursor first
        if ScreenName.SCORE_ENTRY in (state.screen, state.under):
            if not 0 <= state.entry < len(state.scores):
                raise ValueError(f"saved session does not fit: entry {state.entry!r}")
            load_field(session, state.entry)
    else:
        state.digits = [str(d) for d in data["digits"]]
        state.digit = int(data["digit"])
        state.sheet = [int(v) for v in data["sheet"]]
        state.sheet_step = int(data["sheet_step"])
    state.sheet_best = [int(v) for v in data.get("sheet_best", [])]  # before: none known
    state.language_before = str(data.get("language_before", ""))
    state.recorded = bool(data["recorded"])
    _load_scored_along(state, data)
    room = data.get("room")
    state.room = None if room is None else Roster.from_dict(room)
    best = data.get("best_before")
    state.best_before = None if best is None else int(best)
