"""Where a long word may break: soft hyphens put in by each language's own hyphenation
patterns (pyphen's, with the LibreOffice dictionaries Debian's hyphen packages ship too),
read from a table of the box's own words that tools/hyphen_table.py writes with them.

On the 2-inch glass a turn's note stands in a column 19 mm wide beside the card, and some
words are wider than that at a size read across the table (German "Doppelstation" at
2.5 mm). `text_fit` breaks such a word only at a soft hyphen, where the language breaks it
("Doppel-sta-tion"), never between any two letters; a word that fits is never touched.
The box never reads the patterns themselves: German's take 0.69 s of CPU and 23.6 MB, on
its first screen (docs/PERFORMANCE.md); the table is a few kilobytes. A word not in it (a
player's name) has no hyphenation point, and is drawn as such a word always was.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import accumulate, pairwise
from pathlib import Path

import nsdevice.locale

SOFT_HYPHEN = "\u00ad"
SHORTEST = 6  # letters: a shorter word is not worth a break
LEFT, RIGHT = 2, 3  # the fewest letters before and after a break ("Doppelstati-on": never)
WORD = re.compile(rf"[^\W\d_]{{{SHORTEST},}}")  # letters only: "Spezialeffekt" of "…effekt:"
TABLE_NAME = "hyphens.txt"  # beside each language's glossary: "dop-pel-sta-tion", a line
LOCALE = Path(nsdevice.locale.__file__).resolve().parent

Points = dict[str, tuple[int, ...]]  # a word in lower case: the lengths of its pieces


class Hyphens:
    """Each language's table, read the first time a text of that language is hyphenated
    (kept by the painter: one per display)."""

    def __init__(self, locale: Path = LOCALE) -> None:
        self._locale = locale
        self._tables: dict[str, Points] = {}

    def hyphenated(
        self, text: str, language: str, too_wide: Callable[[str], bool] | None = None
    ) -> str:
        """`text` with a soft hyphen wherever `language` may break a word of it; with
        `too_wide`, only when one of its words is (the table is read only then)."""
        if too_wide is not None and not any(too_wide(w) for w in WORD.findall(text)):
            return text
        points = self._points(language)
        return WORD.sub(lambda word: _inserted(word[0], points), text) if points else text

    def _points(self, language: str) -> Points:
        if language not in self._tables:
            path = self._locale / language / TABLE_NAME
            lines = path.read_text("utf-8").splitlines() if path.is_file() else []
            pieces = (line.split("-") for line in lines if line and not line.startswith("#"))
            self._tables[language] = {"".join(p): tuple(map(len, p)) for p in pieces}
        return self._tables[language]


def _inserted(word: str, points: Points) -> str:
    """`word` with a soft hyphen at each of its points; as it is when it has none."""
    lengths = points.get(word.lower())
    if lengths is None or sum(lengths) != len(word):  # not ours, or lower case is longer
        return word
    return SOFT_HYPHEN.join(word[a:b] for a, b in pairwise((0, *accumulate(lengths))))
