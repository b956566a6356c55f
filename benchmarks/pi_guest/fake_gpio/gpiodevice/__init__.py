"""Stands in for Pimoroni's `gpiodevice` under the `st7789` library in benchmarks/pi_cost.py:
the userland under qemu has no GPIO character device. A line's `set_value` is one ioctl on
a Pi; here it only keeps the level."""

friendly_errors = False


class Lines:
    def __init__(self, pin: int) -> None:
        self.pin = pin
        self.value = None

    def set_value(self, offset: int, value: object) -> None:
        self.value = value


def get_pin(pin: int, label: str, settings: object) -> tuple[Lines, int]:
    return (Lines(pin), 0)
