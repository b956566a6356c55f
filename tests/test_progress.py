"""Stepping through a fixed deal (RULES C-3, D-1): forward, backward, what is visible."""

import string
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from nsdevice.rules.cities import CityName
from nsdevice.rules.deal import Setup, deal_game
from nsdevice.rules.modules import Module
from nsdevice.rules.progress import Progress

setups = st.builds(
    Setup,
    city=st.sampled_from(list(CityName)),
    players=st.integers(min_value=1, max_value=4),
    modules=st.sets(st.sampled_from(list(Module))).map(tuple),
    seed=st.text(alphabet=string.ascii_letters + string.digits, min_size=1, max_size=16),
)
PROPERTY = settings(max_examples=100, deadline=None)


def walk_forward(deal):
    states = [Progress()]
    while (step := states[-1].forward(deal)) is not None:
        states.append(step)
    return states


def test_game_starts_in_round_1_with_nothing_revealed_C3():
    start = Progress()
    deal = deal_game(Setup("tokyo", 2))
    assert (start.round, start.revealed) == (1, 0)
    assert start.visible(deal) == ()
    assert start.backward(deal) is None
    assert not start.game_over(deal)


@given(setups)
@PROPERTY
def test_walking_forward_reveals_every_turn_once_and_ends_at_game_over_D1(setup):
    deal = deal_game(setup)
    states = walk_forward(deal)
    revealed = [s.visible(deal)[-1] for s in states if s.revealed > 0]
    assert revealed == [turn for round_ in deal.rounds for turn in round_.turns]
    assert states[-1].game_over(deal)
    assert not any(s.game_over(deal) for s in states[:-1])
    assert states[-1].forward(deal) is None
    assert states == sorted(states) and len(set(states)) == len(states)  # strictly onward
    assert len(states) == sum(len(r.turns) + 1 for r in deal.rounds)


@given(setups)
@PROPERTY
def test_forward_and_backward_are_inverses_across_round_boundaries_D1(setup):
    deal = deal_game(setup)
    states = walk_forward(deal)
    for before, after in pairwise(states):
        assert after.backward(deal) == before
        assert before.forward(deal) == after
    crossings = [(b, a) for b, a in pairwise(states) if a.round != b.round]
    assert [a.round for _, a in crossings] == [2, 3, 4]
    for before, after in crossings:
        assert before.round_over(deal)
        assert after.revealed == 0


@given(setups)
@PROPERTY
def test_walking_back_from_the_end_retraces_the_same_states_without_reshuffling_D1(setup):
    deal = deal_game(setup)
    forward = walk_forward(deal)
    backward = [forward[-1]]
    while (step := backward[-1].backward(deal)) is not None:
        backward.append(step)
    assert backward == forward[::-1]
    # Back then forward shows exactly the cards shown before, and the deal never changed.
    for state in forward[1:]:
        again = state.backward(deal).forward(deal)
        assert again.visible(deal) == state.visible(deal)
    assert deal == deal_game(setup)


@given(setups)
@PROPERTY
def test_revealed_cards_stay_visible_for_the_rest_of_the_round_C3(setup):
    deal = deal_game(setup)
    for state in walk_forward(deal):
        turns = deal.rounds[state.round - 1].turns
        visible = state.visible(deal)
        assert visible == turns[: state.revealed]
        assert len(visible) == state.revealed
        assert state.round_over(deal) == (state.revealed == len(turns))
        if state.round_over(deal):
            assert visible[-1].last  # the round shown in full ends on its last turn (C-4)


@given(setups)
@PROPERTY
def test_the_deck_holds_every_card_not_yet_revealed_this_round_C2_C3(setup):
    deal = deal_game(setup)
    deck = deal.city.deck
    for state in walk_forward(deal):
        left = state.remaining(deal)
        shown = [card for turn in state.visible(deal) for card in turn.cards]
        # C-2: all 11 cards each round; what is face up and what is left make the deck again
        assert sorted(c.id for c in left + tuple(shown)) == sorted(c.id for c in deck)
        assert not {c.id for c in left} & {c.id for c in shown}
        # underground first, each kind in the city's own order: the shuffle stays hidden
        kinds = [c.underground for c in left]
        assert kinds == sorted(kinds, reverse=True)


@given(setups)
@PROPERTY
def test_the_deck_never_tells_the_shuffled_order_C2(setup):
    deal = deal_game(setup)
    for state in walk_forward(deal):
        left = state.remaining(deal)
        order = deal.rounds[state.round - 1].order
        # the same cards in any shuffle give the same answer: the city's order, not the deal's
        in_deck_order = [c for c in deal.city.deck if c in left]
        assert list(left) == [c for c in in_deck_order if c.underground] + [
            c for c in in_deck_order if not c.underground
        ]
        assert set(left) <= set(order)


@given(setups)
@PROPERTY
def test_the_last_turn_leaves_no_underground_card_in_the_deck_C4(setup):
    deal = deal_game(setup)
    for state in walk_forward(deal):
        left = state.remaining(deal)
        underground_left = sum(1 for c in left if c.underground)
        seen = state.visible(deal)[-1].underground_seen if state.revealed else 0
        assert underground_left == 5 - seen  # the count and the deck agree
        if state.round_over(deal):
            assert underground_left == 0


def test_a_switch_and_its_companion_both_leave_the_deck_C5():
    for seed in range(200):
        deal = deal_game(Setup("london", 2, seed=f"S{seed}"))
        for number, turn in enumerate(deal.rounds[0].turns, start=1):
            if len(turn.cards) == 2:
                left = Progress(1, number).remaining(deal)
                assert not {c.id for c in turn.cards} & {c.id for c in left}
                assert len(left) == 11 - sum(
                    len(t.cards) for t in deal.rounds[0].turns[:number]
                )
                return
    raise AssertionError("no switch turn in 200 deals")
