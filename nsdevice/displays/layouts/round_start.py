"""The round start on bigger glass: who flips the cards, which pencil each seat takes
(C-8, C-9), the special-stations pairing (T-SP-2). A small panel draws the table instead
(`table`, `room_tables`)."""

from __future__ import annotations

from nsdevice import views
from nsdevice.displays.canvas import Canvas
from nsdevice.displays.drawing import Box
from nsdevice.displays.layouts.stack import Icon, Item, stack
from nsdevice.texts import Words
from nsdevice.texts.pages.room import room_size


def round_start(canvas: Canvas, view: views.RoundStartView, words: Words, body: Box) -> None:
    # the pencils are what players look for from across the table: start big
    stack(canvas, round_start_items(canvas, view, words), body, canvas.theme.sizes.body * 1.25)


def round_start_items(canvas: Canvas, view: views.RoundStartView, words: Words) -> list[Item]:
    """Who turns the cards, each pencil with its swatch and start, the pairing."""
    palette = canvas.theme.palette
    items: list[Item] = []
    if view.players > 1 and view.controller:  # a room's tables keep their own (C-10)
        items.append(Item(words.controller(view.controller), palette.accent, role="controller"))
    sized: list[tuple[int, views.SeatPencil | None]] = [(view.players, p) for p in view.pencils]
    for size, row in enumerate(view.room.rows if view.room else (), start=1):
        sized.append((size, None))  # a heading over each table size's row
        sized += [(size, pencil) for pencil in row]
    for players, pencil in sized:
        if pencil is None:
            items.append(Item(room_size(words, players), palette.dim, scale=0.85, role="heading"))
            continue
        table = pencil.slot.startswith("table")
        text = words.pencil_line(pencil, players)  # the start: its symbol beside (0007)
        symbol = (
            Icon("symbol", pencil.start_symbol)
            if pencil.start_symbol and not table
            else Icon("blank")
        )
        items.append(
            Item(
                text,
                palette.dim if table else palette.text,
                icons=(Icon("pencil", pencil.colour), symbol),
                max_lines=2,
                role="pencil",
            )
        )
    if view.pairing:
        items.append(Item(words.module("special_stations"), palette.dim, scale=0.85,
                          role="pairing"))  # fmt: skip
        items.append(
            Item(
                words.pairing(view.pairing),
                palette.accent_text,
                band=palette.special_badge,
                icons=(Icon("symbol", view.pairing.symbol),),
                max_lines=2,
                role="pairing",
            )
        )
    return items
