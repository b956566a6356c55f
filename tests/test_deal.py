"""The deal: a setup and a seed in, a whole game out (RULES C-1..C-11, T-SP, P-CG, L-PP, D-1..D-10).

Property tests run over seeds, cities, player counts and module subsets; a few fixed
searches prove that the rare cases the properties speak of really occur.
"""

import random
import string
from collections import Counter
from itertools import combinations, pairwise

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from nsdevice.rules.cards import Kind, Special
from nsdevice.rules.cities import CityName, city
from nsdevice.rules.deal import (
    SEED_ALPHABET,
    Setup,
    deal_as_dict,
    deal_game,
    draw_seed,
    normalize_seed,
    slots,
    turn_ends,
)
from nsdevice.rules.modules import Module

SEED_CHARS = string.ascii_letters + string.digits
seeds = st.text(alphabet=SEED_CHARS, min_size=1, max_size=16)
cities = st.sampled_from(list(CityName))
player_counts = st.integers(min_value=1, max_value=4)
module_sets = st.sets(st.sampled_from(list(Module))).map(tuple)
setups = st.builds(Setup, city=cities, players=player_counts, modules=module_sets, seed=seeds)
PROPERTY = settings(max_examples=150, deadline=None)

EXPECTED_SLOTS = {  # C-8, D-7
    1: ("1",),
    2: ("1", "table-1", "2", "table-2"),
    3: ("1", "2", "3", "table"),
    4: ("1", "2", "3", "4"),
}
NO_EFFECT_TURNS = {"tokyo": 2, "london": 2, "paris": 0}  # T-4, L-3, P-4
SYMBOLS = {"square", "circle", "triangle", "pentagon"}
EFFECTS = {"switch", "joker_double_track", "extension", "double_station"}  # T-SP
BONUSES = {"switch_free_entry", "double_free_entry", "double_quarter", "double_stop"}  # P-CG
POWERS = {"repeat", "joker", "switch", "double"}  # L-PP
ALL_MODULES = tuple(Module)


def find_deal(predicate, city_name="tokyo", players=2, modules=(), tries=3000):
    """The first deal over seeds S0, S1, ... that satisfies `predicate`."""
    for n in range(tries):
        deal = deal_game(Setup(city_name, players, modules, f"S{n}"))
        if predicate(deal):
            return deal
    raise AssertionError("no seed in range gives the case under test")


def all_turns(deal):
    return [turn for round_ in deal.rounds for turn in round_.turns]


def switch_turns(deal):
    return [turn for turn in all_turns(deal) if turn.cards[0].switch]


# C-1 -------------------------------------------------------------------------------------


@given(setups)
@PROPERTY
def test_game_has_four_rounds_numbered_1_to_4_C1(setup):
    deal = deal_game(setup)
    assert [r.number for r in deal.rounds] == [1, 2, 3, 4]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_one_to_four_players_accepted_C1(players):
    assert deal_game(Setup("tokyo", players)).setup.players == players


@pytest.mark.parametrize("players", [0, 5, -1])
def test_zero_or_five_players_rejected_C1(players):
    with pytest.raises(ValueError, match="players"):
        Setup("tokyo", players)


# C-2 -------------------------------------------------------------------------------------


@given(setups)
@PROPERTY
def test_each_round_shuffles_all_eleven_cards_and_rounds_differ_C2(setup):
    deal = deal_game(setup)
    deck_ids = sorted(card.id for card in city(setup.city).deck)
    for round_ in deal.rounds:
        assert sorted(card.id for card in round_.order) == deck_ids
    orders = [round_.order for round_ in deal.rounds]
    assert len(set(orders)) == 4


def test_every_card_comes_up_in_every_position_over_seeds_C2():
    positions = {}
    for n in range(300):
        order = deal_game(Setup("london", 2, (), f"P{n}")).rounds[0].order
        for index, card in enumerate(order):
            positions.setdefault(card.id, set()).add(index)
    assert all(found == set(range(11)) for found in positions.values())


# C-4, C-5 --------------------------------------------------------------------------------


def expected_turn_count(order):
    """Independent of `turn_ends`: the round deals up to the 5th underground card; a dealt
    switch shares its turn with the next card (C-4, C-5)."""
    fifth = [i for i, c in enumerate(order) if c.kind is Kind.UNDERGROUND][4]
    switch = next(i for i, c in enumerate(order) if c.switch)
    return fifth + 1 - (1 if switch < fifth else 0)


