"""The round simulator (RULES C-2, C-4, C-5, T-4, L-3, P-4), checked against exact odds.

The exact odds come from enumerating every arrangement of card kinds in a shuffle, with
the turn count worked out here independently of the rules code; the simulator must land
within a few standard deviations of them.
"""

import math
from fractions import Fraction
from itertools import combinations

import pytest

from nsdevice.rules.cities import CityName
from nsdevice.rules.simulation import simulate

NO_EFFECT_TURNS = {"tokyo": 2, "london": 2, "paris": 0}  # T-4, L-3, P-4
ROUNDS = 40_000


def exact_odds(no_effect_turns):
    """P(turns = n), P(switch revealed), P(switch revealed without effect) for one round.

    A uniform shuffle makes each of the C(11,5)·6 placements of the 5 underground cards
    and the switch among the 11 positions equally likely. The round deals through the 5th
    underground card (C-4); a switch dealt before it joins the next card's turn (C-5); it
    is the first switch, so its turn number is its position + 1.
    """
    turns = dict.fromkeys(range(5, 11), Fraction(0))
    revealed = no_effect = Fraction(0)
    placements = 0
    for underground in combinations(range(11), 5):
        fifth = underground[-1]
        for switch in set(range(11)) - set(underground):
            placements += 1
            dealt = switch < fifth
            turns[fifth + 1 - dealt] += 1
            revealed += dealt
            no_effect += dealt and switch + 1 <= no_effect_turns
    return (
        {n: count / placements for n, count in turns.items()},
        revealed / placements,
        no_effect / placements,
    )


def close(observed, rounds, probability):
    """Within 5 standard deviations (and exact when the odds are 0 or 1)."""
    expected = rounds * probability
    spread = math.sqrt(rounds * probability * (1 - probability))
    return abs(observed - expected) <= 5 * spread + 1e-9


@pytest.fixture(scope="module", params=list(CityName))
def run(request):
    return simulate(request.param, ROUNDS, "ODDS")


def test_turn_counts_add_up_to_the_rounds_and_stay_in_5_to_10_C4(run):
    assert sum(run.turns.values()) == ROUNDS == run.rounds
    assert set(run.turns) == set(range(5, 11))
    assert all(count > 0 for count in run.turns.values())  # every length does occur


def test_turn_distribution_matches_the_exact_odds_C2_C4_C5(run):
    odds, _, _ = exact_odds(NO_EFFECT_TURNS[run.city])
    for turns, probability in odds.items():
        assert close(run.turns[turns], ROUNDS, float(probability)), (turns, run.turns)


def test_switch_rates_match_the_exact_odds_T4_L3_P4(run):
    _, revealed, no_effect = exact_odds(NO_EFFECT_TURNS[run.city])
    assert close(run.switch_revealed, ROUNDS, float(revealed))
    assert close(run.switch_no_effect, ROUNDS, float(no_effect))


def test_exact_odds_sanity_C4():
    odds, revealed, no_effect = exact_odds(2)
    assert sum(odds.values()) == 1
    # 5 turns: the first 5 cards are underground (6 switch places), or the first 6 are the
    # 5 underground and the switch before the last of them (5 places): 11 of 2772.
    assert odds[5] == Fraction(11, 2772)
    # 10 turns: the last card is underground and the switch was dealt (210·6), or the
    # 5th underground is 10th and the switch is left undealt (126): half of all shuffles.
    assert odds[10] == Fraction(1, 2)
    assert no_effect == Fraction(2, 11)  # the switch lies in position 1 or 2
    assert revealed > no_effect


def test_switch_without_effect_never_exceeds_switch_revealed_T4_L3(run):
    assert 0 <= run.switch_no_effect <= run.switch_revealed <= run.rounds


def test_paris_switch_always_has_effect_P4():
    result = simulate("paris", 5_000, "P")
    assert result.switch_revealed > 0
    assert result.switch_no_effect == 0


def test_tokyo_and_london_switch_is_sometimes_without_effect_T4_L3():
    assert simulate("tokyo", 2_000, "T").switch_no_effect > 0
    assert simulate("london", 2_000, "T").switch_no_effect > 0


def test_simulation_is_deterministic_for_a_seed_D1():
    assert simulate("london", 3_000, "SAME") == simulate("london", 3_000, "SAME")
    assert simulate("london", 3_000, "SAME").turns != simulate("london", 3_000, "OTHER").turns


def test_simulation_names_its_city_and_round_count():
    result = simulate("Tokyo", 10, "A")
    assert (result.city, result.rounds) == ("tokyo", 10)
