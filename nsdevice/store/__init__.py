"""SQLite persistence: the game in progress and the finished games, behind `Store`.

- `database`: the `Store` itself (opening, saving steps, closing);
- `schema`: the tables and the upgrades from older versions;
- `steps`: each step's serial and checksum, choosing the step to trust, the step mark;
- `damage`: damage told from "cannot write now", and damaged files kept aside;
- `records`: finished games and the history read from them;
- `notices`: damage notices kept in the file until a press has shown them;
- `lock`: one box per state folder.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from nsdevice.store.damage import (
    DAMAGE_CODES,
    OPEN_TIMEOUT,
    STORE_FAULTS,
    CannotSave,
    StoreBusy,
    cannot_save,
    copy_aside,
    set_aside,
    trouble,
)
from nsdevice.store.database import Opened, Store
from nsdevice.store.lock import LOCK_NAME, FolderBusy, FolderLock, hold_folder
from nsdevice.store.records import PLAYED_COLUMNS, module_set, summarise
from nsdevice.store.schema import FILE_NAME, SCHEMA, SCHEMA_VERSION, DamagedStore
from nsdevice.store.steps import KEEP, MARK_NAME, Choice, Mark, Step, StepMark, canonical, checksum


def state_directory(environ: Mapping[str, str] | None = None) -> Path:
    """Where the box keeps its state: systemd's StateDirectory, else the XDG state home."""
    env = os.environ if environ is None else environ
    if env.get("STATE_DIRECTORY"):
        return Path(env["STATE_DIRECTORY"].split(":")[0])
    base = env.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "nsdevice"


__all__ = [
    "DAMAGE_CODES",
    "FILE_NAME",
    "KEEP",
    "LOCK_NAME",
    "MARK_NAME",
    "OPEN_TIMEOUT",
    "PLAYED_COLUMNS",
    "SCHEMA",
    "SCHEMA_VERSION",
    "STORE_FAULTS",
    "CannotSave",
    "Choice",
    "DamagedStore",
    "FolderBusy",
    "FolderLock",
    "Mark",
    "Opened",
    "Step",
    "StepMark",
    "Store",
    "StoreBusy",
    "cannot_save",
    "canonical",
    "checksum",
    "copy_aside",
    "hold_folder",
    "module_set",
    "set_aside",
    "state_directory",
    "summarise",
    "trouble",
]  # fmt: skip
