"""A room game (issue 25): one box calls the cards for every table in the room.

The game's own screens (summary, round start, turns, pencil pass) show what a room adds
through `room_call`: how to join, and each table size's pencils for the round shown
(rules.room: the same rows for every table of a size). The game's end is the room's
results: the ranking as the phones' sheets come in, a page at a time. From the menu, the
room's tables (issue 32): who sits where and whose sheet is in; the caller frees a seat or
a whole table there, choosing it twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from nsdevice import views
from nsdevice.inputs.events import Button, Press
from nsdevice.rules.deal import ROUNDS, Deal, Round, Setup
from nsdevice.rules.room import ROOM, SEATS, Result, rank, table_rounds
from nsdevice.session.context import Album, Context, MenuEntry, Opened, Screen
from nsdevice.session.names import Kind, ScreenName
from nsdevice.session.roster import Roster
from nsdevice.session.screens.common import hints, round_pencils, row_index
from nsdevice.session.screens.examples import JOIN_CODE, PHONE_ADDRESSES, deal
from nsdevice.session.screens.menu import open_menu, session_menu_rows

RANKING_PAGE = 8  # places a page of the results shows: read from across a room


def roster(session: Context) -> Roster | None:
    return session.state.room


def table_rows(
    deal: Deal, round_number: int, rounds: Callable[[int], tuple[Round, ...]] | None = None
) -> tuple[tuple[views.SeatPencil, ...], ...]:
    """Round `round_number`'s pencils for tables of 1, 2, 3 and 4 players (C-8), from
    rules.room; `rounds`: a table size's rounds, when the caller keeps them."""
    dealt = rounds or (lambda size: table_rounds(deal.setup, size))
    return tuple(
        round_pencils(deal, dealt(size)[round_number - 1]) for size in range(1, SEATS + 1)
    )


def size_rows(session: Context, round_number: int) -> tuple[tuple[views.SeatPencil, ...], ...]:
    key = (session.current_setup(), round_number)
    kept = session.room_rows
    if key not in kept:
        if len(kept) >= 2 * ROUNDS:  # a new game's: the last one's are done with
            kept.clear()
        kept[key] = table_rows(session.current_deal(), round_number, session.table_rounds)
    return kept[key]


def first_card_out(session: Context) -> bool:
    """The game's first card has been revealed: from then on no table is freed for being
    idle (the caller still frees any, from the room's page)."""
    progress = session.state.progress
    return session.state.setup is not None and (progress.round, progress.revealed) > (1, 0)


def room_call(session: Context, round_number: int) -> views.RoomCall | None:
    """What a room game's screen adds for round `round_number`; None for one table."""
    room = roster(session)
    if room is None:
        return None
    phones = session.capabilities.phones
    return views.RoomCall(
        code=session.join_code,
        address=phones[0] if phones else "",
        rows=size_rows(session, min(round_number, ROUNDS)),
        tables=len(room.tables),
        players=len(room.seats),
    )


