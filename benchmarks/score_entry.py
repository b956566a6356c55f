#!/usr/bin/env python3
"""Seconds to enter a final total with three buttons (issue 11: ≤ 12 presses, ≤ 6 s).

A modelled player presses the keys `presses_for` plans, from the game's end (the NEXT that
opens the entry, then the digits and the MENUs that take them). The presses go through the
real `ButtonTracker` with its default timings (debounce 0.03 s, a press becomes a HOLD at
0.8 s) on a simulated clock polled every 10 ms, and the presses it sends go to a real
`Session`; the time is from the first button going down to the press that shows the result.

The player (assumed, not measured): a tap keeps the button down TAP_DOWN s; a hold keeps it
down until the HOLD fires, then REACTION s more before letting go (seeing the digit move);
GAP s pass between letting go and the next press. Three players are shown: brisk, usual,
slow.

Usage: python benchmarks/score_entry.py
Prints, per player, the seconds and presses for 0, 7, 99, 156 and 300, then the worst and
the mean over every total 0–300.
"""

from __future__ import annotations

import os
import statistics

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from nsdevice.inputs.events import Button, ButtonTracker, Edge, Gesture, Press
from nsdevice.session import Session, Settings
from nsdevice.session.digits import presses_for
from nsdevice.session.screens.fields import TOTAL_FIELD

TOTALS = (0, 7, 99, 156, 300)
TICK = 0.01  # how often the loop asks the tracker for due holds
PLAYERS = {  # name: (TAP_DOWN, REACTION, GAP) in seconds
    "brisk": (0.08, 0.15, 0.12),
    "usual": (0.12, 0.25, 0.18),
    "slow": (0.15, 0.35, 0.30),
}


def at_game_end() -> Session:
    session = Session(Settings(city="tokyo", players=1), seed_source=lambda: "BENCH")
    session.deal_new_game()
    while session.screen != "game_end":
        session.next()
    return session


def seconds(total: int, player: tuple[float, float, float], start: Session) -> tuple[float, int]:
    """The modelled time to enter `total`, and the number of presses."""
    tap_down, reaction, gap = player
    session = start.copy()
    tracker = ButtonTracker()
    planned = (Press(Button.NEXT), *presses_for(total, TOTAL_FIELD))
    now = 0.0
    sent: list[Press] = []

    def take(presses: list[Press]) -> None:
        for press in presses:
            sent.append(press)
            session.press(press)

    for press in planned:
        take(tracker.feed(Edge(press.button, True, now)))
        if press.gesture is Gesture.HOLD:
            while not sent or sent[-1] != press:  # down until the HOLD fires
                now += TICK
                take(tracker.due(now))
            now += reaction
        else:
            now += tap_down
        take(tracker.feed(Edge(press.button, False, now)))
        if session.screen == "result":
            break
        now += gap
    assert session.screen == "result" and session.view().total == total, (total, sent)
    assert [p for p in sent if p.gesture is not Gesture.REPEAT] == list(planned), total
    return now, len(planned)


def main() -> None:
    start = at_game_end()
    tracker = ButtonTracker()
    print(f"ButtonTracker defaults: debounce {tracker.debounce} s, hold {tracker.hold} s")
    for name, player in PLAYERS.items():
        tap_down, reaction, gap = player
        print(f"\n{name}: tap down {tap_down} s, after a hold {reaction} s, between {gap} s")
        for total in TOTALS:
            time, presses = seconds(total, player, start)
            print(f"  {total:>3}: {presses:>2} presses  {time:4.2f} s")
        every = [seconds(total, player, start) for total in range(301)]
        worst = max(every)
        print(
            f"  0-300: worst {worst[0]:.2f} s ({worst[1]} presses), "
            f"mean {statistics.mean(t for t, _ in every):.2f} s, "
            f"most presses {max(p for _, p in every)}"
        )


if __name__ == "__main__":
    main()
