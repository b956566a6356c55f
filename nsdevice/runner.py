"""`nsdevice run` and `hwtest`: plan the back ends, open them, and run the loop or the check.

`cli` is the one dispatcher; this module only plans, opens and runs. The back ends come
from one table (`nsdevice.backends`), imported only when chosen.

A back end chosen on the command line that cannot start falls back to one that can, with
a one-line notice on stderr (and on screen where it matters). The SPI panel and GPIO
buttons a hardware profile names are required instead: see `missing_hardware`.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import os
import shlex
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from nsdevice import backends
from nsdevice.errors import UsageError
from nsdevice.locale import LANGUAGES

if TYPE_CHECKING:  # the classes themselves are imported late, when opened
    from nsdevice.displays import Display
    from nsdevice.hardware import Profile
    from nsdevice.inputs.device import InputDevice
    from nsdevice.inputs.events import Inbox
    from nsdevice.views import Panel as PanelType
    from nsdevice.views import View

AUTO = "auto"
DISPLAYS = (AUTO, *backends.DISPLAYS)
INPUTS = (AUTO, *backends.INPUTS)


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
    parser.add_argument(
        "--pace", type=float, default=None, help="with --input script: seconds between presses"
    )
    parser.add_argument("--size", default=None, help="window size WIDTHxHEIGHT (480x320)")
    parser.add_argument("--hardware", default=None, help="hardware profile name or .toml path")
    parser.add_argument("--port", default=None, help="serial port of the button board")
    parser.add_argument("--state-dir", default=None, help="where the game is kept")
    parser.add_argument(
        "--shutdown-command", default=None, help="offer 'shut down' in the menu, running this"
    )
    parser.add_argument(
        "--web",
        default=None,
        metavar="[HOST:]PORT",
        help="serve the phones' page there (the service uses 0.0.0.0:8414)",
    )
    parser.add_argument(
        "--no-web", action="store_true", help="no phones' page, whatever --web says"
    )
    parser.add_argument(
        "--voice", action="store_true", help="say each card aloud (kept as the menu's Voice)"
    )
    parser.add_argument(
        "--language", choices=LANGUAGES, default=None, help="the box's language (kept)"
    )


def parse_size(text: str) -> tuple[int, int]:
    width, sep, height = text.lower().partition("x")
    if not (sep and width.isdigit() and height.isdigit()):
        raise ValueError(f"size must look like 480x320, not {text!r}")
    size = (int(width), int(height))
    if not (160 <= size[0] <= 4096 and 120 <= size[1] <= 4096):
        raise ValueError(f"size {text} is outside 160x120 to 4096x4096")
    return size


def _fits_file_system(path: str) -> bool:
    """Whether a path's names fit Linux's limits (255 bytes a name, 4095 in all)."""
    data = os.fsencode(path)
    return bool(data) and len(data) < 4096 and all(len(part) <= 255 for part in data.split(b"/"))


def _usage(message: str) -> UsageError:
    return UsageError(f"nsdevice run: {message}")


def notice(message: str) -> None:
    print(f"nsdevice: {message}", file=sys.stderr, flush=True)


@dataclass
class Plan:
    """What `run` will use, decided from the options and the hardware profile."""

    display: str
    input: str
    size: tuple[int, int]
    profile: Profile | None = None
    keys: list[Any] = field(default_factory=list)
    port: str | None = None
    notice: str | None = None  # said once when `auto` had to settle for less
    # the input's keyword arguments given on the command line (script keys, --port)
    input_options: dict[str, Any] = field(default_factory=dict)
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
        except OSError as error:  # a name or path the file system refuses, e.g. too long
            raise _usage(f"--hardware {args.hardware!r}: {error.strerror}") from None
    elif args.hardware is not None:
        raise _usage("--hardware needs a profile name or a .toml path")
    try:
        size = parse_size(args.size) if args.size else None
    except ValueError as error:
        raise _usage(str(error)) from None
    display = args.display
    fallback = None
    if display == AUTO:
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
    if chosen_input == AUTO:
        chosen_input = profile.input.kind if profile is not None else "keyboard"
    keys: list[Any] = []
    input_options: dict[str, Any] = {}
    if chosen_input == "script":
        from nsdevice.inputs.script import parse_keys

        if args.keys is None:
            raise _usage("--input script needs --keys, e.g. --keys next,next,back")
        try:
            keys = parse_keys(args.keys)
        except ValueError as error:
            raise _usage(str(error)) from None
        input_options["presses"] = keys
        pace = getattr(args, "pace", None)
        if pace is not None:
            if not 0 <= pace <= 60:
                raise _usage(f"--pace is 0 to 60 seconds, not {pace}")
            input_options["pace"] = pace
    elif args.keys is not None:
        raise _usage("--keys goes with --input script")
    elif getattr(args, "pace", None) is not None:
        raise _usage("--pace goes with --input script")
    state_dir = getattr(args, "state_dir", None)
    if state_dir is not None and not _fits_file_system(state_dir):
        raise _usage(f"--state-dir {state_dir!r}: the name is too long for a file system")
    shutdown_command = getattr(args, "shutdown_command", None)
    if shutdown_command:  # checked now, not when a player picks "shut down"
        try:
            shlex.split(shutdown_command)
        except ValueError as error:
            raise _usage(f"bad --shutdown-command {shutdown_command!r}: {error}") from None
    from nsdevice.missing_hardware import required_parts

    required = required_parts(profile, args.display, args.input)
    port = getattr(args, "port", None)
    if port and backends.INPUTS[chosen_input].takes_port:
        input_options["port"] = port
    return Plan(
        display, chosen_input, size, profile, keys, port, fallback, input_options, required
    )


def open_display(chosen: Plan) -> tuple[Display, str | None]:
    """The display to draw on, falling back to the terminal; and a notice if it fell back."""
    from nsdevice.displays import Display, DisplayUnavailable

    backend = backends.DISPLAYS[chosen.display]
    options = dict(backend.options)
    profile = chosen.profile
    if profile is not None and profile.display.kind == chosen.display:
        options.update(profile.display.options)  # the profile's fields are its arguments
        if profile.display.diagonal_inches is not None and profile.display.kind != "text":
            options["diagonal_inches"] = profile.display.diagonal_inches  # sizes in mm
    try:
        return backend.load(Display).open(chosen.size, **options), None
    except DisplayUnavailable as error:
        if "display" in chosen.required:
            from nsdevice.missing_hardware import missing_display

            raise missing_display(chosen.profile, str(error)) from None
        terminal = backends.DISPLAYS[backends.FALLBACK_DISPLAY].load(Display).open(chosen.size)
        return terminal, f"no {chosen.display} display ({error}); using the terminal"


def open_inputs(
    chosen: Plan, inbox: Inbox, display_kind: str
) -> tuple[list[InputDevice], str | None]:
    """Start the chosen input; fall back to the keyboard with a notice."""
    from nsdevice.inputs.device import InputDevice, InputUnavailable

    fallback = None
    if chosen.input != backends.FALLBACK_INPUT:
        backend = backends.INPUTS[chosen.input]
        options: dict[str, Any] = {}
        profile = chosen.profile
        if profile is not None and profile.input.kind == chosen.input:
            options.update(profile.input.options)  # the profile's fields are its arguments
        options.update(chosen.input_options)
        if backend.requires and not options:
            fallback = f"--input {chosen.input} needs --hardware with {backend.requires}"
        else:
            try:
                device = backend.load(InputDevice).open(inbox, **options)
            except InputUnavailable as error:
                if "input" in chosen.required:
                    from nsdevice.missing_hardware import missing_input

                    raise missing_input(chosen.profile, str(error)) from None
                fallback = str(error)
            else:
                device.start()  # a script is queued now, read by the loop after its first frame
                return [device], None
    said = f"{fallback}; using the keyboard" if fallback else None
    if display_kind in backends.WINDOWS:  # a window reads its own keys
        return [], said
    keys = backends.INPUTS[backends.FALLBACK_INPUT].load(InputDevice).open(inbox)
    keys.start()
    return [keys], said


Colour = tuple[int, int, int]


def open_lights(chosen: Plan, inputs: list[InputDevice]) -> list[Callable[[Colour | None], None]]:
    """Every LED the build has: the serial board's and the profile's RGB LED on GPIO."""
    lights: list[Callable[[Colour | None], None]] = [
        device.set_led for device in inputs if device.has_led
    ]
    led = chosen.profile.led if chosen.profile is not None else None
    if led is not None:
        try:
            from gpiozero import RGBLED

            rgb = RGBLED(led.red, led.green, led.blue, active_high=led.active_high)
        except Exception as error:  # any pin failure only means no LED
            notice(f"LED unavailable ({error})")
        else:

            def light(colour: Colour | None) -> None:
                rgb.color = _unit(colour)

            lights.append(light)
    return lights


def _unit(colour: Colour | None) -> tuple[float, float, float]:
    red, green, blue = colour or (0, 0, 0)
    return (red / 255, green / 255, blue / 255)


def _led_output(chosen: Plan, inputs: list[InputDevice]) -> list[Callable[[View], None]]:
    """Light the LEDs in the colour of the current card's kind (Display HAT Mini, Pico)."""
    from nsdevice.displays.theme import kind_led_colour

    def output(light: Callable[[Colour | None], None]) -> Callable[[View], None]:
        return lambda view: light(kind_led_colour(view))

    return [output(light) for light in open_lights(chosen, inputs)]


