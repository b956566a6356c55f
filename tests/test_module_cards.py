"""The module cards face up all game travel with the round's screens (issue 26, item 3):
the turn and the round start carry the game's objectives (C-11), city gates (P-CG-1,
X-3) and pencil powers (L-PP), as dealt, so every build can keep them in view."""

from __future__ import annotations

from dataclasses import replace

from nsdevice.inputs.events import Button, Gesture, Press
from nsdevice.rules.cities import CityName
from nsdevice.rules.deal import Setup, deal_game
from nsdevice.rules.modules import Module
from nsdevice.rules.progress import Progress
from nsdevice.session import Session, Settings
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


def test_a_held_menu_on_a_turn_shows_the_module_cards_and_any_button_returns() -> None:
    """Issue 26, item 3: during a round the module cards are one press away, no menu to
    climb and no question asked (C-11, P-CG-1, L-PP); a tap still opens the menu."""
    settings = Settings(city="london", players=3, modules=("objectives", "city_gates"))
    session = Session(settings, seed_source=lambda: "CARDS2")
    session.press(Press(Button.MENU))  # the setup's cursor starts on "start"
    session.press(Press(Button.NEXT))  # the summary: on to the round start
    session.press(Press(Button.NEXT))  # the first card
    assert session.screen == "turn"
    turn = replace(session.view(), chime=None)  # the reveal's chime sounds once
    session.press(Press(Button.MENU, Gesture.HOLD))
    shown = session.view()
    assert shown.screen == "summary" and shown.recall
    assert shown.objectives and len(shown.city_gates) == 4
    for button in Button:  # any button goes back to the very same turn
        session.press(Press(button))
        assert session.view() == turn
        session.press(Press(Button.MENU, Gesture.HOLD))
    session.press(Press(Button.NEXT))
    session.press(Press(Button.MENU))  # a tap: the menu, as before
    assert session.screen == "menu"
