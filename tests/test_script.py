"""Scripted keys: the `--keys` text format and its replay into the inbox."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nsdevice.inputs.events import Button, Gesture, Press, QueueInbox, Stop
from nsdevice.inputs.script import ScriptInput, parse_keys

NEXT, BACK, MENU = Button.NEXT, Button.BACK, Button.MENU


def test_plain_words_are_taps_and_prefixed_words_carry_their_gesture() -> None:
    assert parse_keys("next,next,back,hold:menu,tap:next,repeat:back") == [
        Press(NEXT),
        Press(NEXT),
        Press(BACK),
        Press(MENU, Gesture.HOLD),
        Press(NEXT, Gesture.TAP),
        Press(BACK, Gesture.REPEAT),
    ]


@pytest.mark.parametrize(
    "text",
    [
        " next , hold:menu ,back ",
        "next\nhold:menu\nback\n",
        "next hold : menu back",
        "NEXT,Hold:Menu,back,",
        "next,,hold:menu,\tback",
    ],
)
def test_whitespace_case_and_stray_commas_are_tolerated(text: str) -> None:
    assert parse_keys(text) == [Press(NEXT), Press(MENU, Gesture.HOLD), Press(BACK)]


@pytest.mark.parametrize("text", ["", "  ", ",", "\n"])
def test_empty_script_is_no_presses(text: str) -> None:
    assert parse_keys(text) == []


@pytest.mark.parametrize(
    ("text", "bad_word"),
    [("next,nxt,back", "nxt"), ("next,hold:", "hold:"), ("press:next", "press:next")],
)
def test_bad_word_is_a_one_line_error_that_names_it(text: str, bad_word: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_keys(text)
    message = str(caught.value)
    assert repr(bad_word) in message
    assert "\n" not in message


@given(st.lists(st.builds(Press, st.sampled_from(Button), st.sampled_from(Gesture))))
def test_printed_presses_parse_back_to_the_same_presses(presses: list[Press]) -> None:
    assert parse_keys(",".join(str(press) for press in presses)) == presses


def test_start_puts_every_press_in_order_then_stop() -> None:
    inbox = QueueInbox()
    presses = parse_keys("next,back,hold:menu")
    ScriptInput(presses, inbox).start()
    assert inbox.get(timeout=0) == [*presses, Stop("script ended")]


def test_empty_script_still_stops_so_the_run_ends() -> None:
    inbox = QueueInbox()
    script = ScriptInput([], inbox)
    script.start()
    script.close()
    assert inbox.get(timeout=0) == [Stop("script ended")]


def test_script_keeps_its_own_copy_of_the_presses() -> None:
    inbox = QueueInbox()
    presses = [Press(NEXT)]
    script = ScriptInput(presses, inbox)
    presses.append(Press(BACK))  # a later change by the caller must not leak into the replay
    script.start()
    assert inbox.get(timeout=0) == [Press(NEXT), Stop("script ended")]