def choose_inbox(display: Display, display_kind: str, input_kind: str) -> Inbox:
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


def open_hardware(chosen: Plan) -> tuple[Display, Inbox, list[InputDevice]]:
    """The display, the inbox to wait on and the started inputs, each with its fallback
    said in one line."""
    if chosen.notice:
        notice(chosen.notice)
    display, display_notice = open_display(chosen)
    if display_notice:
        notice(display_notice)
    display_kind = chosen.display if display_notice is None else backends.FALLBACK_DISPLAY
    inbox = choose_inbox(display, display_kind, chosen.input)
    try:
        inputs, input_notice = open_inputs(chosen, inbox, display_kind)
    except Exception:  # the profile's buttons are missing: leave the panel dark
        display.close()
        raise
    if input_notice:
        notice(input_notice)
    return display, inbox, inputs


def _tracker_options(chosen: Plan) -> dict[str, float]:
    """The hardware profile's debounce time (worn switches bounce longer), if it has one."""
    return {"debounce": chosen.profile.input.debounce} if chosen.profile is not None else {}


def panel(chosen: Plan, inputs: list[InputDevice]) -> PanelType:
    """Where the labels go: the profile's button places; where keys are the buttons (a
    window with no buttons, or the terminal's keys), the keys on the labels."""
    from nsdevice.inputs.keyboard import KEY_LABELS as TERMINAL_KEYS
    from nsdevice.inputs.keyboard import TerminalKeys
    from nsdevice.views import DEFAULT_PANEL

    placed = chosen.profile.panel() if chosen.profile is not None else DEFAULT_PANEL
    if any(isinstance(device, TerminalKeys) for device in inputs):
        return placed.with_keys(TERMINAL_KEYS)
    if not inputs and chosen.display in backends.WINDOWS:  # the window reads its own keys
        from nsdevice.displays.pygame_display import KEY_LABELS as WINDOW_KEYS

        return placed.with_keys(WINDOW_KEYS)
    return placed


