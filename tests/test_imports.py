"""nsdevice.imports: parts of a library without its package __init__ (issue 23's memory)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from nsdevice.imports import without_init

GPIOZERO = """
import sys
from nsdevice.imports import without_init
without_init("gpiozero")
from gpiozero.input_devices import DigitalInputDevice
from gpiozero.output_devices import RGBLED
print(sorted(m for m in ("gpiozero.boards", "gpiozero.spi_devices") if m in sys.modules))
from gpiozero import Device, Button
print(Button.__module__, "gpiozero.boards" in sys.modules)
"""

PYGAME = """
import sys
import nsdevice.displays  # pygame part by part: what painting reads from the package
import pygame
surface = pygame.Surface((4, 4), pygame.SRCALPHA)
pygame.draw.rect(surface, (255, 0, 0), pygame.Rect(0, 0, 2, 2))
loaded = lambda: sorted(m for m in ("pygame.mixer", "pygame.sprite") if m in sys.modules)
print(surface.get_at((1, 1))[:3], loaded())
print(pygame.Color("red")[:3], loaded())
"""


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        (GPIOZERO, ["[]", "gpiozero.input_devices True"]),  # no boards until asked
        # no mixer nor sprites to paint; anything else read from the package makes it whole
        (PYGAME, ["(255, 0, 0) []", "(255, 0, 0) ['pygame.mixer', 'pygame.sprite']"]),
    ],
    ids=["gpiozero", "pygame"],
)
def test_the_parts_load_alone_and_the_package_stays_whole(code: str, expected: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.splitlines() == expected


def test_a_missing_package_is_an_import_error() -> None:
    with pytest.raises(ImportError, match="not installed"):
        without_init("nsdevice_no_such_package")


SOUND = """
import os, sys
from nsdevice.runner.opening import open_display
from nsdevice.runner.planning import plan
from nsdevice.options import RunOptions
from nsdevice.imports import part
def mapped(library):
    return library in open("/proc/self/maps").read()
display, fell_back = open_display(plan(RunOptions(display="window", size="320x240"), {}))
assert fell_back is None, fell_back
assert "pygame" in sys.modules and display.size == (320, 240)
print(mapped("SDL2_mixer"), sys.modules.get("pygame.mixer"))
mixer = part("pygame.mixer")
mixer.init()
import pygame
print(mapped("SDL2_mixer"), mixer.get_init() is not None, pygame.mixer is mixer)
"""


def test_the_box_loads_pygames_sound_only_when_it_first_plays() -> None:
    """Issue 35: the mixer and its codec libraries (~3 MB) are not mapped by a box that
    has said nothing yet; `part` then loads them whole, and they play."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    result = subprocess.run([sys.executable, "-c", SOUND], capture_output=True, text=True,
                            env=env, timeout=60)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:2] == ["False None", "True True True"]


GPIOZERO_METADATA = """
import sys
from nsdevice.imports import gpiozero_by_parts
gpiozero_by_parts()
from gpiozero.input_devices import DigitalInputDevice
from gpiozero.devices import Device
print("importlib.metadata" in sys.modules, "email" in sys.modules)
factory = Device._default_pin_factory()  # GPIOZERO_PIN_FACTORY=mock: found by entry point
print(type(factory).__name__, "importlib.metadata" in sys.modules)
import importlib.metadata, importlib_metadata
print(importlib_metadata.version("gpiozero") == importlib.metadata.version("gpiozero") != "")
"""


def test_gpiozero_loads_importlib_metadata_only_to_find_a_named_pin_factory() -> None:
    """Issue 35: importlib.metadata (1.5 MB with email, zipfile, csv) is not loaded with
    the buttons; a pin factory named in GPIOZERO_PIN_FACTORY is still found by its entry
    point, and whatever else is asked of the stand-in comes from the standard library."""
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock"}
    result = subprocess.run([sys.executable, "-c", GPIOZERO_METADATA], capture_output=True,
                            text=True, env=env, timeout=60)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:3] == ["False False", "MockFactory True", "True"]


GPIOZERO_BUTTONS = """
import sys
from nsdevice.imports import gpiozero_by_parts
gpiozero_by_parts()
from gpiozero.input_devices import DigitalInputDevice, SmoothedInputDevice
from gpiozero.output_devices import RGBLED
from gpiozero.pins.mock import MockFactory, MockPWMPin
factory = MockFactory(pin_class=MockPWMPin)
button = DigitalInputDevice(16, pin_factory=factory)
button.when_activated = lambda: None
led = RGBLED(17, 18, 19, pin_factory=factory)
led.color = (1, 0, 0.5)
real = lambda name: getattr(sys.modules.get(name), "__file__", None) is not None
print([name for name in ("statistics", "fractions", "decimal", "colorzero") if real(name)])
print(led.color.html, [name for name in ("colorzero", "fractions") if real(name)])
import statistics, gpiozero.mixins
print(gpiozero.mixins.median([3, 1, 2]), statistics.fmean([1, 2]), real("statistics"))
"""


