"""Every step restores (D-1, issue 32): after any press on any screen, the box's snapshot,
through JSON into a fresh session as a restart would read it, shows the same view, and
the next press does the same thing on the restored box as on the one that never stopped.

A hypothesis `RuleBasedStateMachine` presses every button (NEXT, BACK, MENU) as a tap,
a hold and a repeat, from new boxes of every city, player count, a room, modules and
pencil order; a rule of NEXT taps in a row takes games to their end (the score entry,
the score sheet, a room's results) within the bounded steps CI runs. A walk through every
screen pins the reach, and the sequence a player found is replayed (the long random
run is `python -m benchmarks.reliability --only every_step`).
"""

from __future__ import annotations

import datetime
import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

from nsdevice import views
from nsdevice.inputs.events import Button, Gesture, Press
from nsdevice.rules.deal import draw_seed
from nsdevice.session import CITIES, MODULES, Capabilities, Session, Settings
from nsdevice.session.digits import counting_field, presses_for
from nsdevice.session.names import Kind, ScreenName
from nsdevice.session.screens import SCREENS
from nsdevice.session.screens.lines import line_counts, takes_lines
from nsdevice.session.settings import FinishedGame
from nsdevice.session.state import State
from nsdevice.session.valid import ForbiddenState
from nsdevice.store import Store
from tests.test_run import run_box

CAPABILITIES = Capabilities(brightness=True, phones=("http://192.0.2.1:8414",))
TODAY = datetime.date(2026, 11, 27)
# The sequence of issue 32, on a fresh box: a room game's summary, then the setup
KNOWN = (
    "hold:menu,hold:menu,back,menu,back,hold:next,next,menu,hold:next,back,hold:menu,"
    "next,hold:back,menu,hold:back,menu,back,menu,menu"
)
# Every screen a box stands on; shutting down is no place to stand (never saved)
LISTS = (views.SetupView, views.MenuView)
STANDING = {name for name, entry in SCREENS.items() if entry.kind is not Kind.MESSAGE}
# where NEXT goes on to a round's end (and the round's end itself)
IN_ROUND = (ScreenName.SUMMARY, ScreenName.ROUND_START, ScreenName.TURN, ScreenName.ROUND_END)


class Seeds:
    """Deal codes one after another: the box takes the next one, its restored twin
    (which presses first) peeks at it, so a press that deals deals the same on both."""

    def __init__(self) -> None:
        self._rng = random.Random(32)
        self._next = draw_seed(self._rng)

    def take(self) -> str:
        code, self._next = self._next, draw_seed(self._rng)
        return code

    def peek(self) -> str:
        return self._next


class Reading:
    """The twin reads the box's records but never writes them (the box does, once)."""

    def __init__(self, records: Store) -> None:
        self.records = records

    def best_solo(self, city: str, modules: tuple[str, ...]) -> int | None:
        return self.records.best_solo(city, modules)

    def record(self, game: FinishedGame) -> None:
        pass

    def history(self, limit: int = 5) -> Any:
        return self.records.history(limit)


def finished_games() -> Store:
    """A store with a history of several pages (games in two cities, a solo best)."""
    store = Store.in_memory()
    for city in ("tokyo", "paris"):
        for seat in range(3):
            store.record(FinishedGame(city, 2, (), "ABCD", (40 + seat, 30), None, None))
    store.record(FinishedGame("london", 1, (), "WXYZ", (55,), 55, 2))
    return store


def shown(session: Session) -> views.View:
    return replace(session.view(), chime=None)  # a chime is the press's own, never saved


