"""One word per card kind (issue 34, item 3): each city's underground and street cards have
one word in each edition, its glossary's (`[cards.<city>]` in
nsdevice/locale/<lang>/glossary.toml), on every surface that names them: the card as
painted on three builds, the turn, the deck, the round so far, the phones' payload, the
voice's phrases and the clips' manifest. A surface is read as it is drawn or sent, never
from the layout's own variables."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from nsdevice import views
from nsdevice.inputs.events import Button, Press
from nsdevice.locale import LANGUAGES
from nsdevice.rules.cards import Kind
from nsdevice.session import Session, Settings
from nsdevice.texts import words
from nsdevice.voice import phrase_text, say
from nsdevice.voice.clips import manifest
from nsdevice.web.payload import Artwork, payload
from tests.painted_pages import painted_pages
from tools.glossary import found, load

NEXT, MENU = Press(Button.NEXT), Press(Button.MENU)
CITIES = ("tokyo", "paris", "london")
BUILDS = ("display-hat-mini", "arcade-gpio", "tv")  # 2-inch, 7-inch, a 40-inch TV


def word(language: str, city: str, kind: Kind) -> str:
    return load(language).cards[city][kind.value].word


def others(language: str, city: str, kind: Kind) -> set[str]:
    """The edition's other words for the same kind (another city's), which a surface of
    this city must not use: the one word, and no second."""
    glossary = load(language)
    own = glossary.cards[city][kind.value].word
    return {c[kind.value].word for c in glossary.cards.values()} - {own}


def mentions(text: str, term: str) -> bool:
    return bool(found((term,), text))


def open_row(session: Session, row: str) -> views.View:
    """From a turn: the menu, its cursor on `row`, opened."""
    session.press(MENU)
    keys = [r.key for r in session.view().rows]
    while session.view().cursor != keys.index(row):
        session.press(NEXT)
    session.press(MENU)
    return session.view()


def played(city: str, language: str) -> tuple[list[views.TurnView], Session]:
    """A two-player game, turned until both kinds of card have been revealed (round 1)."""
    session = Session(Settings(city=city, players=2, language=language),
                      seed_source=lambda: "ONEWORD")  # fmt: skip
    session.deal_new_game()
    turns: list[views.TurnView] = []
    while {t.cards[-1].kind for t in turns} != set(Kind) or len(turns) < 3:
        session.press(NEXT)
        view = session.view()
        if isinstance(view, views.TurnView) and view.cards:
            turns.append(view)
    assert session.screen == "turn" and not turns[-1].last
    return turns, session


def painted(view: views.View, language: str) -> Iterator[tuple[str, list[tuple[str, str]]]]:
    """Every page of `view` on each build: (build, [(role, text) as drawn])."""
    for build in BUILDS:
        for drawing in painted_pages(view, build, words(language)):
            yield build, [(t.role, t.text) for t in drawing.texts]


def assert_one_word(city: str, language: str, kind: Kind, texts: list[str], where: str) -> None:
    joined = " | ".join(texts)
    assert mentions(joined, word(language, city, kind)), (where, kind, joined)
    for other in others(language, city, kind):
        assert not mentions(joined, other), (where, f"{other!r} beside", joined)


@pytest.mark.parametrize("city", CITIES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_surface_names_each_card_kind_with_the_one_word(city, language):
    turns, session = played(city, language)
    for turn in turns:
        kind = turn.cards[-1].kind
        # the card as painted: its label is the word, on the 2-inch glass as on a TV
        for build, drawn in painted(turn, language):
            labels = [text for role, text in drawn if role == "card-label"]
            assert labels == [word(language, city, kind)], (build, labels)
            count = [text for role, text in drawn if role == "underground"]
            assert count, build  # C-4: every page shows the count
            if any(ch.isalpha() for text in count for ch in text):  # the count in words
                assert_one_word(city, language, Kind.UNDERGROUND, count, f"{build} count")
            assert_one_word(city, language, kind, [t for _, t in drawn], f"{build} turn")
        # the turn as the terminal writes it: the card and the count
        page = words(language).page(turn)
        lines = [line.text for line in page.lines]
        assert_one_word(city, language, kind, lines, "terminal turn")
        assert_one_word(city, language, Kind.UNDERGROUND, lines, "terminal count")
        # the voice: the card's kind is said with the same word
        said = [p.text for p in say(turn)]
        assert word(language, city, kind) in said, said
    turn = turns[-1]
    data = payload(1, session.table(), language, Artwork())  # the phones' payload
    cards = [*data["cards"], *data["deck"], *(c for turn in data["earlier"] for c in turn)]
    labels = [c["label"] for c in cards]
    for kind in Kind:
        assert_one_word(city, language, kind, labels, "phones' cards")
    lines = [text for text, _role in data["lines"]]
    assert_one_word(city, language, Kind.UNDERGROUND, lines, "phones' lines")
    deck = open_row(session, "deck")  # what is left: both kinds, named as on the card
    assert isinstance(deck, views.DeckView) and {c.kind for c in deck.remaining} == set(Kind)
    session.press(NEXT)
    so_far = open_row(session, "round_so_far")  # the round's cards so far
    assert isinstance(so_far, views.RoundSoFarView) and so_far.turns[-1].cards == turn.cards
    for screen in (deck, so_far):
        for kind in Kind:
            if screen is so_far and kind not in {c.kind for t in so_far.turns for c in t.cards}:
                continue
            page = words(language).page(screen)
            assert_one_word(city, language, kind, [line.text for line in page.lines],
                            f"terminal {screen.screen}")  # fmt: skip
            for build, drawn in painted(screen, language):
                assert_one_word(city, language, kind, [t for _, t in drawn],
                                f"{build} {screen.screen}")  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_voice_and_its_clips_say_each_card_kind_with_the_one_word(language):
    clips = manifest().clips[language]
    for city in CITIES:
        underground = word(language, city, Kind.UNDERGROUND)
        assert phrase_text(f"kind.underground.{city}", language) == underground
        assert clips[f"kind.underground.{city}"].text == underground
        # one street phrase for every city: each city's street word is that one
        assert phrase_text("kind.street", language) == word(language, city, Kind.STREET)
        assert clips["kind.street"].text == word(language, city, Kind.STREET)
