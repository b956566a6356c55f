"""What the screens' gallery examples share: real deals that show a given situation.

Each screen's record names its own examples (`Screen.examples`), made by the screen's own
pure builder over these deals, so a screenshot cannot show what the box never does. Seeds
are found by a fixed search, so the gallery is the same on every run. Pure: no pygame.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from nsdevice.rules.cards import Special
from nsdevice.rules.cities import CityName
from nsdevice.rules.cities import city as city_data
from nsdevice.rules.deal import Deal, Round, Setup, Turn, deal_game
from nsdevice.rules.frozen import dataclass
from nsdevice.rules.modules import Module
from nsdevice.rules.progress import Progress
from nsdevice.session.settings import MODULES

SEARCH = 2000  # seeds tried when looking for a deal that shows a given situation
DAILY_EXAMPLE = "2026-11-23"  # the date a gallery's day's deal was dealt on
PHONE_ADDRESSES = ("http://192.168.1.23:8414/", "http://nsdevice.local:8414/")  # an example table
JOIN_CODE = "40621538"  # the examples' join code

Finder = Callable[[Round, Turn], bool]


def deal(city: str, players: int, modules: tuple[str, ...], seed: str) -> Deal:
    return deal_game(Setup(CityName(city), players, tuple(Module(m) for m in modules), seed))


@dataclass(frozen=True, slots=True)
class Tables:
    """The examples' games for one city: tables of 3, 2 and 4, and two solo games."""

    three: Deal
    two: Deal
    four: Deal
    solo: Deal
    plain_solo: Deal


@cache  # dealt once per city for the whole gallery
def tables(city: str) -> Tables:
    return Tables(
        three=deal(city, 3, MODULES, "TABLE3"),
        two=deal(city, 2, ("objectives",), "TABLE2"),
        four=deal(city, 4, (), "TABLE4"),
        solo=deal(city, 1, MODULES, "SOLO1"),
        plain_solo=deal(city, 1, (), "SOLO2"),
    )


@cache  # a pure search over fixed seeds: remember each answer for the process
def seed_for(city: str, players: int, modules: tuple[str, ...], situation: str) -> str | None:
    finder = SITUATIONS[situation]
    for number in range(SEARCH):
        seed = f"GALLERY{number}"
        dealt = deal(city, players, modules, seed)
        if any(finder(r, t) for r in dealt.rounds for t in r.turns):
            return seed
    return None


def first(dealt: Deal, finder: Finder) -> Progress:
    """Where in the deal the situation first shows: its turn just revealed."""
    for round_ in dealt.rounds:
        for turn in round_.turns:
            if finder(round_, turn):
                return Progress(round_.number, turn.number)
    raise LookupError("no such turn in this deal")


JOKERS = (Special.JOKER, Special.FREE_ENTRY)  # C-6; Paris's free entry plays as one (P-3)


def _joker(turn: Turn) -> bool:
    return turn.card.special in JOKERS


def joker_card(city: str) -> str:
    """The name of the city's joker-like card, from its deck (`joker` or `free_entry`)."""
    return next(c.special for c in city_data(city).deck if c.special in JOKERS).value


SITUATIONS: dict[str, Finder] = {
    "plain": lambda r, t: (
        t.number == 4
        and t.card.symbol is not None
        and t.switch_effect is None
        and not t.last
        and t.paired_effect is None
    ),
    "switch-no-effect": lambda r, t: t.switch_effect is False and t.card.symbol is not None,
    "switch": lambda r, t: t.switch_effect is True and t.number >= 4,
    "paired-effect": lambda r, t: t.paired_effect_active is True and t.number >= 3 and not t.last,
    "paired-no-effect": lambda r, t: t.paired_effect_active is False,
    "joker": lambda r, t: _joker(t) and t.number >= 3 and t.switch_effect is None,
    "last": lambda r, t: t.last and len(r.turns) >= 9,
}


def situation_deal(city: str, situation: str) -> Deal | None:
    """A three-player deal with every module that shows `situation`, if any does."""
    many = (city, 3, MODULES)
    seed = seed_for(*many, situation)
    return None if seed is None else deal(*many, seed)
