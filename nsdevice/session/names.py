"""What kind of place a screen is; the screens' names are `views.ScreenName`, beside
their views, and each screen is one record (`nsdevice.session.context.Screen`) in its
family's module of `nsdevice.session.screens`.
"""

from __future__ import annotations

from enum import Enum

from nsdevice.views import ScreenName as ScreenName


class Kind(Enum):
    """Where a screen stands: it decides what a snapshot on it must hold."""

    SETUP = "setup"  # before a game: no deal yet
    GAME = "game"  # a step of the game; the menu opens over it
    OVERLAY = "overlay"  # over a game screen (`under`), which it returns to
    MESSAGE = "message"  # the box says one thing and no press matters (shutting down)
