"""The score sheet's layout and the counts it refuses (RULES §7, T-5, P-5, C-11, C-13).

`nsdevice score` prints a refused count as one line on stderr, and the box's sheet draws
each item by its key: so the layout (keys, order, each count's most) and the words of
each refusal are what players see, and are pinned here, item by item.
"""

from __future__ import annotations

import pytest

from nsdevice.rules import scoring
from nsdevice.rules.cities import city
from nsdevice.rules.scoring import (
    Count,
    line_points,
    paris_line,
    paris_total,
    sheet_items,
    sheet_total,
    solo_adjusted,
    tokyo_line,
    tokyo_total,
)

TOKYO = city("tokyo")
PARIS = city("paris")
LONDON = city("london")


def layout(items: tuple[scoring.SheetItem, ...]) -> list[tuple[str, int, tuple[Count, ...]]]:
    return [(item.key, item.number, item.counts) for item in items]


def test_the_tokyo_sheet_is_four_lines_then_stamps_ring_interchanges_objectives_S_T_END_T5():
    line = (Count("districts", 13), Count("stations"))  # T-5: 13 districts
    assert layout(sheet_items(TOKYO, objectives=True)) == [
        ("line", 1, line),
        ("line", 2, line),
        ("line", 3, line),
        ("line", 4, line),
        ("stamps", 0, (Count("stamps", 60),)),  # 4 corner districts × 10 + 4 others × 5
        ("ring", 0, (Count("ring_unconnected", 8),)),  # 8 ring stations
        ("interchanges", 0, (Count("interchanges_3"), Count("interchanges_4"),
                             Count("interchanges_5"))),
        ("objectives", 0, (Count("objectives", 2),)),  # C-11: two objectives drawn
    ]  # fmt: skip


def test_the_paris_sheet_is_four_lines_then_overpasses_interchanges_objectives_S_P_END_P5():
    line = (Count("quarters", 13), Count("stops"), Count("monuments", 8))  # P-5
    assert layout(sheet_items(PARIS, objectives=True)) == [
        ("line", 1, line),
        ("line", 2, line),
        ("line", 3, line),
        ("line", 4, line),
        ("overpasses", 0, (Count("overpasses_once", 8), Count("overpasses_twice", 8))),
        ("interchanges", 0, (Count("interchanges_2"), Count("interchanges_3"),
                             Count("interchanges_4"))),
        ("objectives", 0, (Count("objectives", 2),)),
    ]  # fmt: skip


def test_without_the_objectives_module_the_sheet_has_no_objectives_row_C11():
    for town in (TOKYO, PARIS):
        assert [item.key for item in sheet_items(town, objectives=False)][-1] == "interchanges"
    assert sheet_items(LONDON, objectives=False) == sheet_items(LONDON, objectives=True) == ()


# Each refusal names its count, as `nsdevice score` prints it.
@pytest.mark.parametrize(
    ("score", "message"),
    [
        (lambda: tokyo_line(-1, 4), "districts cannot be negative (-1)"),
        (lambda: tokyo_line(14, 4), "districts cannot be more than 13 (14)"),
        (lambda: tokyo_line(5, -2), "stations cannot be negative (-2)"),
        (lambda: paris_line(-1, 5, 0), "quarters cannot be negative (-1)"),
        (lambda: paris_line(7, -1, 0), "stops cannot be negative (-1)"),
        (lambda: paris_line(7, 5, 9), "monuments cannot be more than 8 (9)"),
        (lambda: tokyo_total([-1]), "line score cannot be negative (-1)"),
        (lambda: tokyo_total([], stamps=61), "tourist stamps cannot be more than 60 (61)"),
        (lambda: tokyo_total([], ring_unconnected=-1),
         "unconnected ring stations cannot be negative (-1)"),
        (lambda: tokyo_total([], objectives=3), "objectives cannot be more than 2 (3)"),
        (lambda: tokyo_total([], interchanges={4: -1}),
         "4-line interchanges cannot be negative (-1)"),
        (lambda: paris_total([-3]), "line score cannot be negative (-3)"),
        (lambda: paris_total([], overpasses_once=-1),
         "overpasses crossed once cannot be negative (-1)"),
        (lambda: paris_total([], overpasses_twice=-1),
         "overpasses crossed twice cannot be negative (-1)"),
        (lambda: paris_total([], overpasses_once=5, overpasses_twice=4),
         "a map has only 8 overpasses"),
        (lambda: paris_total([], objectives=-1), "objectives cannot be negative (-1)"),
        (lambda: solo_adjusted(100, 5), "modules cannot be more than 4 (5)"),
        (lambda: line_points(LONDON, (5, 4)), "london has no line scoring: enter its totals"),
    ],
)  # fmt: skip
def test_each_refused_count_is_named_in_its_message_S_T_S_P_END_C13(score, message):
    with pytest.raises(ValueError) as refused:
        score()
    assert str(refused.value) == message


def test_sixty_stamps_are_the_most_a_tokyo_sheet_takes_S_T_END():
    assert tokyo_total([], stamps=60) == 60


def test_a_sheet_with_too_few_or_too_many_rows_is_refused():
    items = sheet_items(TOKYO, objectives=False)
    rows = [(5, 4)] * 4 + [(0,), (0,), (0, 0, 0)]
    assert sheet_total(TOKYO, items, rows) == 80  # 4 × (5 × 4)
    with pytest.raises(ValueError):
        sheet_total(TOKYO, items, rows[:-1])  # a row missing
    with pytest.raises(ValueError):
        sheet_total(TOKYO, items, [*rows, (1,)])  # one row too many
    with pytest.raises(ValueError, match=r"^line takes 2 counts$"):
        sheet_total(TOKYO, items, [(5, 4, 1), *rows[1:]])


def test_items_left_off_a_sheet_count_nothing_S_T_END_S_P_END():
    """A sheet of only the lines: no stamps, ring, overpasses or objectives are added
    (nor a ring penalty taken)."""
    tokyo_lines = sheet_items(TOKYO, objectives=True)[:4]
    assert sheet_total(TOKYO, tokyo_lines, [(5, 4), (5, 5), (6, 3), (4, 3)]) == 75  # 20+25+18+12
    paris_lines = sheet_items(PARIS, objectives=True)[:4]
    assert sheet_total(PARIS, paris_lines, [(7, 5, 5)] + [(0, 0, 0)] * 3) == 45  # 35 + 10