# --- the room's results ---------------------------------------------------------------------
def room_results_view(
    setup: Setup,
    ranking: tuple[views.RoomPlace, ...],
    page: int,
    language: str,
    players: int = 0,
    tables: int = 0,
) -> views.RoomResultsView:
    """Page `page` (1-based; past the last: the last) of the ranking so far."""
    pages = max(1, -(-len(ranking) // RANKING_PAGE))
    page = min(max(1, page), pages)
    return views.RoomResultsView(
        city=setup.city.value,
        seed=setup.seed,  # D-2: the game is over; other rooms may play the code too
        modules=tuple(m.value for m in setup.modules),
        ranking=ranking[(page - 1) * RANKING_PAGE : page * RANKING_PAGE],
        page=page,
        pages=pages,
        scored=len(ranking),
        players=players,
        tables=tables,
        hints=(
            hints(next="next_page", back="back", menu="menu")
            if pages > 1
            else hints(back="back", menu="menu")
        ),
        language=language,
    )


def show_room_results(session: Context) -> views.RoomResultsView:
    room = roster(session) or Roster()
    return room_results_view(
        session.current_setup(),
        room.ranking(),
        session.state.cursor + 1,
        session.language,
        players=len(room.seats),
        tables=len(room.tables),
    )


def on_room_results(session: Context, press: Press) -> None:
    """NEXT turns the page (round to the first), BACK goes a page back, from the first to
    the round's end; MENU opens the menu (a new game is there)."""
    state = session.state
    pages = show_room_results(session).pages
    if press.button is Button.NEXT:
        state.cursor = (state.cursor + 1) % pages
    elif press.button is Button.BACK:
        if state.cursor > 0:
            state.cursor = min(state.cursor, pages) - 1
        else:
            state.screen = ScreenName.ROUND_END
    else:
        open_menu(session)


def room_scoring(session: Context) -> bool:
    """The room's end is on (beneath any menu): sheets from phones are taken."""
    return roster(session) is not None and session.showing() is ScreenName.ROOM_RESULTS


# --- the room's tables, from the menu ----------------------------------------------------------
FREEING = "free"  # state.question while a row waits for its second choice: "free:TABLE:SEAT"


def listed(room: Roster) -> tuple[views.RoomListed, ...]:
    """Each table (by number), then each of its seats taken, with its name and sheet."""
    rows: list[views.RoomListed] = []
    for table, size in room.table_list():
        rows.append(views.RoomListed(table, 0, size))
        rows += [
            views.RoomListed(table, seat, size, name, (table, seat) in room.scores)
            for (at, seat), name in sorted(room.seats.items())
            if at == table
        ]
    return tuple(rows)


def room_tables_view(
    rows: tuple[views.RoomListed, ...], cursor: int, freeing: str, language: str, players: int = 0
) -> views.RoomTablesView:
    """The list with the cursor on row `cursor` (0: back to the menu; past the end: the
    last); `freeing`: the row chosen once ("TABLE:SEAT"), asked about if the cursor is on it."""
    cursor = min(max(cursor, 0), len(rows))
    asked = cursor > 0 and freeing == _target(rows[cursor - 1])
    back = "to_end" if cursor == 0 else "up"
    return views.RoomTablesView(
        rows=rows,
        cursor=cursor,
        freeing=asked,
        tables=sum(1 for row in rows if row.seat == 0),
        players=players,
        hints=hints(
            next="to_top" if cursor == len(rows) else "down",
            back=back,
            menu="back" if cursor == 0 else "free" if asked else "select",
        ),
        language=language,
    )


def _target(row: views.RoomListed) -> str:
    return f"{row.table}:{row.seat}"


def _asked(session: Context) -> str:
    """The row chosen once, if the question is the room's ("" otherwise)."""
    kind, _, target = session.state.question.partition(":")
    return target if kind == FREEING else ""


def show_room_tables(session: Context) -> views.RoomTablesView:
    room = roster(session) or Roster()
    return room_tables_view(
        listed(room), session.state.cursor, _asked(session), session.language, len(room.seats)
    )


def on_room_tables(session: Context, press: Press) -> None:
    """NEXT and BACK move the cursor (round past either end); MENU on the first row goes
    back to the menu; MENU on a table or a seat asks, and MENU again frees it."""
    state = session.state
    view = show_room_tables(session)
    if press.button is not Button.MENU:
        step = 1 if press.button is Button.NEXT else -1
        state.cursor = (view.cursor + step) % (len(view.rows) + 1)
        state.question = ""
        return
    if view.cursor == 0:
        state.question = ""
        state.screen = ScreenName.MENU
        state.cursor = row_index(session_menu_rows(session), "room_tables")
        return
    row = view.rows[view.cursor - 1]
    if not view.freeing:
        state.question = f"{FREEING}:{_target(row)}"
        return
    room = roster(session)
    if room is not None:
        room.free(row.table, row.seat)
    state.question = ""
    state.cursor = min(view.cursor, len(listed(room or Roster())))




# --- the gallery's examples ---------------------------------------------------------------
ROOM_MODULES = {  # a room game's example: the objectives and the city's own module
    "tokyo": ("objectives", "special_stations"),
    "paris": ("objectives", "city_gates"),
    "london": ("objectives", "pencil_powers"),
}
ROOM_PLAYERS = (  # (table, seat, name, total, best line): tables of 1 to 4, a tie at the top
    (1, 1, "Ana", 131, 36), (1, 2, "Bruno", 118, 31), (1, 3, "Chloé", 131, 36),
    (2, 1, "Dmitri", 142, 38), (2, 2, "Eva", 127, 33), (3, 1, "Farida", 109, 30),
    (4, 1, "Giulia", 125, 35), (4, 2, "Hugo", 136, 37), (4, 3, "Ines", 98, 28),
    (4, 4, "Jonas", 121, 32), (5, 1, "Kenji", 139, 40), (5, 2, "Lea", 116, 29),
)  # fmt: skip


def room_deal(city: str) -> Deal:
    """The examples' room game (issue 25)."""
    return deal(city, 4, ROOM_MODULES[city], "ROOM25")


def example_room_call(
    dealt: Deal, round_number: int, tables: int = 5, players: int = 12
) -> views.RoomCall:
    """A room's caller screens as a room of `tables` tables would show them."""
    return views.RoomCall(
        code=JOIN_CODE,
        address=PHONE_ADDRESSES[0],
        rows=table_rows(dealt, round_number),
        tables=tables,
        players=players,
    )


def room_ranking(count: int) -> tuple[views.RoomPlace, ...]:
    """The first `count` sheets of the example room, ranked by rules.room."""
    results = [Result(ROOM, *player) for player in ROOM_PLAYERS[:count]]
    return tuple(
        views.RoomPlace(p.place, p.result.table, p.result.seat, p.result.name, p.result.total,
                        p.result.best_line, p.table_winner)
        for p in rank(results)
    )  # fmt: skip


def _room_results_examples(album: Album) -> Iterator[tuple[str, views.View]]:
    """The results as the sheets come in."""
    setup = room_deal(album.city).setup
    players = len(ROOM_PLAYERS)
    for name, scored in (
        ("room-results-waiting", 0),
        ("room-results-filling", 5),
        ("room-results", players),
    ):
        yield name, room_results_view(setup, room_ranking(scored), 1, album.language, players, 5)


def room_roster(scored: int) -> Roster:
    """The example room's tables and seats, the first `scored` sheets in."""
    roster = Roster()
    sizes = {table: max(s for t, s, *_ in ROOM_PLAYERS if t == table) for table, *_ in ROOM_PLAYERS}
    for table, seat, name, _total, _best in ROOM_PLAYERS:
        roster.join(table, sizes[table], seat, name)
    for table, seat, _name, total, best in ROOM_PLAYERS[:scored]:
        roster.score(table, seat, total, best)
    return roster


def _room_tables_examples(album: Album) -> Iterator[tuple[str, views.View]]:
    players, language = len(ROOM_PLAYERS), album.language
    yield "room-tables", room_tables_view(listed(room_roster(0)), 2, "", language, players)
    # the caller chose table 4's second seat once: choosing it again frees it
    freeing = room_tables_view(listed(room_roster(5)), 12, "4:2", language, players)
    yield "room-tables-freeing", freeing


def open_room_tables(session: Context) -> None:
    """From the menu: the list with the cursor on its row "back"."""
    session.state.cursor = 0
    session.state.question = ""


def _in_a_room(opened: Opened) -> bool:
    return opened.room


ROOM_RESULTS = Screen(
    ScreenName.ROOM_RESULTS,
    Kind.GAME,
    views.RoomResultsView,
    on_room_results,
    show_room_results,
    _room_results_examples,
    over=True,
)
ROOM_TABLES = Screen(
    ScreenName.ROOM_TABLES,
    Kind.OVERLAY,
    views.RoomTablesView,
    on_room_tables,
    show_room_tables,
    _room_tables_examples,
    menu=MenuEntry("room_tables", after="phones", shown=_in_a_room, opening=open_room_tables),
)
RECORDS = (ROOM_RESULTS, ROOM_TABLES)
