"""Hardware profiles: the shipped ones load and match the builds; bad ones fail in one line."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from nsdevice.hardware.profiles import (
    PROFILES_ENVIRONMENT_VARIABLE,
    SHIPPED_PROFILES,
    Profile,
    ProfileError,
    list_profiles,
    load_profile,
    profile_search_paths,
)
from nsdevice.inputs.events import Button

REPOSITORY = Path(__file__).resolve().parent.parent
PROFILES = REPOSITORY / "nsdevice" / "profiles"
README = REPOSITORY / "hardware" / "README.md"
SHIPPED = sorted(PROFILES.glob("*.toml"))
SPI0_CE1_PANEL = "spi_port = 0\nspi_chip_select = 1\ndata_command_pin = 9"
NO_ENVIRONMENT: dict[str, str] = {}  # so a developer's $NSDEVICE_PROFILES cannot leak in

# Pins a button must not take on a plain header: HAT EEPROM, I2C, SPI0, UART, SPI1/PCM.
BUS_PINS = {0, 1, 2, 3, 7, 8, 9, 10, 11, 14, 15, 16, 17, 18, 19, 20, 21}

GOOD_GPIO = """\
name = "bench"
[display]
kind = "kmsdrm"
width = 800
height = 480
[input]
kind = "gpio"
[input.buttons]
next = 23
back = 24
menu = 25
"""


def write(folder: Path, text: str, name: str = "bench.toml") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def every_pin(profile: Profile) -> list[int]:
    """Pins as written in the file, counted independently of the loader's own check."""
    display = profile.display
    pins = [display.data_command_pin, display.backlight_pin, *profile.input.buttons.values()]
    if profile.led is not None:
        pins += [profile.led.red, profile.led.green, profile.led.blue]
    return [pin for pin in pins if pin is not None]


# --- the shipped profiles ----------------------------------------------------------------


def test_the_five_builds_and_the_emulator_are_shipped() -> None:
    assert {path.stem for path in SHIPPED} == {
        "display-hat-mini",
        "arcade-gpio",
        "arcade-serial",
        "desktop",
        "tv",  # issue 26: 1920x1080, about 40 inches, the room's big screen
        "emulator",  # issue 31: image/boot.sh's emulated Pi (framebuffer, mini UART board)
    }


def test_the_emulator_draws_on_the_framebuffer_with_the_board_on_the_mini_uart() -> None:
    profile = load_profile("emulator", NO_ENVIRONMENT)
    assert (profile.display.kind, profile.display.size()) == ("framebuffer", (640, 480))
    assert (profile.input.kind, profile.input.device) == ("serial", "/dev/ttyS1")


@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: path.stem)
def test_every_shipped_profile_loads_by_name_and_by_path(path: Path) -> None:
    by_name = load_profile(path.stem, NO_ENVIRONMENT)
    by_path = load_profile(str(path), NO_ENVIRONMENT)
    assert by_name == by_path
    assert by_name.name == path.stem  # the name people type is the name in the file
    assert by_name.description


@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: path.stem)
def test_no_shipped_profile_uses_a_pin_twice(path: Path) -> None:
    profile = load_profile(str(path), NO_ENVIRONMENT)
    pins = every_pin(profile)
    assert len(pins) == len(set(pins))
    assert all(0 <= pin <= 27 for pin in pins)
    assert set(pins) <= set(profile.pins())  # pins() reports every one of them


def test_display_hat_mini_has_the_boards_pins() -> None:
    profile = load_profile("display-hat-mini", NO_ENVIRONMENT)
    display = profile.display
    assert (display.kind, display.size()) == ("st7789", (320, 240))
    assert (display.spi_port, display.spi_chip_select) == (0, 1)
    assert (display.data_command_pin, display.backlight_pin) == (9, 13)
    assert display.rotation == 180
    assert profile.input.kind == "gpio" and profile.input.pull_up
    # Buttons A, B, X, Y are BCM 5, 6, 16, 24; the legend puts NEXT on X.
    assert dict(profile.input.buttons) == {"next": 16, "back": 5, "menu": 6, "spare": 24}
    assert profile.led is not None
    assert (profile.led.red, profile.led.green, profile.led.blue) == (17, 27, 22)
    assert profile.led.active_high is False
    # The panel's bus pins are counted as taken: SPI0 clock, data out and CE1.
    assert {11, 10, 7} <= set(profile.pins())


