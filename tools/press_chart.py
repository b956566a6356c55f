#!/usr/bin/env python3
"""Count the presses a whole game takes, and draw them as a bar chart.

Usage:
  python tools/press_chart.py count PLAYERS          one JSON line: presses by button
  python tools/press_chart.py chart OUT.png BEFORE_ROOT   the chart, before and after

`count` plays a game on the session model from power-on to the result, pressing what
moves the game forward on each screen (the setup's "start" row, NEXT through the deal,
MENU past each score left at 0), and starts the way `nsdevice run` starts: with a fresh
deal of the remembered setup where the box has `deal_new_game`. `chart` runs `count` with
this checkout and with BEFORE_ROOT (an older checkout, e.g. one at 00c76c1) on PYTHONPATH.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def count(players: int) -> dict[str, int]:
    from nsdevice.inputs.events import Button, Press
    from nsdevice.session import Session, Settings

    session = Session(Settings(players=players), seed_source=lambda: "CHART")
    if hasattr(session, "deal_new_game"):  # what the runner does at power-on
        session.deal_new_game()
    presses = {"next": 0, "back": 0, "menu": 0}
    first_card = None
    for _ in range(1000):
        screen = session.view().screen
        if screen == "result":
            break
        if screen == "turn" and first_card is None:
            first_card = sum(presses.values())
        button = Button.MENU if screen in ("setup", "score_entry") else Button.NEXT
        session.press(Press(button))
        presses[button.value] += 1
    else:
        raise SystemExit("no result after 1000 presses")
    return {**presses, "total": sum(presses.values()), "first_card": first_card or 0}


def chart(out: Path, before_root: Path) -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    def measured(root: Path, players: int) -> dict[str, int]:
        env = {**os.environ, "PYTHONPATH": str(root)}
        line = subprocess.run(
            [sys.executable, __file__, "count", str(players)],
            env=env, cwd=root, capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        return json.loads(line)

    rows = [
        (f"{label}, {when}", measured(root, players))
        for players, label in ((1, "solo"), (4, "4 players"))
        for when, root in (("before", before_root), ("after", ROOT))
    ]
    for label, data in rows:
        print(label, data)
    pygame.font.init()
    font = pygame.font.Font(None, 26)
    width, bar_h, left = 900, 34, 170
    surface = pygame.Surface((width, 90 + len(rows) * (bar_h + 26)))
    surface.fill((250, 250, 250))
    colours = {"next": (72, 186, 92), "back": (160, 160, 170), "menu": (64, 136, 240)}
    most = max(d["total"] for _, d in rows)
    scale = (width - left - 190) / most
    title = "Presses from power-on to the result (scores left at 0); first card marked |"
    surface.blit(font.render(title, True, (20, 20, 20)), (16, 14))
    y = 50
    for label, data in rows:
        surface.blit(font.render(label, True, (20, 20, 20)), (16, y + 8))
        x = left
        for button in ("next", "menu", "back"):
            span = round(data[button] * scale)
            pygame.draw.rect(surface, colours[button], (x, y, span, bar_h))
            x += span
        text = f"{data['total']}  (first card: {data['first_card']})"
        surface.blit(font.render(text, True, (20, 20, 20)), (x + 8, y + 8))
        mark = left + round(data["first_card"] * scale)
        pygame.draw.line(surface, (200, 30, 30), (mark, y - 4), (mark, y + bar_h + 4), 3)
        y += bar_h + 26
    x = left
    for button in ("next", "menu", "back"):
        pygame.draw.rect(surface, colours[button], (x, y, 18, 18))
        surface.blit(font.render(button.upper(), True, (20, 20, 20)), (x + 24, y))
        x += 120
    pygame.image.save(surface, str(out))


if __name__ == "__main__":
    if sys.argv[1:2] == ["count"]:
        print(json.dumps(count(int(sys.argv[2]))))
    elif sys.argv[1:2] == ["chart"]:
        chart(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        raise SystemExit(__doc__)
