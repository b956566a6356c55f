"""A room game's rules core (issue 25): every table of a size on one pencil row, the same
cards for every table, the room's ranking (C-12) and its results files (rules/room.py)."""

import json
from dataclasses import replace
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nsdevice.rules.cities import CityName, city
from nsdevice.rules.deal import Setup, deal_game
from nsdevice.rules.modules import Module
from nsdevice.rules.room import (
    COLUMNS,
    MOST_TABLES,
    NAME_LENGTH,
    Result,
    RoomKey,
    merge,
    player_name,
    rank,
    read_results,
    results_csv,
    results_json,
    table_rounds,
)

SETUP = Setup(CityName.TOKYO, 4, (Module.OBJECTIVES,), "ROOM1")
KEY = RoomKey.of(SETUP)
codes = st.text(alphabet="ABCDEFGHJKLMNPQRSTUVWXYZ23456789", min_size=1, max_size=8)
PROPERTY = settings(max_examples=40, deadline=None)


def cards(rounds):
    return [[card for turn in r.turns for card in turn.cards] for r in rounds]


def seats_colours(rounds, size):
    """Colour each seat holds per round: {seat: [round 1's colour, ...]}."""
    return {seat: [r.pencil(str(seat)) for r in rounds] for seat in range(1, size + 1)}


# --- pencils and cards -------------------------------------------------------------------
@PROPERTY
@given(code=codes, size=st.integers(1, 4))
def test_tables_of_one_size_share_their_pencil_rows_D1_C8(code, size):
    setup = Setup(CityName.PARIS, 3, (), code)
    # "another box": a setup built afresh from the code alone, with another player count
    other_box = Setup(CityName.PARIS, 1, (), code.lower())
    first, second = table_rounds(setup, size), table_rounds(other_box, size)
    assert [r.pencils for r in first] == [r.pencils for r in second]
    assert first == second  # the same cards, pairings and controllers too


@PROPERTY
@given(code=codes)
def test_tables_of_every_size_see_the_same_cards_each_round_D1(code):
    setup = Setup(CityName.LONDON, 2, (Module.PENCIL_POWERS,), code)
    by_size = [table_rounds(setup, size) for size in range(1, 5)]
    assert all(cards(rounds) == cards(by_size[0]) for rounds in by_size)
    assert all([r.order for r in rounds] == [r.order for r in by_size[0]] for rounds in by_size)


def test_rows_are_the_deal_of_that_table_size_C8():
    for size in range(1, 5):
        assert table_rounds(SETUP, size) == deal_game(replace(SETUP, players=size)).rounds


def test_two_codes_give_other_cards_D1():
    other = Setup(CityName.TOKYO, 4, (Module.OBJECTIVES,), "ROOM2")
    assert cards(table_rounds(SETUP, 4)) != cards(table_rounds(other, 4))


@PROPERTY
@given(code=codes, size=st.integers(2, 4))
def test_every_seat_uses_every_colour_once_in_a_room_C8(code, size):
    rounds = table_rounds(Setup(CityName.TOKYO, 4, (), code), size)
    colours = sorted(city(CityName.TOKYO).colours)
    for seat, held in seats_colours(rounds, size).items():
        assert sorted(held) == colours, f"seat {seat} of a {size}-table"


@PROPERTY
@given(code=codes)
def test_three_player_table_spare_lies_after_seat_3_and_passes_on_C8_D7(code):
    rounds = table_rounds(Setup(CityName.TOKYO, 4, (), code), 3)
    for before, after in pairwise(rounds):
        assert [slot for slot, _ in before.pencils] == ["1", "2", "3", "table"]
        # the spare goes to seat 1; seat 3's pencil is laid down as the new spare
        assert after.pencil("1") == before.pencil("table")
        assert after.pencil("table") == before.pencil("3")
        assert after.pencil("2") == before.pencil("1")


@PROPERTY
@given(code=codes)
def test_two_player_table_two_spares_pass_on_C8(code):
    rounds = table_rounds(Setup(CityName.PARIS, 4, (), code), 2)
    for before, after in pairwise(rounds):
        assert [slot for slot, _ in before.pencils] == ["1", "table-1", "2", "table-2"]
        assert after.pencil("table-1") == before.pencil("1")  # laid down on seat 1's left
        assert after.pencil("2") == before.pencil("table-1")  # seat 2 takes it
        assert after.pencil("table-2") == before.pencil("2")
        assert after.pencil("1") == before.pencil("table-2")
    assert len({colour for _, colour in rounds[0].pencils}) == 4  # all four on the table


def test_solo_table_uses_the_drawn_solo_order_C8():
    own = Setup(CityName.TOKYO, 1, (), "ROOM1", pencil_order=city("tokyo").colours[::-1])
    rounds = table_rounds(own, 1)
    drawn = deal_game(Setup(CityName.TOKYO, 1, (), "ROOM1")).solo_order
    # a room's solo tables all follow the code's order, whatever row one box laid by hand
    assert [r.pencils for r in rounds] == [(("1", colour),) for colour in drawn]
    assert drawn != tuple(city("tokyo").colours[::-1])  # else the test could not tell


