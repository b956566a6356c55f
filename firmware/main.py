"""MicroPython entry point for the nsdevice button board (Raspberry Pi Pico or Pico W).

MicroPython runs this file at every boot. It wires real pins and the LED to the
pure logic in board.py and moves bytes between it and the USB serial port.
"""

import select
import sys
import time

import board
import micropython
from machine import PWM, Pin, reset

# GPIO numbers (GPn, not the physical pin numbers): keep in step with the wiring
# table in firmware/README.md.
BUTTON_PINS = (2, 3, 4, 5)  # NEXT, BACK, MENU, spare; each to GND, internal pull-up
LED_KIND = "rgb"  # "rgb": one WS2812 on LED_PIN; "mono": plain LED on LED_PIN;
#                   "onboard": the Pico's own LED; "none"
LED_PIN = 16

POLL_MS = 5  # longest wait for host bytes before the buttons are read again
READ_BUDGET = 64  # bytes taken per pass, so a flood from the host cannot starve the buttons
# Passes in a row that may fail before the board restarts itself: one odd fault is
# reported and lived with, a fault that keeps coming gets a clean start instead.
FAULT_LIMIT = 20


class RgbLed:
    kind = board.LED_RGB

    def __init__(self, gpio):
        import neopixel  # only boards with the WS2812 need the module

        self._pixel = neopixel.NeoPixel(Pin(gpio, Pin.OUT), 1)

    def show(self, red, green, blue):
        self._pixel[0] = (red, green, blue)
        self._pixel.write()


class PwmLed:
    """A one-colour LED dimmed by PWM: its brightness is the strongest channel asked for."""

    kind = board.LED_MONO

    def __init__(self, gpio):
        self._pwm = PWM(Pin(gpio))
        self._pwm.freq(1000)

    def show(self, red, green, blue):
        self._pwm.duty_u16(max(red, green, blue) * 257)  # 255 * 257 == 65535


class OnboardLed:
    """The Pico's own LED ("LED" names it on both the Pico and the Pico W): on or off."""

    kind = board.LED_MONO

    def __init__(self):
        self._pin = Pin("LED", Pin.OUT)

    def show(self, red, green, blue):
        self._pin.value(1 if max(red, green, blue) else 0)


class NoLed:
    kind = board.LED_NONE

    def show(self, red, green, blue):
        pass


def make_led():
    if LED_KIND == "rgb":
        return RgbLed(LED_PIN)
    if LED_KIND == "mono":
        return PwmLed(LED_PIN)
    if LED_KIND == "onboard":
        return OnboardLed()
    return NoLed()


def read_waiting(poller, stdin):
    """The bytes the host has sent, at most READ_BUDGET; waits up to POLL_MS for the first."""
    if not poller.poll(POLL_MS):
        return b""
    chunk = bytearray()
    while len(chunk) < READ_BUDGET and poller.poll(0):
        byte = stdin.read(1)  # poll said one is there, so this never blocks
        if not byte:
            break
        chunk.extend(byte)
    return chunk


def run():
    pins = [Pin(gpio, Pin.IN, Pin.PULL_UP) for gpio in BUTTON_PINS]
    if pins[0].value() == 0:
        # NEXT held while plugging in: stay at the REPL so mpremote can reach the board.
        print("nsboard: NEXT held at start, staying at the REPL")
        return
    led = make_led()
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    stdin = sys.stdin.buffer
    logic = board.Board(pins, led, sys.stdout.buffer.write, time.ticks_ms, time.ticks_diff)
    # Ctrl-C (0x03) must reach the protocol as a byte, not stop this program.
    micropython.kbd_intr(-1)
    try:
        logic.boot()
        faults = 0
        while not logic.finished:
            try:
                chunk = read_waiting(poller, stdin)
                if chunk:
                    logic.feed(chunk)
                logic.tick()
                faults = 0
            except Exception as error:
                # Anything uncaught would leave the board at the prompt, its buttons dead
                # until replugged: report it and go on, or restart if it keeps failing.
                faults += 1
                if faults >= FAULT_LIMIT:
                    reset()
                try:  # noqa: SIM105 (no contextlib on MicroPython)
                    logic.report_fault(error)
                except Exception:
                    pass  # the port itself is failing: nothing to tell it with
    finally:
        micropython.kbd_intr(3)  # the REPL gets its Ctrl-C back
        led.show(0, 0, 0)


run()
