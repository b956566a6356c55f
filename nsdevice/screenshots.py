"""`nsdevice screenshot`: every screen as a PNG, for docs/screens and for people to look at.

Draws off screen (no window, no display driver needed): the gallery's examples for
every city in English, and for Tokyo in each of the other languages.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from nsdevice.gallery import example_views  # no pygame: views only
from nsdevice.locale import LANGUAGES
from nsdevice.rules.cities import CityName
from nsdevice.views import DEFAULT_PANEL, Panel

SOURCE_LANGUAGE = "en"
TRANSLATED_CITY = "tokyo"  # one city is enough to check the other languages' wording


def render_all(
    out_dir: str | Path,
    size: tuple[int, int] = (480, 320),
    panel: Panel | None = None,
    screens: Callable[[str], bool] | None = None,
) -> list[Path]:
    """Writes the PNGs and returns their paths. `panel`: a build's button places and
    screen diagonal (`--hardware`), so the labels sit beside its buttons. `screens`: only
    the example screens whose name it accepts (tests that read a few kinds back).

    English goes to `out_dir/<city>-<screen>.png`, the other languages to
    `out_dir/<language>/tokyo-<screen>.png`; a screen drawn in pages (the turn on a
    2-inch panel) adds `<screen>-page2.png`, … for its further pages.
    """
    # late, and nsdevice.displays first: importing it quietens pygame's greeting
    from nsdevice.displays.painter import Painter  # isort: skip

    import pygame  # isort: skip
    from nsdevice.texts import Words

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    placed = panel or DEFAULT_PANEL
    painter = Painter(diagonal_inches=placed.diagonal_inches)
    surface = pygame.Surface(size)
    jobs: list[tuple[str, str, Path]] = [(c.value, SOURCE_LANGUAGE, out) for c in CityName]
    jobs += [(TRANSLATED_CITY, lang, out / lang) for lang in LANGUAGES if lang != SOURCE_LANGUAGE]
    written: list[Path] = []
    for city, language, folder in jobs:
        folder.mkdir(parents=True, exist_ok=True)
        words = Words(language)
        for name, view in example_views(city, language, size):
            if screens is not None and not screens(name):
                continue
            shown = placed.placed(view)
            # a view drawn in pages (the 2-inch panel's turn): each page, the first plain
            pages = len(painter.page_seconds(shown, surface)) or 1
            for page in range(pages):
                painter.paint(shown, surface, words, page)
                suffix = f"-page{page + 1}" if page else ""
                path = folder / f"{city}-{name}{suffix}.png"
                with open(path, "wb") as file:  # bytes the OS takes, even if not UTF-8
                    pygame.image.save(surface, file, "png")
                written.append(path)
    return written
