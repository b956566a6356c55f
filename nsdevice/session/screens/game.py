"""The game itself, step by step through the fixed deal (D-1): the summary (and its recall
from the menu), each round's start, the turns (and the round so far, from the menu), the
round's end, the pencils passed on, and the game's end."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from nsdevice import views
from nsdevice.inputs.events import Button, Gesture, Press
from nsdevice.rules.cities import city
from nsdevice.rules.deal import ROUNDS, Deal, Setup, slots
from nsdevice.rules.modules import mixes_card_modules
from nsdevice.rules.progress import Progress
from nsdevice.session.context import Album, Context, MenuEntry, Screen
from nsdevice.session.names import Kind, ScreenName
from nsdevice.session.screens.common import (
    hints,
    in_round,
    module_cards,
    pairing_view,
    seat_pencils,
)
from nsdevice.session.screens.examples import (
    SITUATIONS,
    deal,
    first,
    joker_card,
    situation_deal,
    tables,
)
from nsdevice.session.screens.lines import open_lines, running_totals, takes_lines
from nsdevice.session.screens.menu import ask, open_menu
from nsdevice.session.screens.room import example_room_call, room_call, room_deal
from nsdevice.session.screens.score_sheet import open_sheet, sheet_counts
from nsdevice.session.screens.scores import begin_scores
from nsdevice.session.settings import MODULES


# --- the summary, and its recall from the menu ----------------------------------------------
def summary_view(
    deal: Deal, language: str, recall: bool = False, room: views.RoomCall | None = None
) -> views.SummaryView:
    """`recall`: shown again from the menu, where every button goes back to the game;
    `room`: a room game's (how to join; its tables keep their own pencils)."""
    setup = deal.setup
    return views.SummaryView(
        city=setup.city.value,
        players=setup.players,
        modules=tuple(m.value for m in setup.modules),
        objectives=deal.objectives,
        city_gates=deal.city_gates or (),
        pencil_powers=deal.pencil_powers or (),
        solo_order=deal.solo_order or (),
        mix_warning=mixes_card_modules(setup.modules),
        recall=recall,
        room=room,
        hints=(
            hints(next="back", back="back", menu="back")
            if recall
            else hints(next="continue", back="setup", menu="setup")
        ),
        language=language,
    )


def show_summary(session: Context) -> views.SummaryView:
    return summary_view(session.current_deal(), session.language, room=room_call(session, 1))


def on_summary(session: Context, press: Press) -> None:
    state = session.state
    if press.button is Button.NEXT:
        state.screen = ScreenName.ROUND_START
    else:  # BACK or MENU: change the setup; no card was revealed yet, nothing is lost
        state.screen = ScreenName.SETUP
        state.cursor = 0
        state.leave_game()


def show_recall(session: Context) -> views.SummaryView:
    return summary_view(session.current_deal(), session.language, recall=True)


def on_recall(session: Context, press: Press) -> None:
    session.resume()


# --- a round's start ------------------------------------------------------------------------
def round_start_view(
    deal: Deal, round_number: int, language: str, room: views.RoomCall | None = None
) -> views.RoundStartView:
    """`room`: a room game's, whose tables each keep their own controller (C-10) and take
    their pencils by their size (`room.rows`)."""
    return views.RoundStartView(
        city=deal.setup.city.value,
        round=round_number,
        rounds=ROUNDS,
        players=deal.setup.players,
        controller=0 if room else deal.rounds[round_number - 1].controller,
        pencils=() if room else seat_pencils(deal, round_number),
        room=room,
        pairing=pairing_view(deal, round_number),
        objectives=deal.objectives,
        module_cards=module_cards(deal),
        hints=hints(next="reveal", back="back", menu="menu"),
        language=language,
    )


def show_round_start(session: Context) -> views.RoundStartView:
    number = session.state.progress.round
    return round_start_view(
        session.current_deal(), number, session.language, room_call(session, number)
    )


def on_round_start(session: Context, press: Press) -> None:
    state = session.state
    if press.button is Button.NEXT:
        _reveal(session)
    elif press.button is Button.BACK:
        if state.progress.round == 1:
            state.screen = ScreenName.SUMMARY
        else:
            ask(session, "back_to_round")
    else:
        open_menu(session)


