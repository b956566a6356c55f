"""The box speaks, end to end (issue 24): a scripted solo game in each language through the
real `nsdevice run --voice --language LANG`, heard through SDL's disk audio driver.

Every turn's JSON line carries a `say` that names its card in that language and the
underground count, and the sound SDL wrote holds, in order, the start of each utterance the
box was asked to say (the exact samples of its first clip): nothing said was left silent.
Each press waits until the last utterance is heard (a press cuts it off; SDL's disk driver
writes in real time). The five languages play one after another (about 70 s)."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

from benchmarks.reliability.bad_voice import first_samples, saved_game
from nsdevice.locale import LANGUAGES
from nsdevice.texts import words
from nsdevice.voice import phrase_text

HEARD = 60.0  # seconds an utterance may take to reach the sound file: only a voice that
# never plays waits this long; a loaded machine's slow one is waited for


def play(folder: Path, language: str) -> tuple[str, bytes]:
    """A solo game in `language`, its sound written by SDL's disk driver: the JSON lines and
    the sound. The presses come from the terminal's keys (a pipe), each once the last
    screen's utterance is heard in the sound file: a press cuts the utterance off, and SDL's
    disk driver keeps real time, so a fixed pace left a box on a loaded machine cut off
    before it was heard. An utterance never heard fails here, after HEARD seconds."""
    presses = saved_game(folder, seed="VOICE24")  # on its summary, as after the setup
    heard = folder / "heard.raw"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "disk",
           "SDL_DISKAUDIOFILE": str(heard), "LANG": "C"}  # fmt: skip
    command = [sys.executable, "-m", "nsdevice", "run", "--input", "keyboard", "--display",
               "json", "--state-dir", str(folder), "--voice", "--language", language]  # fmt: skip
    errors = (folder / "stderr.txt").open("w")
    box = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=errors, text=True, env=env)  # fmt: skip
    assert box.stdin is not None and box.stdout is not None
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(line) for line in box.stdout or ()])
    reader.start()
    out: list[str] = []
    position, last = 0, []
    try:
        for press in range(presses + 1):  # the first frame, then one for each NEXT
            screen = json.loads(lines.get(timeout=HEARD))
            out.append(json.dumps(screen))
            ids = [phrase["id"] for phrase in screen["say"]]
            if ids and ids != last:  # something new to say: wait until it is heard
                start = first_samples(language, ids[0])
                deadline = time.monotonic() + HEARD
                while (found := read(heard).find(start, position)) < 0:
                    assert time.monotonic() < deadline, (
                        f"{language}: {screen['screen']} not heard: {ids}"
                    )
                    time.sleep(0.02)
                position = found + 1
            last = ids or last
            if press < presses:
                box.stdin.write("n")
                box.stdin.flush()
        box.stdin.close()  # the end of the keys ends the run
        assert box.wait(timeout=HEARD) == 0, (language, (folder / "stderr.txt").read_text())
    finally:
        if box.poll() is None:
            box.kill()
            box.wait()
        errors.close()
        reader.join(timeout=5)
    return "\n".join(out), heard.read_bytes()


def read(path: Path) -> bytes:
    return path.read_bytes() if path.exists() else b""


def test_a_solo_game_is_said_and_heard_in_each_language(tmp_path: Path):
    # one box at a time: SDL's disk driver keeps time by sleeping, and boxes side by side
    # on a busy machine starve each other's sound thread
    for language in LANGUAGES:
        check_said_and_heard(language, *play(tmp_path / language, language))


def check_said_and_heard(language: str, out: str, recording: bytes) -> None:
    screens = [json.loads(line) for line in out.splitlines() if line.strip()]
    turns = [s for s in screens if s["screen"] == "turn"]
    assert "game_end" in [s["screen"] for s in screens]
    assert len(turns) >= 20  # four rounds of 5 to 10 turns
    said = words(language)
    for turn in turns:
        text = " ".join(phrase["text"] for phrase in turn["say"])
        card = turn["cards"][-1]
        face = said.symbol(card["symbol"]) if card["symbol"] else said.special(card["special"])
        assert face in text, (language, text)
        count = f"count.{turn['underground_seen']}.{turn['underground_total']}"
        assert phrase_text(count, language) in text
        assert turn["language"] == language

    position = 0
    last: list[str] = []
    for screen in screens:
        ids = [phrase["id"] for phrase in screen["say"]]
        if not ids or ids == last:
            continue  # nothing to say, or the same again: the box stays quiet
        last = ids
        found = recording.find(first_samples(language, ids[0]), position)
        assert found >= 0, f"{language}: {screen['screen']} not heard: {ids}"
        position = found + 1


def test_voice_and_language_from_the_command_line_are_kept_as_settings(tmp_path: Path):
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "LANG": "C"}

    def first_screen(*extra: str) -> dict:
        command = [sys.executable, "-m", "nsdevice", "run", "--input", "script", "--keys",
                   "", "--display", "json", "--state-dir", str(tmp_path), *extra]  # fmt: skip
        result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout.splitlines()[0])

    fresh = first_screen("--voice", "--language", "de")  # a fresh box: no game saved yet
    assert fresh["language"] == "de"
    again = first_screen()  # the next start remembers both
    assert again["language"] == "de"
    menu = [line for line in subprocess.run(
        [sys.executable, "-m", "nsdevice", "run", "--input", "script", "--keys", "next,menu",
         "--display", "json", "--state-dir", str(tmp_path)],
        capture_output=True, text=True, env=env, timeout=60,
    ).stdout.splitlines() if '"screen": "menu"' in line]  # fmt: skip
    rows = {row["key"]: row["value"] for row in json.loads(menu[-1])["rows"]}
    assert rows["voice"] == "on" and rows["volume"] == "5/5"
    switched = first_screen("--language", "it")  # a saved game takes the new language
    assert switched["language"] == "it"


def test_a_box_speaking_without_a_window_still_stops_on_sigterm(tmp_path: Path):
    """`systemctl stop` sends SIGTERM. SDL, once the mixer opened, took SIGTERM for a quit
    event only a window reads, so a box with the voice on and the JSON, text or SPI display
    ran on until systemd's SIGKILL 90 s later."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "LANG": "C"}
    env.pop("SDL_NO_SIGNAL_HANDLERS", None)
    command = [sys.executable, "-m", "nsdevice", "run", "--input", "script", "--keys",
               ",".join(["next"] * 100), "--pace", "0.2", "--display", "json", "--voice",
               "--state-dir", str(tmp_path)]  # fmt: skip
    box = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           env=env, text=True)  # fmt: skip
    try:
        assert box.stdout is not None
        for _ in range(3):  # the first frame, then presses: the mixer is open by now
            assert box.stdout.readline()
        box.terminate()
        assert box.wait(timeout=10) != 0  # ended by the signal, not by running out of keys
    finally:
        if box.poll() is None:
            box.kill()
            box.wait()


