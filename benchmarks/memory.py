"""Peak memory of the Display HAT Mini build as the box runs it (the real st7789 library
and spidev over a faked SPI device, gpiozero's mock pins), with the phones' page and
pages following every table.

The judged figure (issue 35, docs/PERFORMANCE.md "Memory") is the peak of the sum of the
box's and the page's PSS through the whole run: since issue 32 the page is a process of
its own, and a sum of two RSS figures would count twice every page they share (the
interpreter, libc, and what the page inherits from the box when it forks). This
benchmark runs the box's own interpreter, so in a plain PSS sum it would hold a share of
the interpreter's and the libraries' pages that on the Pi the box and its page keep
whole: the judged sum splits each page only with the other processes that map it
(`family_pss_alone_kb`). The plain sum, each process's VmHWM and their sum are reported
too, unjudged.
"""

from __future__ import annotations

import array
import functools
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.figures import (  # noqa: E402
    Started,
    children,
    saved_game,
    status_kb,
    unit_environment,
)
from benchmarks.phones import Page, free_port, wait_for_page  # noqa: E402

# The Display HAT Mini build as it is on the box (`--hardware display-hat-mini`: the real
# st7789 library and spidev, gpiozero's pins), on a machine without the HAT: the SPI device
# is faked under spidev by an LD_PRELOAD library (only open and ioctl; writes go to
# /dev/null) and the panel's GPIO lines by a stand-in `gpiodevice`; the buttons are
# gpiozero's mock pins, which a thread in the box's own process taps when asked on stdin.
FAKE_SPIDEV = ROOT / "benchmarks" / "pi_guest" / "fake_spidev.c"


FAKE_GPIO_LINES = ROOT / "benchmarks" / "pi_guest" / "fake_gpio"
# level-2 bytecode as apt's hook on the box compiles it (no docstrings, no columns)
OPTIMIZED_BYTECODE = ROOT / "systemd" / "optimized-bytecode"


HAT_TAPPER = """
import signal, sys, threading, time
def tap_when_asked():
    for line in sys.stdin:
        # asked once the box runs: gpiozero as the box loaded it, no more (the whole package
        # imported here would count in the box's memory)
        from gpiozero.devices import Device
        pin = Device.pin_factory.pin(16)  # NEXT on the Display HAT Mini
        for _ in range(int(line)):
            pin.drive_low(); time.sleep(0.05); pin.drive_high(); time.sleep(0.06)
# started when asked (SIGUSR1, once the box runs): a thread before the box's own start
# would keep it from forking its page early (web.forked)
signal.signal(signal.SIGUSR1,
              lambda *_: threading.Thread(target=tap_when_asked, daemon=True).start())
class MockPins:
    # The pins are gpiozero's mock ones, its default once the box imports gpiozero.devices:
    # as on the Pi, where it finds lgpio unasked. A GPIOZERO_PIN_FACTORY would make it
    # look the name up by entry point, loading importlib.metadata (1.5 MB) the Pi never loads.
    def find_spec(self, name, path, target=None):
        if name != "gpiozero.devices":
            return None
        sys.meta_path.remove(self)
        import importlib.util
        spec = importlib.util.find_spec(name)
        run = spec.loader.exec_module
        def exec_module(module):
            run(module)
            def mock_pins():  # asked by the first device made, once gpiozero is loaded
                from gpiozero.pins.mock import MockFactory
                return MockFactory()
            module.Device._default_pin_factory = staticmethod(mock_pins)
        spec.loader.exec_module = exec_module
        return spec
sys.meta_path.insert(0, MockPins())
from nsdevice.cli import main
sys.exit(main(sys.argv[1:]))
"""


def service_settings() -> dict[str, str]:
    """The malloc and interpreter settings the systemd unit gives the box: optimized, no
    bytecode written, glibc's arenas."""
    return unit_environment("MALLOC_", "PYTHONOPTIMIZE", "PYTHONDONTWRITEBYTECODE")


