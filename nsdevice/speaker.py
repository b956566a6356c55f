"""The box's voice: each new view's phrases, played through pygame's mixer (issue 24).

A loop output (`Loop.outputs`): called after the frame is drawn, it starts the sound and
returns at once; the mixer plays it on SDL's own audio thread, on whatever device SDL finds
(HDMI, a USB speaker, an I2S amplifier through ALSA). A new utterance cuts the old one off.

The utterance is the view's clips (`nsdevice.voice`) decoded once each and joined, with a
short pause between phrases, into one sound on one channel. pygame is imported and the
mixer opened at the first call while the voice is on: after the first frame, never before.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from nsdevice.views import View
from nsdevice.voice import phrase_ids
from nsdevice.voice.clips import clip_bytes

SAMPLE_RATE = 22050  # the clips' own rate (tools/voice.py), and the chimes'
BUFFER = 512  # samples: ~23 ms a buffer keeps the press → sound delay short
PAUSE = 0.12  # seconds between two phrases


class Speaker:
    """Says each view's phrases when the voice is on; silent when off or without a sound card.

    `setting()` gives (voice on, volume 0..1) now: the menu may change both."""

    def __init__(self, setting: Callable[[], tuple[bool, float]]) -> None:
        self._setting = setting
        self._said: tuple[str, ...] = ()  # the last utterance: not said twice in a row
        self._mixer: Any = None  # pygame.mixer once open; False: no sound card here
        self._channel: Any = None
        self._raw: dict[tuple[str, str], bytes] = {}  # (language, phrase id) → samples
        self.said_last = False  # whether the last view started an utterance

    def __call__(self, view: View) -> None:
        self.said_last = False
        on, volume = self._setting()
        # opened at the first frame (after it is drawn), so the first card pays nothing
        if on and not self._open():
            return
        ids = phrase_ids(view)
        if not ids or ids == self._said:
            return  # a screen with nothing to say, or the same again (back from the menu)
        self._said = ids
        if not on:
            return
        sound = self._mixer.Sound(buffer=self._utterance(view.language, ids))
        self._channel.set_volume(max(0.0, min(volume, 1.0)))
        self._channel.play(sound)  # replaces whatever the channel was saying
        self.said_last = True

    def _open(self) -> bool:
        if self._mixer is None:
            import pygame

            try:
                # a no-op where the window already opened it for its chimes (same format)
                pygame.mixer.init(frequency=SAMPLE_RATE, size=-16, channels=1, buffer=BUFFER)
                pygame.mixer.set_reserved(1)  # chimes never take the voice's channel
                self._channel = pygame.mixer.Channel(0)
                self._mixer = pygame.mixer
            except pygame.error:
                self._mixer = False  # no sound device: the box plays on, silently
        return bool(self._mixer)

    def _utterance(self, language: str, ids: tuple[str, ...]) -> bytes:
        """The phrases' samples in the mixer's format, one pause between each two."""
        rate, size, channels = self._mixer.get_init()
        pause = bytes(int(rate * PAUSE) * channels * abs(size) // 8)
        return pause.join(self._samples(language, phrase_id) for phrase_id in ids)

    def _samples(self, language: str, phrase_id: str) -> bytes:
        key = (language, phrase_id)
        if key not in self._raw:
            data = clip_bytes(language, phrase_id) or clip_bytes("en", phrase_id) or b""
            # decoded to the mixer's own format on load; kept, so a clip is decoded once
            self._raw[key] = self._mixer.Sound(io.BytesIO(data)).get_raw() if data else b""
        return self._raw[key]

    def close(self) -> None:
        if self._mixer:
            self._mixer.quit()
            self._mixer = None
