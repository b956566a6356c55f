"""Boot the nsdevice image in QEMU's emulated Raspberry Pi 3 (the Zero 2 W's SoC family)
and prove it: wait for the box's READY, press buttons, read the screen back.

    image/boot.sh IMAGE [--keys next,next] [--screenshot shot.png] [--disk FILE] [--ports]

What it changes, and only in its own copy of the card (or in --disk FILE):
- nsdevice.toml on the FAT partition names the `emulator` hardware profile, and a
  drop-in for nsdevice.service reads the same profile and lets the box open the mini
  UART (the button board speaks there instead of over USB);
- the device tree QEMU is given (taken out of the card's FAT) gets the
  `simple-framebuffer` node the real firmware would add, at QEMU's default surface.
The kernel's command line is this script's: the serial console, systemd's status lines
(READY is the line systemd prints once the unit has said READY=1), and the GPU drivers
QEMU does not model left out.

It prints one JSON line: {"ready_s", "wall_s", "screen", "screen_text", "boot_log", ...}.
Exit status 0 when the box reached READY (and every asked step worked), 1 when not.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import lzma
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

SD_BYTES = 2 * 1024**3  # QEMU wants an SD card whose size is a power of two
MiB = 1024 * 1024
FRAMEBUFFER = {"base": 0x3C100000, "width": 640, "height": 480, "stride": 1280}
# systemd colours the unit's name (an escape sequence between "Started" and the name)
READY_LINE = re.compile(rb"Started (?:\x1b\[[0-9;]*m)?nsdevice\.service")
FAILED_LINE = re.compile(rb"Failed to start .*(nsdevice|Next Station)")
BUTTONS = {"next": 0, "back": 1, "menu": 2}
DTB = "bcm2837-rpi-3-b.dtb"
UART0 = "/soc/serial@7e201000"  # the PL011: QEMU's first serial port, the console
# Drivers for hardware QEMU's raspi3b leaves out (VideoCore services, its KMS, the
# firmware's clock control): they oops or fail to probe there and only slow the boot.
BLACKLIST = "vchiq,bcm2835_mmal_vchiq,bcm2835_v4l2,snd_bcm2835,vc4,v3d,raspberrypi_cpufreq"
COMMAND_LINE = (
    "console=ttyAMA0,115200 root=LABEL=NSROOT rootfstype=ext4 rootwait fsck.repair=yes "
    "systemd.show_status=1 vt.global_cursor_default=0 "
    # No login prompt on the console: while a getty holds it, systemd prints no status
    # lines, READY's among them (and no account has a password anyway).
    "systemd.mask=serial-getty@ttyAMA0.service "
    f"modprobe.blacklist={BLACKLIST}"
)
SETTINGS = '# written by image/boot.sh: the emulated Pi\nhardware = "emulator"\n'
DROPIN = """# written by image/boot.sh: the emulated Pi (docs/image.md)
[Service]
EnvironmentFile=/etc/default/nsdevice-emulator
DeviceAllow=char-ttyS rw
# An emulated Cortex-A53 on a shared PC runs several times slower than a real one.
TimeoutStartSec=10min
WatchdogSec=5min
"""
ENVIRONMENT = "NSDEVICE_PROFILE=emulator\n"
PORTS_UNIT = "nsdevice-emulator-ports.service"
PORTS_WANTS = f"/etc/systemd/system/multi-user.target.wants/{PORTS_UNIT}"
# A unit of the normal boot, not `systemd.run=` on the command line: that replaces the
# default target, and nothing of multi-user.target (the box among it) would start.
PORTS_SERVICE = """# written by image/boot.sh --ports (docs/image.md)
[Unit]
Description=boot.sh: what listens once the box is up
After=nsdevice.service

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/nsdevice-emulator-ports
"""
# Each line marked: systemd's status lines land on the same console between them.
REPORT = """#!/bin/sh
# written by image/boot.sh --ports: what listens once the box is up, on the console
while ! systemctl -q is-active nsdevice.service; do sleep 1; done
# The page runs in a process of its own, started after the first frame (slow here): wait
# for its port (the unit's NSDEVICE_WEB), then list every listening socket.
for _ in $(seq 900); do ss -Hltn "sport = :8414" | grep -q . && break; sleep 1; done
sleep 5
{ ss -Hltnu | sed 's/^/NSPORT /'; ls /dev/spidev* | sed 's/^/NSSPI /'; echo "NSPORTS-END"; } \
    >/dev/console 2>&1
