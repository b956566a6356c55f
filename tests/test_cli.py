"""`nsdevice deal`, `score` and `simulate` (RULES D-1, D-2, X-4, section 7; DESIGN: errors at
the edges are one line on stderr and exit 2)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from nsdevice.cli import main
from nsdevice.rules.deal import SEED_ALPHABET

DEAL_KEYS = {
    "city",
    "players",
    "modules",
    "seed",
    "objectives",
    "city_gates",
    "pencil_powers",
    "rounds",
}
ROUND_KEYS = {"number", "controller", "pencils", "pairing", "turns"}
TURN_KEYS = {"number", "cards", "underground_seen", "switch_effect", "paired_effect"}
CARD_KEYS = {"id", "kind", "symbol", "special"}
ALL_MODULES = "objectives,special_stations,city_gates,pencil_powers"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def deal_json(capsys, *argv):
    code, out, err = run(capsys, "deal", "--json", *argv)
    assert code == 0, err
    return json.loads(out), err


# deal --------------------------------------------------------------------------------------


@pytest.mark.parametrize("modules", ["", ALL_MODULES])
def test_deal_json_has_every_key_of_the_public_contract_D1(capsys, modules):
    data, _ = deal_json(capsys, "--city", "tokyo", "--players", "3", "--seed", "abc",
                        "--modules", modules)  # fmt: skip
    assert set(data) >= DEAL_KEYS
    assert (data["city"], data["players"], data["seed"]) == ("tokyo", 3, "ABC")
    assert len(data["rounds"]) == 4
    for number, round_ in enumerate(data["rounds"], start=1):
        assert set(round_) >= ROUND_KEYS
        assert round_["number"] == number
        assert set(round_["pencils"]) == {"1", "2", "3", "table"}
        assert 5 <= len(round_["turns"]) <= 10
        for turn in round_["turns"]:
            assert set(turn) >= TURN_KEYS
            for card in turn["cards"]:
                assert set(card) == CARD_KEYS
    if modules:
        assert data["modules"] == ALL_MODULES.split(",")
        assert len(data["objectives"]) == 2
        assert set(data["city_gates"]) == {"nw", "ne", "sw", "se"}
        assert all(isinstance(bonus, str) for bonus in data["city_gates"].values())
        assert set(data["pencil_powers"]) == {"purple", "blue", "pink", "brown"}
        assert all(isinstance(power, str) for power in data["pencil_powers"].values())
        assert all(set(r["pairing"]) == {"symbol", "effect"} for r in data["rounds"])
    else:
        assert data["modules"] == []
        assert data["objectives"] == []
        assert data["city_gates"] is None
        assert data["pencil_powers"] is None
        assert all(r["pairing"] is None for r in data["rounds"])


def test_deal_json_turn_values_follow_the_rules_C4_C5_T4(capsys):
    data, _ = deal_json(capsys, "--city", "london", "--players", "2", "--seed", "T4")
    for round_ in data["rounds"]:
        turns = round_["turns"]
        assert turns[-1]["underground_seen"] == 5
        for turn in turns:
            first = turn["cards"][0]
            if first["special"] == "switch":
                assert len(turn["cards"]) == 2
                assert turn["switch_effect"] is (turn["number"] > 2)
            else:
                assert turn["switch_effect"] is None


def test_same_deal_arguments_give_byte_identical_output_D1(capsys):
    argv = ("deal", "--city", "paris", "--players", "4", "--seed", "Table7", "--json",
            "--modules", "objectives,city_gates")  # fmt: skip
    first = run(capsys, *argv)
    second = run(capsys, *argv)
    assert first == second
    assert first[0] == 0


def test_deal_seed_is_case_insensitive_D2(capsys):
    lower, _ = deal_json(capsys, "--city", "tokyo", "--players", "2", "--seed", "table7")
    upper, _ = deal_json(capsys, "--city", "tokyo", "--players", "2", "--seed", "TABLE7")
    assert lower == upper


def test_deal_without_seed_draws_a_six_character_code_D2(capsys):
    data, _ = deal_json(capsys, "--city", "tokyo", "--players", "2")
    assert len(data["seed"]) == 6
    assert set(data["seed"]) <= set(SEED_ALPHABET)
    # the drawn code replays the same deal (D-2: two tables can share it)
    again, _ = deal_json(capsys, "--city", "tokyo", "--players", "2", "--seed", data["seed"])
    assert again == data


def test_deal_text_output_names_setup_seed_and_every_round_C3_C10(capsys):
    code, out, err = run(capsys, "deal", "--city", "tokyo", "--players", "3", "--seed", "ab12",
                         "--modules", "special_stations")  # fmt: skip
    assert code == 0 and err == ""
    assert out.startswith("Tokyo, 3 player(s), modules: special_stations\nseed: AB12\n")
    for number, seat in zip(range(1, 5), (1, 2, 3, 1), strict=True):
        assert f"round {number}: controller seat {seat}; pencils 1 " in out
    assert out.count("  pairing: ") == 4
    assert out.count("(underground 5/5)") == 4


def test_deal_text_marks_a_switch_without_effect_T4_D3(capsys):
    for n in range(200):
        data, _ = deal_json(capsys, "--city", "tokyo", "--players", "2", "--seed", f"S{n}")
        if any(t["switch_effect"] is False for r in data["rounds"] for t in r["turns"]):
            break
    else:
        raise AssertionError("no seed with an early switch")
    _, out, _ = run(capsys, "deal", "--city", "tokyo", "--players", "2", "--seed", f"S{n}")
    assert "street switch + " in out
    assert "[switch: no effect]" in out


def test_deal_warns_on_stderr_when_mixing_card_modules_X4(capsys):
    data, err = deal_json(capsys, "--city", "london", "--players", "2", "--seed", "X4",
                          "--modules", "special_stations,city_gates")  # fmt: skip
    assert data["modules"] == ["special_stations", "city_gates"]
    assert err.count("\n") == 1 and err.startswith("warning:")


@pytest.mark.parametrize("modules", ["", "objectives", "pencil_powers", "objectives,city_gates"])
def test_deal_does_not_warn_with_at_most_one_card_module_X4(capsys, modules):
    _, err = deal_json(capsys, "--city", "london", "--players", "2", "--seed", "X4",
                       "--modules", modules)  # fmt: skip
    assert err == ""


# score -------------------------------------------------------------------------------------


def test_score_tokyo_worked_example_json_S_T_END(capsys):
    code, out, err = run(capsys, "score", "--city", "tokyo", "--json",
                         "--line", "5x4", "--line", "5x5", "--line", "6x3", "--line", "4x3",
                         "--stamps", "20", "--ring-unconnected", "3",
                         "--interchanges", "4:1")  # fmt: skip
    assert (code, err) == (0, "")
    assert json.loads(out) == {"city": "tokyo", "lines": [20, 25, 18, 12], "total": 101}


def test_score_paris_worked_example_json_S_P_END(capsys):
    code, out, err = run(capsys, "score", "--city", "paris", "--json",
                         "--line", "7x5+5", "--line", "6x4+3", "--line", "5x5+2",
                         "--line", "6x5+0", "--overpasses-once", "3",
                         "--overpasses-twice", "2", "--interchanges", "2:4,3:1,4:1")  # fmt: skip
    assert (code, err) == (0, "")
    assert json.loads(out) == {"city": "paris", "lines": [45, 30, 29, 30], "total": 174}


def test_score_takes_a_paris_line_without_monuments_as_the_sheet_writes_it_S_P(capsys):
    code, out, err = run(capsys, "score", "--city", "paris", "--json", "--line", "7x5",
                         "--line", "7x5+0")  # fmt: skip
    assert (code, err) == (0, "")
    assert json.loads(out) == {"city": "paris", "lines": [35, 35], "total": 70}


@pytest.mark.parametrize("stamps", range(0, 61))
def test_score_takes_exactly_the_stamp_points_a_tokyo_sheet_holds_S_T_END(capsys, stamps):
    """Corner districts 10, the other four outer ones 5: every five from 0 to 60."""
    code, out, err = run(capsys, "score", "--city", "tokyo", "--json", "--stamps", str(stamps))
    if stamps % 5:
        assert code == 2 and "stamps come in 5 and 10" in err and out == ""
    else:
        assert (code, err) == (0, "") and json.loads(out)["total"] == stamps


def test_score_london_total_with_solo_modules_gives_adjusted_and_tier_C13_S_SOLO(capsys):
    code, out, err = run(capsys, "score", "--city", "london", "--total", "120",
                         "--solo-modules", "1", "--json")  # fmt: skip
    assert (code, err) == (0, "")
    assert json.loads(out) == {"city": "london", "total": 120, "solo_adjusted": 110, "tier": 3}


def test_score_text_output_S_T_END_S_SOLO(capsys):
    code, out, err = run(capsys, "score", "--city", "tokyo", "--line", "5x4", "--objectives",
                         "1", "--solo-modules", "0")  # fmt: skip
    assert (code, err) == (0, "")
    assert out == "lines: 20\ntotal: 30\nsolo, after the module penalty: 30 (tier 1 of 6)\n"


# simulate ----------------------------------------------------------------------------------


def test_simulate_json_keys_and_counts_C4(capsys):
    code, out, err = run(capsys, "simulate", "--city", "paris", "--rounds", "500",
                         "--seed", "sim", "--json")  # fmt: skip
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert set(data) == {"city", "rounds", "seed", "turns", "switch_revealed",
                         "switch_no_effect", "seconds", "rounds_per_second"}  # fmt: skip
    assert (data["city"], data["rounds"], data["seed"]) == ("paris", 500, "SIM")
    assert set(data["turns"]) == {str(n) for n in range(5, 11)}
    assert sum(data["turns"].values()) == 500
    assert data["switch_no_effect"] == 0  # P-4


def test_simulate_is_deterministic_for_a_seed_D1(capsys):
    def counts():
        _, out, _ = run(capsys, "simulate", "--city", "tokyo", "--rounds", "300", "--json")
        data = json.loads(out)
        return data["turns"], data["switch_revealed"], data["switch_no_effect"]

    assert counts() == counts()


def test_simulate_text_output(capsys):
    code, out, err = run(capsys, "simulate", "--city", "london", "--rounds", "200")
    assert (code, err) == (0, "")
    assert out.startswith("london: 200 rounds (seed SIMULATE)\n")
    assert "rounds per second" in out


# bad input ---------------------------------------------------------------------------------

TOKYO_SCORE = ("score", "--city", "tokyo")
PARIS_SCORE = ("score", "--city", "paris")
DEAL = ("deal", "--city", "tokyo", "--players", "2")
BAD = {  # case: (argv, a word the one error line must contain, so it fails for that reason)
    "no-command": ((), "command"),
    "unknown-command": (("shuffle",), "shuffle"),
    "deal-unknown-city": (("deal", "--city", "berlin", "--players", "2"), "berlin"),
    "deal-unknown-module": ((*DEAL, "--modules", "objectives,tunnels"), "tunnels"),
    "deal-players-0": (("deal", "--city", "tokyo", "--players", "0"), "--players"),
    "deal-players-5": (("deal", "--city", "tokyo", "--players", "5"), "--players"),
    "deal-players-x": (("deal", "--city", "tokyo", "--players", "x"), "--players"),
    "deal-seed-too-long": ((*DEAL, "--seed", "A" * 17), "seed code"),
    "deal-seed-symbol": ((*DEAL, "--seed", "ab-cd"), "seed code"),
    "deal-seed-empty": ((*DEAL, "--seed", ""), "seed code"),
    "deal-missing-city": (("deal", "--players", "2"), "--city"),
    "deal-missing-players": (("deal", "--city", "tokyo"), "--players"),
    "score-unknown-city": (("score", "--city", "berlin", "--total", "80"), "berlin"),
    "score-missing-city": (("score", "--total", "80"), "--city"),
    "score-line-no-x": ((*TOKYO_SCORE, "--line", "54"), "--line"),
    "score-line-half": ((*TOKYO_SCORE, "--line", "5x"), "--line"),
    "score-line-letters": ((*TOKYO_SCORE, "--line", "fivex4"), "--line"),
    "score-tokyo-line-monuments": ((*TOKYO_SCORE, "--line", "5x4+2"), "--line"),
    "score-tokyo-stamps-7": ((*TOKYO_SCORE, "--stamps", "7"), "stamps come in 5 and 10"),
    "score-tokyo-stamps-65": ((*TOKYO_SCORE, "--stamps", "65"), "stamps"),
    "score-paris-stamps": ((*PARIS_SCORE, "--stamps", "10"), "Paris sheets have no --stamps"),
    "score-paris-ring": ((*PARIS_SCORE, "--ring-unconnected", "1"), "--ring-unconnected"),
    "score-tokyo-overpasses": ((*TOKYO_SCORE, "--overpasses-once", "1"), "--overpasses-once"),
    "score-line-negative": ((*TOKYO_SCORE, "--line=-5x4"), "--line"),
    "score-line-14-districts": ((*TOKYO_SCORE, "--line", "14x4"), "districts"),
    "score-paris-9-monuments": ((*PARIS_SCORE, "--line", "7x5+9"), "monuments"),
    "score-negative-stamps": ((*TOKYO_SCORE, "--stamps", "-1"), "--stamps"),
    "score-negative-ring": ((*TOKYO_SCORE, "--ring-unconnected", "-1"), "--ring-unconnected"),
    "score-negative-objectives": ((*TOKYO_SCORE, "--objectives", "-1"), "--objectives"),
    "score-negative-overpasses": ((*PARIS_SCORE, "--overpasses-twice", "-2"), "--overpasses"),
    "score-negative-solo-modules": (
        ("score", "--city", "london", "--total", "9", "--solo-modules", "-1"),
        "--solo-modules",
    ),
    "score-solo-modules-5": (
        ("score", "--city", "london", "--total", "9", "--solo-modules", "5"),
        "modules",
    ),
    "score-ring-9": ((*TOKYO_SCORE, "--ring-unconnected", "9"), "ring"),
    "score-objectives-3": ((*TOKYO_SCORE, "--objectives", "3"), "objectives"),
    "score-overpasses-9": ((*PARIS_SCORE, "--overpasses-once", "9"), "overpasses"),
    "score-line-with-total": ((*TOKYO_SCORE, "--line", "5x4", "--total", "20"), "--total"),
    "score-stamps-with-total": ((*TOKYO_SCORE, "--stamps", "5", "--total", "20"), "--total"),
    "score-five-lines": ((*TOKYO_SCORE, *(["--line", "5x4"] * 5)), "at most 4"),
    "score-total-not-a-number": ((*TOKYO_SCORE, "--total", "lots"), "--total"),
    "score-interchanges-no-colon": ((*TOKYO_SCORE, "--interchanges", "4"), "--interchanges"),
    "score-interchanges-letters": ((*TOKYO_SCORE, "--interchanges", "a:b"), "--interchanges"),
    "score-interchanges-negative": ((*TOKYO_SCORE, "--interchanges", "4:-1"), "--interchanges"),
    "score-tokyo-2-line-interchange": ((*TOKYO_SCORE, "--interchanges", "2:1"), "--interchanges"),
    "score-paris-5-line-interchange": ((*PARIS_SCORE, "--interchanges", "5:1"), "--interchanges"),
    "score-london-parts": (("score", "--city", "london", "--line", "5x4"), "--total"),
    "simulate-unknown-city": (("simulate", "--city", "berlin"), "berlin"),
    "simulate-missing-city": (("simulate", "--rounds", "10"), "--city"),
    "simulate-rounds-0": (("simulate", "--city", "tokyo", "--rounds", "0"), "--rounds"),
    "simulate-rounds-negative": (("simulate", "--city", "tokyo", "--rounds", "-3"), "--rounds"),
    "simulate-rounds-x": (("simulate", "--city", "tokyo", "--rounds", "many"), "--rounds"),
    "simulate-bad-seed": (("simulate", "--city", "tokyo", "--seed", "no way"), "seed code"),
}


@pytest.mark.parametrize(("argv", "reason"), list(BAD.values()), ids=list(BAD))
def test_bad_input_is_one_line_on_stderr_nothing_on_stdout_exit_2(capsys, argv, reason):
    code, out, err = run(capsys, *argv)
    assert reason in err, err
    assert code == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("nsdevice"), err
    assert "Traceback" not in err


# the installed console script ----------------------------------------------------------------


def test_installed_console_script_prints_the_same_deal_as_main_D1(capsys):
    script = Path(sys.executable).parent / "nsdevice"
    argv = ["deal", "--city", "london", "--players", "3", "--seed", "Script1", "--json",
            "--modules", "objectives,pencil_powers"]  # fmt: skip
    done = subprocess.run([str(script), *argv], capture_output=True, text=True, timeout=30)
    code, out, err = run(capsys, *argv)
    assert (done.returncode, done.stdout, done.stderr) == (code, out, err) == (0, out, "")
    assert json.loads(done.stdout)["seed"] == "SCRIPT1"


@pytest.mark.parametrize(
    "argv",
    [
        ["deal", "--city", "x" * 5000],
        ["deal", "--city", "line\nbreak\x1b[2J" * 40],
        ["run", "--hardware", "a" * 300],  # a name longer than a file name may be
        ["run", "--state-dir", "/tmp/" + "b" * 300],
        ["hwtest", "--hardware", ""],
        ["deal", "--seed", "\udcff\udcfe" * 200],  # bytes that were not UTF-8 on the line
    ],
    ids=["long-city", "control-characters", "long-profile", "long-state-dir", "empty-profile",
         "undecodable-seed"],
)
def test_any_argument_gives_one_readable_line_and_exit_2(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and len(lines[0]) <= 300
    assert "…" in lines[0] or argv[0] == "hwtest"  # echoed arguments are cut, not poured out


def test_a_long_path_in_an_error_line_keeps_its_file_name(capsys, tmp_path):
    """An echoed argument over the limit loses its middle: the file's name stays in view,
    however deep the folder it sits in."""
    deep = tmp_path.joinpath(*["a-rather-long-folder-name"] * 6) / "hall-results.csv"
    deep.parent.mkdir(parents=True)
    deep.write_text("Dear all,\nthe scores are in.\n", encoding="utf-8")
    assert main(["results", str(deep)]) == 2
    line = capsys.readouterr().err.strip()
    assert "\n" not in line and "…" in line
    assert "/hall-results.csv" in line and str(deep) not in line
