"""Open what the plan chose: the display, the inputs and the LEDs, each falling back
with a notice when it was only asked for, and stopping with the cause and its fix when the
hardware profile names it (`missing_hardware`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from nsdevice.hardware import backends
from nsdevice.runner.planning import Plan, notice

if TYPE_CHECKING:  # the classes themselves are imported late, when opened
    from nsdevice.displays import Display
    from nsdevice.inputs.device import InputDevice
    from nsdevice.inputs.events import Inbox
    from nsdevice.views import Panel as PanelType
    from nsdevice.views import View


SOUND_MODULES = ("mixer", "mixer_music", "sndarray")  # pygame's, `imports.part` loads them
# pygame.image's codecs: SDL_image and the libraries it maps (TIFF, WebP, JPEG, harfbuzz and
# GLib with them: about 2.5 MB), loaded as pygame.image starts, which goes on without them.
# The box reads and writes no image file (its PNGs are its own: `artwork`), and playing
# loads no pygame.image at all; a screenshot asked for still may, and gets no codecs
IMAGE_CODECS = ("imageext",)


def open_display(chosen: Plan) -> tuple[Display, str | None]:
    """The display to draw on, falling back to the terminal; and a notice if it fell back."""
    from nsdevice.displays import Display, DisplayUnavailable
    from nsdevice.imports import held_back, loaded_when_used

    # pygame's sound and its codecs load when the voice or a chime first plays, its image
    # codecs never (issue 35)
    held_back("pygame", (*SOUND_MODULES, *IMAGE_CODECS))
    loaded_when_used("difflib")  # pygame.freetype's SysFont matches names with it: none asked
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
            from nsdevice.hardware.missing import missing_display

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
                    from nsdevice.hardware.missing import missing_input

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
            from nsdevice.imports import gpiozero_by_parts

            gpiozero_by_parts()  # as the buttons load it: only the devices used
            from gpiozero.output_devices import RGBLED

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


def led_output(chosen: Plan, inputs: list[InputDevice]) -> list[Callable[[View], None]]:
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


def buttons_after_first_frame(chosen: Plan) -> bool:
    """Whether the profile's GPIO buttons (and its LED) open only once the first frame is
    out: gpiozero and its pin library were a sixth of the start to that frame on a Pi Zero
    2 W (issue 35), and a picture needs no buttons. Only buttons a profile names: they open
    or stop the box, so no fallback to the keyboard can change the labels that frame drew."""
    return chosen.input == "gpio" and "input" in chosen.required


def open_hardware(
    chosen: Plan, *, buttons_later: bool = False
) -> tuple[Display, Inbox, list[InputDevice]]:
    """The display, the inbox to wait on and the started inputs, each with its fallback
    said in one line; with `buttons_later`, no inputs yet (`open_buttons`)."""
    if chosen.notice:
        notice(chosen.notice)
    display, display_notice = open_display(chosen)
    if display_notice:
        notice(display_notice)
    display_kind = chosen.display if display_notice is None else backends.FALLBACK_DISPLAY
    inbox = choose_inbox(display, display_kind, chosen.input)
    if buttons_later and display_notice is None:
        return display, inbox, []
    try:
        inputs, input_notice = open_inputs(chosen, inbox, display_kind)
    except Exception:  # the profile's buttons are missing: leave the panel dark
        display.close()
        raise
    if input_notice:
        notice(input_notice)
    return display, inbox, inputs


def open_buttons(chosen: Plan, inbox: Inbox) -> list[InputDevice]:
    """The profile's GPIO buttons, putting their edges into `inbox` (`buttons_after_first_frame`);
    missing, a `HardwareMissing` as `open_hardware` would have stopped with."""
    inputs, _ = open_inputs(chosen, inbox, chosen.display)  # required: never a fallback
    return inputs


def tracker_options(chosen: Plan) -> dict[str, float]:
    """The hardware profile's debounce time (worn switches bounce longer), if it has one."""
    return {"debounce": chosen.profile.input.debounce} if chosen.profile is not None else {}


def panel(chosen: Plan, inputs: list[InputDevice], *, buttons_later: bool = False) -> PanelType:
    """Where the labels go: the profile's button places; where keys are the buttons (a
    window with no buttons, or the terminal's keys), the keys on the labels. With
    `buttons_later` the profile's buttons are to come (`buttons_after_first_frame`)."""
    from nsdevice.views import DEFAULT_PANEL

    placed = chosen.profile.panel() if chosen.profile is not None else DEFAULT_PANEL
    for device in inputs:  # (the terminal's keys, read without loading the keyboard's module)
        if device.key_labels is not None:
            return placed.with_keys(device.key_labels)
    if not inputs and not buttons_later and chosen.display in backends.WINDOWS:  # its keys
        from nsdevice.displays.pygame_display import KEY_LABELS as WINDOW_KEYS

        return placed.with_keys(WINDOW_KEYS)
    return placed