"""


def fail(message: str) -> NoReturn:
    print(f"boot.sh: {message}", file=sys.stderr)
    raise SystemExit(2)


def run(*command: str | Path) -> subprocess.CompletedProcess[bytes]:
    """A tool's run; its failure ends boot.sh with the tool's own message."""
    try:
        return subprocess.run([str(part) for part in command], check=True, capture_output=True)
    except subprocess.CalledProcessError as error:
        fail(f"{command[0]}: {error.stderr.decode(errors='replace').strip()}")
        raise


# --- the card -----------------------------------------------------------------------------


def partitions(disk: Path) -> list[tuple[int, int]]:
    """(start, size) in bytes of each partition, from the card's MBR."""
    with disk.open("rb") as card:
        sector = card.read(512)
    if sector[510:512] != b"\x55\xaa":
        fail(f"{disk}: no partition table")
    found = []
    for index in range(4):
        entry = sector[446 + 16 * index : 462 + 16 * index]
        start, count = struct.unpack_from("<II", entry, 8)
        if entry[4]:
            found.append((start * 512, count * 512))
    return found


def unpack(image: Path, disk: Path) -> None:
    """The card as a raw file of SD_BYTES, from .img or .img.xz."""
    opener = lzma.open if image.suffix == ".xz" else open
    with opener(image, "rb") as source, disk.open("wb") as target:
        shutil.copyfileobj(source, target, 16 * MiB)
        if target.tell() > SD_BYTES:
            fail(f"{image}: larger than {SD_BYTES} bytes")
        target.truncate(SD_BYTES)


def fat(disk: Path, offset: int) -> str:
    return f"{disk}@@{offset}"


def firmware_files(disk: Path, offset: int) -> list[str]:
    listing = run("mdir", "-b", "-i", fat(disk, offset), "::/").stdout.decode()
    return [line.strip().removeprefix("::/") for line in listing.splitlines() if line.strip()]


def take_boot_files(disk: Path, offset: int, folder: Path) -> tuple[Path, Path, Path]:
    names = firmware_files(disk, offset)
    kernels = sorted(name for name in names if name.startswith("vmlinuz-"))
    initrds = sorted(name for name in names if name.startswith("initrd.img-"))
    if not kernels or not initrds or DTB not in names:
        fail(f"no kernel, initrd or {DTB} on the card's FAT partition ({', '.join(names)})")
    taken = []
    for name in (kernels[-1], initrds[-1], DTB):
        run("mcopy", "-o", "-i", fat(disk, offset), f"::/{name}", folder / name)
        taken.append(folder / name)
    return taken[0], taken[1], taken[2]


def apply_overlays(disk: Path, offset: int, dtb: Path, folder: Path) -> None:
    """The card's own overlays named in its config.txt, applied as the firmware would
    (QEMU never runs the firmware): SPI0 for the panel (image/nsdevice-spi.dts)."""
    config = folder / "config.txt"
    run("mcopy", "-o", "-i", fat(disk, offset), "::/config.txt", config)
    for line in config.read_text().splitlines():
        name = line.strip().removeprefix("dtoverlay=")
        if name != line.strip() and name:
            overlay = folder / f"{name}.dtbo"
            run("mcopy", "-o", "-i", fat(disk, offset), f"::/overlays/{name}.dtbo", overlay)
            run("fdtoverlay", "-i", dtb, "-o", dtb, overlay)


def add_framebuffer(dtb: Path) -> None:
    """The node the Pi's firmware adds for its framebuffer, at QEMU's default surface."""
    node = f"/chosen/framebuffer@{FRAMEBUFFER['base']:x}"
    size = FRAMEBUFFER["stride"] * FRAMEBUFFER["height"]
    run("fdtput", "-t", "i", dtb, "/chosen", "#address-cells", "1")
    run("fdtput", "-t", "i", dtb, "/chosen", "#size-cells", "1")
    # An empty `ranges`: /chosen's addresses are the CPU's. Without it the kernel cannot
    # translate the node's reg, simplefb fails with -22 (EINVAL) and there is no /dev/fb0.
    run("fdtput", "-t", "x", dtb, "/chosen", "ranges")
    run("fdtput", "-c", dtb, node)
    run("fdtput", "-t", "s", dtb, node, "compatible", "simple-framebuffer")
    run("fdtput", "-t", "x", dtb, node, "reg", f"{FRAMEBUFFER['base']:x}", f"{size:x}")
    for name in ("width", "height", "stride"):
        run("fdtput", "-t", "i", dtb, node, name, str(FRAMEBUFFER[name]))
    run("fdtput", "-t", "s", dtb, node, "format", "r5g6b5")
    run("fdtput", "-t", "s", dtb, node, "status", "okay")


