"""Hardware a profile names is required: when it cannot be opened, the box stops and says why.

A box built with the Display HAT Mini that falls back to the terminal keeps feeding
systemd's watchdog behind a blank panel, and `hwtest` would count terminal keys as the
HAT's buttons. So when the profile (chosen by `--hardware`, with `--display` and
`--input` left at `auto`) names the SPI panel or GPIO buttons and they do not open, the
command ends with one line naming the cause and the fix (on stderr, which is the journal
under systemd) and exit status 2; systemd's restart limit then stops a box that cannot
work. A `--display` or `--input` given on the command line is a choice made on purpose,
and still falls back with a notice.
"""

from __future__ import annotations

from typing import Any, Final

from nsdevice.errors import UsageError

# The kinds that only work with their hardware. A KMS/DRM screen that fails falls back to
# the same screen's console, and the serial board is waited for until it is plugged in,
# so those are not listed.
REQUIRED_DISPLAYS: Final = ("st7789",)
REQUIRED_INPUTS: Final = ("gpio",)

ENABLE_SPI: Final = (
    "switch SPI on (sudo raspi-config nonint do_spi 0, or dtparam=spi=on in config.txt) "
    "and reboot"
)
INSTALL_PANEL_DRIVER: Final = (
    "install the panel driver into the venv (pip install '.[pi]'; on Raspberry Pi OS make "
    "the venv with --system-site-packages after apt install python3-spidev)"
)
GPIO_FIX: Final = (
    "install lgpio (Pi OS: apt install python3-lgpio, venv with --system-site-packages; "
    "else pip install lgpio); check /dev/gpiochip0 and the gpio group"
)


class HardwareMissing(UsageError):
    """The profile's panel or buttons did not open; the message is one line: cause; fix."""

    def __init__(self, cause: str, fix: str) -> None:
        super().__init__(f"nsdevice: {cause}; fix: {fix}")
        self.cause = cause
        self.fix = fix


def required_parts(profile: Any, display_option: str, input_option: str) -> frozenset[str]:
    """Which of "display" and "input" must open for real: those the profile chose."""
    if profile is None:
        return frozenset()
    parts = set()
    if display_option == "auto" and profile.display.kind in REQUIRED_DISPLAYS:
        parts.add("display")
    if input_option == "auto" and profile.input.kind in REQUIRED_INPUTS:
        parts.add("input")
    return frozenset(parts)


def missing_display(profile: Any, reason: str) -> HardwareMissing:
    """The error for a profile's panel that did not open, with the fix its reason points to."""
    if "not installed" in reason:  # the driver itself is absent: SPI does not matter yet
        fix = INSTALL_PANEL_DRIVER
    elif "spidev" in reason or "No such file" in reason:
        fix = ENABLE_SPI
    else:
        fix = f"check that the panel is seated and that SPI is on ({ENABLE_SPI})"
    spec = profile.display
    device = f"/dev/spidev{spec.spi_port}.{spec.spi_chip_select}"
    cause = (
        f"profile {profile.name} names an SPI panel on {device} that did not open "
        f"({summary(reason)})"
    )
    return HardwareMissing(cause, f"{fix}; or play without it: --display text")


def summary(reason: str, most: int = 120) -> str:
    """The reason without gpiozero's list of every pin library it fell back from (which
    would push the fix off the one line), cut to a readable length."""
    reason = reason.split(" (Falling back from", 1)[0].strip()
    return reason if len(reason) <= most else reason[: most - 1] + "…"


def missing_input(profile: Any, reason: str) -> HardwareMissing:
    """The error for a profile's GPIO buttons that did not open."""
    cause = f"profile {profile.name} names GPIO buttons that did not open ({summary(reason)})"
    return HardwareMissing(cause, f"{GPIO_FIX}; or play without them: --input keyboard")
