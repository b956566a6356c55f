#!/usr/bin/env python3
"""Write each language's table of hyphenation points, so that the box never reads pyphen.

Reading a language's patterns takes pyphen most of a second and megabytes (German: 0.69 s
of CPU, +23.6 MB here; docs/PERFORMANCE.md), on the 2-inch German summary, the box's first
screen. The words the box breaks are its own: every word of the catalogs (each msgstr, and
each msgid, which gettext shows while a string is untranslated; the city data's words are
in them) and the glossary's terms. So this tool hyphenates each of them once, with the same
patterns and limits, into `nsdevice/locale/<lang>/hyphens.txt` (one word a line, lower
case, "-" at each point; a word without one is left out), which `displays/hyphens.py`
reads. A word not in it (a player's name) is not broken, as a word without points.

    python tools/hyphen_table.py            # writes the five tables
    python tools/hyphen_table.py --check    # exit 1, saying so, when one is stale
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from collections.abc import Iterator, Sequence
from pathlib import Path

import pyphen
from babel.messages.pofile import read_po

from nsdevice.displays.hyphens import LEFT, RIGHT, TABLE_NAME, WORD
from nsdevice.locale import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "nsdevice" / "locale"
HEADER = "# Written by tools/hyphen_table.py from the catalogs and the glossary: do not edit.\n"


def texts(language: str, locale: Path = LOCALE) -> Iterator[str]:
    """Everything of `language` the box may draw: its catalog's msgids and msgstrs (English:
    the template's msgids) and its glossary's terms and forms."""
    po = locale / language / "LC_MESSAGES" / "nsdevice.po"
    with (po if po.exists() else locale / "nsdevice.pot").open("rb") as file:
        catalog = read_po(file)
    for message in catalog:
        for text in (message.id, message.string):
            yield from (text,) if isinstance(text, str) else (text or ())
    glossary = tomllib.loads((locale / language / "glossary.toml").read_text("utf-8"))
    for entry in glossary.values():
        if isinstance(entry, dict):
            yield from _strings(entry, keys=("term", "forms"))


def _strings(entry: dict[str, object], keys: tuple[str, ...]) -> Iterator[str]:
    """The strings under `keys` in a glossary entry and its tables (a city's card words)."""
    for key, value in entry.items():
        if isinstance(value, dict):
            yield from _strings(value, keys)
        elif key in keys:
            if isinstance(value, str):
                yield value.replace("*", "")
            elif isinstance(value, list):
                yield from (v.replace("*", "") for v in value if isinstance(v, str))


def table(language: str, locale: Path = LOCALE) -> str:
    """The table's text: each long word of `language`'s texts that its patterns break."""
    patterns = pyphen.Pyphen(lang=pyphen.language_fallback(language), left=LEFT, right=RIGHT)
    words = {word.lower() for text in texts(language, locale) for word in WORD.findall(text)}
    broken = (patterns.inserted(word) for word in words)
    return HEADER + "".join(f"{word}\n" for word in sorted(b for b in broken if "-" in b))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a table is stale")
    parser.add_argument("--locale", type=Path, default=LOCALE, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    stale = []
    for language in LANGUAGES:
        path = args.locale / language / TABLE_NAME
        text = table(language, args.locale)
        if path.exists() and path.read_text("utf-8") == text:
            continue
        if args.check:
            stale.append(str(path.relative_to(args.locale.parent.parent)))
        else:
            path.write_text(text, "utf-8")
            print(f"wrote {path}")
    if stale:
        print(f"stale: {', '.join(stale)}; run python tools/hyphen_table.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
