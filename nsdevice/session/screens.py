"""Each screen's view, built from the session's state and the deal (views.py is the data).

A mixin of `Session`: it reads the session's `_state`, `deal`, `notices` and list rows,
and never changes them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from nsdevice import __version__, views
from nsdevice.rules import scoring
from nsdevice.rules.cities import city
from nsdevice.rules.deal import (
    ROUNDS,
    Deal,
    slots,
)
from nsdevice.rules.modules import Module, mixes_card_modules
from nsdevice.session.settings import BRIGHTNESS_LEVELS, MODULES, Capabilities


class Screens:
    """The `view()` half of a session."""

    _state: Any
    capabilities: Capabilities
    notices: list[tuple[str, str]]

    @property
    def deal(self) -> Deal | None:  # provided by Session
        raise NotImplementedError

    # --- the rows of the list screens (their presses are handled by Session) --------------
    def _setup_rows(self) -> list[views.Row]:
        s = self._state.settings
        rows = [
            views.Row("start"),
            views.Row("city", s.city),
            views.Row("players", str(s.players)),
        ]
        rows += [views.Row(m, "on" if m in s.modules else "off") for m in MODULES]
        rows.append(views.Row("seed", self._state.seed_code or "random"))
        rows.append(views.Row("language", s.language))
        return rows

    def _menu_rows(self) -> list[views.Row]:
        s = self._state.settings
        rows = [views.Row("resume"), views.Row("show_setup")]
        if self._state.under in ("round_start", "turn", "round_end"):
            rows.append(views.Row("restart_round"))
        rows += [
            views.Row("new_game"),
            views.Row("language", s.language),
            views.Row("sound", "on" if s.sound else "off"),
        ]
        if self.capabilities.brightness:
            rows.append(views.Row("brightness", f"{s.brightness}/{BRIGHTNESS_LEVELS}"))
        if self.capabilities.shutdown:
            rows.append(views.Row("shutdown"))
        rows.append(views.Row("about"))
        return rows

    # --- the view --------------------------------------------------------------------------
    def view(self) -> views.View:
        state = self._state
        common = {"language": state.settings.language}
        if self.notices:
            notice, detail = self.notices[0]
            return views.NoticeView(notice=notice, detail=detail, hints=_hints(ok="any"), **common)
        builder = getattr(self, f"_view_{state.screen}")
        view = builder(common)
        if state.chime and hasattr(view, "chime"):
            view = replace(view, chime=state.chime)
        return view

    def _view_setup(self, common: dict) -> views.View:
        s = self._state.settings
        return views.SetupView(
            rows=tuple(self._setup_rows()),
            cursor=self._state.cursor,
            city=s.city,
            players=s.players,
            modules=s.modules,
            seed=self._state.seed_code,
            mix_warning=mixes_card_modules(tuple(Module(m) for m in s.modules)),
            hints=_hints(next="down", back="up", menu="select"),
            **common,
        )

    def _view_seed_entry(self, common: dict) -> views.View:
        return views.SeedEntryView(
            characters=tuple(self._state.seed_characters),
            cursor=self._state.cursor,
            hints=_hints(next="change", back="change", menu="next_character"),
            **common,
        )

    def _view_summary(self, common: dict, recall: bool = False) -> views.View:
        deal = self.deal
        assert deal is not None
        setup = deal.setup
        hints = (
            _hints(next="back", back="back", menu="back")
            if recall
            else _hints(next="continue", back="back", menu="menu")
        )
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
            hints=hints,
            **common,
        )

    def _view_recall(self, common: dict) -> views.View:
        return self._view_summary(common, recall=True)

    def _view_round_start(self, common: dict) -> views.View:
        deal = self.deal
        assert deal is not None
        number = self._state.progress.round
        return views.RoundStartView(
            city=deal.setup.city.value,
            round=number,
            rounds=ROUNDS,
            players=deal.setup.players,
            controller=deal.rounds[number - 1].controller,
            pencils=seat_pencils(deal, number),
            pairing=pairing_view(deal, number),
            objectives=deal.objectives,
            hints=_hints(next="reveal", back="back", menu="menu"),
            **common,
        )

    def _view_turn(self, common: dict) -> views.View:
        deal = self.deal
        assert deal is not None
        progress = self._state.progress
        round_ = deal.rounds[progress.round - 1]
        shown = progress.visible(deal)
        turn = shown[-1]
        return views.TurnView(
            city=deal.setup.city.value,
            round=progress.round,
            turn=turn.number,
            controller=round_.controller,
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
            hints=_hints(next="continue" if turn.last else "reveal", back="undo", menu="menu"),
            **common,
        )

    def _view_round_end(self, common: dict) -> views.View:
        deal = self.deal
        assert deal is not None
        return views.RoundEndView(
            city=deal.setup.city.value,
            round=self._state.progress.round,
            rounds=ROUNDS,
            solo=deal.setup.solo,
            line_scoring=deal.city.line_scoring,
            hints=_hints(next="continue", back="back", menu="menu"),
            **common,
        )

    def _view_pencil_pass(self, common: dict) -> views.View:
        deal = self.deal
        assert deal is not None
        number = self._state.progress.round + 1
        table = slots(deal.setup.players)
        now = dict(deal.rounds[number - 2].pencils)
        moves = tuple(
            views.PencilMove(now[slot], slot, table[(index + 1) % len(table)])
            for index, slot in enumerate(table)
        )
        solo_next = deal.solo_order[number - 1] if deal.solo_order else None
        return views.PencilPassView(
            city=deal.setup.city.value,
            round=number,
            players=deal.setup.players,
            moves=() if deal.setup.solo else moves,
            next_controller=deal.rounds[number - 1].controller,
            solo_next=solo_next,
            hints=_hints(next="continue", back="back", menu="menu"),
            **common,
        )

    def _view_game_end(self, common: dict) -> views.View:
        setup = self._state.setup
        assert setup is not None
        return views.GameEndView(
            city=setup.city.value,
            players=setup.players,
            seed=setup.seed,  # D-2: the deal is over, the code may be shared
            hints=_hints(next="scores", back="back", menu="menu"),
            **common,
        )

    def _view_score_entry(self, common: dict) -> views.View:
        state = self._state
        setup = state.setup
        assert setup is not None
        entry = state.entry
        last = entry + 1 == len(state.scores)
        return views.ScoreEntryView(
            city=setup.city.value,
            seat=entry // 2 + 1,
            field="total" if setup.solo or entry % 2 == 0 else "best_line",
            value=state.scores[entry],
            step=entry,
            steps=len(state.scores),
            solo=setup.solo,
            hints=_hints(next="plus", back="minus", menu="done" if last else "continue"),
            **common,
        )

    def _result_view(self, common: dict | None = None) -> views.ResultView:
        state = self._state
        setup = state.setup
        assert setup is not None
        common = common or {"language": state.settings.language}
        hints = _hints(next="new_game", back="back", menu="menu")
        if setup.solo:
            total = state.scores[0]
            used = len(setup.modules)
            adjusted = scoring.solo_adjusted(total, used)
            best = state.best_before
            return views.ResultView(
                city=setup.city.value,
                seed=setup.seed,
                solo=True,
                total=total,
                modules_used=used,
                penalty=scoring.MODULE_PENALTY * used,
                adjusted=adjusted,
                tier=scoring.solo_tier(city(setup.city), adjusted),
                personal_best=best,
                new_best=best is None or adjusted > best,
                hints=hints,
                **common,
            )
        seats = tuple(
            views.SeatResult(seat, state.scores[2 * seat - 2], state.scores[2 * seat - 1])
            for seat in range(1, setup.players + 1)
        )
        outcome = scoring.winner([scoring.SeatScore(s.seat, s.total, s.best_line) for s in seats])
        return views.ResultView(
            city=setup.city.value,
            seed=setup.seed,
            solo=False,
            seats=seats,
            winners=outcome.winners,
            decided_by=outcome.decided_by,
            hints=hints,
            **common,
        )

    def _view_result(self, common: dict) -> views.View:
        return self._result_view(common)

    def _view_menu(self, common: dict) -> views.View:
        return views.MenuView(
            rows=tuple(self._menu_rows()),
            cursor=self._state.cursor,
            hints=_hints(next="down", back="up", menu="select"),
            **common,
        )

    def _view_confirm(self, common: dict) -> views.View:
        state = self._state
        number = (
            state.progress.round - 1
            if state.question == "back_to_round"
            else (state.progress.round)
        )
        return views.ConfirmView(
            question=state.question,
            round=number,
            hints=_hints(next="yes", back="no", menu="no"),
            **common,
        )

    def _view_about(self, common: dict) -> views.View:
        setup = self._state.setup
        over = setup is not None and self._state.under in ("game_end", "score_entry", "result")
        return views.AboutView(
            version=__version__,
            seed=setup.seed if over and setup else None,
            city=self._state.settings.city,
            hints=_hints(next="back", back="back", menu="back"),
            **common,
        )

    def _view_shutdown(self, common: dict) -> views.View:
        return views.ShutdownView(**common)


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


def _hints(**actions: str) -> tuple[views.Hint, ...]:
    if "ok" in actions:
        return tuple(views.Hint(b, "ok") for b in ("next", "back", "menu"))
    return tuple(views.Hint(button, action) for button, action in actions.items())
