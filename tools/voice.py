#!/usr/bin/env python3
"""Render the box's speech: one Ogg Vorbis clip per phrase and language, and the manifest.

Usage: python tools/voice.py [--all] [--check] [--levels]

Every phrase of `nsdevice.voice.phrases.CATALOGUE` is spoken in each of the box's five
languages by espeak-ng (Debian main, GPL-3+: `apt-get install espeak-ng sox`), trimmed of
its leading and trailing silence, levelled and encoded by sox as Ogg Vorbis under
nsdevice/voice/clips/LANG/ID.ogg. nsdevice/voice/clips/manifest.json ties each phrase id and
language to its file, the words it says (and what espeak-ng was given, where a word is
spelt out as phonemes) and its length. A clip whose words are unchanged is kept as it is
(Vorbis files differ byte for byte on every encoding), so re-running after a catalog change
re-renders only what changed; `--all` renders everything again.
`--check` renders nothing and lists the clips that are missing or out of date (exit 1).
`--levels` renders nothing: it decodes every shipped clip as the box does and prints each
language's median speech level, the loudest peak and the clips at full scale.

Levels: espeak-ng's voices differ in loudness (French sat 1.3 dB under English) and its
loudest samples touch full scale. Each clip is brought to one speech level, `SPEECH_LEVEL`:
a gated RMS over 50 ms blocks, blocks quieter than `GATE` being pauses, not speech (the
gating of EBU R 128 without its K-weighting: `--levels` prints that as a cross-check).
Its peaks are then held under `CEILING` by a look-ahead limiter before encoding, since
Vorbis overshoots its input; what the box decodes is checked under `DECODED_CEILING`,
and a clip over it is encoded again from a lower ceiling.

The clips are committed: the box, CI and the phones need neither espeak-ng nor sox.
Why espeak-ng: it is free software in Debian main, speaks all five languages and is
clear if robotic; SVOX Pico sounds better but is in non-free.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import wave
from array import array
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from operator import mul
from pathlib import Path
from typing import Any

from nsdevice.box.speaker import SAMPLE_RATE  # the box's mixer's rate, and espeak-ng's own
from nsdevice.locale import LANGUAGES
from nsdevice.voice.phrases import CATALOGUE, phrase_text

ROOT = Path(__file__).resolve().parents[1]
CLIPS = ROOT / "nsdevice" / "voice" / "clips"
MANIFEST = CLIPS / "manifest.json"
VOICES = {"en": "en-gb", "es": "es", "de": "de", "it": "it", "fr": "fr-fr"}  # espeak-ng voices
WORDS_PER_MINUTE = 165  # a little under espeak-ng's 175: clearer across a table
QUALITY = 0  # Vorbis quality (-1..10): speech stays clear; a clip is mostly its 4 kB header
SPEECH_LEVEL = -21.0  # dBFS, gated RMS: every clip, every language, at one loudness
GATE = -50.0  # dBFS: a block quieter than this is a pause between words
BLOCK_SECONDS = 0.05
CEILING = -1.0  # dBFS: the limiter's ceiling before encoding (Vorbis overshoots it)
DECODED_CEILING = -0.5  # dBFS: the loudest sample the box may decode
ENCODINGS = 4  # tries at a lower ceiling before a clip that overshoots is an error
LOOK_AHEAD = 0.002  # seconds the limiter's gain takes to come down before a peak
RELEASE = 0.05  # seconds it takes to come back up after one
FULL_SCALE = 32768  # 16-bit samples
# Words espeak-ng says wrongly in an edition's language, given to it as its own phonemes
# (`[[...]]`; `espeak-ng -x` shows what a text becomes). German says the card "Dschoker"
# where espeak-ng's rules read "Yoker"; French says "jokère" where espeak-ng switches to its
# English voice in mid-sentence.
PRONUNCIATIONS: dict[str, dict[str, str]] = {
    "de": {"Joker": "dZ'o:k3"},
    "fr": {"Joker": "ZOk'Er"},
}
ENGINE = (
    "espeak-ng {version} (GPL-3.0-or-later), voices {voices}, {wpm} words a minute; "
    "levelled to {level:g} dBFS of speech, peaks under {ceiling:g} dBFS"
)
LICENCE = (
    "The clips are output of espeak-ng speaking this project's own words; they are "
    "distributed under the project's licence (espeak-ng's GPL does not extend to its output)."
)


def engine_version() -> str:
    out = subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True, check=True)
    return out.stdout.split("Data")[0].replace("eSpeak NG text-to-speech:", "").strip()


def spoken(text: str, language: str) -> str:
    """What espeak-ng is given to say `text`: the words it gets wrong as phonemes."""
    for word, phonemes in PRONUNCIATIONS.get(language, {}).items():
        text = re.sub(rf"\b{re.escape(word)}\b", f"[[{phonemes}]]", text, flags=re.IGNORECASE)
    return text


# --- levels -------------------------------------------------------------------------------
def decibels(ratio: float) -> float:
    return 20 * math.log10(ratio) if ratio > 0 else -math.inf


def peak(samples: Sequence[float]) -> float:
    """The loudest sample in dBFS (0: full scale)."""
    return decibels(max(max(samples, default=0), -min(samples, default=0)) / FULL_SCALE)


def speech_level(samples: Sequence[float], rate: int = SAMPLE_RATE) -> float:
    """Gated RMS in dBFS: the power of the 50 ms blocks louder than `GATE`."""
    block = int(rate * BLOCK_SECONDS)
    least = (10 ** (GATE / 20) * FULL_SCALE) ** 2 * block  # a block's energy at the gate
    energies = []
    for start in range(0, len(samples) - block + 1, block):
        chunk = samples[start : start + block]
        energy = sum(map(mul, chunk, chunk))
        if energy > least:
            energies.append(energy)
    if not energies:
        return -math.inf
    return 10 * math.log10(sum(energies) / (len(energies) * block * FULL_SCALE**2))


def limited(samples: Sequence[float], ceiling: float, rate: int = SAMPLE_RATE) -> array[int]:
    """`samples` as 16-bit integers whose peaks stay under `ceiling` dBFS.

    The gain each sample needs is brought down ahead of a peak in straight steps over
    `LOOK_AHEAD` (a backward pass) and back up over `RELEASE` (a forward pass); each pass
    only lowers it, so no sample exceeds the ceiling and no step is abrupt.
    """
    most = 10 ** (ceiling / 20) * FULL_SCALE
    gains = [min(1.0, most / abs(s)) if s else 1.0 for s in samples]
    attack = 1 / max(1, int(rate * LOOK_AHEAD))
    for i in range(len(gains) - 2, -1, -1):
        gains[i] = min(gains[i], gains[i + 1] + attack)
    release = 1 / max(1, int(rate * RELEASE))
    for i in range(1, len(gains)):
        gains[i] = min(gains[i], gains[i - 1] + release)
    return array("h", (round(s * g) for s, g in zip(samples, gains, strict=True)))


def read_wav(path: Path) -> array[int]:
    """A 16-bit mono WAV file's samples."""
    with wave.open(str(path), "rb") as file:
        if (file.getsampwidth(), file.getnchannels()) != (2, 1):
            raise ValueError(f"{path}: not 16-bit mono")
        samples = array("h", file.readframes(file.getnframes()))
    if sys.byteorder == "big":
        samples.byteswap()  # WAV is little-endian
    return samples