def test_controller_moves_left_at_each_table_size_C10():
    for size in range(1, 5):
        assert [r.controller for r in table_rounds(SETUP, size)] == [
            (n - 1) % size + 1 for n in range(1, 5)
        ]


def test_table_sizes_outside_1_to_4_are_refused_C1():
    for size in (0, 5):
        with pytest.raises(ValueError, match="1 to 4"):
            table_rounds(SETUP, size)


# --- ranking -------------------------------------------------------------------------------
def scored(table, seat, total, best_line, room="A", name=None):
    return Result(room, table, seat, name or f"P{table}{seat}", total, best_line)


def test_room_ranking_ties_broken_by_best_line_then_shared_C12():
    results = [
        scored(1, 1, 80, 10),
        scored(2, 1, 95, 12),  # 1st
        scored(1, 2, 80, 14),  # 2nd: the best line breaks the 80s' tie
        scored(2, 2, 80, 10),  # 3rd, shared with table 1 seat 1
        scored(3, 1, 70, 30),  # 5th
    ]
    placed = rank(results)
    assert [(p.place, p.result.table, p.result.seat) for p in placed] == [
        (1, 2, 1),
        (2, 1, 2),
        (3, 1, 1),
        (3, 2, 2),
        (5, 3, 1),
    ]


def test_still_tied_players_share_a_place_1_2_2_4_C12():
    placed = rank([scored(1, 1, 9, 1), scored(1, 2, 7, 2), scored(2, 1, 7, 2), scored(2, 2, 5, 9)])
    assert [p.place for p in placed] == [1, 2, 2, 4]


def test_table_winners_per_room_and_table_C12():
    placed = rank(
        [
            scored(1, 1, 60, 10),  # table 1: shares the win with seat 2
            scored(1, 2, 60, 10),
            scored(1, 3, 50, 20),
            scored(2, 1, 40, 12),  # table 2: seat 2 wins on the best line
            scored(2, 2, 40, 15),
            scored(1, 1, 10, 2, room="B"),  # room B's table 1 is another table: it wins
        ]
    )
    winners = {p.result.seat_in_room for p in placed if p.table_winner}
    assert winners == {("A", 1, 1), ("A", 1, 2), ("A", 2, 2), ("B", 1, 1)}


def test_a_tables_winner_is_named_once_every_seat_of_it_is_in_D14_C12():
    sizes = {("A", 2): 2}  # table 2 seats two players
    alone = [scored(2, 1, 60, 10), scored(5, 1, 30, 4)]  # table 5: sizes do not say
    assert [p.table_winner for p in rank(alone, sizes)] == [False, True]
    both = [*alone, scored(2, 2, 50, 9)]
    assert [p.table_winner for p in rank(both, sizes)] == [True, False, True]
    assert [p.table_winner for p in rank(alone)] == [True, True]  # merged files: unknown


def test_a_seat_scored_twice_is_refused():
    with pytest.raises(ValueError, match="table 3 seat 2 is scored twice"):
        rank([scored(3, 2, 5, 1), scored(3, 2, 6, 1)])


def test_names_are_stripped_and_bounded():
    assert player_name("  Ann  ") == "Ann"
    assert Result("A", 1, 1, " Bo ", 1, 1).name == "Bo"
    for bad in ("", "   ", "x" * (NAME_LENGTH + 1), "a\nb"):
        with pytest.raises(ValueError):
            player_name(bad)
    for table, seat in ((0, 1), (MOST_TABLES + 1, 1), (1, 0), (1, 5), (True, 1)):
        with pytest.raises(ValueError):
            Result("A", table, seat, "Ann", 1, 1)


# --- results files -------------------------------------------------------------------------
ROOM = [
    scored(1, 1, 88, 20, name="=SUM(A1:A9)"),
    scored(1, 2, 88, 20, name="Bea, \"the\" best"),
    scored(2, 1, 90, 11, name="'quoted"),
    scored(2, 2, 61, 30, name="-1"),
]


def test_results_csv_is_ranked_with_the_key_on_every_row():
    lines = results_csv(KEY, ROOM).splitlines()
    assert lines[0] == ",".join(COLUMNS)
    assert lines[1] == "ROOM1,tokyo,objectives,A,2,1,''quoted,1,90,11,yes"
    assert [line.split(",")[7] for line in lines[1:]][:2] == ["1", "2"]
    assert lines[4] == "ROOM1,tokyo,objectives,A,2,2,'-1,4,61,30,no"


def test_results_csv_round_trip_and_formula_names_neutralised():
    text = results_csv(KEY, ROOM)
    assert "\n=SUM" not in text and ",=SUM" not in text and ",'=SUM(A1:A9)," in text
    key, results = read_results(text)
    assert key == KEY
    assert set(results) == set(ROOM)  # names come back as typed, quote and all
    assert results_csv(key, results) == text


