"""The editions' words: each language's glossary, and every catalog string held to it.

A game term (round, turn, interchange, stamp…) is the word of the player's own edition, one
word per concept across box, phone page and CLI (DESIGN.md: "Text on the box is ours, its
game terms are the edition's"). The glossaries are nsdevice/locale/<lang>/glossary.toml;
the checker is tools/glossary.py (run it to list every problem at once).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from nsdevice.locale import LANGUAGES
from tools import glossary
from tools.glossary import Allowed, Glossary, catalog_problems, found, load, problems, typography

ROOT = Path(__file__).resolve().parents[1]
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def seeds_folder() -> Path | None:
    """The rulebooks the project was made from (../shared/seeds beside the repository or
    one of its parents); absent on a machine that has only the repository."""
    for parent in ROOT.parents:
        if (parent / "shared" / "seeds" / "README.md").exists():
            return parent / "shared" / "seeds"
    return None


@pytest.fixture(scope="module")
def english() -> Glossary:
    return load("en")


# --- the glossaries themselves -----------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_names_every_concept_once(language, english):
    words = load(language)
    assert words.language == language
    assert sorted(words.entries) == sorted(english.entries)
    for entry in words.entries.values():
        assert entry.forms, entry.concept
        assert found(entry.forms, entry.term), f"{entry.term!r} is not one of its own forms"
        assert not found(entry.forbidden, entry.term), f"{entry.term!r} forbids itself"
        # a term is a word or a short noun phrase, never a rulebook sentence
        assert len(entry.term.split()) <= 4 and not re.search(r"[.:;!?]", entry.term)
        assert entry.source == "choice" or glossary.SEED_NAME.fullmatch(entry.source)


@pytest.mark.parametrize("language", ["es", "de", "it"])
def test_rulebook_terms_come_from_the_named_seed(language):
    """Spanish, German and Italian terms are taken from those editions' rulebooks: each word
    of the term (give or take its last letter, for the plural) is in the seed it names."""
    folder = seeds_folder()
    if folder is None:
        pytest.skip("the seed rulebooks (../shared/seeds) are not beside this repository")
    sourced = [e for e in load(language).entries.values() if e.source != "choice"]
    assert len(sourced) >= 20  # most concepts are in the Tokyo (and Paris) rulebooks
    for entry in sourced:
        text = (folder / entry.source).read_text("utf-8").casefold()
        for word in entry.term.casefold().split():
            stem = word[:-1] if len(word) > 4 else word
            assert stem in text, f"{language}: {entry.term!r} is not in {entry.source}"


def test_the_issues_known_terms_hold():
    """German: a round is a Durchgang and a turn a Runde (seed 001); Spanish intercambiador
    (000); Italian francobolli (004)."""
    de, es, it = load("de").entries, load("es").entries, load("it").entries
    assert (de["round"].term, de["turn"].term) == ("Durchgang", "Runde")
    assert "Runde" in de["round"].forbidden and "Zug" in de["turn"].forbidden
    assert es["interchange"].term == "intercambiador"
    assert found(es["interchange"].forbidden, "Correspondencias")
    assert found(it["stamp"].forms, "Francobolli") and found(it["stamp"].forbidden, "Timbri")


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_city_names_each_card_kind_with_one_word_and_its_source(language):
    """Issue 34: each card kind (underground, street) has one word per city and edition, in
    `[cards.<city>]`: the word the catalogs give the box (so every surface says it), one
    of the concept's forms, from the seed it names (that edition's rulebook prints it) or
    chosen, with why."""
    from nsdevice.rules.cities import CityName
    from nsdevice.texts import Words

    edition, said = load(language), Words(language)
    assert sorted(edition.cards) == sorted(c.value for c in CityName)
    folder = seeds_folder()
    for city, kinds in edition.cards.items():
        assert sorted(kinds) == ["street", "underground"], city
        for kind, card in kinds.items():
            assert card.word == said.kind(kind, city), (city, kind)
            concept = "street" if kind == "street" else "metro" if city == "paris" else kind
            assert found(edition.entries[concept].forms, card.word), (city, kind, card.word)
            if card.source == "choice":
                assert card.why, (city, kind)
                continue
            assert glossary.SEED_NAME.fullmatch(card.source), (city, kind, card.source)
            if folder is not None:  # the edition's rulebook prints it (as its card's name)
                text = (folder / card.source).read_text("utf-8").casefold()
                assert card.word.casefold() in text, (city, kind, card.source)


# --- the catalogs follow them ------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalog_uses_the_glossarys_words(language):
    """Every msgid that names a game concept is translated with the glossary's word, and no
    string uses another word for a concept. Fix: python tools/glossary.py lists them."""
    assert catalog_problems(language) == []


@pytest.mark.parametrize(
    ("language", "msgid", "text", "wrong"),
    [
        ("de", "Line of round {round}", "Linie aus Runde {round}", "Runde"),
        ("de", "Your pencil this round", "Dein Stift in dieser Runde", "Runde"),
        ("de", "Last turn of the round", "Letzter Zug des Durchgangs", "Zug"),
        ("de", "Overpasses used once", "Brücken einmal genutzt", "Brücken"),
        ("de", "Monuments", "Denkmäler", "Denkmäler"),
        ("es", "Interchanges", "Correspondencias", "Correspondencias"),
        ("es", "8 interchanges", "8 correspondencias", "correspondencias"),
        ("es", "Seat", "Asiento", "Asiento"),
        ("it", "Tourist stamps", "Timbri turistici", "Timbri"),
        ("it", "Most stations in one district", "Più stazioni in un distretto", "stazioni"),
        ("fr", "The whole green ring", "Toute la boucle verte", "boucle"),
        ("fr", "Overpasses used twice", "Ponts utilisés deux fois", "Ponts"),
        ("en", "Overpasses used once", "Bridges used once", "Bridges"),
    ],
)
def test_another_word_for_a_game_term_is_caught(language, msgid, text, wrong):
    lines = catalog_problems(language, [(msgid, text)])
    assert lines, f"{text!r} passed"
    assert any(
        f"{language}/nsdevice.po" in line and repr(msgid) in line and repr(wrong) in line
        for line in lines
    ), lines


@pytest.mark.parametrize(
    ("language", "msgid", "text"),
    [
        ("de", "Round {number} · Turn {turn}", "Durchgang {number} · Runde {turn}"),
        ("de", "Draw the last section of this turn.", "Letzten Abschnitt dieser Runde zeichnen."),
        ("es", "Interchanges", "Intercambiadores"),
        ("it", "Tourist stamps", "Francobolli"),
        ("fr", "Go back into round {round}?", "Revenir à la manche {round}\u00a0?"),
    ],
)
def test_the_glossarys_word_passes(language, msgid, text):
    assert catalog_problems(language, [(msgid, text)]) == []


def test_a_msgid_naming_a_concept_needs_its_word(english):
    """Leaving the term out is caught too: "Earlier this round" must say Durchgang."""
    wrong = problems("Earlier this round", "Früher im Spiel", load("de"), english)
    assert wrong == ["names no round (the glossary's word: 'Durchgang')"]


def test_a_longer_term_is_not_its_parts(english):
    assert glossary.concepts("Pencil powers:", english) == ["pencil_power"]
    assert "pencil" in glossary.concepts("Pass the pencils", english)


def test_allowed_excuses_one_word_in_one_msgid(english):
    de = load("de")
    excused = Glossary("de", de.entries, (Allowed("Every pencil moves one place left.", "Platz",
                                                  "a slot, not a seat"),))  # fmt: skip
    text = "Jeder Stift rückt einen Platz nach links."
    assert problems("Every pencil moves one place left.", text, de, english)
    assert problems("Every pencil moves one place left.", text, excused, english) == []
    assert problems("Seat", "Platz", excused, english)  # only in that msgid


def test_french_puts_a_no_break_space_before_double_signs():
    assert typography("Joueur {seat}\u00a0: total") == []
    assert typography("Confirmer\u00a0?") == []
    assert typography("3:1 et 4:2") == []  # ratios are not punctuation
    assert typography("http://192.168.1.23:8414/") == []  # nor an address
    assert len(typography("Joueur {seat}: total")) == 1
    assert len(typography("NEXT maintenu : +5")) == 1
    assert len(typography("Nouveau record\u202f!")) == 1  # one rule: U+00A0, everywhere


def test_command_line_uses_the_english_terms(english):
    """The CLI speaks English only (no catalog): its strings avoid other words for a term."""
    tree = ast.parse((ROOT / "nsdevice" / "cli.py").read_text("utf-8"))
    strings = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
               and isinstance(n.value, str)]  # fmt: skip
    assert any("controller" in s for s in strings)  # the walk really found the CLI's words
    wrong = [(s, word) for s in strings for e in english.entries.values()
             for word in found(e.forbidden, s)]  # fmt: skip
    assert wrong == []


@pytest.mark.parametrize("city", ["tokyo", "paris", "london"])
def test_french_screens_space_every_colon_also_where_the_code_joins_words(city):
    """Every French text the box draws, as painted (a label and its value joined in code
    included: they go through the '{label}: {value}' msgid), follows the one rule."""
    import pygame

    from nsdevice.displays.painter import Painter
    from nsdevice.gallery import example_views
    from nsdevice.texts import Words

    surface, painter, words = pygame.Surface((480, 320)), Painter(), Words("fr")
    texts = {
        placed.text
        for name, view in example_views(city, "fr")
        if not name.startswith("notice-")  # a notice's detail is the system's own message
        for placed in painter.paint(view, surface, words).texts
    }
    assert any("\u00a0:" in text for text in texts)  # the gallery really has such lines
    assert [(text, typography(text)) for text in sorted(texts) if typography(text)] == []