@given(setups)
@PROPERTY
def test_round_ends_exactly_on_the_turn_of_the_fifth_underground_C4(setup):
    for round_ in deal_game(setup).rounds:
        turns = round_.turns
        dealt = [card for turn in turns for card in turn.cards]
        assert tuple(dealt) == round_.order[: len(dealt)]  # dealt from the top, in order
        assert sum(card.underground for card in dealt) == 5
        assert dealt[-1].underground  # nothing dealt after the 5th underground (C-5)
        assert 5 <= len(turns) <= 10
        assert len(turns) == expected_turn_count(round_.order)
        assert [t.number for t in turns] == list(range(1, len(turns) + 1))
        seen = [t.underground_seen for t in turns]
        assert seen == sorted(seen)  # monotone
        assert seen[-1] == 5 and all(s < 5 for s in seen[:-1])
        assert [t.last for t in turns] == [False] * (len(turns) - 1) + [True]
        running = 0
        for turn in turns:
            running += sum(card.underground for card in turn.cards)
            assert turn.underground_seen == running


@given(setups)
@PROPERTY
def test_switch_is_first_of_a_two_card_turn_with_the_next_card_C5(setup):
    for round_ in deal_game(setup).rounds:
        for turn in round_.turns:
            if turn.cards[0].switch:
                assert len(turn.cards) == 2
                assert not turn.cards[1].switch
            else:
                assert len(turn.cards) == 1
            assert not turn.card.switch  # players never draw "the switch" itself


def test_switch_whose_companion_is_the_fifth_underground_ends_the_round_C5():
    def case(deal):
        last = deal.rounds[0].turns[-1]
        return last.cards[0].switch

    round_ = find_deal(case).rounds[0]
    last = round_.turns[-1]
    assert last.last and last.underground_seen == 5
    assert last.cards[1].underground
    assert len(round_.turns) == expected_turn_count(round_.order)


def _order(underground_at, switch_at):
    deck = city("tokyo").deck
    underground = iter([c for c in deck if c.underground])
    street = iter([c for c in deck if not c.underground and not c.switch])
    switch = next(c for c in deck if c.switch)
    return [
        next(underground) if i in underground_at else switch if i == switch_at else next(street)
        for i in range(11)
    ]


def test_turn_structure_over_every_arrangement_of_card_kinds_C4_C5():
    """All 462 × 6 ways the 5 underground cards and the switch can lie in a shuffle."""
    counts = Counter()
    for underground_at in combinations(range(11), 5):
        for switch_at in sorted(set(range(11)) - set(underground_at)):
            order = _order(set(underground_at), switch_at)
            ends = turn_ends(order)
            assert ends[-1] == max(underground_at) + 1  # stops on the 5th underground
            starts = [0, *ends[:-1]]
            for start, end in zip(starts, ends, strict=True):
                assert end - start == (2 if order[start].switch else 1)
            assert len(ends) == expected_turn_count(order)
            counts[len(ends)] += 1
    assert set(counts) == set(range(5, 11))  # C-4: 5 to 10 turns, all of them possible
    assert sum(counts.values()) == 462 * 6


def test_ten_turn_round_switch_and_fifth_underground_last_C4_C5():
    # street ×5, underground ×4, then switch + 5th underground: the longest round
    order = _order({5, 6, 7, 8, 10}, 9)
    assert turn_ends(order) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 11]


def test_five_turn_round_all_underground_first_C4():
    assert turn_ends(_order({0, 1, 2, 3, 4}, 5)) == [1, 2, 3, 4, 5]


# T-4, L-3, P-4, D-3 ----------------------------------------------------------------------


@given(setups)
@PROPERTY
def test_switch_effect_only_from_turn_3_in_tokyo_and_london_always_in_paris_T4_L3_D3(setup):
    limit = NO_EFFECT_TURNS[setup.city.value]
    for turn in all_turns(deal_game(setup)):
        if turn.cards[0].switch:
            assert turn.switch_effect is (turn.number > limit)
        else:
            assert turn.switch_effect is None


@pytest.mark.parametrize("name", ["tokyo", "london"])
def test_switch_on_turn_1_or_2_has_no_effect_but_on_turn_3_it_does_T4_L3(name):
    early = find_deal(lambda d: any(t.number <= 2 for t in switch_turns(d)), name)
    assert all(t.switch_effect is False for t in switch_turns(early) if t.number <= 2)
    late = find_deal(lambda d: any(t.number == 3 for t in switch_turns(d)), name)
    assert all(t.switch_effect is True for t in switch_turns(late) if t.number == 3)


