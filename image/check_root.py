"""The image's security check over its root tree (docs/image.md):

    python3 image/check_root.py TREE

- no account has a password that works: every /etc/shadow entry is locked (`!` or `*`
  first) and /etc/passwd keeps no hash of its own; an empty field (a login with no
  password at all) fails;
- SSH is off: neither ssh.service nor ssh.socket is enabled, no host keys are baked in,
  and sshd refuses passwords should first boot turn it on (with a key);
- what starts at boot: every enabled unit, and no enabled socket unit (nothing listens
  on behalf of the box but the box itself, on the page's port).

Prints one line per finding and exits 1 when any fails, 0 when all pass.
"""

from __future__ import annotations

import sys
from pathlib import Path

SSH_UNITS = ("ssh.service", "ssh.socket", "sshd.service")


def usable_passwords(tree: Path) -> list[str]:
    """Accounts whose password field would let someone log in."""
    found = []
    for name in ("etc/shadow", "etc/passwd"):
        for line in (tree / name).read_text().splitlines():
            fields = line.split(":")
            if len(fields) < 2 or not line.strip():
                continue
            user, secret = fields[0], fields[1]
            if name == "etc/passwd" and secret == "x":
                continue  # the hash is in shadow, checked above
            if secret == "" or secret[0] not in "!*":
                found.append(f"{user} ({name})")
    return found


def enabled_units(tree: Path) -> list[str]:
    """Units enabled by a link in a .wants folder under /etc (what starts at boot)."""
    units = set()
    for folder in (tree / "etc/systemd/system").glob("*.wants"):
        for link in folder.iterdir():
            target = link.readlink() if link.is_symlink() else link
            mask = tree / "etc/systemd/system" / link.name
            masked = mask.is_symlink() and str(mask.readlink()) == "/dev/null"
            if str(target) != "/dev/null" and not masked:
                units.add(link.name)
    return sorted(units)


def findings(tree: Path) -> list[tuple[bool, str]]:
    results: list[tuple[bool, str]] = []
    usable = usable_passwords(tree)
    results.append((not usable, f"accounts with a usable password: {', '.join(usable) or 'none'}"))
    units = enabled_units(tree)
    ssh = [unit for unit in units if unit in SSH_UNITS]
    results.append((not ssh, f"SSH enabled at boot: {', '.join(ssh) or 'no'}"))
    keys = sorted(path.name for path in (tree / "etc/ssh").glob("ssh_host_*"))
    results.append((not keys, f"SSH host keys in the image: {', '.join(keys) or 'none'}"))
    config = "\n".join(
        path.read_text() for path in sorted((tree / "etc/ssh/sshd_config.d").glob("*.conf"))
    )
    refuses = "passwordauthentication no" in config.lower()
    results.append((refuses, f"sshd refuses passwords: {'yes' if refuses else 'no'}"))
    sockets = [unit for unit in units if unit.endswith(".socket")]
    results.append((not sockets, f"socket units enabled: {', '.join(sockets) or 'none'}"))
    results.append((True, f"units enabled at boot: {', '.join(units)}"))
    return results


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not (Path(argv[0]) / "etc/shadow").is_file():
        print("usage: check_root.py TREE (a root tree with etc/shadow)", file=sys.stderr)
        return 2
    results = findings(Path(argv[0]))
    for passed, text in results:
        print(f"{'ok  ' if passed else 'FAIL'} {text}")
    return 0 if all(passed for passed, _ in results) else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
