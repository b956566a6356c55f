"""City data (RULES sections 3-5, C-6, C-8, C-9, C-11, S-SOLO, D-5).

Expected values are copied from docs/rules.md, not read back from the data files, so a
wrong edit of a data file fails here.
"""

from collections import Counter

import pytest

from nsdevice.rules.cards import Kind, Special
from nsdevice.rules.cities import CityName, city, module_cards

SYMBOLS = ["square", "circle", "triangle", "pentagon"]

# T-2, P-2, L-2: (kind, face) of every card, face = symbol or special.
DECKS = {
    "tokyo": ([*SYMBOLS, "joker", "switch"], [*SYMBOLS, "joker"]),
    "paris": ([*SYMBOLS, "free_entry", "switch"], [*SYMBOLS, "free_entry"]),
    "london": ([*SYMBOLS, "joker", "switch"], [*SYMBOLS, "joker"]),
}

COLOURS = {  # T-1, P-1, L-1
    "tokyo": {"purple", "blue", "pink", "brown"},
    "paris": {"orange", "green", "purple", "blue"},
    "london": {"purple", "blue", "pink", "green"},
}

TIER_TOPS = {  # S-SOLO: inclusive upper bounds of tiers 1-5
    "tokyo": (70, 85, 100, 115, 130),
    "paris": (100, 120, 140, 160, 180),
    "london": (90, 105, 120, 135, 150),
}


def face(card):
    return (card.symbol or card.special).value


@pytest.mark.parametrize("name", list(CityName))
def test_deck_has_6_street_and_5_underground_cards_T2_P2_L2(name):
    deck = city(name).deck
    assert len(deck) == 11
    assert sum(card.kind is Kind.STREET for card in deck) == 6
    assert sum(card.kind is Kind.UNDERGROUND for card in deck) == 5


@pytest.mark.parametrize("name", list(CityName))
def test_deck_card_by_card_C6_T2_P2_L2(name):
    deck = city(name).deck
    street, underground = DECKS[name]
    assert Counter(face(c) for c in deck if c.kind is Kind.STREET) == Counter(street)
    assert Counter(face(c) for c in deck if c.kind is Kind.UNDERGROUND) == Counter(underground)


@pytest.mark.parametrize("name", list(CityName))
def test_deck_has_exactly_one_switch_and_it_is_a_street_card_T2_P2_L2(name):
    switches = [card for card in city(name).deck if card.switch]
    assert len(switches) == 1
    assert switches[0].kind is Kind.STREET


@pytest.mark.parametrize("name", list(CityName))
def test_deck_card_ids_are_unique_C2(name):
    ids = [card.id for card in city(name).deck]
    assert len(set(ids)) == len(ids)


def test_paris_has_free_entry_and_no_joker_P2_P3():
    specials = [card.special for card in city("paris").deck if card.special]
    assert Special.JOKER not in specials
    assert specials.count(Special.FREE_ENTRY) == 2


def test_tokyo_joker_carries_the_double_track_T3_and_paris_free_entry_the_guided_tour_P3():
    assert city("tokyo").joker_extra == "double_track"
    assert city("paris").joker_extra == "guided_tour"
    assert city("london").joker_extra == ""


def test_unverified_decks_say_so_in_the_data_D5():
    assert city("tokyo").deck_unverified  # T-2: card by card unverified
    assert city("paris").deck_unverified  # P-2
    assert not city("london").deck_unverified  # L-2: verified


@pytest.mark.parametrize("name", list(CityName))
def test_each_city_has_its_four_pencil_colours_C8_T1_P1_L1(name):
    colours = city(name).colours
    assert len(colours) == 4
    assert set(colours) == COLOURS[name]


def test_tokyo_start_stations_and_their_unverified_flags_C9_T1():
    tokyo = city("tokyo")
    expected = {  # colour: (symbol, unverified)
        "brown": ("triangle", False),
        "blue": ("pentagon", False),
        "purple": ("square", True),
        "pink": ("circle", True),
    }
    for colour, (symbol, unverified) in expected.items():
        station = tokyo.start_station(colour)
        assert station is not None
        assert (station.symbol.value, station.unverified) == (symbol, unverified), colour
        assert tokyo.start_symbol(colour).value == symbol


def test_london_start_stations_all_verified_C9_L1():
    london = city("london")
    expected = {"green": "triangle", "pink": "circle", "purple": "square", "blue": "pentagon"}
    for colour, symbol in expected.items():
        station = london.start_station(colour)
        assert station.symbol.value == symbol
        assert not station.unverified


