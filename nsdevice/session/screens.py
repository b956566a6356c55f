"""Each screen's view, built from plain inputs (views.py is the data).

The builders are pure functions of the deal, a `Progress`, the settings and the like, so
the session and the gallery (`nsdevice screenshot`, the text-fit tests) show the same
screens from one piece of code. `Screens`, a mixin of `Session`, only reads the session's
`_state`, `deal` and `notices` and hands them to the builders; it never changes them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from nsdevice import __version__, views
from nsdevice.rules import scoring
from nsdevice.rules.cities import city
from nsdevice.rules.deal import ROUNDS, Deal, Setup, slots
from nsdevice.rules.modules import Module, mixes_card_modules
from nsdevice.rules.progress import Progress
from nsdevice.session.digits import NumberField, counting_field, digits_of
from nsdevice.session.screen import Screen
from nsdevice.session.settings import (
    BRIGHTNESS_LEVELS,
    CITIES,
    MODULES,
    VOLUME_LEVELS,
    Capabilities,
    History,
    Settings,
)
from nsdevice.session.state import State


def hints(**actions: str) -> tuple[views.Hint, ...]:
    """The legend: what each button (`next`, `back`, `menu`) does on a screen."""
    return tuple(views.Hint(button, action) for button, action in actions.items())


# --- the list screens ---------------------------------------------------------------------
def setup_rows(
    settings: Settings, seed_code: str | None, today: bool = False
) -> tuple[views.Row, ...]:
    """`today`: the day's deal was chosen (D-2); the deal row shows it instead of a code."""
    solo = settings.players == 1
    return (
        views.Row("start"),
        views.Row("city", settings.city),
        views.Row("players", str(settings.players)),
        *((views.Row("pencil_order", settings.pencil_order),) if solo else ()),  # C-8
        *(views.Row(m, "on" if m in settings.modules else "off") for m in MODULES),
        views.Row("seed", "today" if today else seed_code or "random"),
        views.Row("language", settings.language),
    )


def setup_view(
    settings: Settings, seed_code: str | None, cursor: int, today: bool = False
) -> views.SetupView:
    """`seed_code`: a code typed in to replay a deal; None for a random one (or the day's
    deal, when `today`)."""
    return views.SetupView(
        rows=setup_rows(settings, seed_code, today),
        cursor=cursor,
        city=settings.city,
        players=settings.players,
        modules=settings.modules,
        seed=seed_code,
        mix_warning=mixes_card_modules(tuple(Module(m) for m in settings.modules)),
        hints=hints(next="down", back="up", menu="select"),
        language=settings.language,
    )


def seed_entry_view(characters: Sequence[str], cursor: int, language: str) -> views.SeedEntryView:
    return views.SeedEntryView(
        characters=tuple(characters),
        cursor=cursor,
        hints=hints(next="change", back="change", menu="next_character"),
        language=language,
    )


def pencil_order_view(
    city_name: str, chosen: Sequence[str], cursor: int, language: str
) -> views.PencilOrderView:
    """`chosen`: the pencils laid so far; `cursor`: the offered colour's index among the
    city's colours (C-8)."""
    colours = city(city_name).colours
    return views.PencilOrderView(
        city=city_name,
        chosen=tuple(chosen),
        offered=colours[cursor],
        left=tuple(c for c in colours if c not in chosen),
        hints=hints(next="change", back="change", menu="take"),
        language=language,
    )


def menu_rows(
    settings: Settings, capabilities: Capabilities, in_round: bool
) -> tuple[views.Row, ...]:
    """`in_round`: the menu was opened over a round under way, which it may restart."""
    return (
        views.Row("resume"),
        views.Row("show_setup"),
        *((views.Row("restart_round"),) if in_round else ()),
        views.Row("new_game"),
        views.Row("language", settings.language),
        views.Row("sound", "on" if settings.sound else "off"),
        views.Row("voice", "on" if settings.voice else "off"),
        *((views.Row("volume", f"{settings.volume}/{VOLUME_LEVELS}"),) if settings.voice else ()),
        *(
            (views.Row("brightness", f"{settings.brightness}/{BRIGHTNESS_LEVELS}"),)
            if capabilities.brightness
            else ()
        ),
        *((views.Row("shutdown"),) if capabilities.shutdown else ()),
        *((views.Row("phones"),) if capabilities.phones else ()),
        views.Row("history"),
        views.Row("about"),
    )


