"""End to end: the real `nsdevice run` process, scripted presses in, JSON screens out.

These play whole games of every city with every module, and pull the plug (SIGKILL)
in the middle of play to check the box resumes on the same cards.
"""

from __future__ import annotations

import json
import os
import queue
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from nsdevice.inputs.events import Press
from nsdevice.inputs.keyboard import KEY_LABELS
from nsdevice.rules.cities import city as city_data
from nsdevice.session import Capabilities, Session
from nsdevice.store import FILE_NAME
from nsdevice.views import DEFAULT_PANEL

ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "LANG": "C"}
# the box reads the terminal's keys, so its labels name them
TERMINAL = Capabilities(panel=DEFAULT_PANEL.with_keys(KEY_LABELS))
ALL_MODULES = ("objectives", "special_stations", "city_gates", "pencil_powers")


def run_box(state: Path, keys: str, *extra: str) -> tuple[list[dict], subprocess.CompletedProcess]:
    command = [sys.executable, "-m", "nsdevice", "run", "--input", "script",
               "--display", "json", "--state-dir", str(state), "--keys", keys, *extra]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, env=ENV, timeout=60)
    screens = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    return screens, result


def setup_keys(city: str, players: int, modules: tuple[str, ...]) -> list[str]:
    """Presses that turn the default setup into the wanted one, then start: power-on shows
    the remembered setup's summary, one MENU away from the setup list."""
    cities = ["tokyo", "paris", "london"]
    keys = ["menu", "next"]  # the setup list, cursor to "city"
    keys += ["menu"] * ((cities.index(city) - cities.index("tokyo")) % 3)
    keys += ["next"]  # "players" (default 2)
    keys += ["menu"] * ((players - 2) % 5)  # 1, 2, 3, 4, a room, 1 …
    if players == 1 and city_data(city).own_pencil_order:
        keys += ["next"]  # "pencil order" (solo, where the city allows one's own): drawn
    for module in ALL_MODULES:
        keys.append("next")
        if module in modules:
            keys.append("menu")
    keys += ["next", "next", "next"]  # seed, language, back round to "start"
    keys.append("menu")
    return keys


def play_keys(players: int) -> list[str]:
    """Enough NEXT presses to reach the game end, then scores and the result."""
    keys = ["next"] * 60  # every turn of 4 rounds fits in 4 × 13 presses
    for seat in range(1, players + 1):  # totals 1, 2, …: no tie, so no best lines (C-12)
        keys += ["menu", "menu"] + ["next"] * seat + ["menu"]
    return keys


@pytest.mark.parametrize("city", ["tokyo", "paris", "london"])
@pytest.mark.parametrize("players", [1, 4])
def test_whole_game_with_every_module_end_to_end(tmp_path, city, players):
    keys = setup_keys(city, players, ALL_MODULES) + play_keys(players)
    screens, result = run_box(tmp_path, ",".join(keys))
    assert result.returncode == 0, result.stderr
    names = [s["screen"] for s in screens]
    assert names[:2] == ["summary", "setup"]
    summary = [s for s in screens if s["screen"] == "summary"][-1]
    assert (summary["city"], summary["players"]) == (city, players)
    assert summary["modules"] == list(ALL_MODULES)
    assert len(summary["objectives"]) == 2
    assert names.count("round_start") == 4
    assert names.count("round_end") == 4
    turns = [s for s in screens if s["screen"] == "turn"]
    assert all(1 <= len(t["cards"]) <= 2 for t in turns)
    assert all(t["pairing"] is not None for t in turns)  # special stations in every round
    assert sum(1 for t in turns if t["last"]) == 4
    result_screen = screens[-1]
    assert result_screen["screen"] == "result"
    if players == 1:
        assert result_screen["penalty"] == 40  # C-13: four modules
    else:
        assert result_screen["winners"]  # scores entered for every seat


def test_the_same_deal_code_replays_the_same_cards_D2(tmp_path):
    # setup rows: start, city, players, 4 modules, seed, language; type the code "B"
    typed = ["menu", *["next"] * 7, "menu", "menu", "next", "next", "menu", "menu"]
    keys = ",".join([*typed, *["back"] * 7, "menu", *["next"] * 8])
    first, _ = run_box(tmp_path / "a", keys)
    second, _ = run_box(tmp_path / "b", keys)
    cards = [[s["cards"] for s in run if s["screen"] == "turn"] for run in (first, second)]
    assert cards[0] and cards[0] == cards[1]
    assert [s for s in first if s["screen"] == "setup"][-1]["seed"] == "B"


def test_resume_after_a_clean_exit_lands_on_the_same_screen(tmp_path):
    screens, _ = run_box(tmp_path, "next,next,next,next")
    again, result = run_box(tmp_path, "next")
    assert result.returncode == 0
    assert {**again[0], "chime": None} == {**screens[-1], "chime": None}
    assert again[1]["turn"] == screens[-1]["turn"] + 1


def test_first_card_after_exactly_two_next_from_a_fresh_state_dir(tmp_path):
    screens, result = run_box(tmp_path, "next,next")
    assert result.returncode == 0, result.stderr
    assert [s["screen"] for s in screens] == ["summary", "round_start", "turn"]
    assert screens[-1]["turn"] == 1 and len(screens[-1]["cards"]) >= 1


def test_bad_keys_are_one_line_and_exit_2(tmp_path):
    _, result = run_box(tmp_path, "next,jump")
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stdout == ""


