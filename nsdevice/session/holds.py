"""Which buttons mean something else when held, screen by screen (each record's `holds`).

Everywhere else a held button is a tap (Session.press), so the inputs may act on the
press edge instead of waiting for the release: the picture follows the finger down.
Only the screens whose records name buttons here wait for their release, to tell a tap
from a hold. tests/test_holds.py checks this against what the session does with a hold.
"""

from __future__ import annotations

from nsdevice.inputs.events import Button
from nsdevice.session.context import EVERY_BUTTON as EVERY_BUTTON
from nsdevice.session.screens import SCREENS

HELD: dict[str, frozenset[Button]] = {
    name.value: screen.holds for name, screen in SCREENS.items() if screen.holds
}


def held_buttons(screen: str) -> frozenset[Button]:
    """The buttons whose hold means something on `screen` (a view's `screen`)."""
    return HELD.get(screen, frozenset())
