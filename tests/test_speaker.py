"""The box's voice on pygame's mixer (issue 24), on SDL's dummy audio driver: what starts
playing, what a new card does to the old utterance, and what stays silent."""

from __future__ import annotations

import io

import pygame
import pytest

from nsdevice import speaker as speaker_module
from nsdevice import views
from nsdevice.inputs.events import Busy
from nsdevice.rules.cards import Kind, StationCard, Symbol
from nsdevice.speaker import PAUSE, Speaker
from nsdevice.voice import phrase_ids
from nsdevice.voice.clips import clip_bytes


def turn(symbol: Symbol, seen: int, language: str = "en") -> views.TurnView:
    card = StationCard(f"street-{symbol.value}", Kind.STREET, symbol=symbol)
    return views.TurnView(language=language, cards=(card,), underground_seen=seen)


@pytest.fixture
def speaker():
    setting = {"on": True, "volume": 0.6}
    box = Speaker(lambda: (setting["on"], setting["volume"]))
    box.setting = setting  # type: ignore[attr-defined]
    yield box
    box.close()


def samples(view: views.View) -> int:
    """How many samples the utterance for `view` has: its clips and the pauses between."""
    total = 0
    ids = phrase_ids(view)
    for phrase_id in ids:
        data = clip_bytes(view.language, phrase_id)
        assert data is not None
        total += len(pygame.mixer.Sound(io.BytesIO(data)).get_raw()) // 2
    return total + int(22050 * PAUSE) * (len(ids) - 1)


def test_a_reveal_starts_its_whole_utterance_at_the_volume_set(speaker):
    view = turn(Symbol.TRIANGLE, 3)
    speaker(view)
    assert speaker.wait()
    channel = pygame.mixer.Channel(0)
    assert channel.get_busy()
    assert channel.get_volume() == pytest.approx(0.6, abs=0.01)
    assert channel.get_sound().get_length() == pytest.approx(samples(view) / 22050, abs=1e-3)


def test_a_new_card_cuts_the_old_utterance_off(speaker):
    speaker(turn(Symbol.TRIANGLE, 3))
    assert speaker.wait()
    first = pygame.mixer.Channel(0).get_sound()
    speaker(turn(Symbol.CIRCLE, 4, language="de"))
    assert speaker.wait()
    second = pygame.mixer.Channel(0).get_sound()
    assert second is not first
    assert second.get_length() == pytest.approx(samples(turn(Symbol.CIRCLE, 4, "de")) / 22050)


def test_the_same_utterance_is_not_said_twice_in_a_row(speaker):
    speaker(turn(Symbol.SQUARE, 1))
    assert speaker.wait()
    first = pygame.mixer.Channel(0).get_sound()
    speaker(views.MenuView())  # the menu says nothing; back to the same card
    speaker(turn(Symbol.SQUARE, 1))
    assert speaker.wait()
    assert pygame.mixer.Channel(0).get_sound() is first


def test_voice_off_opens_no_mixer_and_says_nothing(speaker):
    speaker.setting["on"] = False
    pygame.mixer.quit()
    speaker(turn(Symbol.SQUARE, 1))
    assert speaker.wait()
    assert pygame.mixer.get_init() is None


def test_without_a_sound_device_the_box_plays_on_silently(monkeypatch):
    monkeypatch.setenv("SDL_AUDIODRIVER", "no-such-driver")
    pygame.mixer.quit()
    box = Speaker(lambda: (True, 1.0))
    box(turn(Symbol.SQUARE, 1))  # no exception: the game goes on without a voice
    assert box.wait()
    assert pygame.mixer.get_init() is None


def test_the_voice_decodes_nothing_while_the_loop_makes_a_frame(speaker, monkeypatch):
    monkeypatch.setattr(speaker_module, "MOST_FRAME_WAIT", 30.0)  # no way round the frame
    busy = Busy()
    box = Speaker(lambda: (True, 1.0), busy)
    try:
        busy.start()  # a press arrived; its frame is not out yet
        box(turn(Symbol.PENTAGON, 2, language="it"))
        assert box.said_last  # decided at once, on the loop's thread
        assert not box.wait(0.1)  # the clips wait for the frame
        assert not pygame.mixer.Channel(0).get_busy()
        busy.done()
        assert box.wait()
        assert pygame.mixer.Channel(0).get_busy()
    finally:
        box.close()


def test_a_newer_card_replaces_an_utterance_not_yet_started(speaker):
    busy = Busy()
    box = Speaker(lambda: (True, 1.0), busy)
    try:
        busy.start()
        box(turn(Symbol.SQUARE, 1, language="fr"))
        box(turn(Symbol.CIRCLE, 2, language="fr"))  # the table went on before a sound
        busy.done()
        assert box.wait()
        sound = pygame.mixer.Channel(0).get_sound()
        assert sound.get_length() == pytest.approx(samples(turn(Symbol.CIRCLE, 2, "fr")) / 22050)
    finally:
        box.close()


def test_the_decoded_clips_kept_stay_within_their_budget(speaker, monkeypatch):
    """A Pi Zero 2 W has 512 MB and the box 50 MB: five languages' clips decoded are 46 MB."""
    monkeypatch.setattr(speaker_module, "KEPT_BYTES", 300_000)
    for language in ("en", "de", "es", "fr", "it"):
        for symbol in Symbol:
            speaker(turn(symbol, 2, language))
            assert speaker.wait()
    kept = speaker._raw
    assert 0 < sum(map(len, kept.values())) <= 300_000
    assert ("it", phrase_ids(turn(Symbol.PENTAGON, 2, "it"))[0]) in kept  # the newest stay
