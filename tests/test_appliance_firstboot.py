"""`nsdevice firstboot` over a root tree (issue 31): what the card's nsdevice.toml makes of
the system, and what it never allows: a password that works, SSH without a key, an access
point without WPA2 or with a fixed password. And install.sh --appliance's layout."""

from __future__ import annotations

import configparser
import os
import random
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from nsdevice.appliance.firstboot import (
    AUTHORIZED_KEYS,
    SSH_CONFIG,
    SSH_UNIT_LINK,
    first_boot,
)
from nsdevice.hardware.profiles import list_profiles

REPOSITORY = Path(__file__).resolve().parent.parent
TEMPLATE = REPOSITORY / "image" / "nsdevice.toml"
KNOWN = tuple(list_profiles())
KEY = ("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJdPqVh2m6vQ3H6l1zv0Wn9l4k3Gq0m7YV2f7mJmD8Qh "
       "player@laptop")  # fmt: skip
CONNECTIONS = Path("etc/NetworkManager/system-connections")
# a Debian root's shadow as an image build might leave it: root with no password at all,
# a user with a hash, system accounts already locked
SHADOW = """root::19700:0:99999:7:::
daemon:*:19700:0:99999:7:::
pi:$y$j9T$abc$defghijklmnopqrstuvwxyz0123456789ABCDEF:19700:0:99999:7:::
nsdevice:!:19700::::::
sshd:!*:19700::::::
"""


def a_root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc/shadow").write_text(SHADOW, encoding="utf-8")
    os.chmod(root / "etc/shadow", 0o640)
    (root / "etc/hosts").write_text("127.0.0.1\tlocalhost\n127.0.1.1\tdebian\n", encoding="utf-8")
    return root


def settings_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "nsdevice.toml"
    path.write_text(text, encoding="utf-8")
    return path


def mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def keyfile(path: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.read_string(path.read_text(encoding="utf-8"))
    return parser


def usable_passwords(root: Path) -> list[str]:
    """Accounts whose shadow entry would let a password log in: an empty field, or a
    hash not locked with ! or *."""
    usable = []
    for line in (root / "etc/shadow").read_text(encoding="utf-8").splitlines():
        name, password = line.split(":")[:2]
        if not password.startswith(("!", "*")):
            usable.append(name)
    return usable


def test_the_shipped_file_gives_the_boxs_own_wifi_no_ssh_and_no_password(tmp_path):
    """Done when (issue 31): the built root has no usable password for any account and no
    SSH without a key."""
    root = a_root(tmp_path)
    assert usable_passwords(root) == ["root", "pi"]  # as the image build left them
    settings, changed = first_boot(TEMPLATE, root, known_hardware=KNOWN)
    assert settings.problems == ()
    assert usable_passwords(root) == []
    shadow = (root / "etc/shadow").read_text(encoding="utf-8")
    assert shadow.startswith("root:*:") and "\npi:!$y$" in shadow  # locked, kept
    assert mode(root / "etc/shadow") == 0o640
    assert "locked the password of root" in changed
    # SSH: not enabled, no key, and should anyone enable it by hand, keys only
    assert not (root / SSH_UNIT_LINK).exists() and not (root / SSH_UNIT_LINK).is_symlink()
    assert not (root / AUTHORIZED_KEYS).exists()
    config = (root / SSH_CONFIG).read_text(encoding="utf-8")
    assert "PasswordAuthentication no" in config and "PermitEmptyPasswords no" in config
    # no player's network: only the box's own, WPA2 with a password drawn here
    assert not (root / CONNECTIONS / "nsdevice-wifi.nmconnection").exists()
    hotspot = root / CONNECTIONS / "nsdevice-hotspot.nmconnection"
    assert mode(hotspot) == 0o600  # NetworkManager reads no keyfile others can read
    parsed = keyfile(hotspot)
    assert parsed["wifi-security"]["proto"] == "rsn"
    assert parsed["wifi"]["ssid"].startswith("nextstation-")
    assert (root / "etc/hostname").read_text() == "nextstation\n"
    assert "127.0.1.1\tnextstation" in (root / "etc/hosts").read_text()
    assert "debian" not in (root / "etc/hosts").read_text()
    defaults = (root / "etc/default/nsdevice").read_text(encoding="utf-8")
    assert "NSDEVICE_PROFILE=display-hat-mini\n" in defaults
    assert "--settings /boot/firmware/nsdevice.toml" in defaults
    assert (root / "etc/modprobe.d/nsdevice-wifi-country.conf").read_text() == (
        "options cfg80211 ieee80211_regdom=GB\n"
    )


def test_the_access_point_password_is_drawn_once_per_box_and_kept(tmp_path):
    one, two = a_root(tmp_path / "one"), a_root(tmp_path / "two")
    first_boot(TEMPLATE, one, known_hardware=KNOWN)
    first_boot(TEMPLATE, two, known_hardware=KNOWN)
    psk_one = keyfile(one / CONNECTIONS / "nsdevice-hotspot.nmconnection")["wifi-security"]["psk"]
    psk_two = keyfile(two / CONNECTIONS / "nsdevice-hotspot.nmconnection")["wifi-security"]["psk"]
    assert psk_one != psk_two  # never a fixed one: each box draws its own
    kept = one / "var/lib/nsdevice-setup/hotspot.toml"
    assert mode(kept) == 0o600 and mode(kept.parent) == 0o700
    assert f'password = "{psk_one}"' in kept.read_text(encoding="utf-8")
    # the next boot: the same password and network, and nothing written again
    _, changed = first_boot(TEMPLATE, one, chance=random.Random(99), known_hardware=KNOWN)
    assert changed == []
    again = keyfile(one / CONNECTIONS / "nsdevice-hotspot.nmconnection")["wifi-security"]["psk"]
    assert again == psk_one


def test_a_key_turns_ssh_on_for_that_key_only_and_removing_it_turns_it_off(tmp_path):
    root = a_root(tmp_path)
    with_key = settings_file(tmp_path, f'[ssh]\npublic_key = "{KEY}"\n')
    first_boot(with_key, root, known_hardware=KNOWN)
    link = root / SSH_UNIT_LINK
    assert os.readlink(link) == "/lib/systemd/system/ssh.service"
    keys = root / AUTHORIZED_KEYS
    assert keys.read_text(encoding="utf-8").splitlines()[1:] == [KEY]
    assert mode(keys) == 0o600 and mode(keys.parent) == 0o700
    assert usable_passwords(root) == []  # a key, never a password
    # the key taken out of the file: SSH off again, the key gone
    _, changed = first_boot(settings_file(tmp_path, "# no key\n"), root, known_hardware=KNOWN)
    assert not link.is_symlink() and not keys.exists()
    assert f"removed /{SSH_UNIT_LINK}" in changed


def test_ssh_enabled_by_the_image_without_a_key_is_turned_off(tmp_path):
    root = a_root(tmp_path)
    link = root / SSH_UNIT_LINK
    link.parent.mkdir(parents=True)
    link.symlink_to("/lib/systemd/system/ssh.service")  # openssh-server's postinst enables it
    first_boot(TEMPLATE, root, known_hardware=KNOWN)
    assert not link.is_symlink()


def test_keys_someone_put_there_by_hand_are_not_removed(tmp_path):
    root = a_root(tmp_path)
    keys = root / AUTHORIZED_KEYS
    keys.parent.mkdir(parents=True)
    keys.write_text(KEY + "\n", encoding="utf-8")
    first_boot(TEMPLATE, root, known_hardware=KNOWN)
    assert keys.read_text(encoding="utf-8") == KEY + "\n"
    assert not (root / SSH_UNIT_LINK).is_symlink()  # but SSH stays off without the file's key


def test_the_players_wifi_becomes_a_keyfile_beside_the_access_point(tmp_path):
    root = a_root(tmp_path)
    text = '[wifi]\ncountry = "de"\nname = "Zuhause"\npassword = "geheim123"\n'
    first_boot(settings_file(tmp_path, text), root, known_hardware=KNOWN)
    client = root / CONNECTIONS / "nsdevice-wifi.nmconnection"
    assert mode(client) == 0o600
    parsed = keyfile(client)
    assert parsed["wifi"]["ssid"] == "Zuhause" and parsed["wifi-security"]["psk"] == "geheim123"
    assert (root / CONNECTIONS / "nsdevice-hotspot.nmconnection").exists()  # to fall back on
    assert "ieee80211_regdom=DE" in (root / "etc/modprobe.d/nsdevice-wifi-country.conf").read_text()


def test_a_bad_hardware_line_keeps_the_default_build_and_is_said(tmp_path):
    root = a_root(tmp_path)
    path = settings_file(tmp_path, 'hardware = "toaster"\nhostname = "kitchen"\n')
    result = subprocess.run(
        [sys.executable, "-m", "nsdevice", "firstboot", "--settings", str(path),
         "--root", str(root)], capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 0
    assert "nsdevice.toml line 1: hardware:" in result.stderr
    defaults = (root / "etc/default/nsdevice").read_text(encoding="utf-8")
    assert "NSDEVICE_PROFILE=display-hat-mini\n" in defaults
    assert (root / "etc/hostname").read_text() == "kitchen\n"
    assert "wrote /etc/hostname" in result.stdout


def test_the_units_own_command_line_sets_up_a_root_and_names_the_bad_line(tmp_path):
    """The unit's ExecStart as written (the module, not `nsdevice`), with this Python in
    place of the card's and --root added: the same work, the same one line per bad line."""
    root = a_root(tmp_path)
    path = settings_file(tmp_path, 'hardware = "toaster"\nhostname = "kitchen"\n')
    unit = (REPOSITORY / "systemd/nsdevice-firstboot.service").read_text(encoding="utf-8")
    line = next(x for x in unit.splitlines() if x.startswith("ExecStart="))
    argv = line.removeprefix("ExecStart=").split()
    assert argv[0] == "/opt/nsdevice/current/bin/python"
    argv = [sys.executable, *argv[1:]]
    argv[argv.index("/boot/firmware/nsdevice.toml")] = str(path)
    result = subprocess.run([*argv, "--root", str(root)], capture_output=True, text=True,
                            timeout=60, check=False, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    said = result.stderr.splitlines()
    assert len(said) == 1 and "nsdevice.toml line 1: hardware:" in said[0]
    assert (root / "etc/hostname").read_text() == "kitchen\n"
    assert "wrote /etc/hostname" in result.stdout


def test_the_firstboot_module_refuses_a_root_that_is_not_a_folder_in_one_line(tmp_path):
    result = subprocess.run(
        [sys.executable, "-P", "-m", "nsdevice.appliance.firstboot", "--settings",
         str(TEMPLATE), "--root", str(tmp_path / "nowhere")], capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1


def test_firstboot_refuses_a_root_that_is_not_a_folder(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "nsdevice", "firstboot", "--settings", str(TEMPLATE),
         "--root", str(tmp_path / "nowhere")], capture_output=True, text=True, timeout=60,
        check=False,
    )  # fmt: skip
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1


# --- install.sh --appliance ---------------------------------------------------------------


def test_install_appliance_lays_out_releases_firstboot_hotspot_and_the_cards_file(tmp_path):
    root = tmp_path / "image"
    result = subprocess.run(
        ["bash", str(REPOSITORY / "systemd/install.sh"), "--root", str(root), "--appliance"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    units = root / "etc/systemd/system"
    for unit in ("nsdevice.service", "nsdevice-firstboot.service", "nsdevice-hotspot.service"):
        assert (units / unit).is_file(), unit
        assert (units / "multi-user.target.wants" / unit).is_symlink(), unit
    assert "ExecStart=/opt/nsdevice/current/bin/nsdevice run" in (
        units / "nsdevice.service"
    ).read_text(encoding="utf-8")
    firstboot = (units / "nsdevice-firstboot.service").read_text(encoding="utf-8")
    assert "ExecStart=/opt/nsdevice/current/bin/python -P -m nsdevice.appliance.firstboot " \
           "--settings /boot/firmware/nsdevice.toml" in firstboot
    assert "Before=NetworkManager.service nsdevice.service ssh.service" in firstboot
    dispatcher = root / "etc/NetworkManager/dispatcher.d/90-nsdevice-hotspot"
    assert mode(dispatcher) == 0o755  # NetworkManager runs only root's, not writable by others
    assert mode(root / "usr/local/lib/nsdevice/hotspot") == 0o755
    assert (root / "boot/firmware/nsdevice.toml").read_bytes() == TEMPLATE.read_bytes()
    assert (root / "opt/nsdevice/releases").is_dir()


def test_uninstall_takes_the_appliance_pieces_away_too(tmp_path):
    root = tmp_path / "image"
    for script, *flags in (("install.sh", "--appliance"), ("uninstall.sh", "--purge")):
        result = subprocess.run(["bash", str(REPOSITORY / "systemd" / script), "--root",
                                 str(root), *flags], capture_output=True, text=True,
                                timeout=120, check=False)  # fmt: skip
        assert result.returncode == 0, result.stderr
    left = sorted(str(p.relative_to(root)) for p in root.rglob("*") if not p.is_dir())
    assert left == ["boot/firmware/nsdevice.toml"]  # the card's file is the owner's


@pytest.mark.parametrize("script", ["hotspot", "90-nsdevice-hotspot"])
def test_the_shell_pieces_parse(script):
    assert subprocess.run(["sh", "-n", str(REPOSITORY / "systemd" / script)]).returncode == 0


def test_the_dispatcher_acts_only_for_the_boxs_own_network(tmp_path):
    """Run with another connection's name: it must do nothing (and exit 0)."""
    env = {"PATH": "/usr/bin:/bin", "CONNECTION_ID": "Home"}
    result = subprocess.run(["sh", str(REPOSITORY / "systemd/90-nsdevice-hotspot"), "wlan0", "up"],
                            env=env, capture_output=True, text=True, check=False)  # fmt: skip
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
@pytest.mark.parametrize(
    ("unit", "program"),
    [
        ("nsdevice-firstboot.service", "/opt/nsdevice/current/bin/python"),
        ("nsdevice-hotspot.service", "/usr/local/lib/nsdevice/hotspot"),
    ],
)
def test_the_appliance_units_pass_systemd_analyze_verify(tmp_path, unit, program):
    """As for nsdevice.service: verify wants ExecStart's program to exist, so only that
    path points at a stand-in; every other line is checked as shipped."""
    stand_in = tmp_path / "stand-in"
    stand_in.write_text("#!/bin/sh\nexit 0\n")
    stand_in.chmod(0o755)
    text = (REPOSITORY / "systemd" / unit).read_text(encoding="utf-8")
    assert text.count(f"ExecStart={program}") == 1
    copy = tmp_path / unit
    copy.write_text(text.replace(f"ExecStart={program}", f"ExecStart={stand_in}"))
    result = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True,
                            text=True, check=False)  # fmt: skip
    complaints = [line for line in (result.stdout + result.stderr).splitlines()
                  if unit in line]  # fmt: skip
    assert result.returncode == 0 and complaints == [], result.stdout + result.stderr
