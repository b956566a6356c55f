"""The box's behaviour: which screen is up, where the game stands, what a press does.

`machine` holds the state machine (`Session`) and its one table of screens (`SCREENS`),
`screens` builds each screen's view from plain inputs (for the session and the gallery
alike), and `settings` what the box remembers between games. Import the builders from
`nsdevice.session.screens` itself.
"""

from nsdevice.session.holds import held_buttons
from nsdevice.session.machine import GAME_SCREENS, Session
from nsdevice.session.screen import Screen
from nsdevice.session.settings import (
    CITIES,
    MODULES,
    Capabilities,
    FinishedGame,
    Records,
    Settings,
    random_seed,
)

__all__ = [
    "CITIES",
    "GAME_SCREENS",
    "MODULES",
    "Capabilities",
    "FinishedGame",
    "Records",
    "Screen",
    "Session",
    "Settings",
    "held_buttons",
    "random_seed",
]
