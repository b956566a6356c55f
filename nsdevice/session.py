"""The box's behaviour: which screen is up, where the game stands, what a press does.

Like python-chess's board: `press()` moves it, `snapshot()` saves it as a few plain
values and `Session.restore()` brings it back, always over the same fixed deal
(RULES D-1), so undo, redo and resume never reshuffle.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Protocol

from nsdevice import __version__, views
from nsdevice.inputs.events import Button, Gesture, Press
from nsdevice.locale import LANGUAGES
from nsdevice.rules import scoring
from nsdevice.rules.cities import CityName, city
from nsdevice.rules.deal import (
    ROUNDS,
    SEED_MAX_LENGTH,
    Deal,
    Setup,
    deal_game,
    draw_seed,
    normalize_seed,
    slots,
)
from nsdevice.rules.modules import Module, mixes_card_modules
from nsdevice.rules.progress import Progress

SNAPSHOT_VERSION = 1
CITIES = tuple(c.value for c in CityName)
MODULES = tuple(m.value for m in Module)
SEED_CHARACTERS = ("", *"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")  # "" ends the code
BRIGHTNESS_LEVELS = 5
SCORE_LIMITS = (-50, 999)
REPEAT_STEP = 5  # a held NEXT/BACK on a score runs in fives, snapped to a multiple of five
GAME_SCREENS = ("summary", "round_start", "turn", "round_end", "pencil_pass", "game_end",
                "score_entry", "result")  # fmt: skip
OVERLAYS = ("menu", "confirm", "about", "recall")


@dataclass(frozen=True, slots=True)
class Settings:
    """What the box remembers between games (the last setup, language, sound)."""

    city: str = "tokyo"
    players: int = 2
    modules: tuple[str, ...] = ()
    language: str = "en"
    sound: bool = True
    brightness: int = BRIGHTNESS_LEVELS

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        settings = cls(
            city=str(data.get("city", "tokyo")),
            players=int(data.get("players", 2)),
            modules=tuple(str(m) for m in data.get("modules", ())),
            language=str(data.get("language", "en")),
            sound=bool(data.get("sound", True)),
            brightness=int(data.get("brightness", BRIGHTNESS_LEVELS)),
        )
        if (
            settings.city not in CITIES
            or not 1 <= settings.players <= 4
            or not set(settings.modules) <= set(MODULES)
            or settings.language not in LANGUAGES
            or not 1 <= settings.brightness <= BRIGHTNESS_LEVELS
        ):
            raise ValueError(f"settings out of range: {data!r}")
        return settings


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What the hardware offers: menu entries appear only for what exists."""

    brightness: bool = False
    shutdown: bool = False


@dataclass(frozen=True, slots=True)
class FinishedGame:
    city: str
    players: int
    modules: tuple[str, ...]
    seed: str
    totals: tuple[int, ...]  # per seat; solo: the raw total
    adjusted: int | None  # solo only, after the module penalty
    tier: int | None


class Records(Protocol):
    """Finished games, kept by the store (the session never touches SQLite itself)."""

    def best_solo(self, city: str) -> int | None: ...

    def record(self, game: FinishedGame) -> None: ...


class NoRecords:
    """For tests and for a box whose storage failed: remembers nothing."""

    def best_solo(self, city: str) -> int | None:
        return None

    def record(self, game: FinishedGame) -> None:
        pass


def random_seed() -> str:
    return draw_seed(random.SystemRandom())


@dataclass
class _State:
    """Everything that changes; a snapshot is this, as plain values."""

    screen: str = "setup"
    settings: Settings = field(default_factory=Settings)
    setup: Setup | None = None
    progress: Progress = field(default_factory=Progress)
    cursor: int = 0
    seed_code: str | None = None  # typed in to replay a deal; used by the next start only
    seed_characters: list[str] = field(default_factory=list)
    under: str = ""  # the game screen beneath an overlay (menu, confirm, about, recall)
    question: str = ""
    scores: list[int] = field(default_factory=list)
    entry: int = 0
    recorded: bool = False
    best_before: int | None = None  # the solo best for the city before this game
    chime: str | None = None
    request: str | None = None  # for the loop: "shutdown"


