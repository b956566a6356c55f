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
    register_page,
    register_title,
)

TITLES: dict[type[views.View], str] = {views.RoomTablesView: N_("Tables and seats")}


class RoomPages(Pages):
    """The words a room game adds to the game's screens, and its results."""

    def place_line(self, place: views.RoomPlace) -> str:
        """One player's place in the room: a table's winner says so (C-12)."""
        _ = self._
        if place.table_winner:
            text = _("{place}. {name}, winner of table {table}: {total}")
        else:
            text = _("{place}. {name}, table {table}: {total}")
        return text.format(place=place.place, name=place.name, table=place.table, total=place.total)

    def room_size(self, size: int) -> str:
        """A heading over one table size's pencils."""
        return self._("Tables of {count}").format(count=size) if size > 1 else self._("Solo")

    def sheets_in(self, scored: int, players: int) -> str:
        return self._("Sheets in: {scored} of {players}").format(scored=scored, players=players)

    def sheets_wanted(self) -> str:
        return self._("Fill in your score sheet on your phone.")

    def winner_key(self) -> str:
        """What the star beside a name says (the big glass's results, C-12)."""
        return self._("Wins their table")

    def table_number(self, table: int) -> str:
        return self._("Table {table}").format(table=table)

    def join_code(self, code: str) -> str:
        return self._("Join code: {code}").format(code=code)

    def pass_note(self) -> str:
        return self._("Every pencil moves one place left.")

    def joined(self, room: views.RoomCall) -> str:
        return self._("Tables: {tables} · players: {players}").format(
            tables=room.tables, players=room.players
        )

    def room_join(self, room: views.RoomCall) -> list[Line]:
        """How a player joins: the page's address (the QR code) and the join code."""
        _ = self._
        lines = [Line(_("Join on your phone: name, table, seat."), Role.NOTE)]
        if room.address:
            lines.append(Line(room.address, Role.DETAIL))
        lines.append(Line(self.join_code(room.code), Role.HEADLINE))
        lines.append(Line(self.joined(room), Role.NOTE))
        return lines

    def room_rows(self, room: views.RoomCall) -> list[Line]:
        """Every table size's pencils for the round, a heading over each (C-8)."""
        lines: list[Line] = []
        for size, row in enumerate(room.rows, start=1):
            lines.append(Line(self.room_size(size), Role.HEADING))
            lines += items([self.pencil_line(p, size) for p in row], Role.PENCIL)
        return lines

    @register_title
    def _room_results_title(self, view: views.RoomResultsView) -> str:
        title = self._("The room's results")
        if view.pages > 1:
            return f"{title} {view.page}/{view.pages}"
        return title

    @register_page
    def _room_results(self, view: views.RoomResultsView) -> Page:
        _ = self._
        lines = [Line(self.sheets_in(view.scored, view.players), Role.NOTE)]
        if not view.ranking:
            lines.append(Line(self.sheets_wanted()))
        for place in view.ranking:
            role = Role.HEADLINE if place.place == 1 else Role.ITEM
            lines.append(Line(self.place_line(place), role))
        lines.append(Line(self.seed(view.seed), Role.DETAIL))
        return Page(self.title(view), tuple(lines), form=Form.LINES)

    def listed(self, row: views.RoomListed) -> str:
        """A row of the room's tables: a table and its size, or a seat, its player and
        whether their sheet is in."""
        _ = self._
        if row.seat == 0:
            if row.size == 1:
                return _("Table {table}: solo").format(table=row.table)
            return _("Table {table}: {count} players").format(table=row.table, count=row.size)
        text = _("Seat {seat}: {name}, sheet in") if row.sheet else _("Seat {seat}: {name}")
        return "  " + text.format(seat=row.seat, name=row.name)

    @register_page
    def _room_tables(self, view: views.RoomTablesView) -> Page:
        _ = self._
        rows = [Line(_("Back to the menu"), Role.ROW)]
        rows += [Line(self.listed(row), Role.ROW) for row in view.rows]
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
        return Page(self.title(view), (*rows, *extra), emphasis=(view.cursor,), form=Form.LIST)
