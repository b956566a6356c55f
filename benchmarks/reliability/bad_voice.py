"""`bad_voice`: a clip lost or damaged, or a broken manifest, never silences the box (issue 32).

For each damage (a clip deleted, cut in half, cut after its Ogg header, overwritten with
garbage; the manifest broken) a copy of the clips is damaged and a real `nsdevice run
--voice` plays a saved solo game on it, paced, its sound written by SDL's disk audio
driver. The damaged clips are `kind.street`, said on most cards, and one symbol's name.
What must hold: the box ends normally with no traceback; each damaged clip is one log line
however often it is needed; every later utterance whose first clip is whole is heard, in
order (its first clip's samples are found in the recording). A broken manifest is a notice
on the first frame and one log line, and the next start with the manifest mended speaks.
"""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from benchmarks.reliability.harness import ENV, ROOT, Report, working_folder

PACE = 0.4  # seconds between presses: each utterance is heard before the next
DAMAGED = ("kind.street", "symbol.square")
DAMAGES = ("deleted", "truncated", "cut_after_header", "garbage", "manifest")
RUNNER = [sys.executable, "-m", "benchmarks.reliability.bad_voice"]


def damage(clips: Path, kind: str, language: str) -> None:
    from nsdevice.voice.clips import MANIFEST

    if kind == "manifest":
        (clips / MANIFEST).write_text('{"engine": "espeak-ng", "clips": {"en": ', "utf-8")
        return
    entries = json.loads((clips / MANIFEST).read_text("utf-8"))["clips"][language]
    for phrase_id in DAMAGED:
        path = clips / entries[phrase_id]["file"]
        data = path.read_bytes()
        if kind == "deleted":
            path.unlink()
        elif kind == "truncated":
            path.write_bytes(data[: len(data) // 2])
        elif kind == "cut_after_header":
            path.write_bytes(data[:4000])
        else:
            path.write_bytes(random.Random(phrase_id).randbytes(len(data)))


def saved_game(folder: Path, seed: str = "VOICE32") -> int:
    """A solo Tokyo game dealt and saved on its summary, as after the setup; the NEXTs to
    its end."""
    from nsdevice.inputs.events import Button, Press
    from nsdevice.session import Session, Settings
    from nsdevice.store import Store

    session = Session(Settings(city="tokyo", players=1), seed_source=lambda: seed)
    session.deal_new_game()
    store = Store.open(folder).store
    store.save(session.snapshot())
    store.close()
    presses = 0
    while session.screen != "game_end":
        session.press(Press(Button.NEXT))
        presses += 1
    return presses


def first_samples(language: str, phrase_id: str) -> bytes:
    """A short stretch of the clip's samples as the box's mixer decodes them: 256 samples
    from 20 ms in, past any gentle onset."""
    import pygame

    from nsdevice.voice.clips import clip_bytes

    pygame.mixer.init(frequency=22050, size=-16, channels=1, buffer=512)
    data = clip_bytes(language, phrase_id)
    assert data is not None
    return pygame.mixer.Sound(io.BytesIO(data)).get_raw()[882:1394]


def play(clips: Path, state: Path, language: str, presses: int) -> tuple[list[dict[str, Any]],
                                                                          list[str], bytes, int]:
    heard = state / "heard.raw"
    env = {**ENV, "SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": str(heard)}
    command = [*RUNNER, str(clips), "run", "--input", "script", "--display", "json",
               "--state-dir", str(state), "--voice", "--language", language,
               "--pace", str(PACE), "--keys", ",".join(["next"] * presses)]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT,
                            timeout=60 + presses * PACE * 4)  # fmt: skip
    screens = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    recording = heard.read_bytes() if heard.exists() else b""
    return screens, result.stderr.splitlines(), recording, result.returncode


def heard_in_order(
    screens: list[dict[str, Any]], recording: bytes, language: str
) -> tuple[int, int, int]:
    """(utterances heard, missed, heard after the first one that needed a damaged clip):
    each utterance whose first clip is whole, looked for in order. The last screen is not
    judged: the box ends right after its press, and may close the mixer before SDL's disk
    driver has written a whole clip of it."""
    position, last = 0, []
    heard = missed = heard_after = 0
    damaged_yet = False
    for screen in screens[:-1]:
        ids = [phrase["id"] for phrase in screen.get("say") or []]
        if not ids or ids == last:
            continue
        last = ids
        if ids[0] not in DAMAGED:
            found = recording.find(first_samples(language, ids[0]), position)
            if found < 0:
                missed += 1
            else:
                position, heard = found + 1, heard + 1
                heard_after += damaged_yet
        damaged_yet = damaged_yet or any(phrase_id in DAMAGED for phrase_id in ids)
    return heard, missed, heard_after


def bad_voice(
    *, presses: int = 14, languages: tuple[str, ...] = ("en",), workdir: Path | None = None
) -> Report:
    from nsdevice.voice.clips import folder as package_clips

    report = Report("bad_voice")
    with working_folder(workdir) as base:
        for language in languages:
            for kind in DAMAGES:
                case = f"{language}/{kind}"
                clips, state = base / language / kind / "clips", base / language / kind / "box"
                shutil.copytree(package_clips(), clips)
                state.mkdir(parents=True)
                presses_in_game = saved_game(state)
                damage(clips, kind, language)
                count = min(presses, presses_in_game)
                screens, log, recording, status = play(clips, state, language, count)
                report.add("runs")
                voice_lines = [line for line in log if "voice" in line]
                if status != 0 or any("Traceback" in line for line in log):
                    report.fail(f"{case}: exit {status}: {log[-3:]}")
                    continue
                if kind == "manifest":
                    if not screens or screens[0].get("notice") != "voice_broken":
                        report.fail(f"{case}: no notice on the first frame")
                    if len(voice_lines) != 1 or "voice off" not in voice_lines[0]:
                        report.fail(f"{case}: log {voice_lines}")
                    shutil.rmtree(clips)
                    shutil.copytree(package_clips(), clips)  # mended: the next start speaks
                    screens, log, recording, status = play(clips, state, language, 8)
                    report.add("runs")
                else:
                    report.add("damaged_clip_lines", len(voice_lines))
                    if len(voice_lines) > len(DAMAGED) or not all(
                        "is left out" in line for line in voice_lines
                    ):
                        report.fail(f"{case}: log {voice_lines}")
                heard, missed, heard_after = heard_in_order(screens, recording, language)
                report.add("utterances_heard", heard)
                # a machine too busy for SDL's real-time disk driver misses some: counted,
                # while the voice's giving up is a failure (nothing heard after the damage)
                report.add("utterances_missed", missed)
                if kind != "manifest" and heard_after == 0:
                    report.fail(f"{case}: nothing heard after the first damaged clip")
                if kind == "manifest" and heard == 0:
                    report.fail(f"{case}: nothing heard once the manifest was mended")
    return report


if __name__ == "__main__":
    # A box whose clips are a damaged copy: argv[1] is the copy, the rest `nsdevice`'s.
    from nsdevice.voice import clips as clips_module

    copy = Path(sys.argv[1])
    clips_module.folder = lambda: copy  # type: ignore[assignment]
    os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")
    from nsdevice.cli import main

    sys.exit(main(sys.argv[2:]))
