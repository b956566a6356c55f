"""The box's networks as NetworkManager keyfiles: the player's Wi-Fi, and the box's own
access point for when there is none (issue 31), with its password drawn once.

Pure text in, text out: `firstboot` writes what these return, the tests read it back.
NetworkManager reads keyfiles with GLib's rules: a backslash, a leading space and the
line breaks are escaped, and in a network name also `;` (its list separator).
"""

from __future__ import annotations

import random
import tomllib
import uuid
from pathlib import Path

from nsdevice.appliance.settings import Wifi
from nsdevice.views import Hotspot

CLIENT_ID = "nsdevice-wifi"
HOTSPOT_ID = "nsdevice-hotspot"
HOTSPOT_ADDRESS = "10.42.0.1"  # NetworkManager's own for a shared network, made explicit
# No 0/o, 1/l/i: read off a 2-inch screen and typed on a phone without a mistake.
PASSWORD_LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"
PASSWORD_GROUPS = 3  # of 4 letters: 31**12, about 59 bits against a captured handshake
SUFFIX_LETTERS = 4  # the network's name ends in these, so two boxes in a room differ
_NAMESPACE = uuid.UUID("6b1f3f3e-52c1-4b8e-9a55-7d0c1c5c3a31")  # the connections' ids


def draw_password(chance: random.Random) -> str:
    """A WPA2 password as the box shows it: three groups of four, e.g. `k7dm-x4qp-9wre`."""
    groups = ("".join(chance.choice(PASSWORD_LETTERS) for _ in range(4)) for _ in range(3))
    return "-".join(groups)


def draw_suffix(chance: random.Random) -> str:
    return "".join(chance.choice(PASSWORD_LETTERS) for _ in range(SUFFIX_LETTERS))


def hotspot_name(hostname: str, suffix: str) -> str:
    """The box's own network's name: its host name and its drawn suffix, at most 32 bytes."""
    return f"{hostname[: 31 - len(suffix)]}-{suffix}"


def keyfile_value(text: str, *, network_name: bool = False) -> str:
    """`text` as a keyfile value NetworkManager reads back as it was."""
    escaped = []
    for index, character in enumerate(text):
        if character == "\\":
            escaped.append("\\\\")
        elif character == "\n":
            escaped.append("\\n")
        elif character == "\r":
            escaped.append("\\r")
        elif character == "\t":
            escaped.append("\\t")
        elif character == " " and index == 0:
            escaped.append("\\s")
        elif character == ";" and network_name:
            escaped.append("\\;")
        else:
            escaped.append(character)
    return "".join(escaped)


def _keyfile(sections: dict[str, dict[str, str]]) -> str:
    lines = ["# Written by nsdevice firstboot from nsdevice.toml; edit that file instead."]
    for name, values in sections.items():
        lines.append(f"\n[{name}]")
        lines.extend(f"{key}={value}" for key, value in values.items())
    return "\n".join(lines) + "\n"


def client_keyfile(wifi: Wifi) -> str:
    """The player's Wi-Fi: tried first (priority 10); after two failed tries NetworkManager
    gives up on it until the next start, and the box's own network takes over."""
    sections: dict[str, dict[str, str]] = {
        "connection": {
            "id": CLIENT_ID,
            "uuid": str(uuid.uuid5(_NAMESPACE, CLIENT_ID)),
            "type": "wifi",
            "autoconnect": "true",
            "autoconnect-priority": "10",
            "autoconnect-retries": "2",
        },
        "wifi": {"mode": "infrastructure", "ssid": keyfile_value(wifi.name, network_name=True)},
    }
    if wifi.password:
        sections["wifi-security"] = {"key-mgmt": "wpa-psk", "psk": keyfile_value(wifi.password)}
    sections["ipv4"] = {"method": "auto"}
    sections["ipv6"] = {"method": "auto", "addr-gen-mode": "stable-privacy"}
    return _keyfile(sections)


def hotspot_keyfile(name: str, password: str) -> str:
    """The box's own access point: WPA2 only (RSN with CCMP, no WPA1/TKIP), its address
    fixed so the page's QR code is known before a phone joins; phones get addresses from
    NetworkManager's shared mode (its dnsmasq). Never started by NetworkManager itself:
    `nsdevice-hotspot.service` brings it up once the player's Wi-Fi has had its chance."""
    return _keyfile(
        {
            "connection": {
                "id": HOTSPOT_ID,
                "uuid": str(uuid.uuid5(_NAMESPACE, HOTSPOT_ID)),
                "type": "wifi",
                "autoconnect": "false",
            },
            "wifi": {
                "mode": "ap",
                "ssid": keyfile_value(name, network_name=True),
                "band": "bg",  # 2.4 GHz: every phone, and the Zero 2 W's only band
            },
            "wifi-security": {
                "key-mgmt": "wpa-psk",
                "proto": "rsn",
                "pairwise": "ccmp",
                "group": "ccmp",
                "psk": keyfile_value(password),
            },
            "ipv4": {"method": "shared", "address1": f"{HOTSPOT_ADDRESS}/24"},
            "ipv6": {"method": "disabled"},
        }
    )


def hotspot_description(name: str, password: str) -> str:
    """What the box reads while its network is up (`read_hotspot`), as TOML."""
    return (
        "# The box's own Wi-Fi network (nsdevice firstboot); shown on the Phones screen.\n"
        f"name = {_toml_string(name)}\n"
        f"password = {_toml_string(password)}\n"
        f"address = {_toml_string(HOTSPOT_ADDRESS)}\n"
    )


def read_hotspot(path: Path, port: int) -> Hotspot | None:
    """The box's own network while it is up (the file exists only then), with the page's
    address on it; None when it is down or the file is not one of ours."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    name, password, address = data.get("name"), data.get("password"), data.get("address")
    if not all(isinstance(value, str) and value for value in (name, password, address)):
        return None
    assert isinstance(name, str) and isinstance(password, str)  # for the type checker
    return Hotspot(name, password, f"http://{address}:{port}/")


def _toml_string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in escaped) + '"'
