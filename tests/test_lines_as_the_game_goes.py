"""Each round's line entered at the round's end, as the game goes (issue 34): the box keeps
each seat's lines, the game's end asks only what is left, and the totals are the ones
`nsdevice score` prints for the same sheets (S-T, S-P, S-T-END, S-P-END); entering nothing
along the way changes nothing; a game in the middle of it saves and restores (D-1)."""

from __future__ import annotations

import json
import random

import pytest

from nsdevice.inputs.events import Button, Gesture, Press
from nsdevice.rules import scoring
from nsdevice.rules.cities import city
from nsdevice.session import Session, Settings
from nsdevice.session.digits import counting_field, presses_for
from nsdevice.session.screens.score_sheet import sheet_counts
from nsdevice.texts import words
from tests.test_score_sheet import cli_arguments, cli_total

HOLD_NEXT = Press(Button.NEXT, Gesture.HOLD)
HOLD_MENU = Press(Button.MENU, Gesture.HOLD)
MENU, NEXT, BACK = Press(Button.MENU), Press(Button.NEXT), Press(Button.BACK)


def a_sheet(city_name: str, rng: random.Random) -> list[int]:
    """Counts a real sheet could show (objectives played), in sheet order."""
    session = Session(Settings(city=city_name, players=3, modules=("objectives",)))
    session.deal_new_game("LINES")
    layout = sheet_counts(session.current_setup())
    counts = [rng.randint(0, min(c.most or 12, 12)) for _, c in layout]
    keys = [c.key for _, c in layout]
    if "stamps" in keys:  # S-T-END: a sum the districts' stamps make
        counts[keys.index("stamps")] = rng.choice(sorted(city(city_name).stamp_totals()))
    if "overpasses_once" in keys:  # P-5: 8 overpasses on the map
        once, twice = keys.index("overpasses_once"), keys.index("overpasses_twice")
        counts[twice] = min(counts[twice], scoring.PARIS_OVERPASSES - counts[once])
    return counts


def line_values(session: Session, sheet: list[int], number: int) -> list[tuple[int, int]]:
    """Round `number`'s line on `sheet`: (its step on the sheet, the count) in order."""
    layout = sheet_counts(session.current_setup())
    items = scoring.sheet_items(city(session.settings.city), True)
    return [
        (step, sheet[step])
        for step, (index, _) in enumerate(layout)
        if items[index].key == "line" and items[index].number == number
    ]


def enter(session: Session, step: int, value: int) -> int:
    """One count set with the digit presses; how many presses it took."""
    count = sheet_counts(session.current_setup())[step][1]
    presses = presses_for(value, counting_field(count.most))
    for press in presses:
        session.press(press)
    return len(presses)


def play_entering_lines(
    city_name: str, sheets: list[list[int]], skipped: set[tuple[int, int]] = frozenset()
) -> tuple[Session, int]:
    """A 3-player game whose seats enter each round's line at its end (a held MENU skips
    seat s in round r for each (s, r) in `skipped`), then the rest at the game's end;
    the session on the result, and the presses the game's end took."""
    session = Session(
        Settings(city=city_name, players=3, modules=("objectives",)), seed_source=lambda: "LINES"
    )
    session.deal_new_game()
    for number in range(1, 5):
        while session.screen != "round_end":
            session.next()
        session.press(HOLD_NEXT)
        for seat, sheet in enumerate(sheets, start=1):
            assert (session.screen, session.view().seat) == ("line_entry", seat)
            if (seat, number) in skipped:
                session.press(HOLD_MENU)
                continue
            for step, value in line_values(session, sheet, number):
                enter(session, step - line_values(session, sheet, number)[0][0], value)
        assert session.screen == "round_end"
        session.next()
    assert session.screen == "game_end"
    presses = 1
    session.next()
    for seat, sheet in enumerate(sheets, start=1):
        assert (session.screen, session.view().seat) == ("score_sheet", seat)
        while session.screen == "score_sheet":
            presses += enter(session, session.state.sheet_step, sheet[session.state.sheet_step])
        assert session.screen == "score_entry"  # the total from the sheet: one MENU takes it
        session.press(MENU)
        presses += 1
    assert session.screen == "result"
    return session, presses