def test_damaged_database_gives_a_notice_and_a_fresh_start(tmp_path):
    (tmp_path / FILE_NAME).write_bytes(os.urandom(4096))
    screens, result = run_box(tmp_path, "next")
    assert result.returncode == 0
    assert screens[0]["screen"] == "notice" and screens[0]["notice"] == "store_damaged"
    assert screens[1]["screen"] == "summary"  # a fresh game of the default setup
    assert any(".damaged-" in p.name for p in tmp_path.iterdir())


class Box:
    """An interactive `nsdevice run` on a pipe: keys in through the terminal-key input."""

    def __init__(self, state: Path) -> None:
        command = [sys.executable, "-m", "nsdevice", "run", "--input", "keyboard",
                   "--display", "json", "--state-dir", str(state)]  # fmt: skip
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, env=ENV, bufsize=1,
        )  # fmt: skip
        self.lines: queue.Queue[dict] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            if line.strip():
                self.lines.put(json.loads(line))

    def next_screen(self, timeout: float = 10) -> dict:
        return self.lines.get(timeout=timeout)

    def send(self, character: str) -> None:
        self.process.stdin.write(character)
        self.process.stdin.flush()

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)


KEY_CHARACTERS = {"next": "n", "back": "b", "menu": "m"}


def _plain(screen: dict) -> dict:
    # the chime and the spoken "say" are derived from the rest of the line, not saved
    return {**screen, "chime": None, "say": None}


def test_pulling_the_plug_mid_game_resumes_on_the_same_cards(tmp_path):
    """Kill -9 right after a press, at random moments: the box comes back on the screen it
    showed before that press or the one the press led to, with the same cards."""
    rng = random.Random(20261122)
    box = Box(tmp_path)
    shown = box.next_screen()
    for word in ("next", "next"):
        box.send(KEY_CHARACTERS[word])
        shown = box.next_screen()
    assert shown["screen"] == "turn"
    for _ in range(8):
        model = Session.restore(
            json.loads(_snapshot_showing(tmp_path, shown)), capabilities=TERMINAL
        )
        assert _plain(model.view().as_dict()) == _plain(shown)
        word = rng.choice(["next"] * 5 + ["back"])
        model.press(Press.parse(word))
        after = _plain(model.view().as_dict())
        box.send(KEY_CHARACTERS[word])
        if rng.random() < 0.5:
            box.next_screen() if after != _plain(shown) else None
        box.kill()
        database = sqlite3.connect(tmp_path / FILE_NAME)
        assert database.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        database.close()
        box = Box(tmp_path)
        resumed = _plain(box.next_screen())
        assert resumed in (_plain(shown), after)
        shown = resumed
        for word in rng.choices(["next", "next", "back"], k=rng.randint(0, 3)):
            model = Session.restore(json.loads(_snapshot_showing(tmp_path, shown)))
            before = _plain(model.view().as_dict())
            model.press(Press.parse(word))
            box.send(KEY_CHARACTERS[word])
            if _plain(model.view().as_dict()) != before:
                shown = _plain(box.next_screen())
    box.kill()


def _snapshot_showing(state: Path, shown: dict, timeout: float = 5.0) -> str:
    """The saved snapshot once it shows `shown`: the box draws a press's frame before it
    saves the press (picture first), so the save lands a moment after the screen."""
    deadline = time.monotonic() + timeout
    while True:
        snapshot = _snapshot(state)
        # with the terminal's button places, as the box drew it (else no view ever matches)
        view = Session.restore(json.loads(snapshot), capabilities=TERMINAL).view().as_dict()
        if _plain(view) == _plain(shown):
            return snapshot
        assert time.monotonic() < deadline, f"no save shows {shown['screen']} within {timeout} s"
        time.sleep(0.005)


def _snapshot(state: Path) -> str:
    database = sqlite3.connect(f"file:{state / FILE_NAME}?mode=ro", uri=True)
    try:
        return database.execute("SELECT snapshot FROM session").fetchone()[0]
    finally:
        database.close()


def test_an_upgraded_store_shows_its_games_on_the_history_page_end_to_end(tmp_path):
    """A version-2 store (tests/data, written by the code at 6e659dd) under the real box:
    it resumes the saved game, and the menu's history lists the games finished before."""
    import shutil

    shutil.copyfile(Path(__file__).parent / "data" / "store-v2.sqlite3", tmp_path / FILE_NAME)
    # the menu's cursor starts on "resume": BACK twice goes round to "about", then "history"
    screens, result = run_box(tmp_path, "menu,back,back,menu,next,next,next,menu")
    assert result.returncode == 0, result.stderr
    assert screens[0]["screen"] == "turn"  # the saved game, resumed
    pages = [s for s in screens if s["screen"] == "history"]
    assert [(p["page"], p["section"], p["city"]) for p in pages] == [
        (1, "games", "tokyo"), (2, "games", "paris"), (3, "games", "london"), (4, "bests", "")
    ]
    assert [g["adjusted"] for g in pages[0]["games"]] == [107, 98, 121]
    assert pages[1]["games"][0]["winners"] == [2] and pages[2]["games"][0]["winners"] == [1, 2]
    assert screens[-1]["screen"] == "menu"  # MENU: back to the menu
    with sqlite3.connect(tmp_path / FILE_NAME) as connection:
        version = connection.execute("SELECT value FROM meta WHERE key='schema_version'")
        assert version.fetchone()[0] == "4"
