"""Stand-in for MicroPython's `neopixel` module (test-only): logs what the pixel shows."""

import machine


class NeoPixel:
    def __init__(self, pin, count):
        self.pin = pin
        self._pixels = [(0, 0, 0)] * count

    def __setitem__(self, index, colour):
        self._pixels[index] = colour

    def write(self):
        red, green, blue = self._pixels[0]
        machine.log_led(red, green, blue)