def test_the_buttons_and_the_led_load_no_statistics_nor_colours() -> None:
    """Issue 35: gpiozero's buttons and RGB LED set from a tuple, as the HAT's box uses
    them, load neither `statistics` nor colorzero (with fractions and decimal: 0.5 MB of
    the box's memory); asked for a colour or a median, gpiozero gets the real ones."""
    result = subprocess.run([sys.executable, "-c", GPIOZERO_BUTTONS], capture_output=True,
                            text=True, timeout=60)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:3] == [
        "[]",
        "#ff0080 ['colorzero', 'fractions']",
        "2 1.5 True",
    ]


OPENSSL_FREE = """
import sys
from nsdevice.imports import lean_asyncio, without_openssl
without_openssl()
lean_asyncio()
import asyncio, hashlib, hmac
import nsdevice.web.app, nsdevice.web.doorman, nsdevice.web.serving  # the page's server
maps = open("/proc/self/maps").read()
print("libcrypto" in maps, "libssl" in maps, asyncio.base_events.ssl, "ssl" in sys.modules)
print(hashlib.sha256(b"abc").hexdigest())
print(hmac.new(b"key", b"The quick brown fox jumps over the lazy dog", hashlib.sha256).hexdigest())
import ssl  # whoever asks later gets the real one; asyncio keeps serving without it
print(ssl.PROTOCOL_TLS_SERVER > 0, asyncio.base_events.ssl)
"""


def test_the_box_and_its_page_hash_and_serve_without_openssl() -> None:
    """Issue 35: OpenSSL's libcrypto and libssl (about 3 MB mapped) stay out of both
    processes; hashlib and hmac give the same digests from CPython's own SHA-256 (the
    published "abc" and "quick brown fox" vectors), and asyncio and the page's server load
    without TLS; `ssl` asked for afterwards is the real one (an ImportError would end the
    page)."""
    result = subprocess.run([sys.executable, "-c", OPENSSL_FREE], capture_output=True,
                            text=True, timeout=60)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:4] == [
        "False False None False",
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8",
        "True None",
    ]


UNUSED = """
import sys
from nsdevice.imports import lean_asyncio
lean_asyncio()
import nsdevice.web.app, nsdevice.web.doorman, nsdevice.web.serving  # as web.process does
unused = ("logging.config", "logging.handlers", "socketserver", "configparser", "html",
          "http.client", "http.cookies", "email.message", "email.utils", "calendar",
          "mimetypes", "uvicorn", "starlette", "anyio", "_posixsubprocess")
print([name for name in unused if name in sys.modules],
      getattr(sys.modules.get("subprocess"), "__file__", None))
import asyncio.subprocess, subprocess  # asked later: the real one; asyncio reads it too
print(asyncio.subprocess.PIPE == subprocess.PIPE, asyncio.base_events.subprocess.Popen
      is subprocess.Popen, "_posixsubprocess" in sys.modules)
"""


def test_the_pages_server_loads_no_module_it_does_not_use() -> None:
    """Issue 35: the page's whole server (its own on asyncio and h11, web.serving, and its
    own routes, web.asgi) loads no logging set-up, no html, http.client or email parsing,
    cookies or mimetypes (what uvicorn and Starlette needed stand-ins to keep out), and
    asyncio no subprocess until something asks for it."""
    result = subprocess.run([sys.executable, "-c", UNUSED], capture_output=True, text=True,
                            timeout=60)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:2] == ["[] None", "True True True"]


QUIET_LOGGING = """
import sys
from nsdevice.imports import lean_asyncio
lean_asyncio()
import nsdevice.web.app, nsdevice.web.doorman, nsdevice.web.serving  # as web.process does
import asyncio

async def serve_a_moment():
    await asyncio.sleep(0)

asyncio.run(serve_a_moment())  # the loop says "Using selector" at debug level as it starts
print("logging" in sys.modules, asyncio.futures.STACK_DEBUG)

async def fail():
    raise ValueError("lost")

async def lose_a_task():
    task = asyncio.ensure_future(fail())
    await asyncio.sleep(0.01)
    del task  # never awaited: asyncio logs its error as the task goes

asyncio.run(lose_a_task())
import gc
gc.collect()
import logging
print("logging" in sys.modules, asyncio.log.logger.name, logging.getLogger("asyncio").level)
"""


def test_the_pages_asyncio_loads_logging_only_for_a_line_it_writes() -> None:
    """Issue 35: asyncio and concurrent.futures ask for a logger as they load, and the
    loop writes a debug line as it starts; the page loads logging (0.3 MB) only for a line
    logging would show. A task's lost error still reaches stderr through the real logging,
    and a logger asked for afterwards is the real one."""
    result = subprocess.run([sys.executable, "-c", QUIET_LOGGING], capture_output=True,
                            text=True, timeout=60)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:2] == ["False 9", "True asyncio 0"]
    assert "Task exception was never retrieved" in result.stderr
    assert "ValueError: lost" in result.stderr