def _library(source: Path, library: Path, *flags: str) -> Path:
    """`source` built as the shared library `library`, with this machine's C compiler."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise RuntimeError("the HAT build's memory needs a C compiler (apt-get install gcc)")
    subprocess.run([compiler, "-shared", "-fPIC", *flags, "-o", str(library), str(source)],
                   check=True)  # fmt: skip
    return library


def _fake_spidev(folder: Path) -> Path:
    return _library(FAKE_SPIDEV, folder / "fake_spidev.so", "-O2", "-ldl")


def _no_harfbuzz(folder: Path) -> Path:
    """A folder whose `libharfbuzz.so.0` has none of harfbuzz's functions: FreeType's
    autohinter looks harfbuzz up by that name, and the box's image has none (its packages
    and what they depend on: `apt-cache depends --recurse` lists no harfbuzz), so it
    hints without. This machine's own would be found and used instead, with GLib and
    graphite2 (the glyphs are the same either way: tests/test_text_fit.py)."""
    stub = folder / "no-harfbuzz"
    stub.mkdir()
    source = stub / "empty.c"
    source.write_text("int nsdevice_no_harfbuzz;\n")
    _library(source, stub / "libharfbuzz.so.0")
    return stub


SAMPLE_PERIOD = 0.05  # seconds between two samples of both processes' PSS


def rollup_kb(text: str, key: str = "Pss") -> int:
    """One figure (kB) of a /proc/PID/smaps_rollup text."""
    for line in text.splitlines():
        name, _, rest = line.partition(":")
        if name == key:
            return int(rest.split()[0])
    raise KeyError(key)


def pss_kb(pid: int) -> int:
    """Proportional set size: each shared page split between the processes sharing it."""
    return rollup_kb(Path(f"/proc/{pid}/smaps_rollup").read_text())


def family_pss_kb(pid: int) -> int | None:
    """The PSS of `pid` and the processes it started (the page's), summed; None when one
    of them went between two reads (the sample is dropped, never counted short)."""
    try:
        return sum(pss_kb(member) for member in (pid, *children(pid)))
    except (OSError, KeyError, ValueError):
        return None


FRAMES_EVERY = 4  # samples between two counts of the family's own pages (slower to read)
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024
FRAME_BITS = (1 << 55) - 1  # a pagemap entry's page frame number; bit 63: present


def anonymous(maps_line: str) -> bool:
    """Whether a /proc/PID/maps line is anonymous memory (no file: the heap, the stack,
    Python's arenas, malloc's mappings), not a file's pages nor the kernel's [vdso]."""
    fields = maps_line.split(None, 5)
    name = fields[5].strip() if len(fields) > 5 else ""
    return not name or name in ("[heap]", "[stack]") or name.startswith("[anon")


def frames(pid: int, only_anonymous: bool = False) -> set[int]:
    """The physical pages (frame numbers) mapped by `pid` now, from /proc/PID/pagemap
    (`only_anonymous`: of its anonymous memory only). Only root reads frame numbers
    (others read 0s): see `family_frames_kb`."""
    return set(frame_counts(pid, only_anonymous))


def family_frames_kb(pid: int) -> int | None:
    """The memory of `pid` and its children with each physical page counted once, however
    many other processes on this machine map it too (PSS would split those with them):
    what their PSS sum would be on a Pi where nothing else maps the box's libraries.
    None when a process went between two reads, or without root."""
    if os.geteuid() != 0:
        return None
    try:
        pages = set().union(*(frames(member) for member in (pid, *children(pid))))
    except OSError:
        return None
    return len(pages) * PAGE_KB


def frame_counts(pid: int, only_anonymous: bool = False) -> Counter[int]:
    """How many times `pid` maps each physical page now (as the kernel's map count counts
    it: a page mapped twice, twice), from /proc/PID/pagemap (`only_anonymous`: of its
    anonymous memory only). Only root reads frame numbers (others read 0s)."""
    counts: Counter[int] = Counter()
    page = PAGE_KB * 1024
    with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/pagemap", "rb") as pagemap:
        for line in maps:
            if only_anonymous and not anonymous(line):
                continue
            start, end = (int(bound, 16) for bound in line.split(None, 1)[0].split("-"))
            pagemap.seek(start // page * 8)
            entries = array.array("Q")
            try:
                entries.frombytes(pagemap.read((end - start) // page * 8))
            except OSError:  # [vsyscall]: no entries
                continue
            counts.update(entry & FRAME_BITS for entry in entries if entry >> 63)
    return counts


def family_pss_alone_kb(pid: int, without: int | None = None) -> int | None:
    """The PSS of `pid` and its children summed as if process `without` (by default this
    benchmark) mapped none of their pages: each page split only between the others that
    map it (the kernel's map count, /proc/kpagecount, less `without`'s own mappings).
    This benchmark runs the box's own interpreter, so it takes a share of the pages of
    the interpreter and the libraries they both load, which on the Pi the box and its page
    keep whole (about 2.8 MB of the sum). None without root, or when a process went."""
    if os.geteuid() != 0:
        return None
    try:
        family: Counter[int] = Counter()
        for member in (pid, *children(pid)):
            family.update(frame_counts(member))
        theirs = frame_counts(os.getpid() if without is None else without)
        total = 0.0
        counted = os.open("/proc/kpagecount", os.O_RDONLY)
        try:
            for frame, mapped in family.items():
                (everyone,) = array.array("Q", os.pread(counted, 8, frame * 8))
                total += mapped / max(mapped, everyone - theirs.get(frame, 0))
        finally:
            os.close(counted)
    except OSError:
        return None
    return round(total * PAGE_KB)


def shared_anonymous_kb(one: int, other: int) -> int | None:
    """The anonymous memory two processes both map, page for page (a forked page's
    inherited pages that neither has written since); None without root."""
    if os.geteuid() != 0:
        return None
    try:
        return len(frames(one, True) & frames(other, True)) * PAGE_KB
    except OSError:
        return None


class PeakPss:
    """A thread summing the PSS of a process and its children every `period`, from
    `follow(pid)` (as soon as the process is started) to `stop()`; `peak` is the largest
    sum seen (kB), `samples` how many sums were taken. Every `FRAMES_EVERY` samples it
    also counts their physical pages once each (`family_frames_kb`): `peak_frames`, 0
    where that cannot be read."""

    def __init__(self, period: float = SAMPLE_PERIOD) -> None:
        self.period = period
        self.peak = 0
        self.peak_frames = 0
        self.peak_alone = 0
        self.samples = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def follow(self, pid: int) -> None:
        self._thread = threading.Thread(target=self._sample, args=(pid,), daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _sample(self, pid: int) -> None:
        while True:
            total = family_pss_kb(pid)
            if total is not None:
                self.peak = max(self.peak, total)
                self.samples += 1
                if self.samples % FRAMES_EVERY == 1:
                    self.peak_frames = max(self.peak_frames, family_frames_kb(pid) or 0)
                    self.peak_alone = max(self.peak_alone, family_pss_alone_kb(pid) or 0)
            if self._stop.wait(self.period):
                return


@functools.cache  # once a process: each run of `--runs` reads the same caches
def compiled() -> None:
    """The package's modules (and the stand-in GPIO lines') compiled before the box starts,
    as the image does (image/lib.sh compiles /opt/nsdevice, and the system's modules):
    the box on a Pi never compiles its own source. A process that compiles as it imports
    keeps what the compiler's work grew its heap to (the page 0.6 MB of anonymous PSS
    more), and with PYTHONDONTWRITEBYTECODE set, as in the unit, every start would compile
    again. The unit runs the box optimized: the package at both levels, and at level 2 the
    libraries it imports (this interpreter's site-packages) and the standard library
    (Debian ships level 0 only; the image compiles level 2), level 2 without column
    positions by the script apt's hook runs on the box (`systemd/optimized-bytecode`,
    decision 0011). The caches go beside the sources (`__pycache__`, which git ignores),
    written only where a source is newer than its cached form, or they keep columns; a
    folder this user may not write to is said on stderr."""
    import compileall
    import sysconfig

    own = [str(ROOT / "nsdevice"), str(FAKE_GPIO_LINES)]
    for folder in own:
        compileall.compile_dir(folder, quiet=1, optimize=0)
    paths = sysconfig.get_paths()
    writable = []
    for name in dict.fromkeys([paths["purelib"], paths["platlib"], paths["stdlib"]]):
        if os.access(name, os.W_OK):
            writable.append(name)
        else:
            print(f"memory.py: {name} is not writable: the box compiles it as it starts",
                  file=sys.stderr)  # fmt: skip
    # (the test suites' odd files are compiled as they are, their warnings unsaid)
    quiet = {**os.environ, "PYTHONWARNINGS": "ignore"}
    for folders in (own, writable):
        if folders:  # (none given, the script compiles the system's own)
            subprocess.run([sys.executable, str(OPTIMIZED_BYTECODE), *folders], env=quiet,
                           check=True)  # fmt: skip


def hat_memory(phones: int = 4, presses: int = 100, web: bool = True) -> dict:
    """Peak memory of the HAT build through `presses` taps of NEXT, with the phones' page
    on and `phones` pages following every table (or without the page). Judged: the peak
    of both processes' summed PSS, each page split only with the other processes that
    map it, not this benchmark (`family_pss_alone_kb`), sampled from the start to the
    last tap. Also: the plain PSS sum, each process's peak RSS (VmHWM) and their sum, and
    the PSS at the end."""

    compiled()
    with tempfile.TemporaryDirectory(prefix="nsdevice-hat-") as name:
        folder = Path(name)
        saved_game(folder / "state")
        port = free_port()
        settings = service_settings()
        environment = {
            **settings,  # as the service runs it
            "LD_PRELOAD": str(_fake_spidev(folder)),
            "LD_LIBRARY_PATH": str(_no_harfbuzz(folder)),  # as on the image: none
            "PYTHONPATH": os.pathsep.join([str(FAKE_GPIO_LINES), str(ROOT)]),
        }
        page = ("--web", f"127.0.0.1:{port}") if web else ()
        options = ("--hardware", "display-hat-mini", *page)
        sampled = PeakPss()
        try:
            box = Started("", folder / "state", folder / "notify", (options, environment),
                          launcher=("-c", HAT_TAPPER), spawned=sampled.follow)  # fmt: skip
        except BaseException:
            sampled.stop()
            raise
        try:
            pages = []
            if web:
                wait_for_page(port)
                pages = [Page(port) for _ in range(phones)]
            time.sleep(0.5)
            box.process.send_signal(signal.SIGUSR1)
            stdin = box.process.stdin
            assert stdin is not None
            stdin.write(f"{presses}\n".encode())
            stdin.flush()
            time.sleep(presses * 0.12 + 2.0)
            sampled.stop()
            peak = status_kb(box.pid, "VmHWM")
            resident = status_kb(box.pid, "VmRSS")
            modules = "numpy" in Path(f"/proc/{box.pid}/maps").read_text()
            # the phones' page serves from its own process (issue 32): its memory counts
            page_pids = children(box.pid)
            page_peak = sum(status_kb(pid, "VmHWM") for pid in page_pids)
            alone = family_pss_alone_kb(box.pid)
            box_pss = pss_kb(box.pid)
            page_pss = sum(pss_kb(pid) for pid in page_pids)
            # where each process's memory is: anonymous (Python's objects, malloc's) or
            # files' pages (the interpreter's and the libraries' code and data)
            rollups = {
                who: [Path(f"/proc/{pid}/smaps_rollup").read_text() for pid in pids]
                for who, pids in (("box", [box.pid]), ("page", page_pids))
            }
            inherited = shared_anonymous_kb(box.pid, page_pids[0]) if len(page_pids) == 1 else None
            events = [page.events for page in pages]
            for page in pages:
                page.close()
        finally:
            sampled.stop()
            box.stop()
    return {
        "how": "nsdevice run --hardware display-hat-mini"
        + (" (optimized, as its unit runs it)" if "PYTHONOPTIMIZE" in settings else "")
        + (f" --web, {phones} pages following" if web else "")
        + f"; {presses} taps of NEXT on mock pins; SPI faked under spidev",
        "rss_peak_mb": round(peak / 1024, 1),
        "rss_at_the_end_mb": round(resident / 1024, 1),
        "page_process_rss_peak_mb": round(page_peak / 1024, 1),
        "box_and_page_rss_peak_mb": round((peak + page_peak) / 1024, 1),
        # judged (issue 35): the two processes' PSS summed, each shared page split only
        # with the other processes that map it, not with this benchmark (which runs the
        # same interpreter): the largest sum, every FRAMES_EVERY samples (root only)
        "box_and_page_pss_alone_peak_mb": round(sampled.peak_alone / 1024, 1) or None,
        "box_and_page_pss_alone_at_the_end_mb": (
            round(alone / 1024, 1) if alone is not None else None
        ),
        # the plain sum of their PSS, in which this benchmark holds a share of the
        # interpreter's pages: the largest through the run, every sample
        "box_and_page_pss_peak_mb": round(sampled.peak / 1024, 1),
        "pss_samples": sampled.samples,
        # unjudged: the two processes' physical pages, each once, whoever else maps them
        # (what the PSS sum would be where nothing else shares their libraries: the Pi)
        "box_and_page_own_pages_peak_mb": round(sampled.peak_frames / 1024, 1) or None,
        # shared pages (the interpreter, the libraries) counted once, at the end
        "box_and_page_pss_at_the_end_mb": round((box_pss + page_pss) / 1024, 1),
        "box_pss_at_the_end_mb": round(box_pss / 1024, 1),
        "page_process_pss_at_the_end_mb": round(page_pss / 1024, 1),
        **{
            f"{who}_{kind}_pss_at_the_end_mb": round(
                sum(rollup_kb(text, key) for text in texts) / 1024, 1
            )
            for who, texts in rollups.items()
            for kind, key in (("anonymous", "Pss_Anon"), ("files", "Pss_File"))
            if texts
        },
        # the anonymous memory the page's process still shares with the box it was forked
        # from (root only): the rest of what it inherited, one of the two has written since
        "page_anonymous_shared_with_box_at_the_end_mb": (
            round(inherited / 1024, 1) if inherited is not None else None
        ),
        "events_per_phone": events,
        "numpy_mapped": modules,
    }


def main(argv: list[str] | None = None) -> int:
    import argparse
    import json

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="runs of each (default 1)")
    parser.add_argument("--phones", type=int, default=4)
    parser.add_argument("--presses", type=int, default=100)
    parser.add_argument("--without-page", action="store_true", help="also the box alone")
    options = parser.parse_args(argv)
    if options.runs < 1 or options.phones < 0 or options.presses < 1:
        print("memory.py: --runs and --presses at least 1, --phones at least 0", file=sys.stderr)
        return 2
    figures: dict[str, list[dict]] = {"with_page": [], "without_page": []}
    for _ in range(options.runs):
        figures["with_page"].append(hat_memory(options.phones, options.presses))
        if options.without_page:
            figures["without_page"].append(hat_memory(presses=options.presses, web=False))
    print(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
