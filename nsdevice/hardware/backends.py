"""Every back end the box can draw on or read buttons from, by name, in one table.

The command line's choices, the hardware profiles' `kind`s and the runner's opening all
read these tables, so a new back end is one line here. Each entry names its class as
"module:Class" and is imported only when chosen (choosing the terminal never loads pygame
or gpiozero), the way gpiozero picks its pin factory; when one cannot start, the runner
falls back to `FALLBACK_DISPLAY` or `FALLBACK_INPUT` and says so.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import field
from types import MappingProxyType
from typing import Any, Final, TypeVar

from nsdevice.rules.frozen import dataclass

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Backend:
    name: str
    target: str  # "package.module:Class", imported only when the back end is opened
    # fixed keyword arguments, e.g. full screen for the Pi's own screen
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    in_profiles: bool = True  # a hardware profile may name it (not the test-only ones)
    requires: str = ""  # what only a hardware profile can give it, e.g. "button pins"
    takes_port: bool = False  # `nsdevice run --port` names its port
    # A panel's own size in pixels: the picture is drawn at it, not at a window's size
    # (a profile naming the panel gives its size instead). None: any size goes.
    size: tuple[int, int] | None = None

    def load(self, base: type[T]) -> type[T]:
        """The back end's class, imported now; it must be a `base`."""
        module_name, _, class_name = self.target.partition(":")
        found = vars(importlib.import_module(module_name))[class_name]
        if not (isinstance(found, type) and issubclass(found, base)):
            raise TypeError(f"{self.target} is not a {base.__name__}")
        return found


def _table(*backends: Backend) -> Mapping[str, Backend]:
    return MappingProxyType({backend.name: backend for backend in backends})


DISPLAYS: Final = _table(
    Backend("window", "nsdevice.displays.pygame_display:PygameDisplay"),
    Backend(
        "kmsdrm",
        "nsdevice.displays.pygame_display:PygameDisplay",
        MappingProxyType({"fullscreen": True, "driver": "kmsdrm"}),
    ),
    Backend("text", "nsdevice.displays.text_display:TextDisplay"),
    Backend("json", "nsdevice.displays.json_display:JsonDisplay", in_profiles=False),
    Backend("st7789", "nsdevice.displays.st7789_display:St7789Display", size=(320, 240)),
    # A plain Linux framebuffer: HDMI where KMS/DRM cannot start (the emulated Pi).
    Backend("framebuffer", "nsdevice.displays.framebuffer_display:FramebufferDisplay"),
)
INPUTS: Final = _table(
    Backend("keyboard", "nsdevice.inputs.keyboard:TerminalKeys"),
    Backend("gpio", "nsdevice.inputs.gpio:GpioButtons", requires="button pins"),
    Backend("script", "nsdevice.inputs.script:ScriptInput", in_profiles=False),
    Backend("serial", "nsdevice.inputs.serial_board:SerialBoard", takes_port=True),
)
FALLBACK_DISPLAY: Final = "text"  # a terminal is always there
FALLBACK_INPUT: Final = "keyboard"
# Displays that read their own keys (a window's events), so no keyboard input is opened.
WINDOWS: Final = ("window", "kmsdrm")


def profile_kinds(table: Mapping[str, Backend]) -> tuple[str, ...]:
    """The names a hardware profile may use, in the table's order."""
    return tuple(name for name, backend in table.items() if backend.in_profiles)