# --- the turns ------------------------------------------------------------------------------
def turn_view(
    deal: Deal, progress: Progress, language: str, room: views.RoomCall | None = None
) -> views.TurnView:
    """The latest revealed turn of `progress`, over the round's earlier ones (C-3);
    `room`: a room game's, the caller's screen (each table keeps its own controller)."""
    shown = progress.visible(deal)
    assert shown, "a turn screen shows at least one revealed turn"
    turn = shown[-1]
    return views.TurnView(
        city=deal.setup.city.value,
        round=progress.round,
        turn=turn.number,
        controller=0 if room else deal.rounds[progress.round - 1].controller,
        cards=turn.cards,
        earlier=tuple(
            views.PlayedTurn(t.number, t.cards, t.switch_effect, t.paired_effect)
            for t in shown[:-1]
        ),
        underground_seen=turn.underground_seen,
        switch_effect=turn.switch_effect,
        paired_effect=turn.paired_effect,
        paired_effect_active=turn.paired_effect_active,
        pairing=pairing_view(deal, progress.round),
        joker_extra=deal.city.joker_extra,
        last=turn.last,
        module_cards=module_cards(deal),
        remaining=progress.remaining(deal),
        room=room,
        # a held MENU shows the module cards (`on_turn`): the label says so where there are any
        hints=hints(
            next="continue" if turn.last else "reveal",
            back="undo",
            menu="menu_cards" if module_cards(deal) else "menu",
        ),
        language=language,
    )


def show_turn(session: Context) -> views.TurnView:
    progress = session.state.progress
    room = room_call(session, progress.round)
    return turn_view(session.current_deal(), progress, session.language, room)


def _reveal(session: Context) -> None:
    state = session.state
    session.step(forward=True)
    state.screen = ScreenName.TURN
    state.chime = "reveal" if state.settings.sound else None


def on_turn(session: Context, press: Press) -> None:
    state = session.state
    if press.button is Button.NEXT:
        if state.progress.round_over(session.current_deal()):
            state.screen = ScreenName.ROUND_END
            state.chime = "round_end" if state.settings.sound else None
        else:
            _reveal(session)
    elif press.button is Button.BACK:
        # The card goes back on top of the deck: the same card comes again on NEXT.
        session.step(forward=False)
        if state.progress.revealed == 0:
            state.screen = ScreenName.ROUND_START
    elif press.gesture is Gesture.HOLD:  # the module cards one press away, no menu to climb
        state.under = state.screen
        state.screen = ScreenName.RECALL
    else:
        open_menu(session)


# --- the round so far, from the menu ----------------------------------------------------------
def round_so_far_view(deal: Deal, progress: Progress, language: str) -> views.RoundSoFarView:
    """Every card revealed in `progress`'s round, turn by turn (C-3), for a player who
    missed one; any button goes back to the game."""
    shown = progress.visible(deal)
    return views.RoundSoFarView(
        city=deal.setup.city.value,
        round=progress.round,
        turns=tuple(
            views.PlayedTurn(t.number, t.cards, t.switch_effect, t.paired_effect) for t in shown
        ),
        underground_seen=shown[-1].underground_seen if shown else 0,
        hints=hints(next="back", back="back", menu="back"),
        language=language,
    )


def show_round_so_far(session: Context) -> views.RoundSoFarView:
    return round_so_far_view(session.current_deal(), session.state.progress, session.language)


def on_round_so_far(session: Context, press: Press) -> None:
    session.resume()


# --- what is left in the deck, from the menu ---------------------------------------------------
def deck_view(deal: Deal, progress: Progress, language: str) -> views.DeckView:
    """The cards of `progress`'s round not revealed yet (C-2, C-3), from the rules core;
    any button goes back to the game."""
    shown = progress.visible(deal)
    return views.DeckView(
        city=deal.setup.city.value,
        round=progress.round,
        remaining=progress.remaining(deal),
        underground_seen=shown[-1].underground_seen if shown else 0,
        hints=hints(next="back", back="back", menu="back"),
        language=language,
    )


def show_deck(session: Context) -> views.DeckView:
    return deck_view(session.current_deal(), session.state.progress, session.language)


def on_deck(session: Context, press: Press) -> None:
    session.resume()


