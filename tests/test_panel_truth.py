"""What the panel would show, decoded from the bytes on its SPI bus.

Every screen goes through the real `st7789` library over a fake SPI device (only the
hardware under the library is fake); `panel_model` replays the captured stream as the
controller would and the picture it holds must equal the painter's own render, pixel
for pixel after the RGB565 quantisation both go through. Frames go out as windows
around what changed, so the panel must stay right after any sequence of screens.
"""

from __future__ import annotations

import functools
import random

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from panel_library import numpy, st7789  # skips this module where the library is absent
from panel_model import Bus, Panel, PanelError, fake_hardware, quantised

from nsdevice.displays.st7789_display import St7789Display
from nsdevice.gallery import example_views
from nsdevice.hardware.profiles import ROTATIONS, list_profiles, load_profile
from nsdevice.inputs.events import Press
from nsdevice.session import Session, Settings

CITIES = ("tokyo", "paris", "london")


def st7789_profiles() -> list[tuple[str, int, int, int]]:
    """(profile, width, height, rotation) of every known profile with an SPI panel."""
    found = []
    for name in list_profiles():
        display = load_profile(name).display
        if display.kind == "st7789":
            found.append((name, display.width, display.height, display.rotation))
    return found


PROFILES = st7789_profiles()
# Every rotation the loader lets a profile choose, at the panel sizes that allow it
# (90 and 270 only for square panels): a new profile can pick any of them.
OTHER_SETTINGS = [(320, 240, rotation) for rotation in ROTATIONS if rotation in (0, 180)] + [
    (240, 240, rotation) for rotation in ROTATIONS
]


def painted(display: St7789Display) -> numpy.ndarray:
    """The painter's own picture (height × width × 3), as RGB565 can carry it."""
    return quantised(numpy.transpose(pygame.surfarray.array3d(display._canvas), (1, 0, 2)))


class Watched:
    """A display on the fake bus, and the panel the bus's bytes have built so far."""

    def __init__(self, bus: Bus, width: int, height: int, rotation: int) -> None:
        self.bus = bus
        self.width, self.height, self.rotation = width, height, rotation
        self.display = St7789Display(width=width, height=height, rotation=rotation)
        self.panel = Panel()
        self._read = 0

    def catch_up(self) -> None:
        self.bus.panel(self._read, self.panel)
        self._read = len(self.bus.transfers)

    def seen(self) -> numpy.ndarray:
        self.catch_up()
        return self.panel.seen(self.width, self.height, self.rotation)

    def show(self, view) -> None:
        self.display.show(view)
        assert numpy.array_equal(self.seen(), painted(self.display)), view.screen


@functools.cache
def gallery(city: str, size: tuple[int, int]) -> tuple:
    return tuple(view for _name, view in example_views(city, "en", size))


def test_the_library_starts_the_panel_awake_in_16_bit_colour():
    with fake_hardware() as bus:
        St7789Display(width=320, height=240, rotation=180)
    panel = bus.panel()
    assert not panel.asleep and panel.on and panel.inverted
    assert panel.colmod & 0x07 == 0x05


@pytest.mark.parametrize(("profile", "width", "height", "rotation"), PROFILES)
def test_every_screen_of_every_city_decodes_to_the_painters_picture(
    profile, width, height, rotation
):
    with fake_hardware() as bus:
        watched = Watched(bus, width, height, rotation)
        spec = load_profile(profile).display
        assert bus.spi == (spec.spi_port, spec.spi_chip_select)
        assert bus.speed_hz == spec.spi_speed_hz
        for city in CITIES:
            for view in gallery(city, watched.display.size):
                watched.show(view)


@pytest.mark.parametrize(("width", "height", "rotation"), OTHER_SETTINGS)
def test_every_screen_decodes_right_at_every_rotation_a_profile_may_choose(width, height, rotation):
    with fake_hardware() as bus:
        watched = Watched(bus, width, height, rotation)
        for view in gallery("paris", watched.display.size):
            watched.show(view)


def test_a_first_frame_goes_out_whole_and_an_unchanged_one_not_at_all():
    with fake_hardware() as bus:
        watched = Watched(bus, 320, 240, 180)
        views = gallery("tokyo", watched.display.size)
        started = len(bus.transfers)
        watched.show(views[0])
        whole = 320 * 240 * 2
        assert bus.pixel_bytes(started) == whole
        again = len(bus.transfers)
        watched.display.show(views[0])
        assert len(bus.transfers) == again
        watched.show(views[1])
        assert 0 < bus.pixel_bytes(again) < whole


