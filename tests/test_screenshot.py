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
