"""The round start: who flips the cards, which pencil each seat takes (C-8, C-9), the
special-stations pairing (T-SP-2)."""

from __future__ import annotations

from nsdevice import views
from nsdevice.displays.canvas import Canvas
from nsdevice.displays.drawing import Box
from nsdevice.displays.layouts.small_turn import is_small
from nsdevice.displays.layouts.stack import Icon, Item, stack
from nsdevice.texts import Words


def round_start(canvas: Canvas, view: views.RoundStartView, words: Words, body: Box) -> None:
    palette = canvas.theme.palette
    items: list[Item] = []
    if view.players > 1:
        items.append(Item(words.controller(view.controller), palette.accent, role="controller"))
    for pencil in view.pencils:
        table = pencil.slot.startswith("table")
        text = words.pencil_line(pencil, view.players)
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
        items.append(
            # a heading, smaller, except where smaller would not read (a 2-inch panel)
            Item(
                words.module("special_stations"),
                palette.dim,
                scale=1.0 if is_small(canvas) else 0.85,
                role="pairing",
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
    # the pencils are what players look for from across the table: start big
    stack(canvas, items, body, canvas.theme.sizes.body * 1.25)
