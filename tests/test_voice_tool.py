"""The clips' renderer (tools/voice.py): one speech level, peaks held under full scale, and
each edition's own pronunciation where espeak-ng gets a word wrong."""

from __future__ import annotations

import itertools
import json
import math
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nsdevice.locale import LANGUAGES
from nsdevice.texts import words
from nsdevice.voice import CATALOGUE, phrase_text
from nsdevice.voice.clips import folder
from tools import voice

ESPEAK = shutil.which("espeak-ng")
SOX = shutil.which("sox")
RATE = voice.SAMPLE_RATE

# How each edition says its joker card, in espeak-ng's phoneme notation (`espeak-ng -x`):
# German players say "Dschoker" (espeak-ng's German rules read "Yoker"), French players
# "jokère" (espeak-ng's French switches to its English voice for the word).
EDITION_JOKER = {
    "en": "dZ'oUk3",
    "es": "k,omoD'in",  # Comodín
    "de": "dZ'o:k3",
    "it": "dZ'OllI",  # Jolly
    "fr": "ZOk'Er",
}


BLOCK = int(RATE * voice.BLOCK_SECONDS)


def sine(amplitude: float, blocks: int, hertz: float = 441.0) -> list[float]:
    """A tone filling `blocks` of the level's 50 ms blocks exactly."""
    return [
        amplitude * voice.FULL_SCALE * math.sin(2 * math.pi * hertz * i / RATE)
        for i in range(blocks * BLOCK)
    ]


# --- levels -------------------------------------------------------------------------------
def test_the_speech_level_of_a_sine_is_its_rms_and_pauses_do_not_count():
    tone = sine(0.5, 20)  # RMS of a sine: amplitude / √2 → 20·log10(0.5/√2) = −9.03 dBFS
    assert voice.speech_level(tone) == pytest.approx(-9.03, abs=0.02)
    paused = tone + [0.0] * BLOCK * 60 + sine(10 ** (-60 / 20), 20)  # a hum under the gate
    assert voice.speech_level(paused) == pytest.approx(-9.03, abs=0.02)
    assert voice.speech_level([0.0] * RATE) == -math.inf


@given(
    st.lists(st.floats(min_value=-4 * 32768, max_value=4 * 32768), max_size=3000),
    st.floats(min_value=-12.0, max_value=-0.1),
)
def test_the_limiter_holds_every_sample_under_its_ceiling(samples, ceiling):
    held = voice.limited(samples, ceiling)
    assert len(held) == len(samples)
    assert voice.peak(held) <= ceiling + 0.01  # one step of rounding to an integer


def test_the_limiter_leaves_quiet_speech_alone_and_eases_into_a_peak():
    quiet = sine(0.5, 2)  # −6 dBFS peaks under a −1 dBFS ceiling
    assert list(voice.limited(quiet, -1.0)) == [round(s) for s in quiet]
    loud = [10000.0] * 2000 + [40000.0] + [10000.0] * 2000
    held = voice.limited(loud, -1.0)
    assert voice.peak(held) <= -1.0 + 0.01
    gains = [h / s for h, s in zip(held, loud, strict=True)]
    steps = [abs(a - b) for a, b in itertools.pairwise(gains)]
    assert max(steps) < 0.05  # brought down over the look-ahead, not in one jump
    assert min(gains[:1900]) == 1 and min(gains[-900:]) == 1  # and only around the peak


# --- pronunciation ------------------------------------------------------------------------
def phonemes(text: str, language: str) -> str:
    assert ESPEAK is not None
    said = subprocess.run(
        [ESPEAK, "-q", "-x", "-v", voice.VOICES[language], "--", voice.spoken(text, language)],
        capture_output=True,
        text=True,
        check=True,
    )
    return " ".join(said.stdout.split())


@pytest.mark.skipif(ESPEAK is None, reason="espeak-ng is not installed")
@pytest.mark.parametrize("language", LANGUAGES)
def test_each_edition_says_its_joker_its_own_way_C6(language):
    joker = words(language).special("joker")
    texts = sorted({phrase_text(i, language) for i in CATALOGUE} - {""})
    texts = [text for text in texts if joker in text]
    assert texts, f"no phrase of {language} names the joker"
    for text in texts:
        said = phonemes(text, language)
        assert EDITION_JOKER[language] in said, (text, said)
        assert "(" not in said, f"espeak-ng changes language in {text!r}: {said}"


def test_the_shipped_clips_were_given_the_pronunciations():
    entries = json.loads((folder() / "manifest.json").read_text(encoding="utf-8"))["clips"]
    overridden = 0
    for language, clips in entries.items():
        for phrase_id, clip in clips.items():
            wanted = voice.spoken(clip["text"], language)
            assert clip.get("spoken", clip["text"]) == wanted, (language, phrase_id)
            overridden += wanted != clip["text"]
    assert overridden, "no clip needed a pronunciation: the check above checked nothing"


# --- rendering ----------------------------------------------------------------------------
@pytest.mark.skipif(ESPEAK is None or SOX is None, reason="espeak-ng or sox is not installed")
def test_a_clip_is_rendered_at_the_speech_level_with_headroom(tmp_path: Path):
    target = tmp_path / "fr" / "pairing.ogg"
    text = phrase_text("pairing.square.joker_double_track", "fr")
    with voice.box_mixer() as mixer:
        seconds = voice.render(text, "fr", target, mixer)
        samples = voice.decoded(mixer, target)
    assert seconds == pytest.approx(len(samples) / RATE, abs=0.05)
    assert voice.speech_level(samples) == pytest.approx(voice.SPEECH_LEVEL, abs=0.5)
    assert voice.peak(samples) < voice.DECODED_CEILING