def test_paris_switch_on_turn_1_has_effect_P4():
    deal = find_deal(lambda d: any(t.number == 1 for t in switch_turns(d)), "paris")
    assert all(t.switch_effect is True for t in switch_turns(deal))


# C-8, C-9, C-10, D-7, D-8 ----------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_pencil_slots_per_player_count_C8_D7(players):
    assert slots(players) == EXPECTED_SLOTS[players]


@given(setups)
@PROPERTY
def test_pencils_move_one_slot_clockwise_and_every_seat_uses_every_colour_once_C8(setup):
    deal = deal_game(setup)
    colours = set(city(setup.city).colours)
    table = EXPECTED_SLOTS[setup.players]
    for round_ in deal.rounds:
        assert tuple(slot for slot, _ in round_.pencils) == table
    if setup.solo:
        return
    assert deal.solo_order is None
    for round_ in deal.rounds:
        assert sorted(colour for _, colour in round_.pencils) == sorted(colours)
    for before, after in pairwise(deal.rounds):
        for index, slot in enumerate(table):
            left = table[(index + 1) % len(table)]
            assert after.pencil(left) == before.pencil(slot)
    for slot in table:
        assert {round_.pencil(slot) for round_ in deal.rounds} == colours


@given(st.builds(Setup, city=cities, players=st.just(1), modules=module_sets, seed=seeds))
@settings(max_examples=50, deadline=None)
def test_solo_uses_the_four_colours_one_per_round_in_a_drawn_order_C8(setup):
    deal = deal_game(setup)
    assert sorted(deal.solo_order) == sorted(city(setup.city).colours)
    assert [r.pencils for r in deal.rounds] == [(("1", c),) for c in deal.solo_order]


def test_round_one_pencils_are_drawn_from_the_seed_D8():
    firsts = {deal_game(Setup("paris", 4, (), f"K{n}")).rounds[0].pencils for n in range(40)}
    assert len(firsts) > 1
    orders = {deal_game(Setup("paris", 1, (), f"K{n}")).solo_order for n in range(40)}
    assert len(orders) > 1


@given(setups)
@PROPERTY
def test_controller_is_seat_1_then_moves_left_each_round_C10(setup):
    controllers = [r.controller for r in deal_game(setup).rounds]
    assert controllers[0] == 1
    for before, after in pairwise(controllers):
        assert after == before % setup.players + 1


@pytest.mark.parametrize(
    ("players", "controllers"),
    [(1, [1, 1, 1, 1]), (2, [1, 2, 1, 2]), (3, [1, 2, 3, 1]), (4, [1, 2, 3, 4])],
)
def test_controllers_per_player_count_C10(players, controllers):
    assert [r.controller for r in deal_game(Setup("tokyo", players)).rounds] == controllers


# C-11, X-5 -------------------------------------------------------------------------------


@given(setups)
@PROPERTY
def test_objectives_are_two_distinct_of_the_citys_own_five_C11_X5(setup):
    deal = deal_game(setup)
    if Module.OBJECTIVES not in setup.modules:
        assert deal.objectives == ()
        return
    assert len(deal.objectives) == 2
    assert len(set(deal.objectives)) == 2
    assert set(deal.objectives) <= set(city(setup.city).objectives)


@pytest.mark.parametrize("name", list(CityName))
def test_objectives_draw_all_five_over_seeds_and_never_another_citys_X5(name):
    own = set(city(name).objectives)
    others = {o for other in CityName if other != name for o in city(other).objectives} - own
    drawn = set()
    for n in range(60):
        drawn |= set(deal_game(Setup(name, 3, ("objectives",), f"O{n}")).objectives)
    assert drawn == own
    assert not drawn & others


# T-SP, D-6, D-10, X-1 --------------------------------------------------------------------


@given(setups)
@PROPERTY
def test_special_stations_use_each_symbol_and_effect_once_over_four_rounds_TSP1_TSP2(setup):
    pairings = [r.pairing for r in deal_game(setup).rounds]
    if Module.SPECIAL_STATIONS not in setup.modules:
        assert pairings == [None] * 4
        return
    assert {p.symbol.value for p in pairings} == SYMBOLS
    assert {p.effect for p in pairings} == EFFECTS


