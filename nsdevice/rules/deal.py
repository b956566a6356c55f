"""A whole game from a setup and a seed: setup draws, then four rounds of turns (RULES D-1).

Every random choice comes from the seed code, one independent stream per purpose, so
the same code deals the same cards whatever the modules or player count, and undo,
redo and resume only ever walk through this fixed deal.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence
from dataclasses import field
from typing import Any

from nsdevice.rules.cards import Kind, Special, StationCard, Symbol
from nsdevice.rules.cities import City, CityName, ModuleCards, city, module_cards
from nsdevice.rules.frozen import dataclass
from nsdevice.rules.modules import Module, canonical

ROUNDS = 4  # C-1
UNDERGROUND_PER_ROUND = 5  # C-4
SEED_MAX_LENGTH = 16
# Random codes avoid look-alike characters so they can be read aloud and typed back.
SEED_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
SEED_DRAWN_LENGTH = 6


def normalize_seed(code: str) -> str:
    """A seed code is 1-16 ASCII letters and digits, case-insensitive (D-2)."""
    text = code.strip()
    if not (1 <= len(text) <= SEED_MAX_LENGTH and text.isascii() and text.isalnum()):
        raise ValueError(
            f"seed code must be 1 to {SEED_MAX_LENGTH} letters or digits, not {code!r}"
        )
    return text.upper()


def draw_seed(source: random.Random) -> str:
    """A fresh code from `source` (the caller brings the entropy: the core does no I/O)."""
    return "".join(source.choice(SEED_ALPHABET) for _ in range(SEED_DRAWN_LENGTH))


def daily_seed(day: datetime.date, city_name: CityName) -> str:
    """The day's deal code for a city (D-2): every box deals the same cards on the same
    date, whoever plays; the date and city only pick the code, the code picks the cards."""
    source = random.Random(f"nsdevice/daily/{CityName(city_name).value}/{day.isoformat()}")
    return draw_seed(source)


def stream(seed: str, purpose: str) -> random.Random:
    """The random stream for one purpose of one game; string seeds hash the same on every run."""
    return random.Random(f"nsdevice/{seed}/{purpose}")


def slots(players: int) -> tuple[str, ...]:
    """The pencil slots clockwise from seat 1; a pencil moves to the next one each round (C-8)."""
    return {
        1: ("1",),
        2: ("1", "table-1", "2", "table-2"),
        3: ("1", "2", "3", "table"),  # D-7: the spare lies between the last seat and seat 1
        4: ("1", "2", "3", "4"),
    }[players]


@dataclass(frozen=True, slots=True)
class Setup:
    city: CityName
    players: int
    modules: tuple[Module, ...] = ()
    seed: str = "A"
    # C-8 solo: the row the player laid the pencils in; None lets the seed draw it
    pencil_order: tuple[str, ...] | None = None
    daily: str | None = None  # the date (ISO) whose deal this is, when it is the day's deal

    def __post_init__(self) -> None:
        if not 1 <= self.players <= 4:  # C-1
            raise ValueError(f"players must be 1 to 4, not {self.players}")
        object.__setattr__(self, "city", CityName(self.city))
        object.__setattr__(self, "modules", canonical(tuple(Module(m) for m in self.modules)))
        object.__setattr__(self, "seed", normalize_seed(self.seed))
        if self.pencil_order is not None:
            order = tuple(str(colour) for colour in self.pencil_order)
            if self.players != 1:
                raise ValueError("only a solo player lays the pencils in their own order")
            if sorted(order) != sorted(city(self.city).colours):
                raise ValueError(f"pencil order {order!r} is not {self.city.value}'s four pencils")
            object.__setattr__(self, "pencil_order", order)
        if self.daily is not None:
            day = datetime.date.fromisoformat(str(self.daily))  # ValueError when no date
            if day.isoformat() != self.daily:
                raise ValueError(f"daily {self.daily!r} is not a written date")

    @property
    def solo(self) -> bool:
        return self.players == 1


@dataclass(frozen=True, slots=True)
class Pairing:
    """T-SP-2: this round's special-station symbol and its effect."""

    symbol: Symbol
    effect: str


