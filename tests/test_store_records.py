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


def test_the_edges_of_a_sound_game_are_read(tmp_path):
    """Four players, every module, a tie of every seat, the top tier: all within bounds."""
    from nsdevice.session import MODULES

    store = Store.open(tmp_path).store
    store.record(FinishedGame("paris", 4, tuple(MODULES), "E", (90, 90, 90, 90), None, None,
                              winners=(1, 2, 3, 4)))  # fmt: skip
    store.record(FinishedGame("tokyo", 1, (), "S", (200,), 190, 6))
    store.save({"step": 1})
    games = store.history().games
    assert [(g.players, g.winners, g.tier) for g in games] == [(1, (), 6), (4, (1, 2, 3, 4), None)]
    assert games[1].modules == tuple(MODULES)


@pytest.mark.parametrize("winners", ["[0]", "[3]", "[1, 1, 5]"])
def test_winners_that_are_not_seats_of_the_game_hide_the_row(tmp_path, winners):
    store = Store.open(tmp_path).store
    store.record(FinishedGame("paris", 2, (), "P", (90, 80), None, None, winners=(1,)))
    store.save({"step": 1})
    assert store.history().games[0].winners == (1,)
    store._db.execute("UPDATE finished_games SET winners = ?", (winners,))
    assert store.history().games == ()


def test_games_saved_without_winners_read_them_from_the_totals(tmp_path):
    store = Store.open(tmp_path).store
    store.record(FinishedGame("tokyo", 1, (), "S", (80,), 80, 2))
    store.record(FinishedGame("paris", 3, (), "P", (90, 95, 95), None, None))
    waiting = store.history()  # not yet committed: read as they will be
    store.save({"step": 1})
    store._db.execute("UPDATE finished_games SET winners = NULL")
    for history in (waiting, store.history()):
        assert {g.city: g.winners for g in history.games} == {"tokyo": (), "paris": (2, 3)}


def test_waiting_games_show_their_modules_in_the_boxs_order(tmp_path):
    store = Store.open(tmp_path).store
    store.record(FinishedGame("london", 1, ("city_gates", "objectives"), "L", (99,), 90, 3))
    (game,) = store.history().games
    assert game.modules == ("objectives", "city_gates")


def test_the_best_daily_game_is_per_city(tmp_path):
    store = Store.open(tmp_path).store
    games = (("tokyo", "A", 80, "2026-11-01"), ("tokyo", "B", 85, "2026-11-02"),
             ("paris", "C", 70, "2026-11-03"))  # fmt: skip
    for city, seed, score, day in games:
        store.record(FinishedGame(city, 1, (), seed, (score,), score, 2, daily=day))
        store.save({"seed": seed})
    best = sorted((b.city, b.adjusted) for b in store.history().best_daily)
    assert best == [("paris", 70), ("tokyo", 85)]


def test_kept_notices_read_only_what_a_box_writes(tmp_path):
    import json

    from nsdevice.store.notices import read_kept

    store = Store.open(tmp_path).store
    junk = [["store_damaged", "a"], ["x"], "text", ["store_rewound", 1], 5, ["a", "b", "c"]]
    store._db.execute("INSERT INTO meta VALUES ('notices', ?)", (json.dumps(junk),))
    assert read_kept(store._db) == [("store_damaged", "a")]
    store._db.execute("UPDATE meta SET value = '{\"a\": 1}' WHERE key = 'notices'")
    assert read_kept(store._db) == []
    store._db.execute("UPDATE meta SET value = 'not json' WHERE key = 'notices'")
    assert read_kept(store._db) == []
