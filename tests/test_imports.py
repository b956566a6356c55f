"""nsdevice.imports: parts of a library without its package __init__ (issue 23's memory)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from nsdevice.imports import without_init

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


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        (UVICORN, ["[]", "True True True"]),  # no command line until someone asks for more
        (GPIOZERO, ["[]", "gpiozero.input_devices True"]),  # no boards until asked
    ],
    ids=["uvicorn", "gpiozero"],
)
def test_the_parts_load_alone_and_the_package_stays_whole(code: str, expected: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.splitlines() == expected


def test_a_missing_package_is_an_import_error() -> None:
    with pytest.raises(ImportError, match="not installed"):
        without_init("nsdevice_no_such_package")
