"""The box's behaviour: which screen is up, where the game stands, what a press does.

`machine` holds the state machine, `screens` builds each screen's view from it, and
`settings` what the box remembers between games.
"""

from nsdevice.session.machine import GAME_SCREENS, OVERLAYS, SNAPSHOT_VERSION, Session
from nsdevice.session.screens import pairing_view, seat_pencils
from nsdevice.session.settings import (
    BRIGHTNESS_LEVELS,
    CITIES,
    MODULES,
    Capabilities,
    FinishedGame,
    NoRecords,
    Records,
    Settings,
    random_seed,
)

__all__ = [
    "BRIGHTNESS_LEVELS",
    "CITIES",
    "GAME_SCREENS",
    "MODULES",
    "OVERLAYS",
    "SNAPSHOT_VERSION",
    "Capabilities",
    "FinishedGame",
    "NoRecords",
    "Records",
    "Session",
    "Settings",
    "pairing_view",
    "random_seed",
    "seat_pencils",
]
