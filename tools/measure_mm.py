#!/usr/bin/env python3
"""Measure, in millimetres on the glass, what the turn, round-start and summary screens
draw for each hardware profile and language: the card symbol's box, the underground
count, the paired-effect / no-effect line and the smallest text (cap heights).

Usage: python tools/measure_mm.py   (a table on stdout; the issue's targets for the
2-inch panel: symbol >= 15 mm, count >= 4 mm, effect line >= 3 mm)

Cap height is measured from the font (the top of an "H" above its baseline) at the size
each text was drawn, so it is what a player sees, not the line's height.
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from nsdevice.displays.drawing import Drawing
from nsdevice.displays.painter import Painter, dots_per_mm
from nsdevice.displays.text_fit import FontBook
from nsdevice.gallery import example_views
from nsdevice.hardware import SHIPPED_PROFILES, load_profile
from nsdevice.locale import LANGUAGES
from nsdevice.texts import Words

SCREENS = ("turn", "turn-paired-effect", "turn-paired-no-effect", "round-start-2-players",
           "summary")  # fmt: skip


def _cap_mm(fonts: FontBook, line_height: int, per_mm: float) -> float:
    """Cap height in mm of a text whose line is `line_height` pixels tall."""
    return fonts.font(_px(fonts, line_height)).metrics("H")[0][3] / per_mm


def _role_mm(drawing: Drawing, role: str, fonts: FontBook, per_mm: float) -> str:
    placed = [p for p in drawing.texts if p.role == role]
    if not placed:
        return "  -  "
    return f"{min(_cap_mm(fonts, p.rect[3], per_mm) for p in placed):5.1f}"


def main() -> int:
    print("profile            lang screen                  symbol count effect smallest (mm)")
    for path in sorted(SHIPPED_PROFILES.glob("*.toml")):
        profile = load_profile(path.stem)
        panel = profile.panel()
        surface = pygame.Surface(profile.display.size())
        painter = Painter(diagonal_inches=panel.diagonal_inches)
        per_mm = dots_per_mm(surface, panel.diagonal_inches)
        fonts = painter.fonts
        for language in LANGUAGES:
            views = dict(example_views("tokyo", language))
            for name in SCREENS:
                drawing = painter.paint(panel.placed(views[name]), surface, Words(language))
                roles = {p.role for p in drawing.texts}
                symbol = max((f.rect[3] for f in drawing.figures_of("card-symbol")), default=0)
                heights = [p.rect[3] for p in drawing.texts if p.text.strip()]
                smallest = _cap_mm(fonts, min(heights), per_mm) if heights else 0.0
                effect = "paired" if "paired" in roles else "pairing"
                print(
                    f"{path.stem:18} {language:4} {name:23} {symbol / per_mm:6.1f} "
                    f"{_role_mm(drawing, 'underground', fonts, per_mm)} "
                    f"{_role_mm(drawing, effect, fonts, per_mm):>6} {smallest:6.1f}"
                )
    return 0


def _px(fonts: FontBook, line_height: int) -> int:
    """The font size whose line is `line_height` pixels tall (texts record their lines)."""
    px = max(1, line_height)
    while px > 1 and fonts.height(px) > line_height:
        px -= 1
    return px


if __name__ == "__main__":
    sys.exit(main())
