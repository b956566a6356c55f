#!/usr/bin/env python3
"""The editions' words: check every catalog string against its language's glossary.

Usage: python tools/glossary.py    (lists every problem; exit status 1 if any)

Each language has nsdevice/locale/<lang>/glossary.toml: one table per game concept (round,
turn, interchange…) with the edition's `term`, the seed rulebook it comes from (`source`),
the `forms` a string may use for it (inflections; `*` stands for any letters) and the
`forbidden` other words for it. English is the source: its forms tell which concepts a
msgid speaks of. A translation is wrong when
  - its msgid names a concept and the translation uses none of that concept's forms, or
  - it holds a forbidden word of any concept, unless that word is a form of a concept the
    msgid names (German "Runde" is the turn: allowed in "Round 2 · Turn 3", refused in
    "Your pencil this round"), or the glossary's `[[allowed]]` list excuses it there.
French strings also follow one typographic rule: a no-break space before : ; ! ?
A glossary's `[cards.<city>.<kind>]` tables hold each card kind's one word in that city
(`word`, `source`, `why`); tests/test_glossary.py holds the catalogs to them.
"""

from __future__ import annotations

import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.pofile import read_po

from nsdevice.locale import LANGUAGES

ROOT = Path(__file__).resolve().parents[1]  # the repository (tools/ is one down)
LOCALE = ROOT / "nsdevice" / "locale"
SEED_NAME = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")
LETTER = r"[^\W\d_]"
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
NO_BREAK = "\u00a0"


@dataclass(frozen=True)
class Entry:
    """One concept in one language."""

    concept: str
    term: str
    source: str  # a seed file's name, or "choice"
    forms: tuple[str, ...]
    forbidden: tuple[str, ...]
    ignore: tuple[str, ...] = ()  # English only: msgids where a form means something else


@dataclass(frozen=True)
class Allowed:
    """A forbidden word excused in one msgid's translation, with the reason."""

    msgid: str
    word: str
    why: str


@dataclass(frozen=True)
class CardWord:
    """A card kind's one word in one city and edition (issue 34), and where it is from."""

    word: str
    source: str  # a seed file's name, or "choice"
    why: str = ""


@dataclass(frozen=True)
class Glossary:
    language: str
    entries: dict[str, Entry]
    allowed: tuple[Allowed, ...]
    # city → card kind ("underground", "street") → its one word: the `[cards.<city>]` tables
    cards: dict[str, dict[str, CardWord]] = field(default_factory=dict)


def path(language: str) -> Path:
    return LOCALE / language / "glossary.toml"


def load(language: str) -> Glossary:
    data = tomllib.loads(path(language).read_text("utf-8"))
    entries = {
        name: Entry(
            concept=name,
            term=table["term"],
            source=table["source"],
            forms=tuple(table["forms"]),
            forbidden=tuple(table.get("forbidden", ())),
            ignore=tuple(table.get("ignore", ())),
        )
        for name, table in data.items()
        if isinstance(table, dict) and name != "cards"
    }
    allowed = tuple(Allowed(a["msgid"], a["word"], a["why"]) for a in data.get("allowed", ()))
    cards = {
        city: {
            kind: CardWord(c["word"], c["source"], c.get("why", "")) for kind, c in kinds.items()
        }
        for city, kinds in data.get("cards", {}).items()
    }
    return Glossary(data["language"], entries, allowed, cards)


def pattern(form: str) -> re.Pattern[str]:
    """A form as a whole-word pattern: `*` any letters, a space any run of spaces."""
    parts = []
    for char in form:
        if char == "*":
            parts.append(f"{LETTER}*")
        elif char == " ":
            parts.append(r"\s+")
        else:
            parts.append(re.escape(char))
    return re.compile(f"(?<!{LETTER})" + "".join(parts) + f"(?!{LETTER})", re.IGNORECASE)


def found(forms: tuple[str, ...], text: str) -> list[str]:
    """The words of `text` that match one of `forms`."""
    return [m.group(0) for form in forms for m in pattern(form).finditer(text)]


