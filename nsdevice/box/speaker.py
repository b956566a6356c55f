"""The box's voice: each new view's phrases, played through pygame's mixer (issue 24).

A loop output (`Loop.outputs`): called after the frame is drawn, it decides at once whether
the view has something new to say and hands the utterance to the voice's own thread; the
mixer plays it on SDL's audio thread, on whatever device SDL finds (HDMI, a USB speaker, an
I2S amplifier through ALSA). A new utterance cuts the old one off.

The voice's thread decodes each clip (`nsdevice.voice`; the latest ~2 MB are kept), joins
the view's clips with a short pause between phrases into one sound on one channel, and
plays it. Decoding an Ogg
clip holds the interpreter for 1–2 ms, so the thread does it only while the loop is not
making a frame (`inputs.events.Busy`): a press never waits behind the voice. pygame is
imported and the mixer opened at the first call while the voice is on: after the first
frame, never before.

The voice never gives up (issue 32): a clip that cannot be read or decoded is left out of
its utterance with one log line (once per clip; the rest of the utterance is still said),
and any other failure of one utterance (a sound device unplugged) costs that utterance
only, with one log line per kind of failure. A manifest that cannot be read, found by
`check()` at start, turns the voice off for the run: the caller shows a notice.
"""

from __future__ import annotations

import io
import os
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from nsdevice.inputs.events import Busy
from nsdevice.views import View
from nsdevice.voice import phrase_ids
from nsdevice.voice.clips import BrokenManifest, clip_bytes, manifest

SAMPLE_RATE = 22050  # the clips' own rate (tools/voice.py), and the chimes'
BUFFER = 512  # samples: ~23 ms a buffer keeps the press → sound delay short
PAUSE = 0.12  # seconds between two phrases
MOST_FRAME_WAIT = 0.05  # seconds the voice waits for a frame at most (a stuck loop)
# Decoded clips kept, in bytes (~45 s of speech): a language's 147 clips decoded are 9 MB
# and five languages 46 MB, near a Pi Zero 2 W's whole budget; decoding again costs 1–2 ms
# on the voice's own thread, never in a frame.
KEPT_BYTES = 2_000_000
BROKEN_NOTICE = "voice_broken"  # texts: the clips cannot be read, the voice is off
MOST_LOGGED = 1000  # distinct trouble lines kept to log each once (a clip each, at most)

Utterance = tuple[str, tuple[str, ...], float]  # language, phrase ids, volume 0..1


def _to_stderr(line: str) -> None:
    print(f"nsdevice: {line}", file=sys.stderr, flush=True)


