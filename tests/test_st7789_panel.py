"""The Display HAT Mini's panel through Pimoroni's real `st7789` library.

Only the hardware under the library is fake: its SPI device (`spidev.SpiDev`) and its
GPIO lines (`gpiodevice.get_pin`). What reaches the fake bus is checked against the
library's own image conversion, so our RGB565 frame and rotation are what the library
itself would send.
"""

from __future__ import annotations

import pygame
import pytest
from panel_library import st7789  # skips this module where the library is absent

from nsdevice.displays.st7789_display import St7789Display
from nsdevice.gallery import example_views
from nsdevice.hardware.profiles import load_profile

RAMWR = 0x2C  # the panel's "write what follows into the picture" command


class Bus:
    """Everything the library did to the fake hardware, in order."""

    def __init__(self) -> None:
        self.pins: dict[int, list[bool]] = {}
        self.transfers: list[tuple[bool, bytes]] = []  # (data/command line high, bytes)
        self.data_command_pin: int | None = None

    def level(self, pin: int) -> bool:
        return self.pins[pin][-1]


@pytest.fixture
def bus(monkeypatch) -> Bus:
    bus = Bus()

    class Lines:
        def __init__(self, pin: int) -> None:
            self.pin = pin
            bus.pins[pin] = [False]

        def set_value(self, offset: int, value) -> None:
            bus.pins[self.pin].append(value == st7789.Value.ACTIVE)

    def get_pin(pin, label, settings):
        if label == "st7789-dc":
            bus.data_command_pin = pin
        return (Lines(pin), 0)

    class SpiDev:
        def __init__(self, port: int, chip_select: int) -> None:
            bus.spi = (port, chip_select)

        def xfer(self, data) -> list[int]:
            bus.transfers.append((bus.level(bus.data_command_pin), bytes(data)))
            return [0] * len(data)

        def writebytes2(self, data) -> None:  # py-spidev: pieces of the driver's bufsiz
            level = bus.level(bus.data_command_pin)
            for start in range(0, len(data), 4096):
                bus.transfers.append((level, bytes(data[start : start + 4096])))

    monkeypatch.setattr(st7789.spidev, "SpiDev", SpiDev)
    monkeypatch.setattr(st7789.gpiodevice, "get_pin", get_pin)
    monkeypatch.setattr(st7789.time, "sleep", lambda seconds: None)  # resets and settling
    return bus


def hat_display() -> St7789Display:
    spec = load_profile("display-hat-mini").display
    return St7789Display(
        spi_port=spec.spi_port, spi_chip_select=spec.spi_chip_select,
        data_command_pin=spec.data_command_pin, backlight_pin=spec.backlight_pin,
        rotation=spec.rotation, spi_speed_hz=spec.spi_speed_hz,
        width=spec.width, height=spec.height,
    )  # fmt: skip


def last_picture(bus: Bus) -> bytes:
    """The bytes sent as data after the last RAMWR command."""
    command = bytes([RAMWR])
    start = max(i for i, (data, sent) in enumerate(bus.transfers) if not data and sent == command)
    return b"".join(sent for data, sent in bus.transfers[start + 1 :] if data)


def test_a_frame_reaches_the_spi_bus_as_the_library_would_send_it(bus):
    display = hat_display()
    spec = load_profile("display-hat-mini").display
    assert bus.spi == (spec.spi_port, spec.spi_chip_select)
    assert bus.data_command_pin == spec.data_command_pin
    view = dict(example_views("tokyo", "en", display.size))["turn"]
    display.show(view)
    sent = last_picture(bus)
    assert len(sent) == spec.width * spec.height * 2  # RGB565
    assert sent == display.frame()
    # the library's own conversion of the same picture, at the profile's rotation
    import numpy

    picture = numpy.transpose(pygame.surfarray.array3d(display._canvas), (1, 0, 2))
    assert sent == display._panel.image_to_data(picture, spec.rotation)
    assert all(len(chunk) <= 4096 for data, chunk in bus.transfers if data)


def test_backlight_follows_brightness_and_goes_dark_on_close(bus):
    display = hat_display()
    backlight = load_profile("display-hat-mini").display.backlight_pin
    assert bus.level(backlight) is True  # the library lights it at start
    display.set_brightness(0)
    assert bus.level(backlight) is False
    display.set_brightness(3)
    assert bus.level(backlight) is True
    display.close()
    assert bus.level(backlight) is False


def test_between_frames_the_display_keeps_one_whole_picture_the_canvas(bus):
    """Issue 35: a push converts only its windows, so the whole picture in the panel's
    16 bits is made for `frame()` (screenshots, checks) and let go: 150 kB the box used to
    hold for nothing. The canvas is the one whole picture kept, and `frame()` still gives
    what went over the bus."""
    display = hat_display()
    view = dict(example_views("tokyo", "en", display.size))["turn"]
    display.show(view)
    assert last_picture(bus) == display.frame()
    whole = [
        value
        for value in vars(display).values()
        if isinstance(value, pygame.Surface) and value.get_size() == display.size
    ]
    assert whole == [display._canvas]


def test_a_push_finds_what_changed_in_the_picture_itself_and_keeps_one_copy(bus):
    """Issue 35: the push compared the picture with what was sent through a fresh copy of
    the whole picture each time (300 kB on the 2-inch panel, two frames held at once). It
    now reads the canvas in place and rewrites one kept copy: a push allocates nothing
    frame-sized, the copy stays the same object, and the bus still gets the picture."""
    import tracemalloc

    display = hat_display()
    views = dict(example_views("tokyo", "en", display.size))
    for name in ("turn", "turn-joker", "turn"):  # both drawn once: their layouts are known
        display.show(views[name])
    kept = display._sent
    assert kept is not None and len(kept) == display._canvas.get_pitch() * display.size[1]
    frame_bytes = len(kept)
    bus.transfers.clear()
    tracemalloc.start()
    try:
        display.show(views["turn-joker"])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert display._sent is kept  # rewritten in place
    assert bytes(kept) == bytes(display._canvas.get_buffer().raw)
    on_the_bus = sum(len(sent) for _, sent in bus.transfers)  # what the fake bus keeps
    assert on_the_bus > 0  # the change went out
    assert peak - on_the_bus < frame_bytes / 2, peak  # and no copy of the whole picture


def test_a_push_turned_a_half_asks_nothing_of_pygame_image(bus, monkeypatch):
    """Issue 35: the panel's windows, turned a half for the HAT, were seen as 8-bit
    pictures through `pygame.image.frombuffer`, which loaded pygame.image into the box
    (0.1 MB, and its library's pages) for that alone. They are copied into a surface of
    their own now, and the bus gets the same bytes as the whole frame says."""

    class Unloaded:
        def __getattr__(self, name: str) -> object:
            raise AssertionError(f"pygame.image.{name} asked by the panel's push")

    display = hat_display()
    assert display._rotation == 180  # the HAT's own turn: the path this covers
    monkeypatch.setattr(pygame, "image", Unloaded())
    view = dict(example_views("tokyo", "en", display.size))["turn"]
    display.show(view)
    assert last_picture(bus) == display.frame()
