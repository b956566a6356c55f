"""The round start: who flips the cards, which pencil each seat takes (C-8, C-9), the
special-stations pairing (T-SP-2)."""

from __future__ import annotations

from nsdevice import views
from nsdevice.displays.canvas import Canvas
from nsdevice.displays.drawing import Box
from nsdevice.displays.layouts.small_turn import is_small
from nsdevice.displays.layouts.stack import Icon, Item, stack
from nsdevice.texts import Words
from nsdevice.texts.pages.room import room_size


def round_start(canvas: Canvas, view: views.RoundStartView, words: Words, body: Box) -> None:
    # the pencils are what players look for from across the table: start big
    stack(canvas, round_start_items(canvas, view, words), body, canvas.theme.sizes.body * 1.25)


def round_start_items(canvas: Canvas, view: views.RoundStartView, words: Words) -> list[Item]:
    """Who turns the cards, each pencil with its swatch and start, the pairing."""
    palette = canvas.theme.palette
    length = 1.4 if is_small(canvas) else 2.4  # a short pencil leaves the words a line
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
                icons=(Icon("pencil", pencil.colour, length=length), symbol),
                max_lines=2,
                role="pencil",
            )
        )
    if view.pairing:
        items.append(
            # a heading, smaller, except where smaller would not read (a 2-inch panel)
            Item(
                words.module("special_stations"),
                palette.dim,
                scale=1.0 if is_small(canvas) else 0.85,
                role="heading" if is_small(canvas) else "pairing",
            )
        )
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


def module_items(canvas: Canvas, view: views.RoundStartView, words: Words) -> list[Item]:
    """The module cards face up all game (C-11, P-CG-1), each under its module's name,
    for the round start of a panel that has no room for them beside the turn; pencil
    powers are on the pencils' own lines (L-PP)."""
    palette = canvas.theme.palette
    cards = view.module_cards
    items: list[Item] = []
    if cards.objectives:
        items.append(Item(words.module("objectives"), palette.dim, role="heading"))
        items += [
            Item(words.objective(view.city, name), palette.text, role="objective")
            for name in cards.objectives
        ]
    if cards.city_gates:
        items.append(Item(words.module("city_gates"), palette.dim, role="heading"))
        for corner, bonus in cards.city_gates:
            gate = words.labelled(words.corner(corner), words.bonus(bonus))
            items.append(Item(gate, palette.text, role="city-gate"))
    return items