@dataclass(frozen=True, slots=True)
class Turn:
    number: int  # 1-based within the round
    cards: tuple[StationCard, ...]  # one card, or a switch and the card revealed with it (C-5)
    underground_seen: int  # after this turn
    switch_effect: bool | None  # None: no switch; False: on a no-effect turn (T-4, L-3, D-3)
    paired_effect: str | None  # T-SP-3: the pairing's effect when this turn's card shows it
    paired_effect_active: bool | None  # D-10: False when a paired switch falls on turn 1-2

    @property
    def card(self) -> StationCard:
        """The card whose symbol players draw: the companion when a switch came first."""
        return self.cards[-1]

    @property
    def last(self) -> bool:
        return self.underground_seen == UNDERGROUND_PER_ROUND


@dataclass(frozen=True, slots=True)
class Round:
    number: int  # 1..4
    controller: int  # seat number (C-10)
    pencils: tuple[tuple[str, str], ...]  # (slot, colour) clockwise from seat 1 (C-8)
    pairing: Pairing | None
    order: tuple[StationCard, ...]  # the whole shuffled deck, top first (C-2)
    turns: tuple[Turn, ...]

    def pencil(self, slot: str) -> str:
        return dict(self.pencils)[slot]


@dataclass(frozen=True, slots=True)
class Deal:
    setup: Setup
    objectives: tuple[str, ...]  # C-11: two of the city's five, or none
    city_gates: tuple[tuple[str, str], ...] | None  # P-CG-1: (corner, bonus) for the game
    pencil_powers: tuple[tuple[str, str], ...] | None  # L-PP: (colour, power) for the game
    solo_order: tuple[str, ...] | None  # C-8 solo: the pencils in the order they are used
    rounds: tuple[Round, ...] = field(default=())

    @property
    def city(self) -> City:
        return city(self.setup.city)


def turn_ends(order: Sequence[StationCard]) -> list[int]:
    """Index one past each turn's last card, up to the turn with the 5th underground card.

    The single source of truth for C-4 and C-5, shared by `deal_game` and `simulate`.
    """
    underground = Kind.UNDERGROUND
    switch = Special.SWITCH
    ends: list[int] = []
    seen = 0
    index = 0
    while seen < UNDERGROUND_PER_ROUND:
        card = order[index]
        index += 1
        if card.kind is underground:
            seen += 1
        if card.special is switch:  # C-5: the next card belongs to the same turn
            card = order[index]
            index += 1
            if card.kind is underground:
                seen += 1
        ends.append(index)
    return ends


def _turns(
    order: tuple[StationCard, ...], city_: City, pairing: Pairing | None
) -> tuple[Turn, ...]:
    turns: list[Turn] = []
    start = 0
    seen = 0
    for number, end in enumerate(turn_ends(order), start=1):
        cards = order[start:end]
        start = end
        seen += sum(1 for c in cards if c.kind is Kind.UNDERGROUND)
        limited = number <= city_.no_effect_switch_turns
        has_switch = any(c.switch for c in cards)
        paired_effect = None
        paired_active = None
        symbol_card = cards[-1]
        # T-SP-3: a card showing the paired symbol; jokers and free entry show none (D-6).
        if pairing is not None and symbol_card.symbol is pairing.symbol:
            paired_effect = pairing.effect
            # D-10: the orange switch follows the switch card's turn 1-2 limit.
            paired_active = not (pairing.effect == "switch" and number <= 2)
        turns.append(
            Turn(
                number=number,
                cards=cards,
                underground_seen=seen,
                switch_effect=(not limited) if has_switch else None,
                paired_effect=paired_effect,
                paired_effect_active=paired_active,
            )
        )
    return tuple(turns)


def _names(cards: ModuleCards, key: str) -> list[str]:
    """One of a module's card lists, e.g. the city gates' `bonuses`."""
    names = cards[key]
    assert isinstance(names, list), f"{key} should list the cards"
    return names


def _shuffled(items: Sequence[str], rng: random.Random) -> list[str]:
    result = list(items)
    rng.shuffle(result)
    return result


