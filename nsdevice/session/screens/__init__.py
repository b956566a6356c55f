"""Every screen of the box, each declared once as a record (`context.Screen`) in its
family's module: its press handler (`on_…`) and view (`show_…`, over the pure builder
`…_view` its gallery examples share) side by side, and the record that names them.

Every table that names screens is read from the records: `SCREENS` (the dispatch, and
the names a snapshot may hold), `ALL_VIEWS`, the menu's rows (`menu.menu_rows`), the
gallery (`nsdevice.gallery`) and the holds (`session.holds`). A family is a module here,
found by `FAMILIES`. Adding a screen: docs/ARCHITECTURE.md, "Adding a screen".
"""

from __future__ import annotations

from typing import Any

from nsdevice import views
from nsdevice.session.context import Screen
from nsdevice.session.names import Kind, ScreenName
from nsdevice.session.screens import (
    game,
    history,
    lines,
    menu,
    phones,
    room,
    score_sheet,
    scores,
    setup,
)

FAMILIES = (setup, game, lines, scores, score_sheet, menu, history, phones, room)
RECORDS: tuple[Screen[Any], ...] = tuple(record for family in FAMILIES for record in family.RECORDS)
SCREENS: dict[ScreenName, Screen[Any]] = {record.name: record for record in RECORDS}

# Views that are no screen of the session: a notice over any screen, the hardware check's.
OTHER_VIEWS: tuple[type[views.View], ...] = (views.NoticeView, views.HardwareTestView)
ALL_VIEWS: tuple[type[views.View], ...] = (
    *dict.fromkeys(record.view_type for record in RECORDS),
    *OTHER_VIEWS,
)

# The game screens by name, for benchmarks/reliability/ (read from the records above).
GAME_SCREENS = tuple(name.value for name, entry in SCREENS.items() if entry.kind is Kind.GAME)

