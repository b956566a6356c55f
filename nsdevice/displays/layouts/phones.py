"""The phones' page: a QR code of the page's address beside the words (address, join code);
before it, while the box has its own Wi-Fi up, a Wi-Fi QR code of that network.

The QR code comes from segno's module matrix, drawn here as squares on a white quiet
zone, so it is as sharp as the panel allows and scans from across the table.
"""

from __future__ import annotations

import pygame

from nsdevice import views
from nsdevice.displays.canvas import Canvas
from nsdevice.displays.drawing import Box, Figure
from nsdevice.displays.layouts.page import page
from nsdevice.texts import Page

QUIET = 2  # modules of white round the code (scanners need some; the panel's edge is dark)


def phones(canvas: Canvas, view: views.PhonesView, text: Page, body: Box) -> None:
    x, y, w, h = body
    margin = canvas.margin()
    side = min(h - margin, w // 2)
    drawn = qr_code(canvas, qr_content(view), (x + margin, y, side, h))
    beside = drawn[0] + drawn[2] + margin
    page(canvas, view, text, (beside, y, x + w - beside, h))


def qr_content(view: views.PhonesView) -> str:
    """What the code says: the box's own Wi-Fi first (phones join it), else the page."""
    if view.step == "wifi" and view.hotspot is not None:
        return view.hotspot.qr_payload()
    return view.addresses[0] if view.addresses else " "


def qr_code(canvas: Canvas, address: str, box: Box) -> Box:
    """`address` as a QR code, as big as `box` allows in whole pixels a module, at its
    left and centred from top to bottom; returns where it was drawn."""
    import segno  # late: it brings urllib, http and ssl; only this screen needs it

    x, y, w, h = box
    matrix = segno.make(address, error="m", boost_error=False).matrix
    modules = len(matrix) + 2 * QUIET
    cell = max(1, min(w, h) // modules)
    side = cell * modules
    left, top = x, y + (h - side) // 2
    pygame.draw.rect(canvas.surface, (255, 255, 255), (left, top, side, side))
    for row, bits in enumerate(matrix):
        for column, bit in enumerate(bits):
            if bit:
                rect = ((column + QUIET) * cell + left, (row + QUIET) * cell + top, cell, cell)
                pygame.draw.rect(canvas.surface, (0, 0, 0), rect)
    canvas.figures.append(Figure("qr", (left, top, side, side), "qr"))
    return (left, top, side, side)
