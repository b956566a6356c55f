"""The box speaks, end to end (issue 24): a scripted solo game in each language through the
real `nsdevice run --voice --language LANG`, heard through SDL's disk audio driver.

Every turn's JSON line carries a `say` that names its card in that language and the
underground count, and the sound SDL wrote holds, in order, the start of each utterance the
box was asked to say (the exact samples of its first clip): nothing said was left silent.
The script is paced (`--pace`) so that each utterance is heard for a moment before the next
press cuts it off; SDL's disk driver writes in real time."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from nsdevice.locale import LANGUAGES
from nsdevice.texts import words
from nsdevice.voice import phrase_text
from nsdevice.voice.clips import clip_bytes

PACE = 0.12  # seconds between presses: the first ~0.1 s of each utterance is heard


def solo_setup_keys() -> list[str]:
    """From the power-on summary of a fresh box (2 players) to a solo Tokyo game."""
    keys = ["menu", "next"]  # the setup list, cursor on "city": Tokyo already
    keys += ["next"] + ["menu"] * 3  # "players": 2 → 3 → 4 → 1
    keys += ["next"]  # "pencil order": drawn
    keys += ["next"] * 4  # the four modules: all off
    keys += ["next", "next", "next"]  # deal, language, back round to "start"
    keys.append("menu")
    return keys


def first_samples(language: str, phrase_id: str, raw: bytes | None = None) -> bytes:
    """A short stretch of the clip's samples as the box's mixer decodes them."""
    import pygame

    pygame.mixer.init(frequency=22050, size=-16, channels=1, buffer=512)
    data = clip_bytes(language, phrase_id)
    assert data is not None
    samples = pygame.mixer.Sound(io.BytesIO(data)).get_raw()
    return samples[882:1394]  # 256 samples from 20 ms in: past any gentle onset


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_solo_game_is_said_and_heard_in_each_language(tmp_path: Path, language: str):
    heard = tmp_path / "heard.raw"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "disk",
           "SDL_DISKAUDIOFILE": str(heard), "LANG": "C"}  # fmt: skip
    keys = solo_setup_keys() + ["next"] * 52  # every turn of the four rounds, to game end
    command = [sys.executable, "-m", "nsdevice", "run", "--input", "script", "--display",
               "json", "--state-dir", str(tmp_path), "--voice", "--language", language,
               "--pace", str(PACE), "--keys", ",".join(keys)]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    screens = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
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

    recording = heard.read_bytes()
    position = 0
    last: list[str] = []
    for screen in screens:
        ids = [phrase["id"] for phrase in screen["say"]]
        if not ids or ids == last:
            continue  # nothing to say, or the same again: the box stays quiet
        last = ids
        found = recording.find(first_samples(language, ids[0]), position)
        assert found >= 0, f"{screen['screen']} not heard: {ids}"
        position = found + 1
