"""The score-sheet walk-through (issue 11): item by item through Session presses, it gets
exactly the total `nsdevice score` prints for the same counts (S-T, S-T-END, S-P,
S-P-END, C-11), skips at any item, and London takes totals (no line scoring in RULES)."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from nsdevice import cli
from nsdevice.inputs.events import Button, Gesture, Press
from nsdevice.rules import scoring
from nsdevice.rules.cities import city
from nsdevice.session import Session, Settings
from nsdevice.session.digits import SCORE_LIMITS, counting_field, presses_for
from nsdevice.session.screens.score_sheet import sheet_counts
from nsdevice.texts import words
from tests.test_run import ENV

HOLD_MENU = Press(Button.MENU, Gesture.HOLD)


@cache
def _at_score_entry(city_name: str, objectives: bool, players: int = 1) -> Session:
    modules = ("objectives",) if objectives else ()
    session = Session(
        Settings(city=city_name, players=players, modules=modules), seed_source=lambda: "SHEET"
    )
    session.deal_new_game()
    while session.screen != "game_end":
        session.next()
    session.next()
    return session


def at_score_entry(city_name: str, objectives: bool, players: int = 1) -> Session:
    return _at_score_entry(city_name, objectives, players).copy()


@st.composite
def sheets(draw, city_name: str) -> tuple[bool, list[int]]:
    """Counts a real sheet could show: within each count's bounds, overpasses within P-5."""
    objectives = draw(st.booleans())
    layout = sheet_counts(at_score_entry(city_name, objectives).current_setup())
    counts = [draw(st.integers(0, min(c.most or 20, 20))) for _, c in layout]
    keys = [c.key for _, c in layout]
    if "stamps" in keys:  # S-T-END: sums of the districts' stamps, fives up to 60
        counts[keys.index("stamps")] = draw(st.sampled_from(sorted(city(city_name).stamp_totals())))
    if "overpasses_once" in keys:
        once, twice = keys.index("overpasses_once"), keys.index("overpasses_twice")
        counts[twice] = min(counts[twice], scoring.PARIS_OVERPASSES - counts[once])
    return objectives, counts


def enter_counts(session: Session, counts: list[int]) -> None:
    """Every count of the sheet entered with the digit presses."""
    session.press(HOLD_MENU)
    assert session.screen == "score_sheet"
    layout = sheet_counts(session.current_setup())
    for (_, count), value in zip(layout, counts, strict=True):
        for press in presses_for(value, counting_field(count.most)):
            session.press(press)


def walk(session: Session, counts: list[int]) -> int:
    """Every count of the sheet entered with the digit presses, then the total taken."""
    enter_counts(session, counts)
    assert session.screen == "score_entry"  # the total filled in, one MENU to take it
    session.press(Press(Button.MENU))
    assert session.screen == "result"
    return session.view().total


def cli_arguments(city_name: str, counts: list[int], objectives: bool) -> list[str]:
    setup = at_score_entry(city_name, objectives).current_setup()
    layout = sheet_counts(setup)
    items = scoring.sheet_items(city(city_name), objectives)
    argv = ["score", "--city", city_name]
    interchanges = []
    start = 0
    for item in items:
        values = counts[start : start + len(item.counts)]
        start += len(item.counts)
        if item.key == "line":
            body = f"{values[0]}x{values[1]}"
            argv += ["--line", body + (f"+{values[2]}" if len(values) == 3 else "")]
        elif item.key == "interchanges":
            for count, value in zip(item.counts, values, strict=True):
                interchanges.append(f"{count.key.removeprefix('interchanges_')}:{value}")
        else:
            for count, value in zip(item.counts, values, strict=True):
                argv += [f"--{count.key.replace('_', '-')}", str(value)]
    assert start == len(layout)
    return [*argv, "--interchanges", ",".join(interchanges)]


def cli_total(argv: list[str]) -> int:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(argv) == 0
    return int(next(line for line in out.getvalue().splitlines() if line.startswith("total:"))
               .removeprefix("total:"))  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(sheets("tokyo"))
def test_the_tokyo_walk_through_equals_nsdevice_score_S_T_S_T_END_C11(sheet):
    objectives, counts = sheet
    walks_to(cli_total(cli_arguments("tokyo", counts, objectives)), "tokyo", objectives, counts)


@settings(max_examples=200, deadline=None)
@given(sheets("paris"))
def test_the_paris_walk_through_equals_nsdevice_score_S_P_S_P_END_C11(sheet):
    objectives, counts = sheet
    walks_to(cli_total(cli_arguments("paris", counts, objectives)), "paris", objectives, counts)