@pytest.mark.parametrize("city_name", ["tokyo", "paris"])
def test_lines_entered_as_the_game_goes_end_on_the_score_commands_totals_S_T_S_P_S_T_END_S_P_END(
    city_name,
):
    rng = random.Random(f"issue 34 {city_name}")
    sheets = [a_sheet(city_name, rng) for _ in range(3)]
    session, _ = play_entering_lines(city_name, sheets, skipped={(3, 2)})
    printed = [cli_total(cli_arguments(city_name, sheet, True)) for sheet in sheets]
    assert [seat.total for seat in session.view().seats] == printed
    assert session.state.sheets == {seat: tuple(s) for seat, s in enumerate(sheets, start=1)}


def test_the_games_end_asks_only_what_is_left_S_T_END():
    """Seat 3 skipped round 2's line: its sheet opens on that line, then past the lines it
    gave to the stamps; the others' open on the stamps at once."""
    rng = random.Random(34)
    sheets = [a_sheet("tokyo", rng) for _ in range(3)]
    session = Session(
        Settings(city="tokyo", players=3, modules=("objectives",)), seed_source=lambda: "LINES"
    )
    session.deal_new_game()
    for number in range(1, 5):
        while session.screen != "round_end":
            session.next()
        session.press(HOLD_NEXT)
        for seat, sheet in enumerate(sheets, start=1):
            if (seat, number) == (3, 2):
                session.press(HOLD_MENU)
                continue
            values = line_values(session, sheet, number)
            for step, value in values:
                enter(session, step - values[0][0], value)
        running = [sum(scoring.tokyo_line(*s[2 * n : 2 * n + 2]) for n in range(number))
                   for s in sheets]  # fmt: skip
        if number >= 2:  # seat 3 has no line 2
            running[2] -= scoring.tokyo_line(*sheets[2][2:4])
        assert session.view().running == tuple(running)
        session.next()
    session.next()
    stamps = [c.key for _, c in sheet_counts(session.current_setup())].index("stamps")
    assert (session.view().seat, session.state.sheet_step) == (1, stamps)
    while session.screen == "score_sheet":
        enter(session, session.state.sheet_step, sheets[0][session.state.sheet_step])
    session.press(MENU)
    while session.screen == "score_sheet":
        enter(session, session.state.sheet_step, sheets[1][session.state.sheet_step])
    session.press(MENU)
    asked = []
    while session.screen == "score_sheet":
        asked.append(session.state.sheet_step)
        enter(session, session.state.sheet_step, sheets[2][session.state.sheet_step])
    assert asked == [2, 3, *range(stamps, len(sheets[2]))]  # line 2's two counts, then the rest


def test_entering_nothing_along_the_way_scores_as_before():
    """No held NEXT at any round's end: the score entry starts on seat 1's total, as it
    always did, and the snapshot keeps its version."""
    session = Session(Settings(city="tokyo", players=3), seed_source=lambda: "LINES")
    session.deal_new_game()
    while session.screen != "game_end":
        session.next()
    session.next()
    assert (session.screen, session.view().field) == ("score_entry", "total")
    assert session.snapshot()["version"] == 2