def run(args: argparse.Namespace) -> int:
    from nsdevice.inputs.events import ButtonTracker
    from nsdevice.locale import system_language
    from nsdevice.loop import Loop
    from nsdevice.notify import Notifier
    from nsdevice.saving import Saver, open_game
    from nsdevice.session import Capabilities, Session, Settings
    from nsdevice.session.settings import VOLUME_LEVELS
    from nsdevice.speaker import Speaker
    from nsdevice.store import hold_folder, state_directory

    chosen = plan(args)
    web_address = _web_address(args)
    today = local_date(os.environ)  # before the hardware opens: a bad test date exits 2
    directory = Path(args.state_dir) if args.state_dir else state_directory()
    folder = hold_folder(directory)  # one box per state folder, else exit 2 naming the other
    display, inbox, inputs = open_hardware(chosen)

    # Under the service the box may not power off itself: it exits with an agreed status
    # and the unit's root-side ExecStopPost powers off (systemd/nsdevice.service).
    power_off_status = os.environ.get("NSDEVICE_POWER_OFF_EXIT_STATUS", "")
    capabilities = Capabilities(
        brightness=display.supports_brightness,
        shutdown=bool(args.shutdown_command) or power_off_status.isdigit(),
        panel=panel(chosen, inputs),
        phones=_phone_addresses(*web_address) if web_address else (),
    )
    chosen_settings = _chosen_settings(args)

    def fresh(records: Saver) -> Session:
        # No game under way: deal one of the remembered setup, so that NEXT goes forward
        # from the first screen; saved at once, so a restart keeps the same deal.
        session = Session(
            Settings.from_dict({"language": system_language(), **chosen_settings}),
            capabilities=capabilities,
            records=records,
            today=today,
        )
        session.deal_new_game()
        records(session.snapshot())
        return session

    started = open_game(
        directory,
        fresh=fresh,
        restore=lambda data, records: Session.restore(
            _with_settings(data, chosen_settings),
            capabilities=capabilities,
            records=records,
            today=today,
        ),
        log=notice,
    )
    session, saver = started.session, started.saver
    for key, detail in started.notices:
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

    buttons = bool(getattr(args, "phone_buttons", False))
    web = _open_web(web_address, inbox, buttons) if web_address else None
    # the voice follows the menu's setting; pygame's mixer opens after the first frame
    speaker = Speaker(lambda: (session.settings.voice, session.settings.volume / VOLUME_LEVELS))
    loop = Loop(
        session=session,
        display=display,
        inbox=inbox,
        tracker=ButtonTracker(**_tracker_options(chosen)),
        save=saver,
        notifier=Notifier(),
        outputs=[*_led_output(chosen, inputs), speaker],
        on_request=on_request,
        publish=web.publish if web is not None else None,
        retry=saver.retry,
    )
    if web is not None:
        web.start()  # it serves once the loop has drawn its first frame
    try:
        status = loop.run()
        return exit_status or status
    finally:
        if web is not None:
            web.close()
        for device in inputs:
            with contextlib.suppress(Exception):
                device.close()
        speaker.close()
        display.close()
        saver.close(session.snapshot())
        folder.release()


