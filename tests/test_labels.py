"""Each button's label is drawn beside its own button, for every hardware profile: the
JSON of a scripted game says where (edge, order), and the pixels of a painted screen show
the key caps there and nowhere else (issue 10, item 1)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from nsdevice import views
from nsdevice.displays.painter import Painter
from nsdevice.displays.text_display import TextDisplay
from nsdevice.displays.theme import DEFAULT_THEME
from nsdevice.gallery import example_views
from nsdevice.hardware.profiles import SHIPPED_PROFILES, load_profile
from nsdevice.texts import Words
from nsdevice.views import DEFAULT_PANEL

PROFILES = sorted(p.stem for p in SHIPPED_PROFILES.glob("*.toml"))
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "LANG": "C"}
# a whole game of two: the setup and back, every turn, four scores, the result, the menu
WHOLE_GAME = ["menu", "menu", *["next"] * 62, *["menu"] * 12, "menu"]


def test_every_profile_places_each_button_once():
    assert PROFILES, "no hardware profiles found"
    for name in PROFILES:
        places = dict(load_profile(name).panel().places)
        assert {"next", "back", "menu"} <= set(places), name
        assert len(set(places.values())) == len(places), name


@pytest.mark.parametrize("name", PROFILES)
def test_json_hints_say_the_button_and_where_its_label_is(tmp_path: Path, name: str):
    command = [sys.executable, "-m", "nsdevice", "run", "--hardware", name, "--display", "json",
               "--input", "script", "--keys", ",".join(WHOLE_GAME),
               "--state-dir", str(tmp_path)]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, env=ENV, timeout=60)
    assert result.returncode == 0, result.stderr
    screens = [json.loads(line) for line in result.stdout.splitlines()]
    panel = load_profile(name).panel()
    seen = {s["screen"] for s in screens if s["hints"]}
    assert {"summary", "setup", "round_start", "turn", "score_entry", "result", "menu"} <= seen
    for screen in screens:
        for hint in screen["hints"]:
            place = panel.place(hint["button"])
            assert (hint["edge"], hint["order"]) == (place.edge, place.order), screen["screen"]
            assert hint["slots"] == panel.slots(place.edge)


def _slot_box(place: views.Place, slots: int, size: tuple[int, int]) -> pygame.Rect:
    """The part of the screen nearest to a button place: its share of its edge."""
    width, height = size
    if place.edge in ("left", "right"):
        cell = height / slots
        left = 0 if place.edge == "left" else width * 3 // 4
        return pygame.Rect(left, round((place.order - 1) * cell), width // 4, round(cell))
    cell = width / slots
    top = height * 3 // 4 if place.edge == "bottom" else 0
    return pygame.Rect(round((place.order - 1) * cell), top, round(cell), height // 4)


def _key_cap_pixels(surface: pygame.Surface, box: pygame.Rect) -> int:
    cap = DEFAULT_THEME.palette.key_cap
    return sum(
        1
        for x in range(box.left, box.right, 2)
        for y in range(box.top, box.bottom, 2)
        if tuple(surface.get_at((x, y)))[:3] == cap
    )


@pytest.mark.parametrize("name", PROFILES)
@pytest.mark.parametrize("screen", ["turn", "menu", "summary"])
def test_pixels_show_each_label_at_its_button(name: str, screen: str):
    profile = load_profile(name)
    panel = profile.panel()
    size = profile.display.size()
    view = panel.placed(dict(example_views("tokyo"))[screen])
    surface = pygame.Surface(size)
    drawing = Painter().paint(view, surface, Words("en"))
    words = Words("en")
    for hint in view.hints:
        place = panel.place(hint.button)
        home = _slot_box(place, panel.slots(place.edge), size)
        assert _key_cap_pixels(surface, home) > 20, (hint.button, place)
        # the button's name is drawn inside its own place, not another's
        (cap,) = [t for t in drawing.texts if t.role == "legend" and t.text == words.button(
            hint.button)]  # fmt: skip
        assert home.collidepoint(pygame.Rect(cap.rect).center), (hint.button, cap.rect, home)
    for button, place in panel.places:  # a place with no hint (the spare) shows no key cap
        if all(h.button != button for h in view.hints):
            assert _key_cap_pixels(surface, _slot_box(place, panel.slots(place.edge), size)) == 0


def test_a_narrow_notes_column_shows_the_underground_count_alone_and_big_C4():
    """With labels down both sides of the 2-inch panel the notes column is narrow: the
    count keeps its size as "k/5" rather than shrinking the word round it."""
    profile = load_profile("display-hat-mini")
    view = profile.panel().placed(dict(example_views("tokyo", "de"))["turn"])
    drawing = Painter().paint(view, pygame.Surface(profile.display.size()), Words("de"))
    (count,) = [t for t in drawing.texts if t.role == "underground"]
    assert count.text == f"{view.underground_seen}/{view.underground_total}"
    wide = Painter().paint(dict(example_views("tokyo", "de"))["turn"], pygame.Surface((800, 480)),
                           Words("de"))  # fmt: skip
    (full,) = [t for t in wide.texts if t.role == "underground"]
    assert full.text.startswith("Untergrund")


def test_window_and_terminal_labels_name_their_keys_and_every_key_can_be_drawn():
    from nsdevice.displays.pygame_display import KEY_LABELS as WINDOW_KEYS
    from nsdevice.displays.text_fit import FontBook
    from nsdevice.inputs.keyboard import KEY_LABELS as TERMINAL_KEYS
    from nsdevice.inputs.keyboard import TerminalKeys
    from nsdevice.options import RunOptions
    from nsdevice.runner import opening
    from nsdevice.runner.planning import Plan, plan

    def chosen(hardware: str | None, display: str) -> Plan:
        return plan(RunOptions(hardware=hardware, display=display))

    assert opening.panel(chosen("desktop", "window"), []).keys == WINDOW_KEYS
    terminal = TerminalKeys.__new__(TerminalKeys)  # only its type matters here
    assert opening.panel(chosen(None, "text"), [terminal]).keys == TERMINAL_KEYS
    from nsdevice.inputs.device import InputDevice

    buttons = InputDevice()  # a device whose buttons are buttons (GPIO, the serial board)
    assert opening.panel(chosen("display-hat-mini", "st7789"), [buttons]).keys == ()
    fonts = FontBook()
    assert all(not fonts.missing_glyphs(key) for _, key in (*WINDOW_KEYS, *TERMINAL_KEYS))
    text = TextDisplay().render(DEFAULT_PANEL.with_keys(TERMINAL_KEYS).placed(
        dict(example_views("tokyo"))["turn"]))  # fmt: skip
    assert "[n] Reveal" in text and "[b] Undo" in text and "[m] Menu" in text
