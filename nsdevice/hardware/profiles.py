"""Hardware profiles: which screen, which buttons and which pins a build of the box has.

A profile is a small TOML file (nsdevice/profiles/*.toml, schema in hardware/README.md),
and those files are the only place pin numbers are written. `load_profile` finds one by
name or path, checks it and returns a frozen `Profile`; a profile that is missing or wrong
raises `ProfileError` with one line naming the file and the field, which the command line
reports as a usage error.

This module only reads and checks: it imports no pygame, gpiozero or serial, so
`nsdevice hwtest --hardware …` can say what is wrong before any hardware is touched.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, NoReturn

from nsdevice.hardware.backends import DISPLAYS, INPUTS, profile_kinds
from nsdevice.inputs.events import Button
from nsdevice.rules.frozen import dataclass
from nsdevice.views import DEFAULT_PANEL, EDGES, Panel, Place

DISPLAY_KINDS: Final = profile_kinds(DISPLAYS)  # window, kmsdrm, text, st7789
INPUT_KINDS: Final = profile_kinds(INPUTS)  # keyboard, gpio, serial
LED_KINDS: Final = ("rgb",)
REQUIRED_BUTTONS: Final = tuple(button.value for button in Button)  # next, back, menu
OPTIONAL_BUTTONS: Final = ("spare",)  # wired but unused: free for a later feature
ROTATIONS: Final = (0, 90, 180, 270)
DEFAULT_DEBOUNCE: Final = 0.03  # seconds, the ButtonTracker's own default
MAX_DEBOUNCE_MS: Final = 500  # well under the 0.8 s that makes a press a hold

HIGHEST_PIN: Final = 27  # BCM GPIO 0-27 are the ones on the 40-pin header
PROFILE_SUFFIX: Final = ".toml"
PROFILES_ENVIRONMENT_VARIABLE: Final = "NSDEVICE_PROFILES"
SYSTEM_PROFILES: Final = Path("/etc/nsdevice/profiles")
# The profiles ship inside the package (package data), so a name resolves after any
# install, editable or not. nsdevice is always installed as files, never zipped: the
# folder is a real path, which the messages and `Profile.source` name.
# (importlib.resources would say the same, but brings zipfile and more into every start)
SHIPPED_PROFILES: Final = Path(__file__).resolve().parent.parent / "profiles"

# A panel on an SPI bus also occupies the bus's clock and data-out pins and its
# chip-select pin, though the profile never names them; counting them catches a
# button wired onto the panel's bus. Data-in (MISO) is left out on purpose: a panel
# only listens, and the Display HAT Mini reuses SPI0's MISO (BCM 9) as its DC pin.
SPI_BUS_PINS: Final[Mapping[int, Mapping[str, int]]] = MappingProxyType(
    {
        0: MappingProxyType({"clock": 11, "data out": 10}),
        1: MappingProxyType({"clock": 21, "data out": 20}),
    }
)
SPI_CHIP_SELECT_PINS: Final[Mapping[int, tuple[int, ...]]] = MappingProxyType(
    {0: (8, 7), 1: (18, 17, 16)}
)

_NAME_PATTERN: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_ROOT: Final = ""  # section label for top-level keys


class ProfileError(ValueError):
    """A profile that cannot be found, read or trusted; the message is one line."""


@dataclass(frozen=True, slots=True)
class DisplaySpec:
    """The screen. SPI fields are set only for `kind == "st7789"`. `options` are the
    section's settings beyond kind and size, by their own names: the display's keyword
    arguments (`St7789Display(spi_port=…, rotation=…)`), passed on as they stand."""

    kind: str
    width: int
    height: int
    spi_port: int | None = None
    spi_chip_select: int | None = None
    data_command_pin: int | None = None
    backlight_pin: int | None = None
    rotation: int = 0
    spi_speed_hz: int | None = None  # None: the driver's own default
    diagonal_inches: float | None = None  # the picture's diagonal; None: a 96 dpi desktop
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}), hash=False)

    def size(self) -> tuple[int, int]:
        return (self.width, self.height)


@dataclass(frozen=True, slots=True)
class InputSpec:
    """The buttons. `buttons` (gpio only) maps `next`/`back`/`menu` (and `spare`) to BCM pins.

    `Button` members are strings, so `spec.buttons[Button.NEXT]` works as well as
    `spec.buttons["next"]`. `options` are the input's keyword arguments built from the
    section (`GpioButtons(pins=…, pull_up=…)`, `SerialBoard(port=…, usb_vendor_id=…)`).
    """

    kind: str
    pull_up: bool = True
    buttons: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    usb_vendor_id: int | None = None  # serial: which board to look for (None: the default)
    usb_product_id: int | None = None
    device: str | None = None  # serial: a fixed port such as /dev/ttyACM0 instead of a search
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    debounce: float = DEFAULT_DEBOUNCE  # seconds a contact must settle; worn switches need more

    def button_pins(self) -> dict[Button, int]:
        """The logical buttons and their pins, in the form `inputs.gpio` takes."""
        return {button: self.buttons[button] for button in Button if button in self.buttons}


@dataclass(frozen=True, slots=True)
class LedSpec:
    """A status LED. `active_high` False means a pin driven low lights it."""

    kind: str
    red: int
    green: int
    blue: int
    active_high: bool = True


@dataclass(frozen=True, slots=True)
class Profile:
    """One build of the box: what `nsdevice run --hardware NAME` sets up."""

    name: str
    description: str
    display: DisplaySpec
    input: InputSpec
    led: LedSpec | None = None
    places: tuple[tuple[str, Place], ...] = DEFAULT_PANEL.places  # where each button sits
    source: Path | None = field(default=None, compare=False)  # the file it came from

    def panel(self) -> Panel:
        """The screen as the players meet it: button places and size, for the labels."""
        return Panel(self.places, (), self.display.diagonal_inches)

    def pins(self) -> dict[int, str]:
        """Every BCM pin this build occupies, with what it does (SPI bus pins included)."""
        return {pin: role for role, pin in _claimed_pins(self)}


# --- finding profiles -------------------------------------------------------------------


def profile_search_paths(environ: Mapping[str, str] | None = None) -> list[Path]:
    """Where a profile name is looked up, first match wins.

    `$NSDEVICE_PROFILES` (one or more folders, separated like PATH), then
    /etc/nsdevice/profiles (what systemd/install.sh writes), then the profiles shipped
    in the package (nsdevice/profiles).
    """
    environ = os.environ if environ is None else environ
    paths = [
        Path(part)
        for part in environ.get(PROFILES_ENVIRONMENT_VARIABLE, "").split(os.pathsep)
        if part
    ]
    paths.append(SYSTEM_PROFILES)
    paths.append(SHIPPED_PROFILES)
    return paths


def list_profiles(environ: Mapping[str, str] | None = None) -> dict[str, Path]:
    """Every profile name that `load_profile` would find, with the file it would read."""
    found: dict[str, Path] = {}
    for folder in profile_search_paths(environ):
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob(f"*{PROFILE_SUFFIX}")):
            found.setdefault(path.stem, path)  # an earlier folder shadows a later one
    return dict(sorted(found.items()))


def find_profile(name_or_path: str, environ: Mapping[str, str] | None = None) -> Path:
    """The file for a profile name, or the path itself when it ends in .toml."""
    if name_or_path.endswith(PROFILE_SUFFIX):
        return Path(name_or_path)
    if not _NAME_PATTERN.fullmatch(name_or_path):
        raise ProfileError(
            f"{name_or_path!r} is neither a profile name nor a path ending in {PROFILE_SUFFIX}"
        )
    folders = profile_search_paths(environ)
    for folder in folders:
        candidate = folder / f"{name_or_path}{PROFILE_SUFFIX}"
        if candidate.is_file():
            return candidate
    known = ", ".join(list_profiles(environ)) or "none"
    looked = ", ".join(str(folder) for folder in folders)
    raise ProfileError(
        f"{name_or_path}: no such hardware profile (looked in {looked}; known: {known})"
    )


def load_profile(name_or_path: str, environ: Mapping[str, str] | None = None) -> Profile:
    """Find, read and check one profile; `ProfileError` says what is wrong and where."""
    path = find_profile(name_or_path, environ)
    try:
        data = tomllib.loads(path.read_bytes().decode("utf-8"))
    except FileNotFoundError:
        raise ProfileError(f"{path}: no such profile file") from None
    except OSError as error:
        raise ProfileError(f"{path}: cannot read it: {error.strerror}") from None
    except UnicodeDecodeError:
        raise ProfileError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        raise ProfileError(f"{path}: not valid TOML: {error}") from None
    return profile_from_data(data, path)


# --- reading and checking ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Table:
    """One TOML table being read; every complaint names the file, the table and the key."""

    source: Path
    section: str
    data: Mapping[str, Any]

    def fail(self, key: str, problem: str) -> NoReturn:
        where = f"[{self.section}] {key}" if self.section else key
        raise ProfileError(f"{self.source}: {where}: {problem}")

    def only(self, allowed: Iterable[str], why: str = "") -> None:
        """Reject keys we do not know: a misspelt `backlight_pni` must not pass silently."""
        allowed = set(allowed)
        for key in self.data:
            if key not in allowed:
                self.fail(key, f"unknown field{why}")

    def has(self, key: str) -> bool:
        return key in self.data

    def text(self, key: str, default: str | None = None) -> str:
        value = self.data.get(key, default)
        if not isinstance(value, str) or not value.strip():
            self.fail(key, "missing" if value is None else f"expected text, got {value!r}")
        return value

    def optional_text(self, key: str) -> str:
        value = self.data.get(key, "")
        if not isinstance(value, str):
            self.fail(key, f"expected text, got {value!r}")
        return value

    def choice(self, key: str, choices: Iterable[str]) -> str:
        value = self.text(key)
        choices = tuple(choices)
        if value not in choices:
            self.fail(key, f"unknown {key} {value!r} (expected one of {', '.join(choices)})")
        return value

    def integer(self, key: str, default: int | None = None, *, low: int, high: int) -> int:
        value = self.data.get(key, default)
        if value is None:
            self.fail(key, "missing")
        # bool is an int in Python; `true` where a number belongs is a mistake.
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(key, f"expected a whole number, got {value!r}")
        if not low <= value <= high:
            self.fail(key, f"{value} is out of range ({low}-{high})")
        return value

    def optional_integer(self, key: str, *, low: int, high: int) -> int | None:
        return self.integer(key, low=low, high=high) if self.has(key) else None

    def pin(self, key: str) -> int:
        value = self.data.get(key)
        if value is None:
            self.fail(key, "missing")
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= HIGHEST_PIN:
            self.fail(key, f"{value!r} is not a BCM GPIO pin of the header (0-{HIGHEST_PIN})")
        return value

    def boolean(self, key: str, default: bool) -> bool:
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            self.fail(key, f"expected true or false, got {value!r}")
        return value

    def table(self, key: str, *, required: bool) -> _Table | None:
        value = self.data.get(key)
        name = f"{self.section}.{key}" if self.section else key
        if value is None:
            if required:
                self.fail(key, "missing table")
            return None
        if not isinstance(value, dict):
            self.fail(key, f"expected a table [{name}], got {value!r}")
        return _Table(self.source, name, value)


def profile_from_data(data: Mapping[str, Any], source: Path) -> Profile:
    """Check parsed TOML and build the `Profile`; `source` is only used in messages."""
    root = _Table(source, _ROOT, data)
    root.only(("name", "description", "display", "input", "led", "places"))
    profile = Profile(
        name=root.text("name"),
        description=root.optional_text("description"),
        display=_display(root.table("display", required=True)),
        input=_input(root.table("input", required=True)),
        led=_led(root.table("led", required=False)),
        places=_places(root.table("places", required=False)),
        source=source,
    )
    _check_unique_pins(profile, source)
    return profile


_SPI_FIELDS: Final = (
    "spi_port",
    "spi_chip_select",
    "data_command_pin",
    "backlight_pin",
    "rotation",
    "spi_speed_hz",
)


def _display(table: _Table | None) -> DisplaySpec:
    assert table is not None  # required=True
    kind = table.choice("kind", DISPLAY_KINDS)
    width = table.integer("width", low=1, high=8192)
    height = table.integer("height", low=1, high=8192)
    diagonal = _diagonal(table)
    if kind != "st7789":
        table.only(
            ("kind", "width", "height", "diagonal_inches"),
            " (SPI settings belong to kind st7789 only)",
        )
        return DisplaySpec(kind=kind, width=width, height=height, diagonal_inches=diagonal)
    table.only(("kind", "width", "height", "diagonal_inches", *_SPI_FIELDS))
    port = table.integer("spi_port", low=0, high=max(SPI_BUS_PINS))
    rotation = table.integer("rotation", 0, low=0, high=270)
    if rotation not in ROTATIONS:
        table.fail("rotation", f"{rotation} is not one of {', '.join(map(str, ROTATIONS))}")
    # The st7789 driver turns a non-square panel only by half turns.
    if rotation in (90, 270) and width != height:
        table.fail("rotation", f"{rotation} needs a square panel, this one is {width}x{height}")
    chip_select = table.integer("spi_chip_select", low=0, high=len(SPI_CHIP_SELECT_PINS[port]) - 1)
    data_command = table.pin("data_command_pin")
    backlight = table.pin("backlight_pin") if table.has("backlight_pin") else None
    speed = table.optional_integer("spi_speed_hz", low=1, high=125_000_000)
    settings = {
        "spi_port": port,
        "spi_chip_select": chip_select,
        "data_command_pin": data_command,
        "backlight_pin": backlight,
        "rotation": rotation,
        "spi_speed_hz": speed,
    }
    return DisplaySpec(
        kind=kind,
        width=width,
        height=height,
        spi_port=port,
        spi_chip_select=chip_select,
        data_command_pin=data_command,
        backlight_pin=backlight,
        rotation=rotation,
        spi_speed_hz=speed,
        diagonal_inches=diagonal,
        # left out when not given, so the panel's own defaults apply
        options=MappingProxyType({k: v for k, v in settings.items() if v is not None}),
    )


def _diagonal(table: _Table) -> float | None:
    value = table.data.get("diagonal_inches")
    if value is None:
        return None
    if not isinstance(value, int | float) or isinstance(value, bool) or not 0.5 <= value <= 200:
        table.fail("diagonal_inches", f"expected inches from 0.5 to 200, got {value!r}")
    return float(value)


def _places(table: _Table | None) -> tuple[tuple[str, Place], ...]:
    """`[places]`: each button's edge and order, e.g. `next = { edge = "right", order = 1 }`."""
    if table is None:
        return DEFAULT_PANEL.places
    table.only((*REQUIRED_BUTTONS, *OPTIONAL_BUTTONS))
    places: list[tuple[str, Place]] = []
    for name in (*REQUIRED_BUTTONS, *OPTIONAL_BUTTONS):
        entry = table.table(name, required=name in REQUIRED_BUTTONS)
        if entry is None:
            continue
        entry.only(("edge", "order"))
        edge = entry.choice("edge", EDGES)
        place = Place(edge, entry.integer("order", low=1, high=8))
        if place in (p for _, p in places):
            entry.fail("order", f"{edge} {place.order} is already another button's place")
        places.append((name, place))
    return tuple(places)


