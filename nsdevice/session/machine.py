"""The box's behaviour: which screen is up, where the game stands, what a press does.

Like python-chess's board: `press()` moves it, `snapshot()` saves it as a few plain
values and `Session.restore()` brings it back, always over the same fixed deal
(RULES D-1), so undo, redo and resume never reshuffle.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from nsdevice import views
from nsdevice.inputs.events import Button, Gesture, Press
from nsdevice.locale import LANGUAGES
from nsdevice.rules.cities import CityName
from nsdevice.rules.deal import (
    ROUNDS,
    SEED_MAX_LENGTH,
    Deal,
    Setup,
    deal_game,
    normalize_seed,
)
from nsdevice.rules.modules import Module
from nsdevice.rules.progress import Progress
from nsdevice.session.screens import Screens
from nsdevice.session.settings import (
    BRIGHTNESS_LEVELS,
    CITIES,
    MODULES,
    Capabilities,
    FinishedGame,
    NoRecords,
    Records,
    Settings,
    random_seed,
)
from nsdevice.session.validation import check_values

SNAPSHOT_VERSION = 1
SEED_CHARACTERS = ("", *"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")  # "" ends the code
SCORE_LIMITS = (-50, 999)
REPEAT_STEP = 5  # a held NEXT/BACK on a score runs in fives, snapped to a multiple of five
GAME_SCREENS = ("summary", "round_start", "turn", "round_end", "pencil_pass", "game_end",
                "score_entry", "result")  # fmt: skip
OVERLAYS = ("menu", "confirm", "about", "recall")


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


class Session(Screens):
    """One box: feed it presses, ask it for the view."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        capabilities: Capabilities | None = None,
        records: Records | None = None,
        seed_source: Callable[[], str] = random_seed,
        notices: tuple[tuple[str, str], ...] = (),
    ) -> None:
        self.capabilities = capabilities or Capabilities()
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
    def _chosen(self, press: Press, rows: Sequence[views.Row]) -> str | None:
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

    def _step(self, forward: bool) -> None:
        """One step through the fixed deal (D-1): the only way progress changes in play."""
        state = self._state
        deal = self._current_deal()
        moved = state.progress.forward(deal) if forward else state.progress.backward(deal)
        assert moved is not None, "a step past either end of the game"
        state.progress = moved

    def _reveal(self) -> None:
        state = self._state
        self._step(forward=True)
        state.screen = "turn"
        state.chime = "reveal" if state.settings.sound else None

    def _on_turn(self, press: Press) -> None:
        state = self._state
        if press.button is Button.NEXT:
            if state.progress.round_over(self._current_deal()):
                state.screen = "round_end"
                state.chime = "round_end" if state.settings.sound else None
            else:
                self._reveal()
        elif press.button is Button.BACK:
            # The card goes back on top of the deck: the same card comes again on NEXT.
            self._step(forward=False)
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
            self._step(forward=True)  # past the round's last turn: the next round's start
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
            self._step(forward=False)  # from a round's start: the end of the one before
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
        except (KeyError, TypeError, AttributeError, IndexError, AssertionError,
                RecursionError) as error:  # fmt: skip
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
        check_values(state, setup_rows=self._setup_rows(), menu_rows=self._menu_rows(),
                     seed_characters=SEED_CHARACTERS, score_limits=SCORE_LIMITS)  # fmt: skip
        view = self.view()  # builds every field the screen needs, or fails here
        assert view.screen


def _cycle(options: tuple[str, ...], current: str, step: int = 1) -> str:
    index = options.index(current) if current in options else -1
    return options[(index + step) % len(options)]
