"""Every word the box shows, in the player's language.

All text is this project's own. Views carry keys; this package turns them into words
through gettext, so translators work on ordinary catalogs
(`nsdevice/locale/*/LC_MESSAGES/nsdevice.po`): `vocabulary` holds the game's words,
`pages` every screen's title and lines. Strings are marked `_("…")` where they are
translated and `N_("…")` in tables; `tools/catalogs.py` extracts both.
"""

from __future__ import annotations

from functools import cache

from nsdevice.texts.pages import Form, Line, Page, Role, Words
from nsdevice.texts.vocabulary import LANGUAGE_NAMES

__all__ = ["LANGUAGE_NAMES", "Form", "Line", "Page", "Role", "Words", "words"]


@cache  # one per language for the whole process: every display shares it
def words(language: str) -> Words:
    """The wording for `language`."""
    return Words(language)