class Box:
    """One box and its restarts: every press is checked against a box restored from the
    snapshot taken just before it."""

    def __init__(self, settings: Settings, *, dealt: bool) -> None:
        self.records = finished_games()
        self.seeds = Seeds()
        self.session = Session(
            settings,
            capabilities=CAPABILITIES,
            records=self.records,
            seed_source=self.seeds.take,
            code_source=lambda: "JOIN",
            today=lambda: TODAY,
        )
        if dealt:
            self.session.deal_new_game()  # power-on with no saved game
        self.screens = {self.session.screen}

    def restarted(self) -> Session:
        """The box after a power cut now: its snapshot through JSON, restored (a refusal
        raises ValueError, as the store's restore would pass over the step)."""
        saved = json.loads(json.dumps(self.session.snapshot()))
        return Session.restore(
            saved,
            capabilities=CAPABILITIES,
            records=Reading(self.records),
            seed_source=self.seeds.peek,
            code_source=lambda: "JOIN",
            today=lambda: TODAY,
        )

    def press(self, press: Press) -> None:
        twin = self.restarted()
        before = self.session.screen
        assert shown(twin) == shown(self.session), f"restored on {before}: another view"
        twin.press(press)  # first: it peeks at the deal code the box then draws
        self.session.press(press)
        assert twin.snapshot() == self.session.snapshot(), f"{press} on {before}"
        assert shown(twin) == shown(self.session), f"{press} on {before}: another view"
        self.screens.add(self.session.screen)
        if self.session.screen is not ScreenName.SHUTDOWN:
            self.restarted()  # the step the loop saves now restores too

    def keys(self, words: str) -> None:
        for word in words.split(","):
            self.press(Press.parse(word))

    def to_row(self, key: str) -> None:
        """NEXT down a list (the setup, the menu) to the row `key`."""
        for _ in range(40):
            view = self.session.view()
            assert isinstance(view, views.SetupView | views.MenuView), view.screen
            if view.rows[view.cursor].key == key:
                return
            self.press(Press(Button.NEXT))
        raise AssertionError(f"no row {key} on {self.session.screen}")

    def until(self, screen: ScreenName, word: str = "next", most: int = 200) -> None:
        """Press `word` until `screen` is up (each press checked)."""
        for _ in range(most):
            if self.session.screen is screen:
                return
            self.press(Press.parse(word))
        raise AssertionError(f"{screen} not reached by {word} from {self.session.screen}")


class EveryStepRestores(RuleBasedStateMachine):
    """D-1: a snapshot after any press restores to the same view and the same next press."""

    box: Box

    @initialize(
        city=st.sampled_from(CITIES),
        players=st.integers(1, 4),
        room=st.booleans(),
        modules=st.sets(st.sampled_from(MODULES), max_size=3),
        pencil_order=st.sampled_from(("drawn", "own")),
        dealt=st.booleans(),
    )
    def new_box(
        self,
        city: str,
        players: int,
        room: bool,
        modules: set[str],
        pencil_order: str,
        dealt: bool,
    ) -> None:
        ordered = tuple(m for m in MODULES if m in modules)
        settings = Settings(
            city=city, players=players, modules=ordered, pencil_order=pencil_order, room=room
        )
        self.box = Box(settings, dealt=dealt)

    @rule(
        button=st.sampled_from(Button),
        gesture=st.sampled_from(Gesture),
    )
    def press(self, button: Button, gesture: Gesture) -> None:
        """Any button, tapped, held or repeated, on whatever screen is up."""
        self.box.press(Press(button, gesture))

    @precondition(lambda self: isinstance(self.box.session.view(), LISTS))
    @rule(row=st.integers(0, 20))
    def choose(self, row: int) -> None:
        """On the setup or the menu, a row chosen as a player goes for one: NEXT down to
        it, then MENU (a room, a new game, the history…)."""
        rows = len(self.box.session.view().rows)  # type: ignore[attr-defined]
        self.box.to_row(self.box.session.view().rows[row % rows].key)  # type: ignore[attr-defined]
        self.box.press(Press(Button.MENU))

    @rule(taps=st.integers(1, 20))
    def play_on(self, taps: int) -> None:
        """NEXT tapped again and again, as a game goes: to a round's end, the game's end,
        the scores, a room's results (each press checked)."""
        for _ in range(taps):
            self.box.press(Press(Button.NEXT))

    @precondition(lambda self: self.box.session.screen in IN_ROUND)
    @rule(values=st.lists(st.integers(0, 15), min_size=3, max_size=3), skip=st.integers(0, 4))
    def lines_as_the_game_goes(self, values: list[int], skip: int) -> None:
        """NEXT to the round's end, then a held NEXT and each seat's line on the box
        (issue 34; a held MENU skips seat `skip`), then the same line sent from seat 1's
        phone: each press checked, and the phone's line restores too (S-T, S-P)."""
        session = self.box.session
        for _ in range(40):
            if session.screen is not ScreenName.ROUND_END and session.screen in IN_ROUND:
                self.box.press(Press(Button.NEXT))
        if session.screen is not ScreenName.ROUND_END:
            return
        self.box.press(Press(Button.NEXT, Gesture.HOLD))  # a room's or London's: a tap
        while session.screen is ScreenName.LINE_ENTRY:
            if session.state.line_seat == skip:
                self.box.press(Press(Button.MENU, Gesture.HOLD))
                continue
            step = session.state.sheet_step
            most = line_counts(session.current_setup())[step].most
            for press in presses_for(values[step], counting_field(most)):
                self.box.press(press)
        setup = session.state.setup
        if setup is not None and takes_lines(session):
            fields = [counting_field(c.most) for c in line_counts(setup)]
            line = tuple(min(v, f.high) for v, f in zip(values, fields, strict=False))
            assert session.enter_line(1, session.progress.round, line)
            self.box.restarted()

    @precondition(lambda self: self.box.session.state.room is not None)
    @rule(table=st.integers(1, 12), seat=st.integers(1, 4), total=st.integers(-5, 150))
    def a_phone_in_the_room(self, table: int, seat: int, total: int) -> None:
        """A room's phone joins (tables of four) and sends its sheet when the results
        are up: the next step restores with it."""
        session = self.box.session
        session.join(table, 4, seat, f"P{table}-{seat}")
        session.room_score(table, seat, total, 10)
        self.box.restarted()


