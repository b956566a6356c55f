"""GpioButtons on gpiozero's mock pins: edges reach the inbox, and the tracker makes presses."""

from __future__ import annotations

import subprocess
import sys
import threading
import warnings
from collections.abc import Iterator

import gpiozero
import pytest
from gpiozero.exc import BadPinFactory, PinFactoryFallback
from gpiozero.pins.mock import MockFactory

from nsdevice.inputs.events import Button, ButtonTracker, Edge, Gesture, Press, QueueInbox
from nsdevice.inputs.gpio import GpioButtons, GpioUnavailable

PINS = {Button.NEXT: 17, Button.BACK: 27, Button.MENU: 22}


class FakeClock:
    """A clock the test moves by hand, so edge times are exact."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory()
    yield factory
    factory.reset()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def inbox() -> QueueInbox:
    return QueueInbox()


@pytest.fixture
def buttons(factory: MockFactory, inbox: QueueInbox, clock: FakeClock) -> Iterator[GpioButtons]:
    with GpioButtons(PINS, inbox, clock=clock, pin_factory=factory) as buttons:
        yield buttons


def drive(factory: MockFactory, clock: FakeClock, pin: int, *steps: tuple[float, bool]) -> None:
    """Move the clock and the pin: each step is (seconds later, pressed). Pressed is low."""
    for later, pressed in steps:
        clock.now += later
        if pressed:
            factory.pin(pin).drive_low()
        else:
            factory.pin(pin).drive_high()


def presses_from(inbox: QueueInbox, tracker: ButtonTracker, until: float) -> list[Press]:
    """Feed every waiting edge to the tracker, then let it run to `until`."""
    result: list[Press] = []
    for item in inbox.get(timeout=0):
        assert isinstance(item, Edge)
        result += tracker.feed(item)
    while (deadline := tracker.next_deadline()) is not None and deadline <= until:
        result += tracker.due(deadline)
    return result


@pytest.mark.usefixtures("buttons")
def test_press_and_release_put_down_and_up_edges_stamped_by_the_clock(
    factory: MockFactory, inbox: QueueInbox, clock: FakeClock
) -> None:
    drive(factory, clock, 17, (0.0, True), (0.25, False))
    assert inbox.get(timeout=0) == [
        Edge(Button.NEXT, True, 100.0),
        Edge(Button.NEXT, False, 100.25),
    ]


@pytest.mark.usefixtures("buttons")
@pytest.mark.parametrize(("button", "pin"), PINS.items())
def test_each_pin_reports_its_own_button(
    factory: MockFactory, inbox: QueueInbox, clock: FakeClock, button: Button, pin: int
) -> None:
    drive(factory, clock, pin, (0.0, True))
    assert inbox.get(timeout=0) == [Edge(button, True, 100.0)]


def test_pull_down_wiring_reads_high_as_pressed(
    factory: MockFactory, inbox: QueueInbox, clock: FakeClock
) -> None:
    with GpioButtons({Button.MENU: 5}, inbox, pull_up=False, clock=clock, pin_factory=factory):
        factory.pin(5).drive_high()
        factory.pin(5).drive_low()
    assert inbox.get(timeout=0) == [Edge(Button.MENU, True, 100.0), Edge(Button.MENU, False, 100.0)]


@pytest.mark.usefixtures("buttons")
def test_chatter_on_a_pin_reaches_the_tracker_as_one_tap(
    factory: MockFactory, inbox: QueueInbox, clock: FakeClock
) -> None:
    bounces = [(0.002, i % 2 == 0) for i in range(9)]  # 2 ms chatter, ends pressed
    drive(factory, clock, 17, *bounces, (0.15, False), (0.002, True), (0.002, False))
    assert presses_from(inbox, ButtonTracker(), until=clock.now + 5) == [Press(Button.NEXT)]


@pytest.mark.usefixtures("buttons")
def test_long_hold_on_a_pin_gives_hold_then_repeats_and_no_tap(
    factory: MockFactory, inbox: QueueInbox, clock: FakeClock
) -> None:
    tracker = ButtonTracker(hold=0.8, repeat=0.15)
    drive(factory, clock, 22, (0.0, True))
    assert presses_from(inbox, tracker, until=100.0 + 1.0) == [
        Press(Button.MENU, Gesture.HOLD),
        Press(Button.MENU, Gesture.REPEAT),
    ]
    drive(factory, clock, 22, (1.02, False))
    assert presses_from(inbox, tracker, until=clock.now + 5) == []


def test_edges_are_not_debounced_by_gpiozero(
    factory: MockFactory, inbox: QueueInbox, clock: FakeClock, buttons: GpioButtons
) -> None:
    drive(factory, clock, 27, (0.0, True), (0.001, False), (0.001, True))
    assert [edge.down for edge in inbox.get(timeout=0)] == [True, False, True]


def test_close_releases_the_pins_and_stops_the_edges(
    factory: MockFactory, inbox: QueueInbox, clock: FakeClock
) -> None:
    buttons = GpioButtons(PINS, inbox, clock=clock, pin_factory=factory)
    with pytest.raises(gpiozero.GPIOPinInUse):
        gpiozero.DigitalInputDevice(17, pin_factory=factory)
    buttons.close()
    buttons.close()  # twice is fine
    again = gpiozero.DigitalInputDevice(17, pin_factory=factory)  # the pin is free again
    again.close()
    factory.pin(27).drive_low()
    assert inbox.get(timeout=0) == []


def test_idle_buttons_run_no_polling_threads(
    factory: MockFactory, inbox: QueueInbox, clock: FakeClock
) -> None:
    before = threading.active_count()
    with GpioButtons(PINS, inbox, clock=clock, pin_factory=factory):
        factory.pin(17).drive_low()  # even a held button: holds are the tracker's job
        assert threading.active_count() == before


def test_default_pin_factory_is_used_when_none_is_given(
    monkeypatch: pytest.MonkeyPatch, factory: MockFactory, inbox: QueueInbox, clock: FakeClock
) -> None:
    monkeypatch.setattr(gpiozero.Device, "pin_factory", factory)
    with GpioButtons({Button.BACK: 6}, inbox, clock=clock):
        factory.pin(6).drive_low()
    assert inbox.get(timeout=0) == [Edge(Button.BACK, True, 100.0)]


def test_no_pin_back_end_raises_gpio_unavailable_with_a_one_line_reason(
    monkeypatch: pytest.MonkeyPatch, inbox: QueueInbox
) -> None:
    monkeypatch.setattr(gpiozero.Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-back-end")
    with pytest.raises(GpioUnavailable) as caught:
        GpioButtons(PINS, inbox)
    message = str(caught.value)
    assert "\n" not in message
    assert "no-such-back-end" in message


def fallback_then(outcome: MockFactory | None) -> staticmethod:
    """Stands in for gpiozero's back-end search: one fallback warning, then `outcome`."""

    def search() -> MockFactory:
        warnings.warn(PinFactoryFallback("Falling back from lgpio: no lgpio here"), stacklevel=2)
        if outcome is None:
            raise BadPinFactory("Unable to load any default pin factory!")
        return outcome

    return staticmethod(search)


