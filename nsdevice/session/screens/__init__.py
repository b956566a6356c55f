"""Every screen of the box as a slice: one module per family of screens, each holding
its screens' press handlers (`on_…`) and views (`show_…`, over the pure builders `…_view`
that the gallery shares) side by side, and its rows of the one table, `SLICE`.

`SCREENS` is that table, one entry per `ScreenName` in the names' order; the session
finds every screen through it. Adding a screen: docs/ARCHITECTURE.md, "Adding a screen".
"""

from __future__ import annotations

from nsdevice.session.context import ScreenEntry
from nsdevice.session.names import Kind, ScreenName
from nsdevice.session.screens import (
    game,
    history,
    menu,
    phones,
    room,
    score_sheet,
    scores,
    setup,
)

SLICES = (setup, game, scores, score_sheet, menu, history, phones, room)

_ROWS: dict[ScreenName, ScreenEntry] = {
    name: entry for family in SLICES for name, entry in family.SLICE.items()
}
SCREENS: dict[ScreenName, ScreenEntry] = {name: _ROWS[name] for name in ScreenName if name in _ROWS}

# The game screens by name, for benchmarks/reliability/ (read from the table above).
GAME_SCREENS = tuple(name.value for name, entry in SCREENS.items() if entry.kind is Kind.GAME)
