#!/usr/bin/env python3
"""Draw each hardware build's screen with its buttons round it, for the READMEs.

Usage: python tools/build_pictures.py [OUT_DIR]   (default docs/builds)

For every profile: the turn screen as `nsdevice screenshot --hardware NAME` paints it, at
the panel's own pixels, inside a dark bezel with a round button at each place the profile
gives (`[places]`), named. What a player sees: each label right beside its button.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from nsdevice.displays.painter import Painter
from nsdevice.gallery import example_views
from nsdevice.hardware.profiles import SHIPPED_PROFILES, load_profile
from nsdevice.texts import Words

BEZEL = (40, 42, 48)
BUTTON = {"next": (72, 186, 92), "back": (226, 228, 234), "menu": (64, 136, 240),
          "spare": (110, 112, 120)}  # fmt: skip


def picture(name: str, screen: str = "turn") -> pygame.Surface:
    profile = load_profile(name)
    panel = profile.panel()
    width, height = profile.display.size()
    shot = pygame.Surface((width, height))
    view = panel.placed(dict(example_views("tokyo"))[screen])
    Painter(diagonal_inches=panel.diagonal_inches).paint(view, shot, Words("en"))
    room = max(60, height // 4)  # bezel round the screen, where the buttons sit
    out = pygame.Surface((width + 2 * room, height + 2 * room))
    out.fill(BEZEL)
    out.blit(shot, (room, room))
    pygame.font.init()
    font = pygame.font.Font(None, max(16, room // 3))
    radius = room // 4
    for button, place in panel.places:
        slots = panel.slots(place.edge)
        share = (place.order - 0.5) / slots
        if place.edge in ("left", "right"):
            x = room // 2 if place.edge == "left" else width + room + room // 2
            y = room + round(share * height) - radius // 2
        else:
            x = room + round(share * width)
            y = height + room + room * 2 // 5 if place.edge == "bottom" else room * 2 // 5
        pygame.draw.circle(out, BUTTON.get(button, BUTTON["spare"]), (x, y), radius)
        label = font.render(button.upper(), True, (250, 250, 250))
        out.blit(label, label.get_rect(center=(x, y + radius + label.get_height() // 2 + 2)))
    return out


def main(argv: list[str]) -> int:
    out = Path(argv[1] if len(argv) > 1 else "docs/builds")
    out.mkdir(parents=True, exist_ok=True)
    for path in sorted(SHIPPED_PROFILES.glob("*.toml")):
        target = out / f"{path.stem}.png"
        pygame.image.save(picture(path.stem), str(target))
        print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
