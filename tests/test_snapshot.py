"""The snapshot (`nsdevice.session.snapshot`) refuses data that does not fit the deal with
ValueError, never `assert`: under `python -O` too, where an assert is gone (DESIGN.md:
saved data is checked with explicit errors)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from nsdevice.inputs.events import Button, Press
from nsdevice.session import ScreenName, Session, Settings

NEXT = Press(Button.NEXT)


def at_round_end() -> dict[str, object]:
    """A snapshot on round 1's end: every card of the round revealed (C-4)."""
    session = Session(Settings(city="tokyo", players=2), seed_source=lambda: "SNAP")
    session.deal_new_game()
    while session.screen is not ScreenName.ROUND_END:
        session.press(NEXT)
    return session.snapshot()


def test_a_round_end_after_every_card_restores_D1():
    saved = at_round_end()
    assert Session.restore(json.loads(json.dumps(saved))).screen is ScreenName.ROUND_END


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"revealed": 2}, "round_end after 2 of the round's"),  # the round is not over
        ({"screen": "turn", "revealed": 0}, "a turn before any card"),
        ({"round": 5}, "round 5"),
        ({"screen": "menu", "under": "setup"}, "menu over setup"),
        ({"screen": "shutdown"}, "on shutdown"),
        ({"screen": "pencil_pass", "revealed": 1}, "pencil_pass after 1"),
    ],
)
def test_a_snapshot_that_does_not_fit_the_deal_is_refused_D1(change, why):
    with pytest.raises(ValueError, match=why):
        Session.restore({**at_round_end(), **change})


def test_the_refusal_holds_under_python_O():
    """`python -O` drops every assert: the check must not be one."""
    impossible = json.dumps({**at_round_end(), "revealed": 2})
    script = (
        "import json, sys\n"
        "from nsdevice.session import Session\n"
        "assert False, 'asserts are on'\n"  # proves -O is in force: this line is dropped
        "try:\n"
        "    Session.restore(json.loads(sys.argv[1]))\n"
        "except ValueError as error:\n"
        "    print('refused:', error)\n"
        "else:\n"
        "    print('accepted')\n"
    )
    run = subprocess.run(
        [sys.executable, "-O", "-c", script, impossible],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    assert run.stdout.startswith("refused:"), run.stdout + run.stderr
    assert "round_end after 2" in run.stdout
