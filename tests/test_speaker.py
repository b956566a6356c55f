"""The box's voice on pygame's mixer (issue 24), on SDL's dummy audio driver: what starts
playing, what a new card does to the old utterance, and what stays silent; a clip or a
manifest lost or damaged never silences the next card (issue 32)."""

from __future__ import annotations

import io
import random
import shutil
import time

import pygame
import pytest

from nsdevice import views
from nsdevice.box import speaker as speaker_module
from nsdevice.box.speaker import PAUSE, Speaker
from nsdevice.inputs.events import Busy
from nsdevice.rules.cards import Kind, StationCard, Symbol
from nsdevice.voice import clips as clips_module
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


# --- the voice never gives up (issue 32) -------------------------------------------------


@pytest.fixture
def clips_copy(tmp_path, monkeypatch):
    """The shipped clips and manifest copied where a test may damage them, and read from
    there (the manifest read again, and again after the test)."""
    copy = tmp_path / "clips"
    shutil.copytree(clips_module.folder(), copy)
    monkeypatch.setattr(clips_module, "folder", lambda: copy)
    clips_module.manifest.cache_clear()
    pygame.mixer.init(frequency=22050, size=-16, channels=1, buffer=512)  # as the box's
    yield copy
    clips_module.manifest.cache_clear()


def heard_speaker(log: list[str]) -> Speaker:
    return Speaker(lambda: (True, 1.0), log=log.append)


def clip_file(copy, view: views.View, index: int = 0):
    phrase_id = phrase_ids(view)[index]
    return copy / clips_module.manifest().clip(view.language, phrase_id).file


def say_and_hear(box: Speaker, view: views.View) -> float:
    """The length in seconds of what the voice's channel plays once `view` is said."""
    box(view)
    assert box.wait()
    assert pygame.mixer.Channel(0).get_busy()
    return pygame.mixer.Channel(0).get_sound().get_length()


def heard_without(view: views.View, *left_out: str) -> float:
    """What `view`'s utterance lasts with the clips `left_out` (and their pauses) left out."""
    kept = [phrase_id for phrase_id in phrase_ids(view) if phrase_id not in left_out]
    total = 0
    for phrase_id in kept:
        data = clip_bytes(view.language, phrase_id)
        total += len(pygame.mixer.Sound(io.BytesIO(data)).get_raw()) // 2
    return (total + int(22050 * PAUSE) * (len(kept) - 1)) / 22050


def damage_deleted(path) -> None:
    path.unlink()


