"""Scores: worked examples, limits, solo tiers and the winner (RULES section 7, C-11..C-13)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nsdevice.rules.cities import CityName, city
from nsdevice.rules.scoring import (
    SeatScore,
    paris_line,
    paris_total,
    solo_adjusted,
    solo_tier,
    tokyo_line,
    tokyo_total,
    winner,
)

# S-T ---------------------------------------------------------------------------------------


def test_tokyo_line_five_districts_four_stations_scores_20_S_T():
    assert tokyo_line(5, 4) == 20


def test_tokyo_line_with_a_double_station_making_six_scores_30_S_T_TSP4():
    assert tokyo_line(5, 6) == 30


def test_tokyo_line_cannot_cross_more_than_13_districts_S_T_T5():
    assert tokyo_line(13, 2) == 26
    with pytest.raises(ValueError, match="districts"):
        tokyo_line(14, 2)


@pytest.mark.parametrize(("districts", "stations"), [(-1, 4), (5, -1)])
def test_tokyo_line_rejects_negative_counts_S_T(districts, stations):
    with pytest.raises(ValueError, match="negative"):
        tokyo_line(districts, stations)


def test_tokyo_total_worked_example_is_101_S_T_END():
    assert tokyo_total([20, 25, 18, 12], stamps=20, ring_unconnected=3, interchanges={4: 1}) == 101


@pytest.mark.parametrize(("lines", "points"), [(3, 5), (4, 15), (5, 30)])
def test_tokyo_interchange_points_S_T_END(lines, points):
    assert tokyo_total([], interchanges={lines: 2}) == 2 * points


@pytest.mark.parametrize("lines", [2, 6])
def test_tokyo_interchange_of_unknown_size_rejected_S_T_END(lines):
    with pytest.raises(ValueError, match="interchange"):
        tokyo_total([], interchanges={lines: 1})


def test_tokyo_ring_penalty_is_3_each_and_capped_at_24_S_T_END():
    assert tokyo_total([], ring_unconnected=1) == -3
    assert tokyo_total([], ring_unconnected=8) == -24
    with pytest.raises(ValueError, match="ring"):
        tokyo_total([], ring_unconnected=9)


@pytest.mark.parametrize("objectives", [0, 1, 2])
def test_each_objective_is_worth_10_C11(objectives):
    assert tokyo_total([10], objectives=objectives) == 10 + 10 * objectives
    assert paris_total([10], objectives=objectives) == 10 + 10 * objectives


def test_at_most_two_objectives_can_be_fulfilled_C11():
    with pytest.raises(ValueError, match="objectives"):
        tokyo_total([], objectives=3)
    with pytest.raises(ValueError, match="objectives"):
        paris_total([], objectives=3)


@pytest.mark.parametrize(
    "kwargs",
    [{"stamps": -1}, {"interchanges": {3: -1}}, {"objectives": -1}, {"ring_unconnected": -1}],
)
def test_tokyo_total_rejects_negative_counts_S_T_END(kwargs):
    with pytest.raises(ValueError, match="negative"):
        tokyo_total([10], **kwargs)


def test_tokyo_total_rejects_a_negative_line_S_T_END():
    with pytest.raises(ValueError, match="line"):
        tokyo_total([10, -1])


# S-P ---------------------------------------------------------------------------------------


def test_paris_line_seven_quarters_five_stops_five_monuments_scores_45_S_P():
    assert paris_line(7, 5, 5) == 45


def test_paris_line_limits_13_quarters_8_monuments_S_P_P5():
    assert paris_line(13, 1, 8) == 29
    with pytest.raises(ValueError, match="quarters"):
        paris_line(14, 1, 0)
    with pytest.raises(ValueError, match="monuments"):
        paris_line(7, 5, 9)


def test_paris_total_worked_example_is_174_S_P_END():
    # 3 overpasses crossed once, 2 twice; four 2-line, one 3-line, one 4-line interchange
    assert (
        paris_total(
            [45, 30, 29, 30],
            overpasses_once=3,
            overpasses_twice=2,
            interchanges={2: 4, 3: 1, 4: 1},
        )
        == 174
    )


@pytest.mark.parametrize(("lines", "points"), [(2, 2), (3, 5), (4, 9)])
def test_paris_interchange_points_S_P_END(lines, points):
    assert paris_total([], interchanges={lines: 3}) == 3 * points


def test_paris_overpasses_are_worth_2_once_6_twice_and_number_at_most_8_S_P_END_P5():
    assert paris_total([], overpasses_once=1) == 2
    assert paris_total([], overpasses_twice=1) == 6
    assert paris_total([], overpasses_once=4, overpasses_twice=4) == 32
    with pytest.raises(ValueError, match="8 overpasses"):
        paris_total([], overpasses_once=5, overpasses_twice=4)


@pytest.mark.parametrize("lines", [1, 5])
def test_paris_interchange_of_unknown_size_rejected_S_P_END(lines):
    with pytest.raises(ValueError, match="interchange"):
        paris_total([], interchanges={lines: 1})


# C-13, S-SOLO ------------------------------------------------------------------------------


@pytest.mark.parametrize("modules", [0, 1, 2, 3, 4])
def test_solo_loses_10_per_module_C13(modules):
    assert solo_adjusted(120, modules) == 120 - 10 * modules


@pytest.mark.parametrize("modules", [-1, 5])
def test_solo_module_count_is_0_to_4_C13(modules):
    with pytest.raises(ValueError, match="modules"):
        solo_adjusted(120, modules)


TIER_EDGES = {  # S-SOLO, D-4: (score, tier) at every boundary, from the RULES table
    "tokyo": [(70, 1), (71, 2), (85, 2), (86, 3), (100, 3), (101, 4), (115, 4), (116, 5),
              (130, 5), (131, 6)],
    "paris": [(100, 1), (101, 2), (120, 2), (121, 3), (140, 3), (141, 4), (160, 4), (161, 5),
              (180, 5), (181, 6)],
    "london": [(90, 1), (91, 2), (105, 2), (106, 3), (120, 3), (121, 4), (135, 4), (136, 5),
               (150, 5), (151, 6)],
}  # fmt: skip


@pytest.mark.parametrize(
    ("name", "score", "tier"),
    [(name, score, tier) for name, edges in TIER_EDGES.items() for score, tier in edges],
)
def test_solo_tier_at_every_boundary_S_SOLO_D4(name, score, tier):
    assert solo_tier(city(name), score) == tier


@pytest.mark.parametrize("name", list(CityName))
def test_solo_tier_extremes_S_SOLO(name):
    assert solo_tier(city(name), -50) == 1
    assert solo_tier(city(name), 10_000) == 6


@given(st.sampled_from(list(CityName)), st.integers(-100, 400), st.integers(-100, 400))
@settings(max_examples=200, deadline=None)
def test_solo_tier_never_falls_as_the_score_rises_S_SOLO(name, a, b):
    low, high = sorted((a, b))
    assert 1 <= solo_tier(city(name), low) <= solo_tier(city(name), high) <= 6


def test_module_penalty_can_drop_a_tier_C13_S_SOLO():
    assert solo_tier(city("tokyo"), solo_adjusted(86, 0)) == 3
    assert solo_tier(city("tokyo"), solo_adjusted(86, 1)) == 2


# C-12 --------------------------------------------------------------------------------------


def test_highest_total_wins_C12():
    outcome = winner([SeatScore(1, 90, 30), SeatScore(2, 101, 20), SeatScore(3, 99, 40)])
    assert outcome.winners == (2,)
    assert outcome.decided_by == "total"


def test_tie_is_broken_by_the_best_single_line_C12():
    outcome = winner([SeatScore(1, 101, 30), SeatScore(2, 101, 35), SeatScore(3, 80, 60)])
    assert outcome.winners == (2,)  # seat 3's better line does not count: not tied on total
    assert outcome.decided_by == "best_line"


def test_tie_on_total_and_best_line_is_a_shared_win_C12():
    outcome = winner(
        [SeatScore(1, 101, 35), SeatScore(2, 101, 35), SeatScore(3, 101, 30), SeatScore(4, 9, 9)]
    )
    assert outcome.winners == (1, 2)
    assert outcome.decided_by == "shared"


def test_solo_player_wins_alone_C12():
    assert winner([SeatScore(1, 50, 20)]).winners == (1,)