class Speaker:
    """Says each view's phrases when the voice is on; silent when off or without a sound card.

    `setting()` gives (voice on, volume 0..1) now: the menu may change both. `busy` is the
    loop's (`Loop.busy`): the voice's thread leaves the interpreter to a frame in the making.
    `log` takes the voice's trouble, one line each (the journal, through stderr).
    """

    def __init__(
        self,
        setting: Callable[[], tuple[bool, float]],
        busy: Busy | None = None,
        log: Callable[[str], None] = _to_stderr,
    ):
        self._setting = setting
        self._busy = busy if busy is not None else Busy()
        self._log = log
        self.broken: str | None = None  # why the voice is off for this run, if it is
        self._logged: set[str] = set()  # the troubles already logged: each once
        self._said: tuple[str, ...] = ()  # the last utterance: not said twice in a row
        self._mixer: Any = None  # pygame.mixer once open; False: no sound card here
        self._error: type[Exception] = Exception  # pygame.error once pygame is imported
        self._channel: Any = None
        # (language, phrase id) → samples, the least recently said first
        self._raw: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self.said_last = False  # whether the last view started an utterance
        self._asked = threading.Condition()
        self._next: Utterance | None = None  # the newest utterance not yet taken up
        self._working = False  # the thread is decoding or starting one
        self._closing = False
        self._thread: threading.Thread | None = None

    def check(self) -> str | None:
        """Read the clips' manifest now (at start, before the first frame): None when it
        reads; else why not, in one line, and the voice is off for the rest of the run."""
        try:
            manifest()
        except BrokenManifest as error:
            self.broken = str(error)
            self._once(f"voice off: {error}")
        return self.broken

    def __call__(self, view: View) -> None:
        self.said_last = False
        if self.broken is not None:
            return
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
        with self._asked:  # replaces an utterance the thread has not taken up yet
            self._next = (view.language, ids, max(0.0, min(volume, 1.0)))
            self._asked.notify_all()
        self.said_last = True

    def wait(self, timeout: float = 5.0) -> bool:
        """Until every utterance asked for is playing (or was cut off by a newer one);
        False if that took longer than `timeout` seconds. For closing, tests, benchmarks."""
        with self._asked:
            idle = lambda: self._next is None and not self._working  # noqa: E731
            return self._asked.wait_for(idle, timeout)

    def _open(self) -> bool:
        if self._mixer is None:
            # SDL would take SIGTERM for a quit event that only a window reads: a box with
            # another display (JSON, text, the SPI panel) would then ignore systemctl stop
            os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")
            import pygame

            from nsdevice.imports import part

            mixer = part("pygame.mixer")  # the runner may have held it back (issue 35)
            try:
                # a no-op where the window already opened it for its chimes (same format)
                mixer.init(frequency=SAMPLE_RATE, size=-16, channels=1, buffer=BUFFER)
                mixer.set_reserved(1)  # chimes never take the voice's channel
                self._channel = mixer.Channel(0)
                self._mixer = mixer
                self._error = pygame.error
            except pygame.error:
                self._mixer = False  # no sound device: the box plays on, silently
                return False
            self._thread = threading.Thread(target=self._work, name="nsdevice-voice", daemon=True)
            self._thread.start()
        return bool(self._mixer)

    def _work(self) -> None:
        while True:
            with self._asked:
                self._asked.wait_for(lambda: self._next is not None or self._closing)
                if self._next is None:
                    return  # closing, and nothing left to say
                utterance, self._next = self._next, None
                self._working = True
            try:
                self._say(*utterance)
            except Exception as error:  # one utterance lost, never the voice
                reason = str(error).splitlines()[0][:200] if str(error) else ""
                self._once(f"voice: an utterance was not said ({type(error).__name__}: {reason})")
            finally:
                with self._asked:
                    self._working = False
                    self._asked.notify_all()

    def _say(self, language: str, ids: tuple[str, ...], volume: float) -> None:
        """The phrases' samples in the mixer's format, one pause between each two, played."""
        parts = []
        for phrase_id in ids:
            if self._next is not None:
                return  # a newer card came while this was decoded: say that one instead
            samples = self._samples(language, phrase_id)
            if samples:  # a clip left out leaves no pause behind either
                parts.append(samples)
        if not parts:
            return
        rate, size, channels = self._mixer.get_init()
        pause = bytes(int(rate * PAUSE) * channels * abs(size) // 8)
        self._busy.wait(MOST_FRAME_WAIT)
        sound = self._mixer.Sound(buffer=pause.join(parts))
        self._channel.set_volume(volume)
        self._channel.play(sound)  # replaces whatever the channel was saying

    def _samples(self, language: str, phrase_id: str) -> bytes:
        key = (language, phrase_id)
        if key in self._raw:
            self._raw.move_to_end(key)
            return self._raw[key]
        try:
            data = clip_bytes(language, phrase_id) or clip_bytes("en", phrase_id) or b""
            self._busy.wait(MOST_FRAME_WAIT)  # decoding holds the interpreter: not mid-frame
            # decoded to the mixer's own format on load; kept while the budget allows
            samples = self._mixer.Sound(io.BytesIO(data)).get_raw() if data else b""
            if data and not samples:
                raise ValueError("no sound in it")  # an Ogg file cut short after its header
        except BrokenManifest as error:
            self._once(f"voice: {error}")  # not kept: a manifest mended is read again
            return b""
        except (OSError, ValueError, self._error) as error:  # unreadable, or not a sound
            reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
            self._once(f"voice: the clip {language}/{phrase_id} is left out: {reason}")
            samples = b""  # kept as silence: not read again, not logged again
        self._raw[key] = samples
        while sum(map(len, self._raw.values())) > KEPT_BYTES and len(self._raw) > 1:
            self._raw.popitem(last=False)
        return samples

    def _once(self, line: str) -> None:
        if line not in self._logged and len(self._logged) < MOST_LOGGED:
            self._logged.add(line)
            self._log(line)

    def close(self) -> None:
        if self._thread is not None:
            self.wait(2.0)  # the last utterance asked for starts before the mixer goes
            with self._asked:
                self._closing = True
                self._asked.notify_all()
            self._thread.join(2.0)
            self._thread = None
        if self._mixer:
            self._mixer.quit()
            self._mixer = None