def free_console_uart(dtb: Path) -> None:
    """The PL011 carries the Pi's Bluetooth chip in the device tree, and its driver would
    take the port from the console; QEMU has no such chip, so the node goes."""
    found = subprocess.run(["fdtget", "-l", str(dtb), UART0], capture_output=True, text=True)
    if "bluetooth" in found.stdout.split():
        run("fdtput", "-r", dtb, f"{UART0}/bluetooth")


def replay_journal(disk: Path, offset: int) -> None:
    """A card whose QEMU was killed (a pulled plug) has an ext4 journal not yet played
    back; debugfs writes around it, and the kernel's replay at the next mount would put
    the old blocks back over what it wrote (the drop-in undone). So it is played back
    first, by e2fsck."""
    where = f"{disk}?offset={offset}"
    if "needs_recovery" not in run("dumpe2fs", "-h", where).stdout.decode(errors="replace"):
        return
    # e2fsck replays the journal, then fails to open the file again at the offset
    # (e2fsprogs 1.47): its status says nothing, the journal's own start does.
    subprocess.run(["e2fsck", "-E", "journal_only", "-y", where], capture_output=True)
    logdump = run("debugfs", "-R", "logdump", where).stdout.decode(errors="replace")
    if "Journal starts at block 0," not in logdump:
        fail(f"{where}: e2fsck could not play the ext4 journal back")
    # the flag e2fsck would have cleared after opening the file again
    run("debugfs", "-w", "-R", "feature -needs_recovery", where)


def write_root_files(
    disk: Path,
    offset: int,
    files: dict[str, tuple[str, int]],
    links: dict[str, str] | None = None,
    remove: tuple[str, ...] = (),
) -> None:
    """Files and symbolic links (path: target) into the card's ext4 root, and `remove`d
    (debugfs at the partition's offset, no mount)."""
    replay_journal(disk, offset)
    with tempfile.TemporaryDirectory() as scratch:
        commands = [f"rm {path}" for path in remove]
        for path, target in sorted((links or {}).items()):
            commands += [f"mkdir {Path(path).parent}", f"rm {path}", f"symlink {path} {target}"]
        for number, (path, (text, mode)) in enumerate(sorted(files.items())):
            local = Path(scratch) / str(number)
            local.write_text(text)
            folder = str(Path(path).parent)
            commands += [f"mkdir {folder}", f"rm {path}", f"write {local} {path}"]
            commands += [
                f"sif {path} mode 0{0o100000 | mode:o}",
                f"sif {path} uid 0",
                f"sif {path} gid 0",
            ]
        commands.sort(key=lambda command: command.startswith("symlink"))  # after the files
        script = Path(scratch) / "commands"
        script.write_text("\n".join(commands) + "\n")
        run("debugfs", "-w", "-f", script, f"{disk}?offset={offset}")


def prepare(disk: Path, folder: Path, ports: bool) -> tuple[Path, Path, Path]:
    table = partitions(disk)
    if len(table) < 2:
        fail(f"{disk}: expected the firmware and root partitions")
    (firmware, _), (root, _) = table[0], table[1]
    settings = folder / "nsdevice.toml"
    settings.write_text(SETTINGS)
    run("mcopy", "-o", "-i", fat(disk, firmware), settings, "::/nsdevice.toml")
    files = {
        "/etc/systemd/system/nsdevice.service.d/emulator.conf": (DROPIN, 0o644),
        "/etc/default/nsdevice-emulator": (ENVIRONMENT, 0o644),
    }
    links: dict[str, str] = {}
    if ports:
        files["/usr/local/sbin/nsdevice-emulator-ports"] = (REPORT, 0o755)
        files[f"/etc/systemd/system/{PORTS_UNIT}"] = (PORTS_SERVICE, 0o644)
        links[PORTS_WANTS] = f"/etc/systemd/system/{PORTS_UNIT}"
    # a card reused without --ports: no report from an earlier run's unit
    write_root_files(disk, root, files, links, remove=() if ports else (PORTS_WANTS,))
    kernel, initrd, dtb = take_boot_files(disk, firmware, folder)
    apply_overlays(disk, firmware, dtb, folder)
    add_framebuffer(dtb)
    free_console_uart(dtb)
    return kernel, initrd, dtb


# --- the button board on the second UART ---------------------------------------------------


