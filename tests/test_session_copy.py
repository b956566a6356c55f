"""`Session.copy()`: a second session in the same place over the same deal (D-1), that
moves on its own; the reliability harness plays ahead on copies."""

from __future__ import annotations

from dataclasses import replace

from nsdevice.inputs.events import Press
from nsdevice.session import Capabilities, Session, Settings
from nsdevice.session.settings import History


class Records:
    def best_solo(self, city: str, modules: tuple[str, ...]) -> int | None:
        return 12

    def record(self, game: object) -> None:
        pass

    def history(self, limit: int = 5) -> History:
        return History()


def test_a_copy_shows_the_same_screen_and_deal_and_moves_on_its_own_D1():
    seeds = iter(["FIRST", "SECOND"])
    records = Records()
    session = Session(
        Settings(city="paris", players=3),
        capabilities=Capabilities(brightness=True),
        records=records,
        seed_source=lambda: next(seeds),
    )
    for word in ("menu", "next", "next", "next"):
        session.press(Press.parse(word))
    copy = session.copy()
    assert copy.snapshot() == session.snapshot()
    assert copy.view() == replace(session.view(), chime=None)  # a chime is the press's own
    assert copy.deal == session.deal
    assert copy.records is records and copy.capabilities == session.capabilities
    before = session.snapshot()
    copy.press(Press.parse("next"))
    assert copy.snapshot() != before and session.snapshot() == before
