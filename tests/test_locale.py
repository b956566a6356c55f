"""The catalogs: every word the box shows exists in every language, intact and compiled.

These tests read texts.py afresh each run, so adding a `_("...")` there without
translating it fails here. To fix: `python -m nsdevice.locale.catalogs`, translate the empty
msgstr in each nsdevice/locale/<lang>/LC_MESSAGES/nsdevice.po, run the script again.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

import nsdevice.locale
import nsdevice.texts
from nsdevice.locale import LANGUAGES, system_language, translations
from nsdevice.texts import Words

TEXTS = Path(nsdevice.texts.__file__)
LOCALE = Path(nsdevice.locale.__file__).parent
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
KEPT_SYMBOLS = "·→×−+=/"  # signs the layout and the sums rely on

ACTIONS = (
    "reveal", "undo", "menu", "up", "down", "select", "start", "continue", "back", "yes",
    "no", "plus", "minus", "done", "ok", "skip", "scores", "new_game", "change",
    "next_character",
)  # fmt: skip


def msgids(source: Path = TEXTS) -> list[str]:
    """Every `_("...")` literal in `source`, extracted the way `pybabel extract -k _` does."""
    found = extract_from_file("python", source, keywords={"_": None})
    return list(dict.fromkeys(message for _lineno, message, _comments, _context in found))


def catalog(language: str) -> Catalog:
    with (LOCALE / language / "LC_MESSAGES" / "nsdevice.po").open("rb") as f:
        return read_po(f, locale=language)


def untranslated(ids: list[str], po: Catalog) -> list[str]:
    return [i for i in ids if po.get(i) is None or not po.get(i).string]


def entries(po: Catalog) -> list[tuple[str, str]]:
    return [(m.id, m.string) for m in po if m.id]


@pytest.fixture(scope="module")
def current_ids() -> list[str]:
    ids = msgids()
    assert len(ids) > 100  # the extraction really found texts.py's words
    return ids


# --- (a) complete, nothing stale ----------------------------------------------------------


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_msgid_of_texts_is_translated(language, current_ids):
    missing = untranslated(current_ids, catalog(language))
    assert not missing, (
        f"{language}: run python -m nsdevice.locale.catalogs and translate {missing}"
    )


def test_a_new_string_without_translation_is_caught(tmp_path, current_ids):
    source = tmp_path / "texts.py"
    source.write_text(TEXTS.read_text("utf-8") + '\n_("A sentence nobody translated")\n', "utf-8")
    assert untranslated(msgids(source), catalog("de")) == ["A sentence nobody translated"]


@pytest.mark.parametrize("language", TRANSLATED)
def test_catalog_has_no_fuzzy_obsolete_or_stale_entries(language, current_ids):
    po = catalog(language)
    assert not po.fuzzy, "the header is marked fuzzy: pybabel compile would refuse it"
    assert not po.obsolete, f"obsolete entries: {list(po.obsolete)}"
    assert [m.id for m in po if m.id and m.fuzzy] == []
    assert [m.id for m in po if m.id and m.id not in current_ids] == []


def test_template_matches_texts(current_ids):
    with (LOCALE / "nsdevice.pot").open("rb") as f:
        template = read_po(f)
    assert [m.id for m in template if m.id] == current_ids, "run python -m nsdevice.locale.catalogs"


# --- (b) placeholders and signs survive translation ---------------------------------------


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_the_placeholders(language):
    wrong = [
        (msgid, text)
        for msgid, text in entries(catalog(language))
        if Counter(PLACEHOLDER.findall(msgid)) != Counter(PLACEHOLDER.findall(text))
    ]
    assert wrong == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_numbers_and_signs(language):
    def marks(text: str) -> Counter:
        text = PLACEHOLDER.sub("", text)
        return Counter(re.findall(r"\d+", text)) + Counter(c for c in text if c in KEPT_SYMBOLS)

    wrong = [(i, s) for i, s in entries(catalog(language)) if marks(i) != marks(s)]
    assert wrong == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_format_like_their_msgid(language):
    values = {name.strip("{}"): "7" for name in PLACEHOLDER.findall(" ".join(
        msgid for msgid, _text in entries(catalog(language))
    ))}  # fmt: skip
    for _msgid, text in entries(catalog(language)):
        text.format(**values)  # no stray brace, no positional field


# --- (c) the committed .mo files are compiled from the current .po ------------------------


@pytest.mark.parametrize("language", TRANSLATED)
def test_mo_file_is_up_to_date(language):
    compiled = io.BytesIO()
    write_mo(compiled, catalog(language))
    compiled.seek(0)
    with (LOCALE / language / "LC_MESSAGES" / "nsdevice.mo").open("rb") as f:
        committed = read_mo(f)
    expected = dict(entries(read_mo(compiled)))
    assert dict(entries(committed)) == expected, (
        "run python -m nsdevice.locale.catalogs to recompile"
    )


# --- (d) the box speaks the language ------------------------------------------------------


@pytest.mark.parametrize("language", TRANSLATED)
def test_words_come_from_the_catalog(language):
    words = Words(language)
    assert type(translations(language)).__name__ == "GNUTranslations"  # the .mo was found
    assert words.action("reveal") != "Reveal"
    assert words.colour("purple") != "Purple"
    assert words.players(3) != "3 players"


def test_english_is_the_source_text():
    assert Words("en").action("reveal") == "Reveal"


@pytest.mark.parametrize("language", LANGUAGES)
def test_button_legends_fit_under_the_buttons(language):
    """Legends stay short; "New game" is longer (up to 15) because the same msgid is also the
    setup title and a menu row: a pgettext context in texts.py would let it shrink."""
    words = Words(language)
    for name in ACTIONS:
        limit = 15 if name == "new_game" else 10
        assert len(words.action(name)) <= limit, words.action(name)
    for name in ("next", "back", "menu"):
        label = words.button(name)
        assert label.isupper() and len(label) <= 9, label  # names printed on the box


def test_system_language_from_the_environment(monkeypatch):
    monkeypatch.setattr(nsdevice.locale.system_locale, "getlocale", lambda: ("ja_JP", "UTF-8"))
    assert system_language({"LANG": "de_DE.UTF-8"}) == "de"
    assert system_language({"LC_ALL": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"}) == "fr"
    assert system_language({"LANGUAGE": "sv:it"}) == "it"
    assert system_language({"LANG": "ja_JP.UTF-8"}) == "en"
    assert system_language({}) == "en"
