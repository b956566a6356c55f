"""`render_all` writes a PNG of every example screen, at the size asked."""

from __future__ import annotations

import pygame

from nsdevice.gallery import example_views
from nsdevice.locale import LANGUAGES
from nsdevice.screenshots import render_all


def test_render_all_writes_loadable_pngs_of_the_right_size(tmp_path):
    files = render_all(tmp_path, (320, 240))
    english = sum(len(example_views(city)) for city in ("tokyo", "paris", "london"))
    translated = (len(LANGUAGES) - 1) * len(example_views("tokyo"))
    assert len(files) == len(set(files)) == english + translated
    assert (tmp_path / "tokyo-turn.png") in files
    assert (tmp_path / "de" / "tokyo-turn.png") in files
    for path in [*files[:: max(1, len(files) // 25)], files[-1]]:  # a spread, to stay quick
        assert path.suffix == ".png"
        assert pygame.image.load(str(path)).get_size() == (320, 240)


def test_screenshot_for_a_build_is_at_its_size_with_its_labels_at_its_buttons(tmp_path):
    from nsdevice.cli import main
    from nsdevice.displays.theme import DEFAULT_THEME

    assert main(["screenshot", "--hardware", "display-hat-mini", "--out", str(tmp_path)]) == 0
    picture = pygame.image.load(str(tmp_path / "tokyo-turn.png"))
    assert picture.get_size() == (320, 240)
    cap = DEFAULT_THEME.palette.key_cap

    def caps(left: int, top: int) -> int:  # key-cap pixels in one quarter of the screen
        return sum(
            1
            for x in range(left, left + 80, 2)
            for y in range(top, top + 120, 2)
            if tuple(picture.get_at((x, y)))[:3] == cap
        )

    # NEXT (X) top right, BACK (A) top left, MENU (B) bottom left; Y, the spare, unlabelled
    assert caps(240, 0) > 20 and caps(0, 0) > 20 and caps(0, 120) > 20
    assert caps(240, 120) == 0


def test_screenshot_with_an_unknown_build_is_one_line_and_exit_2(tmp_path, capsys):
    from nsdevice.cli import main

    assert main(["screenshot", "--hardware", "no-such-build", "--out", str(tmp_path)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_screenshot_prints_one_line_and_no_pygame_greeting(tmp_path):
    import os
    import subprocess
    import sys

    environment = {k: v for k, v in os.environ.items() if k != "PYGAME_HIDE_SUPPORT_PROMPT"}
    command = [sys.executable, "-m", "nsdevice", "screenshot", "--out", str(tmp_path)]
    done = subprocess.run(command, env=environment, capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == [done.stdout.strip()]
    assert "screens written" in done.stdout and "pygame" not in done.stdout