def test_a_game_in_the_middle_of_its_lines_saves_as_version_4_and_restores_D1():
    session = Session(Settings(city="paris", players=2), seed_source=lambda: "LINES")
    session.deal_new_game()
    while session.screen != "round_end":
        session.next()
    session.press(HOLD_NEXT)
    for press in presses_for(7, counting_field(13)) + presses_for(5, counting_field(None)):
        session.press(press)
    session.press(Press(Button.NEXT))  # seat 1's monuments: 1, not taken yet
    saved = json.loads(json.dumps(session.snapshot()))
    assert saved["version"] == 4 and saved["line_seat"] == 1 and "lines" not in saved
    again = Session.restore(saved)
    assert again.view() == session.view() and again.view().running == 7 * 5 + 2
    for box in (session, again):
        box.press(MENU)
        box.press(MENU)  # monuments taken: seat 2's line
    assert again.snapshot() == session.snapshot()
    assert again.snapshot()["lines"] == [[1, 1, 7, 5, 1]]


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("lines", [[3, 1, 7, 5, 1]]),  # a seat the table does not have
        ("lines", [[1, 5, 7, 5, 1]]),  # a fifth round
        ("lines", [[1, 1, 14, 5, 1]]),  # 14 quarters: the map has 13
        ("lines", [[1, 1, 7, 5]]),  # a Paris line without its monuments
        ("lines", [[1, 1, 7, 5, 1], [1, 1, 7, 5, 1]]),  # one line twice
        ("sheets", [[1, 1, 2]]),  # a sheet too short
        ("names", [[1, ""]]),  # no name
        ("line_seat", 1),  # the line entry's seat away from it
    ],
)
def test_a_saved_game_whose_lines_do_not_fit_is_refused_D1(key, value):
    session = Session(Settings(city="paris", players=2), seed_source=lambda: "LINES")
    session.deal_new_game()
    while session.screen != "round_end":
        session.next()
    saved = {**json.loads(json.dumps(session.snapshot())), key: value, "version": 4}
    with pytest.raises(ValueError, match="does not fit"):
        Session.restore(saved)


def test_an_older_snapshot_restores_and_a_room_keeps_version_3():
    session = Session(Settings(city="tokyo", players=2), seed_source=lambda: "LINES")
    session.deal_new_game()
    saved = session.snapshot()
    assert saved["version"] == 2 and Session.restore(saved).view() == session.view()
    room = Session(Settings(players=4))
    room.state.settings = Settings(players=4, room=True)
    room.deal_new_game()
    assert room.snapshot()["version"] == 3


@pytest.mark.parametrize("city_name", ["tokyo", "paris"])
def test_a_sheets_parts_add_up_to_its_total_S_T_END_S_P_END(city_name):
    town = city(city_name)
    items = scoring.sheet_items(town, True)
    rng = random.Random(city_name)
    for _ in range(200):
        counts = a_sheet(city_name, rng)
        values, start = [], 0
        for item in items:
            values.append(counts[start : start + len(item.counts)])
            start += len(item.counts)
        parts = scoring.sheet_parts(town, items, values)
        lines = sum(
            scoring.line_points(town, v)
            for i, v in zip(items, values, strict=True)
            if i.key == "line"
        )
        assert parts[0] == ("lines", lines)
        assert sum(points for _, points in parts) == scoring.sheet_total(town, items, values)
        own = ("stamps", "ring") if city_name == "tokyo" else ("overpasses",)
        assert [key for key, _ in parts] == ["lines", *own, "interchanges", "objectives"]


def test_the_result_shows_each_seats_breakdown_from_its_sheet_S_T_END():
    rng = random.Random(35)
    sheets = [a_sheet("tokyo", rng) for _ in range(3)]
    session, _ = play_entering_lines("tokyo", sheets)
    view = session.view()
    for seat in view.seats:
        assert sum(part.points for part in seat.parts) == seat.total
        assert seat.parts[0].key == "lines" and seat.name == ""
    lines = [line.text for line in words("en").page(view).lines]
    first = view.seats[0].parts
    assert f"Lines: {first[0].points} · Tourist stamps: {first[1].points}" in lines[2]
    # a total typed over the sheet's: no breakdown that would not add up to it
    session.press(BACK)  # the last seat's total again, on its hundreds
    for press in (NEXT, MENU, MENU, MENU):  # a hundred more, typed
        session.press(press)
    assert session.screen == "result"
    assert not session.view().seats[2].parts and session.view().seats[0].parts
