"""What an ST7789 panel would show, from the bytes on its SPI bus alone.

A model of the controller written from its datasheet's command semantics, not from any
driver's code: it reads the stream of (data/command line level, bytes) transfers and
keeps the frame memory (GRAM: 240 columns × 320 rows, RGB565) as the chip would.

- CASET (2Ah) and RASET (2Bh) set the write window: four bytes each, start and end,
  high byte first. RAMWR (2Ch) starts writing at the window's first address;
  RAMWRC (3Ch) continues where the last write stopped. The column counter runs first
  and wraps to the next row at the window's end; past the last row it wraps to the top.
- MADCTL (36h) routes the counters to the memory: MV sends the column counter to the
  physical row and the row counter to the physical column; MX then mirrors the physical
  column, MY the physical row (the datasheet's "memory data write direction" table).
  ML, RGB order and MH change only how the glass is scanned, not what it shows here.
- COLMOD (3Ah): only 16 bits per pixel (RGB565) is modelled; pixels sent in any other
  format raise `PanelError`.
- SLPOUT (11h), SLPIN (10h), DISPON (29h), DISPOFF (28h), INVON (21h), INVOFF (20h),
  SWRESET (01h) change the state the picture depends on; the many tuning commands
  (porch, gate, VCOM, power, gamma, ...) only take their parameters.

What the bytes cannot say is how the glass is mounted in the build: `seen()` takes it
as a turn. The Display HAT Mini's IPS glass shows the memory's colours only with
inversion on (its liquid crystal is dark when undriven), so `seen()` inverts unless the
controller inverts too.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy

COLUMNS = 240  # the ST7789's frame memory: 240 × 320 pixels
ROWS = 320

SWRESET = 0x01
SLPIN = 0x10
SLPOUT = 0x11
INVOFF = 0x20
INVON = 0x21
DISPOFF = 0x28
DISPON = 0x29
CASET = 0x2A
RASET = 0x2B
RAMWR = 0x2C
MADCTL = 0x36
COLMOD = 0x3A
RAMWRC = 0x3C

MY, MX, MV = 0x80, 0x40, 0x20
SPIDEV_BUFSIZ = 4096  # the Linux spidev driver's default largest transfer

# Commands that take parameters whose meaning does not reach the picture here.
TUNING = {0xB0, 0xB2, 0xB7, 0xBB, 0xC0, 0xC2, 0xC3, 0xC4, 0xC6, 0xD0, 0xE0, 0xE1, 0x35, 0x13}


class PanelError(ValueError):
    """The stream asks for something a real panel would not do as the sender meant."""


@dataclass
class Panel:
    gram: numpy.ndarray = field(default_factory=lambda: numpy.zeros((ROWS, COLUMNS), "uint16"))
    madctl: int = 0
    colmod: int = 0x66  # the datasheet's reset value: 18 bits per pixel
    asleep: bool = True
    on: bool = False
    inverted: bool = False
    columns: tuple[int, int] = (0, COLUMNS - 1)  # CASET's start and end
    rows: tuple[int, int] = (0, ROWS - 1)  # RASET's start and end
    command: int | None = None
    parameters: bytearray = field(default_factory=bytearray)
    pixels_written: int = 0  # since the last RAMWR: where RAMWRC goes on
    bytes_of_pixels: int = 0  # every pixel byte ever received (what the bus carried)
    _carry: bytes = b""  # half a pixel left at the end of a transfer

    # --- the bus -------------------------------------------------------------------------
    def feed(self, is_data: bool, chunk: bytes) -> None:
        if not is_data:
            for byte in chunk:
                self._command(byte)
            return
        if self.command in (RAMWR, RAMWRC):
            self._pixels(chunk)
            return
        self.parameters.extend(chunk)
        self._parameters()

    def _command(self, byte: int) -> None:
        self.command = byte
        self.parameters = bytearray()
        self._carry = b""
        if byte == SWRESET:
            self.__init__()  # every register back to its reset value
        elif byte == SLPOUT:
            self.asleep = False
        elif byte == SLPIN:
            self.asleep = True
        elif byte == DISPON:
            self.on = True
        elif byte == DISPOFF:
            self.on = False
        elif byte == INVON:
            self.inverted = True
        elif byte == INVOFF:
            self.inverted = False
        elif byte == RAMWR:
            self.pixels_written = 0
        elif byte not in (CASET, RASET, MADCTL, COLMOD, RAMWRC, *TUNING):
            raise PanelError(f"command {byte:#04x} is not one this model knows")

    def _parameters(self) -> None:
        given = self.parameters
        if self.command in (CASET, RASET) and len(given) >= 4:
            start, end = (given[0] << 8) | given[1], (given[2] << 8) | given[3]
            if start > end:
                raise PanelError(f"window {start}..{end}: start after end")
            if self.command == CASET:
                self.columns = (start, end)
            else:
                self.rows = (start, end)
        elif self.command == MADCTL and given:
            self.madctl = given[0]
        elif self.command == COLMOD and given:
            self.colmod = given[0]

    def _pixels(self, chunk: bytes) -> None:
        if self.colmod & 0x07 != 0x05:
            raise PanelError(f"pixels sent with COLMOD {self.colmod:#04x}, not 16 bits")
        data = self._carry + chunk
        whole = len(data) - len(data) % 2
        self._carry = data[whole:]
        count = whole // 2
        if not count:
            return
        self.bytes_of_pixels += whole
        values = numpy.frombuffer(data[:whole], ">u2")
        first_column, last_column = self.columns
        first_row, last_row = self.rows
        width = last_column - first_column + 1
        height = last_row - first_row + 1
        index = numpy.arange(self.pixels_written, self.pixels_written + count)
        x = first_column + index % width
        y = first_row + (index // width) % height
        self.pixels_written += count
        column, row = (y, x) if self.madctl & MV else (x, y)
        if self.madctl & MX:
            column = COLUMNS - 1 - column
        if self.madctl & MY:
            row = ROWS - 1 - row
        if column.min() < 0 or column.max() >= COLUMNS or row.min() < 0 or row.max() >= ROWS:
            raise PanelError(
                f"window columns {self.columns}, rows {self.rows} with MADCTL "
                f"{self.madctl:#04x} falls outside the {COLUMNS}x{ROWS} memory"
            )
        self.gram[row, column] = values

    # --- the glass -----------------------------------------------------------------------
    def seen(self, width: int, height: int, turn: int) -> numpy.ndarray:
        """The picture (height × width × 3, 8-bit RGB) a viewer sees on glass showing
        the memory of a `width` × `height` landscape panel (memory rows become the
        viewer's columns, as MV=1 writes them) and mounted turned by `turn` degrees
        clockwise. Black while asleep or off."""
        if self.asleep or not self.on:
            return numpy.zeros((height, width, 3), "uint8")
        memory = self.gram[:width, :height]
        if not self.inverted:  # the IPS glass inverts: correct colours need INVON
            memory = ~memory
        landscape = numpy.rot90(memory, 1)  # MV|MX: the memory stands on its side
        picture = numpy.rot90(landscape, -turn // 90)
        return rgb565_to_rgb(picture)


def rgb565_to_rgb(values: numpy.ndarray) -> numpy.ndarray:
    """RGB565 words → 8-bit RGB, each channel's top bits repeated into the low ones."""
    values = values.astype("uint32")
    red = (values >> 11) & 0x1F
    green = (values >> 5) & 0x3F
    blue = values & 0x1F
    return numpy.stack(
        [(red << 3) | (red >> 2), (green << 2) | (green >> 4), (blue << 3) | (blue >> 2)],
        axis=-1,
    ).astype("uint8")


def quantised(rgb: numpy.ndarray) -> numpy.ndarray:
    """An 8-bit RGB picture as it comes back from RGB565 (what any panel can show)."""
    rgb = rgb.astype("uint32")
    words = ((rgb[..., 0] >> 3) << 11) | ((rgb[..., 1] >> 2) << 5) | (rgb[..., 2] >> 3)
    return rgb565_to_rgb(words)


@dataclass
class Bus:
    """The fake hardware under the real `st7789` library: every SPI transfer with the
    data/command line's level at that moment, and every GPIO line's levels."""

    pins: dict[int, list[bool]] = field(default_factory=dict)
    transfers: list[tuple[bool, bytes]] = field(default_factory=list)
    data_command_pin: int | None = None
    spi: tuple[int, int] | None = None
    speed_hz: int | None = None

    def level(self, pin: int) -> bool:
        return self.pins[pin][-1]

    def panel(self, start: int = 0, panel: Panel | None = None) -> Panel:
        """Play the transfers from `start` into a panel (a fresh one by default)."""
        panel = Panel() if panel is None else panel
        for is_data, chunk in self.transfers[start:]:
            panel.feed(is_data, chunk)
        return panel

    def bytes_sent(self, start: int = 0) -> int:
        """Every byte on the bus since transfer `start`: commands, parameters, pixels."""
        return sum(len(chunk) for _is_data, chunk in self.transfers[start:])

    def pixel_bytes(self, start: int = 0) -> int:
        """The bytes since transfer `start` that were pixels (data after RAMWR/RAMWRC)."""
        count, writing = 0, False
        for is_data, chunk in self.transfers[start:]:
            if not is_data:
                writing = chunk[-1:] in (bytes([RAMWR]), bytes([RAMWRC]))
            elif writing:
                count += len(chunk)
        return count


@contextlib.contextmanager
def fake_hardware() -> Iterator[Bus]:
    """Put a recording `Bus` under the `st7789` library (its spidev and gpiod lines)."""
    import st7789

    bus = Bus()

    class Lines:
        def __init__(self, pin: int) -> None:
            self.pin = pin
            bus.pins[pin] = [False]

        def set_value(self, offset: int, value: object) -> None:
            bus.pins[self.pin].append(value == st7789.Value.ACTIVE)

    def get_pin(pin: int, label: str, settings: object) -> tuple[Lines, int]:
        if label == "st7789-dc":
            bus.data_command_pin = pin
        return (Lines(pin), 0)

    class SpiDev:
        def __init__(self, port: int, chip_select: int) -> None:
            bus.spi = (port, chip_select)

        @property
        def max_speed_hz(self) -> int | None:
            return bus.speed_hz

        @max_speed_hz.setter
        def max_speed_hz(self, value: int) -> None:
            bus.speed_hz = value

        def xfer(self, data: bytes) -> list[int]:
            assert bus.data_command_pin is not None
            bus.transfers.append((bus.level(bus.data_command_pin), bytes(data)))
            return [0] * len(data)

        def writebytes2(self, data: bytes) -> None:
            # py-spidev writes a buffer in pieces of the driver's bufsiz (4096 by default)
            assert bus.data_command_pin is not None
            level = bus.level(bus.data_command_pin)
            for start in range(0, len(data), SPIDEV_BUFSIZ):
                bus.transfers.append((level, bytes(data[start : start + SPIDEV_BUFSIZ])))

    saved = (st7789.spidev.SpiDev, st7789.gpiodevice.get_pin, st7789.time.sleep)
    st7789.spidev.SpiDev = SpiDev
    st7789.gpiodevice.get_pin = get_pin
    st7789.time.sleep = lambda seconds: None  # resets and settling
    try:
        yield bus
    finally:
        st7789.spidev.SpiDev, st7789.gpiodevice.get_pin, st7789.time.sleep = saved
