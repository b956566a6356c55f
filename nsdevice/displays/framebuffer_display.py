"""A plain Linux framebuffer (`/dev/fb0`): the HDMI build's picture where SDL's KMS/DRM
cannot start, such as the emulated Pi (QEMU's raspi3b has a framebuffer but no KMS), a
Pi whose firmware hands over only a `simple-framebuffer`, or a kernel without vc4.

The box's own painter draws into an off-screen pygame Surface (no SDL video driver at
all), an SDL blit converts it to the framebuffer's pixel format, and the bytes are
written to the device row by row at its stride. The format comes from sysfs
(/sys/class/graphics/fbN: `virtual_size`, `bits_per_pixel`, `stride`): 16 bits is
RGB565 and 32 bits XRGB8888, the two formats `simple-framebuffer` and the Pi's firmware
give. Why not SDL's kmsdrm on simpledrm: SDL's KMS/DRM back end wants GBM and an EGL
context, which simpledrm cannot give without Mesa's software renderer; that is well
over 100 MB more on the card and seconds of start on a Cortex-A53, to put the same
pixels in the same memory.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Self

import pygame

from nsdevice.displays import DisplayUnavailable
from nsdevice.displays.painted import PaintedDisplay
from nsdevice.displays.painter import Painter

DEVICE = "/dev/fb0"
SYSFS = Path("/sys/class/graphics")
FORMATS = {16: "RGB565", 32: "XRGB8888"}  # SDL's default masks at these depths


class FramebufferDisplay(PaintedDisplay):
    """The framebuffer at its own size (the screen's mode decides, not the profile)."""

    def __init__(
        self,
        *,
        device: str = DEVICE,
        sysfs: str | None = None,
        diagonal_inches: float | None = None,
    ) -> None:
        info = Path(sysfs) if sysfs is not None else SYSFS / Path(device).name
        self.size, depth, self._stride = read_geometry(info)
        if depth not in FORMATS:
            raise DisplayUnavailable(
                f"{device}: {depth} bits a pixel; only {' and '.join(FORMATS.values())} are drawn"
            )
        try:
            self._device = os.open(device, os.O_RDWR | os.O_CLOEXEC)
        except OSError as error:
            raise DisplayUnavailable(f"cannot open {device}: {error.strerror}") from None
        self._canvas = pygame.Surface(self.size)
        self._native = pygame.Surface(self.size, 0, depth)
        self._depth = depth
        self._painter = Painter(diagonal_inches=diagonal_inches)
        self._written: bytes | None = None

    @classmethod
    def open(cls, size: tuple[int, int], **options: Any) -> Self:
        return cls(**options)  # drawn at the framebuffer's own size, whatever was asked

    @property
    def pixel_format(self) -> str:
        return FORMATS[self._depth]

    @property
    def _surface(self) -> pygame.Surface:  # type: ignore[override]
        return self._canvas

    def _present(self) -> None:
        frame = self.frame()
        if frame == self._written:
            return  # the same picture: nothing to write
        os.pwrite(self._device, frame, 0)
        self._written = frame

    def frame(self) -> bytes:
        """The picture as the framebuffer holds it: rows `stride` bytes apart."""
        self._native.blit(self._canvas, (0, 0))
        raw = self._native.get_buffer().raw
        pitch = self._native.get_pitch()
        width, height = self.size
        row = width * self._depth // 8
        if pitch == self._stride:
            return bytes(raw)
        padding = bytes(self._stride - row)
        return b"".join(raw[y * pitch : y * pitch + row] + padding for y in range(height))

    def close(self) -> None:
        if self._device >= 0:
            os.close(self._device)
            self._device = -1


def read_geometry(info: Path) -> tuple[tuple[int, int], int, int]:
    """(width, height), bits a pixel and the stride in bytes, from a framebuffer's sysfs
    folder; DisplayUnavailable when it is missing or says nothing sensible."""
    try:
        width, height = (int(part) for part in _read(info / "virtual_size").split(","))
        depth = int(_read(info / "bits_per_pixel"))
        stride = int(_read(info / "stride"))
    except (OSError, ValueError) as error:
        raise DisplayUnavailable(f"no framebuffer at {info}: {error}") from None
    if width <= 0 or height <= 0 or stride < width * depth // 8:
        raise DisplayUnavailable(f"framebuffer at {info}: {width}x{height}, stride {stride}")
    return (width, height), depth, stride


def _read(path: Path) -> str:
    return path.read_text(encoding="ascii").strip()