def test_button_pins_are_keyed_by_logical_button() -> None:
    profile = load_profile("display-hat-mini", NO_ENVIRONMENT)
    assert profile.input.button_pins() == {Button.NEXT: 16, Button.BACK: 5, Button.MENU: 6}
    assert profile.input.buttons[Button.NEXT] == 16


def test_arcade_buttons_keep_clear_of_the_buses() -> None:
    profile = load_profile("arcade-gpio", NO_ENVIRONMENT)
    assert profile.display.kind == "kmsdrm"
    assert set(profile.input.buttons) == {"next", "back", "menu", "spare"}
    assert not set(profile.input.buttons.values()) & BUS_PINS


def test_arcade_serial_looks_for_the_pico() -> None:
    profile = load_profile("arcade-serial", NO_ENVIRONMENT)
    assert (profile.display.kind, profile.input.kind) == ("kmsdrm", "serial")
    assert profile.input.usb_vendor_id == 0x2E8A
    assert profile.pins() == {}


def test_desktop_is_a_window_and_the_keyboard() -> None:
    profile = load_profile("desktop", NO_ENVIRONMENT)
    assert (profile.display.kind, profile.input.kind) == ("window", "keyboard")


@pytest.mark.parametrize(
    ("profile_name", "row"),
    [
        # the connection tables hardware/wiring.py writes into the README
        ("display-hat-mini", r"\| \d+ \| GPIO {pin} \| {button} button \|"),
        ("arcade-gpio", r"\| \d+ \| GPIO {pin} \| {button} button \(\w+\) \|"),
    ],
)
def test_readme_wiring_tables_match_the_profiles(profile_name: str, row: str) -> None:
    """The README repeats the pins for people who build; it must not drift from the data."""
    readme = README.read_text(encoding="utf-8")
    letters = {"next": "X", "back": "A", "menu": "B"}
    buttons = load_profile(profile_name, NO_ENVIRONMENT).input.buttons
    for name in ("next", "back", "menu"):
        pattern = row.format(letter=letters[name], button=name.upper(), pin=buttons[name])
        assert re.search(pattern, readme), f"README row for {profile_name} {name} ({pattern})"


# --- finding profiles --------------------------------------------------------------------


