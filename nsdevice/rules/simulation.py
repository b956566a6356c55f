"""Many rounds played through the same shuffle and turn rules as a real deal.

It answers how long rounds run and how often a switch is wasted, and it is the rules
core's speed benchmark (`nsdevice simulate`).
"""

from __future__ import annotations

from nsdevice.rules.cards import Special
from nsdevice.rules.cities import city
from nsdevice.rules.deal import stream, turn_ends
from nsdevice.rules.frozen import dataclass


@dataclass(frozen=True, slots=True)
class Simulation:
    city: str
    rounds: int
    turns: dict[int, int]  # turns in a round → how many rounds had that many (C-4: 5..10)
    switch_revealed: int  # rounds in which the switch came up before the round ended
    switch_no_effect: int  # ... on a turn where it has no effect (T-4, L-3)


def simulate(city_name: str, rounds: int, seed: str) -> Simulation:
    city_ = city(city_name)
    limit = city_.no_effect_switch_turns
    rng = stream(seed, "simulate")
    shuffle = rng.shuffle
    order = list(city_.deck)
    switch_card = next(card for card in order if card.special is Special.SWITCH)
    counts = dict.fromkeys(range(5, 11), 0)
    revealed = 0
    no_effect = 0
    for _ in range(rounds):
        shuffle(order)  # C-2
        ends = turn_ends(order)
        counts[len(ends)] += 1
        position = order.index(switch_card)
        if position < ends[-1]:
            revealed += 1
            # the switch's turn number is how many turn ends lie at or before its card
            turn = next(n for n, end in enumerate(ends, start=1) if position < end)
            if turn <= limit:
                no_effect += 1
    return Simulation(city_.name.value, rounds, counts, revealed, no_effect)
