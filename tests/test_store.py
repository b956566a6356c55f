"""SQLite persistence: every step committed, damaged files set aside, never a crash."""

from __future__ import annotations

import os
import sqlite3

from nsdevice.session import FinishedGame
from nsdevice.store import FILE_NAME, SCHEMA_VERSION, Store, state_directory


def test_state_directory_prefers_systemds_state_directory():
    assert str(state_directory({"STATE_DIRECTORY": "/var/lib/nsdevice:/x"})) == "/var/lib/nsdevice"
    assert str(state_directory({"XDG_STATE_HOME": "/s", "HOME": "/h"})) == "/s/nsdevice"


def test_snapshot_survives_reopening(tmp_path):
    opened = Store.open(tmp_path)
    assert opened.notice is None
    assert opened.store.load() is None
    assert opened.store.save({"version": 1, "screen": "turn"})
    assert not opened.store.save({"version": 1, "screen": "turn"})  # unchanged: no write
    opened.store.close()
    again = Store.open(tmp_path).store
    assert again.load() == {"version": 1, "screen": "turn"}
    assert again.integrity() == "ok"


def test_store_uses_wal_and_full_sync(tmp_path):
    store = Store.open(tmp_path).store
    store.save({"a": 1})
    connection = sqlite3.connect(tmp_path / FILE_NAME)
    assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def _damaged(tmp_path, damage) -> tuple:
    Store.open(tmp_path).store.close()
    path = tmp_path / FILE_NAME
    damage(path)
    opened = Store.open(tmp_path)
    return opened, sorted(p.name for p in tmp_path.iterdir() if ".damaged-" in p.name)


def test_truncated_file_is_set_aside_and_the_box_starts_fresh(tmp_path):
    def truncate(path):
        data = path.read_bytes()
        path.write_bytes(data[:100])

    opened, aside = _damaged(tmp_path, truncate)
    assert opened.notice is not None and opened.notice[0] == "store_damaged"
    assert aside and opened.store.load() is None


def test_random_bytes_are_set_aside(tmp_path):
    opened, aside = _damaged(tmp_path, lambda p: p.write_bytes(os.urandom(8192)))
    assert opened.notice[0] == "store_damaged" and aside
    opened.store.save({"fresh": True})
    assert opened.store.load() == {"fresh": True}


def test_wrong_schema_version_is_set_aside(tmp_path):
    def bump(path):
        connection = sqlite3.connect(path)
        connection.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'",
                           (str(SCHEMA_VERSION + 1),))  # fmt: skip
        connection.commit()
        connection.close()

    opened, aside = _damaged(tmp_path, bump)
    assert opened.notice[0] == "store_damaged" and aside


def test_someone_elses_database_is_set_aside(tmp_path):
    connection = sqlite3.connect(tmp_path / FILE_NAME)
    connection.execute("CREATE TABLE photos (id INTEGER)")
    connection.commit()
    connection.close()
    opened = Store.open(tmp_path)
    assert opened.notice[0] == "store_damaged"


def test_unwritable_directory_plays_without_saving(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    opened = Store.open(blocker / "state")
    assert opened.notice[0] == "store_unwritable"
    opened.store.save({"x": 1})
    assert opened.store.load() == {"x": 1}


def test_finished_games_give_the_solo_personal_best(tmp_path):
    store = Store.open(tmp_path).store
    assert store.best_solo("tokyo") is None
    for adjusted in (80, 95, 60):
        store.record(FinishedGame("tokyo", 1, ("objectives",), "A", (adjusted + 10,), adjusted, 3))
    store.record(FinishedGame("tokyo", 3, (), "B", (120, 90, 100), None, None))
    store.record(FinishedGame("paris", 1, (), "C", (150,), 150, 4))
    assert store.best_solo("tokyo") == 95
    assert store.best_solo("paris") == 150
    assert len(store.finished_games()) == 5


def test_every_step_carries_a_checksum_and_five_earlier_steps_are_kept(tmp_path):
    from nsdevice.store import KEEP, checksum

    store = Store.open(tmp_path).store
    for step in range(1, 12):
        store.save({"step": step})
    connection = sqlite3.connect(tmp_path / FILE_NAME)
    rows = connection.execute("SELECT serial, snapshot, checksum FROM steps ORDER BY serial")
    kept = [(serial, checksum(serial, text.encode()) == digest) for serial, text, digest in rows]
    assert kept == [(serial, True) for serial in range(11 - KEEP, 11)]
    (serial,) = connection.execute("SELECT serial FROM session").fetchone()
    assert serial == 11


def test_a_step_whose_checksum_fails_is_passed_over_and_the_rewind_said(tmp_path):
    store = Store.open(tmp_path).store
    for step in (1, 2, 3):
        store.save({"step": step})
    store.close()
    connection = sqlite3.connect(tmp_path / FILE_NAME)
    connection.execute("""UPDATE session SET snapshot = '{"step":9}'""")
    connection.commit()
    connection.close()
    opened = Store.open(tmp_path)
    assert opened.notice is not None and opened.notice[0] == "store_rewound"
    assert opened.restored == {"step": 2}
    again = Store.open(tmp_path)  # said once: the damaged row is gone, a copy kept aside
    assert again.notice is None and again.restored == {"step": 2}
    assert len([p for p in tmp_path.glob("*.damaged-*") if not p.name.endswith("-wal")]) == 1