def menu_view(
    settings: Settings, capabilities: Capabilities, in_round: bool, cursor: int
) -> views.MenuView:
    return views.MenuView(
        rows=menu_rows(settings, capabilities, in_round),
        cursor=cursor,
        hints=hints(next="down", back="up", menu="select"),
        language=settings.language,
    )


# --- the game screens ---------------------------------------------------------------------
def summary_view(deal: Deal, language: str, recall: bool = False) -> views.SummaryView:
    """`recall`: shown again from the menu, where every button goes back to the game."""
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
        hints=(
            hints(next="back", back="back", menu="back")
            if recall
            else hints(next="continue", back="setup", menu="setup")
        ),
        language=language,
    )


def round_start_view(deal: Deal, round_number: int, language: str) -> views.RoundStartView:
    return views.RoundStartView(
        city=deal.setup.city.value,
        round=round_number,
        rounds=ROUNDS,
        players=deal.setup.players,
        controller=deal.rounds[round_number - 1].controller,
        pencils=seat_pencils(deal, round_number),
        pairing=pairing_view(deal, round_number),
        objectives=deal.objectives,
        hints=hints(next="reveal", back="back", menu="menu"),
        language=language,
    )


def turn_view(deal: Deal, progress: Progress, language: str) -> views.TurnView:
    """The latest revealed turn of `progress`, over the round's earlier ones (C-3)."""
    shown = progress.visible(deal)
    assert shown, "a turn screen shows at least one revealed turn"
    turn = shown[-1]
    return views.TurnView(
        city=deal.setup.city.value,
        round=progress.round,
        turn=turn.number,
        controller=deal.rounds[progress.round - 1].controller,
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
        hints=hints(next="continue" if turn.last else "reveal", back="undo", menu="menu"),
        language=language,
    )


def round_end_view(deal: Deal, round_number: int, language: str) -> views.RoundEndView:
    return views.RoundEndView(
        city=deal.setup.city.value,
        round=round_number,
        rounds=ROUNDS,
        solo=deal.setup.solo,
        line_scoring=deal.city.line_scoring,
        hints=hints(next="continue", back="back", menu="menu"),
        language=language,
    )


def pencil_pass_view(deal: Deal, next_round: int, language: str) -> views.PencilPassView:
    """Before round `next_round`: every pencil moves one slot on (C-8); solo, the next
    pencil in the row instead."""
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
        moves=() if deal.setup.solo else moves,
        next_controller=deal.rounds[next_round - 1].controller,
        solo_next=deal.solo_order[next_round - 1] if deal.solo_order else None,
        hints=hints(next="continue", back="back", menu="menu"),
        language=language,
    )


def game_end_view(setup: Setup, language: str) -> views.GameEndView:
    return views.GameEndView(
        city=setup.city.value,
        players=setup.players,
        seed=setup.seed,  # D-2: the deal is over, the code may be shared
        sheet=bool(city(setup.city).line_scoring),
        hints=hints(next="scores", back="back", menu="menu"),
        language=language,
    )


# The fields of the score entry: a total may go below zero (S-T-END's ring penalty), a
# best line may not; the session's SCORE_LIMITS bound both.
TOTAL_FIELD = NumberField(3, -50, 999)
BEST_LINE_FIELD = NumberField(3, 0, 999)


def score_field(setup: Setup, entry: int) -> NumberField:
    return TOTAL_FIELD if setup.solo or entry % 2 == 0 else BEST_LINE_FIELD


def score_fields(setup: Setup, scores: Sequence[int]) -> tuple[int, ...]:
    """The fields asked, in order: every seat's total, then the best line of only the
    seats tied for the top total (C-12: nobody else's decides anything)."""
    if setup.solo:
        return (0,)
    totals = tuple(range(0, 2 * setup.players, 2))
    top = max(scores[t] for t in totals)
    tied = tuple(t + 1 for t in totals if scores[t] == top)
    return totals + (tied if len(tied) > 1 else ())


def score_entry_view(
    setup: Setup,
    scores: Sequence[int],
    entry: int,
    language: str,
    digits: Sequence[str] | None = None,
    cursor: int = 0,
) -> views.ScoreEntryView:
    """`scores`: every field (solo: the total; else each seat's total and best line);
    `entry`: the one being set; `digits`: it as shown (by default, its value)."""
    fields = score_fields(setup, scores)
    step = fields.index(entry) if entry in fields else fields.index(entry - 1)
    field = score_field(setup, entry)
    shown = tuple(digits) if digits is not None else digits_of(scores[entry], field)
    last = cursor + 1 == field.width
    total = setup.solo or entry % 2 == 0
    line_scoring = city(setup.city).line_scoring
    return views.ScoreEntryView(
        city=setup.city.value,
        seat=entry // 2 + 1,
        field="total" if total else "best_line",
        value=scores[entry],
        step=step,
        steps=len(fields),
        solo=setup.solo,
        digits=shown,
        cursor=cursor,
        sheet=total and bool(line_scoring),
        line_scoring=line_scoring,
        hints=hints(
            next="plus_five",
            back="minus_one",
            menu=("done" if step + 1 == len(fields) else "continue") if last else "next_digit",
        ),
        language=language,
    )


