"""One table of back ends feeds the command line, the hardware profiles and the runner."""

from __future__ import annotations

import inspect

import pytest

from nsdevice.displays import Display
from nsdevice.hardware import backends
from nsdevice.hardware import profiles as hardware
from nsdevice.inputs.device import InputDevice
from nsdevice.inputs.events import QueueInbox
from nsdevice.options import build_parser


def run_choices(option: str) -> tuple[str, ...]:
    run = build_parser()._subparsers._group_actions[0].choices["run"]
    (action,) = [a for a in run._actions if option in a.option_strings]
    return tuple(action.choices)


def test_the_command_line_offers_every_back_end_in_the_table():
    assert run_choices("--display") == ("auto", *backends.DISPLAYS)
    assert run_choices("--input") == ("auto", *backends.INPUTS)


def test_profiles_accept_the_tables_kinds_but_not_the_test_only_ones():
    assert set(hardware.DISPLAY_KINDS) == set(backends.DISPLAYS) - {"json"}
    assert set(hardware.INPUT_KINDS) == set(backends.INPUTS) - {"script"}


@pytest.mark.parametrize(
    ("table", "base"), [(backends.DISPLAYS, Display), (backends.INPUTS, InputDevice)]
)
def test_every_entry_names_a_class_of_its_kind(table, base):
    for backend in table.values():
        assert issubclass(backend.load(base), base), backend.name


def test_an_entry_naming_the_wrong_kind_is_refused():
    wrong = backends.Backend("oops", "nsdevice.displays.text_display:TextDisplay")
    with pytest.raises(TypeError, match="not a InputDevice"):
        wrong.load(InputDevice)


@pytest.mark.parametrize("name", sorted(hardware.list_profiles()))
def test_each_profiles_sections_are_their_back_ends_own_arguments(name):
    profile = hardware.load_profile(name)
    display = backends.DISPLAYS[profile.display.kind].load(Display)
    # no renaming in between: every field the profile gives is a parameter of the display
    inspect.signature(display).bind_partial(**backends.DISPLAYS[profile.display.kind].options,
                                            **profile.display.options)  # fmt: skip
    device = backends.INPUTS[profile.input.kind].load(InputDevice)
    inspect.signature(device).bind(inbox=QueueInbox(), **profile.input.options)


def test_the_panels_profile_passes_its_spi_settings_by_their_own_names():
    options = hardware.load_profile("display-hat-mini").display.options
    assert dict(options) == {
        "spi_port": 0, "spi_chip_select": 1, "data_command_pin": 9, "backlight_pin": 13,
        "rotation": 180, "spi_speed_hz": 60_000_000,
    }  # fmt: skip
