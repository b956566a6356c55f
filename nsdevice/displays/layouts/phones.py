"""The phones' page: a QR code of the page's address beside the words (address, join code).

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
    import segno  # late: it brings urllib, http and ssl; only this screen needs it

    matrix = segno.make(
        view.addresses[0] if view.addresses else " ", error="m", boost_error=False
    ).matrix
    modules = len(matrix) + 2 * QUIET
    side = min(h - margin, w // 2)
    cell = max(1, side // modules)
    side = cell * modules
    left, top = x + margin, y + (h - side) // 2
    pygame.draw.rect(canvas.surface, (255, 255, 255), (left, top, side, side))
    for row, bits in enumerate(matrix):
        for column, bit in enumerate(bits):
            if bit:
                rect = ((column + QUIET) * cell + left, (row + QUIET) * cell + top, cell, cell)
                pygame.draw.rect(canvas.surface, (0, 0, 0), rect)
    canvas.figures.append(Figure("qr", (left, top, side, side), "qr"))
    beside = left + side + margin
    page(canvas, view, text, (beside, y, x + w - beside, h))