# --- every seat's pencil this round, from the menu ---------------------------------------------
def pencils_view(
    deal: Deal,
    round_number: int,
    language: str,
    rows: tuple[tuple[views.SeatPencil, ...], ...] = (),
) -> views.PencilsView:
    """Round `round_number`'s pencils on one page (C-8, C-10, L-PP), for a player who
    forgot theirs mid-round; `rows`: a room's, every table size's. Any button goes back."""
    return views.PencilsView(
        city=deal.setup.city.value,
        round=round_number,
        players=deal.setup.players,
        controller=0 if rows else deal.rounds[round_number - 1].controller,
        pencils=() if rows else seat_pencils(deal, round_number),
        rows=rows,
        hints=hints(next="back", back="back", menu="back"),
        language=language,
    )


def show_pencils(session: Context) -> views.PencilsView:
    number = session.state.progress.round
    room = room_call(session, number)
    return pencils_view(session.current_deal(), number, session.language, room.rows if room else ())


def on_pencils(session: Context, press: Press) -> None:
    session.state.screen = session.under()


# --- a round's end and the pencils passed on --------------------------------------------------
def round_end_view(
    deal: Deal,
    round_number: int,
    language: str,
    lines: bool = False,
    running: tuple[int | None, ...] = (),
) -> views.RoundEndView:
    """`lines`: a held NEXT opens the line entry; `running`: each seat's lines so far."""
    return views.RoundEndView(
        city=deal.setup.city.value,
        round=round_number,
        rounds=ROUNDS,
        solo=deal.setup.solo,
        line_scoring=deal.city.line_scoring,
        lines=lines,
        running=running if any(total is not None for total in running) else (),
        hints=hints(next="continue", back="back", menu="menu"),
        language=language,
    )


def show_round_end(session: Context) -> views.RoundEndView:
    state = session.state
    deal = session.current_deal()
    taken = takes_lines(session)
    running = running_totals(deal.setup, state.lines) if taken else ()
    return round_end_view(deal, state.progress.round, session.language, taken, running)


def on_round_end(session: Context, press: Press) -> None:
    state = session.state
    if press.button is Button.NEXT and press.gesture is Gesture.HOLD and takes_lines(session):
        open_lines(session)  # each seat's line of this round, as the game goes
    elif press.button is Button.NEXT:
        last = state.progress.round >= ROUNDS
        state.screen = ScreenName.GAME_END if last else ScreenName.PENCIL_PASS
        if last and state.room is not None:  # a room's end: its results, page 1
            state.screen = ScreenName.ROOM_RESULTS
            state.cursor = 0
    elif press.button is Button.BACK:
        state.screen = ScreenName.TURN
    else:
        open_menu(session)


def pencil_pass_view(
    deal: Deal, next_round: int, language: str, room: views.RoomCall | None = None
) -> views.PencilPassView:
    """Before round `next_round`: every pencil moves one slot on (C-8); solo, the next
    pencil in the row instead; `room`: a room game's, every table size's next pencils."""
    table = slots(deal.setup.players)
    now = dict(deal.rounds[next_round - 2].pencils)
    moves = tuple(
        views.PencilMove(now[slot], slot, table[(index + 1) % len(table)])
        for index, slot in enumerate(table)
    )
    return views.PencilPassView(
        city=deal.setup.city.value,
        round=next_round,
        players=deal.setup.players,
        moves=() if deal.setup.solo or room else moves,
        next_controller=0 if room else deal.rounds[next_round - 1].controller,
        solo_next=deal.solo_order[next_round - 1] if deal.solo_order else None,
        room=room,
        hints=hints(next="continue", back="back", menu="menu"),
        language=language,
    )


def show_pencil_pass(session: Context) -> views.PencilPassView:
    number = session.state.progress.round + 1
    return pencil_pass_view(
        session.current_deal(), number, session.language, room_call(session, number)
    )


def on_pencil_pass(session: Context, press: Press) -> None:
    state = session.state
    if press.button is Button.NEXT:
        session.step(forward=True)  # past the round's last turn: the next round's start
        state.screen = ScreenName.ROUND_START
    elif press.button is Button.BACK:
        state.screen = ScreenName.ROUND_END
    else:
        open_menu(session)


# --- the game's end -------------------------------------------------------------------------
def game_end_view(setup: Setup, language: str) -> views.GameEndView:
    return views.GameEndView(
        city=setup.city.value,
        players=setup.players,
        seed=setup.seed,  # D-2: the deal is over, the code may be shared
        sheet=bool(city(setup.city).line_scoring),
        hints=hints(next="scores", back="back", menu="menu"),
        language=language,
    )


