"""SQLite persistence: every step committed, damaged files set aside, never a crash."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
from datetime import date
from pathlib import Path

from nsdevice.session import FinishedGame
from nsdevice.store import FILE_NAME, SCHEMA_VERSION, Store, state_directory
from nsdevice.texts import words
from nsdevice.texts.pages.history import played


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


def test_the_solo_personal_best_is_per_city_and_module_set_C13(tmp_path):
    store = Store.open(tmp_path).store
    assert store.best_solo("tokyo", ()) is None
    for adjusted in (80, 95, 60):
        store.record(FinishedGame("tokyo", 1, ("objectives",), "A", (adjusted + 10,), adjusted, 3))
    store.record(FinishedGame("tokyo", 1, (), "D", (88,), 88, 3))
    store.record(FinishedGame("tokyo", 3, (), "B", (120, 90, 100), None, None, winners=(1,)))
    store.record(FinishedGame("paris", 1, (), "C", (150,), 150, 4))
    assert store.best_solo("tokyo", ("objectives",)) == 95  # waiting for the next save
    assert store.best_solo("tokyo", ()) == 88  # not the 95 played with a module
    assert store.best_solo("tokyo", ("objectives", "city_gates")) is None
    assert store.best_solo("paris", ()) == 150
    store.save({"step": 1})  # the finished games are committed with this step
    assert store.best_solo("tokyo", ("objectives",)) == 95
    assert store.best_solo("tokyo", ()) == 88
    assert len(store.finished_games()) == 6


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


# --- the history and the schema's upgrades ---------------------------------------------------
# tests/data/store-v2.sqlite3 was written by the store at 6e659dd (schema version 2): five
# finished games (three solo Tokyo, a Paris table of three, a London tie) and a saved step.
VERSION_2 = Path(__file__).parent / "data" / "store-v2.sqlite3"


def _raw_games(path: Path) -> list[tuple]:
    with contextlib.closing(sqlite3.connect(path)) as connection:
        return connection.execute(
            "SELECT id, finished_at, city, players, modules, seed, totals, adjusted, tier"
            " FROM finished_games ORDER BY id"
        ).fetchall()


def _schema_version(path: Path) -> str:
    with contextlib.closing(sqlite3.connect(path)) as connection:
        return connection.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0]


def test_a_version_2_store_opens_with_its_finished_games_in_the_history(tmp_path):
    shutil.copyfile(VERSION_2, tmp_path / FILE_NAME)
    before = _raw_games(tmp_path / FILE_NAME)
    assert _schema_version(tmp_path / FILE_NAME) == "2" and len(before) == 5
    with contextlib.closing(sqlite3.connect(tmp_path / FILE_NAME)) as connection:
        saved_step = connection.execute("SELECT snapshot FROM session").fetchone()[0]

    opened = Store.open(tmp_path)
    assert opened.notice is None  # an upgrade, not damage: nothing set aside
    assert not [p for p in tmp_path.iterdir() if ".damaged-" in p.name]
    assert opened.store.load() == json.loads(saved_step)  # the game in progress is kept
    history = opened.store.history()
    opened.store.close()

    assert _schema_version(tmp_path / FILE_NAME) == str(SCHEMA_VERSION) == "4"
    assert _raw_games(tmp_path / FILE_NAME) == before  # every value as it was
    newest_first = list(reversed(before))
    assert [(g.city, g.players, g.totals) for g in history.games] == [
        (city, players, tuple(json.loads(totals)))
        for _, _, city, players, _, _, totals, _, _ in newest_first
    ]
    assert [g.played_on for g in history.games] == [
        date.fromtimestamp(row[1]).isoformat() for row in newest_first
    ]
    tokyo = [g for g in history.games if g.city == "tokyo"]
    assert [(g.adjusted, g.tier, g.modules) for g in tokyo] == [
        (107, 4, ("objectives",)), (98, 3, ()), (121, 5, ("objectives",))
    ]
    # no winners were kept before version 3: read from the totals, a tie shared
    assert next(g for g in history.games if g.city == "paris").winners == (2,)
    assert next(g for g in history.games if g.city == "london").winners == (1, 2)
    assert all(g.daily is None for g in history.games) and history.daily_days == ()
    assert [(b.city, b.modules, b.adjusted) for b in history.bests] == [
        ("tokyo", (), 98), ("tokyo", ("objectives",), 121)
    ]


def test_a_version_1_store_is_brought_up_to_version_4_with_its_games(tmp_path):
    path = tmp_path / FILE_NAME
    with contextlib.closing(sqlite3.connect(path)) as connection:
        connection.executescript(  # version 1's schema, as the store wrote it before 4843431
            """
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE session (id INTEGER PRIMARY KEY CHECK (id = 1),
                snapshot TEXT NOT NULL, saved_at REAL NOT NULL);
            CREATE TABLE finished_games (id INTEGER PRIMARY KEY, finished_at REAL NOT NULL,
                city TEXT NOT NULL, players INTEGER NOT NULL, modules TEXT NOT NULL,
                seed TEXT NOT NULL, totals TEXT NOT NULL, adjusted INTEGER, tier INTEGER);
            INSERT INTO meta VALUES ('schema_version', '1');
            INSERT INTO session VALUES (1, '{"screen":"turn"}', 1.0);
            INSERT INTO finished_games VALUES
                (1, 1795000000.0, 'paris', 1, 'city_gates', 'OLD1', '[150]', 140, 3);
            """
        )
    before = _raw_games(path)
    opened = Store.open(tmp_path)
    assert opened.notice is None and opened.store.load() == {"screen": "turn"}
    history = opened.store.history()
    opened.store.close()
    assert _schema_version(path) == "4" and _raw_games(path) == before
    (game,) = history.games
    assert (game.city, game.adjusted, game.tier, game.modules) == ("paris", 140, 3, ("city_gates",))
    assert Store.open(tmp_path).store.best_solo("paris", ("city_gates",)) == 140


def test_a_version_3_store_gains_the_seats_names_and_keeps_its_games(tmp_path):
    """Issue 34: version 4 keeps each finished game's seats' names. A version 3 store (its
    schema as the store wrote it before) opens with its games as they were, named none;
    a game finished after names its winner in the history."""
    path = tmp_path / FILE_NAME
    with contextlib.closing(sqlite3.connect(path)) as connection:
        connection.executescript(
            """
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE session (id INTEGER PRIMARY KEY CHECK (id = 1),
                snapshot TEXT NOT NULL, saved_at REAL NOT NULL,
                serial INTEGER NOT NULL DEFAULT 0, checksum TEXT NOT NULL DEFAULT '');
            CREATE TABLE finished_games (id INTEGER PRIMARY KEY, finished_at REAL NOT NULL,
                city TEXT NOT NULL, players INTEGER NOT NULL, modules TEXT NOT NULL,
                seed TEXT NOT NULL, totals TEXT NOT NULL, adjusted INTEGER, tier INTEGER,
                daily TEXT, winners TEXT);
            INSERT INTO meta VALUES ('schema_version', '3');
            INSERT INTO finished_games VALUES
                (1, 1795000000.0, 'tokyo', 3, '', 'OLD3', '[120, 131, 99]', NULL, NULL,
                 NULL, '[2]');
            """
        )
    before = _raw_games(path)
    store = Store.open(tmp_path).store
    assert _schema_version(path) == "4" and _raw_games(path) == before
    (old,) = store.history().games
    assert (old.winners, old.names) == ((2,), ())
    store.record(FinishedGame("tokyo", 3, (), "NEW", (140, 90, 101), None, None, winners=(1,),
                              names=("Zoë", "", "Bo")))  # fmt: skip
    store.save({"step": 1})
    store.close()
    reopened = Store.open(tmp_path).store
    new = reopened.history().games[0]
    assert new.names == ("Zoë", "", "Bo")
    assert "Zoë won with 140" in played(words("en"), new)
    assert "seat 2 won with 131" in played(words("en"), old)
    reopened.close()


def test_the_history_keeps_the_last_games_per_city_and_daily_ones_apart(tmp_path):
    store = Store.open(tmp_path).store
    for number in range(7):  # seven Tokyo solo games: the history keeps the last five
        store.record(FinishedGame("tokyo", 1, (), f"T{number}", (70 + number,), 70 + number, 1))
    store.record(FinishedGame("paris", 2, (), "P", (120, 125), None, None, winners=(2,)))
    store.record(FinishedGame("london", 1, ("objectives",), "L1", (130,), 120, 3,
                              daily="2026-11-20"))  # fmt: skip
    store.save({"step": 1})
    store.record(FinishedGame("london", 1, (), "L2", (100,), 100, 2, daily="2026-11-21"))
    store.record(FinishedGame("tokyo", 3, (), "T9", (99, 99, 80), None, None, winners=(2,),
                              daily="2026-11-21"))  # fmt: skip
    history = store.history()  # the last two are waiting for the next save, and count
    store.save({"step": 2})
    assert store.history() == history  # the same once committed (on the same day)
    assert [g.city for g in history.games][:3] == ["tokyo", "london", "london"]
    tokyo = [g for g in history.games if g.city == "tokyo"]
    assert len(tokyo) == 5 and tokyo[0].winners == (2,)  # best line broke the tie: kept
    assert [g.adjusted for g in tokyo[1:]] == [76, 75, 74, 73]
    assert history.daily_days == ("2026-11-21", "2026-11-20")
    assert [(b.city, b.adjusted) for b in history.best_daily] == [("london", 120)]
    assert ("london", ("objectives",), 120) in [(b.city, b.modules, b.adjusted)
                                                for b in history.bests]  # fmt: skip
    assert [(g.city, g.totals) for g in store.history(limit=1).games] == [
        ("tokyo", (99, 99, 80)), ("london", (100,)), ("paris", (120, 125))
    ]


def test_close_commits_the_finished_games_still_waiting(tmp_path):
    """The last press's save may have failed: close() keeps the games it left waiting."""
    store = Store.open(tmp_path).store
    store.save({"step": 1})
    store.record(FinishedGame("paris", 2, (), "P", (90, 80), None, None))
    store.close()
    assert [g["seed"] for g in Store.open(tmp_path).store.finished_games()] == ["P"]


