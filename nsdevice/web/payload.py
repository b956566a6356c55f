"""A published table as the JSON a phone reads, in the phone's own language.

Words come from the box's own wording (`nsdevice.texts.words`), the colours and the
symbol pictures from the box's painter (`Artwork`, handed in by the runner), so the
phone shows the same cards as the screen. The join code never leaves this side.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import field
from functools import singledispatch
from typing import Any

from nsdevice import views
from nsdevice.locale import LANGUAGES
from nsdevice.rules.cards import StationCard
from nsdevice.rules.frozen import dataclass
from nsdevice.rules.room import SEATS
from nsdevice.texts import LANGUAGE_NAMES, Role, Words, words
from nsdevice.voice import CATALOGUE, phrase_ids, phrase_text


@dataclass(frozen=True)
class Artwork:
    """What the box's painter draws with: symbol PNGs by name, card and pencil colours."""

    symbols: Mapping[str, bytes] = field(default_factory=dict)
    cards: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)
    pencils: Mapping[str, str] = field(default_factory=dict)


def language_of(asked: str | None) -> str:
    return asked if asked in LANGUAGES else "en"


def _symbol(card: StationCard) -> str:
    if card.symbol is not None:
        return card.symbol.value
    return card.special.value if card.special is not None else ""


def seated(seats: tuple[views.RoomSeat, ...]) -> dict[str, int]:
    """Table number (as text, JSON's keys) → its seats taken, seat k as the bit 1 << k - 1."""
    bits: dict[str, int] = {}
    for seat in seats:
        bits[str(seat.table)] = bits.get(str(seat.table), 0) | 1 << seat.seat - 1
    return bits


def _room(table: views.TableView, said: Words, art: Artwork) -> dict[str, Any]:
    """A room game's part: every table size's pencil rows (a phone picks its own by its
    table's size and its seat), how many joined, and the ranking once scores come. The
    same for every phone: one encoding per table and language, however many read it."""
    room = table.room
    assert room is not None

    def entry(pencil: views.SeatPencil, size: int) -> dict[str, Any]:
        return {"slot": pencil.slot, **_pencil(pencil, size, said, art)}

    def row(pencils: tuple[views.SeatPencil, ...], size: int) -> list[dict[str, Any]]:
        return [entry(pencil, size) for pencil in pencils]

    view = table.view
    over = table.scoring or bool(room.ranking)
    return {
        "code": room.code if over else "",  # D-2: the deal code is secret during play
        "modules": list(room.modules),
        "round": getattr(view, "round", 0) if view is not None else 0,
        "rows": [row(pencils, size) for size, pencils in enumerate(room.rows, start=1)],
        "next_rows": [row(pencils, size) for size, pencils in enumerate(room.next_rows, 1)],
        "tables": len(room.tables),
        "players": len(room.seats),
        # "Solo", "2 players"…: a phone names its own table's size, never the room's
        "sizes": [said.players(size) for size in range(1, SEATS + 1)],
        # each table's seats taken, as bits (seat k: 1 << k - 1): a phone whose seat is no
        # longer here was freed by the caller (issue 32); a few bytes a table for 300 phones
        "seated": seated(room.seats),
        "ranking": [
            {
                "place": place.place,
                "table": place.table,
                "seat": place.seat,
                "name": place.name,
                "total": place.total,
                "best_line": place.best_line,
                "table_winner": place.table_winner,
            }
            for place in room.ranking
        ],
    }


def _pencil(pencil: views.SeatPencil, size: int, said: Words, art: Artwork) -> dict[str, Any]:
    """A pencil as a phone shows it: its line with its place ("Seat 2: Brown · Joker"),
    for the table's list, and without ("Brown · Joker"), for the phone that holds it."""
    line = said.pencil_line(pencil, size)
    colour = said.colour(pencil.colour)
    place = said.labelled(said.slot(pencil.slot, size), colour)
    return {
        "colour": pencil.colour,
        "name": colour,
        "hex": art.pencils.get(pencil.colour, "#888888"),
        "start": pencil.start_symbol or "",
        "line": line,
        "own": colour + line.removeprefix(place),
    }


