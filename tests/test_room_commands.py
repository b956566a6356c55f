"""The room game's commands (issue 25): `nsdevice results` merges rooms' results files on
one code into one ranking (RULES C-12, D-1; DESIGN: bad input is one line on stderr and
exit 2); `nsdevice deal --room` shows the pencils every table size plays on a code (C-8)."""

import json

import pytest

from nsdevice.cli import main
from nsdevice.rules.deal import Setup
from nsdevice.rules.modules import Module
from nsdevice.rules.room import (
    Result,
    RoomKey,
    read_results,
    results_csv,
    results_json,
    table_rounds,
)

KEY = RoomKey("EVENT7", "paris", (Module.CITY_GATES,))
HALL = [
    Result("A", 1, 1, "Ana", 70, 12),
    Result("A", 1, 2, "=cmd()", 70, 15),  # wins table 1 on the best line
    Result("A", 2, 1, "Bo", 55, 9),
]
CAFE = [
    Result("A", 1, 1, "Chen", 90, 20),  # the same label and table number as the hall's
    Result("A", 1, 2, "Dee", 55, 9),
]


@pytest.fixture
def files(tmp_path):
    hall, cafe = tmp_path / "hall.csv", tmp_path / "cafe.json"
    hall.write_text(results_csv(KEY, HALL), encoding="utf-8", newline="")
    cafe.write_text(json.dumps(results_json(KEY, CAFE)), encoding="utf-8")
    return str(hall), str(cafe)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_results_prints_one_ranking_of_two_rooms_marking_table_winners_C12(capsys, files):
    code, out, err = run(capsys, "results", *files)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "Paris, code EVENT7, modules: city_gates"
    assert lines[1] == "5 player(s) at 3 table(s) in 2 room(s)"
    rows = [line.split() for line in lines[4:9]]
    # place, name, [winner mark], room, table, seat, total, best line
    assert rows == [
        ["1", "Chen", "*", "A-2", "1", "1", "90", "20"],
        ["2", "=cmd()", "*", "A", "1", "2", "70", "15"],
        ["3", "Ana", "A", "1", "1", "70", "12"],
        ["4", "Bo", "*", "A", "2", "1", "55", "9"],
        ["4", "Dee", "A-2", "1", "2", "55", "9"],
    ]


def test_results_csv_is_the_merged_file_and_reads_back(capsys, files):
    code, out, _ = run(capsys, "results", *files, "--csv")
    assert code == 0
    key, results = read_results(out)
    assert key == KEY
    assert {(r.room, r.name) for r in results} == {("A", r.name) for r in HALL} | {
        ("A-2", r.name) for r in CAFE
    }
    assert ",'=cmd()," in out  # still no formula in a spreadsheet


def test_results_json_ranks_the_merged_rooms(capsys, files):
    code, out, _ = run(capsys, "results", *files, "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["code"], data["city"], data["modules"]) == ("EVENT7", "paris", ["city_gates"])
    assert [(p["place"], p["name"], p["table_winner"]) for p in data["ranking"]] == [
        (1, "Chen", True),
        (2, "=cmd()", True),
        (3, "Ana", False),
        (4, "Bo", True),
        (4, "Dee", False),
    ]


def refused(capsys, *argv):
    code, out, err = run(capsys, "results", *argv)
    assert code == 2 and out == ""
    assert err.startswith("nsdevice results") and err.count("\n") == 1
    return err


def test_results_refuses_bad_input_in_one_line_exit_2(capsys, files, tmp_path):
    hall, _ = files
    assert "cannot read" in refused(capsys, str(tmp_path / "missing.csv"))
    picture = tmp_path / "photo.csv"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff")
    assert "not a room results file (not text)" in refused(capsys, str(picture))
    letter = tmp_path / "letter.csv"
    letter.write_text("Dear all,\nthe scores are in.\n", encoding="utf-8")
    assert "letter.csv: not a room results file" in refused(capsys, str(letter))
    cut = tmp_path / "cut.csv"
    cut.write_text(results_csv(KEY, HALL)[:-12], encoding="utf-8")
    assert "cut.csv: line 4:" in refused(capsys, str(cut))
    assert "holds the same results" in refused(capsys, hall, hall)
    assert "--csv" in refused(capsys, hall, "--csv", "--json")
    assert "FILE" in refused(capsys)


def test_results_refuses_files_of_another_code_city_or_modules_D1(capsys, files, tmp_path):
    hall, _ = files
    for other in (
        RoomKey("EVENT8", "paris", (Module.CITY_GATES,)),
        RoomKey("EVENT7", "tokyo", (Module.CITY_GATES,)),
        RoomKey("EVENT7", "paris", ()),
    ):
        path = tmp_path / "other.csv"
        path.write_text(results_csv(other, CAFE), encoding="utf-8")
        err = refused(capsys, hall, str(path))
        assert "file 2 was played on" in err and "file 2 = " in err
        assert f"{path.parent.name}/{path.name}" in err  # a long path keeps its end


def test_results_refuses_a_file_too_large_to_be_a_rooms(capsys, files, monkeypatch):
    import nsdevice.cli

    hall, _ = files
    monkeypatch.setattr(nsdevice.cli, "RESULTS_FILE_LIMIT", 100)  # the hall's file is longer
    assert "over 100 bytes" in refused(capsys, hall)


# deal --room ------------------------------------------------------------------------------
def test_deal_room_json_gives_each_table_sizes_rows_of_the_code_C8_D1(capsys):
    code, out, _ = run(capsys, "deal", "--city", "london", "--players", "2", "--seed", "hall9",
                       "--modules", "objectives", "--json", "--room")  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert sorted(data["room"]) == ["1", "2", "3", "4"]
    setup = Setup("london", 4, ("objectives",), "HALL9")
    for size, rows in data["room"].items():
        rounds = table_rounds(setup, int(size))
        assert rows == [
            {"number": r.number, "controller": r.controller, "pencils": dict(r.pencils)}
            for r in rounds
        ]
    # the table of the deal's own size plays what the deal itself says
    assert [r["pencils"] for r in data["room"]["2"]] == [r["pencils"] for r in data["rounds"]]
    _, plain, _ = run(capsys, "deal", "--city", "london", "--players", "2", "--json")
    assert "room" not in json.loads(plain)  # the deal's JSON keeps its keys without --room


def test_deal_room_text_lists_every_table_size_and_round_C8(capsys):
    code, out, _ = run(capsys, "deal", "--city", "tokyo", "--players", "4", "--seed", "R", "--room")
    assert code == 0
    lines = out.split("\nroom: ", 1)[1].splitlines()[1:]
    assert len(lines) == 16
    three = table_rounds(Setup("tokyo", 4, (), "R"), 3)[1]
    pencils = ", ".join(f"{slot} {colour}" for slot, colour in three.pencils)
    assert f"  table of 3, round 2: controller seat 2; pencils {pencils}" in lines