def show_game_end(session: Context) -> views.GameEndView:
    return game_end_view(session.current_setup(), session.language)


def on_game_end(session: Context, press: Press) -> None:
    state = session.state
    if press.button is Button.NEXT:
        begin_scores(session)
        if press.gesture is Gesture.HOLD and sheet_counts(session.current_setup()):
            open_sheet(session)  # the first seat's score sheet, one press from here
    elif press.button is Button.BACK:
        state.screen = ScreenName.ROUND_END
    else:
        open_menu(session)


# --- the gallery's examples ---------------------------------------------------------------
def _plain_turns(city: str) -> Deal:
    return situation_deal(city, "plain") or deal(city, 3, MODULES, "A")


def _long_round(city: str) -> Deal:
    return situation_deal(city, "last") or deal(city, 3, MODULES, "A")


def _summary_examples(album: Album) -> Iterator[tuple[str, views.View]]:
    games, language = tables(album.city), album.language
    yield "summary", summary_view(games.two, language)
    yield "summary-all-modules", summary_view(games.solo, language)
    yield "summary-plain", summary_view(games.plain_solo, language)
    room = room_deal(album.city)
    yield "room-summary", summary_view(room, language, room=example_room_call(room, 1, 0, 0))


def _round_start_examples(album: Album) -> Iterator[tuple[str, views.View]]:
    games, language = tables(album.city), album.language
    yield "round-start-3-players", round_start_view(games.three, 2, language)
    yield "round-start-2-players", round_start_view(games.two, 1, language)
    yield "round-start-4-players", round_start_view(games.four, 3, language)
    yield "round-start-solo", round_start_view(games.solo, 1, language)
    room = room_deal(album.city)
    yield "room-round-start", round_start_view(room, 2, language, example_room_call(room, 2))


def _turn_examples(album: Album) -> Iterator[tuple[str, views.View]]:
    city, language = album.city, album.language

    def revealed(dealt: Deal, progress: Progress, room: views.RoomCall | None = None) -> views.View:
        # as the session shows it right after NEXT, with the sound on
        return replace(turn_view(dealt, progress, language, room), chime="reveal")

    plain = _plain_turns(city)
    yield "turn", revealed(plain, first(plain, SITUATIONS["plain"]))
    yield "turn-first", revealed(plain, Progress(round=1, revealed=1))
    joker_name = f"turn-{joker_card(city).replace('_', '-')}"  # as the city's cards call it
    for name, situation in (
        ("turn-switch-no-effect", "switch-no-effect"),
        ("turn-switch", "switch"),
        ("turn-paired-effect", "paired-effect"),
        ("turn-paired-no-effect", "paired-no-effect"),
        (joker_name, "joker"),
        ("turn-last", "last"),
    ):
        dealt = situation_deal(city, situation)
        if dealt is None:  # a situation the city never shows (P-4: a switch always works)
            continue
        yield name, revealed(dealt, first(dealt, SITUATIONS[situation]))
    room = room_deal(city)
    progress = Progress(round=2, revealed=len(room.rounds[1].turns) - 2)
    yield "room-turn", revealed(room, progress, example_room_call(room, 2))


def _round_so_far_examples(album: Album) -> Iterator[tuple[str, views.View]]:
    """A long round at its last card, and one not begun."""
    dealt = _long_round(album.city)
    last = first(dealt, SITUATIONS["last"])
    yield "round-so-far", round_so_far_view(dealt, last, album.language)
    yield "round-so-far-none", round_so_far_view(dealt, Progress(round=2), album.language)


def _deck_examples(album: Album) -> Iterator[tuple[str, views.View]]:
    """Mid-round, and at the round's last card."""
    dealt = _long_round(album.city)
    yield "deck", deck_view(dealt, Progress(round=1, revealed=4), album.language)
    yield "deck-last", deck_view(dealt, first(dealt, SITUATIONS["last"]), album.language)


def _round_end_examples(album: Album) -> Iterator[tuple[str, views.View]]:
    """A round's end as it comes (its chime), and with the seats' lines so far."""
    three = tables(album.city).three
    yield "round-end", replace(round_end_view(three, 2, album.language), chime="round_end")
    if three.city.line_scoring:  # lines entered as the game goes: seat 3 skipped one
        yield "round-end-lines", round_end_view(three, 3, album.language, True, (44, 51, None))


