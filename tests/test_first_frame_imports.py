"""What the Display HAT Mini build has loaded when it says READY=1, right after its first
frame (issue 35: start → first frame ≤ 450 M instructions on the Pi, benchmarks/pi_cost.py).

Each module named below was moved out of the start because the first frame does not need
it; its test fails if it comes back. The build runs as the service starts it (`nsdevice run
--hardware display-hat-mini`), with the real `st7789` library over a stand-in `spidev` and
the benchmarks' stand-in GPIO lines, and gpiozero's mock pins.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.panel_library import st7789  # skips where the panel library is absent

ROOT = Path(__file__).resolve().parent.parent
FAKE_GPIO_LINES = ROOT / "benchmarks" / "pi_guest" / "fake_gpio"

# Runs the box and writes what it has loaded when the notifier connects to send READY=1.
LAUNCH = """
import inspect, json, os, runpy, sys
report, state = sys.argv[1], sys.argv[2]
asked, signature = [], inspect.signature
def counted(thing, *arguments, **options):  # the standard dataclass asks for a docstring
    asked.append(getattr(thing, "__qualname__", repr(thing)))
    return signature(thing, *arguments, **options)
inspect.signature = counted
def heard(event, arguments):
    if event == "socket.connect":  # the loop's READY=1, sent right after the first frame
        with open(report + ".signatures", "w") as out:
            json.dump(asked, out)
        with open(report, "w") as out:
            # loaded: a None entry is a module held back (imports.held_back), one without a
            # spec a stand-in that loads it when first used (imports.loaded_when_used)
            json.dump(sorted(k for k, m in sys.modules.items()
                             if getattr(m, "__spec__", None) is not None), out)
        os._exit(0)
sys.addaudithook(heard)
sys.argv = ["nsdevice", "run", "--hardware", "display-hat-mini", "--state-dir", state]
runpy.run_module("nsdevice", run_name="__main__", alter_sys=True)
"""

# A bus that takes every byte (the st7789 library sets its mode and speed, then writes).
SPIDEV = """
class SpiDev:
    def __init__(self, *arguments):
        self.mode, self.lsbfirst, self.max_speed_hz = 0, False, 0
    def xfer(self, data):
        return [0] * len(data)
    def writebytes2(self, data):
        pass
    def close(self):
        pass
"""


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The report of one start of the HAT build to its READY=1."""
    return start(tmp_path_factory, {})


@pytest.fixture(scope="module")
def started_optimized(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same start as the service makes it: optimized, no docstrings (its unit's
    PYTHONOPTIMIZE=2; no bytecode written, as there)."""
    return start(tmp_path_factory, {"PYTHONOPTIMIZE": "2", "PYTHONDONTWRITEBYTECODE": "1"})


def start(tmp_path_factory: pytest.TempPathFactory, more: dict[str, str]) -> Path:
    folder = tmp_path_factory.mktemp("first-frame")
    (folder / "spidev.py").write_text(SPIDEV)
    report = folder / "modules.json"
    environment = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "GPIOZERO_PIN_FACTORY": "mock",
        "NOTIFY_SOCKET": str(folder / "notify"),  # nobody listens: the box goes on
        "PYTHONPATH": os.pathsep.join([str(folder), str(FAKE_GPIO_LINES), str(ROOT)]),
        **more,
    }
    done = subprocess.run(
        [sys.executable, "-c", LAUNCH, str(report), str(folder / "state")],
        capture_output=True, text=True, timeout=120, env=environment, check=False,
    )  # fmt: skip
    assert report.exists(), f"no READY=1 from the HAT build: {done.stderr[-2000:]}"
    return report


@pytest.fixture(scope="module")
def loaded(started: Path) -> set[str]:
    return set(json.loads(started.read_text()))


def test_the_start_asks_no_signature_for_a_docstring(started: Path) -> None:
    """The standard dataclass decorator writes a class without a docstring one from
    `inspect.signature`: up to 14 M instructions on the Pi a class (issue 35)."""
    asked = json.loads(started.with_name(started.name + ".signatures").read_text())
    assert asked == []


def test_an_optimized_start_asks_none_either_and_loads_the_same(
    started: Path, started_optimized: Path, loaded: set[str]
) -> None:
    """Stripped of docstrings (the service runs optimized, issue 35), every dataclass would
    have the standard decorator look for its signature: 17 before the first frame, gpiod's
    among them (nsdevice.optimized tells it there is none to find)."""
    signatures = started_optimized.with_name(started_optimized.name + ".signatures")
    asked = json.loads(signatures.read_text())
    assert asked == []
    assert set(json.loads(started_optimized.read_text())) == loaded


def test_the_check_sees_the_panel_drawn_before_ready(loaded: set[str]) -> None:
    assert st7789.__name__ in loaded and "nsdevice.displays.st7789_display" in loaded
    assert {"pygame.surface", "pygame._freetype", "nsdevice.box.loop"} <= loaded


@pytest.mark.parametrize(
    "module",
    [
        # pygame's __init__: every module it has (nsdevice.displays.DRAWING_PARTS)
        "pygame.mixer",
        "pygame.mixer_music",
        "pygame.sprite",
        "pygame.joystick",
        "pygame._debug",
        "pygame.pkgdata",
        "platform",
        # the terminal's keys, only to ask whether a device is them (InputDevice.key_labels)
        "nsdevice.inputs.keyboard",
        "logging",
        # the shutdown command's runner (runner.Shutdown)
        "subprocess",
        # the profile's buttons and LED open once the first frame is out (Loop.later)
        "gpiozero",
        "gpiozero.input_devices",
        "importlib.metadata",
        "statistics",
        # OpenSSL (3 MB): the store's checksums on CPython's own SHA-256 (without_openssl)
        "_hashlib",
        # argparse asks shutil the terminal's width, which loads bz2 and lzma (options._formatter)
        "shutil",
        "bz2",
        "lzma",
        # SDL_image and its codecs (2.5 MB): the panel's windows need no image file
        "pygame.imageext",
        # pygame.freetype's SysFont's name matching: no system font is asked for
        "difflib",
        # SDL_ttf, whose harfbuzz FreeType's autohinter would use (1.3 MB): the font book
        # draws with FreeType alone (text_fit.FontBook), nor loads pygame.freetype's Python
        # module, which imports it for SysFont
        "pygame.font",
        "pygame.sysfont",
        "pygame.freetype",
        # a room's results file, a shutdown command's check, the pages' folder listed without
        # pkgutil: loaded for nothing else, by the box nor by the page it forks
        "csv",
        "shlex",
        "pkgutil",
    ],
)
def test_the_first_frame_does_not_load(loaded: set[str], module: str) -> None:
    assert module not in loaded