class Board:
    """The Pico button board as firmware/PROTOCOL.md says it speaks (1.2): answers HELLO
    with the host's echo word, beats every second, and presses buttons when asked."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._socket: socket.socket | None = None
        self._lock = threading.Lock()
        self._events = 0
        self._start = time.monotonic()
        self.connected = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _ticks(self) -> int:
        return int((time.monotonic() - self._start) * 1000) % (1 << 30)

    def _send(self, line: str) -> None:
        with self._lock:
            if self._socket is not None:
                with contextlib.suppress(OSError):
                    self._socket.sendall(line.encode() + b"\r\n")

    def press(self, button: int) -> None:
        for word, state in (("DOWN", "1"), ("UP", "0")):
            self._events += 1
            states = "".join(state if index == button else "0" for index in range(4))
            self._send(f"{word} {button} n={self._events} t={self._ticks()} s={states}")
            time.sleep(0.15)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                link = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                link.connect(str(self._path))
            except OSError:
                time.sleep(0.2)
                continue
            link.settimeout(1.0)
            self._socket = link
            self._serve(link)

    def _serve(self, link: socket.socket) -> None:
        pending = b""
        while not self._stop.is_set():
            try:
                chunk = link.recv(256)
            except TimeoutError:
                chunk = b""
            except OSError:
                return
            if chunk == b"" and not pending and self._stop.is_set():
                return
            pending += chunk
            *lines, pending = re.split(rb"[\r\n]", pending)
            for line in lines:
                words = line.decode("ascii", "replace").split()
                if words[:1] == ["HELLO"]:
                    echo = next((w for w in words if w.startswith("echo=")), "")
                    self._send(
                        f"HELLO nsboard proto=1.2 fw=0.3.0 buttons=4 led=none {echo}".strip()
                    )
                    self.connected.set()
                elif words[:1] == ["LED"] or words[:1] == ["BLINK"]:
                    self._send(f"OK {words[0]}")
            self._send(f"BEAT 0000 n={self._events} t={self._ticks()}")


# --- QEMU -------------------------------------------------------------------------------------


class Monitor:
    def __init__(self, path: Path) -> None:
        self._path = path

    def command(self, line: str) -> str:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as link:
            link.connect(str(self._path))
            link.settimeout(10)
            link.sendall(line.encode() + b"\n")
            time.sleep(1.0)
            with contextlib.suppress(TimeoutError):
                return link.recv(65536).decode("utf-8", "replace")
        return ""


def screendump(monitor: Monitor, folder: Path, png: Path) -> None:
    ppm = folder / "screen.ppm"
    ppm.unlink(missing_ok=True)
    monitor.command(f"screendump {ppm}")
    for _ in range(50):
        if ppm.exists() and ppm.stat().st_size > 0:
            break
        time.sleep(0.1)
    time.sleep(0.3)
    png.write_bytes(ppm_to_png(ppm.read_bytes()))


def ppm_to_png(ppm: bytes) -> bytes:
    """A binary PPM (P6, what QEMU's screendump writes) as a PNG, with the standard
    library only (a fresh machine has no Pillow)."""
    fields = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", ppm)
    if fields is None or fields.group(3) != b"255":
        fail("screendump: not an 8-bit P6 picture")
    assert fields is not None
    width, height = int(fields.group(1)), int(fields.group(2))
    pixels = ppm[fields.end() :]
    rows = b"".join(b"\0" + pixels[y * width * 3 : (y + 1) * width * 3] for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows, 6))
        + chunk(b"IEND", b"")
    )


def read_text(png: Path) -> str | None:
    """What Debian's OCR engine reads on the screenshot; None without tesseract."""
    if shutil.which("tesseract") is None:
        return None
    found = subprocess.run(["tesseract", str(png), "-", "--psm", "3"], capture_output=True)
    return " ".join(found.stdout.decode("utf-8", "replace").split())


@contextlib.contextmanager
def qemu(
    kernel: Path, initrd: Path, dtb: Path, disk: Path, folder: Path
) -> Iterator[subprocess.Popen[bytes]]:
    command = [
        "qemu-system-aarch64", "-M", "raspi3b", "-m", "1G",
        "-kernel", str(kernel), "-initrd", str(initrd), "-dtb", str(dtb),
        "-append", COMMAND_LINE,
        "-drive", f"file={disk},format=raw,if=sd",
        "-serial", f"file:{folder / 'console.log'}",
        "-serial", f"unix:{folder / 'board.sock'},server=on,wait=off",
        "-monitor", f"unix:{folder / 'monitor.sock'},server=on,wait=off",
        "-display", "none", "-no-reboot",
    ]  # fmt: skip
    process = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stderr=(folder / "qemu.log").open("wb")
    )
    try:
        yield process
    finally:
        # A hard stop, as a pulled plug: the box must carry on from its saved game.
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGKILL)
        process.wait()


