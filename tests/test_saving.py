"""The saving policy: cannot-save is never fatal, said once, retried on every press."""

from __future__ import annotations

import sqlite3

import pytest

from nsdevice.box.saving import Saver, open_game
from nsdevice.session import FinishedGame, Session, Settings
from nsdevice.session.settings import History
from nsdevice.store import CannotSave, DamagedStore, Store


class Flaky:
    """A real store whose writes fail while `trouble` is set."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.trouble: Exception | None = None
        self.once = False  # the trouble clears after it is raised once

    def __getattr__(self, name: str):
        return getattr(self.store, name)

    def save(self, snapshot: dict) -> bool:
        if self.trouble is not None:
            trouble, self.trouble = self.trouble, None if self.once else self.trouble
            raise trouble
        return self.store.save(snapshot)


def test_a_full_card_is_said_once_retried_on_every_press_and_saved_when_room_returns(tmp_path):
    flaky = Flaky(Store.open(tmp_path).store)
    logged: list[str] = []
    saver = Saver(flaky, log=logged.append)  # type: ignore[arg-type]
    assert saver({"step": 1})
    flaky.trouble = CannotSave("store_full", "database or disk is full")
    assert not saver({"step": 2})
    assert not saver({"step": 3})
    assert saver.notices == [("store_full", "")]  # once, not on every press
    flaky.trouble = None
    assert saver({"step": 4})  # the next press after room returns is saved
    assert saver.failing is None and "saving again" in logged
    assert Store.open(tmp_path).store.load() == {"step": 4}


def test_a_card_that_goes_read_only_after_being_full_says_so_too(tmp_path):
    flaky = Flaky(Store.open(tmp_path).store)
    saver = Saver(flaky, log=lambda line: None)  # type: ignore[arg-type]
    flaky.trouble = CannotSave("store_full", "full")
    saver({"step": 1})
    flaky.trouble = CannotSave("store_read_only", "read-only")
    saver({"step": 2})
    assert [key for key, _ in saver.notices] == ["store_full", "store_read_only"]


def test_a_file_that_breaks_mid_game_is_set_aside_and_the_game_saved_in_a_fresh_one(tmp_path):
    flaky = Flaky(Store.open(tmp_path).store)
    saver = Saver(flaky, log=lambda line: None)  # type: ignore[arg-type]
    saver({"step": 1})
    flaky.trouble = DamagedStore("database disk image is malformed")
    flaky.once = True  # the fresh file is sound
    assert saver({"step": 2})
    assert any(".damaged-" in p.name for p in tmp_path.iterdir())
    again = Store.open(tmp_path)
    assert again.store.load() == {"step": 2}
    # the game in memory was never in danger, but the finished games stay in the file set
    # aside: said, and kept in the fresh file until a press has shown it
    (aside,) = [p.name for p in tmp_path.iterdir() if p.suffix.startswith(".damaged-")]
    assert saver.notices == [("store_damaged", aside)]
    assert again.notices == (("store_damaged", aside),)


def test_a_finished_game_waits_in_memory_until_it_can_be_written(tmp_path):
    flaky = Flaky(Store.open(tmp_path).store)
    saver = Saver(flaky, log=lambda line: None)  # type: ignore[arg-type]
    game = FinishedGame("tokyo", 1, (), "SEED", (80,), 80, 3)
    flaky.trouble = CannotSave("store_full", "full")
    saver.record(game)  # never raises into the session: it waits for the next save
    saver({"step": 1})  # that save fails, and the game waits on
    assert Store.open(tmp_path).store.finished_games() == []
    flaky.trouble = None
    saver({"step": 2})
    assert [g["seed"] for g in Store.open(tmp_path).store.finished_games()] == ["SEED"]


def test_reading_the_best_solo_or_history_from_a_broken_store_gives_none(tmp_path):
    store = Store.open(tmp_path).store
    store.close()  # any read now raises sqlite3.ProgrammingError
    lines: list[str] = []
    saver = Saver(store, log=lines.append)
    assert saver.best_solo("tokyo", ()) is None
    assert saver.history() == History()  # the box plays on with an empty history
    assert len(lines) == 2 and all("cannot read the finished games" in line for line in lines)
    assert isinstance(sqlite3.ProgrammingError(), sqlite3.Error)


def test_a_run_that_could_not_read_its_store_never_writes_to_it(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    started = open_game(
        blocker / "state",
        fresh=lambda records: Session(Settings(), records=records),
        restore=lambda data, records: Session.restore(data, records=records),
        log=lambda line: None,
    )
    assert started.notices[0][0] == "store_unwritable"
    assert started.session.notices == list(started.notices)
    assert not started.saver(started.session.snapshot())


def test_the_history_page_reads_an_upgraded_store_through_the_saver(tmp_path):
    """A version-2 store (tests/data, written by the code at 6e659dd) opened by the box:
    the menu's history lists its finished games, and a game finished now joins them."""
    import shutil
    from datetime import date
    from pathlib import Path

    from nsdevice.inputs.events import Press
    from nsdevice.store import FILE_NAME

    shutil.copyfile(Path(__file__).parent / "data" / "store-v2.sqlite3", tmp_path / FILE_NAME)
    started = open_game(
        tmp_path,
        fresh=lambda records: Session(Settings(), records=records),
        restore=lambda data, records: Session.restore(
            data, records=records, today=lambda: date(2026, 11, 23)
        ),
        log=lambda line: None,
    )
    session = started.session
    assert started.notices == () and session.screen == "turn"  # the saved step
    session.press(Press.parse("menu"))
    while session.view().rows[session.view().cursor].key != "history":
        session.press(Press.parse("next"))
    session.press(Press.parse("menu"))
    view = session.view()
    assert view.screen == "history" and view.section == "games"
    assert (view.city, [g.adjusted for g in view.games]) == ("tokyo", [107, 98, 121])
    pages = [view.section]
    for _ in range(view.pages - 1):
        session.press(Press.parse("next"))
        pages.append(session.view().section + ":" + session.view().city)
    assert pages == ["games", "games:paris", "games:london", "bests:"]


