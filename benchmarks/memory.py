"""Peak memory of the Display HAT Mini build as the box runs it (the real st7789 library
and spidev over a faked SPI device, gpiozero's mock pins), with the phones' page and
pages following every table."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.figures import Started, children, saved_game, status_kb  # noqa: E402
from benchmarks.phones import Page, free_port, wait_for_page  # noqa: E402

# The Display HAT Mini build as it is on the box (`--hardware display-hat-mini`: the real
# st7789 library and spidev, gpiozero's pins), on a machine without the HAT: the SPI device
# is faked under spidev by an LD_PRELOAD library (only open and ioctl; writes go to
# /dev/null) and the panel's GPIO lines by a stand-in `gpiodevice`; the buttons are
# gpiozero's mock pins, which a thread in the box's own process taps when asked on stdin.
FAKE_SPIDEV = ROOT / "benchmarks" / "pi_guest" / "fake_spidev.c"


FAKE_GPIO_LINES = ROOT / "benchmarks" / "pi_guest" / "fake_gpio"


HAT_TAPPER = """
import sys, threading, time
def tap_when_asked():
    for line in sys.stdin:
        # asked once the box runs: gpiozero as the box loaded it, no more (the whole package
        # imported here would count in the box's memory)
        from gpiozero.devices import Device
        pin = Device.pin_factory.pin(16)  # NEXT on the Display HAT Mini
        for _ in range(int(line)):
            pin.drive_low(); time.sleep(0.05); pin.drive_high(); time.sleep(0.06)
threading.Thread(target=tap_when_asked, daemon=True).start()
from nsdevice.cli import main
sys.exit(main(sys.argv[1:]))
"""


def service_malloc_settings() -> dict[str, str]:
    """The malloc settings the systemd unit gives the box (systemd/nsdevice.service)."""
    unit = (ROOT / "systemd" / "nsdevice.service").read_text()
    settings = {}
    for line in unit.splitlines():
        if line.startswith("Environment=MALLOC_"):
            name, _, value = line.removeprefix("Environment=").partition("=")
            settings[name] = value
    return settings


def _fake_spidev(folder: Path) -> Path:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise RuntimeError("the HAT build's memory needs a C compiler (apt-get install gcc)")
    library = folder / "fake_spidev.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", str(library), str(FAKE_SPIDEV),
                    "-ldl"], check=True)  # fmt: skip
    return library


def pss_kb(pid: int) -> int:
    """Proportional set size: each shared page split between the processes sharing it."""
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1])
    raise KeyError("Pss")


def hat_memory(phones: int = 4, presses: int = 100, web: bool = True) -> dict:
    """Peak RSS (VmHWM) of the HAT build after `presses` taps of NEXT, with the phones'
    page on and `phones` pages following every table (or without the page): the box's
    process, the page's own process, their sum, and both as PSS (shared pages once)."""

    with tempfile.TemporaryDirectory(prefix="nsdevice-hat-") as name:
        folder = Path(name)
        saved_game(folder / "state")
        port = free_port()
        environment = {
            **service_malloc_settings(),  # as the service runs it
            "GPIOZERO_PIN_FACTORY": "mock",
            "LD_PRELOAD": str(_fake_spidev(folder)),
            "PYTHONPATH": os.pathsep.join([str(FAKE_GPIO_LINES), str(ROOT)]),
        }
        page = ("--web", f"127.0.0.1:{port}") if web else ()
        options = ("--hardware", "display-hat-mini", *page)
        box = Started("", folder / "state", folder / "notify", (options, environment),
                       launcher=("-c", HAT_TAPPER))  # fmt: skip
        try:
            pages = []
            if web:
                wait_for_page(port)
                pages = [Page(port) for _ in range(phones)]
            time.sleep(0.5)
            stdin = box.process.stdin
            assert stdin is not None
            stdin.write(f"{presses}\n".encode())
            stdin.flush()
            time.sleep(presses * 0.12 + 2.0)
            peak = status_kb(box.pid, "VmHWM")
            resident = status_kb(box.pid, "VmRSS")
            modules = "numpy" in Path(f"/proc/{box.pid}/maps").read_text()
            # the phones' page serves from its own process (issue 32): its memory counts
            page_pids = children(box.pid)
            page_peak = sum(status_kb(pid, "VmHWM") for pid in page_pids)
            proportional = sum(pss_kb(pid) for pid in (box.pid, *page_pids))
            events = [page.events for page in pages]
            for page in pages:
                page.close()
        finally:
            box.stop()
    return {
        "how": "nsdevice run --hardware display-hat-mini"
        + (f" --web, {phones} pages following" if web else "")
        + f"; {presses} taps of NEXT on mock pins; SPI faked under spidev",
        "rss_peak_mb": round(peak / 1024, 1),
        "rss_at_the_end_mb": round(resident / 1024, 1),
        "page_process_rss_peak_mb": round(page_peak / 1024, 1),
        "box_and_page_rss_peak_mb": round((peak + page_peak) / 1024, 1),
        # shared pages (the interpreter, the libraries) counted once, at the end
        "box_and_page_pss_at_the_end_mb": round(proportional / 1024, 1),
        "events_per_phone": events,
        "numpy_mapped": modules,
    }
