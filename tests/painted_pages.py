"""Every page of a view as one build paints it: the painter's record of each page, for the
tests that read back what a build drew (card words, start symbols)."""

from __future__ import annotations

from collections.abc import Iterator

import pygame

from nsdevice import views
from nsdevice.displays.drawing import Drawing
from nsdevice.displays.painter import Painter
from nsdevice.hardware.profiles import load_profile
from nsdevice.texts import Words


def painted_pages(view: views.View, build: str, said: Words) -> Iterator[Drawing]:
    """Each page of `view` on the build `build`, in the words `said`, as painted."""
    profile = load_profile(build)
    panel = profile.panel()
    painter = Painter(diagonal_inches=panel.diagonal_inches)
    surface = pygame.Surface(profile.display.size())
    placed = panel.placed(view)
    for page in range(len(painter.page_seconds(placed, surface)) or 1):
        yield painter.paint(placed, surface, said, page)
