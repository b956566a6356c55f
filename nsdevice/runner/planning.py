"""`nsdevice run`'s plan: which display and input, at what size, from the options and
the hardware profile, checked before anything opens (a bad option is exit 2 with the
panel still dark)."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from nsdevice.errors import UsageError
from nsdevice.hardware import backends
from nsdevice.options import AUTO, RunOptions, parse_size
from nsdevice.rules.frozen import dataclass

if TYPE_CHECKING:
    from nsdevice.hardware.profiles import Profile


def _fits_file_system(path: str) -> bool:
    """Whether a path's names fit Linux's limits (255 bytes a name, 4095 in all)."""
    data = os.fsencode(path)
    return bool(data) and len(data) < 4096 and all(len(part) <= 255 for part in data.split(b"/"))


def _size(
    display: str, asked: tuple[int, int] | None, profile: Profile | None
) -> tuple[int, int]:
    """The picture's size: a panel's own (from the profile that names it, else the back
    end's), never a window's; for anything else --size, the profile's, or 480x320."""
    panel = backends.DISPLAYS[display].size
    if profile is not None and profile.display.kind == display:
        panel = profile.display.size() if panel is not None else None
    if panel is not None:
        if asked is not None and asked != panel:
            width, height = asked
            raise usage(f"--size {width}x{height}: the {display} panel is {panel[0]}x{panel[1]}")
        return panel
    if asked is not None:
        return asked
    return profile.display.size() if profile is not None else (480, 320)


def _check_room(options: RunOptions) -> None:
    """--city, --players, --seed and --modules choose the game (a room's with --room, whose
    tables each choose their own number of players)."""
    from nsdevice.rules.modules import parse_modules

    if options.room and options.players is not None:
        raise usage("--players goes without --room (a room's tables choose their own size)")
    if options.modules is not None:
        try:
            parse_modules(options.modules)
        except ValueError as error:
            raise usage(f"--modules: {error}") from None


def usage(message: str) -> UsageError:
    return UsageError(f"nsdevice run: {message}")


def notice(message: str) -> None:
    print(f"nsdevice: {message}", file=sys.stderr, flush=True)


@dataclass(frozen=True)
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


def plan(options: RunOptions, environ: Mapping[str, str] | None = None) -> Plan:
    """What to open for these options; a usage error (exit 2) for options that do not fit."""
    env = dict(os.environ if environ is None else environ)
    profile = None
    if options.hardware:
        from nsdevice.hardware.profiles import ProfileError, load_profile

        try:
            profile = load_profile(options.hardware)
        except ProfileError as error:
            raise usage(str(error)) from None
        except OSError as error:  # a name or path the file system refuses, e.g. too long
            raise usage(f"--hardware {options.hardware!r}: {error.strerror}") from None
    elif options.hardware is not None:
        raise usage("--hardware needs a profile name or a .toml path")
    try:
        size = parse_size(options.size) if options.size else None
    except ValueError as error:
        raise usage(str(error)) from None
    display = options.display
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
    size = _size(display, size, profile)
    chosen_input = options.input
    if chosen_input == AUTO:
        chosen_input = profile.input.kind if profile is not None else "keyboard"
    keys: list[Any] = []
    input_options: dict[str, Any] = {}
    if chosen_input == "script":
        from nsdevice.inputs.script import parse_keys

        if options.keys is None:
            raise usage("--input script needs --keys, e.g. --keys next,next,back")
        try:
            keys = parse_keys(options.keys)
        except ValueError as error:
            raise usage(str(error)) from None
        input_options["presses"] = keys
        pace = options.pace
        if pace is not None:
            if not 0 <= pace <= 60:
                raise usage(f"--pace is 0 to 60 seconds, not {pace}")
            input_options["pace"] = pace
    elif options.keys is not None:
        raise usage("--keys goes with --input script")
    elif options.pace is not None:
        raise usage("--pace goes with --input script")
    _check_room(options)
    state_dir = options.state_dir
    if state_dir is not None and not _fits_file_system(state_dir):
        raise usage(f"--state-dir {state_dir!r}: the name is too long for a file system")
    shutdown_command = options.shutdown_command
    if shutdown_command:  # checked now, not when a player picks "shut down"
        import shlex  # (only then: the box and its page have no other use for it)

        try:
            shlex.split(shutdown_command)
        except ValueError as error:
            raise usage(f"bad --shutdown-command {shutdown_command!r}: {error}") from None
    from nsdevice.hardware.missing import required_parts

    required = required_parts(profile, options.display, options.input)
    port = options.port
    if port and backends.INPUTS[chosen_input].takes_port:
        input_options["port"] = port
    return Plan(display, chosen_input, size, profile, keys, port, fallback, input_options, required)
