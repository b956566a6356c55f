"""The phones: the page's address and join code (a screen from the menu), and the table
the phones are shown beside every frame."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from nsdevice import views
from nsdevice.inputs.events import Button, Press
from nsdevice.rules.deal import ROUNDS
from nsdevice.rules.modules import Module
from nsdevice.session.context import Album, Context, MenuEntry, Opened, Screen
from nsdevice.session.names import Kind, ScreenName
from nsdevice.session.screens.common import hints, row_index, seat_pencils
from nsdevice.session.screens.examples import JOIN_CODE, PHONE_ADDRESSES
from nsdevice.session.screens.lines import open_round
from nsdevice.session.screens.menu import session_menu_rows
from nsdevice.session.screens.room import first_card_out, room_scoring, size_rows
from nsdevice.session.screens.scores import SCORING

# the phones' screen's two steps, kept in the state's cursor; the menu opens it at 0
WIFI_STEP, PAGE_STEP = 0, 1


def phones_view(
    addresses: tuple[str, ...],
    code: str,
    language: str,
    hotspot: views.Hotspot | None = None,
    step: int = PAGE_STEP,
) -> views.PhonesView:
    """`hotspot`: the box's own Wi-Fi while it is up: phones join it first (the "wifi"
    step, NEXT goes on to the page), then the page's address on that network comes
    first."""
    if hotspot is not None and step == WIFI_STEP:
        return views.PhonesView(
            addresses=_with_hotspot(addresses, hotspot),
            code=code,
            hotspot=hotspot,
            step="wifi",
            hints=hints(next="continue", back="back", menu="back"),
            language=language,
        )
    return views.PhonesView(
        addresses=_with_hotspot(addresses, hotspot),
        code=code,
        hotspot=hotspot,
        hints=hints(next="renew", back="back", menu="back"),
        language=language,
    )


def _with_hotspot(addresses: tuple[str, ...], hotspot: views.Hotspot | None) -> tuple[str, ...]:
    """The page's address on the box's own network first: the phones that joined it see
    no other."""
    if hotspot is None or not hotspot.address:
        return addresses
    return (hotspot.address, *(a for a in addresses if a != hotspot.address))


def show_phones(session: Context) -> views.PhonesView:
    hotspot = session.capabilities.hotspot()
    return phones_view(
        session.capabilities.phones,
        session.join_code,
        session.language,
        hotspot,
        session.state.cursor,
    )


def on_phones(session: Context, press: Press) -> None:
    state = session.state
    wifi = state.cursor == WIFI_STEP and session.capabilities.hotspot() is not None
    if press.button is Button.NEXT:
        if wifi:
            state.cursor = PAGE_STEP
        else:
            session.join_code = session.code_source()  # phones that joined must join again
    elif press.button is Button.BACK and not wifi and session.capabilities.hotspot():
        state.cursor = WIFI_STEP
    else:
        state.screen = ScreenName.MENU
        state.cursor = row_index(session_menu_rows(session), "phones")


def open_phones(session: Context) -> None:
    """From the menu: the box's own Wi-Fi first, when it has one up."""
    session.state.cursor = WIFI_STEP


def table_view(session: Context) -> views.TableView:
    """What the phones may see now (never the deck's order: only shown screens)."""
    state = session.state
    setup = state.setup
    beneath = session.showing()
    if setup is None or session.screens[beneath].kind is not Kind.GAME:
        return views.TableView(session.game, session.join_code, None)
    deal = session.current_deal()
    over = session.screens[beneath].over
    view: views.View = session.screens[beneath].view(session)
    call = getattr(view, "room", None)
    if call is not None:  # the phones' cut-down room: the join code, the address and every
        # size's pencils stay home (a phone shows its own table's from `room_table`)
        phones_call = replace(call, code="", address="", rows=())
        view = replace(view, room=phones_call)  # type: ignore[call-arg]
    return views.TableView(
        game=session.game,
        code=session.join_code,
        view=view,
        city=setup.city.value,
        players=setup.players,
        # once the game is over nobody holds a pencil "this round" any more
        pencils=() if over or state.room else seat_pencils(deal, min(state.progress.round, ROUNDS)),
        line_scoring=deal.city.line_scoring,
        objectives=Module.OBJECTIVES in setup.modules,
        scoring=room_scoring(session) or (beneath in SCORING and not state.recorded),
        seats_in=tuple(sorted(session.phone_seats)),
        line_round=open_round(session),
        lines=tuple(
            (seat, number, counts)
            for seat, rounds in sorted(state.lines.items())
            for number, counts in sorted(rounds.items())
        ),
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


# the box's own Wi-Fi (issue 31), with a password as the box draws one
HOTSPOT = views.Hotspot("nextstation-7k3q", "k7dm-x4qp-9wre", "http://10.42.0.1:8414/")


def _phones_examples(album: Album) -> Iterator[tuple[str, views.View]]:
    yield "phones", phones_view(PHONE_ADDRESSES, JOIN_CODE, album.language)
    for step, name in ((WIFI_STEP, "phones-wifi"), (PAGE_STEP, "phones-hotspot")):
        yield name, phones_view(PHONE_ADDRESSES, JOIN_CODE, album.language, HOTSPOT, step)


def _has_phones(opened: Opened) -> bool:
    return bool(opened.capabilities.phones)


PHONES = Screen(
    ScreenName.PHONES,
    Kind.OVERLAY,
    views.PhonesView,
    on_phones,
    show_phones,
    _phones_examples,
    menu=MenuEntry("phones", after="shutdown", shown=_has_phones, opening=open_phones),
)
RECORDS = (PHONES,)
