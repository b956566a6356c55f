"""The module cards face up all game travel with the round's screens (issue 26, item 3):
the turn and the round start carry the game's objectives (C-11), city gates (P-CG-1,
X-3) and pencil powers (L-PP), as dealt, so every build can keep them in view."""

from __future__ import annotations

from nsdevice.rules.cities import CityName
from nsdevice.rules.deal import Setup, deal_game
from nsdevice.rules.modules import Module
from nsdevice.rules.progress import Progress
from nsdevice.session.screens.game import round_start_view, turn_view


def _deal(city: str, modules: tuple[str, ...]):
    return deal_game(Setup(CityName(city), 2, tuple(Module(m) for m in modules), "CARDS1"))


def test_turn_and_round_start_carry_the_dealt_module_cards_C11_PCG1_LPP() -> None:
    deal = _deal("london", ("objectives", "city_gates", "pencil_powers"))
    turn = turn_view(deal, Progress(round=2, revealed=1), "en")
    start = round_start_view(deal, 2, "en")
    for view in (turn, start):
        cards = view.module_cards
        assert cards.objectives == deal.objectives and len(cards.objectives) == 2
        assert cards.city_gates == deal.city_gates and len(cards.city_gates) == 4
        assert cards.pencil_powers == deal.pencil_powers and len(cards.pencil_powers) == 4
        assert cards
    assert turn.as_dict()["module_cards"]["objectives"] == list(deal.objectives)


def test_a_game_without_card_modules_has_none_in_view_C11() -> None:
    deal = _deal("tokyo", ("special_stations",))
    cards = turn_view(deal, Progress(round=1, revealed=1), "en").module_cards
    assert not cards
    assert cards.objectives == cards.city_gates == cards.pencil_powers == ()
