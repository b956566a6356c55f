"""A setup the rules refuse says why in words a player can act on (C-1, C-8, D-2): the
command line prints them as its one line on stderr."""

import pytest

from nsdevice.rules.cities import city
from nsdevice.rules.deal import Setup


def test_a_table_cannot_lay_its_own_pencil_order_and_is_told_only_solo_can_C8():
    with pytest.raises(ValueError) as refused:
        Setup("tokyo", 2, (), "A", pencil_order=city("tokyo").colours)
    assert str(refused.value) == "only a solo player lays the pencils in their own order"


def test_a_date_not_written_year_month_day_is_refused_by_name_D2():
    """2026-11-23 written without dashes is a date Python reads, but not as the box writes
    it, so two boxes would not agree on which day's deal it is."""
    with pytest.raises(ValueError) as refused:
        Setup("paris", 1, (), "A", daily="20261123")
    assert str(refused.value) == "daily '20261123' is not a written date"


def test_a_pencil_order_of_other_pencils_names_the_city_C8():
    with pytest.raises(ValueError) as refused:
        Setup("london", 1, (), "A", pencil_order=("purple", "blue", "pink", "brown"))
    assert str(refused.value) == (
        "pencil order ('purple', 'blue', 'pink', 'brown') is not london's four pencils"
    )
