"""`nsdevice update FILE`: a signed release beside the running one, switched to only once
it is up, and the running one back by itself when it is not (issue 31).

The layout (systemd/install.sh makes it): each release a venv of its own under
`/opt/nsdevice/releases/<version>`, and `/opt/nsdevice/current` a link to the one the
service runs (`ExecStart=/opt/nsdevice/current/bin/nsdevice …`). An update:

1. checks the bundle's signature against the release key shipped with the box, before
   anything is unpacked (`bundle.open_bundle`);
2. installs the release into `releases/<version>` offline, from the bundle's wheels;
3. tries it: the service is restarted on the new release through a drop-in under /run
   (gone at the next boot, so a power cut mid-update boots the old release), and it must
   reach READY (the app says it after its first frame) and still be running a moment later;
4. only then points `current` at it (a new link renamed over the old: never half made);
   otherwise drops the trial and restarts the old release, and removes the new one.

The saved game and the history stay where they are, in the state folder, which no
release owns: the new release restores the game the old one saved (snapshots of every
earlier version are read, `session.snapshot`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from nsdevice.appliance.bundle import RELEASE_KEY, BundleRefused, Release, open_bundle

OPT = Path("/opt/nsdevice")
UNIT = "nsdevice.service"
TRIAL = Path("/run/systemd/system/nsdevice.service.d/50-nsdevice-update-trial.conf")
# The unit's ExecStart with the release's folder for {release}: tests/test_appliance_update.py
# checks systemd/nsdevice.service says exactly this with /opt/nsdevice/current.
EXEC_START = (
    "{release}/bin/nsdevice run --hardware ${{NSDEVICE_PROFILE}} --web ${{NSDEVICE_WEB}}"
    " $NSDEVICE_OPTIONS"
)
KEEP_RELEASES = 2  # the running one and the one before it


class UpdateFailed(RuntimeError):
    """The new release was installed but did not come up: the old one runs again."""


class Installer(Protocol):
    def __call__(self, release: Release, folder: Path) -> None:
        """Make `folder` a runnable release (`folder/bin/nsdevice`) from the wheels."""


class Service(Protocol):
    """The box's service, as the switch sees it."""

    def try_release(self, folder: Path) -> bool:
        """Run the service on the release in `folder`; True once it is READY and stays up."""

    def restore(self) -> None:
        """Run the service on `current` again, as the unit says."""

    def keep(self) -> None:
        """`current` now points at the release on trial, which stays running."""


def install_venv(release: Release, folder: Path) -> None:
    """A venv of its own, with the system's packages visible (Debian's lgpio and
    spidev, as install.sh does it), filled offline from the bundle's wheels only."""
    python = shutil.which("python3") or sys.executable
    subprocess.run([python, "-m", "venv", "--system-site-packages", str(folder)], check=True)
    subprocess.run(
        [str(folder / "bin/python"), "-m", "pip", "install", "--quiet", "--no-index",
         "--find-links", str(release.wheels[0].parent), release.requirement],
        check=True,
    )  # fmt: skip
    # the service runs optimized and cannot write bytecode: the release's at both levels
    # (as install.sh compiles it; a command run by hand is not optimized), level 2 without
    # column positions (decision 0011). A file that does not compile is compiled at each
    # start instead: no reason to refuse the release
    for level, columns in (("0", {}), ("2", {"PYTHONNODEBUGRANGES": "1"})):
        subprocess.run(
            [str(folder / "bin/python"), "-m", "compileall", "-q", "-o", level, str(folder)],
            check=False, stdout=subprocess.DEVNULL, env={**os.environ, **columns},
        )  # fmt: skip