def test_results_json_round_trip():
    data = results_json(KEY, ROOM)
    assert data["modules"] == ["objectives"]
    assert [p["place"] for p in data["ranking"]] == [1, 2, 2, 4]
    key, results = read_results(json.dumps(data))
    assert key == KEY and set(results) == set(ROOM)


def test_modules_joined_by_plus_and_empty_for_none():
    two = RoomKey("x", "paris", (Module.CITY_GATES, Module.OBJECTIVES))
    assert results_csv(two, ROOM[:1]).splitlines()[1].startswith("X,paris,objectives+city_gates,")
    none = RoomKey("x", "paris", ())
    assert results_csv(none, ROOM[:1]).splitlines()[1].startswith("X,paris,,")
    assert read_results(results_csv(two, ROOM[:1]))[0] == two


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "not a room results file"),
        ("name,total\nAnn,5\n", "not a room results file"),
        ("\x89PNG\r\n\x1a\n", "not a room results file"),
        ("{\"code\": \"A\"}", "not a room results file"),
        ("[1, 2]", "not a room results file"),
        (",".join(COLUMNS) + "\r\n", "holds no results"),
    ],
)
def test_a_foreign_file_is_refused_in_one_line(text, says):
    with pytest.raises(ValueError, match=says) as refused:
        read_results(text)
    assert "\n" not in str(refused.value)


def damaged(change):
    lines = results_csv(KEY, ROOM).splitlines()
    lines[2] = change(lines[2])
    return "\n".join(lines)


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda line: line[: len(line) // 2], "line 3: .* fields"),  # cut short
        (lambda line: line.replace(",1,", ",0,", 1), "line 3: table must be"),
        (lambda line: line.replace("88", "8x8", 1), "line 3: '8x8' is not a whole number"),
        (lambda line: line.replace("tokyo", "osaka"), "line 3: 'osaka' is not a valid CityName"),
        (lambda line: line.replace("ROOM1", "ROOM2"), "line 3: code ROOM2.*began with code ROOM1"),
        (lambda line: line.replace("objectives", "magic"), "line 3: 'magic' is not a valid"),
    ],
)
def test_a_damaged_file_says_which_line_in_one_line(change, says):
    with pytest.raises(ValueError, match=says) as refused:
        read_results(damaged(change))
    assert "\n" not in str(refused.value)


def test_a_file_saved_by_a_spreadsheet_still_reads():
    text = "\ufeff" + results_csv(KEY, ROOM).replace("\r\n", "\n") + "\n,,,,,,,,,,\n"
    assert set(read_results(text)[1]) == set(ROOM)


def test_a_file_scoring_one_seat_twice_is_refused():
    lines = results_csv(KEY, ROOM).splitlines()
    with pytest.raises(ValueError, match="scored twice"):
        read_results("\n".join([*lines, lines[1]]))


# --- merging rooms -------------------------------------------------------------------------
OTHER_ROOM = [scored(1, 1, 89, 5, name="Cem"), scored(1, 2, 40, 9, name="Dana")]


def test_merging_two_rooms_on_one_code_gives_one_ranking_C12():
    first = read_results(results_csv(KEY, ROOM))
    second = read_results(results_csv(KEY, OTHER_ROOM))
    key, results = merge([first, second])
    assert key == KEY
    placed = rank(results)
    assert [(p.place, p.result.name) for p in placed] == [
        (1, "'quoted"),
        (2, "Cem"),
        (3, "=SUM(A1:A9)"),
        (3, "Bea, \"the\" best"),
        (5, "-1"),
        (6, "Dana"),
    ]


def test_tables_numbered_alike_in_two_rooms_stay_apart():
    key, results = merge([(KEY, ROOM), (KEY, OTHER_ROOM)])
    assert {r.room for r in results} == {"A", "A-2"}  # both rooms called themselves A
    placed = rank(results)
    # room 2's table 1 is its own table: Cem wins it though room A's table 1 scored less
    winners = {(p.result.room, p.result.table, p.result.name) for p in placed if p.table_winner}
    assert winners == {
        ("A", 1, "=SUM(A1:A9)"),
        ("A", 1, 'Bea, "the" best'),
        ("A", 2, "'quoted"),
        ("A-2", 1, "Cem"),
    }
    # and a merged file merges again with a third room without mixing any of them
    third = [scored(1, 1, 1, 1, room="A-2", name="Eve")]
    _, again = merge([(key, results), (KEY, third)])
    assert len({r.seat_in_room for r in again}) == len(again) == 7


def test_merging_files_of_other_deals_is_refused():
    for other in (
        RoomKey("ROOM2", "tokyo", (Module.OBJECTIVES,)),
        RoomKey("ROOM1", "paris", (Module.OBJECTIVES,)),
        RoomKey("ROOM1", "tokyo", ()),
    ):
        with pytest.raises(ValueError, match="file 2 was played on") as refused:
            merge([(KEY, ROOM), (other, OTHER_ROOM)])
        assert "\n" not in str(refused.value)


def test_the_same_file_twice_is_refused():
    with pytest.raises(ValueError, match="file 2 holds the same results"):
        merge([(KEY, ROOM), (KEY, list(reversed(ROOM)))])