def _input(table: _Table | None) -> InputSpec:
    assert table is not None  # required=True
    kind = table.choice("kind", INPUT_KINDS)
    if kind == "keyboard":
        table.only(("kind",), " (kind keyboard takes no settings)")
        return InputSpec(kind=kind)
    default_ms = round(DEFAULT_DEBOUNCE * 1000)
    debounce = table.integer("debounce_ms", default_ms, low=0, high=MAX_DEBOUNCE_MS) / 1000
    if kind == "serial":
        table.only(("kind", "usb_vendor_id", "usb_product_id", "device", "debounce_ms"))
        device = table.text("device") if table.has("device") else None
        vendor = table.optional_integer("usb_vendor_id", low=0, high=0xFFFF)
        product = table.optional_integer("usb_product_id", low=0, high=0xFFFF)
        return InputSpec(
            kind=kind,
            usb_vendor_id=vendor,
            usb_product_id=product,
            device=device,
            # the board calls a fixed device its `port`, as `nsdevice run --port` does
            options=MappingProxyType(
                {"port": device, "usb_vendor_id": vendor, "usb_product_id": product}
            ),
            debounce=debounce,
        )
    table.only(("kind", "pull_up", "buttons", "debounce_ms"))
    buttons = table.table("buttons", required=True)
    assert buttons is not None
    buttons.only((*REQUIRED_BUTTONS, *OPTIONAL_BUTTONS))
    pins = {name: buttons.pin(name) for name in REQUIRED_BUTTONS}
    pins |= {name: buttons.pin(name) for name in OPTIONAL_BUTTONS if buttons.has(name)}
    pull_up = table.boolean("pull_up", True)
    wired = {button: pins[button] for button in Button}  # the spare is not read yet
    return InputSpec(
        kind=kind,
        pull_up=pull_up,
        buttons=MappingProxyType(pins),
        options=MappingProxyType({"pins": wired, "pull_up": pull_up}),
        debounce=debounce,
    )


