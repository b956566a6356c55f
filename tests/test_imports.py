"""nsdevice.imports: parts of a library without its package __init__ (issue 23's memory)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from nsdevice.imports import TlsStandIn, without_init

UVICORN = """
import sys
from nsdevice.imports import provide, without_init
without_init("uvicorn")
from uvicorn.config import Config
from uvicorn.server import Server
provide("uvicorn", Config=Config, Server=Server)
import uvicorn.lifespan.on  # takes Config from the package
print(sorted(m for m in ("click", "multiprocessing", "uvicorn.main") if m in sys.modules))
import uvicorn
print(callable(uvicorn.run), uvicorn.__version__ != "", "click" in sys.modules)
"""

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
        (UVICORN, ["[]", "True True True"]),  # no command line until someone asks for more
        (GPIOZERO, ["[]", "gpiozero.input_devices True"]),  # no boards until asked
        # no mixer nor sprites to paint; anything else read from the package makes it whole
        (PYGAME, ["(255, 0, 0) []", "(255, 0, 0) ['pygame.mixer', 'pygame.sprite']"]),
    ],
    ids=["uvicorn", "gpiozero", "pygame"],
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
from nsdevice.imports import lean_server_config, without_openssl, without_init
without_openssl()
without_init("uvicorn")
lean_server_config()
import asyncio, hashlib, hmac, http.client
from uvicorn.config import Config
from uvicorn.server import Server
maps = open("/proc/self/maps").read()
print("libcrypto" in maps, "libssl" in maps, asyncio.base_events.ssl, http.client.HTTPSConnection
      if hasattr(http.client, "HTTPSConnection") else None)
print(hashlib.sha256(b"abc").hexdigest())
print(hmac.new(b"key", b"The quick brown fox jumps over the lazy dog", hashlib.sha256).hexdigest())
"""


def test_the_box_and_its_page_hash_and_serve_without_openssl() -> None:
    """Issue 35: OpenSSL's libcrypto and libssl (about 3 MB mapped) stay out of both
    processes; hashlib and hmac give the same digests from CPython's own SHA-256 (the
    published "abc" and "quick brown fox" vectors), and asyncio and uvicorn load without TLS."""
    result = subprocess.run([sys.executable, "-c", OPENSSL_FREE], capture_output=True,
                            text=True, timeout=60)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:3] == [
        "False False None None",
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8",
    ]


def test_the_tls_stand_in_has_ssls_own_values_and_refuses_the_rest() -> None:
    import ssl

    stand_in = TlsStandIn()
    assert stand_in.PROTOCOL_TLS_SERVER == ssl.PROTOCOL_TLS_SERVER
    assert stand_in.CERT_NONE == ssl.CERT_NONE
    with pytest.raises(RuntimeError, match="without TLS"):
        stand_in.SSLContext  # noqa: B018


TLS_LATER = """
import sys
from nsdevice.imports import lean_server_config, server_imported, without_init
without_init("uvicorn")
lean_server_config()
import asyncio
from uvicorn.config import Config
server_imported()
import ssl
print(asyncio.base_events.ssl, ssl.PROTOCOL_TLS_SERVER == Config(app=None).ssl_version)
"""


def test_ssl_asked_after_the_pages_server_is_loaded_is_the_real_one() -> None:
    """What imports `ssl` once the page's server is loaded gets it (an ImportError would end
    the page); asyncio keeps serving without it."""
    result = subprocess.run([sys.executable, "-c", TLS_LATER], capture_output=True,
                            text=True, timeout=60)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:1] == ["None True"]


TLS_ASKED_MORE = """
from nsdevice.imports import TlsStandIn, lean_server_config, server_imported, without_init
del TlsStandIn.CERT_NONE  # as a uvicorn would find it that reads a constant ours lacks
without_init("uvicorn")
lean_server_config()
import ssl, sys
from uvicorn.config import Config
server_imported()
config = sys.modules["uvicorn.config"]
print(type(config.ssl).__name__, Config(app=None).ssl_cert_reqs == ssl.CERT_NONE)
"""


def test_a_uvicorn_that_asks_more_of_ssl_as_it_loads_is_given_the_real_one() -> None:
    """The stand-in names two constants of today's uvicorn; a release that reads another as
    it loads must still serve (with OpenSSL then), never end the page at its start."""
    result = subprocess.run([sys.executable, "-c", TLS_ASKED_MORE], capture_output=True,
                            text=True, timeout=60)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:1] == ["module True"]


LOGGING_LATER = """
import sys
from nsdevice.imports import lean_server_config, without_init
without_init("uvicorn")
lean_server_config()
from uvicorn.config import Config
Config(app=None, log_level="warning", log_config=None).configure_logging()
import uvicorn.server
import nsdevice.web.app, nsdevice.web.doorman  # the page's own, as web.process imports them
from nsdevice.imports import server_imported
server_imported()
unused = ("logging.handlers", "socketserver", "configparser", "html", "html.entities",
          "http.client", "http.cookies", "email.message", "calendar", "mimetypes")
print([name for name in unused if getattr(sys.modules.get(name), "__file__", None)])
import logging.config, configparser
logging.config.dictConfig({"version": 1})
print(type(logging.config.dictConfig).__name__, configparser.RawConfigParser.__module__)
from email.utils import formatdate
print(uvicorn.server.formatdate(0, usegmt=True), formatdate(0, usegmt=True)[:3])
"""


def test_the_pages_server_loads_no_logging_set_up_it_does_not_read() -> None:
    """Issue 35: uvicorn's config without logging.config, logging.handlers, socketserver and
    configparser (0.5 MB) when given no log configuration, and the page's whole server
    (uvicorn and its own routes, web.asgi) without html's entities, http.client and the
    email package's parsing (0.7 MB), cookies or mimetypes; whoever uses them later gets
    the real modules."""
    result = subprocess.run([sys.executable, "-c", LOGGING_LATER], capture_output=True,
                            text=True, timeout=60)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:3] == [
        "[]",
        "function configparser",
        "Thu, 01 Jan 1970 00:00:00 GMT Thu",
    ]
