"""The plain-framebuffer display (the emulated Pi's HDMI picture) over a fake fb0: a
sysfs folder saying the geometry and a file standing for the device's memory."""

from __future__ import annotations

import struct
from pathlib import Path

import pygame
import pytest

from nsdevice.displays import Display, DisplayUnavailable
from nsdevice.displays.framebuffer_display import FramebufferDisplay
from nsdevice.gallery import example_views
from nsdevice.hardware import backends

CITY = "london"


def fake_framebuffer(
    tmp_path: Path, width: int, height: int, depth: int, stride: int
) -> tuple[str, str]:
    info = tmp_path / "fb0"
    info.mkdir()
    (info / "virtual_size").write_text(f"{width},{height}\n")
    (info / "bits_per_pixel").write_text(f"{depth}\n")
    (info / "stride").write_text(f"{stride}\n")
    device = tmp_path / "dev-fb0"
    device.write_bytes(bytes(stride * height))
    return str(device), str(info)


def pixel_in_file(memory: bytes, depth: int, stride: int, x: int, y: int) -> tuple[int, int, int]:
    at = y * stride + x * depth // 8
    if depth == 16:
        (word,) = struct.unpack_from("<H", memory, at)
        return ((word >> 11) & 0x1F, (word >> 5) & 0x3F, word & 0x1F)
    blue, green, red, _ = memory[at : at + 4]
    return (red, green, blue)


def expected(colour: pygame.Color, depth: int) -> tuple[int, int, int]:
    if depth == 16:
        return (colour.r >> 3, colour.g >> 2, colour.b >> 3)
    return (colour.r, colour.g, colour.b)


@pytest.mark.parametrize(
    ("depth", "stride", "name"),
    [(16, 1280, "RGB565"), (32, 2560, "XRGB8888"), (16, 1344, "RGB565")],  # last: padded rows
)
def test_the_painted_picture_reaches_the_framebuffer_in_its_format(tmp_path, depth, stride, name):
    device, info = fake_framebuffer(tmp_path, 640, 480, depth, stride)
    display = FramebufferDisplay(device=device, sysfs=info)
    assert display.size == (640, 480) and display.pixel_format == name
    view = example_views(CITY)[0][1]
    display.show(view)
    memory = Path(device).read_bytes()
    assert len(memory) == stride * 480  # written in place, nothing beyond the screen
    canvas = display._surface
    colours = set()
    for y in range(0, 480, 37):
        for x in range(0, 640, 41):
            colour = canvas.get_at((x, y))
            colours.add(tuple(colour)[:3])
            assert pixel_in_file(memory, depth, stride, x, y) == expected(colour, depth), (x, y)
    assert len(colours) > 1  # a real picture, not one flat fill
    display.close()


def test_an_unchanged_picture_is_not_written_again(tmp_path):
    device, info = fake_framebuffer(tmp_path, 320, 240, 16, 640)
    display = FramebufferDisplay(device=device, sysfs=info)
    view = example_views(CITY)[0][1]
    display.show(view)
    Path(device).write_bytes(bytes(640 * 240))  # something else drew over it
    display.show(view)
    assert Path(device).read_bytes() == bytes(640 * 240)
    display.show(example_views(CITY)[1][1])
    assert Path(device).read_bytes() != bytes(640 * 240)
    display.close()


def test_a_format_it_cannot_draw_is_refused_in_one_line(tmp_path):
    device, info = fake_framebuffer(tmp_path, 640, 480, 24, 1920)
    with pytest.raises(DisplayUnavailable, match="24 bits"):
        FramebufferDisplay(device=device, sysfs=info)


def test_no_framebuffer_is_refused_in_one_line(tmp_path):
    with pytest.raises(DisplayUnavailable, match="no framebuffer"):
        FramebufferDisplay(device=str(tmp_path / "fb9"), sysfs=str(tmp_path / "missing"))
    device, info = fake_framebuffer(tmp_path, 64, 48, 16, 128)
    Path(device).unlink()
    with pytest.raises(DisplayUnavailable, match="cannot open"):
        FramebufferDisplay(device=device, sysfs=info)


def test_the_framebuffer_is_a_display_a_profile_may_name():
    backend = backends.DISPLAYS["framebuffer"]
    assert backend.in_profiles
    assert backend.load(Display) is FramebufferDisplay
    assert "framebuffer" not in backends.WINDOWS  # its buttons come from an input
