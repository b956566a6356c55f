"""Picture first: a press's frame is drawn before its save, and a real kill between the
two costs at most that one step on resume.

The kill is real: a `sitecustomize` module, put on the PYTHONPATH of a real
`nsdevice run` process, wraps `Store.save` so that the chosen save SIGKILLs its own
process before it commits. Nothing in the box knows about the hook.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from nsdevice.box.loop import Loop
from nsdevice.displays import Display
from nsdevice.inputs.events import ButtonTracker, Press, QueueInbox
from nsdevice.session import FinishedGame, Session, Settings
from nsdevice.store import FILE_NAME, Store

ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "LANG": "C"}
KILL_AT_SAVE = "NSDEVICE_TEST_KILL_AT_SAVE"  # read only by the hook below, never by the box

HOOK = f'''
import os, signal
import nsdevice.store

_save = nsdevice.store.Store.save
_calls = [0]


def save(self, snapshot):
    _calls[0] += 1
    if _calls[0] == int(os.environ["{KILL_AT_SAVE}"]):
        os.kill(os.getpid(), signal.SIGKILL)  # the plug pulled just before the commit
    return _save(self, snapshot)


nsdevice.store.Store.save = save
'''

# A fresh box deals the remembered setup and saves that deal at once (the first save);
# then every press is one save.
DEAL_SAVES = 1


def run_box(state: Path, keys: list[str], env: dict[str, str]) -> tuple[list[dict], int]:
    command = [sys.executable, "-m", "nsdevice", "run", "--input", "script", "--display", "json",
               "--state-dir", str(state), "--keys", ",".join(keys)]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)
    screens = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    return screens, result.returncode


def without_chime(screen: dict) -> dict:
    return {key: value for key, value in screen.items() if key != "chime"}  # not saved


def test_a_kill_between_draw_and_save_shows_the_step_and_resumes_one_step_earlier(tmp_path):
    # round start, then four turns: no deal can end a round within four cards (C-4 needs
    # five underground), so the script ends on a turn whatever the seed
    keys = ["next"] * 5
    # every press of this script changes the screen: one frame per press, after the first
    whole, status = run_box(tmp_path / "whole", keys, ENV)
    assert status == 0
    assert len(whole) == len(keys) + 1
    assert whole[-1]["screen"] == "turn"

    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(HOOK)
    doomed = 5  # the fifth press, mid-game on a turn: its save is killed
    env = {**ENV, "PYTHONPATH": str(hook), KILL_AT_SAVE: str(DEAL_SAVES + doomed)}
    shown, status = run_box(tmp_path / "killed", keys, env)
    assert status == -signal.SIGKILL
    # the frame of the press whose save never happened was on the screen first
    assert len(shown) == doomed + 1
    assert [s["screen"] for s in shown] == [s["screen"] for s in whole[: doomed + 1]]

    resumed, status = run_box(tmp_path / "killed", [], ENV)
    assert status == 0
    # the last committed step is the one before the killed save's: one step back, no more
    assert without_chime(resumed[0]) == without_chime(shown[doomed - 1])
    assert without_chime(resumed[0]) != without_chime(shown[doomed])


def test_the_save_of_each_press_ends_before_the_next_press_is_handled():
    order: list[str] = []

    class Recorder(Display):
        def show(self, view) -> None:
            order.append("draw")

    session = Session(Settings(players=2), seed_source=lambda: "ORDER")
    inbox = QueueInbox()
    loop = Loop(session, Recorder(), inbox, ButtonTracker(), save=lambda s: order.append("save"))
    loop.draw()
    for word in ("menu", "next", "next"):
        loop.handle(Press.parse(word))
    assert order == ["draw"] + ["draw", "save"] * 3


def test_a_phones_score_is_drawn_before_it_is_saved():
    """A score from a phone changes the screen like a press: its frame first, then the
    save (DESIGN: the frame never waits for the disk)."""
    from nsdevice.inputs.events import Scored
    from tests.test_web import to_game_end, tokyo

    order: list[str] = []

    class Recorder(Display):
        def show(self, view) -> None:
            order.append(f"draw {view.screen}")

    session = tokyo(players=2)
    to_game_end(session)
    loop = Loop(session, Recorder(), QueueInbox(), ButtonTracker(),
                save=lambda snapshot: order.append("save"),
                publish=lambda table: order.append(f"publish {table.seats_in}"))  # fmt: skip
    loop.draw()
    order.clear()
    loop.score(Scored(1, 50, 20, session.game))  # the box's screen stays; the table changes
    assert order == ["publish (1,)", "save"]
    order.clear()
    loop.score(Scored(2, 60, 25, session.game))  # the last seat: the result goes up
    assert order[:3] == ["draw result", "publish (1, 2)", "save"]


def test_a_notice_the_save_raises_reaches_the_screen():
    """A saver that fails tells the session; that notice must not wait for the next press."""
    shown: list[str] = []

    class Recorder(Display):
        def show(self, view) -> None:
            shown.append(view.screen)

    session = Session(Settings(players=2), seed_source=lambda: "NOTICE")

    def failing_save(snapshot: dict) -> None:
        session.notices.append(("store_damaged", "state.db.damaged"))

    loop = Loop(session, Recorder(), QueueInbox(), ButtonTracker(), save=failing_save)
    loop.draw()
    loop.handle(Press.parse("menu"))
    assert shown[-2] != "notice"
    assert shown[-1] == "notice"


def test_a_finished_game_is_committed_with_the_next_save_not_before_the_result_frame(tmp_path):
    """The session records a finished game while handling the press that shows the
    result; the store keeps it for the save after that frame, in the same transaction."""
    store = Store.open(tmp_path).store
    store.record(FinishedGame("tokyo", 1, (), "A", (120,), 110, 3))
    reader = sqlite3.connect(tmp_path / FILE_NAME)

    def committed() -> int:
        return reader.execute("SELECT COUNT(*) FROM finished_games").fetchone()[0]

    assert committed() == 0
    assert store.save({"screen": "result"}) is True
    assert committed() == 1
    assert store.save({"screen": "result"}) is False  # nothing new: no write
    store.record(FinishedGame("paris", 2, (), "B", (90, 80), None, None))
    assert [game["city"] for game in store.finished_games()] == ["tokyo", "paris"]
    store.close()
    reader.close()
