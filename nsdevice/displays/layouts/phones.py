"""The phones' page: a QR code of the page's address beside the words (address, join code);
before it, while the box has its own Wi-Fi up, a Wi-Fi QR code of that network.

The QR code comes from segno's module matrix, drawn here as squares on a white quiet
zone, so it is as sharp as the panel allows and scans from across the table.
"""

from __future__ import annotations

from nsdevice import views
from nsdevice.displays.canvas import Canvas
from nsdevice.displays.drawing import Box, Figure
from nsdevice.displays.layouts.page import page
from nsdevice.texts import Page


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
    x, y, w, h = box
    cell = max(1, min(w, h) // canvas.codes.modules(address))
    image = canvas.codes.image(address, cell)
    side = image.get_width()
    left, top = x, y + (h - side) // 2
    canvas.surface.blit(image, (left, top))
    canvas.figures.append(Figure("qr", (left, top, side, side), "qr"))
    return (left, top, side, side)
