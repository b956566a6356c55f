"""Where a long word may break: soft hyphens put in by each language's own hyphenation
patterns (pyphen, with the LibreOffice dictionaries Debian's hyphen packages ship too).

On the 2-inch glass a turn's note stands in a column 19 mm wide beside the card, and some
words are wider than that at a size read across the table (German "Doppelstation" at
2.5 mm). `text_fit` breaks such a word only at a soft hyphen, where the language breaks it
("Doppel-sta-tion"), never between any two letters; a word that fits is never touched.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol

SOFT_HYPHEN = "\u00ad"
SHORTEST = 6  # letters: a shorter word is not worth a break
LEFT, RIGHT = 2, 3  # the fewest letters before and after a break ("Doppelstati-on": never)
_WORD = re.compile(rf"[^\W\d_]{{{SHORTEST},}}")  # letters only: "Spezialeffekt" of "…effekt:"


class _Dictionary(Protocol):
    def inserted(self, word: str, hyphen: str = "-") -> str: ...


class Hyphens:
    """Each language's patterns, read the first time a text of that language is hyphenated
    (kept by the painter: one per display)."""

    def __init__(self) -> None:
        self._dictionaries: dict[str, _Dictionary | None] = {}

    def hyphenated(
        self, text: str, language: str, too_wide: Callable[[str], bool] | None = None
    ) -> str:
        """`text` with a soft hyphen wherever `language` may break a word of it; with
        `too_wide`, only when one of its words is (the patterns are read only then: a
        language's take a Pi a second or more and megabytes to read)."""
        if too_wide is not None and not any(too_wide(w) for w in _WORD.findall(text)):
            return text
        dictionary = self._dictionary(language)
        if dictionary is None:
            return text
        return _WORD.sub(lambda word: dictionary.inserted(word[0], hyphen=SOFT_HYPHEN), text)

    def _dictionary(self, language: str) -> _Dictionary | None:
        if language not in self._dictionaries:
            import pyphen  # late: only a turn's notes on small glass need it

            found = pyphen.language_fallback(language)
            patterns = pyphen.Pyphen(lang=found, left=LEFT, right=RIGHT) if found else None
            self._dictionaries[language] = patterns
        return self._dictionaries[language]
