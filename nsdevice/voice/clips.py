"""The pre-rendered clips and their manifest (written by `tools/voice.py`, shipped in the
package): which file says each phrase in each language, and the words it says."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from nsdevice.rules.frozen import dataclass

MANIFEST = "manifest.json"


@dataclass(frozen=True, slots=True)
class Clip:
    file: str  # under clips/, e.g. "es/symbol.triangle.ogg"
    text: str  # the words it says: must equal the phrase's text today
    seconds: float


@dataclass(frozen=True, slots=True)
class Manifest:
    engine: str  # what rendered the clips, and its licence
    licence: str  # the clips' own licence
    clips: dict[str, dict[str, Clip]]  # language → phrase id → clip

    def clip(self, language: str, phrase_id: str) -> Clip | None:
        return self.clips.get(language, {}).get(phrase_id)


def folder() -> Path:
    # beside this module: the package is installed as files (importlib.resources would
    # bring zipfile, tempfile and shutil into the box: issue 23)
    return Path(__file__).resolve().parent / "clips"


@cache  # read-only data shipped with the package: read once per process
def manifest() -> Manifest:
    data = json.loads((folder() / MANIFEST).read_text(encoding="utf-8"))
    return Manifest(
        engine=str(data["engine"]),
        licence=str(data["licence"]),
        clips={
            language: {
                phrase_id: Clip(str(c["file"]), str(c["text"]), float(c["seconds"]))
                for phrase_id, c in entries.items()
            }
            for language, entries in data["clips"].items()
        },
    )


def clip_bytes(language: str, phrase_id: str) -> bytes | None:
    """The clip's Ogg Vorbis file, or None when the manifest has no such clip."""
    clip = manifest().clip(language, phrase_id)
    return None if clip is None else (folder() / clip.file).read_bytes()