def sheet_counts(setup: Setup) -> tuple[tuple[int, scoring.Count], ...]:
    """Every count of the setup's score sheet in order, each with its item's index."""
    items = scoring.sheet_items(city(setup.city), Module.OBJECTIVES in setup.modules)
    return tuple((index, count) for index, item in enumerate(items) for count in item.counts)


def sheet_values(
    items: Sequence[scoring.SheetItem], counts: Sequence[int]
) -> list[tuple[int, ...]]:
    """The flat counts of the session, grouped by sheet item."""
    values, start = [], 0
    for item in items:
        values.append(tuple(counts[start : start + len(item.counts)]))
        start += len(item.counts)
    return values


def sheet_sum(setup: Setup, counts: Sequence[int]) -> int | None:
    """The sheet's total so far (scoring.sheet_total); None while the counts cannot all be
    right (more overpasses than the map has)."""
    town = city(setup.city)
    items = scoring.sheet_items(town, Module.OBJECTIVES in setup.modules)
    try:
        return scoring.sheet_total(town, items, sheet_values(items, counts))
    except ValueError:
        return None


def sheet_view(
    setup: Setup,
    entry: int,
    counts: Sequence[int],
    step: int,
    language: str,
    digits: Sequence[str] | None = None,
    cursor: int = 0,
) -> views.SheetView:
    """Seat `entry // 2 + 1`'s sheet; `counts`: every count in sheet order; `step`: the
    one being set, shown as `digits` (by default, its value)."""
    town = city(setup.city)
    items = scoring.sheet_items(town, Module.OBJECTIVES in setup.modules)
    layout = sheet_counts(setup)
    index, count = layout[step]
    item = items[index]
    first = next(n for n, (i, _) in enumerate(layout) if i == index)
    mine = counts[first : first + len(item.counts)]
    alone = [0] * len(counts)
    alone[first : first + len(item.counts)] = mine
    field = counting_field(count.most)
    shown = tuple(digits) if digits is not None else digits_of(counts[step], field)
    last = cursor + 1 == field.width and step + 1 == len(layout)
    return views.SheetView(
        city=setup.city.value,
        seat=entry // 2 + 1,
        solo=setup.solo,
        item=item.key,
        number=item.number,
        counts=tuple(views.SheetCount(c.key, v) for c, v in zip(item.counts, mine, strict=True)),
        count=step - first,
        digits=shown,
        cursor=cursor,
        points=sheet_sum(setup, alone),
        running=sheet_sum(setup, counts),
        step=index,
        steps=len(items),
        line_scoring=town.line_scoring,
        module_penalty=scoring.MODULE_PENALTY * len(setup.modules) if setup.solo else 0,
        hints=hints(
            next="plus_five",
            back="minus_one",
            menu="done" if last else ("continue" if cursor + 1 == field.width else "next_digit"),
        ),
        language=language,
    )


def result_view(
    setup: Setup, scores: Sequence[int], best_before: int | None, language: str
) -> views.ResultView:
    """`scores` as for `score_entry_view`; `best_before`: the solo best before this game
    in the same city with the same module set (C-13), if any."""
    common: dict[str, Any] = {
        "city": setup.city.value,
        "seed": setup.seed,
        "daily": setup.daily,
        "hints": hints(next="new_game", back="back", menu="menu"),
        "language": language,
    }
    if setup.solo:
        total = scores[0]
        used = len(setup.modules)
        adjusted = scoring.solo_adjusted(total, used)
        tier = scoring.solo_tier(city(setup.city), adjusted)
        low, high = city(setup.city).tier_band(tier)
        return views.ResultView(
            solo=True,
            total=total,
            modules_used=used,
            penalty=scoring.MODULE_PENALTY * used,
            adjusted=adjusted,
            tier=tier,
            tier_low=low,
            tier_high=high,
            personal_best=best_before,
            new_best=best_before is None or adjusted > best_before,
            **common,
        )
    seats = tuple(
        views.SeatResult(seat, scores[2 * seat - 2], scores[2 * seat - 1])
        for seat in range(1, setup.players + 1)
    )
    outcome = scoring.winner([scoring.SeatScore(s.seat, s.total, s.best_line) for s in seats])
    return views.ResultView(
        solo=False,
        seats=seats,
        winners=outcome.winners,
        decided_by=outcome.decided_by,
        **common,
    )