EveryStepRestores.TestCase.settings = settings(
    max_examples=15,  # bounded for CI; the long run is the reliability harness's
    stateful_step_count=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestEveryStepRestores_D1 = EveryStepRestores.TestCase


def test_the_sequence_of_issue_32_restores_at_every_step_D1():
    """A room chosen on the setup, a game dealt, then back to the setup: the room went
    with its game, so the step restores (it was saved as "a room without a game")."""
    box = Box(Settings(), dealt=True)
    box.keys(KNOWN)
    assert box.session.screen is ScreenName.SETUP
    assert box.session.state.room is None and box.session.state.setup is None
    assert box.session.settings.room  # the choice of a room stays for the next game
    machine = EveryStepRestores()  # and the same through the state machine's own rules
    machine.new_box("tokyo", 2, False, set(), "drawn", True)
    for word in KNOWN.split(","):
        press = Press.parse(word)
        machine.press(press.button, press.gesture)
    machine.teardown()


def test_the_sequence_of_issue_32_end_to_end_restarts_without_a_notice_D1(tmp_path):
    """`nsdevice run --input script --display json` with the player's presses, then the
    box started again on the same state folder: no "store rewound", no database set
    aside, and the screen it stopped on (it came back a step, on the set-aside store)."""
    screens, first = run_box(tmp_path, KNOWN)
    assert first.returncode == 0, first.stderr
    assert any(screen.get("room") for screen in screens)  # a room game was dealt on the way
    again, second = run_box(tmp_path, "")
    assert second.returncode == 0, second.stderr
    assert "store rewound" not in second.stderr and "store_rewound" not in second.stdout
    assert not [path.name for path in tmp_path.iterdir() if ".damaged-" in path.name]
    assert plain(again[0]) == plain(screens[-1])


def plain(screen: dict[str, Any]) -> dict[str, Any]:
    """A JSON screen without its sound cue (a restored box has no chime to play)."""
    return {**screen, "chime": None, "say": None}


def test_a_walk_through_every_screen_restores_after_every_press_D1():
    """Every screen a box stands on, reached by presses, each press checked: the setup
    with a room, the deal code, a solo player's pencil row (C-8), the game, every overlay
    of the menu, the scores, the score sheet, the result, a room's results over pages and
    its tables, one freed."""
    solo = Box(Settings(city="tokyo", players=1, pencil_order="own"), dealt=False)
    solo.to_row("seed")
    solo.keys("menu,menu")  # random → the day's deal → a code typed in
    solo.keys("next,menu,hold:menu")  # "A", then done: back on the setup
    solo.to_row("start")
    solo.keys("menu")  # the pencil row first, then the game
    solo.until(ScreenName.SUMMARY, "menu")
    solo.keys("next,next,menu")  # the round's start, a turn, the menu over the round
    for row in ("show_setup", "round_so_far", "deck", "pencils", "about"):
        solo.to_row(row)
        solo.keys("menu,back")  # open it, and back (to the game or the menu)
        if solo.session.screen is not ScreenName.MENU:
            solo.keys("menu")
    for row in ("phones", "history"):
        solo.to_row(row)
        solo.keys("menu,next,menu")  # open, a new join code or a page on, back
    solo.to_row("restart_round")
    solo.keys("menu,back")  # asked, and no
    solo.to_row("resume")
    solo.keys("menu")
    solo.until(ScreenName.ROUND_END)
    solo.keys("hold:next,next,menu,hold:next,menu,menu,menu")  # the round's line, as it goes
    solo.keys("hold:next,hold:back")  # opened again on that line, and left as it was
    solo.until(ScreenName.GAME_END)
    solo.keys("hold:next")  # the scores, the sheet straight away
    solo.keys("hold:menu")  # skip the sheet: the total typed in
    solo.until(ScreenName.RESULT, "menu")
    room = Box(Settings(players=4), dealt=False)
    room.to_row("players")
    room.keys("menu")  # 4 → a room
    room.to_row("start")
    room.keys("menu")
    for table in range(1, 4):
        for seat in range(1, 5):
            assert room.session.join(table, 4, seat, f"Table {table} seat {seat}")
    room.until(ScreenName.ROOM_RESULTS)
    for table in range(1, 4):
        for seat in range(1, 5):
            assert room.session.room_score(table, seat, 40 + seat, 9)
    room.keys("menu")
    room.to_row("room_tables")  # the room's tables: table 1 chosen, asked, freed
    room.keys("menu,next,menu,menu")
    assert 1 not in room.session.state.room.tables  # type: ignore[union-attr]
    while room.session.view().cursor != 0:  # type: ignore[attr-defined]
        room.keys("back")
    room.keys("menu")  # the first row: back to the menu
    room.to_row("resume")
    room.keys("menu")
    for seat in range(1, 5):  # table 1 again, so that the results have two pages
        assert room.session.join(1, 4, seat, f"Again {seat}")
        assert room.session.room_score(1, seat, 30 + seat, 9)
    room.keys("next,menu")  # the second page, then the menu over it
    room.to_row("show_setup")
    room.keys("menu,back")  # the summary recalled, and back to the results
    room.keys("next,back,back")  # a page on and back, to the round's end
    reached = solo.screens | room.screens
    assert reached >= STANDING, f"not reached: {sorted(STANDING - reached)}"


def test_a_pencil_row_laid_again_in_the_last_games_order_restores_C8():
    """A solo player laid their own row; a new game offers it again, colour by colour: a
    restart in the middle offers the same colour next (the order is saved while the row
    is laid; before, the restarted box offered the city's order instead)."""
    box = Box(Settings(city="tokyo", players=1, pencil_order="own"), dealt=False)
    box.to_row("start")
    box.keys("menu,next,menu,next,menu")  # a row of the player's own
    box.until(ScreenName.SUMMARY, "menu")
    own = box.session.current_setup().pencil_order
    box.keys("next,menu")
    box.to_row("new_game")
    box.keys("menu,next")  # yes: the pencil row again, the last game's order offered
    assert box.session.screen is ScreenName.PENCIL_ORDER
    box.keys("menu,menu")  # each press checked against a restarted box
    assert tuple(box.session.state.pencil_choice) == own[:2]
    saved = box.session.snapshot()
    assert saved["pencil_preference"] == list(own)
    with pytest.raises(ValueError, match="pencil order offered"):
        Session.restore({**saved, "pencil_preference": ["blue"]})


def test_a_press_that_leaves_a_room_without_its_game_is_stopped_at_the_press(monkeypatch):
    """The machine holds to the description that restores hold to: with the room left
    behind (the fault of issue 32), the press itself raises, before any step is saved."""
    monkeypatch.setattr(State, "leave_game", lambda state: setattr(state, "setup", None))
    session = Session(Settings(players=4, room=True), seed_source=lambda: "ROOM")
    session.deal_new_game()
    assert session.state.room is not None
    with pytest.raises(ForbiddenState, match="a room without a game"):
        session.press(Press(Button.BACK))


def test_a_new_game_after_a_rooms_results_keeps_no_screen_of_the_last_game_D1():
    """A room's results, the menu over them, a new game, back to the setup, a game of
    one table: the last game's results stayed as the screen beneath the menu, and the
    step was one no restore took ("a room's results in a one-table game")."""
    box = Box(Settings(players=4, room=True), dealt=True)
    box.until(ScreenName.ROOM_RESULTS)
    box.keys("menu")
    box.to_row("new_game")
    box.keys("menu,next")  # yes: a new room game's summary
    box.keys("back")  # to the setup
    box.to_row("players")
    box.keys("menu")  # a room → 1 player
    box.to_row("start")
    box.keys("menu")
    assert box.session.screen is ScreenName.SUMMARY and box.session.state.room is None
    assert box.session.state.under is None


def test_a_new_game_asked_from_the_menu_after_a_line_was_entered_restores_D1():
    """A solo player who lays their own pencils (C-8) enters round 1's line as the game
    goes, then asks for a new game from the menu: the pencil row comes up with nothing of
    the old game's lines left, and every step of it restores. The long every-step run
    found this: the new game's pencil row kept the old lines, a state the box refused."""
    solo = Box(Settings(city="tokyo", players=1, pencil_order="own"), dealt=False)
    solo.to_row("start")
    solo.keys("menu")
    solo.until(ScreenName.SUMMARY, "menu")
    solo.until(ScreenName.ROUND_END)
    solo.keys("hold:next,next,menu,hold:next,menu,menu,menu")  # round 1's line, entered
    assert solo.session.state.lines, "the line was not entered"
    solo.keys("menu")
    solo.to_row("new_game")
    solo.keys("menu,next")  # asked, and yes
    assert solo.session.screen is ScreenName.PENCIL_ORDER
    assert not solo.session.state.lines