def wait_for(
    log: Path, pattern: re.Pattern[bytes], process: subprocess.Popen[bytes], timeout: float
) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if log.exists() and pattern.search(log.read_bytes()):
            return True
        if process.poll() is not None:
            return False
        time.sleep(0.5)
    return False


# A line starts after a newline or after a carriage return: the serial getty's prompt
# ("login: \r … \r") can sit on the same line before it.
PORT_LINE = re.compile(rb"(?:^|\r)NSPORT ([^\r\n]*)", re.M)
SPI_LINE = re.compile(rb"(?:^|\r)NSSPI (\S+)", re.M)


def ports_seen(console: bytes) -> list[str] | None:
    """The listening sockets the report wrote on the console (each line marked, so
    systemd's status lines printed among them are not read as ports); None before the
    report's end."""
    if b"NSPORTS-END" not in console:
        return None
    return [" ".join(line.decode(errors="replace").split()) for line in PORT_LINE.findall(console)]


def spidev_seen(console: bytes) -> list[str]:
    """The SPI devices the overlay made (the panel's /dev/spidev0.1), from the report."""
    return [name.decode(errors="replace") for name in SPI_LINE.findall(console)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="image/boot.sh", description=__doc__.split("\n\n")[0])
    parser.add_argument("image", type=Path, help="nsdevice-*.img.xz or .img")
    parser.add_argument("--keys", default="", help="buttons to press after READY: next,back,menu")
    parser.add_argument("--screenshot", type=Path, help="the screen as PNG, after the keys")
    parser.add_argument(
        "--ready-screenshot", type=Path, help="the screen as PNG at READY, before any key"
    )
    parser.add_argument(
        "--disk", type=Path, help="keep the emulated card in FILE; reuse it when it exists"
    )
    parser.add_argument(
        "--ports", action="store_true", help="list the listening ports (ss) after READY"
    )
    parser.add_argument(
        "--timeout", type=float, default=1800.0, help="seconds to wait for READY (loaded: long)"
    )
    parser.add_argument("--log", type=Path, help="where the serial console's log goes")
    args = parser.parse_args(argv)
    keys = [key for key in args.keys.split(",") if key]
    for key in keys:
        if key not in BUTTONS:
            fail(f"--keys: {key} is no button (next, back, menu)")
    if not args.image.is_file():
        fail(f"no image {args.image}")
    for tool in ("qemu-system-aarch64", "mcopy", "mdir", "fdtput", "debugfs", "e2fsck"):
        if shutil.which(tool) is None:
            packages = "qemu-system-arm mtools device-tree-compiler e2fsprogs"
            fail(f"{tool} is missing (apt-get install {packages})")

    wall = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="nsdevice-boot.") as scratch:
        folder = Path(scratch)
        disk = args.disk or folder / "card.img"
        if not disk.exists():
            unpack(args.image, disk)
        kernel, initrd, dtb = prepare(disk, folder, args.ports)
        board = Board(folder / "board.sock")
        monitor = Monitor(folder / "monitor.sock")
        log = folder / "console.log"
        result: dict[str, object] = {"image": str(args.image)}
        started = time.monotonic()
        with qemu(kernel, initrd, dtb, disk, folder) as process:
            board.start()
            ready = wait_for(log, READY_LINE, process, args.timeout)
            result["ready_s"] = round(time.monotonic() - started, 1) if ready else None
            if ready:
                result["board"] = board.connected.wait(60)
                time.sleep(3)  # the first frame is drawn as READY is said; let it land
                if args.ready_screenshot:
                    screendump(monitor, folder, args.ready_screenshot)
                    result["ready_screen"] = str(args.ready_screenshot)
                    result["ready_screen_text"] = read_text(args.ready_screenshot)
                for key in keys:
                    board.press(BUTTONS[key])
                    time.sleep(2.5)  # an emulated Cortex-A53 draws slowly
                result["keys"] = keys
                if args.ports:
                    wait_for(log, re.compile(rb"NSPORTS-END"), process, 960)
                    result["ports"] = ports_seen(log.read_bytes())
                    result["spidev"] = spidev_seen(log.read_bytes())
                if args.screenshot:
                    time.sleep(2)
                    screendump(monitor, folder, args.screenshot)
                    result["screen"] = str(args.screenshot)
                    result["screen_text"] = read_text(args.screenshot)
            board.stop()
        result["wall_s"] = round(time.monotonic() - wall, 1)
        boot_log = args.log or Path(f"{args.screenshot or 'boot'}.console.log")
        shutil.copyfile(log, boot_log) if log.exists() else boot_log.write_text("")
        result["boot_log"] = str(boot_log)
        print(json.dumps(result))
        return 0 if ready else 1


if __name__ == "__main__":
    raise SystemExit(main())
