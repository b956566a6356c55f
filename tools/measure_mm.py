#!/usr/bin/env python3
"""Measure, in millimetres on the glass, what the turn, round-start, summary, score, history
and room screens draw for each hardware profile and language: the card symbol's box, the underground
count, the paired-effect / no-effect line, the smallest text (cap heights), the smallest
words but the buttons' labels, and how many pages the screen takes.

Usage: python tools/measure_mm.py   (a table on stdout; the targets on every profile:
symbol >= 15 mm, kind word and count >= 4 mm, effect line >= 3 mm; tests/test_millimetres.py
asserts them). A screen drawn in pages (the turn on a 2-inch panel) is measured over all
its pages: the largest symbol, the smallest text of each role. (On a 2-inch panel the
summary, a round's start, the phones' page, the score entry and sheet, the history and the
room's screens are pages too.)

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
from nsdevice.hardware.profiles import list_profiles, load_profile
from nsdevice.locale import LANGUAGES
from nsdevice.texts import Words

SCREENS = ("turn", "turn-paired-effect", "turn-paired-no-effect", "round-start-2-players",
           "summary", "summary-all-modules", "phones", "score-entry-solo", "score-sheet-line",
           "history", "room-summary", "room-tables", "room-results")  # fmt: skip


def _cap_mm(fonts: FontBook, line_height: int, per_mm: float) -> float:
    """Cap height in mm of a text whose line is `line_height` pixels tall."""
    return fonts.cap(_px(fonts, line_height)) / per_mm


def _role_mm(drawings: list[Drawing], role: str, fonts: FontBook, per_mm: float) -> str:
    placed = [p for drawing in drawings for p in drawing.texts if p.role == role]
    if not placed:
        return "  -  "
    return f"{min(_cap_mm(fonts, p.rect[3], per_mm) for p in placed):5.1f}"


def main() -> int:
    print("profile            lang screen                  symbol  kind count effect smallest"
          " words pages (mm)")
    for path in sorted(list_profiles()):
        profile = load_profile(path)
        panel = profile.panel()
        surface = pygame.Surface(profile.display.size())
        painter = Painter(diagonal_inches=panel.diagonal_inches)
        per_mm = dots_per_mm(surface, panel.diagonal_inches)
        fonts = painter.fonts
        for language in LANGUAGES:
            views = dict(example_views("tokyo", language))
            for name in SCREENS:
                view = panel.placed(views[name])
                pages = len(painter.page_seconds(view, surface)) or 1
                drawings = [
                    painter.paint(view, surface, Words(language), page) for page in range(pages)
                ]
                texts = [p for drawing in drawings for p in drawing.texts]
                roles = {p.role for p in texts}
                symbol = max(
                    (f.rect[3] for d in drawings for f in d.figures_of("card-symbol")), default=0
                )
                heights = [p.rect[3] for p in texts if p.text.strip()]
                smallest = _cap_mm(fonts, min(heights), per_mm) if heights else 0.0
                said = [p.rect[3] for p in texts if p.text.strip() and p.role != "legend"]
                words = _cap_mm(fonts, min(said), per_mm) if said else 0.0
                effect = "paired" if "paired" in roles else "pairing"
                print(
                    f"{path:18} {language:4} {name:23} {symbol / per_mm:6.1f} "
                    f"{_role_mm(drawings, 'card-label', fonts, per_mm)} "
                    f"{_role_mm(drawings, 'underground', fonts, per_mm)} "
                    f"{_role_mm(drawings, effect, fonts, per_mm):>6} {smallest:6.1f}"
                    f" {words:5.1f} {pages:5d}"
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
