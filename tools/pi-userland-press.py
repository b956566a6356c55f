"""`nsdevice hwtest --hardware PROFILE` on gpiozero's mock pins, with the presses made here.

Part of tools/pi-userland-check: in an emulated userland there are no buttons, so this
runs the real command line in-process and presses the profile's mock pins the way a
builder would (any button for the test pattern, then NEXT, BACK, MENU). It needs
GPIOZERO_PIN_FACTORY=mock and a profile whose input is GPIO buttons.
"""

from __future__ import annotations

import sys
import threading
import time

from gpiozero import Device

from nsdevice.cli import main
from nsdevice.hardware.profiles import load_profile

PRESSES = ("next", "next", "back", "menu")  # the first answers the test pattern


def press_when_ready(pins: dict[str, int]) -> None:
    # The pins exist once hwtest has opened the buttons; only then is a press heard.
    while Device.pin_factory is None or any(
        Device.pin_factory.pin(pins[name]).when_changed is None for name in PRESSES
    ):
        time.sleep(0.05)
    for name in PRESSES:
        pin = Device.pin_factory.pin(pins[name])
        pin.drive_low()
        time.sleep(0.08)  # a tap: well under the hold time, well over the debounce
        pin.drive_high()
        time.sleep(0.4)


if __name__ == "__main__":
    profile = sys.argv[1]
    buttons = load_profile(profile).input.button_pins()
    pins = {str(button.value): pin for button, pin in buttons.items()}
    threading.Thread(target=press_when_ready, args=(pins,), daemon=True).start()
    sys.exit(main(["hwtest", "--hardware", profile, "--timeout", "30"]))