@given(setups)
@PROPERTY
def test_paired_effect_exactly_when_the_turns_symbol_card_shows_the_symbol_TSP3_D6_D10(setup):
    for round_ in deal_game(setup).rounds:
        pairing = round_.pairing
        for turn in round_.turns:
            shows = pairing is not None and turn.card.symbol is pairing.symbol
            if not shows:
                assert turn.paired_effect is None
                assert turn.paired_effect_active is None
                continue
            assert turn.card.special is None  # never on a joker or free entry
            assert turn.paired_effect == pairing.effect
            inactive = pairing.effect == "switch" and turn.number <= 2
            assert turn.paired_effect_active is (not inactive)


def test_paired_effect_on_a_switch_turn_follows_the_companion_card_TSP3():
    def case(deal):
        return any(t.paired_effect and t.cards[0].switch for r in deal.rounds for t in r.turns)

    deal = find_deal(case, modules=("special_stations",))
    for round_ in deal.rounds:
        for turn in round_.turns:
            if turn.cards[0].switch and turn.paired_effect:
                assert turn.cards[1].symbol is round_.pairing.symbol


@pytest.mark.parametrize("name", list(CityName))
def test_paired_switch_inactive_on_turns_1_2_active_later_D10_X1(name):
    def paired_switch_turns(deal):
        return [t for t in all_turns(deal) if t.paired_effect == "switch"]

    early = find_deal(
        lambda d: any(t.number <= 2 for t in paired_switch_turns(d)), name, 2, ("special_stations",)
    )
    assert all(t.paired_effect_active is False for t in paired_switch_turns(early) if t.number <= 2)
    late = find_deal(
        lambda d: any(t.number >= 3 for t in paired_switch_turns(d)), name, 2, ("special_stations",)
    )
    assert all(t.paired_effect_active is True for t in paired_switch_turns(late) if t.number >= 3)


def test_jokers_and_free_entry_never_trigger_the_pairing_TSP3_D6():
    for name in CityName:
        for n in range(100):
            deal = deal_game(Setup(name, 2, ("special_stations",), f"J{n}"))
            for turn in all_turns(deal):
                if turn.card.special in (Special.JOKER, Special.FREE_ENTRY):
                    assert turn.paired_effect is None


# P-CG, L-PP, X-1..X-3 --------------------------------------------------------------------


@given(setups)
@PROPERTY
def test_city_gates_give_each_corner_a_distinct_bonus_for_the_game_PCG1(setup):
    gates = deal_game(setup).city_gates
    if Module.CITY_GATES not in setup.modules:
        assert gates is None
        return
    assert sorted(corner for corner, _ in gates) == ["ne", "nw", "se", "sw"]
    assert {bonus for _, bonus in gates} == BONUSES


@given(setups)
@PROPERTY
def test_every_pencil_gets_a_distinct_power_even_unused_ones_LPP(setup):
    powers = deal_game(setup).pencil_powers
    if Module.PENCIL_POWERS not in setup.modules:
        assert powers is None
        return
    assert sorted(colour for colour, _ in powers) == sorted(city(setup.city).colours)
    assert {power for _, power in powers} == POWERS


@pytest.mark.parametrize("name", list(CityName))
@pytest.mark.parametrize("players", [1, 2])
def test_unused_pencils_get_powers_too_LPP(name, players):
    for n in range(20):
        deal = deal_game(Setup(name, players, ("pencil_powers",), f"W{n}"))
        powers = dict(deal.pencil_powers)
        assert len(deal.pencil_powers) == 4
        assert set(powers) == set(city(name).colours)  # all 4, in hand or on the table
        assert set(powers.values()) == POWERS


@pytest.mark.parametrize("name", list(CityName))
@pytest.mark.parametrize("module", ["special_stations", "city_gates", "pencil_powers"])
def test_each_card_module_works_in_each_city_X1_X2_X3(name, module):
    deal = deal_game(Setup(name, 2, (module,), "MIX"))
    drawn = {
        "special_stations": all(r.pairing is not None for r in deal.rounds),
        "city_gates": deal.city_gates is not None and len(deal.city_gates) == 4,
        "pencil_powers": deal.pencil_powers is not None
        and {c for c, _ in deal.pencil_powers} == set(city(name).colours),
    }
    assert drawn[module]
    assert [m for m, present in drawn.items() if present] == [module]


def test_module_draws_vary_with_the_seed_TSP1_PCG1_LPP():
    deals = [deal_game(Setup("tokyo", 2, ALL_MODULES, f"V{n}")) for n in range(30)]
    assert len({d.rounds[0].pairing for d in deals}) > 1
    assert len({d.city_gates for d in deals}) > 1
    assert len({d.pencil_powers for d in deals}) > 1
    assert len({d.objectives for d in deals}) > 1


