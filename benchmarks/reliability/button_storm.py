"""`button_storm`: random chattering, overlapping and held button edges through the
`ButtonTracker` into a `Session`, on a fake clock; invariants checked after every press.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from benchmarks.reliability.harness import (
    Report,
)


@dataclass
class _Intent:
    """One burst that starts a press on a button (or a glitch that may read as one)."""

    button: Any
    start: float
    taps_and_holds: int = 0
    held: bool = False


def storm_edges(rng: random.Random, count: int, debounce: float) -> Iterator[tuple[Any, ...]]:
    """(time, button, down, intent) edges: taps, long holds, overlapping presses and glitches.

    Every change of level is a burst of 1-8 edges within 1-20 ms (an odd number for a real
    change, an even one for a glitch that comes back); bursts on one contact are kept more
    than `debounce` apart, so each burst is one debounced change and the intent of every
    press the tracker sends is known.
    """
    from nsdevice.inputs.events import Button

    buttons = list(Button)
    weights = [0.8, 0.12, 0.08]
    free_at = dict.fromkeys(buttons, 0.0)  # when each contact may bounce again
    gap = debounce + 0.015
    now = 0.0
    made = 0
    pending: list[tuple[float, int, Any, bool, _Intent | None]] = []
    order = 0

    def burst(button: Any, at: float, to_down: bool, edges: int, intent: _Intent | None) -> float:
        nonlocal order, made
        span = rng.uniform(0.001, 0.020)
        times = sorted(at + rng.uniform(0, span) for _ in range(edges))
        level = not to_down
        for moment in times:
            level = not level
            pending.append((moment, order, button, level, intent))
            order += 1
            made += 1
        return times[-1]

    def odd(limit: int = 8) -> int:
        return rng.choice([n for n in range(1, limit + 1) if n % 2])

    while made < count:
        kind = rng.random()
        button = rng.choices(buttons, weights)[0]
        start = max(now, free_at[button]) + rng.uniform(0, 0.02)
        if kind < 0.06:  # a glitch: the contact flickers and comes back up
            intent = _Intent(button, start)
            end = burst(button, start, True, rng.choice([2, 4, 6, 8]), intent)
            free_at[button] = end + gap
            now = end + rng.uniform(0.0, 0.1)
            yield from _flush(pending, now)
            continue
        if kind < 0.80:
            down_for = rng.uniform(0.04, 0.5)  # a tap
        elif kind < 0.92:
            down_for = rng.uniform(0.8, 4.0)  # a long hold: HOLD, then REPEATs
        else:
            down_for = rng.uniform(0.1, 1.2)  # another press overlaps this one
        intent = _Intent(button, start)
        pressed = burst(button, start, True, odd(), intent)
        release_at = max(pressed + gap, start + down_for)
        if kind >= 0.92:
            other = rng.choice([b for b in buttons if b is not button])
            other_start = max(free_at[other], start + rng.uniform(0.0, down_for))
            other_intent = _Intent(other, other_start)
            other_pressed = burst(other, other_start, True, odd(), other_intent)
            other_release = max(other_pressed + gap, other_start + rng.uniform(0.04, 0.9))
            free_at[other] = burst(other, other_release, False, odd(), None) + gap
        released = burst(button, release_at, False, odd(), None)
        free_at[button] = released + gap
        if rng.random() < 0.85:
            now = released + rng.uniform(0.0, 0.3)
        else:  # the next press, on another button, overlaps this one
            now = start + rng.uniform(0.0, down_for)
        yield from _flush(pending, now)
    yield from _flush(pending, float("inf"))


def _flush(pending: list, until: float) -> Iterator[tuple[Any, ...]]:
    """Edges before `until`, in time order, out of `pending`."""
    pending.sort(key=lambda edge: (edge[0], edge[1]))
    while pending and pending[0][0] < until:
        moment, _, button, down, intent = pending.pop(0)
        yield moment, button, down, intent


def button_storm(
    edges: int = 10_000, *, seed: int = 11, presses_per_game: int | None = None
) -> Report:
    """Random edges with chatter, overlaps and holds → ButtonTracker → Session, on a fake
    clock, all cities, player counts and modules; invariants checked after every press.

    Each session starts a game of the next (city, players) with random modules; it is
    replaced when play returns to the setup screen or after `presses_per_game` presses
    (by default about a twelfth of the expected presses, so a short run still plays
    every city at every player count).
    """
    from nsdevice.inputs.events import Button, ButtonTracker, Edge, Gesture, Press
    from nsdevice.rules.deal import draw_seed
    from nsdevice.session import CITIES, GAME_SCREENS, MODULES, Session, Settings
    from nsdevice.store import Store

    report = Report("button_storm")
    rng = random.Random(seed)
    tracker = ButtonTracker()
    records = Store.in_memory()
    setups = [(c, p) for c in CITIES for p in (1, 2, 3, 4)]
    rng.shuffle(setups)
    games: set[tuple[str, int]] = set()
    modules_seen: set[str] = set()
    budget = presses_per_game or max(60, edges // 120)
    pressed_in_game = 0

    def fresh_session() -> Session:
        nonlocal pressed_in_game
        city, players = setups[report.counts.get("sessions", 0) % len(setups)]
        modules = tuple(m for m in MODULES if rng.random() < 0.4)
        report.add("sessions")
        fresh = Session(
            Settings(city=city, players=players, modules=modules),
            records=records,
            seed_source=lambda: draw_seed(rng),
        )
        fresh.press(Press(Button.MENU))  # "start", the setup's first row
        _started(fresh)
        pressed_in_game = 0
        return fresh

    def _started(started: Session) -> None:
        setup = started.deal.setup if started.deal else None
        if setup is not None:
            games.add((setup.city.value, setup.players))
            modules_seen.update(m.value for m in setup.modules)
            report.add("games_started")

    session = fresh_session()
    latest: dict[Any, _Intent] = {}  # the newest press intent of each button

    def handle(presses: list, now: float) -> None:
        nonlocal session, pressed_in_game
        for press in presses:
            intent = latest.get(press.button)
            if press.gesture in (Gesture.TAP, Gesture.HOLD):
                report.add(f"{press.gesture.value}s")
                if intent is None or intent.start > now:
                    report.fail(f"{press} at {now:.3f} s with no press of its button")
                else:
                    intent.taps_and_holds += 1
                    intent.held = intent.held or press.gesture is Gesture.HOLD
                    if intent.taps_and_holds > 1:
                        report.fail(f"two presses from one press of {press.button} at {now:.3f}")
            else:
                report.add("repeats")
                if intent is None or not intent.held:
                    report.fail(f"a REPEAT of {press.button} at {now:.3f} s without its HOLD")
            was = session.screen
            try:
                session.press(press)
                _check_session(report, session, GAME_SCREENS)
            except Exception as error:
                report.fail(f"{type(error).__name__} on {press} in {was}: {error}")
                report.add("crashes")
                session = fresh_session()
                continue
            report.add("presses")
            pressed_in_game += press.gesture is not Gesture.REPEAT
            if session.screen == "summary" and was == "setup":
                _started(session)
            if session.screen == "result" and was != "result":
                report.add("games_finished")
            if (session.screen == "setup" and was != "setup") or pressed_in_game >= budget:
                session = fresh_session()  # the next setup, as a player would choose it

    for moment, button, down, intent in storm_edges(rng, edges, tracker.debounce):
        try:
            while (deadline := tracker.next_deadline()) is not None and deadline <= moment:
                handle(tracker.due(deadline), deadline)
            if down and intent is not None:
                latest[button] = intent
            report.add("edges")
            handle(tracker.feed(Edge(button, down, moment)), moment)
        except Exception as error:  # the tracker itself must never fail
            report.fail(f"tracker: {type(error).__name__}: {error}")
            report.add("crashes")
            tracker = ButtonTracker()
    while (deadline := tracker.next_deadline()) is not None:
        handle(tracker.due(deadline), deadline)
    if any(tracker.is_down(button) for button in latest):
        report.fail("a button is still down after every contact was released")
    report.counts["setups_played"] = len(games)
    report.counts["modules_played"] = len(modules_seen)
    return report


def _check_session(report: Report, session: Any, game_screens: tuple[str, ...]) -> None:
    """After a press: the snapshot round-trips, progress is inside the deal, a turn shows
    the deal's own cards."""
    from nsdevice.session import Session

    snapshot = json.loads(json.dumps(session.snapshot()))
    restored = Session.restore(snapshot, records=session.records)
    if json.loads(json.dumps(restored.snapshot())) != snapshot:
        report.fail(f"snapshot does not round-trip on {session.screen}")
    view = session.view()
    if dataclasses.replace(restored.view(), chime=None) != dataclasses.replace(view, chime=None):
        report.fail(f"restored view differs on {session.screen}")
    deal = session.deal
    if deal is not None and session.screen in game_screens:
        progress = session.progress
        if not 1 <= progress.round <= 4:
            report.fail(f"round {progress.round}")
        elif not 0 <= progress.revealed <= len(deal.rounds[progress.round - 1].turns):
            report.fail(f"turn {progress.revealed} beyond round {progress.round}")
    if view.screen == "turn":
        assert deal is not None
        turns = deal.rounds[view.round - 1].turns
        if view.cards != turns[view.turn - 1].cards or view.turn != session.progress.revealed:
            report.fail(f"round {view.round} turn {view.turn}: cards differ from the deal")
        report.add("turns_checked")
