"""What the box remembers and what the hardware offers; finished games as records."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import fields
from datetime import date, timedelta
from typing import Any, Protocol

from nsdevice import views
from nsdevice.locale import LANGUAGES
from nsdevice.rules.cities import CityName
from nsdevice.rules.deal import (
    draw_seed,
)
from nsdevice.rules.frozen import dataclass
from nsdevice.rules.modules import Module

CITIES = tuple(c.value for c in CityName)
MODULES = tuple(m.value for m in Module)
BRIGHTNESS_LEVELS = 5
VOLUME_LEVELS = 5  # the voice's volume steps in the menu (issue 24)
PENCIL_ORDERS = ("drawn", "own")  # C-8 solo: the box draws the row, or the player lays it


@dataclass(frozen=True, slots=True)
class Settings:
    """What the box remembers between games (the last setup, language, sound, voice)."""

    city: str = "tokyo"
    players: int = 2
    modules: tuple[str, ...] = ()
    language: str = "en"
    sound: bool = True
    brightness: int = BRIGHTNESS_LEVELS
    pencil_order: str = "drawn"  # solo only: one of PENCIL_ORDERS
    voice: bool = False  # say each card aloud (issue 24)
    volume: int = VOLUME_LEVELS  # the voice's, 1..VOLUME_LEVELS
    room: bool = False  # the next game calls the cards for a whole room (issue 25)

    def as_dict(self) -> dict[str, Any]:
        """The saved form; a choice still at its default is left out, so that a box that
        never made it saves exactly what it did before the choice existed."""
        # field by field, not `dataclasses.asdict` (a recursive deep copy): the snapshot of
        # every press takes it (issue 35); the values are strings, numbers and a tuple
        data = {field.name: getattr(self, field.name) for field in fields(self)}
        if self.pencil_order == "drawn":
            del data["pencil_order"]
        if not self.voice:
            del data["voice"]
        if self.volume == VOLUME_LEVELS:
            del data["volume"]
        if not self.room:
            del data["room"]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        settings = cls(
            city=str(data.get("city", "tokyo")),
            players=int(data.get("players", 2)),
            modules=tuple(str(m) for m in data.get("modules", ())),
            language=str(data.get("language", "en")),
            sound=bool(data.get("sound", True)),
            brightness=int(data.get("brightness", BRIGHTNESS_LEVELS)),
            pencil_order=str(data.get("pencil_order", "drawn")),
            voice=bool(data.get("voice", False)),
            volume=int(data.get("volume", VOLUME_LEVELS)),
            room=data.get("room", False) is True,
        )
        if (
            settings.city not in CITIES
            or not 1 <= settings.players <= 4
            or not set(settings.modules) <= set(MODULES)
            or settings.language not in LANGUAGES
            or not 1 <= settings.brightness <= BRIGHTNESS_LEVELS
            or settings.pencil_order not in PENCIL_ORDERS
            or not 1 <= settings.volume <= VOLUME_LEVELS
        ):
            raise ValueError(f"settings out of range: {data!r}")
        return settings


def no_hotspot() -> views.Hotspot | None:
    return None


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What the hardware offers: menu entries appear only for what exists."""

    brightness: bool = False
    shutdown: bool = False
    # where the buttons sit, so each hint says where its label is drawn
    panel: views.Panel = views.DEFAULT_PANEL
    phones: tuple[str, ...] = ()  # where phones find the box's page, when it serves one
    # the box's own Wi-Fi network while it is up (issue 31), asked when the phones'
    # screen shows: the access point may come up after the box has started
    hotspot: Callable[[], views.Hotspot | None] = no_hotspot


@dataclass(frozen=True, slots=True)
class FinishedGame:
    city: str
    players: int
    modules: tuple[str, ...]
    seed: str
    totals: tuple[int, ...]  # per seat; solo: the raw total
    adjusted: int | None  # solo only, after the module penalty
    tier: int | None
    daily: str | None = None  # the local date (ISO) when the deal was that day's deal
    winners: tuple[int, ...] = ()  # the winning seats (one, or a shared win); () for solo
    names: tuple[str, ...] = ()  # each seat's name from its phone ("" for none); () for none


HISTORY_GAMES = 5  # the last games the history lists per city


@dataclass(frozen=True, slots=True)
class History:
    """What the history page shows, read from the finished games in one go."""

    games: tuple[views.PlayedGame, ...] = ()  # the last few per city, newest first
    bests: tuple[views.BestScore, ...] = ()  # solo, per city and module set (daily ones too)
    daily_days: tuple[str, ...] = ()  # every date with a daily game, ISO, newest first
    best_daily: tuple[views.BestScore, ...] = ()  # the best daily solo score per city

    def streak(self, today: date) -> int:
        return daily_streak(self.daily_days, today)


def daily_streak(days: Iterable[str], today: date) -> int:
    """Days in a row with a daily game, counted back from today, or from yesterday when
    today's is not played yet (the streak is still alive until the day is over)."""
    played = {date.fromisoformat(day) for day in days}
    day = today if today in played else today - timedelta(days=1)
    count = 0
    while day in played:
        count += 1
        day -= timedelta(days=1)
    return count


class Records(Protocol):
    """Finished games, kept by the store (the session never touches SQLite itself)."""

    def best_solo(self, city: str, modules: tuple[str, ...]) -> int | None:
        """The best adjusted solo score in `city` with exactly this module set (C-13)."""
        ...

    def record(self, game: FinishedGame) -> None: ...

    def history(self, limit: int = HISTORY_GAMES) -> History:
        """The last `limit` games per city, the bests and the daily games."""
        ...


class NoRecords:
    """For tests and for a box whose storage failed: remembers nothing."""

    def best_solo(self, city: str, modules: tuple[str, ...]) -> int | None:
        return None

    def record(self, game: FinishedGame) -> None:
        pass

    def history(self, limit: int = HISTORY_GAMES) -> History:
        return History()


def random_seed() -> str:
    return draw_seed(random.SystemRandom())


def join_code() -> str:
    """Eight digits from the system's random source: what a phone types to join. Eight,
    not six: with the page's budget of wrong codes for the whole box, a day of guessing
    from any number of addresses finds it with a chance under 0.1 % (RELIABILITY.md)."""
    # SystemRandom is the same source as `secrets`, which would bring hmac and OpenSSL
    # into the start (issue 23)
    return f"{random.SystemRandom().randrange(100_000_000):08d}"
