"""The wiring diagrams and connection tables in hardware/ are drawn from the profiles:
regenerating them must give exactly what is committed, and they follow a changed pin."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from nsdevice.hardware.profiles import list_profiles, load_profile

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wiring():
    spec = importlib.util.spec_from_file_location("wiring", ROOT / "hardware" / "wiring.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["wiring"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_the_committed_diagrams_and_tables_are_what_the_profiles_draw(wiring):
    files = wiring.generated()
    for name, text in files.items():
        if not name.startswith("README:"):
            assert (wiring.OUT / name).read_text() == text, (
                f"run python hardware/wiring.py ({name})"
            )
    blocks = {k.removeprefix("README:"): v for k, v in files.items() if k.startswith("README:")}
    readme = wiring.README.read_text()
    assert wiring.readme_with(blocks, readme) == readme, "run python hardware/wiring.py"
    for name in blocks:
        assert f"hardware/wiring.py: {name} -->" in readme  # every table has its place
    assert wiring.main(["--check"]) == 0


def test_every_pi_build_has_a_diagram_naming_every_pin_it_uses(wiring):
    files = wiring.generated()
    for name in list_profiles():
        profile = load_profile(name)
        if profile.input.kind == "keyboard" or name == "emulator":
            continue  # the desktop build and the emulated Pi: nothing to wire
        svg = files[f"{name}.svg"]
        for bcm in profile.pins():
            if profile.input.kind == "gpio":
                assert f">GPIO {bcm}" in svg
                assert f">{wiring.pi_pin(bcm)}</text>" in svg


def test_a_changed_pin_in_a_profile_changes_the_diagram(wiring, tmp_path, monkeypatch):
    original = load_profile("arcade-gpio").source.read_text()
    assert "next = 23" in original
    (tmp_path / "arcade-gpio.toml").write_text(original.replace("next = 23", "next = 26"))
    monkeypatch.setenv("NSDEVICE_PROFILES", str(tmp_path))
    moved = wiring.generated()
    assert "| 37 | GPIO 26 | NEXT button (green) |" in moved["README:arcade-gpio"]
    assert "GPIO 23" not in moved["README:arcade-gpio"]


def test_buttons_share_the_ground_pin_nearest_to_them_all(wiring):
    header = wiring.PI_HEADER
    assert [wiring.pi_pin(bcm) for bcm in (23, 24, 25)] == [16, 18, 22]
    assert wiring.shared_ground([16, 18, 22], header) == 20
    assert header[wiring.shared_ground([29, 31], header)] == "GND"


def test_the_pico_pins_come_from_the_firmware(wiring):
    buttons, led = wiring.firmware_pins()
    table = wiring.connection_table(wiring.pico_connections(), "Pico pin")
    for gp in (*buttons, led):
        assert f"| GP{gp} |" in table
