"""What the box says (issue 24): every phrase a game can say, in every language, has a clip
whose words are the phrase's words today; a turn names its card and the count."""

from __future__ import annotations

import itertools
import statistics

import pytest

from nsdevice import views
from nsdevice.inputs.events import Button, Press
from nsdevice.locale import LANGUAGES, translations
from nsdevice.rules.cards import Kind, Special, StationCard, Symbol
from nsdevice.session import Session, Settings
from nsdevice.texts import words
from nsdevice.voice import CATALOGUE, phrase_ids, phrase_text, say
from nsdevice.voice.clips import folder, manifest
from tools import voice

NEXT, MENU = Press(Button.NEXT), Press(Button.MENU)
MODULE_SETS = {
    "tokyo": ("objectives", "special_stations"),
    "paris": ("city_gates",),
    "london": ("pencil_powers", "special_stations"),
}


def game_views(city: str, players: int, modules: tuple[str, ...], seed: str):
    """Every view a game shows from its summary to its end, pressing NEXT only."""
    session = Session(
        Settings(city=city, players=players, modules=modules), seed_source=lambda: seed
    )
    session.press(MENU)  # start, from the setup's "start" row
    seen = [session.view()]
    while session.screen != "game_end":
        session.press(NEXT)
        seen.append(session.view())
    return seen


@pytest.mark.parametrize("city", ["tokyo", "paris", "london"])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_phrase_a_game_says_is_in_the_catalogue(city, players):
    for seed in ("VOICE1", "VOICE2", "VOICE3"):
        for view in game_views(city, players, MODULE_SETS[city], seed):
            for phrase_id in phrase_ids(view):
                assert phrase_id in CATALOGUE, (view.screen, phrase_id)


@pytest.mark.parametrize("city", ["tokyo", "paris", "london"])
def test_every_turn_names_its_card_and_the_underground_count_C4(city):
    turns = [v for v in game_views(city, 1, (), "COUNT") if isinstance(v, views.TurnView)]
    assert turns
    for turn in turns:
        ids = phrase_ids(turn)
        card = turn.cards[-1]
        face = f"symbol.{card.symbol.value}" if card.symbol else f"special.{card.special.value}"
        assert face in ids
        assert f"count.{turn.underground_seen}.{turn.underground_total}" in ids
        assert ("last_turn" in ids) == turn.last


def test_a_switch_on_the_first_turns_says_no_effect_T4():
    switch = StationCard("street-switch", Kind.STREET, special=Special.SWITCH)
    companion = StationCard("street-circle", Kind.STREET, symbol=Symbol.CIRCLE)
    view = views.TurnView(city="tokyo", turn=2, cards=(switch, companion), switch_effect=False)
    ids = phrase_ids(view)
    assert ids[:2] == ("special.switch", "switch.no_effect")
    assert "symbol.circle" in ids
    later = phrase_ids(views.TurnView(cards=(switch, companion), switch_effect=True))
    assert later[:2] == ("special.switch", "switch.branch")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_turn_is_said_in_the_views_language(language):
    card = StationCard("underground-triangle", Kind.UNDERGROUND, symbol=Symbol.TRIANGLE)
    view = views.TurnView(language=language, cards=(card,), underground_seen=3)
    text = " ".join(p.text for p in say(view))
    assert words(language).symbol("triangle") in text
    assert "3" in text and "5" in text


def test_result_names_the_tier_or_the_winners_S_SOLO_C12():
    assert phrase_ids(views.ResultView(solo=True, tier=4)) == ("tier.4", "tier_title.4")
    assert phrase_ids(views.ResultView(solo=False, winners=(3,))) == ("winner.3",)
    assert phrase_ids(views.ResultView(solo=False, winners=(4, 1))) == ("shared.1-4",)
    for size in (2, 3, 4):
        for seats in itertools.combinations(range(1, 5), size):
            for phrase_id in phrase_ids(views.ResultView(solo=False, winners=seats)):
                assert phrase_id in CATALOGUE