def test_a_whole_game_keeps_the_panel_right_while_sending_less():
    rng = random.Random(13)
    session = Session(Settings(city="london"), seed_source=lambda: "PANEL")
    # the setup screen: cursor down to players, make it solo (2, 3, 4, a room, 1), down
    # round to start (London draws the solo pencil order: no row for it, C-8), start
    script = ["next", "next", "menu", "menu", "menu", "menu"] + ["next"] * 7 + ["menu"]
    with fake_hardware() as bus:
        watched = Watched(bus, 320, 240, 180)
        watched.show(session.view())
        sent = []
        while session.view().screen != "result":
            view = session.view()
            if script:
                word = script.pop(0)
            elif view.screen == "score_entry":
                word = "next" if view.value < 2 else "menu"
            else:
                word = "back" if view.screen == "turn" and rng.random() < 0.1 else "next"
            session.press(Press.parse(word))
            before = len(bus.transfers)
            watched.show(session.view())
            sent.append(bus.bytes_sent(before))
            assert len(sent) < 400, "the game did not end"
    whole = 320 * 240 * 2
    assert max(sent) <= whole + 64  # a frame, a window and its commands at most
    assert sorted(sent)[len(sent) // 2] < whole  # most presses send less


@settings(max_examples=25, deadline=None)
@given(
    steps=st.lists(
        st.one_of(st.integers(0, 46), st.sampled_from(["dim", "dark", "bright"])),
        min_size=1,
        max_size=12,
    ),
    rotation=st.sampled_from([0, 180]),
)
def test_any_sequence_of_screens_and_brightness_leaves_the_whole_right_picture(steps, rotation):
    with fake_hardware() as bus:
        watched = Watched(bus, 320, 240, rotation)
        views = gallery("tokyo", watched.display.size)
        level = 5
        for step in steps:
            if step == "dim":
                level = 2
            elif step == "dark":
                level = 0
            elif step == "bright":
                level = 5
            if isinstance(step, str):
                watched.display.set_brightness(level)
            elif level == 5:
                watched.show(views[step % len(views)])
            else:
                watched.display.show(views[step % len(views)])
        watched.display.set_brightness(5)
        if watched.display.drawing is not None:
            assert numpy.array_equal(watched.seen(), painted(watched.display))


# --- the model itself can tell a wrong picture ------------------------------------------


def library_panel(bus: Bus, **settings) -> st7789.ST7789:
    options = {"port": 0, "cs": 1, "dc": 9, "width": 320, "height": 240} | settings
    return st7789.ST7789(**options)


def test_the_model_reads_the_librarys_own_image_path_at_each_rotation():
    picture = numpy.random.default_rng(5).integers(0, 256, (240, 320, 3), dtype="uint8")
    for rotation in (0, 180):
        with fake_hardware() as bus:
            library_panel(bus, rotation=rotation).display(picture)
        assert numpy.array_equal(bus.panel().seen(320, 240, rotation), quantised(picture))


def test_the_model_sees_a_picture_upside_down_or_not_inverted_as_wrong():
    picture = numpy.random.default_rng(6).integers(0, 256, (240, 320, 3), dtype="uint8")
    with fake_hardware() as bus:
        library_panel(bus, rotation=180).display(picture)
    assert not numpy.array_equal(bus.panel().seen(320, 240, 0), quantised(picture))
    with fake_hardware() as bus:
        library_panel(bus, rotation=0, invert=False).display(picture)
    assert numpy.array_equal(bus.panel().seen(320, 240, 0), 255 - quantised(picture))


def test_the_model_refuses_pixels_outside_its_memory_or_in_another_format():
    panel = Panel()
    panel.feed(False, bytes([0x3A]))
    panel.feed(True, bytes([0x55]))
    panel.feed(False, bytes([0x2A]))
    panel.feed(True, bytes([0, 0, 1, 0x40]))  # columns 0..320: one past the memory
    panel.feed(False, bytes([0x2C]))
    with pytest.raises(PanelError):
        panel.feed(True, bytes(642))
    panel = Panel()
    panel.feed(False, bytes([0x2C]))
    with pytest.raises(PanelError):
        panel.feed(True, bytes(2))  # still the reset colour format, 18 bits


def test_an_asleep_or_dark_panel_shows_black():
    panel = Panel()
    assert not panel.seen(320, 240, 0).any()


def test_the_changed_windows_are_the_tightest_boxes_around_each_band_of_changes():
    from nsdevice.displays.dirty import Window, changed_windows, window_bytes

    width, height = 7, 30
    before = bytes(width * height * 2)
    assert changed_windows(None, before, width, height) == [Window(0, 0, 6, 29)]
    assert changed_windows(before, before, width, height) == []
    after = bytearray(before)
    for x, y in ((2, 1), (5, 3), (4, 25)):
        after[(y * width + x) * 2 + 1] = 9
    near, far = changed_windows(before, bytes(after), width, height)
    assert near == Window(2, 1, 5, 3)  # rows 1 and 3: one band, the gap is small
    assert far == Window(4, 25, 4, 25)
    assert len(window_bytes(bytes(after), width, near)) == 4 * 3 * 2
