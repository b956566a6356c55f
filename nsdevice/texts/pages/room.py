"""A room game's words (issue 25): how the room joins, each table size's pencils, and the
room's results."""

from __future__ import annotations

from nsdevice import views
from nsdevice.locale import N_
from nsdevice.texts.pages.base import (
    Form,
    Line,
    Page,
    Pages,
    Role,
    items,
    page_for,
    title_for,
)


def place_line(words: Pages, place: views.RoomPlace) -> str:
    """One player's place in the room: a table's winner says so (C-12)."""
    _ = words._
    if place.table_winner:
        text = _("{place}. {name}, winner of table {table}: {total}")
    else:
        text = _("{place}. {name}, table {table}: {total}")
    return text.format(place=place.place, name=place.name, table=place.table, total=place.total)


def room_size(words: Pages, size: int) -> str:
    """A heading over one table size's pencils."""
    return words._("Tables of {count}").format(count=size) if size > 1 else words._("Solo")


def sheets_in(words: Pages, scored: int, players: int) -> str:
    return words._("Sheets in: {scored} of {players}").format(scored=scored, players=players)


def sheets_wanted(words: Pages) -> str:
    return words._("Fill in your score sheet on your phone.")


def winner_key(words: Pages) -> str:
    """What the star beside a name says (the big glass's results, C-12)."""
    return words._("Wins their table")


def table_number(words: Pages, table: int) -> str:
    return words._("Table {table}").format(table=table)


def join_code(words: Pages, code: str) -> str:
    return words._("Join code: {code}").format(code=code)


def pass_note(words: Pages) -> str:
    return words._("Every pencil moves one place left.")


def joined(words: Pages, room: views.RoomCall) -> str:
    return words._("Tables: {tables} · players: {players}").format(
        tables=room.tables, players=room.players
    )


def room_join(words: Pages, room: views.RoomCall) -> list[Line]:
    """How a player joins: the page's address (the QR code) and the join code."""
    _ = words._
    if not room.code:  # the phones' copy: their own join box asks, the counts stay
        return [Line(joined(words, room), Role.NOTE)]
    lines = [Line(_("Join on your phone: name, table, seat."), Role.NOTE)]
    if room.address:  # a browser finds the page without the final "/": one less to read
        lines.append(Line(room.address.removesuffix("/"), Role.DETAIL))
    lines.append(Line(join_code(words, room.code), Role.HEADLINE))
    lines.append(Line(joined(words, room), Role.NOTE))
    return lines


def room_rows(words: Pages, room: views.RoomCall) -> list[Line]:
    """Every table size's pencils for the round, a heading over each (C-8)."""
    lines: list[Line] = []
    for size, row in enumerate(room.rows, start=1):
        lines.append(Line(room_size(words, size), Role.HEADING))
        lines += items([words.pencil_line(p, size) for p in row], Role.PENCIL)
    return lines


@title_for(views.RoomResultsView)
def _room_results_title(words: Pages, view: views.RoomResultsView) -> str:
    title = words._("The room's results")
    if view.pages > 1:
        return f"{title} {view.page}/{view.pages}"
    return title


@page_for(views.RoomResultsView)
def _room_results(words: Pages, view: views.RoomResultsView) -> Page:
    _ = words._
    lines = [Line(sheets_in(words, view.scored, view.players), Role.NOTE)]
    if not view.ranking:
        lines.append(Line(sheets_wanted(words)))
    for place in view.ranking:
        role = Role.HEADLINE if place.place == 1 else Role.ITEM
        lines.append(Line(place_line(words, place), role))
    lines.append(Line(words.seed(view.seed), Role.DETAIL))
    return Page(words.title(view), tuple(lines), form=Form.LINES)


def listed(words: Pages, row: views.RoomListed) -> str:
    """A row of the room's tables: a table and its size, or a seat, its player and
    whether their sheet is in."""
    _ = words._
    if row.seat == 0:
        if row.size == 1:
            return _("Table {table}: solo").format(table=row.table)
        return _("Table {table}: {count} players").format(table=row.table, count=row.size)
    text = _("Seat {seat}: {name}, sheet in") if row.sheet else _("Seat {seat}: {name}")
    return "  " + text.format(seat=row.seat, name=row.name)


@page_for(
    views.RoomTablesView,
    title=N_("Tables and seats"),
    row=("room_tables", N_("Tables and seats")),
)
def _room_tables(words: Pages, view: views.RoomTablesView) -> Page:
    _ = words._
    rows = [Line(_("Back to the menu"), Role.ROW)]
    rows += [Line(listed(words, row), Role.ROW) for row in view.rows]
    count = _("Tables: {tables} · players: {players}")
    extra = [Line(count.format(tables=view.tables, players=view.players), Role.NOTE)]
    if not view.rows:
        extra.append(Line(_("No table has joined yet."), Role.NOTE))
    if view.freeing:
        # the row asked about is the one under the cursor: the line need not name it
        if view.rows[view.cursor - 1].seat:
            ask = _("Choose again to free this seat.")
        else:
            ask = _("Choose again to free the whole table.")
        extra.append(Line(ask, Role.WARNING))
    return Page(words.title(view), (*rows, *extra), emphasis=(view.cursor,), form=Form.LIST)
