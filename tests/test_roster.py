"""The room's roster keeps its lists (session/roster.py, issue 35): every frame of the
caller and the phones' table after it ask for the tables, the seats and the ranking;
they are made once and the same tuples come back until a join, a sheet or a freed seat
changes them, and then they say so."""

from __future__ import annotations

from nsdevice.session.roster import Roster


def listed(roster: Roster) -> tuple[object, ...]:
    return roster.table_list(), roster.seat_list(), roster.ranking()


def test_the_rosters_lists_are_kept_until_a_join_a_sheet_or_a_freed_seat_changes_them_C12():
    roster = Roster()
    assert roster.join(1, 2, 1, "Ana", "claim-a") and roster.join(2, 1, 1, "Ben", "claim-b")
    first = listed(roster)
    assert all(now is before for now, before in zip(listed(roster), first, strict=True))
    assert [(s.table, s.seat, s.name, s.sheet) for s in roster.seat_list()] == [
        (1, 1, "Ana", False), (2, 1, "Ben", False)]  # fmt: skip

    assert roster.join(1, 2, 2, "Chiara", "claim-c")  # a join: a new seat, same tables
    assert [s.name for s in roster.seat_list()] == ["Ana", "Chiara", "Ben"]
    assert roster.table_list() == ((1, 2), (2, 1))

    assert roster.score(2, 1, 40, 9)  # a sheet: the seat says it is in, the ranking has it
    assert [s.sheet for s in roster.seat_list()] == [False, False, True]
    assert [(p.name, p.total) for p in roster.ranking()] == [("Ben", 40)]

    assert not roster.join(1, 2, 1, "Ana", "claim-a")  # the same join again changes nothing
    kept = listed(roster)
    assert all(now is before for now, before in zip(listed(roster), kept, strict=True))

    assert roster.free(2)  # the whole table goes: its seat, its sheet and the table
    assert roster.table_list() == ((1, 2),)
    assert [s.name for s in roster.seat_list()] == ["Ana", "Chiara"]
    assert roster.ranking() == ()


def test_the_saved_roster_is_made_once_and_handed_out_as_copies_D1():
    roster = Roster()
    assert roster.join(3, 2, 2, "Ana", "claim-a") and roster.join(3, 2, 1, "Ben")
    saved = roster.as_dict()
    assert saved == {"tables": [[3, 2]], "seats": [[3, 1, "Ben"], [3, 2, "Ana", "claim-a"]],
                     "scores": []}  # fmt: skip
    saved["seats"][0].append("changed by whoever read it")
    saved["tables"].clear()
    assert roster.as_dict()["seats"][0] == [3, 1, "Ben"] and roster.as_dict()["tables"]
    assert roster.score(3, 2, 50, 12) and roster.as_dict()["scores"] == [[3, 2, 50, 12]]