def deal_game(setup: Setup) -> Deal:
    """The whole game for `setup`: the same setup always gives the same deal (D-1)."""
    city_ = city(setup.city)
    seed = setup.seed
    modules = set(setup.modules)

    objectives: tuple[str, ...] = ()
    if Module.OBJECTIVES in modules:  # C-11: two of five, visible all game
        objectives = tuple(stream(seed, "objectives").sample(city_.objectives, 2))

    city_gates = None
    if Module.CITY_GATES in modules:  # P-CG-1: a shuffled bonus beside each corner
        cards = module_cards(Module.CITY_GATES)
        bonuses = _shuffled(_names(cards, "bonuses"), stream(seed, "city_gates"))
        city_gates = tuple(zip(_names(cards, "corners"), bonuses, strict=True))

    pencil_powers = None
    if Module.PENCIL_POWERS in modules:  # L-PP: one power to each of the 4 pencils
        powers = _shuffled(
            _names(module_cards(Module.PENCIL_POWERS), "powers"), stream(seed, "powers")
        )
        pencil_powers = tuple(zip(city_.colours, powers, strict=True))

    pairings: list[Pairing | None] = [None] * ROUNDS
    if Module.SPECIAL_STATIONS in modules:  # T-SP-1/2: two small decks, one pair a round
        cards = module_cards(Module.SPECIAL_STATIONS)
        symbols = _shuffled(_names(cards, "symbols"), stream(seed, "special_symbols"))
        effects = _shuffled(_names(cards, "effects"), stream(seed, "special_effects"))
        pairings = [Pairing(Symbol(s), e) for s, e in zip(symbols, effects, strict=True)]

    # C-8 / D-8: the box draws the first round's pencils (solo: the order of use), unless
    # a solo player laid their own row; each purpose has its own stream, so no card moves.
    first_pencils = (
        list(setup.pencil_order)
        if setup.pencil_order is not None
        else _shuffled(city_.colours, stream(seed, "pencils"))
    )
    table = slots(setup.players)
    rounds = []
    for number in range(1, ROUNDS + 1):
        pencils: tuple[tuple[str, str], ...]
        if setup.solo:
            pencils = (("1", first_pencils[number - 1]),)
        else:
            shift = number - 1  # each round every pencil moves one slot to the left
            pencils = tuple(
                (slot, first_pencils[(index - shift) % len(table)])
                for index, slot in enumerate(table)
            )
        order = list(city_.deck)
        stream(seed, f"round-{number}").shuffle(order)  # C-2
        order_ = tuple(order)
        rounds.append(
            Round(
                number=number,
                controller=(number - 1) % setup.players + 1,  # C-10
                pencils=pencils,
                pairing=pairings[number - 1],
                order=order_,
                turns=_turns(order_, city_, pairings[number - 1]),
            )
        )
    return Deal(
        setup=setup,
        objectives=objectives,
        city_gates=city_gates,
        pencil_powers=pencil_powers,
        solo_order=tuple(first_pencils) if setup.solo else None,
        rounds=tuple(rounds),
    )


def deal_as_dict(deal: Deal) -> dict[str, Any]:
    """The public JSON shape of `nsdevice deal --json` (keep keys stable)."""
    setup = deal.setup
    return {
        "city": setup.city.value,
        "players": setup.players,
        "modules": [m.value for m in setup.modules],
        "seed": setup.seed,
        "objectives": list(deal.objectives),
        "city_gates": dict(deal.city_gates) if deal.city_gates is not None else None,
        "pencil_powers": dict(deal.pencil_powers) if deal.pencil_powers is not None else None,
        "solo_order": list(deal.solo_order) if deal.solo_order is not None else None,
        "rounds": [
            {
                "number": r.number,
                "controller": r.controller,
                "pencils": dict(r.pencils),
                "pairing": (
                    {"symbol": r.pairing.symbol.value, "effect": r.pairing.effect}
                    if r.pairing
                    else None
                ),
                "turns": [
                    {
                        "number": t.number,
                        "cards": [c.as_dict() for c in t.cards],
                        "underground_seen": t.underground_seen,
                        "switch_effect": t.switch_effect,
                        "paired_effect": t.paired_effect,
                        "paired_effect_active": t.paired_effect_active,
                    }
                    for t in r.turns
                ],
            }
            for r in deal.rounds
        ],
    }