def damage_truncated(path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def damage_cut_after_header(path) -> None:
    path.write_bytes(path.read_bytes()[:4000])  # Ogg pages that hold no sound yet


def damage_garbage(path) -> None:
    path.write_bytes(random.Random(32).randbytes(path.stat().st_size))


@pytest.mark.parametrize(
    "damage", [damage_deleted, damage_truncated, damage_cut_after_header, damage_garbage]
)
def test_a_bad_clip_is_left_out_with_one_log_line_and_the_next_card_is_spoken(
    clips_copy, damage
):
    square, circle = turn(Symbol.SQUARE, 1), turn(Symbol.CIRCLE, 2)
    whole_circle = heard_without(circle)  # measured before the damage
    short_square = heard_without(square, "symbol.square")
    damage(clip_file(clips_copy, square))
    log: list[str] = []
    box = heard_speaker(log)
    try:
        # the rest of the utterance (the underground count) is still said
        assert say_and_hear(box, square) == pytest.approx(short_square, abs=1e-3)
        assert len(log) == 1 and "en/symbol.square is left out" in log[0]
        assert say_and_hear(box, circle) == pytest.approx(whole_circle, abs=1e-3)
        assert say_and_hear(box, turn(Symbol.SQUARE, 3)) > 0  # the same clip once more:
        assert len(log) == 1  # not logged again
        assert box._thread is not None and box._thread.is_alive()
    finally:
        started = time.monotonic()
        box.close()
        assert time.monotonic() - started < 1.5  # close() does not wait out its 2 s


def test_an_utterance_of_bad_clips_only_says_nothing_and_the_next_card_is_spoken(clips_copy):
    square, circle = turn(Symbol.SQUARE, 1), turn(Symbol.CIRCLE, 2)
    short_circle = heard_without(circle, "kind.street")  # the word both cards say
    for index in range(len(phrase_ids(square))):
        damage_garbage(clip_file(clips_copy, square, index))
    log: list[str] = []
    box = heard_speaker(log)
    try:
        box(square)
        assert box.wait()
        assert len(log) == len(phrase_ids(square))  # one line for each clip
        assert say_and_hear(box, circle) == pytest.approx(short_circle, abs=1e-3)
    finally:
        box.close()


def test_a_broken_manifest_at_start_turns_the_voice_off_for_the_run(clips_copy):
    (clips_copy / "manifest.json").write_text('{"engine": "espeak-ng", "clips": [', "utf-8")
    log: list[str] = []
    box = heard_speaker(log)
    try:
        broken = box.check()
        assert broken is not None and "manifest.json: not a voice manifest" in broken
        assert "\n" not in broken
        assert log == [f"voice off: {broken}"]
        box(turn(Symbol.SQUARE, 1))
        assert not box.said_last and box.wait()
        assert box._thread is None  # nothing opened for a voice that cannot speak
    finally:
        box.close()


@pytest.mark.parametrize(
    "manifest",
    [
        b"",  # emptied
        b"\xff\xfe not text",
        b"[" * 100_000,  # too deep for the JSON reader
        b'{"engine": "e", "licence": "l", "clips": {"en": {"x": {"file": "../../etc/passwd",'
        b' "text": "t", "seconds": 1}}}}',  # a clip outside the clips folder
        b'{"engine": "e", "licence": "l", "clips": {"en": {"x": 5}}}',
    ],
)
def test_every_broken_manifest_is_one_line_and_never_an_exception(clips_copy, manifest):
    (clips_copy / "manifest.json").write_bytes(manifest)
    broken = Speaker(lambda: (True, 1.0), log=[].append).check()
    assert broken is not None and "\n" not in broken and len(broken) < 400


def test_a_manifest_broken_after_start_costs_those_cards_only(clips_copy):
    """The voice turned on in the menu, or the manifest damaged while the box runs: its
    cards are not said (one log line), and once it reads again the next card is."""
    circle = turn(Symbol.CIRCLE, 2)
    whole_circle = heard_without(circle)
    manifest_file = clips_copy / "manifest.json"
    good = manifest_file.read_bytes()
    manifest_file.write_text("not json", "utf-8")
    clips_module.manifest.cache_clear()
    log: list[str] = []
    box = heard_speaker(log)
    try:
        box(turn(Symbol.SQUARE, 1))
        assert box.wait()
        box(turn(Symbol.PENTAGON, 1))
        assert box.wait()
        assert len(log) == 1 and "not a voice manifest" in log[0]
        manifest_file.write_bytes(good)  # mended (an update)
        assert say_and_hear(box, circle) == pytest.approx(whole_circle, abs=1e-3)
    finally:
        box.close()


def test_a_failing_sound_device_costs_one_utterance_not_the_voice(speaker, monkeypatch):
    """Any other failure of an utterance (a USB speaker pulled out) is logged once and
    the voice's thread goes on to the next card."""
    log: list[str] = []
    box = heard_speaker(log)
    try:
        assert say_and_hear(box, turn(Symbol.SQUARE, 1)) > 0
        real = box._channel
        box._channel = None  # playing raises inside the voice's thread
        box(turn(Symbol.CIRCLE, 1))
        assert box.wait()
        assert len(log) == 1 and "an utterance was not said (AttributeError" in log[0]
        box._channel = real
        assert say_and_hear(box, turn(Symbol.PENTAGON, 1)) > 0
    finally:
        box.close()