def _led(table: _Table | None) -> LedSpec | None:
    if table is None:
        return None
    table.only(("kind", "red", "green", "blue", "active_high"))
    return LedSpec(
        kind=table.choice("kind", LED_KINDS),
        red=table.pin("red"),
        green=table.pin("green"),
        blue=table.pin("blue"),
        active_high=table.boolean("active_high", True),
    )


def _claimed_pins(profile: Profile) -> list[tuple[str, int]]:
    """(role, pin) for every pin the build uses, in the order the file names them."""
    claimed: list[tuple[str, int]] = []
    display = profile.display
    if display.kind == "st7789":
        assert display.spi_port is not None and display.spi_chip_select is not None
        assert display.data_command_pin is not None
        claimed.append(("[display] data_command_pin", display.data_command_pin))
        if display.backlight_pin is not None:
            claimed.append(("[display] backlight_pin", display.backlight_pin))
        port = display.spi_port
        for signal, pin in SPI_BUS_PINS[port].items():
            claimed.append((f"SPI{port} {signal} (used by the panel)", pin))
        select = SPI_CHIP_SELECT_PINS[port][display.spi_chip_select]
        claimed.append(
            (f"SPI{port} chip select {display.spi_chip_select} (used by the panel)", select)
        )
    claimed.extend((f"[input.buttons] {name}", pin) for name, pin in profile.input.buttons.items())
    if profile.led is not None:
        led = profile.led
        claimed.extend(
            (f"[led] {colour}", pin)
            for colour, pin in (("red", led.red), ("green", led.green), ("blue", led.blue))
        )
    return claimed


def _check_unique_pins(profile: Profile, source: Path) -> None:
    first_use: dict[int, str] = {}
    for role, pin in _claimed_pins(profile):
        if pin in first_use:
            raise ProfileError(f"{source}: {role}: BCM {pin} is already used by {first_use[pin]}")
        first_use[pin] = role