def test_screens_with_nothing_new_to_say_are_silent():
    assert say(views.MenuView()) == ()
    assert say(views.SummaryView(recall=True, city_gates=(("nw", "double_stop"),))) == ()


# --- the clips ----------------------------------------------------------------------------
def test_every_phrase_has_a_clip_in_every_language_saying_its_words():
    clips = manifest().clips
    assert set(clips) == set(LANGUAGES)
    for language in LANGUAGES:
        assert set(clips[language]) == set(CATALOGUE), language
        for phrase_id in CATALOGUE:
            clip = clips[language][phrase_id]
            # a catalog change re-words a phrase: its clip must be rendered again
            assert clip.text == phrase_text(phrase_id, language), (language, phrase_id)
            data = (folder() / clip.file).read_bytes()
            assert data[:4] == b"OggS", clip.file
            assert 0.1 < clip.seconds < 4.0, (language, phrase_id, clip.seconds)


def test_the_clips_together_stay_under_ten_megabytes_and_say_what_made_them():
    files = [folder() / c.file for entries in manifest().clips.values() for c in entries.values()]
    assert sum(len(f.read_bytes()) for f in files) < 10_000_000
    assert "espeak-ng" in manifest().engine and "GPL" in manifest().engine
    assert manifest().licence


# --- how the clips sound, as the box decodes them ------------------------------------------
AND = {"en": "and", "es": "y", "de": "und", "it": "e", "fr": "et"}  # each language's "and"


@pytest.fixture(scope="module")
def heard() -> dict[str, list[tuple[str, float, float]]]:
    """Every shipped clip decoded by the box's mixer: language → (phrase id, speech level,
    peak), both in dBFS."""
    found: dict[str, list[tuple[str, float, float]]] = {}
    with voice.box_mixer() as mixer:
        for language, clips in manifest().clips.items():
            found[language] = []
            for phrase_id, clip in clips.items():
                samples = voice.decoded(mixer, folder() / clip.file)
                found[language].append(
                    (phrase_id, voice.speech_level(samples), voice.peak(samples))
                )
    return found


def test_no_clip_decodes_at_full_scale(heard):
    assert voice.DECODED_CEILING < 0
    over = [
        (language, phrase_id, round(peak, 2))
        for language, clips in heard.items()
        for phrase_id, _, peak in clips
        if peak >= voice.DECODED_CEILING
    ]
    assert not over, f"{len(over)} clips decode over {voice.DECODED_CEILING} dBFS: {over[:5]}"


def test_every_language_speaks_at_one_level(heard):
    medians = {lang: statistics.median(level for _, level, _ in c) for lang, c in heard.items()}
    assert set(medians) == set(LANGUAGES)
    spread = max(medians.values()) - min(medians.values())
    assert spread <= 1.0, {language: round(level, 2) for language, level in medians.items()}
    for language, clips in heard.items():  # and no clip much louder or softer than the rest
        odd = [(i, round(level, 2)) for i, level, _ in clips if abs(level - medians[language]) > 1]
        assert not odd, (language, odd)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_plus_between_two_effects_is_said_as_and_TSP2_PCG1(language):
    """The screen writes "Joker + double track"; a voice would read "plus"."""
    joined = [phrase_id for phrase_id in CATALOGUE if " + " in _screen_words(phrase_id, language)]
    assert joined, "no phrase joins two effects: nothing to check"
    for phrase_id in CATALOGUE:
        assert "+" not in phrase_text(phrase_id, language), phrase_id
    for phrase_id in joined:
        assert AND[language] in phrase_text(phrase_id, language).split(), phrase_id


def _screen_words(phrase_id: str, language: str) -> str:
    """A phrase's words as the screen writes them (before `phrase_text` says the "+")."""
    return CATALOGUE[phrase_id](words(language), translations(language).gettext)
