"""The arm64 userland that benchmarks/pi_cost.py counts in: built with debootstrap from the
machine's own Debian mirror, this checkout installed into a venv there, and the counting
plugin and the fake SPI device compiled for it. Root only (chroot)."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GUEST_FILES = Path(__file__).resolve().parent / "pi_guest"
# the Debian mirror: this machine's own apt sources, or NSDEVICE_DEBIAN_MIRROR
MIRROR_TOOL = ROOT / "tools" / "debian-mirror"
# What the userland needs beyond a base system: Python with venv, and a compiler and
# Python's headers for spidev and gpiod, which pip builds there.
PACKAGES = "python3,python3-venv,python3-dev,gcc,libc6-dev,ca-certificates"
READY_MARK = ".nsdevice-userland-ready"
WORK = "/opt/nsdevice-cost"  # inside the userland


def debian_mirror() -> str:
    """The mirror tools/debian-mirror reads from the machine (SystemExit with its line)."""
    found = subprocess.run([sys.executable, str(MIRROR_TOOL)], capture_output=True, text=True)
    if found.returncode != 0:
        raise SystemExit(found.stderr.strip())
    return found.stdout.strip()


def say(message: str) -> None:
    print(f"pi_cost: {message}", file=sys.stderr, flush=True)


def run(command: Sequence[str], **options: Any) -> subprocess.CompletedProcess:
    return subprocess.run(list(command), check=True, **options)


def ensure_binfmt() -> None:
    """qemu-user through binfmt_misc, for chroot and pip inside the userland."""
    status = Path("/proc/sys/fs/binfmt_misc/status")
    if not status.exists():
        run(["mount", "-t", "binfmt_misc", "binfmt_misc", "/proc/sys/fs/binfmt_misc"])
    if not Path("/proc/sys/fs/binfmt_misc/qemu-aarch64").exists():
        run(["update-binfmts", "--enable", "qemu-aarch64"])


def ensure_userland(root: Path) -> None:
    if (root / READY_MARK).exists():
        say(f"reusing {root}")
        return
    say(f"building {root} with debootstrap (slow under emulation)")
    shutil.rmtree(root, ignore_errors=True)
    root.parent.mkdir(parents=True, exist_ok=True)
    with open(f"{root}.log", "w") as log:
        run(
            ["debootstrap", "--arch=arm64", f"--include={PACKAGES}", "bookworm", str(root),
             debian_mirror()],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    (root / READY_MARK).touch()


@contextlib.contextmanager
def mounted(root: Path) -> Iterator[None]:
    """/proc and /dev inside the userland while it is used (pip and qemu read them)."""
    points = []
    try:
        for source, point, how in (("proc", "proc", ["-t", "proc"]), ("/dev", "dev", ["--bind"])):
            target = root / point
            if not os.path.ismount(target):
                run(["mount", *how, source, str(target)])
                points.append(target)
        yield
    finally:
        for target in reversed(points):
            subprocess.run(["umount", "-l", str(target)], check=False)


def chroot(root: Path, *command: str, env: dict[str, str] | None = None, **options: Any) -> Any:
    clean = {
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "HOME": "/root",
        "LANG": "C.UTF-8",
        # pip's own certificate bundle does not know a network's inspecting authority
        "PIP_CERT": "/etc/ssl/certs/ca-certificates.crt",
    }
    return run(
        [
            "chroot",
            str(root),
            "env",
            "-i",
            *(f"{k}={v}" for k, v in {**clean, **(env or {})}.items()),
            *command,
        ],
        **options,
    )


def install(root: Path, again: bool) -> None:
    """This checkout's files (as they are now) into a venv in the userland."""
    work = root / WORK.lstrip("/")
    source = work / "src"
    files = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-co", "--exclude-standard"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    shutil.rmtree(source, ignore_errors=True)
    for name in files:
        if name.startswith(("nsdevice/", "benchmarks/pi_guest/")) or name in (
            "pyproject.toml",
            "systemd/optimized-bytecode",
        ):
            target = source / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target)
    for name in ("README.md", "LICENSE"):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, source / name)
    shutil.copy2("/etc/resolv.conf", root / "etc/resolv.conf")
    for certificate in Path("/usr/local/share/ca-certificates").glob("*.crt"):
        shutil.copy2(certificate, root / "usr/local/share/ca-certificates" / certificate.name)
    venv = work / "venv"
    if not (venv / "bin/python").exists():
        say("making the venv and installing the aarch64 wheels (pip builds spidev and gpiod)")
        chroot(root, "update-ca-certificates", stdout=subprocess.DEVNULL)
        chroot(root, "python3", "-m", "venv", f"{WORK}/venv")
        again = True
    if again:
        chroot(root, f"{WORK}/venv/bin/pip", "install", "-q", f"{WORK}/src[pi]", "gpiozero")
    else:  # the dependencies stay; only the project's own files are new
        chroot(
            root,
            f"{WORK}/venv/bin/pip",
            "install",
            "-q",
            "--no-deps",
            "--force-reinstall",
            f"{WORK}/src",
        )
    # byte-code compiled once, as the image and install.sh compile it: the release (and the
    # guest's stand-ins) at both levels, the system's modules at level 2, which the
    # service reads optimized (its unit's PYTHONOPTIMIZE=2) and cannot write; level 2
    # without column positions, by the script apt's hook runs (decision 0011), which
    # compiles again what an earlier userland compiled with them
    guest = (f"{WORK}/venv/lib", f"{WORK}/src/benchmarks/pi_guest")
    chroot(root, f"{WORK}/venv/bin/python", "-m", "compileall", "-q", "-o", "0", *guest,
           stdout=subprocess.DEVNULL)  # fmt: skip
    for folders in (guest, ()):  # (none: the system's own)
        chroot(root, "python3", f"{WORK}/src/systemd/optimized-bytecode", *folders,
               stdout=subprocess.DEVNULL)  # fmt: skip


def build_tools(root: Path) -> None:
    """The counting plugin (a host library: qemu loads it), the fake SPI device (built in
    the userland: the guest loads it), and qemu itself with its libraries, so it can run
    inside the chroot where the guest's paths are the real ones."""
    work = root / WORK.lstrip("/")
    host = work / "host"
    host.mkdir(parents=True, exist_ok=True)
    run(
        [
            "cc",
            "-O2",
            "-shared",
            "-fPIC",
            "-fvisibility=hidden",
            "-o",
            str(work / "libinsn.so"),
            str(GUEST_FILES / "count_instructions.c"),
        ]
    )
    shutil.copy2(GUEST_FILES / "fake_spidev.c", work / "fake_spidev.c")
    chroot(
        root,
        "gcc",
        "-O2",
        "-shared",
        "-fPIC",
        "-o",
        f"{WORK}/fake_spidev.so",
        f"{WORK}/fake_spidev.c",
        "-ldl",
    )
    qemu = shutil.which("qemu-aarch64")
    if qemu is None:
        raise SystemExit("pi_cost: qemu-aarch64 missing: apt-get install qemu-user")
    if b"-plugin" not in subprocess.run([qemu, "-h"], capture_output=True).stdout:
        raise SystemExit("pi_cost: this qemu-aarch64 takes no -plugin (Debian's qemu-user does)")
    shutil.copy2(qemu, host / "qemu-aarch64")
    listing = subprocess.run(["ldd", qemu], check=True, capture_output=True, text=True).stdout
    for line in listing.splitlines():
        path = next((word for word in line.split() if word.startswith("/")), None)
        if path:
            shutil.copy2(path, host / Path(path).name)


# ---------------------------------------------------------------------------------------
# counting
# ---------------------------------------------------------------------------------------
