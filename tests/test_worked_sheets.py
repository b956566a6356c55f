"""Worked score sheets with objectives, added up by hand from RULES §7 (S-T, S-T-END, S-P,
S-P-END, C-11, C-13, S-SOLO): each expected number below is written out with its
arithmetic, never computed through `scoring.sheet_total`, so a sum that drops an item
(Paris's objectives, Tokyo's ring penalty…) fails here even though the walk-through and
`nsdevice score` would still agree with each other."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from nsdevice import cli
from nsdevice.rules import scoring
from nsdevice.rules.cities import city
from nsdevice.session import Session, Settings
from nsdevice.session.digits import NumberField, presses_for
from tests.test_score_sheet import at_score_entry, walk

TOTAL_FIELD = NumberField(3, -50, 999)  # a seat's total as the score entry takes it

# Tokyo, objectives played (sheet order: 4 lines of districts × stations, stamps, ring,
# interchanges of 3, 4 and 5 lines, objectives).
TOKYO_SHEET = [
    (6, 4),  # line 1: 6 districts × 4 stations = 24
    (5, 5),  # line 2: 5 × 5 = 25
    (4, 3),  # line 3: 4 × 3 = 12
    (7, 2),  # line 4: 7 × 2 = 14                  lines: 24 + 25 + 12 + 14 = 75
    (25,),  # tourist stamps: 10 + 10 + 5 = 25
    (2,),  # 2 ring stations on no line: −3 × 2 = −6
    (2, 1, 1),  # interchanges: 2 × 5 + 1 × 15 + 1 × 30 = 55
    (2,),  # both objectives: 2 × 10 = 20
]
TOKYO_TOTAL = 169  # 75 + 25 − 6 + 55 + 20 = 169
TOKYO_SOLO_ADJUSTED = 159  # C-13: one module (objectives): 169 − 10 = 159
TOKYO_SOLO_TIER = 6  # S-SOLO: Tokyo ≥ 131 is the top tier

# Paris, objectives played (4 lines of quarters × stops + 2 × monuments, overpasses once
# and twice, interchanges of 2, 3 and 4 lines, objectives).
PARIS_SHEET = [
    (7, 5, 5),  # line 1: 7 × 5 + 2 × 5 = 35 + 10 = 45
    (6, 4, 2),  # line 2: 6 × 4 + 2 × 2 = 24 + 4 = 28
    (8, 3, 0),  # line 3: 8 × 3 + 0 = 24
    (5, 6, 3),  # line 4: 5 × 6 + 2 × 3 = 30 + 6 = 36     lines: 45 + 28 + 24 + 36 = 133
    (3, 2),  # overpasses: 3 × 2 + 2 × 6 = 6 + 12 = 18
    (4, 2, 1),  # interchanges: 4 × 2 + 2 × 5 + 1 × 9 = 8 + 10 + 9 = 27
    (1,),  # one objective: 10
]
PARIS_TOTAL = 188  # 133 + 18 + 27 + 10 = 188
PARIS_SOLO_ADJUSTED = 178  # C-13: 188 − 10 = 178
PARIS_SOLO_TIER = 5  # S-SOLO: Paris 161–180

# RULES §7's own Paris example on a sheet that has the objectives row, left at 0.
PARIS_RULEBOOK_SHEET = [
    (7, 5, 5),  # 7 × 5 + 2 × 5 = 45
    (6, 5, 0),  # 6 × 5 = 30
    (13, 1, 8),  # 13 × 1 + 2 × 8 = 29
    (5, 6, 0),  # 5 × 6 = 30                            lines: 45 + 30 + 29 + 30 = 134
    (3, 2),  # 3 × 2 + 2 × 6 = 18
    (4, 1, 1),  # 4 × 2 + 5 + 9 = 22
    (0,),
]
PARIS_RULEBOOK_TOTAL = 174  # S-P-END: 134 + 18 + 22 = 174


def flat(sheet: list[tuple[int, ...]]) -> list[int]:
    return [value for item in sheet for value in item]


def sheet_total(name: str, sheet: list[tuple[int, ...]]) -> int:
    town = city(name)
    return scoring.sheet_total(town, scoring.sheet_items(town, objectives=True), sheet)


def score_command(*argv: str) -> dict[str, object]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["score", *argv, "--json"]) == 0
    return json.loads(out.getvalue())


def test_tokyo_sheet_with_both_objectives_is_169_by_hand_S_T_S_T_END_C11():
    assert sheet_total("tokyo", TOKYO_SHEET) == TOKYO_TOTAL


def test_paris_sheet_with_an_objective_is_188_by_hand_S_P_S_P_END_C11():
    assert sheet_total("paris", PARIS_SHEET) == PARIS_TOTAL


def test_paris_rulebook_example_on_a_sheet_with_objectives_is_174_S_P_END():
    assert sheet_total("paris", PARIS_RULEBOOK_SHEET) == PARIS_RULEBOOK_TOTAL


@pytest.mark.parametrize(
    ("name", "sheet", "adjusted", "tier"),
    [
        ("tokyo", TOKYO_SHEET, TOKYO_SOLO_ADJUSTED, TOKYO_SOLO_TIER),
        ("paris", PARIS_SHEET, PARIS_SOLO_ADJUSTED, PARIS_SOLO_TIER),
    ],
)
def test_the_solo_walk_through_reaches_the_hand_total_tier_and_penalty_C11_C13_S_SOLO(
    name, sheet, adjusted, tier
):
    session = at_score_entry(name, objectives=True)
    total = walk(session, flat(sheet))
    view = session.view()
    assert total == {"tokyo": TOKYO_TOTAL, "paris": PARIS_TOTAL}[name]
    assert (view.adjusted, view.tier, view.penalty) == (adjusted, tier, 10)


def test_nsdevice_score_prints_the_hand_totals_S_T_END_S_P_END_C13():
    tokyo = score_command(
        "--city", "tokyo", "--line", "6x4", "--line", "5x5", "--line", "4x3", "--line", "7x2",
        "--stamps", "25", "--ring-unconnected", "2", "--interchanges", "3:2,4:1,5:1",
        "--objectives", "2", "--solo-modules", "1",
    )  # fmt: skip
    assert tokyo["lines"] == [24, 25, 12, 14]
    assert (tokyo["total"], tokyo["solo_adjusted"], tokyo["tier"]) == (169, 159, 6)
    paris = score_command(
        "--city", "paris", "--line", "7x5+5", "--line", "6x4+2", "--line", "8x3+0",
        "--line", "5x6+3", "--overpasses-once", "3", "--overpasses-twice", "2",
        "--interchanges", "2:4,3:2,4:1", "--objectives", "1", "--solo-modules", "1",
    )  # fmt: skip
    assert paris["lines"] == [45, 28, 24, 36]
    assert (paris["total"], paris["solo_adjusted"], paris["tier"]) == (188, 178, 5)


def test_each_tokyo_item_alone_is_worth_its_hand_points_S_T_END_C11():
    """One item at a time on an otherwise empty sheet, so no item can hide another."""
    empty = [(0, 0)] * 4 + [(0,), (0,), (0, 0, 0), (0,)]
    alone = {
        0: 24,  # 6 × 4
        4: 25,  # stamps
        5: -6,  # −3 × 2
        6: 55,  # 2 × 5 + 15 + 30
        7: 20,  # 2 × 10
    }
    for index, points in alone.items():
        sheet = list(empty)
        sheet[index] = TOKYO_SHEET[index]
        assert sheet_total("tokyo", sheet) == points, index


def test_each_paris_item_alone_is_worth_its_hand_points_S_P_END_C11():
    empty = [(0, 0, 0)] * 4 + [(0, 0), (0, 0, 0), (0,)]
    alone = {
        3: 36,  # 5 × 6 + 2 × 3
        4: 18,  # 3 × 2 + 2 × 6
        5: 27,  # 4 × 2 + 2 × 5 + 9
        6: 10,  # one objective
    }
    for index, points in alone.items():
        sheet = list(empty)
        sheet[index] = PARIS_SHEET[index]
        assert sheet_total("paris", sheet) == points, index


# London: no line scoring in RULES, so a total is typed; objectives and pencil powers
# played solo cost 2 × 10 (C-13).
LONDON_TOTAL = 163
LONDON_ADJUSTED = 143  # 163 − 2 × 10 = 143
LONDON_TIER = 5  # S-SOLO: London 136–150


def test_london_solo_with_objectives_and_pencil_powers_by_hand_C11_C13_S_SOLO():
    session = Session(
        Settings(city="london", players=1, modules=("objectives", "pencil_powers")),
        seed_source=lambda: "SHEET",
    )
    session.deal_new_game()
    while session.screen != "game_end":
        session.next()
    session.next()
    assert session.screen == "score_entry" and not session.view().sheet  # totals only
    for press in presses_for(LONDON_TOTAL, TOTAL_FIELD):
        session.press(press)
    view = session.view()
    assert view.screen == "result"
    assert (view.total, view.penalty, view.adjusted, view.tier) == (163, 20, 143, 5)
    assert (view.tier_low, view.tier_high) == (136, 150)
    printed = score_command("--city", "london", "--total", "163", "--solo-modules", "2")
    assert (printed["solo_adjusted"], printed["tier"]) == (LONDON_ADJUSTED, LONDON_TIER)


def test_london_table_tie_on_total_is_won_on_the_best_line_C12():
    """Three London seats type 120, 131, 131; seats 2 and 3 give best lines 28 and 30:
    seat 3 wins on the best line (C-12), seat 1's total is not tied and is not asked."""
    session = Session(Settings(city="london", players=3), seed_source=lambda: "SHEET")
    session.deal_new_game()
    while session.screen != "game_end":
        session.next()
    session.next()
    for value in (120, 131, 131, 28, 30):
        for press in presses_for(value, TOTAL_FIELD):
            session.press(press)
    view = session.view()
    assert view.screen == "result"
    assert [(s.seat, s.total, s.best_line) for s in view.seats][1:] == [(2, 131, 28), (3, 131, 30)]
    assert (view.winners, view.decided_by) == ((3,), "best_line")
