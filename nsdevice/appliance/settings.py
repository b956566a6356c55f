"""`nsdevice.toml`, the settings file on the card's FAT partition, read line by line.

The file is TOML, but a person edits it in Notepad on a laptop: one mistake must cost
that one line, never the whole file. So each `key = value` line is read on its own
(its value through `tomllib`, comments and escapes as TOML has them) and checked; a bad
line is a `Problem` naming its number, and every other line still counts.
"""

from __future__ import annotations

import base64
import binascii
import re
import tomllib
from collections.abc import Collection, Mapping
from dataclasses import field, replace
from pathlib import Path
from typing import Any

from nsdevice.locale import LANGUAGES
from nsdevice.rules.frozen import dataclass

FILE_NAME = "nsdevice.toml"
SIZE_LIMIT = 65_536  # bytes: a settings file is a page of text, not a disk image
DEFAULT_HARDWARE = "display-hat-mini"
_HOST = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")
_COUNTRY = re.compile(r"[A-Za-z]{2}")
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
# what OpenSSH accepts in authorized_keys that a person would paste
KEY_TYPES = (
    "ssh-ed25519",
    "ssh-rsa",
    "ecdsa-sha2-nistp256",
    "ecdsa-sha2-nistp384",
    "ecdsa-sha2-nistp521",
    "sk-ssh-ed25519@openssh.com",
    "sk-ecdsa-sha2-nistp256@openssh.com",
)


@dataclass(frozen=True, slots=True)
class Problem:
    """A line the box left out, and why (`line` 0: the file as a whole)."""

    line: int
    message: str

    def __str__(self) -> str:
        where = f"{FILE_NAME} line {self.line}" if self.line else FILE_NAME
        return f"{where}: {self.message}"


@dataclass(frozen=True, slots=True)
class Wifi:
    country: str = ""  # ISO 3166 two letters, upper case; "" leaves the radio's default
    name: str = ""  # the network to join; "" for none: the box opens its own
    password: str = ""  # "" for an open network


@dataclass(frozen=True, slots=True)
class BoxSettings:
    """What the file sets; what it leaves out or gets wrong stays at these defaults."""

    hardware: str = DEFAULT_HARDWARE
    language: str = ""  # "" leaves the box's own (the system's, or the one chosen)
    voice: bool | None = None  # None leaves the menu's choice
    hostname: str = "nextstation"
    wifi: Wifi = field(default_factory=Wifi)
    ssh_public_key: str = ""  # "" keeps SSH off
    problems: tuple[Problem, ...] = ()
    given: frozenset[str] = frozenset()  # the keys the file set ("wifi.name", …)


class _Refused(ValueError):
    """A value that does not fit its key."""


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise _Refused("needs text in quotes")
    return value


def _hardware(value: Any, known: Collection[str]) -> str:
    name = _text(value).strip()
    if known and name not in known:
        raise _Refused(f'no hardware profile "{name}" (known: {", ".join(sorted(known))})')
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", name):
        raise _Refused(f'"{name}" is not a profile name')
    return name


def _language(value: Any) -> str:
    language = _text(value).strip().lower()
    if language not in LANGUAGES:
        raise _Refused(f'"{language}" is not one of {", ".join(LANGUAGES)}')
    return language


