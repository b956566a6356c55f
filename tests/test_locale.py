"""The catalogs: every word the box shows exists in every language, intact and compiled.

These tests extract the words afresh each run (tools/catalogs.py: `_()` and `N_()` in
nsdevice/, `[words]` in the city data), so adding one without translating it fails here.
To fix: `python tools/catalogs.py`, translate the empty msgstr in each
nsdevice/locale/<lang>/LC_MESSAGES/nsdevice.po, run the script again.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

import nsdevice.locale
from nsdevice.locale import LANGUAGES, system_language, translations
from nsdevice.texts import Words
from tools import catalogs

LOCALE = Path(nsdevice.locale.__file__).parent
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
KEPT_SYMBOLS = "·→×−+=/"  # signs the layout and the sums rely on

ACTIONS = (
    "reveal", "undo", "menu", "up", "down", "select", "start", "continue", "back", "yes",
    "no", "plus", "minus", "done", "ok", "skip", "scores", "new_game", "change",
    "next_character", "next_page", "previous_page", "to_top", "to_end",
)  # fmt: skip


def msgids(sources: list[Path] | None = None) -> list[str]:
    """Every word of `sources` (by default all of the box's), as the catalog tool finds them."""
    return catalogs.messages(sources)


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
    assert len(ids) > 100  # the extraction really found the box's words
    return ids


# --- (a) complete, nothing stale ----------------------------------------------------------


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_word_is_translated(language, current_ids):
    missing = untranslated(current_ids, catalog(language))
    assert not missing, f"{language}: run python tools/catalogs.py and translate {missing}"


def test_a_new_string_without_translation_is_caught(tmp_path, current_ids):
    source = tmp_path / "pages.py"
    source.write_text('_("Game over")\n_("A sentence nobody translated")\n', "utf-8")
    table = tmp_path / "vocabulary.py"
    table.write_text('WORDS = {"late": N_("A marked word nobody translated")}\n', "utf-8")
    assert untranslated(msgids([source, table]), catalog("de")) == [
        "A sentence nobody translated",
        "A marked word nobody translated",
    ]


def test_a_new_city_word_without_translation_is_caught(tmp_path):
    data = tmp_path / "atlantis.toml"
    data.write_text(
        'name = "atlantis"\n[words]\nname = "Atlantis"\nunderground = "Metro"\n'
        '[words.objectives]\nreef = "A line under the reef"\n',
        "utf-8",
    )
    assert msgids([data]) == ["Atlantis", "Metro", "A line under the reef"]
    assert untranslated(msgids([data]), catalog("fr")) == ["Atlantis", "A line under the reef"]


def test_every_city_word_is_extracted(current_ids):
    from nsdevice.rules.cities import CityName, city

    for name in CityName:
        words = city(name).words
        wanted = [words.name, words.underground, words.underground_count]
        assert set(wanted) | set(words.objectives.values()) <= set(current_ids), name


@pytest.mark.parametrize("language", TRANSLATED)
def test_catalog_has_no_fuzzy_obsolete_or_stale_entries(language, current_ids):
    po = catalog(language)
    assert not po.fuzzy, "the header is marked fuzzy: pybabel compile would refuse it"
    assert not po.obsolete, f"obsolete entries: {list(po.obsolete)}"
    assert [m.id for m in po if m.id and m.fuzzy] == []
    assert [m.id for m in po if m.id and m.id not in current_ids] == []


def test_template_matches_the_words(current_ids):
    with (LOCALE / "nsdevice.pot").open("rb") as f:
        template = read_po(f)
    assert [m.id for m in template if m.id] == current_ids, "run python tools/catalogs.py"


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
    assert dict(entries(committed)) == expected, "run python tools/catalogs.py to recompile"


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
    setup title and a menu row: a pgettext context in texts/ would let it shrink."""
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


# --- French spacing before high punctuation ------------------------------------------------
# One choice, everywhere: a no-break space (U+00A0) before ":", "?", "!" and ";" in French,
# so a label never ends a line on its own colon. Not the narrow one (U+202F), not a plain
# space, never none. A colon inside a {placeholder} or between digits is no punctuation.
FRENCH_HIGH = re.compile(r"(?<!\u00a0)[:?!;]|[ \u202f][:?!;]")


def _french_spacing_faults(text: str) -> list[str]:
    text = PLACEHOLDER.sub("", text)
    text = re.sub(r"https?://\S+|\d:\d", "", text)
    return [text] if FRENCH_HIGH.search(text) else []


def test_the_rule_catches_every_wrong_french_spacing():
    for wrong in ("Tour 1: carré", "Tour 1 : carré", "Tour 1\u202f: carré", "Prêts?"):
        assert _french_spacing_faults(wrong), wrong
    for right in ("Tour 1\u00a0: carré", "Prêts\u00a0?", "{label}\u00a0: {value}", "1:2"):
        assert not _french_spacing_faults(right), right


def test_french_puts_a_no_break_space_before_colons_and_marks_in_the_catalog():
    faults = [f for _, string in entries(catalog("fr")) for f in _french_spacing_faults(string)]
    assert faults == []


def test_french_screens_and_speech_space_their_colons_the_same_way():
    """Every gallery screen of every city as French shows it and says it: the lines put
    together in code (a label and its value) follow the same rule as the catalog."""
    from dataclasses import replace

    from nsdevice.gallery import example_views
    from nsdevice.texts import Role, words
    from nsdevice.voice import phrase_ids, phrase_text

    said = words("fr")
    faults = []
    for city in ("tokyo", "paris", "london"):
        for name, view in example_views(city):
            view = replace(view, language="fr")
            page = said.page(view)
            shown = [line.text for line in page.lines if line.role is not Role.DETAIL]
            texts = [page.title, *shown]
            texts += [phrase_text(phrase, "fr") for phrase in phrase_ids(view)]
            faults += [(name, f) for text in texts for f in _french_spacing_faults(text)]
    assert faults == []


# Lines a player read wrongly (issue 26): none may come back.
MISREAD = {
    "fr": ("Plus de stations", "le mien", "la mienne"),  # "no more stations"; "mine"
    "it": ("cifra prima", "cifra dopo"),
    "es": ("El mío", "el mío"),
}


@pytest.mark.parametrize("language", sorted(MISREAD))
def test_lines_players_misread_stay_gone(language):
    found = [
        string
        for _, string in entries(catalog(language))
        for wrong in MISREAD[language]
        if wrong in string
    ]
    assert found == []


def test_every_module_of_the_pages_package_is_a_family_in_pkgutils_order():
    """`texts.pages` imports its families from its folder's listing, not pkgutil's (issue
    35: pkgutil loaded for nothing else): still every module but `base`, in name order, so
    a new family is its module and nothing else."""
    import pkgutil

    import nsdevice.texts.pages as pages

    listed = [module.name for module in pkgutil.iter_modules(pages.__path__)]
    assert [family.__name__.rpartition(".")[2] for family in pages.FAMILIES] == [
        name for name in listed if name != "base"
    ]
