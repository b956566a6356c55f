"""The st7789 panel library (and numpy, which it brings) for the tests that drive it.

Importing this module skips the importing test module where the library is absent: the
dev extra installs st7789 on x86-64 Linux only, since its spidev compiles from source, so
elsewhere (a Pi without python3-dev above all) those tests skip unless it is installed.
CI sets NSDEVICE_REQUIRE_PANEL_LIBRARY=1 so that they can never skip there. Import it
before `panel_model`, which needs numpy.
"""

from __future__ import annotations

import os

import pytest

if os.environ.get("NSDEVICE_REQUIRE_PANEL_LIBRARY") == "1":
    import st7789
else:
    st7789 = pytest.importorskip(
        "st7789",
        reason="the st7789 panel library is not installed: the dev extra brings it on "
        "x86-64 Linux only, its spidev compiles against Python.h (on a Pi: apt install "
        "python3-dev, then pip install st7789)",
    )

import numpy  # a dependency of st7789: present once it is

__all__ = ["numpy", "st7789"]
