#!/usr/bin/env python3
"""Presses the game's end asks, with and without the lines entered as the game goes (issue 34).

Every seat scores a whole sheet (objectives played) on a real `Session`, each count set
with the fewest presses (`presses_for`, as a player who knows the digit wheel would):

- before: nothing entered along the way; at the game's end a held NEXT opens seat 1's
  sheet, each later seat's sheet is a held MENU on its total, and one MENU takes each
  total (what the box asked before the line entry existed, and still asks when a table
  enters nothing along the way);
- after: at each round's end a held NEXT opens the line entry and every seat enters that
  round's line; at the game's end NEXT opens each seat's sheet on what is left.

Counted, not timed: the figure is the same on any machine. Sheets are drawn from a seeded
generator within each count's bounds (S-T-END's stamps, P-5's overpasses).

Usage: python benchmarks/end_presses.py [--city paris] [--players N] [--games 20] [--seed 34]
Prints the mean presses at the game's end before and after, and every scoring press of
the game (along the way and at the end) after.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from nsdevice.inputs.events import Button, Gesture, Press
from nsdevice.rules import scoring
from nsdevice.rules.cities import CityName, city
from nsdevice.session import Session, Settings
from nsdevice.session.digits import counting_field, presses_for
from nsdevice.session.screens.score_sheet import line_steps, sheet_counts

HOLD_NEXT = Press(Button.NEXT, Gesture.HOLD)
HOLD_MENU = Press(Button.MENU, Gesture.HOLD)
NEXT, MENU = Press(Button.NEXT), Press(Button.MENU)


def new_game(city_name: str, players: int) -> Session:
    settings = Settings(city=city_name, players=players, modules=("objectives",))
    session = Session(settings, seed_source=lambda: "PRESSES")
    session.deal_new_game()
    return session


def a_sheet(session: Session, rng: random.Random) -> list[int]:
    """Counts a real sheet could show, in sheet order."""
    layout = sheet_counts(session.current_setup())
    counts = [rng.randint(0, min(c.most or 12, 12)) for _, c in layout]
    keys = [c.key for _, c in layout]
    if "stamps" in keys:
        stamps = sorted(city(session.settings.city).stamp_totals())
        counts[keys.index("stamps")] = rng.choice(stamps)
    if "overpasses_once" in keys:
        once, twice = keys.index("overpasses_once"), keys.index("overpasses_twice")
        counts[twice] = min(counts[twice], scoring.PARIS_OVERPASSES - counts[once])
    return counts


class Counter:
    def __init__(self, session: Session) -> None:
        self.session, self.presses = session, 0

    def press(self, *presses: Press) -> None:
        for press in presses:
            self.session.press(press)
            self.presses += 1

    def count(self, step: int, value: int) -> None:
        most = sheet_counts(self.session.current_setup())[step][1].most
        self.press(*presses_for(value, counting_field(most)))

    def rest_of_sheet(self, sheet: list[int]) -> None:
        """The sheet's counts from where it opened, then the MENU that takes the total."""
        while self.session.screen == "score_sheet":
            step = self.session.state.sheet_step
            self.count(step, sheet[step])
        assert self.session.screen == "score_entry"
        self.press(MENU)


def to_game_end(session: Session) -> None:
    while session.screen != "game_end":
        session.next()


def before(city_name: str, sheets: list[list[int]]) -> int:
    session = new_game(city_name, len(sheets))
    to_game_end(session)
    counter = Counter(session)
    for seat, sheet in enumerate(sheets, start=1):
        counter.press(HOLD_NEXT if seat == 1 else HOLD_MENU)  # the seat's sheet
        counter.rest_of_sheet(sheet)
    assert session.screen == "result"
    return counter.presses


def after(city_name: str, sheets: list[list[int]]) -> tuple[int, int]:
    """The presses at the game's end, and along the way."""
    session = new_game(city_name, len(sheets))
    along = Counter(session)
    for number in range(1, 5):
        while session.screen != "round_end" or session.progress.round != number:
            session.next()
        along.press(HOLD_NEXT)
        steps = line_steps(session.current_setup(), number)
        for sheet in sheets:
            for step in steps:
                along.count(step, sheet[step])
        assert session.screen == "round_end"
    to_game_end(session)
    end = Counter(session)
    end.press(NEXT)  # seat 1's sheet, on what is left
    for sheet in sheets:
        end.rest_of_sheet(sheet)
    assert session.screen == "result"
    return end.presses, along.presses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--city", default="tokyo")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=34)
    args = parser.parse_args(argv)
    if args.city not in {c.value for c in CityName} or not city(args.city).line_scoring:
        print(f"end_presses: {args.city!r} has no score sheet (tokyo or paris)", file=sys.stderr)
        return 2
    if not 1 <= args.players <= 4 or args.games < 1:
        print("end_presses: --players 1 to 4 and --games 1 or more", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    shape = new_game(args.city, args.players)
    old, new, everything = [], [], []
    for _ in range(args.games):
        sheets = [a_sheet(shape, rng) for _ in range(args.players)]
        old.append(before(args.city, sheets))
        end, along = after(args.city, sheets)
        new.append(end)
        everything.append(end + along)
    print(f"{args.city}, {args.players} players, {args.games} games (seed {args.seed}):")
    for label, counts in (
        ("presses at the game's end, nothing entered along the way", old),
        ("presses at the game's end, the lines entered as it goes", new),
        ("every scoring press of the game, the lines as it goes", everything),
    ):
        print(f"  {label}: {statistics.mean(counts):.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
