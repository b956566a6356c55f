"""What a compiled module (.pyc file) keeps of where its instructions came from."""

from __future__ import annotations

import marshal
import types
from pathlib import Path


def code_in(cached: Path) -> types.CodeType:
    """The module's code in a .pyc file of this Python's."""
    code = marshal.loads(cached.read_bytes()[16:])  # (after the header)
    assert isinstance(code, types.CodeType)
    return code


def keeps_columns(cached: Path) -> bool:
    """Whether the module's code, or a function's in it, keeps its instructions' columns."""
    module = code_in(cached)
    every = [module, *(c for c in module.co_consts if isinstance(c, types.CodeType))]
    return any(column is not None for code in every for *_, column in code.co_positions())
