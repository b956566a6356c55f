"""Fast totals (issue 11): any total 0–300 from the game's end in at most 12 presses,
through the real `nsdevice run` with scripted keys and JSON screens out; the best line is
asked only of the seats tied on total (C-12)."""

from __future__ import annotations

import pytest

from nsdevice.inputs.events import Button, Gesture, Press
from nsdevice.session import Session, Settings
from nsdevice.session.digits import presses_for
from nsdevice.session.screens.fields import TOTAL_FIELD
from tests.test_run import run_box

CODE = "B"  # a typed deal code, so the script knows how many turns the game has (D-2)
TOTALS = (0, 7, 99, 156, 300)


def deal_code_keys() -> list[str]:
    """From power-on (the default setup's summary): a solo Tokyo game on deal code B."""
    keys = ["menu", "next", "next", *["menu"] * 4]  # setup list, players 2 → 3 → 4 → room → 1
    # past the solo pencil order and the four modules to the deal row: random → today →
    # a typed code
    keys += ["next"] * 6 + ["menu", "menu"]
    keys += ["next", "next", "menu", "menu"]  # "" → A → B, on to the blank end, done
    keys += ["back"] * 8 + ["menu"]  # up to "start": the summary
    return keys


def turns_to_game_end() -> int:
    session = Session(Settings(city="tokyo", players=1), seed_source=lambda: CODE)
    session.deal_new_game()
    presses = 0
    while session.screen != "game_end":
        session.next()
        presses += 1
    return presses


def score_keys(total: int) -> list[str]:
    """From the game's end: open the entry, then the total digit by digit."""
    return ["next", *(str(p) for p in presses_for(total, TOTAL_FIELD))]


@pytest.mark.parametrize("total", TOTALS)
def test_a_scripted_player_enters_a_total_in_twelve_presses_or_fewer_C13(tmp_path, total):
    keys = [*deal_code_keys(), *["next"] * turns_to_game_end()]
    scoring = score_keys(total)
    screens, result = run_box(tmp_path, ",".join(keys + scoring))
    assert result.returncode == 0, result.stderr
    assert len(scoring) <= 12, scoring
    # one frame per press: the game's end, then exactly len(scoring) frames to the result
    end = max(i for i, s in enumerate(screens) if s["screen"] == "game_end")
    after = screens[end + 1 :]
    assert [s["screen"] for s in after] == ["score_entry"] * (len(scoring) - 1) + ["result"]
    assert after[-1]["total"] == total
    assert screens[0]["screen"] == "summary" and screens[end - 1]["screen"] == "round_end"


def test_the_planned_presses_reach_every_total_from_minus_50_to_999():
    """Every value a total field takes: at most 12 presses for 0–300 (11 on the field and
    the NEXT that opens it), and the session lands exactly on it."""
    for total in range(-50, 1000):
        presses = presses_for(total, TOTAL_FIELD)
        if 0 <= total <= 300:
            assert len(presses) <= 11, total
        session = _solo_at_score_entry()
        for press in presses:
            session.press(press)
        assert session.screen == "result" and session.view().total == total, total


def _solo_at_score_entry() -> Session:
    session = Session(Settings(city="tokyo", players=1), seed_source=lambda: CODE)
    session.deal_new_game()
    while session.screen != "game_end":
        session.next()
    session.next()
    return session


def _table(totals: tuple[int, ...], players: int = 3) -> Session:
    """A Paris table at the score entry, `totals` entered for the first seats."""
    session = Session(Settings(city="paris", players=players), seed_source=lambda: CODE)
    session.deal_new_game()
    while session.screen != "game_end":
        session.next()
    session.next()
    for total in totals:
        for press in presses_for(total, TOTAL_FIELD):
            session.press(press)
    return session


def test_no_best_line_is_asked_when_nobody_is_tied_C12():
    session = _table((120, 95, 101))
    assert session.screen == "result"
    assert session.view().winners == (1,) and session.view().decided_by == "total"


def test_only_the_seats_tied_for_the_top_total_give_their_best_line_C12():
    session = _table((120, 95, 120))
    view = session.view()
    assert view.screen == "score_entry"
    assert (view.seat, view.field, view.step, view.steps) == (1, "best_line", 0, 2)
    for press in presses_for(30, TOTAL_FIELD):
        session.press(press)
    assert (session.view().seat, session.view().field) == (3, "best_line")
    for press in presses_for(41, TOTAL_FIELD):
        session.press(press)
    assert session.screen == "result"
    assert session.view().winners == (3,) and session.view().decided_by == "best_line"


def test_the_counter_counts_seats_and_never_jumps_as_ties_come_and_go_C12():
    """Paris with 4: every field at 0 ties them all, one total breaks the tie, the next
    makes one again; the counter still reads seat k of 4, then tied seat k of 2."""
    session = _table((), players=4)
    seen = []
    for total in (100, 100, 90, 80, 12, 15):
        view = session.view()
        seen.append((view.field, view.step + 1, view.steps))
        for press in presses_for(total, TOTAL_FIELD):
            session.press(press)
    assert seen == [
        ("total", 1, 4), ("total", 2, 4), ("total", 3, 4), ("total", 4, 4),
        ("best_line", 1, 2), ("best_line", 2, 2),
    ]  # fmt: skip
    assert session.screen == "result" and session.view().winners == (2,)


