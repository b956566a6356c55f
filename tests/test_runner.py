"""`nsdevice run`'s choice of back ends, and its fallbacks when hardware is missing."""

from __future__ import annotations

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from nsdevice.errors import UsageError
from nsdevice.inputs.events import QueueInbox
from nsdevice.options import RunOptions, parse_size
from nsdevice.runner.opening import choose_inbox, open_display, open_inputs, open_lights
from nsdevice.runner.planning import plan


def args(**overrides) -> RunOptions:
    return RunOptions(**overrides)


def test_auto_picks_a_window_on_a_desktop_and_the_terminal_without_a_screen(monkeypatch):
    assert plan(args(), {"DISPLAY": ":0"}).display == "window"
    monkeypatch.setattr("nsdevice.runner.planning.Path.glob", lambda self, pattern: iter(()))
    chosen = plan(args(), {})
    assert chosen.display == "text" and chosen.notice.startswith("no screen found")


def test_a_hardware_profile_chooses_display_input_and_size():
    chosen = plan(args(hardware="display-hat-mini"), {})
    assert (chosen.display, chosen.input, chosen.size) == ("st7789", "gpio", (320, 240))
    json = args(hardware="display-hat-mini", display="json", size="480x320")
    assert plan(json, {}).size == (480, 320)  # a window's size is a choice; a panel's is not


def test_the_panel_is_drawn_at_its_own_size_without_a_profile(monkeypatch):
    """Issue 22: `--display st7789` without `--hardware` sent a 480x320 frame to the
    320x240 panel. The size comes from the panel; a --size that differs is refused."""
    from nsdevice.displays import st7789_display

    assert plan(args(display="st7789"), {}).size == (320, 240)
    asked: dict[str, object] = {}

    class Panel:
        def set_window(self, *corners: object) -> None: ...
        def data(self, data: bytes) -> None: ...
        def set_backlight(self, value: bool) -> None: ...

    def open_panel(**settings: object) -> Panel:
        asked.update(settings)
        return Panel()

    monkeypatch.setattr(st7789_display, "_open_panel", open_panel)
    display, fell_back = open_display(plan(args(display="st7789"), {}))
    assert fell_back is None and (asked["width"], asked["height"]) == (320, 240)
    assert display.size == (320, 240)
    with pytest.raises(UsageError, match="--size 480x320: the st7789 panel is 320x240"):
        plan(args(display="st7789", size="480x320"), {})
    with pytest.raises(UsageError, match="the st7789 panel is 320x240"):
        plan(args(hardware="display-hat-mini", size="480x320"), {})


@pytest.mark.parametrize(
    "overrides",
    [{"size": "big"}, {"size": "10x10"}, {"input": "script"}, {"keys": "next"},
     {"input": "script", "keys": "jump"}, {"hardware": "no-such-profile"}],
)  # fmt: skip
def test_bad_run_options_are_usage_errors(overrides):
    with pytest.raises(UsageError):
        plan(args(**overrides), {})


def test_parse_size():
    assert parse_size("320x240") == (320, 240)
    with pytest.raises(ValueError):
        parse_size("320*240")


def test_a_missing_panel_library_asked_for_falls_back_to_the_terminal(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_st7789(name, *rest, **kwargs):
        if name == "st7789":
            raise ImportError("no st7789")
        return real_import(name, *rest, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_st7789)
    display, message = open_display(plan(args(hardware="display-hat-mini", display="st7789"), {}))
    assert type(display).__name__ == "TextDisplay"
    assert "st7789" in message


def test_gpio_asked_for_without_a_pin_back_end_falls_back_to_the_keyboard(monkeypatch):
    from nsdevice.inputs import gpio

    class Unavailable(gpio.GpioButtons):
        def __init__(self, *_args, **_kwargs):
            raise gpio.GpioUnavailable("no GPIO buttons: no pin library")

    monkeypatch.setattr(gpio, "GpioButtons", Unavailable)
    chosen = plan(args(hardware="arcade-gpio", display="json", input="gpio"), {})
    inputs, message = open_inputs(chosen, QueueInbox(), "window")
    assert inputs == [] and message == "no GPIO buttons: no pin library; using the keyboard"


def test_button_builds_wait_on_a_plain_queue_and_windows_on_their_own_events():
    class Window:
        def inbox(self):
            return "window events"

    assert choose_inbox(Window(), "window", "gpio") == "window events"
    assert choose_inbox(Window(), "kmsdrm", "keyboard") == "window events"
    assert isinstance(choose_inbox(Window(), "kmsdrm", "gpio"), QueueInbox)


def test_the_profiles_rgb_led_lights_through_gpiozero():
    Device.pin_factory = MockFactory(pin_class=MockPWMPin)
    try:
        chosen = plan(args(hardware="display-hat-mini", display="json"), {})
        (light,) = open_lights(chosen, [])
        light((255, 0, 0))
        led = chosen.profile.led
        red = Device.pin_factory.pin(led.red)
        green = Device.pin_factory.pin(led.green)
        # active low: a lit channel drives its pin towards 0
        assert red.state == 0 and green.state == 1
        light(None)
        assert red.state == 1
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = MockFactory()


def test_the_hat_builds_buttons_and_led_wait_for_the_first_frame_then_work(monkeypatch):
    """Issue 35 (decision 0009): the Display HAT Mini's profile opens its panel alone; the
    loop's `later` then opens the buttons, whose edges reach the inbox, and the LED."""
    import nsdevice.runner.opening as opening
    from nsdevice.gallery import example_views
    from nsdevice.inputs.events import Button, Edge
    from nsdevice.runner import _open_buttons

    class Panel:
        def inbox(self):
            return None

    Device.pin_factory = MockFactory(pin_class=MockPWMPin)
    monkeypatch.setattr(opening, "open_display", lambda plan: (Panel(), None))
    try:
        chosen = plan(args(hardware="display-hat-mini"), {})
        assert opening.buttons_after_first_frame(chosen)
        asked = plan(args(hardware="display-hat-mini", input="gpio"), {})
        assert not opening.buttons_after_first_frame(asked)  # may fall back: opened at once
        _, inbox, inputs = opening.open_hardware(chosen, buttons_later=True)
        assert inputs == [] and opening.panel(chosen, inputs, buttons_later=True).keys == ()
        (led,) = _open_buttons(chosen, inbox, inputs)
        assert len(inputs) == 1
        lamp = chosen.profile.led
        channels = [Device.pin_factory.pin(pin) for pin in (lamp.red, lamp.green, lamp.blue)]
        led(dict(example_views("tokyo"))["turn"])
        assert [channel.state for channel in channels] != [1, 1, 1]  # active low: lit
        Device.pin_factory.pin(chosen.profile.input.button_pins()[Button.NEXT]).drive_low()
        (edge,) = inbox.get(5)
        assert isinstance(edge, Edge) and edge.button is Button.NEXT and edge.down
        for device in inputs:
            device.close()
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = MockFactory()
