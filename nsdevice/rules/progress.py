"""Where a game stands in its fixed deal, and one step forward or back (RULES D-1).

Like a chess board's push and pop: a step never reshuffles, it only moves the
cursor, so undo puts the card back on top of the deck and redo reveals the same card.
"""

from __future__ import annotations

from nsdevice.rules.cards import StationCard
from nsdevice.rules.deal import ROUNDS, Deal, Turn
from nsdevice.rules.frozen import dataclass


@dataclass(frozen=True, slots=True, order=True)
class Progress:
    """The round under way and how many of its turns are revealed; ordered as played."""

    round: int = 1  # 1..4
    revealed: int = 0  # turns of that round already revealed

    def forward(self, deal: Deal) -> Progress | None:
        """One more turn; past a round's last turn, the next round's start; None at the end."""
        turns = len(deal.rounds[self.round - 1].turns)
        if self.revealed < turns:
            return Progress(self.round, self.revealed + 1)
        if self.round < ROUNDS:
            return Progress(self.round + 1, 0)
        return None

    def backward(self, deal: Deal) -> Progress | None:
        """One turn back (its card goes back on top); None at the very start of the game."""
        if self.revealed > 0:
            return Progress(self.round, self.revealed - 1)
        if self.round > 1:
            return Progress(self.round - 1, len(deal.rounds[self.round - 2].turns))
        return None

    def visible(self, deal: Deal) -> tuple[Turn, ...]:
        """The round's revealed turns, oldest first (C-3)."""
        return deal.rounds[self.round - 1].turns[: self.revealed]

    def remaining(self, deal: Deal) -> tuple[StationCard, ...]:
        """The round's cards not revealed yet (C-2: all 11 were shuffled; C-3: the rest are
        face up), underground first, each kind in the city's deck order: never the
        shuffled order, which would tell the future."""
        revealed = {card.id for turn in self.visible(deal) for card in turn.cards}
        left = [card for card in deal.city.deck if card.id not in revealed]
        return tuple(sorted(left, key=lambda card: not card.underground))  # a stable sort

    def round_over(self, deal: Deal) -> bool:
        return self.revealed == len(deal.rounds[self.round - 1].turns)

    def game_over(self, deal: Deal) -> bool:
        return self.round == ROUNDS and self.round_over(deal)
