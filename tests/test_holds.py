"""The table of held buttons (nsdevice.session.holds) against the session itself: wherever
a hold does something a tap does not, the table says so, so the inputs wait for that
button's release there; every screen it names really gives that hold a meaning."""

from __future__ import annotations

import random

from nsdevice.inputs.events import Button, Gesture, Press
from nsdevice.session import Session, Settings, held_buttons

FIXED_CODE = "HOLDS"


def outcome(session: Session, press: Press) -> tuple:
    copy = Session.restore(session.snapshot(), seed_source=lambda: FIXED_CODE)
    copy.press(press)
    return (copy.view(), copy.snapshot())


def walks(count: int, length: int) -> list[Session]:
    """Sessions left by random taps: every screen of a game, lists, entries and menus."""
    rng = random.Random(23)
    sessions = []
    for walk in range(count):
        session = Session(Settings(language="en"), seed_source=lambda: FIXED_CODE)
        if walk % 3:  # a game dealt, as at power-on; else from the setup's list
            session.deal_new_game()
        for _ in range(length):
            button = rng.choices(list(Button), weights=(20, 1, 1))[0]
            session.press(Press(button))
            sessions.append(session)
            session = Session.restore(session.snapshot(), seed_source=lambda: FIXED_CODE)
    return sessions


def test_a_hold_means_more_than_a_tap_only_where_the_table_says():
    seen_meaning: set[tuple[str, Button]] = set()
    screens = set()
    for session in walks(6, 220):
        screen = session.view().screen
        screens.add(screen)
        for button in Button:
            tap = outcome(session, Press(button, Gesture.TAP))
            hold = outcome(session, Press(button, Gesture.HOLD))
            if tap != hold:
                assert button in held_buttons(screen), (screen, button)
                seen_meaning.add((screen, button))
    assert {"turn", "setup", "menu", "score_entry", "game_end"} <= screens, screens
    assert ("score_entry", Button.NEXT) in seen_meaning  # five at a time


def test_turn_and_lists_act_on_the_press_edge():
    for screen in ("setup", "menu", "round_start", "summary"):
        assert held_buttons(screen) == frozenset()
    # the turn waits for MENU's release only: a hold there shows the module cards
    assert held_buttons("turn") == frozenset({Button.MENU})
