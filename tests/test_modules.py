"""Modules: parsing, canonical order and the one-card-module advice (RULES C-11, section 6)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nsdevice.rules.modules import Module, canonical, mixes_card_modules, parse_modules

CARD_MODULES = {"special_stations", "city_gates", "pencil_powers"}


def test_the_four_modules_C11_TSP_PCG_LPP():
    assert {m.value for m in Module} == {
        "objectives",
        "special_stations",
        "city_gates",
        "pencil_powers",
    }


def test_parse_modules_accepts_dashes_case_and_spaces_and_sorts_canonically_section6():
    assert parse_modules(" Pencil-Powers , objectives,,CITY_GATES ") == (
        Module.OBJECTIVES,
        Module.CITY_GATES,
        Module.PENCIL_POWERS,
    )


def test_parse_modules_empty_text_is_no_module_section6():
    assert parse_modules("") == ()
    assert parse_modules(" , ") == ()


def test_parse_modules_drops_duplicates_section6():
    assert parse_modules("objectives,objectives") == (Module.OBJECTIVES,)


def test_parse_modules_names_the_unknown_word_section6():
    with pytest.raises(ValueError, match="'double_decker'"):
        parse_modules("objectives,double_decker")


@given(st.sets(st.sampled_from(list(Module))))
@settings(max_examples=50, deadline=None)
def test_canonical_order_ignores_the_order_given_section6(chosen):
    forward = canonical(tuple(sorted(chosen)))
    backward = canonical(tuple(sorted(chosen, reverse=True)))
    assert forward == backward == tuple(m for m in Module if m in chosen)
    assert parse_modules(",".join(m.value for m in chosen)) == forward


@given(st.sets(st.sampled_from(list(Module))))
@settings(max_examples=50, deadline=None)
def test_mixing_warns_exactly_when_two_card_modules_are_chosen_X4(chosen):
    card_modules = {m.value for m in chosen} & CARD_MODULES
    assert mixes_card_modules(frozenset(chosen)) == (len(card_modules) >= 2)


def test_objectives_with_one_card_module_is_no_mix_X4_C11():
    assert not mixes_card_modules((Module.OBJECTIVES, Module.CITY_GATES))
    assert mixes_card_modules((Module.SPECIAL_STATIONS, Module.PENCIL_POWERS))
