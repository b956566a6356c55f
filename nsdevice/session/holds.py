"""Which buttons mean something else when held, screen by screen.

Everywhere else a held button is a tap (Session.press), so the inputs may act on the
press edge instead of waiting for the release: the picture follows the finger down.
Only the screens below wait for the release of these buttons, to tell a tap from a hold.
tests/test_holds.py checks this table against what the session does with a hold.
"""

from __future__ import annotations

from nsdevice.inputs.events import Button
from nsdevice.session.names import ScreenName

EVERY_BUTTON = frozenset(Button)
HELD: dict[str, frozenset[Button]] = {
    ScreenName.SEED_ENTRY: frozenset({Button.MENU}),  # a held MENU finishes the code
    ScreenName.PENCIL_ORDER: frozenset({Button.BACK}),  # a held BACK takes a pencil back
    ScreenName.GAME_END: frozenset({Button.NEXT}),  # a held NEXT opens the score sheet
    ScreenName.TURN: frozenset({Button.MENU}),  # a held MENU shows this game's module cards
    ScreenName.SCORE_ENTRY: EVERY_BUTTON,  # five at a time, a digit back, the sheet
    ScreenName.SCORE_SHEET: EVERY_BUTTON,
}


def held_buttons(screen: str) -> frozenset[Button]:
    """The buttons whose hold means something on `screen` (a view's `screen`)."""
    return HELD.get(screen, frozenset())