def test_close_with_the_last_step_commits_the_games_with_it(tmp_path):
    """A game committed without the step that recorded it would be recorded again after a
    restart (the step before still shows the game's end): close() saves both at once."""
    store = Store.open(tmp_path).store
    store.save({"step": 1})
    store.record(FinishedGame("tokyo", 1, (), "T", (80,), 80, 2))
    store.close({"step": 2, "recorded": True})
    again = Store.open(tmp_path).store
    assert again.load() == {"step": 2, "recorded": True}
    assert [g["seed"] for g in again.finished_games()] == ["T"]
    again.close({"step": 2, "recorded": True})  # nothing new: nothing written twice
    assert len(Store.open(tmp_path).store.finished_games()) == 1


def test_two_set_asides_in_the_same_second_keep_both_files(tmp_path, monkeypatch):
    from nsdevice.store import copy_aside, damage, set_aside

    # the time to the second, as a person reads it: the same for all four set-asides
    monkeypatch.setattr(damage.time, "strftime", {"%Y%m%d-%H%M%S": "20261124-031500"}.get)
    path = tmp_path / FILE_NAME
    kept = []
    for number, keep in enumerate((set_aside, copy_aside, set_aside, set_aside)):
        path.write_bytes(b"damaged %d" % number)
        Path(f"{path}-wal").write_bytes(b"log %d" % number)
        kept.append(keep(path))
    stamp = f"{FILE_NAME}.damaged-20261124-031500"
    assert [aside.name for aside in kept] == [stamp, f"{stamp}-1", f"{stamp}-2", f"{stamp}-3"]
    for number, aside in enumerate(kept):
        assert aside.read_bytes() == b"damaged %d" % number
        assert Path(f"{aside}-wal").read_bytes() == b"log %d" % number
    # a name taken only by an earlier file's log (or shared memory) is not taken again
    path.write_bytes(b"last")
    Path(f"{kept[0]}").unlink()
    Path(f"{kept[1]}").unlink()
    Path(f"{kept[1]}-wal").unlink()
    Path(f"{kept[1]}-shm").write_bytes(b"")
    assert set_aside(path).name == f"{stamp}-4"


