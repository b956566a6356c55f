"""The history read from finished games (store/records.py): one bad row hides only itself."""

from __future__ import annotations

import pytest

from nsdevice import views
from nsdevice.session import FinishedGame
from nsdevice.store import Store
from nsdevice.texts import words

DAMAGES = [
    "totals = 'not json'",
    "totals = '{\"a\": 1}'",
    "totals = '[1, 2]'",  # more totals than players
    "totals = '[\"x\"]'",
    "totals = '[1.5]'",
    "totals = '[]'",
    "finished_at = 1e300",
    "finished_at = 'yesterday'",
    "winners = '{\"a\": 1}'",
    "winners = '[7]'",  # no such seat
    "winners = 'nope'",
    "daily = 'soon'",
    "daily = '2026-13-45'",
    "city = 'atlantis'",
    "players = 1.5",
    "players = 0",
    "players = 9",
    "players = 'two'",
    "modules = 'jetpacks'",
    "tier = 99",
    "tier = 'high'",
    "adjusted = 'many'",
    "adjusted = 2.5",
]


def three_games(tmp_path) -> Store:
    store = Store.open(tmp_path).store
    store.record(FinishedGame("tokyo", 1, (), "A", (80,), 80, 2, daily="2026-11-20"))
    store.record(FinishedGame("tokyo", 1, (), "B", (95,), 95, 3, daily="2026-11-21"))
    store.record(FinishedGame("tokyo", 1, (), "C", (70,), 70, 1, daily="2026-11-22"))
    store.save({"step": 1})
    return store


@pytest.mark.parametrize("damage", DAMAGES)
def test_one_bad_history_row_hides_only_itself(tmp_path, damage):
    store = three_games(tmp_path)
    store._db.execute(f"UPDATE finished_games SET {damage} WHERE seed = 'B'")
    history = store.history()
    assert [g.totals for g in history.games] == [(70,), (80,)]  # the others, newest first
    assert [(b.city, b.adjusted) for b in history.bests] == [("tokyo", 80)]  # B's 95 is gone
    assert [(b.city, b.adjusted) for b in history.best_daily] == [("tokyo", 80)]
    assert set(history.daily_days) >= {"2026-11-22", "2026-11-20"}
    page = words("en").page(views.HistoryView(section="games", city="tokyo", games=history.games))
    assert any("80" in line.text for line in page.lines)  # the page draws from what is left
    assert store.best_solo("tokyo", ()) == 80


def test_a_bad_row_does_not_take_a_place_among_the_last_games(tmp_path):
    store = Store.open(tmp_path).store
    for number in range(7):
        store.record(FinishedGame("paris", 2, (), f"P{number}", (number, 50), None, None))
    store.save({"step": 1})
    store._db.execute("UPDATE finished_games SET totals = 'x' WHERE seed = 'P6'")
    games = store.history(limit=5).games
    assert [g.totals[0] for g in games] == [5, 4, 3, 2, 1]  # the newest good five


def test_a_sound_history_reads_every_field(tmp_path):
    store = Store.open(tmp_path).store
    store.record(FinishedGame("london", 3, ("objectives",), "L", (100, 120, 120), None, None,
                              winners=(3,)))  # fmt: skip
    store.save({"step": 1})
    (game,) = store.history().games
    assert (game.city, game.players, game.modules, game.totals, game.winners) == (
        "london", 3, ("objectives",), (100, 120, 120), (3,)
    )
    store._db.execute("UPDATE finished_games SET winners = NULL")  # as a version 2 store kept it
    assert store.history().games[0].winners == (2, 3)
