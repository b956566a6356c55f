"""The rules core's side of issue 11's solo pencil order (RULES C-8) and the day's deal
(D-1, D-2): a chosen row of pencils changes only the pencils, and a date and a city give
one deal code, the same on every box."""

import datetime
from dataclasses import replace
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nsdevice.rules.cities import CityName, city
from nsdevice.rules.deal import Setup, daily_seed, deal_game, normalize_seed
from nsdevice.rules.modules import Module

PROPERTY = settings(max_examples=60, deadline=None)
cities = st.sampled_from(list(CityName))
module_sets = st.sets(st.sampled_from(list(Module))).map(tuple)
seeds = st.text(alphabet="ABCDEFGHJKLMNPQRSTUVWXYZ23456789", min_size=1, max_size=16)
days = st.dates(min_value=datetime.date(2000, 1, 1), max_value=datetime.date(2199, 12, 31))


@PROPERTY
@given(cities, module_sets, seeds, st.randoms(use_true_random=False))
def test_a_chosen_pencil_order_changes_the_pencils_and_nothing_else_C8_D1(
    name, modules, seed, rng
):
    order = list(city(name).colours)
    rng.shuffle(order)
    drawn = deal_game(Setup(name, 1, modules, seed))
    chosen = deal_game(Setup(name, 1, modules, seed, pencil_order=tuple(order)))
    assert chosen.solo_order == tuple(order)
    assert [r.pencils for r in chosen.rounds] == [(("1", colour),) for colour in order]
    # the same cards, objectives, gates, powers and pairings as the drawn game (D-1)
    assert [r.order for r in chosen.rounds] == [r.order for r in drawn.rounds]
    assert [r.turns for r in chosen.rounds] == [r.turns for r in drawn.rounds]
    assert [r.pairing for r in chosen.rounds] == [r.pairing for r in drawn.rounds]
    assert (chosen.objectives, chosen.city_gates, chosen.pencil_powers) == (
        drawn.objectives,
        drawn.city_gates,
        drawn.pencil_powers,
    )
    # the same code and the same row deal the same game again
    assert deal_game(Setup(name, 1, modules, seed, pencil_order=tuple(order))) == chosen


def test_london_pencil_powers_stay_with_their_colours_in_any_order_C8_L_PP():
    london = city(CityName.LONDON)
    drawn = deal_game(Setup("london", 1, ("pencil_powers",), "POWERS"))
    for order in permutations(london.colours):
        chosen = deal_game(Setup("london", 1, ("pencil_powers",), "POWERS", pencil_order=order))
        assert chosen.pencil_powers == drawn.pencil_powers


@pytest.mark.parametrize(
    "order",
    [
        ("purple", "blue", "pink"),  # three of four
        ("purple", "blue", "pink", "pink"),  # one twice
        ("purple", "blue", "pink", "green"),  # another city's pencil
        (),
    ],
)
def test_a_pencil_order_must_be_the_citys_four_pencils_C8(order):
    with pytest.raises(ValueError, match="pencil order"):
        Setup("tokyo", 1, (), "A", pencil_order=order)


def test_only_a_solo_player_lays_their_own_pencils_C8():
    with pytest.raises(ValueError, match="solo"):
        Setup("tokyo", 2, (), "A", pencil_order=city(CityName.TOKYO).colours)


@PROPERTY
@given(days, cities)
def test_the_days_code_is_a_valid_code_and_the_same_every_time_D2(day, name):
    code = daily_seed(day, name)
    assert normalize_seed(code) == code
    assert daily_seed(datetime.date.fromordinal(day.toordinal()), CityName(name.value)) == code


def test_the_days_code_differs_from_day_to_day_and_city_to_city_D2():
    start = datetime.date(2026, 1, 1)
    year = [start + datetime.timedelta(days=n) for n in range(366)]
    for name in CityName:
        assert len({daily_seed(day, name) for day in year}) == len(year)
    day = datetime.date(2026, 11, 23)
    assert len({daily_seed(day, name) for name in CityName}) == len(CityName)


def test_the_days_code_is_fixed_across_versions_D2():
    # Boxes on different releases must agree on the day's deal: pin a few codes.
    assert daily_seed(datetime.date(2026, 11, 23), CityName.TOKYO) == "J7D83N"
    assert daily_seed(datetime.date(2026, 11, 24), CityName.TOKYO) == "3ZSHN6"
    assert daily_seed(datetime.date(2026, 11, 23), CityName.PARIS) == "HXB8MG"


def test_a_daily_setup_keeps_its_date_and_refuses_a_non_date_D2():
    setup = Setup("paris", 1, (), "A", daily="2026-11-23")
    assert setup.daily == "2026-11-23"
    assert deal_game(setup).rounds == deal_game(replace(setup, daily=None)).rounds
    for bad in ("23.11.2026", "2026-13-01", "yesterday", "2026-11-23T10:00"):
        with pytest.raises(ValueError):
            Setup("paris", 1, (), "A", daily=bad)
