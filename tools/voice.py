#!/usr/bin/env python3
"""Render the box's speech: one Ogg Vorbis clip per phrase and language, and the manifest.

Usage: python tools/voice.py [--all] [--check]

Every phrase of `nsdevice.voice.phrases.CATALOGUE` is spoken in each of the box's five
languages by espeak-ng (Debian main, GPL-3+: `apt-get install espeak-ng sox`), trimmed of
its leading and trailing silence and encoded by sox as Ogg Vorbis under
nsdevice/voice/clips/LANG/ID.ogg. nsdevice/voice/clips/manifest.json ties each phrase id and
language to its file, the words it says and its length. A clip whose words are unchanged is
kept as it is (Vorbis files differ byte for byte on every encoding), so re-running after a
catalog change re-renders only what changed; `--all` renders everything again.
`--check` renders nothing and lists the clips that are missing or out of date (exit 1).

The clips are committed: the box, CI and the phones need neither espeak-ng nor sox.
Why espeak-ng: it is free software in Debian main, speaks all five languages and is
clear if robotic; SVOX Pico sounds better but is in non-free.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from nsdevice.locale import LANGUAGES
from nsdevice.voice.phrases import CATALOGUE, phrase_text

ROOT = Path(__file__).resolve().parents[1]
CLIPS = ROOT / "nsdevice" / "voice" / "clips"
MANIFEST = CLIPS / "manifest.json"
VOICES = {"en": "en-gb", "es": "es", "de": "de", "it": "it", "fr": "fr-fr"}  # espeak-ng voices
WORDS_PER_MINUTE = 165  # a little under espeak-ng's 175: clearer across a table
SAMPLE_RATE = 22050  # espeak-ng's own rate, and the box's mixer's
QUALITY = 0  # Vorbis quality (-1..10): speech stays clear; a clip is mostly its 4 kB header
ENGINE = "espeak-ng {version} (GPL-3.0-or-later), voices {voices}, {wpm} words a minute"
LICENCE = (
    "The clips are output of espeak-ng speaking this project's own words; they are "
    "distributed under the project's licence (espeak-ng's GPL does not extend to its output)."
)


def engine_version() -> str:
    out = subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True, check=True)
    return out.stdout.split("Data")[0].replace("eSpeak NG text-to-speech:", "").strip()


def render(text: str, language: str, target: Path) -> float:
    """Speak `text` into `target` (Ogg Vorbis); its length in seconds."""
    with tempfile.TemporaryDirectory() as scratch:
        spoken = Path(scratch) / "spoken.wav"
        subprocess.run(
            [
                "espeak-ng",
                "-v",
                VOICES[language],
                "-s",
                str(WORDS_PER_MINUTE),
                "-w",
                str(spoken),
                "--",
                text,
            ],
            check=True,
        )
        trimmed = Path(scratch) / "trimmed.wav"
        # silence off both ends: the box adds its own short gap between phrases
        trim = [
            "silence",
            "1",
            "0.01",
            "0.5%",
            "reverse",
            "silence",
            "1",
            "0.01",
            "0.5%",
            "reverse",
        ]
        subprocess.run(
            ["sox", str(spoken), "-r", str(SAMPLE_RATE), "-c", "1", str(trimmed), *trim],
            check=True,
        )
        target.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["sox", str(trimmed), "-C", str(QUALITY), str(target)], check=True)
        seconds = subprocess.run(
            ["soxi", "-D", str(trimmed)], capture_output=True, text=True, check=True
        ).stdout
    return round(float(seconds), 3)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="render every clip again")
    parser.add_argument("--check", action="store_true", help="only list what is out of date")
    args = parser.parse_args(argv)
    old = json.loads(MANIFEST.read_text(encoding="utf-8")) if MANIFEST.exists() else {}
    old_clips: dict[str, dict[str, dict[str, object]]] = old.get("clips", {})
    stale = [
        (language, phrase_id)
        for language in LANGUAGES
        for phrase_id in CATALOGUE
        if args.all
        or old_clips.get(language, {}).get(phrase_id, {}).get("text")
        != phrase_text(phrase_id, language)
        or not (CLIPS / f"{language}/{phrase_id}.ogg").exists()
    ]
    if args.check:
        for language, phrase_id in stale:
            print(f"out of date: {language} {phrase_id}")
        return 1 if stale else 0
    for tool in ("espeak-ng", "sox", "soxi"):
        if shutil.which(tool) is None:
            print(f"voice: {tool} not found (apt-get install espeak-ng sox)", file=sys.stderr)
            return 2
    clips: dict[str, dict[str, dict[str, object]]] = {}
    for language in LANGUAGES:
        clips[language] = {}
        for phrase_id in CATALOGUE:
            text = phrase_text(phrase_id, language)
            file = f"{language}/{phrase_id}.ogg"
            if (language, phrase_id) in stale:
                seconds: object = render(text, language, CLIPS / file)
            else:
                seconds = old_clips[language][phrase_id]["seconds"]
            clips[language][phrase_id] = {"file": file, "text": text, "seconds": seconds}
    wanted = {CLIPS / c["file"] for entries in clips.values() for c in entries.values()}  # type: ignore[operator]
    for leftover in sorted(set(CLIPS.glob("*/*.ogg")) - wanted):
        leftover.unlink()  # a phrase the box no longer says
    manifest = {
        "engine": ENGINE.format(
            version=engine_version(),
            voices=", ".join(f"{lang} {voice}" for lang, voice in VOICES.items()),
            wpm=WORDS_PER_MINUTE,
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