# --- the overlays and the rest ------------------------------------------------------------
def confirm_view(question: str, progress: Progress, language: str) -> views.ConfirmView:
    """`question`: "back_to_round", "restart_round", "new_game" or "shutdown"; the round it
    names is the one before `progress` when going back to it, else the current one."""
    return views.ConfirmView(
        question=question,
        round=progress.round - 1 if question == "back_to_round" else progress.round,
        hints=hints(next="yes", back="no", menu="no"),
        language=language,
    )


def about_view(city_name: str, language: str, seed: str | None = None) -> views.AboutView:
    """`seed`: the game's code, only once it is over (D-2)."""
    return views.AboutView(
        version=__version__,
        seed=seed,
        city=city_name,
        first_tier_top=city(city_name).tier_upper_bounds[0],
        hints=hints(next="back", back="back", menu="back"),
        language=language,
    )


HISTORY_PER_PAGE = 5  # lines of games or bests on one page: readable on a 320×240 panel


def history_pages(history: History, today: date) -> tuple[views.HistoryView, ...]:
    """The history in pages, without words: each city's last games, the solo bests, then
    the daily deals (kept apart); one "empty" page when no game has finished yet."""
    pages: list[views.HistoryView] = []
    for name in CITIES:
        games = tuple(g for g in history.games if g.city == name)[:HISTORY_PER_PAGE]
        if games:
            pages.append(views.HistoryView(section="games", city=name, games=games))
    for start in range(0, len(history.bests), HISTORY_PER_PAGE):
        chunk = history.bests[start : start + HISTORY_PER_PAGE]
        pages.append(views.HistoryView(section="bests", bests=chunk))
    if history.daily_days:
        pages.append(
            views.HistoryView(
                section="daily",
                bests=history.best_daily,
                streak=history.streak(today),
                days_played=len(history.daily_days),
            )
        )
    return tuple(pages) or (views.HistoryView(section="empty"),)


def history_view(
    history: History, today: date, page: int, language: str
) -> views.HistoryView:
    """Page `page` (from 0, wrapping round) of the history; NEXT/BACK turn the pages."""
    pages = history_pages(history, today)
    shown = pages[page % len(pages)]
    return views.HistoryView(
        page=page % len(pages) + 1,
        pages=len(pages),
        section=shown.section,
        city=shown.city,
        games=shown.games,
        bests=shown.bests,
        streak=shown.streak,
        days_played=shown.days_played,
        hints=hints(next="continue", back="back", menu="menu")
        if len(pages) > 1
        else hints(next="back", back="back", menu="back"),
        language=language,
    )


def phones_view(addresses: tuple[str, ...], code: str, language: str) -> views.PhonesView:
    return views.PhonesView(
        addresses=addresses,
        code=code,
        hints=hints(next="renew", back="back", menu="back"),
        language=language,
    )


def notice_view(notice: str, detail: str, language: str) -> views.NoticeView:
    return views.NoticeView(
        notice=notice,
        detail=detail,
        hints=hints(next="ok", back="ok", menu="ok"),  # any button dismisses it
        language=language,
    )


def shutdown_view(language: str) -> views.ShutdownView:
    return views.ShutdownView(language=language)


def seat_pencils(deal: Deal, round_number: int) -> tuple[views.SeatPencil, ...]:
    """Each slot's pencil for a round, with its start symbol and power: seats first, then
    the spare spots on the table (C-8, C-9, L-PP)."""
    powers = dict(deal.pencil_powers or ())
    result = []
    for slot, colour in deal.rounds[round_number - 1].pencils:
        start = deal.city.start_station(colour)
        result.append(
            views.SeatPencil(
                slot=slot,
                colour=colour,
                start_symbol=start.symbol.value if start else None,
                start_unverified=start.unverified if start else False,
                power=powers.get(colour),
            )
        )
    return tuple(sorted(result, key=lambda p: p.slot.startswith("table")))