Card = Callable[[StationCard], dict[str, Any]]


@singledispatch
def screen_parts(view: views.View, said: Words, art: Artwork, card: Card) -> dict[str, Any]:
    """What a screen adds to the payload besides its page (keys already in it, replaced):
    nothing, for a screen of words."""
    return {}


@screen_parts.register
def _turn(view: views.TurnView, said: Words, art: Artwork, card: Card) -> dict[str, Any]:
    return {
        "cards": [card(item) for item in view.cards],
        "earlier": [[card(item) for item in turn.cards] for turn in view.earlier],
        "deck": [card(item) for item in view.remaining],
    }


@screen_parts.register
def _pencil_pass(
    view: views.PencilPassView, said: Words, art: Artwork, card: Card
) -> dict[str, Any]:
    def swatch(colour: str) -> dict[str, str]:
        return {
            "colour": colour,
            "name": said.colour(colour),
            "hex": art.pencils.get(colour, "#888888"),
        }

    if view.solo_next:  # solo: nothing moves between seats; the row's next pencil (C-8)
        return {"passes": {"1": swatch(view.solo_next)}}
    seats = (move for move in view.moves if move.to_slot.isdigit())
    return {"passes": {move.to_slot: swatch(move.colour) for move in seats}}


def payload(
    number: int, table: views.TableView, language: str, art: Artwork, buttons: bool = False
) -> dict[str, Any]:
    said = words(language)
    view = table.view

    def card(item: StationCard) -> dict[str, Any]:
        return {
            "symbol": _symbol(item),
            "kind": item.kind.value,
            "colours": list(art.cards.get(table.city, {}).get(item.kind.value, ())),
            "label": f"{said.kind(item.kind, table.city)} · {said.face(item)}",
        }

    data: dict[str, Any] = {
        "number": number,
        "game": table.game,
        "language": language,
        "languages": {code: LANGUAGE_NAMES[code] for code in LANGUAGES},
        "words": said.phone(),
        "screen": view.screen if view is not None else "",
        "city": said.city(table.city) if table.city else "",
        "players": 0 if table.room else table.players,  # a room's phone: its table's size
        "title": "",
        "lines": [],
        "cards": [],
        "earlier": [],
        "deck": [],  # the round's cards not revealed yet, underground first (C-2, C-3)
        "pencils": [],
        "passes": {},
        "line_scoring": table.line_scoring,
        "objectives": table.objectives,  # the sheet's objectives field, only when played
        "scoring": table.scoring,
        "seats_in": list(table.seats_in),
        "line_round": table.line_round,  # a joined seat may send this round's line (issue 34)
        # the lines the box keeps, as the game went: a seat's sheet starts from its own
        "lines_in": [[seat, number, list(counts)] for seat, number, counts in table.lines],
        "buttons": buttons,  # the controller's phone may press NEXT and BACK
        "controller": getattr(view, "controller", 0) if view is not None else 0,
        "say": [],
        "room": None if table.room is None else _room(table, said, art),
    }
    if view is None:
        return data
    # what the box says for this screen, in the phone's language, with each clip's address
    data["say"] = [  # a phrase the catalogue lacks is left unsaid: the cards still go out
        {"id": i, "text": phrase_text(i, language), "url": f"/voice/{language}/{i}.ogg"}
        for i in phrase_ids(view)
        if i in CATALOGUE
    ]
    page = said.page(view)
    data["title"] = page.title
    data["lines"] = [  # the box's own buttons are no use on a phone: their hints stay home
        [line.text, line.role.value] for line in page.lines if line.role is not Role.BUTTONS
    ]
    for pencil in table.pencils:
        if pencil.slot.isdigit():
            seat = {"seat": int(pencil.slot)}
            data["pencils"].append({**seat, **_pencil(pencil, table.players, said, art)})
    data.update(screen_parts(view, said, art, card))
    return data