def bare(text: str) -> str:
    """`text` with each placeholder written `{}`: its name is code, not a word on screen."""
    return PLACEHOLDER.sub("{}", text)


def spans(forms: tuple[str, ...], text: str) -> list[tuple[int, int]]:
    return [m.span() for form in forms for m in pattern(form).finditer(text)]


def concepts(msgid: str, english: Glossary) -> list[str]:
    """The concepts an English msgid names; a word inside a longer term names only that term
    ("pencil powers" is the module, not a pencil)."""
    named = {
        name: spans(entry.forms, msgid)
        for name, entry in english.entries.items()
        if msgid not in map(bare, entry.ignore)
    }
    longer = [span for found_spans in named.values() for span in found_spans]

    def inside(span: tuple[int, int]) -> bool:
        return any(a <= span[0] and span[1] <= b and (a, b) != span for a, b in longer)

    return [name for name, found_spans in named.items() if any(not inside(s) for s in found_spans)]


def problems(msgid: str, text: str, glossary: Glossary, english: Glossary) -> list[str]:
    """What is wrong with `text`, the translation of `msgid`, for the glossary (empty if
    nothing)."""
    msgid, text = bare(msgid), bare(text)
    named = concepts(msgid, english)
    wrong = []
    for name in named:
        entry = glossary.entries.get(name)
        if entry and not found(entry.forms, text):
            wrong.append(f"names no {name} (the glossary's word: {entry.term!r})")
    allowed_here = {a.word.casefold() for a in glossary.allowed if bare(a.msgid) == msgid}
    meant = [f for name in named if name in glossary.entries for f in glossary.entries[name].forms]
    for entry in glossary.entries.values():
        for word in found(entry.forbidden, text):
            if found(tuple(meant), word) or word.casefold() in allowed_here:
                continue
            wrong.append(f"{word!r} is not the glossary's word for {entry.concept} "
                         f"(use {entry.term!r})")  # fmt: skip
    return wrong


def typography(text: str) -> list[str]:
    """French: a no-break space before each of : ; ! ? and nothing else before them."""
    bare = PLACEHOLDER.sub("x", text)
    wrong = []
    for m in re.finditer(r"[:;!?]", bare):
        before = bare[m.start() - 1] if m.start() else ""
        after = bare[m.end() : m.end() + 2]
        if m.group(0) == ":" and before.isalnum() and (after[:1].isdigit() or after == "//"):
            continue  # a ratio, a time or a port (3:1, local:8414), an address (http://)
        if before != NO_BREAK:
            wrong.append(f"{m.group(0)!r} without a no-break space before it")
    return wrong


def catalog_entries(language: str) -> list[tuple[str, str]]:
    with (LOCALE / language / "LC_MESSAGES" / "nsdevice.po").open("rb") as f:
        catalog = read_po(f, locale=language)
    return [(m.id, m.string) for m in catalog if m.id and isinstance(m.id, str)]


def catalog_problems(language: str, entries: list[tuple[str, str]] | None = None) -> list[str]:
    """Every problem of one language's catalog, one line each naming catalog, msgid and word."""
    english = load("en")
    glossary = load(language)
    pairs = entries if entries is not None else (
        [(i, i) for i, _text in catalog_entries("de")] if language == "en"
        else catalog_entries(language)
    )  # fmt: skip
    lines = []
    for msgid, text in pairs:
        if not text:
            continue
        found_wrong = problems(msgid, text, glossary, english)
        if language == "fr":
            found_wrong += typography(text)
        lines += [f"{language}/nsdevice.po: {msgid!r} -> {text!r}: {w}" for w in found_wrong]
    return lines


def main(argv: list[str]) -> int:
    if argv:
        print(__doc__.splitlines()[2], file=sys.stderr)
        return 2
    lines = [line for language in LANGUAGES for line in catalog_problems(language)]
    for line in lines:
        print(line)
    print(f"{len(lines)} problems")
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
