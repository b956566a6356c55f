"""The box's behaviour: which screen is up, where the game stands, what a press does.

`machine` holds `Session`: the state (`context`), the press dispatch through the one
table of screens, and the snapshot (`snapshot`). `screens` holds every screen as a slice,
its press handler and view side by side, one module per family, and the table
(`SCREENS`); `names` the screens' saved names; `settings` what the box remembers between
games. Import the view builders from their slice, e.g. `nsdevice.session.screens.game`.
"""

from nsdevice.session.holds import held_buttons
from nsdevice.session.machine import Session
from nsdevice.session.names import ScreenName
from nsdevice.session.screens import GAME_SCREENS
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
    "ScreenName",
    "Session",
    "Settings",
    "held_buttons",
    "random_seed",
]