def test_search_order_environment_then_etc_then_the_package(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    paths = profile_search_paths({PROFILES_ENVIRONMENT_VARIABLE: f"{first}:{second}"})
    assert paths[:3] == [first, second, Path("/etc/nsdevice/profiles")]
    assert paths[3:] == [SHIPPED_PROFILES] == [PROFILES]


def test_a_profile_in_nsdevice_profiles_shadows_the_shipped_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # On a box where install.sh ran, /etc/nsdevice/profiles would shadow the package too.
    monkeypatch.setattr("nsdevice.hardware.profiles.SYSTEM_PROFILES", tmp_path / "no-etc")
    write(tmp_path, GOOD_GPIO.replace('"bench"', '"desktop"'), "desktop.toml")
    environment = {PROFILES_ENVIRONMENT_VARIABLE: str(tmp_path)}
    assert load_profile("desktop", environment).display.kind == "kmsdrm"
    assert list_profiles(environment)["desktop"] == tmp_path / "desktop.toml"
    assert list_profiles(environment)["arcade-serial"] == PROFILES / "arcade-serial.toml"


def test_an_explicit_path_is_read_as_is(tmp_path: Path) -> None:
    profile = load_profile(str(write(tmp_path, GOOD_GPIO)), NO_ENVIRONMENT)
    assert profile.name == "bench"
    assert profile.source == tmp_path / "bench.toml"


def test_profile_error_is_a_value_error() -> None:
    assert issubclass(ProfileError, ValueError)


def test_loading_profiles_imports_no_hardware_library() -> None:
    code = (
        "import sys, nsdevice.hardware.profiles as h; h.load_profile('display-hat-mini', {}); "
        "print(sorted(m for m in ('pygame', 'gpiozero', 'serial', 'st7789') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


# --- profiles that must be refused ------------------------------------------------------


def refused(tmp_path: Path, text: str) -> str:
    path = write(tmp_path, text)
    with pytest.raises(ProfileError) as caught:
        load_profile(str(path), NO_ENVIRONMENT)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: ")  # names the file first
    return message


def test_a_missing_name_says_where_it_looked(tmp_path: Path) -> None:
    environment = {PROFILES_ENVIRONMENT_VARIABLE: str(tmp_path)}
    with pytest.raises(ProfileError, match="no-such-box: no such hardware profile") as caught:
        load_profile("no-such-box", environment)
    message = str(caught.value)
    assert str(tmp_path) in message and "display-hat-mini" in message and "\n" not in message


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "gone.toml"
    with pytest.raises(ProfileError, match=re.escape(f"{missing}: no such profile file")):
        load_profile(str(missing), NO_ENVIRONMENT)


def test_a_name_that_is_a_path_without_toml_is_refused() -> None:
    with pytest.raises(ProfileError, match="neither a profile name nor a path"):
        load_profile("../etc/passwd", NO_ENVIRONMENT)


def test_bad_toml(tmp_path: Path) -> None:
    message = refused(tmp_path, 'name = "bench"\n[display\nkind = "window"\n')
    assert "not valid TOML" in message and "line 2" in message


def test_unknown_display_kind(tmp_path: Path) -> None:
    message = refused(tmp_path, GOOD_GPIO.replace('"kmsdrm"', '"hologram"'))
    assert "[display] kind: unknown kind 'hologram'" in message
    assert "st7789" in message  # and says what would do


def test_unknown_input_kind(tmp_path: Path) -> None:
    message = refused(tmp_path, GOOD_GPIO.replace('kind = "gpio"', 'kind = "telepathy"'))
    assert "[input] kind: unknown kind 'telepathy'" in message


def test_pin_40_is_a_header_pin_not_a_gpio(tmp_path: Path) -> None:
    message = refused(tmp_path, GOOD_GPIO.replace("menu = 25", "menu = 40"))
    assert "[input.buttons] menu: 40 is not a BCM GPIO pin" in message


def test_true_is_not_a_pin(tmp_path: Path) -> None:
    message = refused(tmp_path, GOOD_GPIO.replace("menu = 25", "menu = true"))
    assert "[input.buttons] menu: True is not a BCM GPIO pin" in message


def test_duplicate_pin_names_both_uses(tmp_path: Path) -> None:
    message = refused(tmp_path, GOOD_GPIO.replace("menu = 25", "menu = 23"))
    assert "[input.buttons] menu: BCM 23 is already used by [input.buttons] next" in message


def test_duplicate_pin_between_led_and_button(tmp_path: Path) -> None:
    text = GOOD_GPIO + '[led]\nkind = "rgb"\nred = 5\ngreen = 24\nblue = 6\n'
    message = refused(tmp_path, text)
    assert "[led] green: BCM 24 is already used by [input.buttons] back" in message


def test_a_button_on_the_panels_spi_clock_is_refused(tmp_path: Path) -> None:
    text = (
        GOOD_GPIO.replace('"kmsdrm"', '"st7789"')
        .replace("width = 800", "width = 320")
        .replace("height = 480", f"height = 240\n{SPI0_CE1_PANEL}")
        .replace("next = 23", "next = 11")
    )
    message = refused(tmp_path, text)
    assert "[input.buttons] next: BCM 11 is already used by SPI0 clock" in message


def test_quarter_turn_needs_a_square_panel(tmp_path: Path) -> None:
    text = (
        'name = "bench"\n[display]\nkind = "st7789"\nwidth = 320\nheight = 240\n'
        "spi_port = 0\nspi_chip_select = 0\ndata_command_pin = 9\nrotation = 90\n"
        '[input]\nkind = "keyboard"\n'
    )
    assert "[display] rotation: 90 needs a square panel" in refused(tmp_path, text)


def test_a_misspelt_field_is_not_ignored(tmp_path: Path) -> None:
    message = refused(tmp_path, GOOD_GPIO.replace('"gpio"', '"gpio"\npul_up = true'))
    assert "[input] pul_up: unknown field" in message


def test_spi_settings_on_a_window_are_refused(tmp_path: Path) -> None:
    message = refused(tmp_path, GOOD_GPIO.replace("height = 480", "height = 480\nspi_port = 0"))
    assert "[display] spi_port: unknown field (SPI settings belong to kind st7789 only)" in message


def test_gpio_input_needs_all_three_buttons(tmp_path: Path) -> None:
    message = refused(tmp_path, GOOD_GPIO.replace("back = 24\n", ""))
    assert "[input.buttons] back: missing" in message


def test_a_profile_needs_a_display(tmp_path: Path) -> None:
    message = refused(tmp_path, 'name = "bench"\n[input]\nkind = "keyboard"\n')
    assert f"{tmp_path / 'bench.toml'}: display: missing table" == message


def test_keyboard_takes_no_buttons(tmp_path: Path) -> None:
    message = refused(tmp_path, GOOD_GPIO.replace('kind = "gpio"', 'kind = "keyboard"'))
    assert "[input] buttons: unknown field (kind keyboard takes no settings)" in message


def test_usb_vendor_id_is_sixteen_bits(tmp_path: Path) -> None:
    text = 'name = "b"\n[display]\nkind = "text"\nwidth = 1\nheight = 1\n[input]\nkind = "serial"\n'
    message = refused(tmp_path, text + "usb_vendor_id = 0x12345\n")
    assert "[input] usb_vendor_id: 74565 is out of range" in message


# --- debounce for worn switches -----------------------------------------------------------


def test_debounce_defaults_to_30_ms_and_a_profile_can_raise_it(tmp_path: Path) -> None:
    assert load_profile(str(write(tmp_path, GOOD_GPIO)), NO_ENVIRONMENT).input.debounce == 0.03
    worn = GOOD_GPIO.replace('kind = "gpio"', 'kind = "gpio"\ndebounce_ms = 80')
    assert load_profile(str(write(tmp_path, worn)), NO_ENVIRONMENT).input.debounce == 0.08


def test_a_debounce_that_would_swallow_taps_is_refused(tmp_path: Path) -> None:
    slow = GOOD_GPIO.replace('kind = "gpio"', 'kind = "gpio"\ndebounce_ms = 900')
    assert "[input] debounce_ms: 900 is out of range (0-500)" in refused(tmp_path, slow)


def test_the_runner_hands_the_profiles_debounce_to_the_button_tracker(tmp_path: Path) -> None:
    from nsdevice.inputs.events import ButtonTracker
    from nsdevice.options import RunOptions
    from nsdevice.runner.opening import tracker_options
    from nsdevice.runner.planning import plan

    worn = write(tmp_path, GOOD_GPIO.replace('kind = "gpio"', 'kind = "gpio"\ndebounce_ms = 75'))
    options = RunOptions(hardware=str(worn), display="json", input="script", keys="next")
    assert ButtonTracker(**tracker_options(plan(options))).debounce == 0.075
    options = RunOptions(display="json", input="script", keys="next")
    assert ButtonTracker(**tracker_options(plan(options))).debounce == 0.03
