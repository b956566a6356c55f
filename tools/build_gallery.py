#!/usr/bin/env python3
"""Write one build's gallery for docs/screens: the screens that build's layouts change,
every page, as `nsdevice screenshot --hardware PROFILE` draws them, one folder a language.

Usage: python tools/build_gallery.py PROFILE [OUT_DIR]   (default docs/screens/PROFILE)

Writes OUT_DIR/<language>/<city>-<screen>[-pageN].png: Tokyo in every language, and in
English the other cities' turns too (their cards' colours, Paris's free entry). The
folder is emptied first, so a screen that no longer has a third page leaves no stale
picture behind.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from nsdevice.hardware.profiles import ProfileError, load_profile
from nsdevice.locale import LANGUAGES
from nsdevice.screenshots import SOURCE_LANGUAGE, TRANSLATED_CITY, render_all

ROOT = Path(__file__).resolve().parent.parent
# The screens whose layout depends on the build: the turn in each situation, the game's
# summary and a round's start with every module, the phones' page, and what is left in the
# deck (a screen of its own where the turn has no room for it).
SCREENS = ("turn", "turn-switch", "turn-switch-no-effect", "turn-paired-effect",
           "turn-paired-no-effect", "turn-joker", "turn-free-entry", "turn-last",
           "summary-all-modules", "round-start-3-players", "phones", "deck")  # fmt: skip
# The caller's screens of a room game (issue 25), on the build made for a room: the TV's.
ROOM_SCREENS = ("room-summary", "room-round-start", "room-turn", "room-pencil-pass",
                "room-results", "room-tables", "room-tables-freeing")  # fmt: skip
ROOM_BUILD = "tv"
# The TV's caller turn in English, also kept beside the other screenshots in docs/screens
CALLER_PICTURE = ("en/tokyo-room-turn.png", "room-caller-1920x1080.png")


def build(profile_name: str, out: Path) -> list[Path]:
    profile = load_profile(profile_name)
    wanted = SCREENS + (ROOM_SCREENS if profile.name == ROOM_BUILD else ())
    with tempfile.TemporaryDirectory() as scratch:
        written = render_all(scratch, profile.display.size(), profile.panel(),
                             screens=lambda name: name in wanted)  # fmt: skip
        if out.exists():
            shutil.rmtree(out)
        placed = []
        for path in written:
            relative = path.relative_to(scratch)
            language = relative.parts[0] if len(relative.parts) > 1 else SOURCE_LANGUAGE
            assert language in LANGUAGES, relative
            city = path.name.split("-")[0]
            if city != TRANSLATED_CITY and not path.name.startswith(f"{city}-turn"):
                continue  # the other cities' words are Tokyo's: their turns suffice
            target = out / language / path.name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(path, target)
            placed.append(target)
    if profile.name == ROOM_BUILD:
        source, name = CALLER_PICTURE
        caller = out.parent / name
        shutil.copyfile(out / source, caller)
        placed.append(caller)
    return placed


def main(argv: list[str]) -> int:
    if len(argv) not in (1, 2):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    out = Path(argv[1]) if len(argv) == 2 else ROOT / "docs" / "screens" / argv[0]
    try:
        placed = build(argv[0], out)
    except ProfileError as error:
        print(error, file=sys.stderr)
        return 2
    print(f"{len(placed)} pictures in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
