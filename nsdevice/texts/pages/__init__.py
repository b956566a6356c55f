"""Whole screens in words: each view's title and its page (lines of text, each with a role).

One module per family of screens, as in `nsdevice.session.screens` (`setup`, `game`,
`scores`, `menu`, `history`, `phones`, `room`): each registers its screens' pages and
titles on `Pages` (`page_for`, `title_for`) as it is imported; `base` holds the lines,
roles and forms they share. Every module of this package is imported below, so a new
family is its module and nothing else.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from nsdevice.texts.pages.base import Form, Line, Page, Pages, Role

__all__ = ["Form", "Line", "Page", "Role", "Words"]

# the package's modules by name, as pkgutil.iter_modules lists them; read from the folder
# itself, since pkgutil is loaded for nothing else in the box and its page (issue 35)
FAMILIES = tuple(
    importlib.import_module(f"{__name__}.{name}")
    for name in sorted(path.stem for path in Path(__file__).parent.glob("*.py"))
    if name not in ("__init__", "base")
)


class Words(Pages):
    """The wording for one language: the vocabulary, and every screen's title and page
    (each family's, registered by its module above)."""