class Session:
    """One box: feed it presses, ask it for the view."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        capabilities: Capabilities = Capabilities(),
        records: Records | None = None,
        seed_source: Callable[[], str] = random_seed,
        notices: tuple[tuple[str, str], ...] = (),
    ) -> None:
        self.capabilities = capabilities
        self.records: Records = records or NoRecords()
        self._seed_source = seed_source
        self._state = _State(settings=settings or Settings())
        self._deal: Deal | None = None
        self.notices = list(notices)

    # --- reading ---------------------------------------------------------------------------
    @property
    def settings(self) -> Settings:
        return self._state.settings

    @property
    def screen(self) -> str:
        return self._state.screen

    @property
    def request(self) -> str | None:
        return self._state.request

    @property
    def deal(self) -> Deal | None:
        setup = self._state.setup
        if setup is None:
            return None
        if self._deal is None or self._deal.setup != setup:
            self._deal = deal_game(setup)
        return self._deal

    @property
    def progress(self) -> Progress:
        return self._state.progress

    def game_over(self) -> bool:
        return self._state.screen in ("game_end", "score_entry", "result") or (
            self._state.under in ("game_end", "score_entry", "result")
        )

    # --- pressing --------------------------------------------------------------------------
    def press(self, press: Press) -> None:
        """React to one logical press. Holds act as taps unless a screen gives them a meaning;
        repeats only ever change a number, so a held button never flips a run of cards."""
        state = self._state
        state.chime = None
        if self.notices:
            self.notices.pop(0)
            return
        if press.gesture is Gesture.REPEAT and state.screen != "score_entry":
            return
        handler = getattr(self, f"_on_{state.screen}")
        handler(press)

    def next(self) -> None:
        self.press(Press(Button.NEXT))

    def back(self) -> None:
        self.press(Press(Button.BACK))

    def menu(self) -> None:
        self.press(Press(Button.MENU))

    # setup ----------------------------------------------------------------------------------
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

    def _chosen(self, press: Press, rows: list[views.Row]) -> str | None:
        """On a list screen NEXT and BACK move the cursor; MENU returns the row chosen."""
        state = self._state
        if press.button is Button.MENU:
            return rows[state.cursor].key
        step = 1 if press.button is Button.NEXT else -1
        state.cursor = (state.cursor + step) % len(rows)
        return None

    def _on_setup(self, press: Press) -> None:
        state = self._state
        key = self._chosen(press, self._setup_rows())
        s = state.settings
        if key == "start":
            self._start_game()
        elif key == "city":
            state.settings = replace(s, city=_cycle(CITIES, s.city))
        elif key == "players":
            state.settings = replace(s, players=s.players % 4 + 1)
        elif key in MODULES:
            chosen = set(s.modules) ^ {key}
            state.settings = replace(s, modules=tuple(m for m in MODULES if m in chosen))
        elif key == "seed":
            state.screen = "seed_entry"
            state.seed_characters = [*(state.seed_code or ""), ""]
            state.cursor = 0
        elif key == "language":
            state.settings = replace(s, language=_cycle(LANGUAGES, s.language))

    def _start_game(self) -> None:
        state = self._state
        s = state.settings
        seed = state.seed_code or self._seed_source()
        state.setup = Setup(CityName(s.city), s.players, tuple(Module(m) for m in s.modules), seed)
        state.seed_code = None
        state.progress = Progress()
        state.scores = []
        state.entry = 0
        state.recorded = False
        state.screen = "summary"

    def _on_seed_entry(self, press: Press) -> None:
        """NEXT/BACK change the character under the cursor, MENU moves on; MENU on the blank
        end, or a held MENU anywhere, finishes. An empty code means a random deal."""
        state = self._state
        chars = state.seed_characters
        index = state.cursor
        if press.button is not Button.MENU:
            step = 1 if press.button is Button.NEXT else -1
            chars[index] = _cycle(SEED_CHARACTERS, chars[index], step)
            return
        if press.gesture is Gesture.HOLD:
            self._finish_seed("".join(chars))
        elif chars[index] == "":
            self._finish_seed("".join(chars[:index]))
        elif index + 1 == SEED_MAX_LENGTH:
            self._finish_seed("".join(chars[:SEED_MAX_LENGTH]))
        else:
            state.cursor += 1
            if state.cursor == len(chars):
                chars.append("")

    def _finish_seed(self, code: str) -> None:
        state = self._state
        state.seed_code = normalize_seed(code) if code else None
        state.screen = "setup"
        state.cursor = [row.key for row in self._setup_rows()].index("seed")

    # the game -------------------------------------------------------------------------------
    def _open_menu(self) -> None:
        state = self._state
        state.under = state.screen
        state.screen = "menu"
        state.cursor = 0

    def _on_summary(self, press: Press) -> None:
        state = self._state
        if press.button is Button.NEXT:
            state.screen = "round_start"
        elif press.button is Button.BACK:
            state.screen = "setup"  # no card was revealed yet: nothing is lost
            state.cursor = 0
            state.setup = None
        else:
            self._open_menu()

    def _on_round_start(self, press: Press) -> None:
        state = self._state
        if press.button is Button.NEXT:
            self._reveal()
        elif press.button is Button.BACK:
            if state.progress.round == 1:
                state.screen = "summary"
            else:
                self._ask("back_to_round")
        else:
            self._open_menu()

    def _reveal(self) -> None:
        state = self._state
        deal = self.deal
        assert deal is not None
        following = state.progress.forward(deal)
        assert following is not None and following.round == state.progress.round
        state.progress = following
        state.screen = "turn"
        state.chime = "reveal" if state.settings.sound else None

    def _on_turn(self, press: Press) -> None:
        state = self._state
        deal = self.deal
        assert deal is not None
        if press.button is Button.NEXT:
            if state.progress.round_over(deal):
                state.screen = "round_end"
                state.chime = "round_end" if state.settings.sound else None
            else:
                self._reveal()
        elif press.button is Button.BACK:
            # The card goes back on top of the deck: the same card comes again on NEXT.
            state.progress = Progress(state.progress.round, state.progress.revealed - 1)
            if state.progress.revealed == 0:
                state.screen = "round_start"
        else:
            self._open_menu()

    def _on_round_end(self, press: Press) -> None:
        state = self._state
        if press.button is Button.NEXT:
            state.screen = "pencil_pass" if state.progress.round < ROUNDS else "game_end"
        elif press.button is Button.BACK:
            state.screen = "turn"
        else:
            self._open_menu()

    def _on_pencil_pass(self, press: Press) -> None:
        state = self._state
        if press.button is Button.NEXT:
            state.progress = Progress(state.progress.round + 1, 0)
            state.screen = "round_start"
        elif press.button is Button.BACK:
            state.screen = "round_end"
        else:
            self._open_menu()

    def _on_game_end(self, press: Press) -> None:
        state = self._state
        if press.button is Button.NEXT:
            assert state.setup is not None
            fields = 1 if state.setup.solo else 2 * state.setup.players
            if len(state.scores) != fields:
                state.scores = [0] * fields
            state.entry = 0
            state.screen = "score_entry"
        elif press.button is Button.BACK:
            state.screen = "round_end"
        else:
            self._open_menu()

    def _on_score_entry(self, press: Press) -> None:
        state = self._state
        if press.button is Button.MENU:
            if state.entry + 1 < len(state.scores):
                state.entry += 1
            else:
                self._finish()
            return
        value = state.scores[state.entry]
        sign = 1 if press.button is Button.NEXT else -1
        if press.gesture is Gesture.REPEAT:  # snap to the next multiple of five that way
            value = (
                (value // REPEAT_STEP + 1) * REPEAT_STEP
                if sign > 0
                else ((value - 1) // REPEAT_STEP * REPEAT_STEP)
            )
        elif press.button is Button.BACK and value == 0 and state.entry == 0:
            state.screen = "game_end"  # BACK on an untouched first field leaves the entry
            return
        else:
            value += sign
        low, high = SCORE_LIMITS
        state.scores[state.entry] = max(low, min(high, value))

    def _finish(self) -> None:
        state = self._state
        state.screen = "result"
        if state.recorded:
            return
        setup = state.setup
        assert setup is not None
        if setup.solo:  # read before this game joins the records
            state.best_before = self.records.best_solo(setup.city.value)
        result = self._result_view()
        totals = (result.total,) if setup.solo else tuple(s.total for s in result.seats)
        self.records.record(
            FinishedGame(
                city=setup.city.value,
                players=setup.players,
                modules=tuple(m.value for m in setup.modules),
                seed=setup.seed,
                totals=totals,
                adjusted=result.adjusted if setup.solo else None,
                tier=result.tier if setup.solo else None,
            )
        )
        state.recorded = True

    def _on_result(self, press: Press) -> None:
        state = self._state
        if press.button is Button.NEXT:
            state.screen = "setup"
            state.cursor = 0
            state.setup = None
        elif press.button is Button.BACK:
            state.screen = "score_entry"
            state.entry = len(state.scores) - 1
        else:
            self._open_menu()

    # overlays -------------------------------------------------------------------------------
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

    def _on_menu(self, press: Press) -> None:
        state = self._state
        key = self._chosen(press, self._menu_rows())
        s = state.settings
        if key == "resume":
            state.screen = state.under
        elif key == "show_setup":
            state.screen = "recall"
        elif key in ("restart_round", "new_game", "shutdown"):
            self._ask(key)
        elif key == "language":
            state.settings = replace(s, language=_cycle(LANGUAGES, s.language))
        elif key == "sound":
            state.settings = replace(s, sound=not s.sound)
        elif key == "brightness":
            state.settings = replace(s, brightness=s.brightness % BRIGHTNESS_LEVELS + 1)
        elif key == "about":
            state.screen = "about"

    def _ask(self, question: str) -> None:
        state = self._state
        if state.screen != "menu":
            state.under = state.screen
        state.question = question
        state.screen = "confirm"

    def _on_confirm(self, press: Press) -> None:
        state = self._state
        if press.button is not Button.NEXT:  # BACK or MENU: no
            state.screen = "menu" if state.question != "back_to_round" else state.under
            if state.screen == "menu":
                state.cursor = 0
            return
        question = state.question
        if question == "back_to_round":
            deal = self.deal
            assert deal is not None
            previous = state.progress.round - 1
            state.progress = Progress(previous, len(deal.rounds[previous - 1].turns))
            state.screen = "pencil_pass"
        elif question == "restart_round":
            state.progress = Progress(state.progress.round, 0)  # same cards (D-1)
            state.screen = "round_start"
        elif question == "new_game":
            state.setup = None
            state.screen = "setup"
            state.cursor = 0
        elif question == "shutdown":
            state.screen = "shutdown"
            state.request = "shutdown"

    def _on_about(self, press: Press) -> None:
        self._state.screen = "menu"

    def _on_recall(self, press: Press) -> None:
        self._state.screen = self._state.under

    def _on_shutdown(self, press: Press) -> None:
        pass  # the box is going down; presses no longer matter

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

    # --- saving ----------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The whole session as plain JSON-able values (a few numbers and names)."""
        state = self._state
        setup = state.setup
        return {
            "version": SNAPSHOT_VERSION,
            "settings": asdict(state.settings),
            "screen": state.screen if state.screen != "shutdown" else state.under or "setup",
            "setup": None
            if setup is None
            else {
                "city": setup.city.value,
                "players": setup.players,
                "modules": [m.value for m in setup.modules],
                "seed": setup.seed,
            },
            "round": state.progress.round,
            "revealed": state.progress.revealed,
            "cursor": state.cursor,
            "seed_code": state.seed_code,
            "seed_characters": list(state.seed_characters),
            "under": state.under,
            "question": state.question,
            "scores": list(state.scores),
            "entry": state.entry,
            "recorded": state.recorded,
            "best_before": state.best_before,
        }

    @classmethod
    def restore(cls, data: dict[str, Any], **kwargs: Any) -> Session:
        """Rebuild a session from `snapshot()`; ValueError when the data does not fit a game."""
        try:
            return cls._restore(data, **kwargs)
        except (KeyError, TypeError, AttributeError, IndexError, AssertionError) as error:
            raise ValueError(f"saved session does not fit: {error!r}") from error

    @classmethod
    def _restore(cls, data: dict[str, Any], **kwargs: Any) -> Session:
        if data.get("version") != SNAPSHOT_VERSION:
            raise ValueError(f"saved session version {data.get('version')!r}")
        session = cls(Settings.from_dict(data["settings"]), **kwargs)
        state = session._state
        raw = data["setup"]
        if raw is not None:
            state.setup = Setup(
                CityName(raw["city"]), int(raw["players"]), tuple(raw["modules"]), raw["seed"]
            )
        state.progress = Progress(int(data["round"]), int(data["revealed"]))
        state.screen = str(data["screen"])
        state.cursor = int(data["cursor"])
        state.seed_code = data["seed_code"]
        state.seed_characters = [str(c) for c in data["seed_characters"]]
        state.under = str(data["under"])
        state.question = str(data["question"])
        state.scores = [int(v) for v in data["scores"]]
        state.entry = int(data["entry"])
        state.recorded = bool(data["recorded"])
        best = data.get("best_before")
        state.best_before = None if best is None else int(best)
        session._check()
        return session

    def _check(self) -> None:
        """Refuse a snapshot that would put the box in an impossible place."""
        state = self._state
        screens = {"setup", "seed_entry", *GAME_SCREENS, *OVERLAYS}
        assert state.screen in screens, state.screen
        if state.screen in GAME_SCREENS or state.screen in OVERLAYS:
            assert state.setup is not None
            deal = self.deal
            assert deal is not None
            assert 1 <= state.progress.round <= ROUNDS
            turns = len(deal.rounds[state.progress.round - 1].turns)
            assert 0 <= state.progress.revealed <= turns
            if state.screen == "turn":
                assert state.progress.revealed >= 1
            if state.screen in ("round_end", "pencil_pass", "game_end"):
                assert state.progress.revealed == turns
        if state.screen in OVERLAYS:
            assert state.under in GAME_SCREENS
        if state.screen in ("score_entry", "result"):
            assert state.scores and 0 <= state.entry < len(state.scores)
        if state.screen == "seed_entry":
            assert 0 <= state.cursor < len(state.seed_characters) <= SEED_MAX_LENGTH + 1
        view = self.view()  # builds every field the screen needs, or fails here
        assert view.screen


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


def _cycle(options: tuple[str, ...], current: str, step: int = 1) -> str:
    index = options.index(current) if current in options else -1
    return options[(index + step) % len(options)]


def _hints(**actions: str) -> tuple[views.Hint, ...]:
    if "ok" in actions:
        return tuple(views.Hint(b, "ok") for b in ("next", "back", "menu"))
    return tuple(views.Hint(button, action) for button, action in actions.items())
