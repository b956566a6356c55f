"""The pre-rendered clips and their manifest (written by `tools/voice.py`, shipped in the
package): which file says each phrase in each language, and the words it says.

Both are files on the box's card, so both can be lost or damaged (a bad update, a failing
card): `manifest()` raises `BrokenManifest` (one line: which file and why) for any manifest
it cannot read, and `clip_bytes` raises `OSError` for a clip file it cannot read. The
voice and the phones' page carry on without them (issue 32).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path, PurePosixPath
from typing import Any

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


class BrokenManifest(ValueError):
    """The manifest cannot be read or is not a manifest: the message is one line."""


@cache  # read-only data shipped with the package: read once per process (not a failure)
def manifest() -> Manifest:
    path = folder() / MANIFEST
    try:
        return _parsed(json.loads(path.read_text(encoding="utf-8")))
    except OSError as error:
        raise BrokenManifest(f"{path}: {error.strerror or error}") from None
    # what a damaged file can raise on the way: not JSON, not UTF-8, too deep, wrong shape
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise BrokenManifest(f"{path}: not a voice manifest ({reason[:120]})") from None


def _parsed(data: Any) -> Manifest:
    clips: dict[str, dict[str, Clip]] = {}
    for language, entries in dict(data["clips"]).items():
        clips[str(language)] = {}
        for phrase_id, entry in dict(entries).items():
            file = str(entry["file"])
            where = PurePosixPath(file)
            if where.is_absolute() or ".." in where.parts:  # a clip lives under clips/
                raise ValueError(f"clip {file!r} outside the clips folder")
            clip = Clip(file, str(entry["text"]), float(entry["seconds"]))
            clips[str(language)][str(phrase_id)] = clip
    return Manifest(engine=str(data["engine"]), licence=str(data["licence"]), clips=clips)


def clip_bytes(language: str, phrase_id: str) -> bytes | None:
    """The clip's Ogg Vorbis file, or None when the manifest has no such clip.
    BrokenManifest or OSError when the manifest or the file cannot be read."""
    clip = manifest().clip(language, phrase_id)
    return None if clip is None else (folder() / clip.file).read_bytes()