def _renamed_steps_column(path: Path) -> None:
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("PRAGMA writable_schema = ON")
        db.execute("UPDATE sqlite_master SET sql = replace(sql, 'snapshot TEXT', 'snapshoT2 TEXT')"
                   " WHERE name = 'steps'")  # fmt: skip


def test_a_schema_sqlite_cannot_read_is_damage_set_aside_said_and_saving_goes_on(tmp_path):
    """'no such column: snapshot' is the file, not the card: the card takes writes."""
    store = Store.open(tmp_path).store
    store.save({"step": 1})
    store.close()
    _renamed_steps_column(tmp_path / FILE_NAME)
    opened = Store.open(tmp_path)
    assert opened.notice is not None and opened.notice[0] == "store_damaged" and opened.saving
    assert (tmp_path / opened.notice[1]).exists()  # kept aside for a person
    assert opened.store.save({"step": 2})
    again = Store.open(tmp_path)
    assert again.store.load() == {"step": 2}
    assert again.notices == (opened.notice,)  # not shown by a press yet: still said


def test_a_bit_flipped_in_each_byte_of_the_steps_schema_text_is_damage_or_harmless(tmp_path):
    from nsdevice.store import trouble

    original = tmp_path / "original"
    store = Store.open(original).store
    for step in range(1, 4):
        store.save({"step": step})
    store.close()
    data = (original / FILE_NAME).read_bytes()
    at = data.index(b"CREATE TABLE steps (")
    outcomes: dict[str, int] = {}
    # a bit of every byte (benchmarks/reliability/schema_flips.py --long tries all 160)
    for bit in [8 * at + (at * 3) % 8 for at in range(20)]:
        folder = tmp_path / f"flip-{bit}"
        folder.mkdir()
        flipped = bytearray(data)
        flipped[at + bit // 8] ^= 1 << (bit % 8)
        (folder / FILE_NAME).write_bytes(bytes(flipped))
        opened = Store.open(folder)
        if opened.notice is None:
            assert opened.restored == {"step": 3}, bit  # a harmless flip: the game as saved
            outcome = "held"
        else:
            assert opened.notice[0] == "store_damaged", (bit, opened.notice)
            outcome = "damaged"
        assert opened.saving
        assert opened.store.save({"step": 4}), bit
        opened.store.close()
        assert Store.open(folder).store.load() == {"step": 4}, bit
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    assert outcomes["damaged"] > 10 and outcomes.get("held", 0) > 0
    assert trouble(sqlite3.OperationalError("no such column: snapshot"), tmp_path / "x") is None


def test_trouble_is_told_by_code_and_by_trying_never_by_message(tmp_path):
    from nsdevice.store import StoreBusy, trouble

    def error(name: str, text: str = "whatever the message says") -> sqlite3.Error:
        failure = sqlite3.OperationalError(text)
        failure.sqlite_errorname = name  # type: ignore[attr-defined]
        return failure

    path = tmp_path / FILE_NAME
    assert trouble(error("SQLITE_CORRUPT", "disk is full"), path) is None
    assert trouble(error("SQLITE_NOTADB"), path) is None
    assert trouble(error("SQLITE_ERROR", "database or disk is full"), path) is None
    assert isinstance(trouble(error("SQLITE_BUSY"), path), StoreBusy)
    full = trouble(error("SQLITE_FULL", "malformed"), path)
    assert full is not None and full.notice == "store_full"
    assert trouble(error("SQLITE_READONLY", "malformed"), path) is not None
    # the card refuses a write beside the store (here: no folder there): cannot save now
    missing = trouble(error("SQLITE_ERROR"), tmp_path / "gone" / FILE_NAME)
    assert missing is not None and missing.notice == "store_unwritable"
    assert trouble(OSError(5, "Input/output error"), path) is not None
    assert trouble(UnicodeDecodeError("utf-8", b"\xff", 0, 1, "bad"), path) is None
    assert list(tmp_path.iterdir()) == []  # the trial write leaves nothing behind


def test_a_damage_notice_is_kept_in_the_file_until_a_press_has_shown_it(tmp_path):
    (tmp_path / FILE_NAME).write_bytes(os.urandom(4096))
    first = Store.open(tmp_path)
    assert first.notice is not None and first.notice[0] == "store_damaged"
    first.store.save({"step": 1})
    # killed before a press: the next start says it again, with what was saved
    second = Store.open(tmp_path)
    assert second.notices == (first.notice,) and second.restored == {"step": 1}
    second.store.shown([first.notice])  # a press showed it; the next save takes it out
    assert Store.open(tmp_path).notices == (first.notice,)  # not before that save
    assert second.store.save({"step": 1})  # nothing else changed: still written
    third = Store.open(tmp_path)
    assert third.notices == () and third.restored == {"step": 1}
    assert third.store.save({"step": 1}) is False  # and then nothing to write


def test_a_save_on_a_locked_store_fails_at_once_and_saves_once_let_go(tmp_path):
    import time

    from nsdevice.store import StoreBusy

    store = Store.open(tmp_path).store
    store.save({"step": 1})
    holder = sqlite3.connect(tmp_path / FILE_NAME, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    started = time.monotonic()
    try:
        store.save({"step": 2})
        raise AssertionError("saved through another connection's lock")
    except StoreBusy:
        pass
    assert time.monotonic() - started < 0.5  # never the 2 s a start waits
    holder.execute("ROLLBACK")
    assert store.save({"step": 2})
    assert Store.open(tmp_path).store.load() == {"step": 2}


def test_the_finished_games_list_each_saved_then_each_waiting_game_whole(tmp_path):
    store = Store.open(tmp_path).store
    store.record(FinishedGame("london", 1, ("city_gates", "objectives"), "L", (130,), 120, 4))
    store.save({"step": 1})
    store.record(FinishedGame("paris", 3, (), "P", (90, 80, 95), None, None, winners=(3,)))
    assert store.finished_games() == [
        {"city": "london", "players": 1, "modules": "objectives,city_gates", "seed": "L",
         "totals": "[130]", "adjusted": 120, "tier": 4},
        {"city": "paris", "players": 3, "modules": "", "seed": "P",
         "totals": "[90, 80, 95]", "adjusted": None, "tier": None},
    ]  # fmt: skip
    store.save({"step": 2})
    assert store.finished_games() == Store.open(tmp_path).store.finished_games()
    assert store.integrity() == "ok"


def test_the_state_folder_falls_back_to_the_xdg_state_home_then_the_home(monkeypatch):
    assert state_directory({"STATE_DIRECTORY": "", "XDG_STATE_HOME": "/s"}) == Path(
        "/s/nsdevice"
    )
    assert state_directory({}) == Path.home() / ".local" / "state" / "nsdevice"
    monkeypatch.setenv("STATE_DIRECTORY", "/run/state")
    assert state_directory() == Path("/run/state")  # the process's own environment


def test_a_store_kept_in_memory_saves_and_reads_but_writes_no_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    store = Store.in_memory()
    assert store.path is None and store.save({"step": 1}) and store.load() == {"step": 1}
    assert store.replace_damaged() == ""  # nothing to set aside: a fresh memory
    assert store.load() is None and store.save({"step": 2})
    assert list(tmp_path.iterdir()) == []


def test_a_store_that_breaks_while_running_is_set_aside_and_saving_goes_on(tmp_path):
    store = Store.open(tmp_path).store
    store.save({"step": 1})
    store.record(FinishedGame("tokyo", 1, (), "T", (80,), 80, 2))
    old_id = store.store_id
    aside = store.replace_damaged()
    assert (tmp_path / aside).exists() and aside.startswith(f"{FILE_NAME}.damaged-")
    assert store.store_id != old_id and store.serial == 0
    assert store.kept == [("store_damaged", aside)]
    assert store.save({"step": 1})  # the same step is written again, in the fresh file
    again = Store.open(tmp_path)
    assert again.restored == {"step": 1} and again.notices == (("store_damaged", aside),)
    assert [g["seed"] for g in again.store.finished_games()] == ["T"]


def test_an_upgrade_killed_midway_leaves_the_old_store_which_the_next_start_upgrades(tmp_path):
    """SIGKILL inside the upgrade's transaction, after its first ALTER TABLE: the file is
    the version 2 store it was, and the next start brings it up with every game."""
    import signal
    import subprocess
    import sys

    path = tmp_path / FILE_NAME
    shutil.copyfile(Path(__file__).parent / "data" / "store-v2.sqlite3", path)
    before = _raw_games(path)
    killer = (
        "import os, signal, sys\n"
        "from pathlib import Path\n"
        "from nsdevice.store import schema, Store\n"
        "real = schema._upgrade_from_2\n"
        "def killed(connection):\n"
        "    connection.execute('ALTER TABLE finished_games ADD COLUMN daily TEXT')\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        "schema._upgrade_from_2 = killed\n"
        "Store.open(Path(sys.argv[1]))\n"
    )
    done = subprocess.run([sys.executable, "-c", killer, str(tmp_path)], check=False)
    assert done.returncode == -signal.SIGKILL
    assert _schema_version(path) == "2"  # the transaction never committed
    opened = Store.open(tmp_path)
    assert opened.notice is None
    opened.store.close()
    assert _schema_version(path) == "4" and _raw_games(path) == before


def test_a_store_keeps_its_id_across_starts_and_two_stores_differ(tmp_path):
    first = Store.open(tmp_path / "one").store
    assert len(first.store_id) == 16 and int(first.store_id, 16) >= 0
    first.close()
    assert Store.open(tmp_path / "one").store.store_id == first.store_id
    assert Store.open(tmp_path / "two").store.store_id != first.store_id


def test_a_meta_table_without_a_schema_version_is_damage(tmp_path):
    with contextlib.closing(sqlite3.connect(tmp_path / FILE_NAME)) as connection:
        connection.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        connection.commit()
    opened = Store.open(tmp_path)
    assert opened.notice is not None and opened.notice[0] == "store_damaged"


def test_a_version_1_store_with_no_game_saved_is_upgraded_empty(tmp_path):
    with contextlib.closing(sqlite3.connect(tmp_path / FILE_NAME)) as connection:
        connection.executescript(
            """
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE session (id INTEGER PRIMARY KEY CHECK (id = 1),
                snapshot TEXT NOT NULL, saved_at REAL NOT NULL);
            INSERT INTO meta VALUES ('schema_version', '1');
            """
        )
    opened = Store.open(tmp_path)
    assert opened.notice is None and opened.restored is None
    assert _schema_version(tmp_path / FILE_NAME) == "4"


def test_the_canonical_text_of_a_step_sorts_its_keys_and_has_no_spaces():
    from nsdevice.store import canonical

    assert canonical({"b": 1, "a": [1, {"d": 2, "c": 3}]}) == '{"a":[1,{"c":3,"d":2}],"b":1}'


def test_a_lock_held_a_moment_at_the_end_is_waited_for_by_close(tmp_path):
    import threading
    import time

    store = Store.open(tmp_path).store
    store.save({"step": 1})
    holder = sqlite3.connect(tmp_path / FILE_NAME, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")
    threading.Timer(0.3, lambda: holder.execute("ROLLBACK")).start()
    started = time.monotonic()
    store.close({"step": 2})  # waits for the lock as a start does, not a press
    assert time.monotonic() - started >= 0.2
    holder.close()
    assert Store.open(tmp_path).store.load() == {"step": 2}


def test_a_damaged_file_that_cannot_be_set_aside_plays_in_memory_and_says_why(
    tmp_path, monkeypatch
):
    import errno

    from nsdevice.store import database

    def read_only(path):
        raise OSError(errno.EROFS, "Read-only file system")

    (tmp_path / FILE_NAME).write_bytes(b"not a store" * 500)
    monkeypatch.setattr(database, "set_aside", read_only)
    opened = Store.open(tmp_path)
    assert opened.notice == ("store_read_only", str(tmp_path)) and not opened.saving
    assert opened.store.path is None


def test_a_notice_shown_leaves_the_file_and_the_others_stay(tmp_path):
    store = Store.open(tmp_path).store
    store.announce(("store_damaged", "a"))
    store.announce(("store_rewound", "b"))
    store.announce(("store_damaged", "a"))  # said once, however often announced
    assert store.kept == [("store_damaged", "a"), ("store_rewound", "b")]
    store.shown([("store_damaged", "a")])
    store.save({"step": 1})
    assert Store.open(tmp_path).notices == (("store_rewound", "b"),)
