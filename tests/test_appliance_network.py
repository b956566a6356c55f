"""The box's own Wi-Fi (issue 31): the access point's NetworkManager keyfile, the player's
network's, the drawn password, and the `WIFI:` QR code phones join it by, read back by a
real QR decoder (zbar's zbarimg, Debian's zbar-tools; .ci/run installs it when missing)
from the code alone and from the Phones screen as the 2-inch panel and a TV draw it."""

from __future__ import annotations

import configparser
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from nsdevice.appliance.network import (
    HOTSPOT_ADDRESS,
    PASSWORD_LETTERS,
    client_keyfile,
    draw_password,
    hotspot_description,
    hotspot_keyfile,
    hotspot_name,
    keyfile_value,
    read_hotspot,
)
from nsdevice.appliance.settings import Wifi
from nsdevice.views import Hotspot, wifi_escape

ZBARIMG = shutil.which("zbarimg")
needs_zbar = pytest.mark.skipif(
    ZBARIMG is None, reason="zbarimg is not installed (apt-get install zbar-tools; .ci/run does)"
)


def decoded(png: Path) -> str:
    """What a real QR decoder reads in the picture (one code expected)."""
    assert ZBARIMG is not None
    done = subprocess.run([ZBARIMG, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable",
                           str(png)], capture_output=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.decode("utf-8").removesuffix("\n")


def parse_wifi_qr(payload: str) -> dict[str, str]:
    """The WIFI: scheme read as a phone reads it: fields split at unescaped `;`, each
    `K:value` split at its first `:`, and a backslash taking the next character as it is."""
    assert payload.startswith("WIFI:") and payload.endswith(";;")
    fields: dict[str, str] = {}
    key, value, escaped, in_key = "", "", False, True
    for character in payload[len("WIFI:") : -1]:
        if escaped:
            value += character
            escaped = False
        elif character == "\\":
            escaped = True
        elif in_key and character == ":":
            in_key = False
        elif character == ";" and not in_key:
            fields[key] = value
            key, value, in_key = "", "", True
        elif in_key:
            key += character
        else:
            value += character
    return fields


SPECIAL = [
    ("plain", "k7dm-x4qp-9wre"),
    ('Caf;e, "Coin": A\\B', 'p;a,s:s\\w"rd'),
    ("trailing\\", "semi;;colons"),
    ("Café Müller", "ümlaut-pass"),
]


@pytest.mark.parametrize(("name", "password"), SPECIAL)
def test_the_wifi_payload_reads_back_as_the_name_and_password(name, password):
    payload = Hotspot(name, password).qr_payload()
    assert payload == f"WIFI:T:WPA;S:{wifi_escape(name)};P:{wifi_escape(password)};;"
    assert parse_wifi_qr(payload) == {"T": "WPA", "S": name, "P": password}


def test_escaping_is_one_backslash_before_each_special_and_nothing_else():
    assert wifi_escape('a;b,c:d\\e"f g') == 'a\\;b\\,c\\:d\\\\e\\"f g'


@needs_zbar
@pytest.mark.parametrize(("name", "password"), SPECIAL)
def test_a_real_decoder_reads_the_network_back_from_the_code(tmp_path, name, password):
    """segno makes the code as the Phones screen draws it; zbarimg reads it."""
    import segno

    payload = Hotspot(name, password).qr_payload()
    png = tmp_path / "wifi.png"
    segno.make(payload, error="m", boost_error=False).save(png, scale=4)
    read = decoded(png)
    assert read == payload
    assert parse_wifi_qr(read) == {"T": "WPA", "S": name, "P": password}


@needs_zbar
@pytest.mark.parametrize("hardware", ["display-hat-mini", "tv"])
def test_the_phones_screen_shows_the_wifi_code_first_readable_on_each_build(tmp_path, hardware):
    """Rendered as the build's panel draws it (the 2-inch HAT's pages, a TV's one page):
    every page of the Wi-Fi step carries the network's code; the page step the address."""
    from nsdevice.hardware.profiles import load_profile
    from nsdevice.screenshots import render_all
    from nsdevice.session.screens.phones import HOTSPOT

    profile = load_profile(hardware)
    files = render_all(tmp_path, size=profile.display.size(), panel=profile.panel(),
                       screens=lambda name: name.startswith("phones-"))  # fmt: skip
    wifi = sorted(f for f in files if f.name.startswith("tokyo-phones-wifi"))
    assert wifi and all(decoded(f) == HOTSPOT.qr_payload() for f in wifi)
    page = next(f for f in files if f.name == "tokyo-phones-hotspot.png")
    assert decoded(page) == HOTSPOT.address


def test_the_password_is_drawn_not_fixed_and_easy_to_read():
    first, second = draw_password(random.Random(1)), draw_password(random.Random(2))
    assert first != second
    for password in (first, second, draw_password(random.SystemRandom())):
        groups = password.split("-")
        assert [len(g) for g in groups] == [4, 4, 4]
        assert set("".join(groups)) <= set(PASSWORD_LETTERS)
        assert not set("".join(groups)) & set("01ilo")  # nothing to misread
        assert 8 <= len(password) <= 63  # what WPA2 accepts


def keyfile(text: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys keep their case
    parser.read_string(text)
    return parser


def test_the_access_point_is_wpa2_only_with_the_drawn_password_and_a_fixed_address():
    parsed = keyfile(hotspot_keyfile("nextstation-7k3q", "k7dm-x4qp-9wre"))
    assert parsed["connection"]["type"] == "wifi"
    assert parsed["connection"]["autoconnect"] == "false"  # nsdevice-hotspot.service decides
    assert dict(parsed["wifi"]) == {"mode": "ap", "ssid": "nextstation-7k3q", "band": "bg"}
    security = parsed["wifi-security"]
    assert security["key-mgmt"] == "wpa-psk" and security["psk"] == "k7dm-x4qp-9wre"
    # WPA2 (RSN) with CCMP only: no WPA1, no TKIP, no WEP, and never an open network
    assert (security["proto"], security["pairwise"], security["group"]) == ("rsn", "ccmp", "ccmp")
    assert parsed["ipv4"]["method"] == "shared"
    assert parsed["ipv4"]["address1"] == f"{HOTSPOT_ADDRESS}/24"


def test_the_players_network_is_tried_first_and_given_up_after_two_tries():
    parsed = keyfile(client_keyfile(Wifi("GB", "Home Net", "secret-password")))
    assert parsed["wifi"]["ssid"] == "Home Net"
    assert parsed["wifi-security"]["psk"] == "secret-password"
    assert int(parsed["connection"]["autoconnect-priority"]) > 0
    assert parsed["connection"]["autoconnect-retries"] == "2"
    open_network = keyfile(client_keyfile(Wifi("", "Cafe", "")))
    assert "wifi-security" not in open_network


def test_keyfile_values_escape_what_glib_reads_specially():
    assert keyfile_value(" lead\\back") == "\\slead\\\\back"
    assert keyfile_value("a;b", network_name=True) == "a\\;b"
    assert keyfile_value("a;b") == "a;b"  # a password is read whole: no list separator


def test_the_network_name_stays_within_32_bytes():
    assert hotspot_name("nextstation", "7k3q") == "nextstation-7k3q"
    assert len(hotspot_name("a" * 63, "7k3q").encode()) == 32


def test_the_box_reads_its_network_only_while_the_file_is_there(tmp_path):
    path = tmp_path / "hotspot.toml"
    assert read_hotspot(path, 8414) is None  # down
    path.write_text(hotspot_description('na"me\\', "k7dm-x4qp-9wre"), encoding="utf-8")
    assert read_hotspot(path, 8414) == Hotspot(
        'na"me\\', "k7dm-x4qp-9wre", f"http://{HOTSPOT_ADDRESS}:8414/"
    )
    path.write_text("name = 3\n", encoding="utf-8")
    assert read_hotspot(path, 8414) is None  # not ours: nothing shown