def walks_to(expected: int, city_name: str, objectives: bool, counts: list[int]) -> None:
    """The walk-through takes the total the command prints; a total past the seat's
    three digits (far past any real sheet) is refused as counts that cannot all be right,
    where taking it saved a step the next start refused (issue 32)."""
    session = at_score_entry(city_name, objectives)
    if expected <= SCORE_LIMITS[1]:
        assert walk(session, counts) == expected
        return
    enter_counts(session, counts)
    assert session.screen == "score_sheet" and session.view().running is None
    Session.restore(session.snapshot())  # still a step the box restores


def test_a_sheet_past_the_seats_total_is_refused_and_the_step_restores():
    """Four Tokyo lines of 13 districts and 20 stations each, 60 stamps: more than the
    total's three digits hold (`nsdevice score` says how much): the sheet warns and stays."""
    counts = [13, 20] * 4 + [60, 0, 0, 0, 0]
    layout = sheet_counts(at_score_entry("tokyo", False).current_setup())
    assert len(counts) == len(layout)
    walks_to(cli_total(cli_arguments("tokyo", counts, False)), "tokyo", False, counts)


def test_the_printed_total_of_the_real_command_matches_for_a_sample_S_T_END_S_P_END():
    """The worked examples of RULES §7 and one each at random, through `nsdevice score` as
    a process: what it prints is what the walk-through fills in."""
    tokyo = [5, 4, 5, 5, 6, 3, 4, 3, 20, 3, 0, 1, 0]  # 20+25+18+12, stamps 20, ring 3, one 4
    paris = [7, 5, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 2, 4, 1, 1]
    for name, counts, expected in (("tokyo", tokyo, 101), ("paris", paris, 45 + 18 + 22)):
        argv = cli_arguments(name, counts, objectives=False)
        printed = subprocess.run([sys.executable, "-m", "nsdevice", *argv], env=ENV,
                                 capture_output=True, text=True, timeout=60)  # fmt: skip
        assert printed.returncode == 0, printed.stderr
        assert f"total: {expected}" in printed.stdout.splitlines()
        assert walk(at_score_entry(name, False), counts) == expected


def test_the_walk_through_can_be_left_at_any_item_for_the_total_as_it_was():
    steps = len(sheet_counts(at_score_entry("tokyo", True).current_setup()))
    for step in range(steps):
        session = at_score_entry("tokyo", True)
        for press in presses_for(87, counting_field(999))[:-1]:  # 087 typed, not yet taken
            session.press(press)
        session.press(HOLD_MENU)
        for _ in range(step):  # a 1 in each count up to this one
            session.press(Press(Button.NEXT))
            while session.view().cursor + 1 < len(session.view().digits):
                session.press(Press(Button.MENU))
            session.press(Press(Button.MENU))
        assert session.view().step <= step and session.screen == "score_sheet"
        session.press(Press(Button.NEXT))
        session.press(HOLD_MENU)  # skip: type the total instead
        assert session.screen == "score_entry" and session.view().value == 87


def test_each_item_shows_its_points_and_the_running_total_from_the_rules_S_T():
    session = at_score_entry("tokyo", False)
    session.press(HOLD_MENU)
    for press in (*presses_for(5, counting_field(13)), *presses_for(4, counting_field(None))):
        session.press(press)
    view = session.view()  # line 2's first count: line 1 is 5 × 4
    assert (view.item, view.number, view.running) == ("line", 2, scoring.tokyo_line(5, 4))
    page = words("en").page(view)
    texts = [line.text for line in page.lines]
    assert any("districts" in text for text in texts)  # the line's formula, in words
    assert "Hold MENU" in texts[-1]  # and how to skip it


def test_london_takes_totals_and_says_so_no_line_scoring():
    session = at_score_entry("london", False)
    view = session.view()
    assert view.screen == "score_entry" and not view.sheet
    text = " ".join(line.text for line in words("en").page(view).lines)
    assert "London: enter the total" in text
    session.press(HOLD_MENU)  # no sheet to open
    assert session.screen == "score_entry"
    assert scoring.sheet_items(city("london"), True) == ()


