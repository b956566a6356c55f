"""The repository's own Markdown pages, for the docs' tests: every `.md` file in the clone
but those of tools, caches and builds."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOT_OURS = {".git", ".venv", "site", ".mutation", "build", "dist", "node_modules",
            ".pytest_cache", ".hypothesis", ".mypy_cache", ".ruff_cache", "__pycache__"}


def markdown_files(root: Path = ROOT) -> list[Path]:
    found: list[Path] = []
    for folder, folders, names in os.walk(root):
        folders[:] = sorted(f for f in folders if f not in NOT_OURS and not f.endswith(".egg-info"))
        found += [Path(folder) / name for name in sorted(names) if name.endswith(".md")]
    return found