# D-1, D-2 --------------------------------------------------------------------------------


@given(setups)
@PROPERTY
def test_same_setup_gives_the_identical_deal_D1(setup):
    assert deal_game(setup) == deal_game(setup)
    assert deal_as_dict(deal_game(setup)) == deal_as_dict(deal_game(setup))


@given(seeds, cities, player_counts, module_sets, player_counts, module_sets)
@PROPERTY
def test_same_seed_same_card_orders_whatever_the_modules_and_players_D1(
    seed, name, players_a, modules_a, players_b, modules_b
):
    a = deal_game(Setup(name, players_a, modules_a, seed))
    b = deal_game(Setup(name, players_b, modules_b, seed))
    assert [r.order for r in a.rounds] == [r.order for r in b.rounds]
    assert [[t.cards for t in r.turns] for r in a.rounds] == [
        [t.cards for t in r.turns] for r in b.rounds
    ]


@given(seeds, seeds, cities)
@PROPERTY
def test_different_seeds_give_different_deals_D1(seed_a, seed_b, name):
    assume(seed_a.upper() != seed_b.upper())
    a = deal_game(Setup(name, 2, (), seed_a))
    b = deal_game(Setup(name, 2, (), seed_b))
    assert [r.order for r in a.rounds] != [r.order for r in b.rounds]


@given(seeds, cities)
@settings(max_examples=50, deadline=None)
def test_seed_codes_are_case_insensitive_D2(seed, name):
    assert deal_game(Setup(name, 3, (), seed.lower())) == deal_game(
        Setup(name, 3, (), seed.upper())
    )


@given(seeds)
@settings(max_examples=100, deadline=None)
def test_valid_seed_codes_normalize_to_upper_case_D2(seed):
    assert normalize_seed(seed) == seed.upper()
    assert normalize_seed(f" {seed}\n") == seed.upper()


@pytest.mark.parametrize(
    "code",
    ["", "   ", "A" * 17, "ab-cd", "a b", "é", "١٢", "seed!", "Ａ"],
    ids=["empty", "blank", "17", "dash", "space", "accent", "arabic-digits", "bang", "fullwidth"],
)
def test_bad_seed_codes_are_rejected_D2(code):
    with pytest.raises(ValueError, match="seed code"):
        normalize_seed(code)
    with pytest.raises(ValueError):
        Setup("tokyo", 2, (), code)


@given(st.text(max_size=20))
@settings(max_examples=200, deadline=None)
def test_any_text_is_either_a_valid_code_or_rejected_D2(text):
    try:
        code = normalize_seed(text)
    except ValueError:
        stripped = text.strip()
        assert not (1 <= len(stripped) <= 16 and all(c in SEED_CHARS for c in stripped)), text
    else:
        assert code == text.strip().upper()
        assert 1 <= len(code) <= 16
        assert all(c in string.ascii_uppercase + string.digits for c in code)


def test_sixteen_characters_is_the_longest_code_D2():
    assert normalize_seed("a" * 16) == "A" * 16


def test_drawn_codes_are_six_readable_characters_that_round_trip_D2():
    source = random.Random(7)
    for _ in range(200):
        code = draw_seed(source)
        assert len(code) == 6
        assert normalize_seed(code) == code
        assert not set(code) & set("01IO")  # nothing to misread aloud
    assert set(SEED_ALPHABET) <= set(string.ascii_uppercase + string.digits)
    assert draw_seed(random.Random(3)) == draw_seed(random.Random(3))


# Public shape ----------------------------------------------------------------------------


@given(setups)
@settings(max_examples=50, deadline=None)
def test_deal_as_dict_mirrors_the_deal_D1(setup):
    deal = deal_game(setup)
    data = deal_as_dict(deal)
    assert data["seed"] == setup.seed
    assert data["modules"] == [m.value for m in setup.modules]
    for round_, round_data in zip(deal.rounds, data["rounds"], strict=True):
        assert list(round_data["pencils"].items()) == list(round_.pencils)
        assert [len(t["cards"]) for t in round_data["turns"]] == [
            len(t.cards) for t in round_.turns
        ]
        assert [c["id"] for t in round_data["turns"] for c in t["cards"]] == [
            c.id for t in round_.turns for c in t.cards
        ]