def test_a_held_next_at_the_game_end_opens_the_first_seats_sheet_in_one_press():
    session = at_score_entry("paris", False, players=2)
    session.press(Press(Button.BACK))  # the empty first field: back to the game's end
    assert session.screen == "game_end" and session.view().sheet
    session.press(Press(Button.NEXT, Gesture.HOLD))
    assert session.screen == "score_sheet" and session.view().seat == 1
    london = at_score_entry("london", False)
    london.press(Press(Button.BACK))
    assert not london.view().sheet
    london.press(Press(Button.NEXT, Gesture.HOLD))  # no sheet: the totals, as a tap would
    assert london.screen == "score_entry"


def test_a_solo_sheet_ends_by_naming_the_module_penalty_C13():
    session = at_score_entry("tokyo", True)
    session.press(HOLD_MENU)
    layout = sheet_counts(session.current_setup())
    for _, count in layout[:-1]:
        for press in presses_for(0, counting_field(count.most)):
            session.press(press)
    view = session.view()  # the objectives, the sheet's last item
    assert (view.item, view.module_penalty) == ("objectives", scoring.MODULE_PENALTY)
    assert any("−10" in line.text for line in words("en").page(view).lines)
    first = at_score_entry("tokyo", True)
    first.press(HOLD_MENU)
    assert not any("−10" in line.text for line in words("en").page(first.view()).lines)


def _two_seat_keys() -> tuple[list[str], int]:
    """From power-on: a 2-player Tokyo game on deal code B, then NEXT to its end."""
    keys = ["menu", "next", "next", "next"]  # the setup list, past players to the modules
    keys += ["next"] * 4 + ["menu", "menu"]  # past the four modules: deal row, today
    keys += ["next", "next", "menu", "menu"]  # "" → A → B, on to the blank end, done
    keys += ["back"] * 7 + ["menu"]  # up to "start": the summary
    session = Session(Settings(city="tokyo", players=2), seed_source=lambda: "B")
    session.deal_new_game()
    turns = 0
    while session.screen != "game_end":
        session.next()
        turns += 1
    return keys + ["next"] * turns, turns


def _sheet_keys(counts: list[int]) -> list[str]:
    """A held MENU on a seat's total, its sheet count by count, and MENU to take it."""
    layout = sheet_counts(at_score_entry("tokyo", False, players=2).current_setup())
    keys = [str(HOLD_MENU)]
    for (_, count), value in zip(layout, counts, strict=True):
        keys += [str(p) for p in presses_for(value, counting_field(count.most))]
    return [*keys, "menu"]


def test_two_seats_tied_after_their_sheets_are_never_asked_for_a_best_line_C12(tmp_path):
    """Through `nsdevice run --input script --display json`: both seats add up their
    sheets to 20; the sheets know seat 1's best line (20) beats seat 2's (10)."""
    from tests.test_run import run_box

    start, _ = _two_seat_keys()
    seat_one = [5, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]  # a 5×4 line: 20
    seat_two = [2, 5, 2, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0]  # two 2×5 lines: 10 + 10
    keys = [*start, "next", *_sheet_keys(seat_one), *_sheet_keys(seat_two)]
    screens, result = run_box(tmp_path, ",".join(keys))
    assert result.returncode == 0, result.stderr
    summary = [s for s in screens if s["screen"] == "summary"][-1]
    assert (summary["city"], summary["players"]) == ("tokyo", 2)
    entries = [s for s in screens if s["screen"] == "score_entry"]
    assert entries and all(s["field"] == "total" for s in entries)
    assert {s["step"] + 1 for s in entries} == {1, 2} and {s["steps"] for s in entries} == {2}
    final = screens[-1]
    assert final["screen"] == "result", [s["screen"] for s in screens[-5:]]
    assert [(s["total"], s["best_line"]) for s in final["seats"]] == [(20, 20), (20, 10)]
    assert final["winners"] == [1] and final["decided_by"] == "best_line"
    assert final["seed"] == "B"  # the deal the turns were counted on (D-2)


def test_a_sheet_given_best_line_survives_a_restart_and_a_bad_seat_is_refused_C12():
    import json

    import pytest

    session = at_score_entry("tokyo", False, players=2)
    for key in _sheet_keys([5, 4, *[0] * 11]):
        session.press(Press.parse(key))
    assert session.view().seat == 2  # seat 1's total and best line came from the sheet
    saved = json.loads(json.dumps(session.snapshot()))
    assert saved["sheet_best"] == [1] and saved["scores"][:2] == [20, 20]
    assert Session.restore(saved).snapshot() == session.snapshot()
    for damage in ([3], [1, 1], [0]):
        with pytest.raises(ValueError):
            Session.restore({**saved, "sheet_best": damage})
