"""Every test runs headless: SDL's dummy drivers and gpiozero's mock pins.

firmware/ goes on the import path so tests can `import simulator` (firmware/simulator.py,
the board's firmware on a PC). firmware/ is the Pico's own flat set of files, not a
package; it goes at the end, so its plain names (board, main) never hide an installed one.
"""

import os
import sys
from pathlib import Path

from hypothesis import settings

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

sys.path.append(str(Path(__file__).resolve().parent.parent / "firmware"))

# Speed is measured by the benchmarks, not asserted in tests: Hypothesis's per-example
# deadline (200 ms) fails property tests on a busy machine or under emulation (an ARM64
# userland under qemu runs them ten times slower), so it is off for every test.
settings.register_profile("nsdevice", deadline=None)
settings.load_profile("nsdevice")
