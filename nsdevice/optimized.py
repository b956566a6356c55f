"""The box as its service runs it: optimized (`PYTHONOPTIMIZE=2`), without docstrings.

Docstrings are loaded with every module's bytecode and kept: stripped, in this project's
modules and the libraries', the box and its page hold about 1.2 MB less (issue 35,
docs/PERFORMANCE.md "Memory"). One thing reads them as classes are made: the standard
dataclass decorator gives a class without a docstring one of its own, the class's
signature from `inspect.signature`, the costly part of making a class on the Pi. Stripped,
that is every dataclass (17 before the first frame, gpiod's among them). In an optimized
process nothing reads a docstring, so the decorator is given an empty signature and names
the class alone.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any


class _Unsigned:
    """The `inspect` module as the dataclass decorator sees it: no signatures."""

    def __init__(self, inspect: ModuleType) -> None:
        self._inspect = inspect

    def signature(self, *arguments: Any, **options: Any) -> str:
        return ""  # (read as text: 3.11.2's decorator, Debian's, catches no error here)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inspect, name)


def unsigned_dataclasses() -> None:
    """Dataclasses made from now on named by their class alone where they have no docstring,
    in an optimized process that has none (`sys.flags.optimize` 2); nothing to do in others."""
    if sys.flags.optimize < 2:
        return
    import dataclasses

    space = vars(dataclasses)
    if not isinstance(space["inspect"], _Unsigned):
        space["inspect"] = _Unsigned(space["inspect"])
