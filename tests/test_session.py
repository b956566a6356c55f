"""The box's behaviour, press by press, through `Session` alone (no display, no store)."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nsdevice.inputs.events import Button, Gesture, Press
from nsdevice.rules.deal import Setup, deal_game
from nsdevice.session import Capabilities, FinishedGame, Session, Settings
from nsdevice.session.digits import presses_for
from nsdevice.session.screens.fields import TOTAL_FIELD
from nsdevice.session.settings import History, daily_streak
from nsdevice.views import BestScore, PlayedGame

NEXT, BACK, MENU = Press(Button.NEXT), Press(Button.BACK), Press(Button.MENU)


class MemoryRecords:
    def __init__(self) -> None:
        self.games: list[FinishedGame] = []

    def best_solo(self, city: str, modules: tuple[str, ...]) -> int | None:
        scores = [
            g.adjusted
            for g in self.games
            if g.city == city and g.players == 1 and set(g.modules) == set(modules)
        ]
        return max(scores) if scores else None  # type: ignore[type-var]

    def record(self, game: FinishedGame) -> None:
        self.games.append(game)

    def history(self, limit: int = 5) -> History:
        return History()


def started(city="tokyo", players=2, modules=(), seed="SEED1", **kwargs) -> Session:
    session = Session(
        Settings(city=city, players=players, modules=modules),
        seed_source=lambda: seed,
        **kwargs,
    )
    session.press(MENU)  # the cursor starts on "start"
    return session


def press_all(session: Session, presses) -> None:
    for press in presses:
        session.press(press)


def to_first_card(session: Session) -> None:
    assert session.screen == "summary"
    press_all(session, [NEXT, NEXT])
    assert session.screen == "turn"


def test_power_on_to_first_card_in_at_most_four_presses():
    session = Session(Settings(city="paris", players=3), seed_source=lambda: "FAST")
    presses = 0
    while session.screen != "turn":
        session.press(MENU if session.screen == "setup" else NEXT)
        presses += 1
    assert presses <= 4


def test_turn_shows_the_deals_cards_in_order_C3():
    session = started()
    deal = deal_game(Setup("tokyo", 2, (), "SEED1"))
    to_first_card(session)
    for turn in deal.rounds[0].turns:
        view = session.view()
        assert view.screen == "turn"
        assert view.cards == turn.cards
        assert [t.number for t in view.earlier] == list(range(1, turn.number))
        assert view.underground_seen == turn.underground_seen
        session.next()
    assert session.screen == "round_end"


def test_undo_puts_the_card_back_and_redo_shows_the_same_card_D1():
    session = started()
    to_first_card(session)
    press_all(session, [NEXT, NEXT])
    third = session.view().cards
    session.back()
    assert session.view().turn == 2
    session.next()
    assert session.view().cards == third


def test_back_from_first_turn_returns_to_round_start_then_summary():
    session = started()
    to_first_card(session)
    session.back()
    assert session.screen == "round_start"
    session.back()
    assert session.screen == "summary"


def _finish_round(session: Session) -> None:
    while session.screen == "turn":
        session.next()


def test_stepping_back_across_a_round_start_asks_first():
    session = started()
    to_first_card(session)
    _finish_round(session)
    press_all(session, [NEXT, NEXT])  # round end → pencil pass → round 2 start
    assert session.view().round == 2
    session.back()
    assert session.view().screen == "confirm"
    session.back()  # no
    assert session.screen == "round_start" and session.view().round == 2
    session.back()
    session.next()  # yes
    assert session.screen == "pencil_pass"
    assert session.progress.round == 1


def test_last_turn_is_marked_and_leads_to_round_end_C4():
    session = started()
    to_first_card(session)
    while not session.view().last:
        session.next()
    assert session.view().underground_seen == 5
    session.next()
    assert session.screen == "round_end"


def test_switch_turn_on_turn_one_or_two_says_no_effect_T4_D3():
    for seed in (f"S{i}" for i in range(400)):
        deal = deal_game(Setup("tokyo", 2, (), seed))
        turns = deal.rounds[0].turns
        if turns[0].switch_effect is not None:
            break
    else:
        pytest.fail("no seed put the switch on turn 1")
    session = started(seed=seed)
    to_first_card(session)
    view = session.view()
    assert len(view.cards) == 2 and view.cards[0].switch
    assert view.switch_effect is False


def test_controller_and_pencils_rotate_each_round_C8_C10():
    session = started(players=3)
    deal = deal_game(Setup("tokyo", 3, (), "SEED1"))
    session.next()
    for number in range(1, 5):
        view = session.view()
        assert view.screen == "round_start" and view.round == number
        assert view.controller == deal.rounds[number - 1].controller
        assert {p.slot: p.colour for p in view.pencils} == dict(deal.rounds[number - 1].pencils)
        assert view.pencils[-1].slot == "table"  # D-7: the spare is listed after the seats
        session.next()
        _finish_round(session)
        session.next()
        if number < 4:
            assert session.screen == "pencil_pass"
            session.next()
    assert session.screen == "game_end"


def _play_to_game_end(session: Session) -> None:
    while session.screen != "game_end":
        session.next()


def test_solo_ending_card_penalty_tier_band_and_personal_best_C13_SSOLO_D4():
    records = MemoryRecords()
    session = started(players=1, modules=("objectives", "special_stations"), records=records)
    _play_to_game_end(session)
    assert session.view().seed == "SEED1"  # D-2: shown once the game is over
    session.next()
    assert session.screen == "score_entry"
    press_all(session, presses_for(101, TOTAL_FIELD)[:-1])  # digit by digit, not taken yet
    assert session.view().value == 101
    session.press(MENU)
    view = session.view()
    assert view.screen == "result"
    assert (view.total, view.penalty, view.adjusted, view.tier) == (101, 20, 81, 2)
    assert (view.tier_low, view.tier_high) == (71, 85)  # S-SOLO Tokyo, both ends in (D-4)
    assert view.personal_best is None and view.new_best
    assert records.games[0].adjusted == 81

    def solo_game(seed: str, modules: tuple[str, ...], total: int) -> object:
        game = started(players=1, modules=modules, records=records, seed=seed)
        _play_to_game_end(game)
        game.next()
        press_all(game, presses_for(total, TOTAL_FIELD))
        return game.view()

    # the best is per city and module set: the same two modules compare with 81
    view = solo_game("OTHER", ("special_stations", "objectives"), 70)
    assert (view.adjusted, view.personal_best, view.new_best) == (50, 81, False)
    # without modules (or with another set) nothing was played yet: a new best
    view = solo_game("THIRD", (), 50)
    assert (view.adjusted, view.personal_best, view.new_best) == (50, None, True)
    assert (view.tier, view.tier_low, view.tier_high) == (1, None, 70)  # tier 1: open below


def test_multiplayer_winner_uses_best_line_tie_break_C12():
    session = started(players=2)
    _play_to_game_end(session)
    session.next()
    for value in (100, 100, 30, 35):  # both totals, then the tied seats' best lines
        press_all(session, presses_for(value, TOTAL_FIELD))
    view = session.view()
    assert view.screen == "result"
    assert view.winners == (2,) and view.decided_by == "best_line"


def test_held_button_flips_one_card_and_repeats_never_flip():
    session = started()
    to_first_card(session)
    session.press(Press(Button.NEXT, Gesture.HOLD))
    assert session.view().turn == 2
    for _ in range(5):
        session.press(Press(Button.NEXT, Gesture.REPEAT))
    assert session.view().turn == 2


def test_menu_offers_brightness_and_shutdown_only_when_the_hardware_has_them():
    plain = started()
    press_all(plain, [NEXT, MENU])  # the menu over the round start
    keys = [row.key for row in plain.view().rows]
    assert "brightness" not in keys and "shutdown" not in keys
    full = started(capabilities=Capabilities(brightness=True, shutdown=True))
    press_all(full, [NEXT, MENU])
    keys = [row.key for row in full.view().rows]
    assert "brightness" in keys and "shutdown" in keys


def _choose(session: Session, key: str) -> None:
    rows = [row.key for row in session.view().rows]
    while rows[session.view().cursor] != key:
        session.next()
    session.press(MENU)


def test_menu_restart_round_keeps_the_same_cards_D1():
    session = started()
    to_first_card(session)
    first = session.view().cards
    press_all(session, [NEXT, NEXT, MENU])
    _choose(session, "restart_round")
    assert session.view().screen == "confirm"
    session.next()
    assert session.screen == "round_start"
    session.next()
    assert session.view().cards == first


def test_menu_language_is_remembered_in_settings():
    session = started()
    session.press(MENU)
    _choose(session, "language")
    assert session.settings.language == "es"
    assert session.view().language == "es"


def test_menu_twice_returns_to_the_game():
    session = started()
    to_first_card(session)
    press_all(session, [MENU, MENU])
    assert session.screen == "turn"


def test_about_hides_the_seed_until_the_game_is_over_D2():
    session = started()
    to_first_card(session)
    session.press(MENU)
    _choose(session, "about")
    assert session.view().seed is None
    session.press(MENU)
    _choose(session, "resume")
    _play_to_game_end(session)
    session.press(MENU)
    _choose(session, "about")
    assert session.view().seed == "SEED1"


def test_seed_entry_replays_a_deal_D2():
    session = Session(Settings(players=2))
    rows = [row.key for row in session.view().rows]
    for _ in range(rows.index("seed")):
        session.next()
    session.press(MENU)  # random → today's deal → a typed code
    assert session.screen == "setup" and session.view().rows[rows.index("seed")].value == "today"
    session.press(MENU)
    assert session.screen == "seed_entry"
    session.next()  # "A"
    session.press(MENU)
    press_all(session, [NEXT, NEXT])  # "B"
    session.press(MENU)
    session.press(MENU)  # blank end: done
    assert session.screen == "setup" and session.view().seed == "AB"
    for _ in range(rows.index("seed")):
        session.back()
    session.press(MENU)
    assert session.deal.setup.seed == "AB"


def test_mixing_card_modules_warns_X4():
    session = Session(Settings(modules=("city_gates", "pencil_powers")))
    assert session.view().mix_warning


def test_new_game_from_the_menu_asks_then_deals_the_same_setup_afresh():
    session = started()
    to_first_card(session)
    session.press(MENU)
    _choose(session, "new_game")
    session.next()
    assert session.screen == "summary"  # the same setup, a new deal: NEXT goes on at once
    session.press(MENU)
    assert session.screen == "setup"  # changing it is one MENU away


def test_power_on_to_the_first_card_takes_two_next_presses():
    session = Session(seed_source=lambda: "ABC")
    session.deal_new_game()  # what `nsdevice run` does with no saved game
    assert session.screen == "summary"
    press_all(session, [NEXT, NEXT])
    assert session.view().screen == "turn" and session.view().turn == 1


def test_notice_is_shown_first_and_any_press_dismisses_it():
    session = Session(notices=(("store_damaged", "x.damaged"),))
    assert session.view().screen == "notice"
    session.press(BACK)
    assert session.view().screen == "setup"


presses = st.lists(
    st.sampled_from(
        [NEXT, NEXT, NEXT, BACK, MENU, Press(Button.NEXT, Gesture.HOLD),
         Press(Button.BACK, Gesture.REPEAT), Press(Button.MENU, Gesture.HOLD)]
    ),
    max_size=120,
)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(
    presses,
    st.sampled_from(["tokyo", "paris", "london"]),
    st.integers(1, 4),
    st.sets(st.sampled_from(["objectives", "special_stations", "city_gates", "pencil_powers"])),
)
def test_any_press_sequence_survives_a_snapshot_round_trip_D1(keys, city, players, modules):
    # a restart draws a new join code (phones join again): the same one here, so that a
    # room game's screens compare
    session = started(
        city=city, players=players, modules=tuple(sorted(modules)), code_source=lambda: "JOIN"
    )
    for press in keys:
        session.press(press)
        snapshot = json.loads(json.dumps(session.snapshot()))
        restored = Session.restore(
            snapshot, seed_source=lambda: "SEED1", code_source=lambda: "JOIN"
        )
        # the chime is a one-off cue of the press itself, not part of the saved place
        assert restored.view() == replace(session.view(), chime=None)
        if session.deal is not None:
            assert restored.deal == session.deal


def test_restore_refuses_a_snapshot_that_does_not_fit():
    session = started()
    to_first_card(session)
    snapshot = session.snapshot()
    snapshot["revealed"] = 99
    with pytest.raises(ValueError):
        Session.restore(snapshot)
    with pytest.raises(ValueError):
        Session.restore({"version": 999})
    with pytest.raises(ValueError):
        Session.restore({**session.snapshot(), "screen": "nowhere"})


# --- the history, from the menu ----------------------------------------------------------------
def _played(city: str, on: str, daily: str | None = None, **kwargs) -> PlayedGame:
    values = {"players": 1, "modules": (), "totals": (100,), "adjusted": 100, "tier": 3}
    return PlayedGame(on, city, daily=daily, **{**values, **kwargs})


class FixedRecords(MemoryRecords):
    def __init__(self, history: History) -> None:
        super().__init__()
        self.fixed = history
        self.reads = 0

    def history(self, limit: int = 5) -> History:
        self.reads += 1
        return self.fixed


def _open_history(session: Session) -> None:
    """From the game's summary: round 1's start, its menu, the history row."""
    session.press(NEXT)
    session.press(MENU)
    rows = [row.key for row in session.view().rows]
    for _ in range(rows.index("history")):
        session.press(NEXT)
    session.press(MENU)


DAILY = History(
    games=(
        _played("tokyo", "2026-11-23", daily="2026-11-23"),
        _played("paris", "2026-11-22", daily="2026-11-22", adjusted=140, tier=3),
        _played(
            "paris", "2026-11-20", players=3, totals=(90, 120, 110), winners=(2,), adjusted=None,
            tier=None,
        ),
    ),
    bests=(BestScore("paris", ("objectives",), 140, "2026-11-22"),),
    daily_days=("2026-11-23", "2026-11-22", "2026-11-21", "2026-11-19"),
    best_daily=(BestScore("paris", ("objectives",), 140, "2026-11-22"),),
)


def test_the_history_opens_from_the_menu_pages_round_and_goes_back():
    records = FixedRecords(DAILY)
    session = started(players=1, records=records, today=lambda: date(2026, 11, 23))
    _open_history(session)
    view = session.view()
    assert view.screen == "history" and records.reads == 1
    assert (view.page, view.pages, view.section, view.city) == (1, 4, "games", "tokyo")
    seen = [(view.section, view.city)]
    for _ in range(3):
        session.press(NEXT)
        seen.append((session.view().section, session.view().city))
    assert seen == [("games", "tokyo"), ("games", "paris"), ("bests", ""), ("daily", "")]
    session.press(NEXT)  # round again to the first page
    assert session.view().page == 1
    session.press(BACK)  # and back round to the last
    assert session.view().section == "daily"
    session.press(MENU)
    menu = session.view()
    assert menu.screen == "menu" and menu.rows[menu.cursor].key == "history"
    session.press(MENU)  # in again: read again (a game may have finished since)
    assert records.reads == 2 and session.view().page == 1


def test_the_daily_streak_counts_days_in_a_row_to_today_or_yesterday():
    days = ("2026-11-23", "2026-11-22", "2026-11-21", "2026-11-19")
    assert daily_streak(days, date(2026, 11, 23)) == 3  # today played: 21, 22, 23
    assert daily_streak(days, date(2026, 11, 24)) == 3  # today not yet played: still alive
    assert daily_streak(days, date(2026, 11, 25)) == 0  # a whole day missed: broken
    assert daily_streak(days, date(2026, 11, 20)) == 1  # counted back from the 19th
    assert daily_streak((), date(2026, 11, 23)) == 0
    assert daily_streak(("2026-12-31", "2027-01-01"), date(2027, 1, 1)) == 2  # over a year's end


def test_the_daily_page_shows_the_streak_and_the_best_daily_score_with_a_fixed_date():
    cases = ((date(2026, 11, 23), 3), (date(2026, 11, 24), 3), (date(2026, 11, 26), 0))
    for today, streak in cases:
        session = started(players=1, records=FixedRecords(DAILY), today=lambda day=today: day)
        _open_history(session)
        session.press(BACK)  # the last page: the daily deals
        view = session.view()
        assert (view.section, view.streak, view.days_played) == ("daily", streak, 4)
        assert [(b.city, b.adjusted) for b in view.bests] == [("paris", 140)]


def test_an_empty_history_is_one_page_and_any_button_goes_back():
    session = started(players=2, today=lambda: date(2026, 11, 23))
    _open_history(session)
    view = session.view()
    assert (view.section, view.pages) == ("empty", 1)
    session.press(NEXT)
    assert session.view().screen == "menu"


def test_a_session_saved_on_the_history_restores_there():
    records = FixedRecords(DAILY)
    session = started(players=1, records=records, today=lambda: date(2026, 11, 23))
    _open_history(session)
    session.press(NEXT)
    saved = json.loads(json.dumps(session.snapshot()))
    again = Session.restore(saved, records=records, today=lambda: date(2026, 11, 23))
    assert again.view() == session.view()
    again.press(MENU)
    assert again.view().screen == "menu"


def test_the_round_so_far_lists_this_rounds_cards_and_goes_back_to_the_game_C3():
    from nsdevice import views

    session = Session(Settings(city="tokyo", players=2), seed_source=lambda: "SOFAR")
    session.deal_new_game()
    for _ in range(4):  # the round's start, then three cards
        session.press(NEXT)
    turn = session.view()
    assert isinstance(turn, views.TurnView) and turn.turn == 3
    session.press(MENU)
    rows = [row.key for row in session.view().rows]
    while session.view().cursor != rows.index("round_so_far"):
        session.press(NEXT)
    session.press(MENU)
    so_far = session.view()
    assert isinstance(so_far, views.RoundSoFarView) and so_far.round == 1
    assert [t.number for t in so_far.turns] == [1, 2, 3]
    assert so_far.turns[:-1] == turn.earlier and so_far.turns[-1].cards == turn.cards
    assert so_far.underground_seen == turn.underground_seen
    assert Session.restore(json.loads(json.dumps(session.snapshot()))).view() == so_far
    session.press(BACK)  # any button: back to the card, none revealed or taken back
    assert session.screen == "turn" and session.view().cards == turn.cards
    session.press(BACK)
    session.press(BACK)
    session.press(BACK)  # the round's start: no card yet
    session.press(MENU)
    rows = [row.key for row in session.view().rows]
    while session.view().cursor != rows.index("round_so_far"):
        session.press(NEXT)
    session.press(MENU)
    assert session.view().turns == ()
    session.press(NEXT)
    assert session.screen == "round_start"


def test_what_is_left_in_the_deck_is_one_menu_row_away_and_matches_the_table_C2_C3():
    from nsdevice import views

    session = Session(Settings(city="london", players=3), seed_source=lambda: "DECKLEFT")
    session.deal_new_game()
    for _ in range(4):  # the round's start, then three turns
        session.press(NEXT)
    turn = session.view()
    assert isinstance(turn, views.TurnView)
    shown = {c.id for t in turn.earlier for c in t.cards} | {c.id for c in turn.cards}
    session.press(MENU)
    rows = [row.key for row in session.view().rows]
    while session.view().cursor != rows.index("deck"):
        session.press(NEXT)
    session.press(MENU)
    deck = session.view()
    assert isinstance(deck, views.DeckView) and deck.round == 1
    assert deck.remaining == turn.remaining  # the screen and the big screens' tracker agree
    # C-2: the round's 11 cards are what is face up and what is left; nothing twice
    assert len(deck.remaining) + len(shown) == 11
    assert not shown & {c.id for c in deck.remaining}
    assert sum(c.underground for c in deck.remaining) == 5 - deck.underground_seen  # C-4
    assert Session.restore(json.loads(json.dumps(session.snapshot()))).view() == deck
    session.press(NEXT)  # any button: back to the card, nothing revealed
    assert session.screen == "turn" and session.view() == replace(turn, chime=None)
