"""The phones: the page's address and join code (a screen from the menu), and the table
the phones are shown beside every frame."""

from __future__ import annotations

from dataclasses import replace

from nsdevice import views
from nsdevice.inputs.events import Button, Press
from nsdevice.rules.deal import ROUNDS
from nsdevice.session.context import Context, ScreenEntry
from nsdevice.session.names import Kind, ScreenName
from nsdevice.session.screens.common import hints, seat_pencils
from nsdevice.session.screens.room import first_card_out, room_scoring, size_rows
from nsdevice.session.screens.scores import SCORING


def phones_view(addresses: tuple[str, ...], code: str, language: str) -> views.PhonesView:
    return views.PhonesView(
        addresses=addresses,
        code=code,
        hints=hints(next="renew", back="back", menu="back"),
        language=language,
    )


def show_phones(session: Context) -> views.PhonesView:
    return phones_view(session.capabilities.phones, session.join_code, session.language)


def on_phones(session: Context, press: Press) -> None:
    if press.button is Button.NEXT:
        session.join_code = session.code_source()  # phones that joined must join again
    else:
        session.state.screen = ScreenName.MENU


def table_view(session: Context) -> views.TableView:
    """What the phones may see now (never the deck's order: only shown screens)."""
    state = session.state
    setup = state.setup
    beneath = session.showing()
    if setup is None or session.screens[beneath].kind is not Kind.GAME:
        return views.TableView(session.game, session.join_code, None)
    deal = session.current_deal()
    over = session.screens[beneath].over
    view = session.screens[beneath].view(session)
    if getattr(view, "room", None) is not None:
        view = replace(view, room=None)  # type: ignore[call-arg]  # the join code stays home
    return views.TableView(
        game=session.game,
        code=session.join_code,
        view=view,
        city=setup.city.value,
        players=setup.players,
        # once the game is over nobody holds a pencil "this round" any more
        pencils=() if over or state.room else seat_pencils(deal, min(state.progress.round, ROUNDS)),
        line_scoring=deal.city.line_scoring,
        scoring=room_scoring(session) or (beneath in SCORING and not state.recorded),
        seats_in=tuple(sorted(session.phone_seats)),
        room=room_table(session, over),
    )


def room_table(session: Context, over: bool) -> views.RoomTable | None:
    """A room game's part of the table: each size's pencils this round and the next
    (none once the game is over), who joined, the ranking so far; the deal code only once
    the game is over (D-2: it would tell the cards to come)."""
    room = session.state.room
    if room is None:
        return None
    setup = session.current_setup()
    number = session.state.progress.round
    # between rounds (the pencil pass) the round is still the one that ended
    return views.RoomTable(
        code=setup.seed if over else "",
        modules=tuple(m.value for m in setup.modules),
        rows=() if over else size_rows(session, min(number, ROUNDS)),
        next_rows=() if over or number >= ROUNDS else size_rows(session, number + 1),
        tables=room.table_list(),
        seats=room.seat_list(),
        ranking=room.ranking(),
        started=first_card_out(session),
        taken=room.taken,
    )


SLICE = {
    ScreenName.PHONES: ScreenEntry(Kind.OVERLAY, on_phones, show_phones),
}
