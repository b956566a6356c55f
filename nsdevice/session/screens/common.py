"""What several families of screens share: the legend, the list screens' cursor, the
pencils on the table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from nsdevice import views
from nsdevice.inputs.events import Button, Press
from nsdevice.locale import LANGUAGES
from nsdevice.rules.deal import Deal, Round
from nsdevice.session.context import Context, Opened


def hints(**actions: str) -> tuple[views.Hint, ...]:
    """The legend: what each button (`next`, `back`, `menu`) does on a screen."""
    return tuple(views.Hint(button, action) for button, action in actions.items())


def list_hints(
    rows: Sequence[views.Row], cursor: int, language_before: str = ""
) -> tuple[views.Hint, ...]:
    """A list's legend. The cursor goes round past either end, so the legend says so
    where it will (no surprise); right after the language changed, BACK puts the one
    before back, and its label names that language in its own words."""
    last = cursor == len(rows) - 1
    back = f"language:{language_before}" if language_before else "to_end" if cursor == 0 else "up"
    return hints(next="to_top" if last else "down", back=back, menu="select")


def change_language(session: Context) -> None:
    """The next language, remembering the one before the first of a run of changes so
    that one BACK undoes them all (a press too many never strands the box in a language
    nobody at the table reads)."""
    state = session.state
    settings = state.settings
    before = state.language_before or settings.language
    state.settings = replace(settings, language=cycle(LANGUAGES, settings.language))
    state.language_before = "" if state.settings.language == before else before


def undo_language(session: Context, press: Press) -> bool:
    """BACK right after a change puts the language before back (True); the list's
    handler forgets it on any press but another change (`keep_language_undo`)."""
    state = session.state
    before = state.language_before
    if before and press.button is Button.BACK:
        state.settings = replace(state.settings, language=before)
        state.language_before = ""
        return True
    return False


def keep_language_undo(session: Context, key: str | None) -> None:
    """Only a run of language changes keeps the undo: any other press ends it."""
    if key != "language":
        session.state.language_before = ""


def in_round(opened: Opened) -> bool:
    """A menu row shown only over a round under way (`MenuEntry.shown`)."""
    return opened.in_round


def row_index(rows: Sequence[views.Row], key: str) -> int:
    """Where the row `key` stands in a list screen: rows are named by key, never counted."""
    return [row.key for row in rows].index(key)


def chosen(session: Context, press: Press, rows: Sequence[views.Row]) -> str | None:
    """On a list screen NEXT and BACK move the cursor; MENU returns the row chosen."""
    state = session.state
    if press.button is Button.MENU:
        return rows[state.cursor].key
    step = 1 if press.button is Button.NEXT else -1
    state.cursor = (state.cursor + step) % len(rows)
    return None


def cycle(options: tuple[str, ...], current: str, step: int = 1) -> str:
    index = options.index(current) if current in options else -1
    return options[(index + step) % len(options)]


def seat_pencils(deal: Deal, round_number: int) -> tuple[views.SeatPencil, ...]:
    """Each slot's pencil for a round, with its start symbol and power: seats first, then
    the spare spots on the table (C-8, C-9, L-PP)."""
    return round_pencils(deal, deal.rounds[round_number - 1])


def round_pencils(deal: Deal, round_: Round) -> tuple[views.SeatPencil, ...]:
    """`seat_pencils` for a round of any table on `deal`'s game (a room's table sizes)."""
    powers = dict(deal.pencil_powers or ())
    result = []
    for slot, colour in round_.pencils:
        start = deal.city.start_station(colour)
        result.append(
            views.SeatPencil(
                slot=slot,
                colour=colour,
                start_symbol=start.symbol.value if start else None,
                start_unverified=start.unverified if start else False,
                power=powers.get(colour),
            )
        )
    return tuple(sorted(result, key=lambda p: p.slot.startswith("table")))


def pairing_view(deal: Deal, round_number: int) -> views.Pairing | None:
    """T-SP-2: the round's special-station pairing, if the module is played."""
    pairing = deal.rounds[round_number - 1].pairing
    return views.Pairing(pairing.symbol.value, pairing.effect) if pairing else None


def module_cards(deal: Deal) -> views.ModuleCards:
    """The module cards face up all game (C-11, P-CG-1, L-PP), for the round's screens."""
    return views.ModuleCards(
        objectives=deal.objectives,
        city_gates=deal.city_gates or (),
        pencil_powers=deal.pencil_powers or (),
    )
