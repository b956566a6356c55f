"""The two ways a person plays: keys in a window, and the Display HAT Mini's own buttons.

Both run the real loop, session and store; only the hardware below them is faked
(SDL's dummy driver, gpiozero's mock pins, a fake SPI panel).
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable

import pygame
import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from nsdevice.box.loop import Loop
from nsdevice.displays.pygame_display import PygameDisplay
from nsdevice.displays.st7789_display import St7789Display
from nsdevice.hardware.profiles import load_profile
from nsdevice.inputs.events import Button, ButtonTracker, Edge, Press, QueueInbox, Stop
from nsdevice.inputs.gpio import GpioButtons
from nsdevice.runner.opening import led_output as _led_output
from nsdevice.runner.planning import Plan
from nsdevice.session import Session, Settings
from nsdevice.store import Store

ALL_MODULES = ("objectives", "special_stations", "city_gates", "pencil_powers")


@pytest.mark.parametrize("city", ["tokyo", "paris", "london"])
@pytest.mark.parametrize("players", [1, 4])
def test_a_whole_game_by_keyboard_in_a_window(tmp_path, city, players):
    """Every screen from setup to the ending card, with key presses posted to the window."""
    display = PygameDisplay((480, 320))
    inbox = display.inbox()
    store = Store.open(tmp_path).store
    session = Session(Settings(city=city, players=players, modules=ALL_MODULES),
                      records=store, seed_source=lambda: "WINDOW")  # fmt: skip
    # Keys do not bounce: a short debounce lets the test type quickly, like a fast player.
    tracker = ButtonTracker(debounce=0.01)
    loop = Loop(session=session, display=display, inbox=inbox, tracker=tracker,
                save=store.save)  # fmt: skip
    fed: list[Edge] = []  # the keys as the loop read them, stamped then
    real_feed = tracker.feed

    def feed(edge: Edge) -> list[Press]:
        fed.append(edge)
        return real_feed(edge)

    tracker.feed = feed  # type: ignore[method-assign]
    screens: list[str] = []
    real_show = display.show

    def show(view):
        screens.append(view.screen)
        real_show(view)

    display.show = show
    # solo: one total; four players: each seat's total, seat 3 ahead, so no best line (C-12)
    entries = [3] if players == 1 else [2, 2, 4, 2]

    failed: list[str] = []  # what the player waited for in vain (a thread cannot assert)

    def player():
        def key(name: str) -> None:
            # The window stamps a key when the loop reads it, not when it was posted: down
            # and up go back to back (a pause between them could, on a loaded machine,
            # reach the 0.8 s hold), and the next key waits until the loop has read this
            # one's up and the debounce has passed since (else it would be bounce).
            code = pygame.key.key_code(name)
            edges = len(fed)
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code))
            pygame.event.post(pygame.event.Event(pygame.KEYUP, key=code))
            wait_for(lambda: len(fed) >= edges + 2, f"the loop to read {name!r}")
            time.sleep(max(0.0, fed[-1].at + 2 * tracker.debounce - time.monotonic()))

        def wait_for(condition: Callable[[], bool], what: str) -> None:
            # the wait ends on the event; the deadline only catches one that never comes
            deadline = time.monotonic() + 60
            while not condition():
                if time.monotonic() > deadline:
                    failed.append(f"waited in vain for {what} on {screens[-1]!r}")
                    raise SystemExit
                time.sleep(0.002)

        def step(name: str) -> None:  # one key, then the frame it causes (each key here
            before = len(screens)  # changes the screen)
            key(name)
            wait_for(lambda: len(screens) > before, f"a frame after {name!r}")

        try:
            while not screens:  # the setup screen first, so each step sees its own frame
                time.sleep(0.002)
            step("m")  # start
            while screens[-1] != "game_end":
                step("right")
            step("right")  # to the scores
            for value in entries:
                step("escape")  # past the hundreds
                step("escape")  # past the tens
                for _ in range(value):
                    step("space")
                step("escape")  # the units: this field done
        finally:
            inbox.put(Stop("played"))

    threading.Thread(target=player, daemon=True).start()
    assert loop.run() == 0
    display.close()
    assert not failed, failed
    assert screens[0] == "setup"
    assert screens.count("round_start") == 4 and screens.count("round_end") == 4
    assert screens[-1] == "result"
    result = session.view()
    if players == 1:
        assert result.adjusted == 3 - 40  # C-13: four modules, ten points each
    else:
        assert result.winners == (3,) and result.decided_by == "total"  # C-12
    assert store.finished_games()[0]["city"] == city


class FakePanel:
    def __init__(self) -> None:
        self.frames: list[bytes] = []
        self.backlight: list[bool] = []

    def set_window(self, *window: int) -> None:
        pass

    def data(self, data: bytes) -> None:
        self.frames.append(bytes(data))

    def set_backlight(self, value: bool) -> None:
        self.backlight.append(value)


def test_display_hat_mini_buttons_panel_and_led_play_a_round(tmp_path):
    profile = load_profile("display-hat-mini")
    Device.pin_factory = MockFactory(pin_class=MockPWMPin)
    panel = FakePanel()
    inbox = QueueInbox()
    try:
        spec = profile.display
        display = St7789Display(width=spec.width, height=spec.height, rotation=spec.rotation,
                                panel=panel)  # fmt: skip
        buttons = GpioButtons(profile.input.button_pins(), inbox, pull_up=profile.input.pull_up)
        outputs = _led_output(Plan("st7789", "gpio", spec.size(), profile), [])
        session = Session(Settings(city="tokyo", players=2), seed_source=lambda: "HAT")
        # The loop publishes each table it drew; the player presses again only once the last
        # press showed, as a person would, so a slow machine (qemu) cannot put the Stop ahead of
        # a press still in gpiozero's threads.
        shown: queue.Queue[int] = queue.Queue()
        loop = Loop(session=session, display=display, inbox=inbox, tracker=ButtonTracker(),
                    outputs=outputs, publish=lambda table: shown.put(table.game))  # fmt: skip
        pins = profile.input.button_pins()

        def press(button: Button) -> None:
            pin = Device.pin_factory.pin(pins[button])
            pin.drive_low()
            time.sleep(0.1)  # a tap: past the 30 ms debounce, far short of the 0.8 s hold
            pin.drive_high()
            with contextlib.suppress(queue.Empty):
                shown.get(timeout=10)

        def player():
            with contextlib.suppress(queue.Empty):
                shown.get(timeout=10)  # the first frame
            for button in (Button.MENU, Button.NEXT, Button.NEXT):
                press(button)
            inbox.put(Stop("seen"))

        threading.Thread(target=player, daemon=True).start()
        assert loop.run() == 0
        assert session.view().screen == "turn"
        frame_bytes = spec.width * spec.height * 2  # RGB565
        assert len(panel.frames) >= 4 and len(panel.frames[0]) == frame_bytes
        # later frames send only the window that changed
        assert all(0 < len(f) <= frame_bytes for f in panel.frames)
        led = profile.led
        lit = [Device.pin_factory.pin(p).state for p in (led.red, led.green, led.blue)]
        assert lit != [1, 1, 1]  # active low: some channel is on for the revealed card
        buttons.close()
        display.close()
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = MockFactory()