def _chosen_settings(args: argparse.Namespace) -> dict[str, Any]:
    """What the command line sets of the remembered settings: `--language`, `--voice`."""
    chosen: dict[str, Any] = {}
    if getattr(args, "language", None):
        chosen["language"] = args.language
    if getattr(args, "voice", False):
        chosen["voice"] = True
    return chosen


def _with_settings(data: dict[str, Any], chosen: dict[str, Any]) -> dict[str, Any]:
    """A saved snapshot with the command line's settings in force (a damaged one is left
    for `Session.restore` to refuse)."""
    settings = data.get("settings") if isinstance(data, dict) else None
    if not chosen or not isinstance(settings, dict):
        return data
    return {**data, "settings": {**settings, **chosen}}


TODAY_VARIABLE = "NSDEVICE_TODAY"  # a test hook: YYYY-MM-DD fixes the clock of the day's deal


def local_date(environ: Mapping[str, str]) -> Callable[[], datetime.date]:
    """The clock for the day's deal (D-2): the local date, asked at each new game; a test
    fixes it with NSDEVICE_TODAY=YYYY-MM-DD (refused with exit 2 when not a date)."""
    fixed = environ.get(TODAY_VARIABLE, "")
    if not fixed:
        return datetime.date.today
    try:
        day = datetime.date.fromisoformat(fixed)
    except ValueError:
        raise _usage(f"{TODAY_VARIABLE}={fixed!r}: not a date (YYYY-MM-DD)") from None
    return lambda: day


def _web_address(args: argparse.Namespace) -> tuple[str, int] | None:
    text = getattr(args, "web", None)
    if not text or getattr(args, "no_web", False):
        return None
    from nsdevice.web.server import parse_address

    try:
        return parse_address(text)
    except ValueError as error:
        raise _usage(str(error)) from None


def _phone_addresses(host: str, port: int) -> tuple[str, ...]:
    """Where phones find the page: this machine's address on the network (for the QR
    code) and its mDNS name; the bound address itself when it is a single one."""
    import socket

    if host not in ("0.0.0.0", "::", ""):
        return (f"http://{host}:{port}/",)
    addresses = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.255.255.255", 9))  # a datagram socket sends nothing on connect
        addresses.append(f"http://{probe.getsockname()[0]}:{port}/")
    addresses.append(f"http://{socket.gethostname()}.local:{port}/")
    return tuple(addresses)


def _open_web(address: tuple[str, int], inbox: Inbox, buttons: bool = False) -> Any:
    """The phones' page, ready to start; its symbols are drawn by the box's own painter."""
    from nsdevice.web.payload import Artwork
    from nsdevice.web.server import WebSide

    def artwork() -> Artwork:
        from nsdevice.displays import artwork as drawn

        return Artwork(drawn.symbol_pngs(), drawn.card_colours(), drawn.pencil_colours())

    host, port = address
    return WebSide(host, port, inbox.put, artwork, on_error=notice, buttons=buttons)


def check_hardware(args: argparse.Namespace) -> int:
    """`nsdevice hwtest`: open the profile's hardware as `run` would, and guide the check."""
    from nsdevice.hwtest import check

    namespace = argparse.Namespace(
        hardware=args.hardware, display=AUTO, input=AUTO, keys=None, size=None, port=None
    )
    try:
        chosen = plan(namespace)
    except UsageError as error:  # plan speaks as `run`; this is hwtest's own option
        raise UsageError(str(error).replace("nsdevice run:", "nsdevice hwtest:", 1)) from None
    display, inbox, inputs = open_hardware(chosen)
    leds = open_lights(chosen, inputs)
    try:
        return check(display, inbox, leds=leds, timeout=args.timeout)
    finally:
        for device in inputs:
            device.close()
        display.close()