def write_wav(path: Path, samples: array[int], rate: int = SAMPLE_RATE) -> None:
    data = array("h", samples)
    if sys.byteorder == "big":
        data.byteswap()
    with wave.open(str(path), "wb") as file:
        file.setnchannels(1)
        file.setsampwidth(2)
        file.setframerate(rate)
        file.writeframes(data.tobytes())


@contextmanager
def box_mixer() -> Iterator[Any]:
    """pygame's mixer opened as the box opens it (nsdevice.box.speaker), closed after."""
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")  # decoding needs no sound card
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    if pygame.mixer.get_init():
        pygame.mixer.quit()  # opened in another format: decoding must be the box's
    pygame.mixer.init(frequency=SAMPLE_RATE, size=-16, channels=1)
    try:
        yield pygame.mixer
    finally:
        pygame.mixer.quit()


def decoded(mixer: Any, clip: Path) -> array[int]:
    """A clip's samples as the box's mixer decodes them (16-bit, mono, its rate)."""
    samples = array("h", mixer.Sound(file=str(clip)).get_raw())
    if sys.byteorder == "big":
        samples.byteswap()  # the mixer's format is little-endian (size=-16: AUDIO_S16LSB)
    return samples


# K-weighting (ITU-R BS.1770): a high shelf of +4 dB above ~1.7 kHz, then a high pass at
# ~38 Hz, as two biquads drawn from the standard's analogue prototypes at any rate.
def _k_weighting(rate: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    k = math.tan(math.pi * 1681.974450955533 / rate)
    q, vh, vb = 0.7071752369554196, 10 ** (3.999843853973347 / 20), 10 ** (3.999843853973347 / 40)
    a0 = 1 + k / q + k * k
    shelf = (
        (vh + vb * k / q + k * k) / a0,
        2 * (k * k - vh) / a0,
        (vh - vb * k / q + k * k) / a0,
        2 * (k * k - 1) / a0,
        (1 - k / q + k * k) / a0,
    )
    k = math.tan(math.pi * 38.13547087602444 / rate)
    q = 0.5003270373238773
    a0 = 1 + k / q + k * k
    high_pass = (1.0, -2.0, 1.0, 2 * (k * k - 1) / a0, (1 - k / q + k * k) / a0)
    return shelf, high_pass


def k_weighted(samples: Sequence[float], rate: int = SAMPLE_RATE) -> list[float]:
    out = [float(s) for s in samples]
    for b0, b1, b2, a1, a2 in _k_weighting(rate):
        x1 = x2 = y1 = y2 = 0.0
        for i, x in enumerate(out):
            y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
            x2, x1, y2, y1 = x1, x, y1, y
            out[i] = y
    return out


def levels(weighted: bool) -> int:
    """Print each language's speech levels and peaks, as the box decodes the shipped clips."""
    clips = json.loads(MANIFEST.read_text(encoding="utf-8"))["clips"]
    medians = {}
    with box_mixer() as mixer:
        for language, entries in clips.items():
            said = [decoded(mixer, CLIPS / entry["file"]) for entry in entries.values()]
            level = [speech_level(s) for s in said]
            peaks = [peak(s) for s in said]
            full = sum(1 for s in said if max(map(abs, s), default=0) >= FULL_SCALE - 1)
            medians[language] = statistics.median(level)
            line = (
                f"{language}: {len(said)} clips, speech level median {medians[language]:.2f} "
                f"dBFS ({min(level):.2f} to {max(level):.2f}), loudest peak "
                f"{max(peaks):.2f} dBFS, {full} at full scale"
            )
            if weighted:  # the same gating over K-weighted samples (LUFS-like)
                k = statistics.median(speech_level(k_weighted(s)) - 0.691 for s in said)
                line += f", K-weighted median {k:.2f}"
            print(line)
    spread = max(medians.values()) - min(medians.values())
    print(f"medians spread over {spread:.2f} dB")
    return 0


# --- rendering ----------------------------------------------------------------------------
def render(text: str, language: str, target: Path, mixer: Any) -> float:
    """Speak `text` into `target` (Ogg Vorbis), levelled; its length in seconds."""
    with tempfile.TemporaryDirectory() as scratch:
        said = Path(scratch) / "said.wav"
        voice = ["espeak-ng", "-v", VOICES[language], "-s", str(WORDS_PER_MINUTE)]
        subprocess.run([*voice, "-w", str(said), "--", spoken(text, language)], check=True)
        trimmed = Path(scratch) / "trimmed.wav"
        # silence off both ends: the box adds its own short gap between phrases
        trim = ["silence", "1", "0.01", "0.5%", "reverse"] * 2
        rate = ["-r", str(SAMPLE_RATE), "-c", "1", "-b", "16"]
        subprocess.run(["sox", str(said), *rate, str(trimmed), *trim], check=True)
        samples = read_wav(trimmed)
        gain = 10 ** ((SPEECH_LEVEL - speech_level(samples)) / 20)
        levelled = [s * gain for s in samples]
        ceiling = CEILING
        target.parent.mkdir(parents=True, exist_ok=True)
        for _ in range(ENCODINGS):
            held = Path(scratch) / "held.wav"
            write_wav(held, limited(levelled, ceiling))
            subprocess.run(["sox", str(held), "-C", str(QUALITY), str(target)], check=True)
            over = peak(decoded(mixer, target)) - DECODED_CEILING
            if over < 0:
                return round(len(samples) / SAMPLE_RATE, 3)
            ceiling -= over + 0.25  # Vorbis overshot by `over`: hold the peaks lower
    raise RuntimeError(f"{target}: still over {DECODED_CEILING} dBFS decoded")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="render every clip again")
    parser.add_argument("--check", action="store_true", help="only list what is out of date")
    parser.add_argument(
        "--levels", action="store_true", help="only print the shipped clips' levels"
    )
    parser.add_argument(
        "--k-weighted", action="store_true", help="with --levels: the K-weighted cross-check"
    )
    args = parser.parse_args(argv)
    if args.k_weighted and not args.levels:
        print("voice: --k-weighted goes with --levels", file=sys.stderr)
        return 2
    if args.levels:
        return levels(args.k_weighted)
    old = json.loads(MANIFEST.read_text(encoding="utf-8")) if MANIFEST.exists() else {}
    old_clips: dict[str, dict[str, dict[str, object]]] = old.get("clips", {})

    def input_of(language: str, phrase_id: str) -> str:  # what espeak-ng was given
        entry = old_clips.get(language, {}).get(phrase_id, {})
        return str(entry.get("spoken", entry.get("text")))

    stale = [
        (language, phrase_id)
        for language in LANGUAGES
        for phrase_id in CATALOGUE
        if args.all
        or input_of(language, phrase_id) != spoken(phrase_text(phrase_id, language), language)
        or not (CLIPS / f"{language}/{phrase_id}.ogg").exists()
    ]
    if args.check:
        for language, phrase_id in stale:
            print(f"out of date: {language} {phrase_id}")
        return 1 if stale else 0
    for tool in ("espeak-ng", "sox"):
        if shutil.which(tool) is None:
            print(f"voice: {tool} not found (apt-get install espeak-ng sox)", file=sys.stderr)
            return 2
    clips: dict[str, dict[str, dict[str, object]]] = {}
    with box_mixer() as mixer:
        for language in LANGUAGES:
            clips[language] = {}
            for phrase_id in CATALOGUE:
                text = phrase_text(phrase_id, language)
                file = f"{language}/{phrase_id}.ogg"
                if (language, phrase_id) in stale:
                    seconds: object = render(text, language, CLIPS / file, mixer)
                else:
                    seconds = old_clips[language][phrase_id]["seconds"]
                clips[language][phrase_id] = {"file": file, "text": text, "seconds": seconds}
                if spoken(text, language) != text:
                    clips[language][phrase_id]["spoken"] = spoken(text, language)
            rendered = sum(1 for lang, _ in stale if lang == language)
            print(f"{language}: {rendered} clips rendered", flush=True)
    wanted = {CLIPS / str(c["file"]) for entries in clips.values() for c in entries.values()}
    for leftover in sorted(set(CLIPS.glob("*/*.ogg")) - wanted):
        leftover.unlink()  # a phrase the box no longer says
    manifest = {
        "engine": ENGINE.format(
            version=engine_version(),
            voices=", ".join(f"{lang} {voice}" for lang, voice in VOICES.items()),
            wpm=WORDS_PER_MINUTE,
            level=SPEECH_LEVEL,
            ceiling=CEILING,
        ),
        "licence": LICENCE,
        "clips": clips,
    }
    MANIFEST.write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", "utf-8")
    size = sum(path.stat().st_size for path in CLIPS.rglob("*") if path.is_file())
    print(f"rendered {len(stale)} clips; {len(wanted)} in all, {size / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
