"""`nsdevice hwtest`: the builder's guided check, driven through gpiozero's mock pins."""

from __future__ import annotations

import threading
import time

from gpiozero.pins.mock import MockFactory

from nsdevice.hardware.check import check
from nsdevice.inputs.events import Button, QueueInbox
from nsdevice.inputs.gpio import GpioButtons

PINS = {Button.NEXT: 24, Button.BACK: 6, Button.MENU: 16}


class Screen:
    def __init__(self) -> None:
        self.views = []

    def show(self, view) -> None:
        self.views.append(view)


def tap(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()
    time.sleep(0.05)
    factory.pin(pin).drive_high()


def test_hwtest_passes_when_every_button_answers_and_lights_the_led():
    factory = MockFactory()
    inbox = QueueInbox()
    buttons = GpioButtons(PINS, inbox, pin_factory=factory)
    lit = []

    def builder():
        for pin in (24, 24, 16, 6, 16):  # any, NEXT, MENU (wrong), BACK, MENU
            time.sleep(0.15)
            tap(factory, pin)

    threading.Thread(target=builder, daemon=True).start()
    lines = []
    status = check(Screen(), inbox, report=lines.append, leds=[lit.append], timeout=3,
                   led_seconds=0.01)  # fmt: skip
    buttons.close()
    assert status == 0
    assert any("got MENU, waiting for BACK" in line for line in lines)
    assert lit == [(255, 0, 0), (0, 255, 0), (0, 0, 255), None]


def test_hwtest_reports_a_dead_button_and_fails():
    factory = MockFactory()
    inbox = QueueInbox()
    buttons = GpioButtons(PINS, inbox, pin_factory=factory)
    screen = Screen()

    def builder():
        for pin in (24, 24, 6):  # any, NEXT, BACK; MENU is never pressed
            time.sleep(0.15)
            tap(factory, pin)

    threading.Thread(target=builder, daemon=True).start()
    status = check(screen, inbox, report=lambda _line: None, timeout=1.0)
    buttons.close()
    assert status == 1
    assert screen.views[-1].step == "done"
    assert screen.views[-1].failed == ("menu",)
    assert screen.views[-1].passed == ("next", "back")
