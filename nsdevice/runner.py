"""`nsdevice run`, `screenshot` and `hwtest`: choose the back ends and start the loop.

A back end chosen on the command line that cannot start falls back to one that can, with
a one-line notice on stderr (and on screen where it matters). The SPI panel and GPIO
buttons a hardware profile names are required instead: see `missing_hardware`.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DISPLAYS = ("auto", "window", "kmsdrm", "text", "json", "st7789")
INPUTS = ("auto", "keyboard", "gpio", "script", "serial")


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--display",
        choices=DISPLAYS,
        default="auto",
        help="where to draw (auto: window on a desktop, else the Pi's screen)",
    )
    parser.add_argument(
        "--input",
        choices=INPUTS,
        default="auto",
        help="where presses come from (auto: the hardware profile or keyboard)",
    )
    parser.add_argument(
        "--keys", default=None, help="with --input script: presses such as next,back,hold:menu"
    )
    parser.add_argument("--size", default=None, help="window size WIDTHxHEIGHT (480x320)")
    parser.add_argument("--hardware", default=None, help="hardware profile name or .toml path")
    parser.add_argument("--port", default=None, help="serial port of the button board")
    parser.add_argument("--state-dir", default=None, help="where the game is kept")
    parser.add_argument(
        "--shutdown-command", default=None, help="offer 'shut down' in the menu, running this"
    )


def parse_size(text: str) -> tuple[int, int]:
    width, sep, height = text.lower().partition("x")
    if not (sep and width.isdigit() and height.isdigit()):
        raise ValueError(f"size must look like 480x320, not {text!r}")
    size = (int(width), int(height))
    if not (160 <= size[0] <= 4096 and 120 <= size[1] <= 4096):
        raise ValueError(f"size {text} is outside 160x120 to 4096x4096")
    return size


def _usage(message: str) -> Exception:
    from nsdevice.errors import UsageError

    return UsageError(f"nsdevice run: {message}")


def notice(message: str) -> None:
    print(f"nsdevice: {message}", file=sys.stderr, flush=True)


@dataclass
class Plan:
    """What `run` will use, decided from the options and the hardware profile."""

    display: str
    input: str
    size: tuple[int, int]
    profile: Any = None
    keys: list = field(default_factory=list)
    port: str | None = None
    notice: str | None = None  # said once when `auto` had to settle for less
    # "display", "input": chosen by the profile, so they must open (missing_hardware.py)
    required: frozenset[str] = frozenset()


def plan(args: argparse.Namespace, environ: dict[str, str] | None = None) -> Plan:
    env = dict(os.environ if environ is None else environ)
    profile = None
    if args.hardware:
        from nsdevice.hardware import ProfileError, load_profile

        try:
            profile = load_profile(args.hardware)
        except ProfileError as error:
            raise _usage(str(error)) from None
    try:
        size = parse_size(args.size) if args.size else None
    except ValueError as error:
        raise _usage(str(error)) from None
    display = args.display
    fallback = None
    if display == "auto":
        if profile is not None:
            display = profile.display.kind
        elif env.get("DISPLAY") or env.get("WAYLAND_DISPLAY") or sys.platform != "linux":
            display = "window"
        elif any(Path("/dev/dri").glob("card*")):
            display = "kmsdrm"
        else:
            display = "text"
            fallback = "no screen found; showing the game in this terminal"
    if size is None:
        size = profile.display.size() if profile is not None else (480, 320)
    chosen_input = args.input
    if chosen_input == "auto":
        chosen_input = profile.input.kind if profile is not None else "keyboard"
    keys: list = []
    if chosen_input == "script":
        from nsdevice.inputs.script import parse_keys

        if args.keys is None:
            raise _usage("--input script needs --keys, e.g. --keys next,next,back")
        try:
            keys = parse_keys(args.keys)
        except ValueError as error:
            raise _usage(str(error)) from None
    elif args.keys is not None:
        raise _usage("--keys goes with --input script")
    shutdown_command = getattr(args, "shutdown_command", None)
    if shutdown_command:  # checked now, not when a player picks "shut down"
        try:
            shlex.split(shutdown_command)
        except ValueError as error:
            raise _usage(f"bad --shutdown-command {shutdown_command!r}: {error}") from None
    from nsdevice.missing_hardware import required_parts

    required = required_parts(profile, args.display, args.input)
    port = getattr(args, "port", None)
    return Plan(display, chosen_input, size, profile, keys, port, fallback, required)


def open_display(chosen: Plan) -> tuple[Any, str | None]:
    """The display to draw on, falling back to the terminal; and a notice if it fell back."""
    from nsdevice.displays import DisplayUnavailable

    try:
        if chosen.display == "json":
            from nsdevice.displays.json_display import JsonDisplay

            return JsonDisplay(), None
        if chosen.display == "text":
            from nsdevice.displays.text_display import TextDisplay

            return TextDisplay(), None
        if chosen.display == "st7789":
            from nsdevice.displays.st7789_display import St7789Display

            spec = chosen.profile.display if chosen.profile is not None else None
            options: dict[str, Any] = {"width": chosen.size[0], "height": chosen.size[1]}
            if spec is not None:
                for ours, theirs in (
                    ("port", "spi_port"),
                    ("chip_select", "spi_chip_select"),
                    ("data_command", "data_command_pin"),
                    ("backlight", "backlight_pin"),
                    ("rotation", "rotation"),
                    ("spi_speed_hz", "spi_speed_hz"),
                ):
                    value = getattr(spec, theirs)
                    if value is not None:
                        options[ours] = value
            return St7789Display(**options), None
        from nsdevice.displays.pygame_display import PygameDisplay

        if chosen.display == "kmsdrm":
            return PygameDisplay(chosen.size, fullscreen=True, driver="kmsdrm"), None
        return PygameDisplay(chosen.size), None
    except DisplayUnavailable as error:
        if "display" in chosen.required:
            from nsdevice.missing_hardware import missing_display

            raise missing_display(chosen.profile, str(error)) from None
        from nsdevice.displays.text_display import TextDisplay

        return TextDisplay(), f"no {chosen.display} display ({error}); using the terminal"


def open_inputs(chosen: Plan, inbox: Any, display_kind: str) -> tuple[list[Any], str | None]:
    """Start the chosen input; fall back to the keyboard with a notice."""
    if chosen.input == "script":
        from nsdevice.inputs.script import ScriptInput

        script = ScriptInput(chosen.keys, inbox)
        script.start()  # queued now, read by the loop after its first frame
        return [script], None
    fallback = None
    if chosen.input == "gpio":
        from nsdevice.inputs.gpio import GpioButtons, GpioUnavailable

        if chosen.profile is None or not chosen.profile.input.buttons:
            fallback = "--input gpio needs --hardware with button pins"
        else:
            spec = chosen.profile.input
            try:
                return [GpioButtons(spec.button_pins(), inbox, pull_up=spec.pull_up)], None
            except GpioUnavailable as error:
                if "input" in chosen.required:
                    from nsdevice.missing_hardware import missing_input

                    raise missing_input(chosen.profile, str(error)) from None
                fallback = str(error)
    if chosen.input == "serial":
        from nsdevice.inputs.serial_board import SerialBoard

        spec = chosen.profile.input if chosen.profile is not None else None
        board = SerialBoard(
            inbox,
            port=chosen.port or (spec.device if spec else None),
            usb_vendor_id=spec.usb_vendor_id if spec else None,
            usb_product_id=spec.usb_product_id if spec else None,
        )
        board.start()
        return [board], None
    # keyboard: a window reads its own keys; otherwise the terminal does
    if display_kind in ("window", "kmsdrm") and fallback is None:
        return [], None
    if display_kind in ("window", "kmsdrm"):
        return [], f"{fallback}; using the keyboard"
    from nsdevice.inputs.keyboard import TerminalKeys

    keys = TerminalKeys(inbox)
    keys.start()
    return [keys], (f"{fallback}; using the keyboard" if fallback else None)


Colour = tuple[int, int, int]


def open_lights(chosen: Plan, inputs: list[Any]) -> list[Callable[[Colour | None], None]]:
    """Every LED the build has: the serial board's and the profile's RGB LED on GPIO."""
    lights: list[Callable[[Colour | None], None]] = [
        device.set_led for device in inputs if hasattr(device, "set_led")
    ]
    led = chosen.profile.led if chosen.profile is not None else None
    if led is not None:
        try:
            from gpiozero import RGBLED

            rgb = RGBLED(led.red, led.green, led.blue, active_high=led.active_high)
        except Exception as error:  # any pin failure only means no LED
            notice(f"LED unavailable ({error})")
        else:
            lights.append(lambda colour: setattr(rgb, "color", _unit(colour)))
    return lights


def _unit(colour: Colour | None) -> tuple[float, float, float]:
    red, green, blue = colour or (0, 0, 0)
    return (red / 255, green / 255, blue / 255)


def _led_output(chosen: Plan, inputs: list[Any]) -> list[Callable[[Any], None]]:
    """Light the LEDs in the colour of the current card's kind (Display HAT Mini, Pico)."""
    from nsdevice.displays.theme import kind_led_colour

    return [
        lambda view, light=light: light(kind_led_colour(view))
        for light in open_lights(chosen, inputs)
    ]


