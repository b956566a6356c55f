"""The pygame display: a window on a PC (`--display window`) or the whole screen of a Pi
without a desktop through SDL's KMS/DRM driver (`--display kmsdrm`).

It owns pygame's event queue, so it also provides the inbox: keys become button edges,
closing the window asks the loop to stop, and other threads (GPIO, serial board) post
their items into the same queue so that one blocking wait hears everything.
"""

from __future__ import annotations

import math
import os
import queue
import time
from array import array
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Self

import pygame

from nsdevice.displays import DisplayUnavailable
from nsdevice.displays.painted import PaintedDisplay
from nsdevice.displays.painter import Painter
from nsdevice.inputs.events import INBOX_BOUND, Button, Edge, Item, Stop, offer

# Keyboard keys by their SDL names (`pygame.key.key_code`), kept as data so a hardware
# profile can bring its own. Several keys per button: whatever a USB keypad sends.
KEYS: Mapping[str, Button] = MappingProxyType(
    {
        "right": Button.NEXT,
        "space": Button.NEXT,
        "return": Button.NEXT,
        "n": Button.NEXT,
        "left": Button.BACK,
        "backspace": Button.BACK,
        "b": Button.BACK,
        "escape": Button.MENU,
        "tab": Button.MENU,
        "m": Button.MENU,
    }
)
QUIT_KEYS = ("q",)  # as in the terminal: the window closes and the run ends
# What SDL says when the window's picture may be gone: uncovered, shown again, restored
# from an icon, resized. Each is answered by painting the last view again, at once.
REDRAW_EVENTS = frozenset(
    (
        pygame.WINDOWEXPOSED,
        pygame.WINDOWSHOWN,
        pygame.WINDOWRESTORED,
        pygame.WINDOWMAXIMIZED,
        pygame.WINDOWSIZECHANGED,
        pygame.VIDEORESIZE,
        pygame.VIDEOEXPOSE,
    )
)
# The keys drawn on the labels of a window, one per button: the first of each above.
KEY_LABELS = (("next", "→"), ("back", "←"), ("menu", "Esc"))

# Chimes as notes (hertz, seconds): short, so they never talk over the table.
TONES: Mapping[str, tuple[tuple[float, float], ...]] = MappingProxyType(
    {
        "reveal": ((880.0, 0.06),),
        "round_end": ((660.0, 0.09), (990.0, 0.15)),
        "game_end": ((660.0, 0.09), (830.0, 0.09), (990.0, 0.2)),
    }
)
# How often a window looks at its own events (keys, close) while nothing else happens.
KEY_CHECK = 0.02
DEFAULT_TONE = ((880.0, 0.06),)
SAMPLE_RATE = 22050


