"""`every_step`: random presses of every kind on every screen, each one followed by a
snapshot → JSON → restore round trip, as a power cut after any press would make.

A restored box must come back (no refusal), show the same view, and do the same thing as
the box that never stopped on the press that comes next. Play is random but seeded:
every button tapped, held or repeated, new boxes of every city, player count (a room
too), module mix and pencil order, phones joining a room game and sending sheets.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import random
import time
from typing import Any

from benchmarks.reliability.harness import Report

# The weights of each kind of press: mostly taps of NEXT, so games get to their end (a
# room's results, a score sheet) and not only round their first screens.
_PRESSES = (
    (("next", "tap"), 46),
    (("back", "tap"), 12),
    (("menu", "tap"), 14),
    (("next", "hold"), 8),
    (("back", "hold"), 6),
    (("menu", "hold"), 6),
    (("next", "repeat"), 3),
    (("back", "repeat"), 3),
    (("menu", "repeat"), 2),
)
BOX_PRESSES = 1_500  # presses before a new box with new settings (and a shut-down store)
# One date for the box and its twin: a long run that crosses midnight would otherwise
# draw the history's daily streak on two different days, a step apart.
TODAY = datetime.date(2026, 12, 6)


@dataclasses.dataclass(frozen=True, slots=True)
class _Reading:
    """The records a restored twin reads: the box's own, but it never writes (the box
    that never stopped writes the same game once)."""

    records: Any

    def best_solo(self, city: str, modules: tuple[str, ...]) -> int | None:
        return self.records.best_solo(city, modules)  # type: ignore[no-any-return]

    def record(self, game: object) -> None:
        pass

    def history(self, limit: int = 5) -> Any:
        return self.records.history(limit)


class _Seeds:
    """Deal codes drawn at random, one after another: the box takes the next one, a
    restored twin (which presses first) peeks at it, so both deal the same game."""

    def __init__(self, rng: random.Random) -> None:
        from nsdevice.rules.deal import draw_seed

        self._draw = lambda: draw_seed(rng)
        self._next = self._draw()

    def take(self) -> str:
        code, self._next = self._next, self._draw()
        return code

    def peek(self) -> str:
        return self._next


def every_step(
    presses: int = 20_000, *, seed: int = 32, seconds: float = 600.0
) -> Report:
    """`presses` random presses (stopping short after `seconds`), each followed by a
    restart check; counts presses, refusals, differences and the screens reached."""
    from nsdevice.inputs.events import Button, Gesture, Press
    from nsdevice.session import CITIES, MODULES, Capabilities, Session, Settings
    from nsdevice.store import Store

    report = Report("every_step")
    rng = random.Random(seed)
    kinds = [Press(Button(b), Gesture(g)) for (b, g), _ in _PRESSES]
    weights = [weight for _, weight in _PRESSES]
    leaning = list(weights)
    records = Store.in_memory()
    reading = _Reading(records)
    capabilities = Capabilities(brightness=True, phones=("http://192.0.2.1:8414",))
    screens: set[str] = set()
    seeds = _Seeds(rng)
    told: set[str] = set()

    def fail(message: str) -> None:  # each kind of failure once: the pattern, not a flood
        if message not in told:
            told.add(message)
            report.fail(message)

    def box() -> Session:
        settings = Settings(
            city=rng.choice(CITIES),
            players=rng.randint(1, 4),
            modules=tuple(m for m in MODULES if rng.random() < 0.3),
            pencil_order=rng.choice(("drawn", "own")),
            room=rng.random() < 0.25,
            voice=rng.random() < 0.2,
        )
        report.add("boxes")
        # each box leans its own way (one mostly reveals, another lives in the menu), so
        # that paths a single mix of presses makes rare are walked too
        leaning[:] = [weight * rng.uniform(0.1, 2.0) for weight in weights]
        made = Session(
            settings,
            capabilities=capabilities,
            records=records,
            seed_source=seeds.take,
            code_source=lambda: "JOIN",
            today=lambda: TODAY,
        )
        if rng.random() < 0.7:
            made.deal_new_game()  # as power-on with no saved game; else the setup
        return made

    def restored(session: Session) -> Session | None:
        saved = json.loads(json.dumps(session.snapshot()))
        try:
            return Session.restore(
                saved,
                capabilities=capabilities,
                records=reading,
                seed_source=seeds.peek,
                code_source=lambda: "JOIN",
                today=session.today,
            )
        except ValueError as refusal:
            report.add("refusals")
            fail(f"refused on {session.screen}: {refusal}")
            return None

    def shown(session: Session) -> Any:
        return dataclasses.replace(session.view(), chime=None)  # a chime is the press's own

    session = box()
    planned: list[Any] = []  # presses still to come of a row being chosen
    started = time.perf_counter()
    report.counts.update(presses=0, refusals=0, differences=0, forbidden=0)
    while report.counts["presses"] < presses and time.perf_counter() - started < seconds:
        if report.counts["presses"] % BOX_PRESSES == BOX_PRESSES - 1:
            session = box()
            planned.clear()
        _phones(session, rng, report)
        twin = restored(session)
        if not planned:
            planned.extend(_choice(session, rng) or [rng.choices(kinds, leaning)[0]])
        press = planned.pop(0)
        screen = session.screen
        screens.add(screen.value)
        if twin is not None and shown(twin) != shown(session):
            report.add("differences")
            fail(f"restored on {screen}: another view")
        try:
            if twin is not None:
                twin.press(press)  # first: it peeks at the deal code the box then draws
            session.press(press)
        except AssertionError as forbidden:  # the machine's own check (valid.check_move)
            report.add("forbidden")
            fail(f"{press} on {screen}: {forbidden}")
            session = box()
            planned.clear()
            continue
        finally:
            report.add("presses")
        if twin is not None and (
            twin.snapshot() != session.snapshot() or shown(twin) != shown(session)
        ):
            report.add("differences")
            fail(f"{press} on {screen}: the restored box went elsewhere ({_apart(session, twin)})")
    report.counts["restores"] = report.counts["presses"]
    report.counts["screens"] = len(screens)
    report.counts["wall_seconds"] = round(time.perf_counter() - started, 1)
    if report.counts["presses"] < presses:
        report.fail(f"out of time after {report.counts['presses']} of {presses} presses")
    return report


def _choice(session: Any, rng: random.Random) -> list[Any]:
    """Now and then on a list (the setup, the menu): the presses that choose a row at
    random, as a player goes for one (NEXT down to it, MENU); else none."""
    from nsdevice import views
    from nsdevice.inputs.events import Button, Press

    view = session.view()
    if not isinstance(view, views.SetupView | views.MenuView) or rng.random() > 0.4:
        return []
    row = rng.randrange(len(view.rows))
    return [Press(Button.NEXT)] * ((row - view.cursor) % len(view.rows)) + [Press(Button.MENU)]


def _phones(session: Any, rng: random.Random, report: Report) -> None:
    """A room game: now and then a phone joins, or sends its sheet at the room's end."""
    if session.state.room is None or rng.random() > 0.05:
        return
    table, seat = rng.randint(1, 6), rng.randint(1, 4)
    if session.join(table, 4, seat, f"P{table}{seat}"):
        report.add("joins")
    if session.room_score(table, seat, rng.randint(0, 150), rng.randint(0, 30)):
        report.add("sheets")


def _apart(session: Any, twin: Any) -> str:
    """What differs between the box and its restored twin: the snapshot's keys, else
    the view's fields."""
    mine, theirs = session.snapshot(), twin.snapshot()
    keys = sorted(key for key in {*mine, *theirs} if mine.get(key) != theirs.get(key))
    if keys:
        return "saved " + ", ".join(keys)
    view, other = session.view(), twin.view()
    fields = [
        f.name
        for f in dataclasses.fields(view)
        if getattr(view, f.name) != getattr(other, f.name, None)
    ]
    return "shown " + ", ".join(fields)