def pairing_view(deal: Deal, round_number: int) -> views.Pairing | None:
    """T-SP-2: the round's special-station pairing, if the module is played."""
    pairing = deal.rounds[round_number - 1].pairing
    return views.Pairing(pairing.symbol.value, pairing.effect) if pairing else None


# --- the session's side -------------------------------------------------------------------
class Screens:
    """The views half of a session: its state, handed to the builders above. Each
    `_view_…` method is named by its screen's entry in `machine.SCREENS`."""

    _state: State
    capabilities: Capabilities
    notices: list[tuple[str, str]]
    join_code: str
    _today: Any  # Callable[[], date], provided by Session

    @property
    def deal(self) -> Deal | None:  # provided by Session
        raise NotImplementedError

    def _current_deal(self) -> Deal:
        deal = self.deal
        assert deal is not None, "a game screen without a game"
        return deal

    def _current_setup(self) -> Setup:
        setup = self._state.setup
        assert setup is not None, "a game screen without a game"
        return setup

    def _under(self) -> Screen:
        under = self._state.under
        assert under is not None, "an overlay over no game screen"
        return under

    @property
    def _language(self) -> str:
        # every screen speaks the settings' language; those built from the settings read it there
        return self._state.settings.language

    # the rows of the list screens (their presses are handled by Session)
    def _setup_rows(self) -> tuple[views.Row, ...]:
        return setup_rows(self._state.settings, self._state.seed_code, self._state.today)

    def _menu_rows(self) -> tuple[views.Row, ...]:
        state = self._state
        return menu_rows(state.settings, self.capabilities, self._round_under_way())

    def _round_under_way(self) -> bool:  # provided by Session, which holds the table
        raise NotImplementedError

    def _game_over(self) -> bool:  # provided by Session
        raise NotImplementedError

    def _view_setup(self) -> views.View:
        state = self._state
        return setup_view(state.settings, state.seed_code, state.cursor, state.today)

    def _view_pencil_order(self) -> views.View:
        state = self._state
        return pencil_order_view(
            state.settings.city, state.pencil_choice, state.cursor, self._language
        )

    def _view_seed_entry(self) -> views.View:
        return seed_entry_view(self._state.seed_characters, self._state.cursor, self._language)

    def _view_summary(self) -> views.View:
        return summary_view(self._current_deal(), self._language)

    def _view_recall(self) -> views.View:
        return summary_view(self._current_deal(), self._language, recall=True)

    def _view_round_start(self) -> views.View:
        return round_start_view(self._current_deal(), self._state.progress.round, self._language)

    def _view_turn(self) -> views.View:
        return turn_view(self._current_deal(), self._state.progress, self._language)

    def _view_round_end(self) -> views.View:
        return round_end_view(self._current_deal(), self._state.progress.round, self._language)

    def _view_pencil_pass(self) -> views.View:
        deal, progress = self._current_deal(), self._state.progress
        return pencil_pass_view(deal, progress.round + 1, self._language)

    def _view_game_end(self) -> views.View:
        return game_end_view(self._current_setup(), self._language)

    def _view_score_entry(self) -> views.View:
        state = self._state
        setup = self._current_setup()
        return score_entry_view(
            setup, state.scores, state.entry, self._language, state.digits, state.digit
        )

    def _view_score_sheet(self) -> views.View:
        state = self._state
        setup = self._current_setup()
        return sheet_view(
            setup,
            state.entry,
            state.sheet,
            state.sheet_step,
            self._language,
            state.digits,
            state.digit,
        )

    def _result_view(self) -> views.ResultView:  # Session._finish records the game from it
        state = self._state
        return result_view(self._current_setup(), state.scores, state.best_before, self._language)

    def _view_result(self) -> views.View:
        return self._result_view()

    def _view_menu(self) -> views.View:
        state = self._state
        return menu_view(state.settings, self.capabilities, self._round_under_way(), state.cursor)

    def _view_confirm(self) -> views.View:
        return confirm_view(self._state.question, self._state.progress, self._language)

    def _view_about(self) -> views.View:
        state = self._state
        seed = state.setup.seed if state.setup is not None and self._game_over() else None
        return about_view(state.settings.city, self._language, seed)

    def _view_history(self) -> views.View:
        return history_view(
            self._history(), self._today(), self._state.cursor, self._language
        )

    def _history(self) -> History:  # provided by Session, which holds the records
        raise NotImplementedError

    def _view_phones(self) -> views.View:
        return phones_view(self.capabilities.phones, self.join_code, self._language)

    def _view_shutdown(self) -> views.View:
        return shutdown_view(self._language)