def tone_samples(
    notes: tuple[tuple[float, float], ...], rate: int, channels: int = 1, volume: float = 0.3
) -> array[int]:
    """Signed 16-bit samples of `notes`, each faded in and out over 5 ms so it does not click."""
    samples = array("h")
    peak = 32767 * volume
    for hertz, seconds in notes:
        count = int(rate * seconds)
        fade = max(1, min(count // 4, int(rate * 0.005)))
        step = 2 * math.pi * hertz / rate
        for i in range(count):
            envelope = min(1.0, i / fade, (count - i) / fade)
            value = int(peak * envelope * math.sin(step * i))
            samples.extend([value] * channels)
    return samples


class PygameInbox:
    """The Inbox protocol for a window: its keys plus items put from other threads.

    pygame's `event.wait` is no real sleep: SDL 2 checks for events every millisecond,
    about 3% of a core on an untouched box. So items from other threads (GPIO, serial,
    scripts) go through a queue that wakes `get` at once, and the window's own events are
    looked at every `KEY_CHECK` seconds: a key waits at most that long, an idle window
    costs a fiftieth of the wake-ups. SDL's key repeat is off and a second KEYDOWN for a
    key already down is dropped: holding and repeating are the ButtonTracker's job.
    """

    def __init__(
        self,
        keys: Mapping[str, Button] = KEYS,
        *,
        clock: Callable[[], float] = time.monotonic,
        on_expose: Callable[[], None] | None = None,
        quit_keys: tuple[str, ...] = QUIT_KEYS,
    ) -> None:
        self._keys = {pygame.key.key_code(name): button for name, button in keys.items()}
        self._quit = {pygame.key.key_code(name) for name in quit_keys}
        self._clock = clock
        self._on_expose = on_expose
        self._items: queue.Queue[Item] = queue.Queue(maxsize=INBOX_BOUND)  # every queue bounded
        self._down: set[int] = set()
        pygame.key.set_repeat()  # no arguments: repeat off

    def put(self, item: Item, wait: float = 0.0) -> bool:
        return offer(self._items, item, wait)

    def get(self, timeout: float | None) -> list[Item]:
        deadline = None if timeout is None else time.monotonic() + max(0.0, timeout)
        while True:
            items = [item for event in pygame.event.get() for item in self._translate(event)]
            items += self._waiting()
            if items:
                return items
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return []
            try:  # sleep until another thread puts something, or it is time to look again
                items = [
                    self._items.get(timeout=KEY_CHECK if left is None else min(left, KEY_CHECK))
                ]
            except queue.Empty:
                continue
            return (
                items
                + self._waiting()
                + [item for event in pygame.event.get() for item in self._translate(event)]
            )

    def _waiting(self) -> list[Item]:
        items: list[Item] = []
        while True:
            try:
                items.append(self._items.get_nowait())
            except queue.Empty:
                return items

    def _translate(self, event: pygame.event.Event) -> list[Item]:
        kind = event.type
        if kind == pygame.QUIT:
            return [Stop("window closed")]
        if kind == pygame.KEYDOWN and event.key in self._quit:
            return [Stop("quit key")]
        if kind in (pygame.KEYDOWN, pygame.KEYUP):
            button = self._keys.get(event.key)
            if button is None:
                return []
            down = kind == pygame.KEYDOWN
            if down == (event.key in self._down):
                return []  # a repeat, or the release of a key held before we started
            if down:
                self._down.add(event.key)
            else:
                self._down.discard(event.key)
            return [Edge(button, down, self._clock())]
        if kind in REDRAW_EVENTS and self._on_expose is not None:
            self._on_expose()  # uncovered or resized: the last view again, the loop need not know
        return []


class PygameDisplay(PaintedDisplay):
    """A window of `size`, or with `fullscreen` the whole screen at its own resolution."""

    def __init__(
        self,
        size: tuple[int, int] = (480, 320),
        *,
        fullscreen: bool = False,
        driver: str | None = None,
        title: str = "nsdevice",
        diagonal_inches: float | None = None,  # None: a desktop window at 96 dpi
    ) -> None:
        if driver is not None:
            os.environ["SDL_VIDEODRIVER"] = driver  # SDL reads it in display.init, not later
        if not fullscreen:
            # We only blit a finished picture: without this SDL backs a desktop window with
            # OpenGL, and Mesa costs about 85 MB and five threads for nothing. KMS/DRM keeps
            # its default, since there the window surface itself needs the GPU path.
            os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")
        try:
            pygame.display.init()
            pygame.font.init()
            if fullscreen:  # (0, 0): the panel's native mode
                self._screen = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
            else:
                self._screen = pygame.display.set_mode(size)
        except pygame.error as error:
            pygame.display.quit()
            where = f"{driver} " if driver else ""
            raise DisplayUnavailable(f"no {where}display: {error}") from None
        pygame.display.set_caption(title)
        if fullscreen:
            pygame.mouse.set_visible(False)
        self.size: tuple[int, int] = self._screen.get_size()
        self._painter = Painter(diagonal_inches=diagonal_inches)
        self._inbox = PygameInbox(on_expose=self.redraw)
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        self._mixer: bool | None = None  # None: not tried yet

    @classmethod
    def open(cls, size: tuple[int, int], **options: Any) -> Self:
        return cls(size, **options)

    @property
    def _surface(self) -> pygame.Surface:  # type: ignore[override]
        return self._screen

    def _present(self) -> None:
        pygame.display.flip()

    def inbox(self) -> PygameInbox:
        return self._inbox

    def redraw(self) -> None:
        """The last view painted again onto the window as it is now: a resize or a
        hidden window can leave its picture black, and no key need be pressed to mend it."""
        surface = pygame.display.get_surface()
        if surface is not None:
            self._screen = surface
            self.size = surface.get_size()
        if self._view is None:
            pygame.display.flip()
        else:
            self._paint(self._view)

    def set_brightness(self, level: int) -> None:
        pass  # a window or HDMI panel: the monitor has its own knob

    def chime(self, name: str) -> None:
        sound = self._sound(name)
        if sound is not None:
            sound.play()

    def _sound(self, name: str) -> pygame.mixer.Sound | None:
        if self._mixer is None:
            from nsdevice.imports import part

            part("pygame.mixer")  # the runner may have held it back (issue 35)
            try:
                pygame.mixer.init(frequency=SAMPLE_RATE, size=-16, channels=1, buffer=512)
                self._mixer = pygame.mixer.get_init() is not None
            except pygame.error:
                self._mixer = False  # no sound card: the box works silently
        if not self._mixer:
            return None
        sound = self._sounds.get(name)
        if sound is None:
            mixer = pygame.mixer.get_init()
            if mixer is None or mixer[1] != -16:
                return None  # asked for signed 16 bit; anything else: stay quiet
            rate, _, channels = mixer
            samples = tone_samples(TONES.get(name, DEFAULT_TONE), rate, channels)
            sound = self._sounds[name] = pygame.mixer.Sound(buffer=samples)
        return sound

    def close(self) -> None:
        if self._mixer:
            pygame.mixer.quit()
        pygame.display.quit()