class Systemd:
    """The real service: a runtime drop-in swaps ExecStart for the trial; `systemctl
    restart` of a Type=notify unit returns once the unit is READY or has failed."""

    def __init__(
        self,
        run: Callable[[Sequence[str]], int] | None = None,
        settle: float = 5.0,
        trial: Path = TRIAL,
    ) -> None:
        self.run = run or (lambda argv: subprocess.run(list(argv), check=False).returncode)
        self.settle, self.trial = settle, trial

    def try_release(self, folder: Path) -> bool:
        self.trial.parent.mkdir(parents=True, exist_ok=True)
        self.trial.write_text(
            "# nsdevice update: the release on trial; removed once it is up or has failed\n"
            "[Service]\nExecStart=\n"
            f"ExecStart={EXEC_START.format(release=folder)}\n",
            encoding="utf-8",
        )
        self.run(["systemctl", "daemon-reload"])
        self.run(["systemctl", "reset-failed", UNIT])
        if self.run(["systemctl", "restart", UNIT]) != 0:
            return False
        time.sleep(self.settle)  # a release that falls over just after READY fails too
        return self.run(["systemctl", "is-active", "--quiet", UNIT]) == 0

    def restore(self) -> None:
        self.trial.unlink(missing_ok=True)
        self.run(["systemctl", "daemon-reload"])
        self.run(["systemctl", "reset-failed", UNIT])
        self.run(["systemctl", "restart", UNIT])

    def keep(self) -> None:
        """The trial passed and `current` points at it: the unit's own line holds again
        (the running process is not touched by the reload)."""
        self.trial.unlink(missing_ok=True)
        self.run(["systemctl", "daemon-reload"])


def current_release(opt: Path) -> Path | None:
    """The release `current` points at (`opt/releases/<version>`), None without the link."""
    link = opt / "current"
    if not link.is_symlink():
        return None
    return Path(os.path.normpath(opt / os.readlink(link)))


def switch(opt: Path, folder: Path) -> None:
    """Point `current` at `folder` in one rename: a pulled plug leaves the old or the new."""
    link = opt / "current"
    fresh = opt / f".current-{os.getpid()}"
    fresh.unlink(missing_ok=True)
    fresh.symlink_to(folder.relative_to(opt))
    os.replace(fresh, link)
    _sync(opt)


def _sync(folder: Path) -> None:
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def update(
    bundle: Path,
    *,
    opt: Path = OPT,
    public_key: bytes | None = None,
    installer: Installer = install_venv,
    service: Service | None = None,
    say: Callable[[str], None] = print,
) -> str:
    """Install and switch to the release in `bundle`; returns its version.
    `BundleRefused`: nothing changed. `UpdateFailed`: the old release runs again."""
    key = public_key if public_key is not None else RELEASE_KEY.read_bytes()
    running = current_release(opt)
    if running is None:
        raise BundleRefused(f"no {opt / 'current'}: install the box with install.sh first")
    service = service or Systemd()
    releases = opt / "releases"
    releases.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=releases, prefix=".unpacked-") as scratch:
        release = open_bundle(bundle, Path(scratch), key)
        folder = releases / release.version
        if folder == running:
            raise BundleRefused(f"release {release.version} is the one running")
        if folder.exists():  # a try that failed before: start clean
            shutil.rmtree(folder)
        say(f"nsdevice update: installing {release.version} beside {running.name}")
        try:
            installer(release, folder)
        except (subprocess.CalledProcessError, OSError) as error:
            shutil.rmtree(folder, ignore_errors=True)
            failed = f"release {release.version} could not be installed: {error}"
            raise UpdateFailed(failed) from None
    say(f"nsdevice update: starting {release.version}")
    if not service.try_release(folder):
        service.restore()
        shutil.rmtree(folder, ignore_errors=True)
        raise UpdateFailed(
            f"release {release.version} did not start; back on {running.name}, the game kept"
        )
    switch(opt, folder)
    service.keep()
    _tidy(releases, keep=(folder, running))
    say(f"nsdevice update: {release.version} is running (was {running.name})")
    return release.version


def _tidy(releases: Path, keep: Sequence[Path]) -> None:
    """Remove releases older than the running one and the one before it."""
    for folder in releases.iterdir():
        if folder.is_dir() and not folder.name.startswith(".") and folder not in keep:
            shutil.rmtree(folder, ignore_errors=True)
