"""`nsdevice firstboot`: the system as `nsdevice.toml` says, at every start (issue 31).

Run as root by `nsdevice-firstboot.service` before NetworkManager and the box, and safe to
run again: a file is written only when its contents change, the access point's password
is drawn once and kept. `--root DIR` does the same to a tree (an image being built, or a
test) and runs nothing; on the running system (`/`) it also tells the kernel the host
name and systemd which of SSH to start or stop.

What it guarantees whatever the file says: no account has a password that works (each is
locked), SSH is off unless the file gives a public key, and the box's own network is WPA2
with a password drawn here, never a fixed one.
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from nsdevice.appliance.network import (
    CLIENT_ID,
    HOTSPOT_ID,
    client_keyfile,
    draw_password,
    draw_suffix,
    hotspot_description,
    hotspot_keyfile,
    hotspot_name,
)
from nsdevice.appliance.settings import BoxSettings, load_settings
from nsdevice.errors import UsageError
from nsdevice.hardware.profiles import list_profiles

SETTINGS = Path("/boot/firmware/nsdevice.toml")  # Debian mounts the FAT partition there
HOTSPOT_RUN = Path("/run/nsdevice-hotspot/hotspot.toml")  # written while the network is up
SETUP_STATE = Path("var/lib/nsdevice-setup")  # under the root: what firstboot keeps
CONNECTIONS = Path("etc/NetworkManager/system-connections")
SSH_UNIT_LINK = Path("etc/systemd/system/multi-user.target.wants/ssh.service")
SSH_UNIT = "/lib/systemd/system/ssh.service"
SSH_CONFIG = Path("etc/ssh/sshd_config.d/nsdevice.conf")
AUTHORIZED_KEYS = Path("root/.ssh/authorized_keys")
OURS = "# nsdevice firstboot: from the card's nsdevice.toml, [ssh] public_key"
WIFI_COUNTRY = Path("etc/modprobe.d/nsdevice-wifi-country.conf")
DEFAULTS = Path("etc/default/nsdevice")
SSH_SETTINGS = """\
# nsdevice firstboot: keys only, whatever else is installed (issue 31).
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitEmptyPasswords no
PermitRootLogin prohibit-password
"""

Run = Callable[[Sequence[str]], None]


def run_command(argv: Sequence[str]) -> None:
    """A system command on the running box; its failure is said, never fatal (the box
    must come up even when, say, `iw` is missing)."""
    try:
        done = subprocess.run(list(argv), check=False, capture_output=True, text=True)
    except OSError as error:
        print(f"nsdevice firstboot: {argv[0]}: {error.strerror}", flush=True)
        return
    if done.returncode:
        said = (done.stderr or done.stdout).strip().splitlines()
        print(f"nsdevice firstboot: {' '.join(argv)}: {said[-1] if said else done.returncode}")


def first_boot(
    settings_path: Path,
    root: Path = Path("/"),
    *,
    chance: random.Random | None = None,
    run: Run | None = None,
    known_hardware: Sequence[str] = (),
) -> tuple[BoxSettings, list[str]]:
    """Make the system under `root` what the settings file says; returns the settings read
    (with any lines left out) and what changed, one line each. `run`: how system commands
    are run on a live system (None under another root: nothing is run)."""
    chance = chance or random.SystemRandom()
    live = root == Path("/")
    if run is None:
        run = run_command if live else _nothing
    settings = load_settings(settings_path, known_hardware)
    changed: list[str] = []

    def write(path: Path, text: str, mode: int = 0o644) -> bool:
        if _write(root / path, text, mode):
            changed.append(f"wrote /{path}")
            return True
        return False

    def remove(path: Path) -> bool:
        target = root / path
        if target.is_symlink() or target.exists():
            target.unlink()
            changed.append(f"removed /{path}")
            return True
        return False

    # the host name: also the kernel's now, since systemd read /etc/hostname long before
    if write(Path("etc/hostname"), settings.hostname + "\n") and live:
        socket.sethostname(settings.hostname)
    write(Path("etc/hosts"), _hosts(root / "etc/hosts", settings.hostname))
    if settings.wifi.country:
        text = f"options cfg80211 ieee80211_regdom={settings.wifi.country}\n"
        if write(WIFI_COUNTRY, text) and live:
            run(["iw", "reg", "set", settings.wifi.country])
    else:
        remove(WIFI_COUNTRY)

    # the networks: the player's when named, and the box's own, always there to fall back on
    if settings.wifi.name:
        write(CONNECTIONS / f"{CLIENT_ID}.nmconnection", client_keyfile(settings.wifi), 0o600)
    else:
        remove(CONNECTIONS / f"{CLIENT_ID}.nmconnection")
    name, password = _hotspot(root, settings.hostname, chance, write)
    write(CONNECTIONS / f"{HOTSPOT_ID}.nmconnection", hotspot_keyfile(name, password), 0o600)

    # SSH: only with a key, and then keys only
    if settings.ssh_public_key:
        (root / AUTHORIZED_KEYS).parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        write(AUTHORIZED_KEYS, f"{OURS}\n{settings.ssh_public_key}\n", 0o600)
        write(SSH_CONFIG, SSH_SETTINGS)
        if _link(root / SSH_UNIT_LINK, SSH_UNIT):
            changed.append(f"enabled ssh.service (/{SSH_UNIT_LINK})")
        if live:
            run(["ssh-keygen", "-A"])  # this box's own host keys, never the image's
            run(["systemctl", "start", "--no-block", "ssh.service"])
    else:
        if _is_ours(root / AUTHORIZED_KEYS):
            remove(AUTHORIZED_KEYS)
        if remove(SSH_UNIT_LINK) and live:
            run(["systemctl", "stop", "--no-block", "ssh.service"])
        write(SSH_CONFIG, SSH_SETTINGS)  # should someone enable it by hand: still keys only

    for account in _lock_passwords(root / "etc/shadow"):
        changed.append(f"locked the password of {account}")
    write(DEFAULTS, _defaults(settings))
    return settings, changed


def _nothing(argv: Sequence[str]) -> None:
    """Under another root nothing runs: the tree is not a running system."""


def _hotspot(
    root: Path, hostname: str, chance: random.Random, write: Callable[[Path, str, int], bool]
) -> tuple[str, str]:
    """The box's own network's name and password: the password and the name's suffix are
    drawn at the first boot and kept (phones that joined once join again)."""
    import tomllib

    kept_file = root / SETUP_STATE / "hotspot.toml"
    try:
        kept = tomllib.loads(kept_file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        kept = {}
    password, suffix = kept.get("password"), kept.get("suffix")
    if not (isinstance(password, str) and len(password) >= 8):
        password = draw_password(chance)
    if not (isinstance(suffix, str) and suffix.isalnum()):
        suffix = draw_suffix(chance)
    name = hotspot_name(hostname, suffix)
    (root / SETUP_STATE).mkdir(mode=0o700, parents=True, exist_ok=True)
    text = hotspot_description(name, password) + f'suffix = "{suffix}"\n'
    write(SETUP_STATE / "hotspot.toml", text, 0o600)
    return name, password


def _hosts(path: Path, hostname: str) -> str:
    """/etc/hosts with the box's name on 127.0.1.1, as Debian has it."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        lines = ["127.0.0.1\tlocalhost", "::1\t\tlocalhost ip6-localhost ip6-loopback"]
    kept = [line for line in lines if not line.startswith("127.0.1.1")]
    return "\n".join([*kept, f"127.0.1.1\t{hostname}"]) + "\n"