def choose_inbox(display: Any, display_kind: str, input_kind: str) -> Any:
    """Wait on the display's own events only when its keys or window need them.

    SDL 2 has no true blocking wait on the kmsdrm and dummy drivers: it checks for events
    every millisecond. A box driven by GPIO, serial or a script therefore waits on a plain
    queue and sleeps for real; a window keeps its events so it stays responsive.
    """
    from nsdevice.inputs.events import QueueInbox

    own = display.inbox()
    if own is not None and (input_kind == "keyboard" or display_kind == "window"):
        return own
    return QueueInbox()


def open_hardware(chosen: Plan) -> tuple[Any, Any, list[Any]]:
    """The display, the inbox to wait on and the started inputs, each with its fallback
    said in one line."""
    if chosen.notice:
        notice(chosen.notice)
    display, display_notice = open_display(chosen)
    if display_notice:
        notice(display_notice)
    display_kind = chosen.display if display_notice is None else "text"
    inbox = choose_inbox(display, display_kind, chosen.input)
    try:
        inputs, input_notice = open_inputs(chosen, inbox, display_kind)
    except Exception:  # the profile's buttons are missing: leave the panel dark
        display.close()
        raise
    if input_notice:
        notice(input_notice)
    return display, inbox, inputs


def run(args: argparse.Namespace) -> int:
    from nsdevice.inputs.events import ButtonTracker
    from nsdevice.locale import system_language
    from nsdevice.loop import Loop
    from nsdevice.notify import Notifier
    from nsdevice.session import Capabilities, Session, Settings
    from nsdevice.store import Store, state_directory

    chosen = plan(args)
    display, inbox, inputs = open_hardware(chosen)

    directory = Path(args.state_dir) if args.state_dir else state_directory()
    opened = Store.open(directory)
    store = opened.store
    notices: list[tuple[str, str]] = [opened.notice] if opened.notice else []
    # Under the service the box may not power off itself: it exits with an agreed status
    # and the unit's root-side ExecStopPost powers off (systemd/nsdevice.service).
    power_off_status = os.environ.get("NSDEVICE_POWER_OFF_EXIT_STATUS", "")
    capabilities = Capabilities(
        brightness=bool(getattr(display, "supports_brightness", False)),
        shutdown=bool(args.shutdown_command) or power_off_status.isdigit(),
    )
    session_options = {"capabilities": capabilities, "records": store}
    session = None
    try:
        saved = store.load()
        if saved is not None:
            session = Session.restore(saved, **session_options)
    except ValueError:  # unreadable, or a game that cannot be: kept aside, a fresh start
        notices.append(("store_damaged", store.discard()))
    if session is None:
        session = Session(Settings(language=system_language()), **session_options)
    session.notices.extend(notices)
    for key, detail in notices:
        notice(f"{key.replace('_', ' ')}: {detail}")

    exit_status = 0

    def on_request(request: str) -> None:
        nonlocal exit_status
        if request != "shutdown":
            return
        if args.shutdown_command:
            subprocess.run(shlex.split(args.shutdown_command), check=False)
        elif power_off_status.isdigit():
            exit_status = int(power_off_status)

    loop = Loop(
        session=session,
        display=display,
        inbox=inbox,
        tracker=ButtonTracker(),
        save=store.save,
        notifier=Notifier(),
        outputs=_led_output(chosen, inputs),
        on_request=on_request,
    )
    try:
        status = loop.run()
        return exit_status or status
    finally:
        for device in inputs:
            with contextlib.suppress(Exception):
                device.close()
        display.close()
        store.close()


def screenshot(args: argparse.Namespace) -> int:
    from nsdevice.screenshots import render_all

    try:
        size = parse_size(args.size)
    except ValueError as error:
        from nsdevice.errors import UsageError

        raise UsageError(f"nsdevice screenshot: {error}") from None
    try:
        files = render_all(Path(args.out), size=size)
    except OSError as error:  # a folder that cannot be made or written: the user's to fix
        from nsdevice.errors import UsageError

        reason = error.strerror or str(error)
        raise UsageError(f"nsdevice screenshot: cannot write to {args.out}: {reason}") from None
    print(f"{len(files)} screens written to {args.out}")
    return 0


def dispatch(args: argparse.Namespace) -> int:
    if args.command == "run":
        return run(args)
    if args.command == "screenshot":
        return screenshot(args)
    if args.command == "hwtest":
        from nsdevice.hwtest import hwtest

        return hwtest(args)
    raise AssertionError(args.command)