def test_back_end_search_warnings_fold_into_the_one_line_reason(
    monkeypatch: pytest.MonkeyPatch, inbox: QueueInbox
) -> None:
    monkeypatch.setattr(gpiozero.Device, "pin_factory", None)
    monkeypatch.setattr(gpiozero.Device, "_default_pin_factory", fallback_then(None))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # none may escape as a page of warnings
        with pytest.raises(GpioUnavailable, match="lgpio: no lgpio here") as caught:
            GpioButtons(PINS, inbox)
    assert "\n" not in str(caught.value)


def test_back_end_found_after_a_fallback_passes_the_warning_on(
    monkeypatch: pytest.MonkeyPatch, factory: MockFactory, inbox: QueueInbox
) -> None:
    monkeypatch.setattr(gpiozero.Device, "pin_factory", None)
    monkeypatch.setattr(gpiozero.Device, "_default_pin_factory", fallback_then(factory))
    with pytest.warns(PinFactoryFallback, match="lgpio"):
        GpioButtons({Button.NEXT: 17}, inbox).close()


def test_a_pin_the_board_lacks_raises_gpio_unavailable(
    factory: MockFactory, inbox: QueueInbox
) -> None:
    with pytest.raises(GpioUnavailable, match="99"):
        GpioButtons({Button.NEXT: 17, Button.BACK: 99}, inbox, pin_factory=factory)
    # pin 17 was claimed before 99 failed: it must have been given back
    gpiozero.DigitalInputDevice(17, pin_factory=factory).close()


def test_two_buttons_on_one_pin_are_refused(inbox: QueueInbox) -> None:
    with pytest.raises(ValueError, match="17"):
        GpioButtons({Button.NEXT: 17, Button.BACK: 17}, inbox, pin_factory=MockFactory())


def test_importing_the_module_does_not_import_gpiozero() -> None:
    code = "import sys, nsdevice.inputs.gpio; print('gpiozero' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr
