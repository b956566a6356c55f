"""The three cities, read from the data files shipped beside this module (RULES 3-5, D-5)."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any

from nsdevice.rules.cards import Kind, Special, StationCard, Symbol
from nsdevice.rules.frozen import dataclass


class CityName(StrEnum):
    TOKYO = "tokyo"
    PARIS = "paris"
    LONDON = "london"


@dataclass(frozen=True, slots=True)
class StartStation:
    colour: str
    symbol: Symbol
    source: str
    unverified: bool


ModuleCards = Mapping[str, str | list[str]]  # a module's card lists, and their `source`


@dataclass(frozen=True, slots=True)
class CityWords:
    """What the box calls things in this city, in English (the msgids the catalogs
    translate): the data file's `[words]` table."""

    name: str
    # the underground cards, as this city calls them ("Metro" in Paris): one word on every
    # surface, the card, the count, the deck, the phones and the voice (each edition's
    # word and its source: nsdevice/locale/<lang>/glossary.toml, [cards.<city>])
    underground: str
    underground_count: str  # "{seen}/{total}" of them, for the turn screen (C-4)
    objectives: Mapping[str, str]  # C-11: objective id → its short title


@dataclass(frozen=True, slots=True)
class City:
    name: CityName
    colours: tuple[str, ...]  # the 4 pencil colours (C-8)
    start_stations: tuple[StartStation, ...]
    deck: tuple[StationCard, ...]  # 6 street then 5 underground, in data order
    deck_unverified: bool
    no_effect_switch_turns: int  # T-4 / L-3: a switch on these first turns has no effect
    joker_extra: str  # "double_track" (T-3), "guided_tour" (P-3) or ""
    line_scoring: str  # "districts", "quarters" or "" (totals only)
    stamp_values: tuple[int, ...]  # S-T-END: each outer district's tourist stamp (Tokyo)
    objectives: tuple[str, ...]  # C-11: the city's 5 shared objectives, by id
    tier_upper_bounds: tuple[int, ...]  # S-SOLO: inclusive tops of tiers 1-5
    own_pencil_order: bool  # C-8: a solo player may lay the pencils in their own order
    modules: Mapping[str, ModuleCards]  # module cards this city contributes
    words: CityWords

    def start_symbol(self, colour: str) -> Symbol | None:
        for station in self.start_stations:
            if station.colour == colour:
                return station.symbol
        return None

    def start_station(self, colour: str) -> StartStation | None:
        return next((s for s in self.start_stations if s.colour == colour), None)

    def stamp_totals(self) -> frozenset[int]:
        """Every sum of stamps a sheet can hold: some of the districts' stamps, each once."""
        totals = {0}
        for value in self.stamp_values:
            totals |= {total + value for total in totals}
        return frozenset(totals)

    def tier_band(self, tier: int) -> tuple[int | None, int | None]:
        """S-SOLO: the lowest and highest adjusted score of a tier, both inclusive (D-4);
        None where the band is open (below tier 1's top, above tier 5's)."""
        bounds = self.tier_upper_bounds
        assert 1 <= tier <= len(bounds) + 1, tier
        low = bounds[tier - 2] + 1 if tier > 1 else None
        high = bounds[tier - 1] if tier <= len(bounds) else None
        return low, high


def _card(entry: dict[str, str], kind: Kind) -> StationCard:
    symbol = entry.get("symbol")
    special = entry.get("special")
    return StationCard(
        id=entry["id"],
        kind=kind,
        symbol=Symbol(symbol) if symbol else None,
        special=Special(special) if special else None,
    )


def _words(table: dict[str, Any]) -> CityWords:
    return CityWords(
        name=str(table["name"]),
        underground=str(table["underground"]),
        underground_count=str(table["underground_count"]),
        objectives={str(k): str(v) for k, v in table["objectives"].items()},
    )


def _parse(data: dict[str, Any]) -> City:
    deck = tuple(_card(e, Kind.STREET) for e in data["deck"]["street"]) + tuple(
        _card(e, Kind.UNDERGROUND) for e in data["deck"]["underground"]
    )
    starts = tuple(
        StartStation(
            colour=colour,
            symbol=Symbol(entry["symbol"]),
            source=entry["source"],
            unverified=bool(entry.get("unverified", False)),
        )
        for colour, entry in data["start_stations"].items()
    )
    return City(
        name=CityName(data["name"]),
        colours=tuple(data["pencils"]["colours"]),
        start_stations=starts,
        deck=deck,
        deck_unverified=bool(data["deck"]["unverified"]),
        no_effect_switch_turns=int(data["no_effect_switch_turns"]),
        joker_extra=data["joker_extra"],
        line_scoring=data["line_scoring"],
        stamp_values=tuple(int(v) for v in data.get("stamp_values", ())),
        objectives=tuple(data["objectives"]["ids"]),
        tier_upper_bounds=tuple(data["solo"]["tier_upper_bounds"]),
        own_pencil_order=bool(data["solo"]["own_pencil_order"]["allowed"]),
        modules=data.get("module", {}),
        words=_words(data["words"]),
    )


# beside this module: the package is installed as files (importlib.resources would say the
# same, but brings zipfile, tempfile and shutil into every start: issue 23)
DATA = Path(__file__).resolve().parent / "data"


def city(name: str) -> City:
    """The city called `name`; ValueError for an unknown name."""
    return _city(CityName(name.lower()))


@cache  # the data files are immutable package data: read each once per process
def _city(key: CityName) -> City:
    # (keyed by the member: a cache of `city` kept "tokyo" and CityName.TOKYO apart, and
    # read the file twice before the box's first frame: issue 35)
    text = (DATA / f"{key.value}.toml").read_text("utf-8")
    return _parse(tomllib.loads(text))


def module_cards(module: str) -> ModuleCards:
    """The cards of a module, from whichever city it belongs to (RULES section 6)."""
    for name in CityName:
        cards = city(name).modules.get(module)
        if cards is not None:
            return cards
    raise KeyError(module)
