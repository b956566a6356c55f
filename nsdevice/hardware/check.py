"""`nsdevice hwtest`: a guided check for the person who just built a box.

`runner.check_hardware` opens the build's hardware; this module only runs the check on it.

It shows a test pattern, asks for each button in turn, lights the LED in each colour,
and ends with what worked. Exit status 0 when every button answered, 1 otherwise.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from nsdevice.displays import Display
from nsdevice.inputs.events import Button, ButtonTracker, Edge, Inbox, Press, Stop
from nsdevice.session.hardware_test import hardware_test_view

LED_COLOURS = {"red": (255, 0, 0), "green": (0, 255, 0), "blue": (0, 0, 255)}


def wait_for_press(
    inbox: Inbox,
    tracker: ButtonTracker,
    timeout: float,
    clock: Callable[[], float] = time.monotonic,
) -> Press | None:
    """The next logical press within `timeout` seconds, or None (also on Stop)."""
    deadline = clock() + timeout
    while (left := deadline - clock()) > 0:
        hold = tracker.next_deadline()
        wait = min(left, max(0.0, hold - clock())) if hold is not None else left
        for item in inbox.get(wait):
            if isinstance(item, Stop):
                return None
            if isinstance(item, Edge):
                presses = tracker.feed(item)
            else:  # a press, or something only the game takes (a phone's score)
                presses = [item] if isinstance(item, Press) else []
            if presses:
                return presses[0]
        due = tracker.due(clock())
        if due:
            return due[0]
    return None


def check(
    display: Display,
    inbox: Inbox,
    *,
    report: Callable[[str], None] = print,
    leds: list[Callable[[tuple[int, int, int] | None], None]] | None = None,
    timeout: float = 30.0,
    language: str = "en",
    led_seconds: float = 0.7,
) -> int:
    """Run the guided check on an opened display and inbox; the exit status."""
    tracker = ButtonTracker()
    passed: list[str] = []
    failed: list[str] = []

    def show(step: str, **fields: Any) -> None:
        display.show(hardware_test_view(step, language, passed=passed, failed=failed, **fields))

    show(step="pattern")
    report("hwtest: the screen shows a test pattern; press any button to go on")
    wait_for_press(inbox, tracker, timeout)
    for button in Button:
        show(step="press", button=button.value)
        report(f"hwtest: press {button.value.upper()}")
        while True:
            press = wait_for_press(inbox, tracker, timeout)
            if press is None:
                failed.append(button.value)
                report(f"hwtest: {button.value.upper()} did not answer within {timeout:g} s")
                break
            if press.button is button:
                passed.append(button.value)
                report(f"hwtest: {button.value.upper()} works ({press})")
                break
            report(f"hwtest: got {press.button.value.upper()}, waiting for {button.value.upper()}")
    for name, colour in LED_COLOURS.items():
        if not leds:
            break
        show(step="led", led=name)
        report(f"hwtest: the LED should be {name}")
        for led in leds:
            led(colour)
        time.sleep(led_seconds)
    for led in leds or ():
        led(None)
    show(step="done")
    verdict = "every button answered" if not failed else f"no answer from {', '.join(failed)}"
    report(f"hwtest: {verdict}")
    return 0 if not failed else 1
