"""Every test runs headless: SDL's dummy drivers and gpiozero's mock pins.

firmware/ goes on the import path so tests can `import simulator` (firmware/simulator.py,
the board's firmware on a PC). firmware/ is the Pico's own flat set of files, not a
package; it goes at the end, so its plain names (board, main) never hide an installed one.
"""

import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.append(str(REPOSITORY / "firmware"))

# Speed is measured by the benchmarks, not asserted in tests: Hypothesis's per-example
# deadline (200 ms) fails property tests on a busy machine or under emulation (an ARM64
# userland under qemu runs them ten times slower), so it is off for every test.
settings.register_profile("nsdevice", deadline=None)
settings.load_profile("nsdevice")


# --- no skip that CI could have avoided ----------------------------------------------------
# .ci/run installs the Debian packages of the commands listed in .ci/tools when they are
# missing. A test that skips because one of those commands is absent would hide its check
# on exactly the fresh machine CI is, so under CI (CI=true, or NSDEVICE_REQUIRE_CI_TOOLS=1,
# which .ci/run sets) such a skip is a failure: its reason names the command.


def ci_tools(listing: Path = REPOSITORY / ".ci" / "tools") -> frozenset[str]:
    """The commands .ci/run installs and their packages' names (.ci/tools): a skip may
    name either ("needs Debian's tesseract-ocr")."""
    lines = listing.read_text(encoding="utf-8").splitlines()
    return frozenset(
        word for line in lines if line.strip() and line[0] != "#" for word in line.split()
    )


def avoidable(reason: str, tools: frozenset[str]) -> str | None:
    """The first command of `tools` that a skip's reason names (as a whole word), if any."""
    named = re.findall(r"[A-Za-z0-9][\w.+-]*", reason)
    return next((word for word in named if word in tools), None)


def requires_ci_tools(environ: os._Environ[str] | dict[str, str] = os.environ) -> bool:
    return environ.get("CI") == "true" or environ.get("NSDEVICE_REQUIRE_CI_TOOLS") == "1"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if not (report.skipped and requires_ci_tools()) or hasattr(report, "wasxfail"):
        return
    reason = str(report.longrepr[2]) if isinstance(report.longrepr, tuple) else str(report.longrepr)
    tool = avoidable(reason, ci_tools())
    if tool is not None:
        report.outcome = "failed"
        report.longrepr = (
            f"skipped for want of {tool}, which .ci/run installs (.ci/tools): under CI "
            f"this skip would hide the check. The skip's reason: {reason}"
        )