def _voice(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _Refused("needs true or false (without quotes)")
    return value


def _hostname(value: Any) -> str:
    name = _text(value).strip()
    if not _HOST.fullmatch(name):
        raise _Refused(
            f'"{name}" is not a host name (letters, digits and "-", at most 63, '
            'not starting or ending with "-")'
        )
    return name.lower()


def _country(value: Any) -> str:
    country = _text(value).strip()
    if country and not _COUNTRY.fullmatch(country):
        raise _Refused(f'"{country}" is not a two-letter country code such as GB or DE')
    return country.upper()


def _network_name(value: Any) -> str:
    name = _text(value)
    if len(name.encode("utf-8")) > 32:
        raise _Refused("a Wi-Fi name is at most 32 bytes")
    if any(not c.isprintable() for c in name):
        raise _Refused("the Wi-Fi name has a character that cannot be typed")
    return name


def _password(value: Any) -> str:
    password = _text(value)
    if not password:
        return ""
    if re.fullmatch(r"[0-9A-Fa-f]{64}", password):
        return password  # a raw key, as some routers print it
    if not 8 <= len(password) <= 63 or not all(" " <= c <= "~" for c in password):
        raise _Refused("a WPA password is 8 to 63 plain characters (letters, digits, signs)")
    return password


def _public_key(value: Any) -> str:
    key = _text(value).strip()
    if not key:
        return ""
    parts = key.split()
    if len(parts) < 2 or parts[0] not in KEY_TYPES:
        raise _Refused(f"not an SSH public key (it starts with one of {', '.join(KEY_TYPES[:2])}…)")
    try:
        blob = base64.b64decode(parts[1], validate=True)
    except (binascii.Error, ValueError):
        raise _Refused("the SSH public key is damaged (its middle part is not base64)") from None
    # the key's own data starts with its type again: a pasted half fails here
    if blob[4 : 4 + len(parts[0])] != parts[0].encode("ascii"):
        raise _Refused("the SSH public key is damaged (its data does not match its type)")
    return " ".join(parts)


TABLES = ("", "wifi", "ssh")
KEYS: Mapping[str, Any] = {
    "hardware": _hardware,
    "language": _language,
    "voice": _voice,
    "hostname": _hostname,
    "wifi.country": _country,
    "wifi.name": _network_name,
    "wifi.password": _password,
    "ssh.public_key": _public_key,
}


def read_settings(text: str, known_hardware: Collection[str] = ()) -> BoxSettings:
    """The settings a file's text gives; each line that is not understood is a `Problem`
    and left out. `known_hardware`: the profile names there are (none: any name)."""
    problems: list[Problem] = []
    values: dict[str, Any] = {}
    lines_of: dict[str, int] = {}
    table = ""
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            header = _header(line)
            if header is None:
                problems.append(Problem(number, f"{_shown(line)}: not a section of this file"))
                table = "?"  # its keys are left out with it, each named
            else:
                table = header
            continue
        key, equals, rest = line.partition("=")
        key = key.strip()
        if not equals or not _KEY.fullmatch(key):
            problems.append(Problem(number, f'{_shown(line)}: expected key = "value"'))
            continue
        name = f"{table}.{key}" if table else key
        if name not in KEYS:
            where = f"[{table}]" if table and table != "?" else "this file"
            problems.append(Problem(number, f"{key}: not a setting of {where}"))
            continue
        if name in lines_of:
            problems.append(Problem(number, f"{key} is set again (first on line {lines_of[name]})"))
            continue
        try:
            value = tomllib.loads(f"value = {rest.strip()}")["value"]
        except tomllib.TOMLDecodeError:
            # a password is never echoed: the notice is on a screen the whole table sees
            shown = "this" if name == "wifi.password" else _shown(rest.strip())
            hint = "true or false" if name == "voice" else 'text goes in "quotes"'
            problems.append(Problem(number, f"{key}: {shown} is not a value ({hint})"))
            continue
        try:
            check = KEYS[name]
            values[name] = check(value, known_hardware) if check is _hardware else check(value)
        except _Refused as refused:
            problems.append(Problem(number, f"{key}: {refused}"))
            continue
        lines_of[name] = number
    wifi = Wifi(
        country=values.get("wifi.country", ""),
        name=values.get("wifi.name", ""),
        password=values.get("wifi.password", ""),
    )
    defaults = BoxSettings()
    return BoxSettings(
        hardware=values.get("hardware", defaults.hardware),
        language=values.get("language", ""),
        voice=values.get("voice"),
        hostname=values.get("hostname", defaults.hostname),
        wifi=wifi,
        ssh_public_key=values.get("ssh.public_key", ""),
        problems=tuple(problems),
        given=frozenset(values),
    )


def load_settings(path: Path, known_hardware: Collection[str] = ()) -> BoxSettings:
    """The file at `path`; a missing one is the defaults, an unreadable one the defaults
    with a problem saying so (the box starts either way)."""
    try:
        with path.open("rb") as file:
            data = file.read(SIZE_LIMIT + 1)
    except FileNotFoundError:
        return BoxSettings()
    except OSError as error:
        return BoxSettings(problems=(Problem(0, f"cannot be read: {error.strerror}"),))
    if len(data) > SIZE_LIMIT:
        return BoxSettings(problems=(Problem(0, f"over {SIZE_LIMIT:,} bytes, left out"),))
    try:
        text = data.decode("utf-8-sig")  # Notepad may start it with a byte-order mark
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        settings = read_settings(data.decode("utf-8-sig", errors="replace"), known_hardware)
        problem = Problem(line, "not UTF-8 text (save the file as UTF-8)")
        return replace(settings, problems=(problem, *settings.problems))
    return read_settings(text, known_hardware)


def _header(line: str) -> str | None:
    body, _, comment = line.partition("]")
    name = body.removeprefix("[").strip()
    if comment.strip() and not comment.strip().startswith("#"):
        return None
    return name if name in TABLES[1:] else None


def _shown(text: str, limit: int = 40) -> str:
    """A piece of the line for the notice: short, printable."""
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= limit else text[: limit - 1] + "…"
