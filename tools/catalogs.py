#!/usr/bin/env python3
"""Keep the gettext catalogs in step with the box's words.

Usage: python tools/catalogs.py [--check]

The words are every `_("...")` and `N_("...")` literal in nsdevice/ (mostly in
nsdevice/texts/) and every string under `[words]` in the city data files
(nsdevice/rules/data/*.toml). Adding or changing one, in two steps:
  1. write it, run `python tools/catalogs.py`, then fill the new empty msgstr in
     nsdevice/locale/{es,de,it,fr}/LC_MESSAGES/nsdevice.po;
  2. run `python tools/catalogs.py` again (it compiles the .mo files), then
     `python tools/glossary.py` (game terms are each edition's: glossary.toml per language)
     and `pytest tests/test_locale.py tests/test_glossary.py`.

Each run re-extracts the template nsdevice/locale/nsdevice.pot (no header and no source
locations, so re-extraction is stable), merges it into every .po (new msgids arrive empty,
removed ones are dropped, nothing is marked fuzzy), compiles each .mo, and lists entries
that are untranslated or whose {placeholders} differ from the msgid (exit status 1 if any).
Translations much longer than the English are listed as a hint: the screen is 320x240.
`--check` writes nothing and also fails when a file is out of date (for CI).

The same with the plain Babel command line (which leaves out the data files' words):
  pybabel extract -k _ -k N_ --no-location --omit-header -o nsdevice/locale/nsdevice.pot nsdevice
  pybabel update -i nsdevice/locale/nsdevice.pot -d nsdevice/locale -D nsdevice \
      --no-fuzzy-matching --ignore-obsolete --ignore-pot-creation-date
  pybabel compile -d nsdevice/locale -D nsdevice --statistics
"""

from __future__ import annotations

import io
import re
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from nsdevice.locale import LANGUAGES

ROOT = Path(__file__).resolve().parents[1]  # the repository (tools/ is one down)
PACKAGE = ROOT / "nsdevice"
CITY_DATA = PACKAGE / "rules" / "data"
LOCALE = PACKAGE / "locale"
TEMPLATE = LOCALE / "nsdevice.pot"
DOMAIN = "nsdevice"
KEYWORDS = {"_": None, "N_": None}  # translated where written, and marked for later
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def sources() -> list[Path]:
    """The files holding the box's words: its Python modules, then the city data."""
    return [*sorted(PACKAGE.rglob("*.py")), *sorted(CITY_DATA.glob("*.toml"))]


def extract_toml_words(
    fileobj: BinaryIO, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """A Babel extraction method: every string under a data file's `[words]` table."""

    def strings(value: Any) -> Iterator[str]:
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for item in value.values():
                yield from strings(item)

    for message in strings(tomllib.load(fileobj).get("words", {})):
        yield 0, None, message, []


def messages(paths: list[Path] | None = None) -> list[str]:
    """Every msgid of `paths` (by default `sources()`), once, in order of first appearance."""
    found: dict[str, None] = {}
    for path in paths or sources():
        method = extract_toml_words if path.suffix == ".toml" else "python"
        for _lineno, message, _comments, _context in extract_from_file(
            method, path, keywords=KEYWORDS
        ):
            found.setdefault(message)
    return list(found)


def extract() -> Catalog:
    """The template: every msgid of the sources."""
    template = Catalog(domain=DOMAIN, project=DOMAIN, fuzzy=False)
    for message in messages():
        template.add(message)
    return template


def po_bytes(catalog: Catalog, **options: Any) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, no_location=True, ignore_obsolete=True, **options)
    return out.getvalue()


def mo_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def read(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=language, domain=DOMAIN)


def new_catalog(language: str) -> Catalog:
    return Catalog(
        locale=language,
        domain=DOMAIN,
        project=DOMAIN,
        last_translator="nsdevice project",
        language_team=language,
        fuzzy=False,
    )


def merged(language: str, template: Catalog) -> Catalog:
    """The language's catalog updated to `template`, keeping its header dates."""
    path = LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    catalog = read(path, language) if path.exists() else new_catalog(language)
    catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
    catalog.obsolete.clear()
    catalog.fuzzy = False
    return catalog


def problems(catalog: Catalog) -> tuple[list[str], list[str]]:
    """(errors, hints) for one language."""
    errors, hints = [], []
    for message in catalog:
        if not message.id:
            continue
        if not message.string:
            errors.append(f"untranslated: {message.id!r}")
            continue
        if message.fuzzy:
            errors.append(f"fuzzy: {message.id!r}")
        if sorted(PLACEHOLDER.findall(message.id)) != sorted(PLACEHOLDER.findall(message.string)):
            errors.append(f"placeholders differ: {message.id!r} -> {message.string!r}")
        if len(message.string) > max(9, 1.3 * len(message.id) + 2):
            hints.append(f"long ({len(message.string)} vs {len(message.id)}): {message.string!r}")
    return errors, hints


def main(argv: list[str]) -> int:
    check = "--check" in argv
    if set(argv) - {"--check"}:
        print(__doc__.splitlines()[2], file=sys.stderr)
        return 2
    template = extract()
    outputs = {TEMPLATE: po_bytes(template, omit_header=True)}
    failed = False
    for language in TRANSLATED:
        catalog = merged(language, template)
        folder = LOCALE / language / "LC_MESSAGES"
        outputs[folder / f"{DOMAIN}.po"] = po_bytes(catalog)
        outputs[folder / f"{DOMAIN}.mo"] = mo_bytes(catalog)
        errors, hints = problems(catalog)
        for line in errors:
            print(f"{language}: {line}")
        for line in hints:
            print(f"{language}: hint: {line}")
        failed |= bool(errors)
    for path, data in outputs.items():
        if path.exists() and path.read_bytes() == data:
            continue
        if check:
            print(f"out of date: {path.relative_to(ROOT)}")
            failed = True
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            print(f"wrote {path.relative_to(ROOT)}")
    print(f"{len(template)} msgids, languages: {', '.join(TRANSLATED)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