@pytest.mark.parametrize(
    "damage",
    ["totals = 'not json'", "finished_at = 1e300", "winners = '{\"a\": 1}'", "daily = 'soon'"],
)
def test_a_damaged_finished_game_leaves_an_empty_history_and_the_box_playing(tmp_path, damage):
    store = Store.open(tmp_path).store
    store.record(FinishedGame("tokyo", 1, (), "SEED", (80,), 80, 3))
    store.save({"step": 1})
    store._db.execute(f"UPDATE finished_games SET {damage}")
    saver = Saver(store, log=lambda line: None)
    assert saver.history() == History()
    assert saver.best_solo("tokyo", ()) is None
    assert saver({"step": 2})  # saving goes on


def test_a_locked_store_holds_no_press_up_and_the_step_is_retried_until_saved(tmp_path):
    clock = [0.0]
    store = Store.open(tmp_path).store
    lines: list[str] = []
    saver = Saver(store, log=lines.append, clock=lambda: clock[0])
    assert saver({"step": 1})
    assert saver.retry() is None  # nothing waits
    holder = sqlite3.connect(tmp_path / "nsdevice.sqlite3", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    assert not saver({"step": 2})
    assert saver.unsaved == {"step": 2} and saver.retry() == 0.5
    clock[0] = 0.6
    assert saver.retry() == pytest.approx(0.5)  # tried, refused again: half a second more
    assert saver.notices == [] and len(lines) == 1  # said once in the log, not on screen
    clock[0] = 10.5  # held ten seconds: now the screen says it, once
    saver.retry()
    clock[0] = 11.5
    saver.retry()
    assert saver.notices == [("store_unwritable", "")]
    holder.execute("ROLLBACK")
    clock[0] = 12.5
    assert saver.retry() is None  # saved: nothing waits any more
    assert saver.unsaved is None and saver.failing is None
    assert Store.open(tmp_path).store.load() == {"step": 2}


def test_closing_saves_the_last_step_with_the_waiting_game_in_one_go(tmp_path):
    store = Store.open(tmp_path).store
    saver = Saver(store, log=lambda line: None)
    saver({"step": 1})
    saver.record(FinishedGame("tokyo", 1, (), "T", (80,), 80, 2))
    saver.close({"step": 2})
    again = Store.open(tmp_path).store
    assert again.load() == {"step": 2} and len(again.finished_games()) == 1
    unwritten = Saver(Store.open(tmp_path).store, writable=False, log=lambda line: None)
    unwritten.close({"step": 3})  # a run that may not write never does, even at the end
    assert Store.open(tmp_path).store.load() == {"step": 2}


def test_a_damage_notice_leaves_the_file_only_after_a_press_showed_it(tmp_path):
    from nsdevice.inputs.events import Press

    (tmp_path / "nsdevice.sqlite3").write_bytes(b"not a store at all" * 300)

    def start():
        return open_game(
            tmp_path,
            fresh=lambda records: Session(Settings(), records=records),
            restore=lambda data, records: Session.restore(data, records=records),
            log=lambda line: None,
        )

    first = start()
    assert [key for key, _ in first.notices] == ["store_damaged"]
    second = start()  # killed with the notice up: said again
    assert second.notices == first.notices
    second.session.press(Press.parse("next"))  # the press that shows it takes it away
    second.saver(second.session.snapshot())
    third = start()
    assert third.notices == ()