def _defaults(settings: BoxSettings) -> str:
    return (
        "# Written by nsdevice firstboot at every start, from the card's nsdevice.toml:\n"
        "# edit that file, not this one.\n"
        f"NSDEVICE_PROFILE={settings.hardware}\n"
        f"NSDEVICE_OPTIONS=--settings {SETTINGS} --hotspot {HOTSPOT_RUN}\n"
    )


def _is_ours(path: Path) -> bool:
    try:
        return path.read_text(encoding="utf-8").startswith(OURS)
    except (OSError, UnicodeDecodeError):
        return False


def _link(path: Path, target: str) -> bool:
    if path.is_symlink() and os.readlink(path) == target:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_symlink() or path.exists():
        path.unlink()
    path.symlink_to(target)
    return True


def _lock_passwords(shadow: Path) -> list[str]:
    """Lock every account whose password would work: an empty field (no password at all)
    becomes `*`, a hash gets the `!` that makes it never match. Returns the accounts."""
    try:
        lines = shadow.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return []
    locked: list[str] = []
    out = []
    for line in lines:
        fields = line.split(":")
        if len(fields) >= 2 and not fields[1].startswith(("!", "*")):
            fields[1] = "!" + fields[1] if fields[1] else "*"
            locked.append(fields[0])
        out.append(":".join(fields))
    if locked:
        _write(shadow, "\n".join(out) + "\n", shadow.stat().st_mode & 0o777, force=True)
    return locked


def _write(path: Path, text: str, mode: int, *, force: bool = False) -> bool:
    """Write `text` to `path` whole (a temporary file renamed over it, so a pulled plug
    leaves the old file or the new one) when it differs; True when it was written."""
    try:
        if not force and path.read_text(encoding="utf-8") == text and _mode(path) == mode:
            return False
    except (OSError, UnicodeDecodeError):
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(name, mode)
        os.replace(name, path)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise
    return True


def _mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def command(settings_path: Path, root: Path) -> int:
    """`nsdevice firstboot` and the unit's `python -m nsdevice.appliance.firstboot`: the
    system as the file says; each line left out is said on stderr, each change on stdout,
    and the box still starts (it names those lines on its screen too)."""
    if not root.is_dir():
        raise UsageError(f"nsdevice firstboot: --root {root}: not a folder")
    known = list_profiles()
    known.update(
        {p.stem: p for p in (root / "etc/nsdevice/profiles").glob("*.toml")}
    )  # an image's own profiles, when setting up a tree
    try:
        settings, changed = first_boot(settings_path, root, known_hardware=tuple(known))
    except OSError as error:
        raise UsageError(f"nsdevice firstboot: {error.filename}: {error.strerror}") from None
    for problem in settings.problems:
        print(f"nsdevice firstboot: {problem} (left out)", file=sys.stderr)
    for line in changed:
        print(f"nsdevice firstboot: {line}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """What nsdevice-firstboot.service runs. Not through `nsdevice`: the whole command
    line's imports (pygame among them) cost seconds at every boot on a Zero 2 W, and
    minutes in the emulated Pi, before NetworkManager and the box may start."""
    parser = argparse.ArgumentParser(prog="python -m nsdevice.appliance.firstboot")
    parser.add_argument("--settings", required=True, type=Path, help="the card's nsdevice.toml")
    parser.add_argument("--root", default=Path("/"), type=Path, help="another tree")
    args = parser.parse_args(argv)
    try:
        return command(args.settings, args.root)
    except UsageError as error:
        print(error, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
