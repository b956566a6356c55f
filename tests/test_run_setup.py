"""A one-table game chosen from the command line (issue 34, item 8): `nsdevice run --city
--players --modules --seed` deals that game, resumes it when the saved game is exactly that
setup (so the flags can stay in a service's options), and a bad value is one line on
stderr and exit status 2. Through the real `nsdevice run`, its JSON screens read back."""

from __future__ import annotations

from pathlib import Path

import pytest

from nsdevice.rules.cities import CityName
from nsdevice.rules.deal import Setup, deal_game
from nsdevice.rules.modules import parse_modules
from tests.test_run import run_box

GAME = ("--city", "london", "--players", "4", "--modules", "pencil_powers", "--seed", "RUN1")


def play(state: Path, keys: str, *flags: str) -> list[dict]:
    screens, result = run_box(state, keys, "--no-web", *flags)
    assert result.returncode == 0, result.stderr
    return screens


def first_cards(city: str, players: int, modules: str, seed: str, count: int) -> list[str]:
    """The ids of round 1's first `count` cards of that deal, as the rules core deals it."""
    deal = deal_game(Setup(CityName(city), players, parse_modules(modules), seed))
    return [turn.cards[-1].id for turn in deal.rounds[0].turns[:count]]


def turn_cards(screens: list[dict]) -> list[str]:
    return [s["cards"][-1]["id"] for s in screens if s["screen"] == "turn"]


def test_the_flags_deal_that_game_D1(tmp_path):
    screens = play(tmp_path, "next,next,next", *GAME)
    summary = screens[0]
    assert (summary["screen"], summary["city"], summary["players"]) == ("summary", "london", 4)
    assert summary["modules"] == ["pencil_powers"] and summary["room"] is None
    assert turn_cards(screens) == first_cards("london", 4, "pencil_powers", "RUN1", 2)


def test_the_same_flags_resume_the_saved_game_rather_than_deal_again(tmp_path):
    played = play(tmp_path, "next,next,next", *GAME)  # the summary, round 1, two cards
    again = play(tmp_path, "next", *GAME)  # as a service restarted with the same options
    assert again[0]["screen"] == "turn" and again[0]["cards"] == played[-1]["cards"]
    assert turn_cards(again) == first_cards("london", 4, "pencil_powers", "RUN1", 3)[1:]
    unseeded = [flag for flag in GAME if flag not in ("--seed", "RUN1")]  # any code of it
    assert turn_cards(play(tmp_path, "next", *unseeded)) == first_cards(
        "london", 4, "pencil_powers", "RUN1", 4
    )[2:]


@pytest.mark.parametrize(
    ("flag", "value", "changed"),
    [("--players", "3", {"players": 3}), ("--city", "tokyo", {"city": "tokyo"}),
     ("--modules", "", {"modules": []}), ("--seed", "RUN2", {})],
)  # fmt: skip
def test_another_setup_deals_anew(tmp_path, flag, value, changed):
    play(tmp_path, "next,next", *GAME)
    flags = list(GAME)
    flags[flags.index(flag) + 1] = value
    screens = play(tmp_path, "next,next", *flags)
    summary = screens[0]
    assert summary["screen"] == "summary"  # a new game's first screen, not the turn
    wanted = {"city": "london", "players": 4, "modules": ["pencil_powers"], **changed}
    assert {key: summary[key] for key in wanted} == wanted
    setup = dict(zip(flags[::2], flags[1::2], strict=True))
    assert turn_cards(screens) == first_cards(setup["--city"], int(setup["--players"]),
                                              setup["--modules"], setup["--seed"], 1)  # fmt: skip


def test_a_one_table_game_chosen_leaves_a_room_game(tmp_path):
    room = play(tmp_path, "next", "--room", "--city", "paris", "--seed", "ROOM1")
    assert room[0]["room"] is not None
    table = play(tmp_path, "next", "--city", "paris", "--players", "2")
    assert table[0]["screen"] == "summary" and table[0]["room"] is None
    assert table[0]["players"] == 2


def saved(state: Path) -> bytes:
    return b"".join(path.read_bytes() for path in sorted(state.iterdir()) if path.is_file())


@pytest.mark.parametrize(
    ("flags", "named"),
    [(("--players", "5"), "--players"), (("--players", "0"), "--players"),
     (("--players", "two"), "--players"), (("--city", "rome"), "--city"),
     (("--modules", "objectives,bogus"), "--modules"), (("--seed", "no spaces"), "--seed"),
     (("--room", "--players", "3"), "--players")],
)  # fmt: skip
def test_a_bad_value_is_one_line_and_exit_2(tmp_path, flags, named):
    play(tmp_path, "next", *GAME)
    before = saved(tmp_path)
    screens, result = run_box(tmp_path, "next", "--no-web", *flags)
    assert result.returncode == 2 and screens == []
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and named in lines[0] and lines[0].startswith("nsdevice run")
    assert saved(tmp_path) == before  # the saved game untouched
    assert play(tmp_path, "next", *GAME)[0]["screen"] == "round_start"  # and resumed as it was
