"""Station cards (RULES section 1, C-5, C-6): what one card shows and how it reads out."""

import pytest

from nsdevice.rules.cards import Kind, Special, StationCard, Symbol


def test_card_kinds_are_underground_and_street_section1():
    assert {k.value for k in Kind} == {"underground", "street"}


def test_card_symbols_are_the_four_map_symbols_section1():
    assert {s.value for s in Symbol} == {"square", "circle", "triangle", "pentagon"}


def test_specials_are_joker_switch_and_free_entry_C5_C6_P3():
    assert {s.value for s in Special} == {"joker", "switch", "free_entry"}


@pytest.mark.parametrize(
    ("symbol", "special"),
    [(None, None), (Symbol.SQUARE, Special.JOKER)],
    ids=["neither", "both"],
)
def test_card_shows_a_symbol_or_a_special_never_both_nor_neither_section1(symbol, special):
    with pytest.raises(AssertionError):
        StationCard("bad", Kind.STREET, symbol=symbol, special=special)


def test_underground_card_counts_toward_round_end_C4():
    assert StationCard("u", Kind.UNDERGROUND, symbol=Symbol.CIRCLE).underground
    assert not StationCard("s", Kind.STREET, symbol=Symbol.CIRCLE).underground


def test_only_the_switch_special_is_a_switch_C5():
    assert StationCard("s", Kind.STREET, special=Special.SWITCH).switch
    assert not StationCard("j", Kind.STREET, special=Special.JOKER).switch
    assert not StationCard("f", Kind.UNDERGROUND, special=Special.FREE_ENTRY).switch
    assert not StationCard("q", Kind.STREET, symbol=Symbol.SQUARE).switch


def test_card_as_dict_is_the_public_card_shape_section1():
    assert StationCard("street-square", Kind.STREET, symbol=Symbol.SQUARE).as_dict() == {
        "id": "street-square",
        "kind": "street",
        "symbol": "square",
        "special": None,
    }
    assert StationCard(
        "metro-free-entry", Kind.UNDERGROUND, special=Special.FREE_ENTRY
    ).as_dict() == {
        "id": "metro-free-entry",
        "kind": "underground",
        "symbol": None,
        "special": "free_entry",
    }


def test_cards_are_immutable_D1():
    card = StationCard("street-square", Kind.STREET, symbol=Symbol.SQUARE)
    with pytest.raises(AttributeError):
        card.symbol = Symbol.CIRCLE  # type: ignore[misc]