def test_back_on_an_empty_field_goes_to_the_one_before_and_from_the_first_to_the_game_end():
    session = _table((120,), players=2)
    assert (session.view().seat, session.view().cursor) == (2, 0)
    session.press(Press(Button.BACK))  # seat 2's total is empty: back to seat 1's
    assert (session.view().seat, session.view().value) == (1, 120)
    session.press(Press(Button.BACK))  # not empty: it turns the first digit, 1 → 0
    assert session.view().value == 20
    session.press(Press(Button.MENU, Gesture.HOLD))  # a held MENU on a total: the sheet
    assert session.screen == "score_sheet"


def test_a_held_back_returns_to_the_digit_before_to_correct_it():
    session = _solo_at_score_entry()
    for press in presses_for(156, TOTAL_FIELD)[:-1]:  # 156, the cursor on the units
        session.press(press)
    session.press(Press(Button.BACK, Gesture.HOLD))
    session.press(Press(Button.BACK, Gesture.HOLD))  # back on the hundreds
    session.press(Press(Button.NEXT))
    assert session.view().value == 256 and session.view().cursor == 0
    session.press(Press(Button.BACK, Gesture.HOLD))  # before the first digit: the game end
    assert session.screen == "game_end"


def test_a_negative_total_has_a_minus_sign_on_the_first_digit_S_T_END():
    session = _solo_at_score_entry()
    for press in presses_for(-24, TOTAL_FIELD):
        session.press(press)
    assert session.view().total == -24
    session = _solo_at_score_entry()
    hold = Press(Button.NEXT, Gesture.HOLD)
    for press in (hold, hold):  # 0 → 5 → "−"
        session.press(press)
    assert session.view().digits == ("−", "0", "0") and session.view().value == 0
    for press in (Press(Button.MENU), Press(Button.BACK)):  # tens 0 → 9: −90, held at −50
        session.press(press)
    assert session.view().value == -50 and session.view().digits == ("−", "5", "0")


def test_repeats_of_a_held_button_change_nothing_on_the_score_entry():
    session = _solo_at_score_entry()
    session.press(Press(Button.NEXT, Gesture.HOLD))
    for _ in range(20):
        session.press(Press(Button.NEXT, Gesture.REPEAT))
    assert session.view().value == 500


def test_the_terminal_enters_a_total_with_its_hold_keys():
    """In a terminal a hold is the upper-case key (N, B, M): 156 is `n m N m n N m`."""
    from tests.test_keyboard import read_all

    session = _solo_at_score_entry()
    for item in read_all("nmNmnNm"):
        if isinstance(item, Press):
            session.press(item)
    assert session.screen == "result" and session.view().total == 156


def test_a_score_sheet_saved_midway_restores_to_the_same_digits_and_refuses_bad_ones():
    import json

    session = _table((120,), players=2)
    session.press(Press(Button.MENU, Gesture.HOLD))  # seat 2's sheet
    for press in (Press(Button.NEXT), Press(Button.MENU), Press(Button.NEXT)):
        session.press(press)
    saved = json.loads(json.dumps(session.snapshot()))
    assert saved["version"] == 2 and saved["screen"] == "score_sheet"
    again = Session.restore(saved)
    assert again.view() == session.view() and again.snapshot() == session.snapshot()
    damaged = ({"digits": ["1", "x"]}, {"digit": 5}, {"sheet_step": 99}, {"digits": ["9", "9"]})
    for damage in damaged:  # not a digit, past the field, past the sheet, not the saved value
        with pytest.raises(ValueError):
            Session.restore({**saved, **damage})


def test_digits_typed_on_the_terminal_set_each_digit_at_once(tmp_path):
    """`nsdevice run --input keyboard`: at the game's end `n` then `156` takes the total
    (each digit key sets the digit under the cursor and moves on, as MENU does)."""
    import json
    import subprocess
    import sys

    from tests.test_run import ENV

    letters = {"menu": "m", "next": "n", "back": "b"}
    keys = "".join(letters[k] for k in deal_code_keys()) + "n" * turns_to_game_end()
    command = [sys.executable, "-m", "nsdevice", "run", "--input", "keyboard", "--display",
               "json", "--state-dir", str(tmp_path)]  # fmt: skip
    done = subprocess.run(command, input=keys + "n156", capture_output=True, text=True,
                          env=ENV, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    screens = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    end = max(i for i, s in enumerate(screens) if s["screen"] == "game_end")
    assert [s["screen"] for s in screens[end + 1 :]] == ["score_entry"] * 3 + ["result"]
    assert [s.get("digits") for s in screens[end + 1 : -1]] == [
        ["0", "0", "0"], ["1", "0", "0"], ["1", "5", "0"]
    ]  # fmt: skip
    assert screens[-1]["total"] == 156


def test_a_typed_minus_and_digits_enter_a_negative_total_S_T_END():
    session = _solo_at_score_entry()
    for character in "-24":
        assert session.type_digit(character)
    assert session.screen == "result" and session.view().total == -24
    assert not session.type_digit("7")  # nothing to type into on the result
