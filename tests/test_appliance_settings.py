"""The card's settings file, nsdevice.toml (issue 31): every line read on its own, a bad
one named by its number and left out, the rest in force; and the box started with it
(`nsdevice run --settings`) still starts, naming the line on its screen."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from nsdevice.appliance.settings import (
    DEFAULT_HARDWARE,
    SIZE_LIMIT,
    BoxSettings,
    Problem,
    load_settings,
    read_settings,
)
from nsdevice.hardware.profiles import list_profiles

REPOSITORY = Path(__file__).resolve().parent.parent
TEMPLATE = REPOSITORY / "image" / "nsdevice.toml"
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "LANG": "C"}
KNOWN = tuple(list_profiles())
# a real public key's line (ssh-keygen -t ed25519), its data starting with its type
KEY = ("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJdPqVh2m6vQ3H6l1zv0Wn9l4k3Gq0m7YV2f7mJmD8Qh "
       "player@laptop")  # fmt: skip


def test_the_shipped_template_is_read_whole_with_no_line_left_out():
    settings = load_settings(TEMPLATE, KNOWN)
    assert settings.problems == ()
    assert settings.hardware == DEFAULT_HARDWARE and settings.hostname == "nextstation"
    assert settings.wifi.name == "" and settings.ssh_public_key == ""  # the box's own Wi-Fi, no SSH
    # every key the file documents is in it, as a line or as a commented example
    text = TEMPLATE.read_text(encoding="utf-8")
    for key in ("hardware", "language", "voice", "hostname", "country", "name", "password",
                "public_key"):  # fmt: skip
        assert f"\n{key} = " in text or f"\n# {key} = " in text, key


def test_every_setting_is_read():
    text = "\n".join([
        'hardware = "tv"', 'language = "DE"', "voice = true", 'hostname = "Table-2"',
        "[wifi]", 'country = "fr"', 'name = "Café; du \\"Coin\\""', 'password = "a:b,c;d\\\\e"',
        "[ssh]", f'public_key = "{KEY}"',
    ])  # fmt: skip
    settings = read_settings(text, KNOWN)
    assert settings.problems == ()
    assert (settings.hardware, settings.language, settings.voice) == ("tv", "de", True)
    assert settings.hostname == "table-2"
    assert (settings.wifi.country, settings.wifi.name) == ("FR", 'Café; du "Coin"')
    assert settings.wifi.password == "a:b,c;d\\e"
    assert settings.ssh_public_key == KEY


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ('hardware = "toaster"', 'no hardware profile "toaster"'),
        ('language = "nl"', '"nl" is not one of en, es, de, it, fr'),
        ("voice = yes", "voice: yes is not a value (true or false)"),
        ('voice = "true"', "needs true or false"),
        ('hostname = "-box"', "is not a host name"),
        ('hostname = "my box"', "is not a host name"),
        ("hostname", 'expected key = "value"'),
        ("colour = 3", "colour: not a setting of this file"),
        ('[wifi]\ncountry = "Britain"', "not a two-letter country code"),
        ('[wifi]\nname = "' + "x" * 33 + '"', "at most 32 bytes"),
        ('[wifi]\npassword = "short"', "8 to 63 plain characters"),
        ("[wifi]\npassword = hunter22", "password: this is not a value"),
        ('[ssh]\npublic_key = "ssh-ed25519 notbase64!"', "not base64"),
        ('[ssh]\npublic_key = "hello"', "not an SSH public key"),
        ('[ssh]\npublic_key = "ssh-rsa AAAAC3NzaC1lZDI1NTE5AAAAIJdP"', "does not match its type"),
        ("[network]", "[network]: not a section of this file"),
        ('hostname = "one"\nhostname = "two"', "hostname is set again (first on line 2)"),
    ],
)
def test_a_bad_line_is_named_by_its_number_and_left_out(line, named):
    settings = read_settings(f"# the owner's note\n{line}\n", KNOWN)
    number = line.count("\n") + 2  # the bad line is the last one
    assert [p.line for p in settings.problems] == [number]
    assert named in settings.problems[0].message
    assert str(settings.problems[0]).startswith(f"nsdevice.toml line {number}: ")
    assert settings.given <= {"wifi.country", "hostname"} and "hardware" not in settings.given


def test_the_lines_around_a_bad_one_still_count():
    text = ('language = "it"\nvoice = maybe\nhostname = "tavolo"\n'
            '[wifi]\nname = 7\npassword = "12345678"\n')  # fmt: skip
    settings = read_settings(text, KNOWN)
    assert [p.line for p in settings.problems] == [2, 5]
    assert (settings.language, settings.voice, settings.hostname) == ("it", None, "tavolo")
    assert (settings.wifi.name, settings.wifi.password) == ("", "12345678")


def test_a_password_is_never_echoed_in_a_notice():
    settings = read_settings("[wifi]\npassword = hunter2secret\n")
    assert "hunter2secret" not in str(settings.problems)


def test_keys_under_a_section_that_is_not_one_are_each_named():
    settings = read_settings('[wlan]\nname = "home"\n[wifi]\nname = "home"\n')
    assert [p.line for p in settings.problems] == [1, 2]
    assert settings.wifi.name == "home"  # the key under the right section counts


def test_a_missing_file_is_the_defaults_and_says_nothing(tmp_path):
    assert load_settings(tmp_path / "nsdevice.toml") == BoxSettings()


def test_a_file_that_is_not_utf8_names_the_first_bad_line(tmp_path):
    path = tmp_path / "nsdevice.toml"
    path.write_bytes(b'language = "fr"\nhostname = "caf\xe9"\n')  # Latin-1, as an old editor saves
    settings = load_settings(path, KNOWN)
    assert settings.problems[0] == Problem(2, "not UTF-8 text (save the file as UTF-8)")
    assert settings.language == "fr"


def test_a_byte_order_mark_from_notepad_is_no_problem(tmp_path):
    path = tmp_path / "nsdevice.toml"
    path.write_bytes('\ufefflanguage = "es"\n'.encode())
    settings = load_settings(path)
    assert (settings.problems, settings.language) == ((), "es")


def test_a_huge_file_is_left_out_whole(tmp_path):
    path = tmp_path / "nsdevice.toml"
    path.write_bytes(b"#" * (SIZE_LIMIT + 1))
    settings = load_settings(path)
    assert settings.problems[0].line == 0 and settings.hardware == DEFAULT_HARDWARE


# --- the box started with the file ----------------------------------------------------------


def run_box(
    state: Path, settings: Path, keys: str
) -> tuple[list[dict], subprocess.CompletedProcess]:
    command = [sys.executable, "-m", "nsdevice", "run", "--input", "script", "--display", "json",
               "--no-web", "--state-dir", str(state), "--keys", keys,
               "--settings", str(settings)]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, env=ENV, timeout=60)
    screens = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    return screens, result


def test_the_box_starts_with_a_bad_line_names_it_on_screen_and_keeps_the_rest(tmp_path):
    """Done when (issue 31): nsdevice.toml with a bad line → the box starts and names it."""
    settings = tmp_path / "nsdevice.toml"
    settings.write_text('language = "de"\nvoice = yes\nhostname = "tisch"\n', encoding="utf-8")
    screens, result = run_box(tmp_path / "state", settings, "next")
    assert result.returncode == 0, result.stderr
    notice = screens[0]
    assert notice["screen"] == "notice" and notice["notice"] == "settings_line"
    assert notice["detail"].startswith("nsdevice.toml line 2: voice: yes")
    assert notice["language"] == "de"  # line 1 counted
    assert "nsdevice.toml line 2" in result.stderr  # and the journal says it too
    # any press dismisses it, and the box is on its first screen, in German
    assert screens[1]["screen"] == "summary" and screens[1]["language"] == "de"


def test_the_box_takes_language_and_voice_from_a_good_file_without_a_notice(tmp_path):
    settings = tmp_path / "nsdevice.toml"
    settings.write_text('language = "fr"\nvoice = true\n', encoding="utf-8")
    screens, result = run_box(tmp_path / "state", settings, "next,menu")
    assert result.returncode == 0, result.stderr
    assert [s["screen"] for s in screens] == ["summary", "round_start", "menu"]
    assert screens[0]["language"] == "fr"
    assert {row["key"]: row["value"] for row in screens[2]["rows"]}["voice"] == "on"