def test_a_broken_manifest_is_a_notice_at_start_and_the_game_goes_on(tmp_path, monkeypatch,
                                                                     capsys):  # fmt: skip
    """Issue 32: a voice manifest that cannot be read turned the voice's thread into an
    exception at the first card; now the box's first frame says so, and it plays on."""
    import shutil

    from nsdevice.cli import main
    from nsdevice.voice import clips

    copy = tmp_path / "clips"
    shutil.copytree(clips.folder(), copy)
    (copy / "manifest.json").write_text('{"clips": {"en": ', encoding="utf-8")
    monkeypatch.setattr(clips, "folder", lambda: copy)
    clips.manifest.cache_clear()
    try:
        status = main(["run", "--input", "script", "--keys", "next,next,next,next", "--display",
                       "json", "--voice", "--state-dir", str(tmp_path / "box")])  # fmt: skip
    finally:
        clips.manifest.cache_clear()
    out, err = capsys.readouterr()
    assert status == 0
    screens = [json.loads(line) for line in out.splitlines() if line.strip()]
    assert screens[0]["notice"] == "voice_broken"
    assert str(copy / "manifest.json") in screens[0]["detail"]
    assert [s["screen"] for s in screens[1:4]] == ["summary", "round_start", "turn"]
    assert [line for line in err.splitlines() if "voice" in line] == [
        f"nsdevice: voice off: {screens[0]['detail']}"
    ]