def test_paris_knows_only_orange_starts_on_a_pentagon_C9_P1():
    paris = city("paris")
    assert paris.start_symbol("orange").value == "pentagon"
    assert "caption" in paris.start_station("orange").source
    # P-1: the other colours are not known; the box must not invent them.
    for colour in ("green", "purple", "blue"):
        assert paris.start_symbol(colour) is None
        assert paris.start_station(colour) is None


@pytest.mark.parametrize("name", list(CityName))
def test_start_stations_only_name_the_citys_own_colours_C9(name):
    the_city = city(name)
    starts = the_city.start_stations
    assert {s.colour for s in starts} <= set(the_city.colours)
    assert len({s.symbol for s in starts}) == len(starts)  # no two pencils share a start


def test_switch_has_no_effect_on_turns_1_2_in_tokyo_and_london_only_T4_L3_P4():
    assert city("tokyo").no_effect_switch_turns == 2
    assert city("london").no_effect_switch_turns == 2
    assert city("paris").no_effect_switch_turns == 0


@pytest.mark.parametrize("name", list(CityName))
def test_each_city_has_five_shared_objectives_C11(name):
    objectives = city(name).objectives
    assert len(objectives) == 5
    assert len(set(objectives)) == 5


@pytest.mark.parametrize("name", list(CityName))
def test_solo_tier_bounds_match_the_rules_table_S_SOLO(name):
    assert tuple(city(name).tier_upper_bounds) == TIER_TOPS[name]


@pytest.mark.parametrize("name", list(CityName))
def test_tier_bands_include_both_ends_and_leave_no_score_out_S_SOLO_D4(name):
    from nsdevice.rules.scoring import solo_tier

    data = city(name)
    for score in range(-50, 301):  # every adjusted score lies in the band of its tier
        low, high = data.tier_band(solo_tier(data, score))
        assert (low is None or low <= score) and (high is None or score <= high), score
    for tier, top in enumerate(data.tier_upper_bounds, start=1):
        # D-4: a printed edge ("< 70", "71 < …") belongs to the lower band, not to neither
        assert solo_tier(data, top) == tier and solo_tier(data, top + 1) == tier + 1
        assert data.tier_band(tier)[1] == top and data.tier_band(tier + 1)[0] == top + 1
    assert data.tier_band(1)[0] is None and data.tier_band(6)[1] is None


def test_tokyo_tier_bands_read_as_the_rules_table_S_SOLO():
    bands = [city("tokyo").tier_band(tier) for tier in range(1, 7)]
    assert bands == [(None, 70), (71, 85), (86, 100), (101, 115), (116, 130), (131, None)]


def test_line_scoring_per_city_S_T_S_P():
    assert city("tokyo").line_scoring == "districts"
    assert city("paris").line_scoring == "quarters"
    assert city("london").line_scoring == ""


def test_special_stations_cards_T_SP_X1():
    cards = module_cards("special_stations")
    assert sorted(cards["symbols"]) == sorted(SYMBOLS)
    assert sorted(cards["effects"]) == sorted(
        ["switch", "joker_double_track", "extension", "double_station"]
    )


def test_city_gates_cards_P_CG_X3():
    cards = module_cards("city_gates")
    assert sorted(cards["corners"]) == ["ne", "nw", "se", "sw"]
    assert sorted(cards["bonuses"]) == sorted(
        ["switch_free_entry", "double_free_entry", "double_quarter", "double_stop"]
    )


def test_pencil_powers_cards_L_PP_X2():
    assert sorted(module_cards("pencil_powers")["powers"]) == sorted(
        ["repeat", "joker", "switch", "double"]
    )


def test_unknown_module_cards_raise_KeyError_section6():
    with pytest.raises(KeyError):
        module_cards("objectives")  # objectives belong to every city (C-11), not one


def test_city_names_are_case_insensitive_and_unknown_ones_rejected_section1():
    assert city("Tokyo") == city("tokyo")
    assert city("LONDON").name is CityName.LONDON
    with pytest.raises(ValueError):
        city("berlin")


def test_a_citys_file_is_read_once_whatever_its_name_is_given_as(monkeypatch) -> None:
    """Issue 35: the cache kept "tokyo" and CityName.TOKYO apart, and the box read Tokyo's
    file twice before its first frame."""
    import tomllib

    from nsdevice.rules import cities

    read, loads = [], tomllib.loads
    monkeypatch.setattr(tomllib, "loads", lambda text: read.append(1) or loads(text))
    cities._city.cache_clear()
    try:
        names = ("tokyo", cities.CityName.TOKYO, "Tokyo")
        assert len({id(cities.city(name)) for name in names}) == 1 and len(read) == 1
    finally:
        cities._city.cache_clear()