def _pencil_pass_examples(album: Album) -> Iterator[tuple[str, views.View]]:
    games, language = tables(album.city), album.language
    yield "pencil-pass-3-players", pencil_pass_view(games.three, 2, language)
    yield "pencil-pass-2-players", pencil_pass_view(games.two, 3, language)
    yield "pencil-pass-4-players", pencil_pass_view(games.four, 4, language)
    yield "pencil-pass-solo", pencil_pass_view(games.solo, 4, language)
    room = room_deal(album.city)
    yield "room-pencil-pass", pencil_pass_view(room, 3, language, example_room_call(room, 3))


def _game_end_examples(album: Album) -> Iterator[tuple[str, views.View]]:
    games = tables(album.city)
    yield "game-end", game_end_view(games.three.setup, album.language)
    yield "game-end-solo", game_end_view(games.solo.setup, album.language)


def _pencils_examples(album: Album) -> Iterator[tuple[str, views.View]]:
    """Three players with pencil powers, a solo player's own row, a room's table sizes."""
    games, language = tables(album.city), album.language
    yield "pencils", pencils_view(games.three, 2, language)
    yield "pencils-solo", pencils_view(games.solo, 3, language)
    room = room_deal(album.city)
    yield "room-pencils", pencils_view(room, 2, language, example_room_call(room, 2).rows)


def _no_examples(album: Album) -> Iterator[tuple[str, views.View]]:
    return iter(())  # the recall is the summary's own view, shown again


SUMMARY = Screen(
    ScreenName.SUMMARY, Kind.GAME, views.SummaryView, on_summary, show_summary, _summary_examples
)
ROUND_START = Screen(
    ScreenName.ROUND_START,
    Kind.GAME,
    views.RoundStartView,
    on_round_start,
    show_round_start,
    _round_start_examples,
    in_round=True,
)
TURN = Screen(
    ScreenName.TURN,
    Kind.GAME,
    views.TurnView,
    on_turn,
    show_turn,
    _turn_examples,
    holds=frozenset({Button.MENU}),  # a held MENU shows this game's module cards
    in_round=True,
)
ROUND_END = Screen(
    ScreenName.ROUND_END,
    Kind.GAME,
    views.RoundEndView,
    on_round_end,
    show_round_end,
    _round_end_examples,
    holds=frozenset({Button.NEXT}),  # a held NEXT enters each seat's line of the round
    in_round=True,
)
PENCIL_PASS = Screen(
    ScreenName.PENCIL_PASS,
    Kind.GAME,
    views.PencilPassView,
    on_pencil_pass,
    show_pencil_pass,
    _pencil_pass_examples,
)
GAME_END = Screen(
    ScreenName.GAME_END,
    Kind.GAME,
    views.GameEndView,
    on_game_end,
    show_game_end,
    _game_end_examples,
    holds=frozenset({Button.NEXT}),  # a held NEXT opens the score sheet
    over=True,
)
RECALL = Screen(
    ScreenName.RECALL,
    Kind.OVERLAY,
    views.SummaryView,
    on_recall,
    show_recall,
    _no_examples,
    menu=MenuEntry("show_setup", after="resume"),
)
ROUND_SO_FAR = Screen(
    ScreenName.ROUND_SO_FAR,
    Kind.OVERLAY,
    views.RoundSoFarView,
    on_round_so_far,
    show_round_so_far,
    _round_so_far_examples,
    menu=MenuEntry("round_so_far", after="show_setup", shown=in_round),
)
DECK = Screen(
    ScreenName.DECK,
    Kind.OVERLAY,
    views.DeckView,
    on_deck,
    show_deck,
    _deck_examples,
    menu=MenuEntry("deck", after="round_so_far", shown=in_round),
)
PENCILS = Screen(
    ScreenName.PENCILS,
    Kind.OVERLAY,
    views.PencilsView,
    on_pencils,
    show_pencils,
    _pencils_examples,
    menu=MenuEntry("pencils", after="deck", shown=in_round),
)
RECORDS = (
    SUMMARY, ROUND_START, TURN, ROUND_END, PENCIL_PASS, GAME_END, RECALL, ROUND_SO_FAR, DECK,
    PENCILS,
)  # fmt: skip
