"""The box's behaviour: which screen is up, where the game stands, what a press does.

Like python-chess's board: `press()` moves it, `snapshot()` saves it as a few plain
values and `Session.restore()` brings it back, always over the same fixed deal
(RULES D-1), so undo, redo and resume never reshuffle.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from nsdevice import views
from nsdevice.inputs.events import Button, Gesture, Press
from nsdevice.locale import LANGUAGES
from nsdevice.rules.cities import CityName, city
from nsdevice.rules.deal import (
    ROUNDS,
    SEED_MAX_LENGTH,
    Deal,
    Setup,
    daily_seed,
    deal_game,
    normalize_seed,
)
from nsdevice.rules.modules import Module
from nsdevice.rules.progress import Progress
from nsdevice.session.digits import (
    HOLD_STEP,
    MINUS,
    NumberField,
    counting_field,
    digits_of,
    fits,
    turned,
    untouched,
    value_of,
)
from nsdevice.session.screen import Kind, Screen
from nsdevice.session.screens import (
    Screens,
    history_pages,
    notice_view,
    score_entry_view,
    score_field,
    score_fields,
    seat_pencils,
    sheet_counts,
    sheet_sum,
)
from nsdevice.session.settings import (
    BRIGHTNESS_LEVELS,
    CITIES,
    MODULES,
    PENCIL_ORDERS,
    VOLUME_LEVELS,
    Capabilities,
    FinishedGame,
    History,
    NoRecords,
    Records,
    Settings,
    join_code,
    random_seed,
)
from nsdevice.session.state import State
from nsdevice.session.validation import check_values

SNAPSHOT_VERSION = 2  # 2: the score entry's digits and the score sheet
SEED_CHARACTERS = ("", *"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")  # "" ends the code
SCORE_LIMITS = (-50, 999)


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
        code_source: Callable[[], str] = join_code,
        today: Callable[[], datetime.date] = datetime.date.today,
    ) -> None:
        """`today`: the local date, for the day's deal and the history's daily streak (the
        runner's clock; tests fix it)."""
        self.capabilities = capabilities or Capabilities()
        self.records: Records = records or NoRecords()
        self._today = today
        self._read_history: History | None = None  # read when the history opens, not saved
        self._seed_source = seed_source
        self._state = State(settings=settings or Settings())
        self._deal: Deal | None = None
        self.notices = list(notices)
        # Phones (not saved: a restart makes a new code, and phones join again)
        self._code_source = code_source
        self.join_code = code_source()
        self.game = 0  # games started in this run
        self._phone_seats: set[int] = set()

    # --- reading ---------------------------------------------------------------------------
    @property
    def settings(self) -> Settings:
        return self._state.settings

    @property
    def screen(self) -> Screen:
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

    def view(self) -> views.View:
        """What the screen shows now: the first notice, else the screen's own view."""
        state = self._state
        if self.notices:
            notice, detail = self.notices[0]
            return self.capabilities.panel.placed(
                notice_view(notice, detail, state.settings.language)
            )
        view = SCREENS[state.screen].view(self)
        if state.chime:
            view = replace(view, chime=state.chime)
        return self.capabilities.panel.placed(view)

    def _round_under_way(self) -> bool:
        under = self._state.under
        return under is not None and SCREENS[under].in_round

    def _game_over(self) -> bool:
        under = self._state.under
        return self._state.setup is not None and under is not None and SCREENS[under].over

    # --- pressing --------------------------------------------------------------------------
    def press(self, press: Press) -> None:
        """React to one logical press. Holds act as taps unless a screen gives them a meaning;
        repeats are ignored everywhere, so a held button never flips a run of cards (the
        score entry turns a digit by five on the hold itself)."""
        state = self._state
        state.chime = None
        if self.notices:
            self.notices.pop(0)
            return
        if press.gesture is Gesture.REPEAT:
            return
        SCREENS[state.screen].press(self, press)

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
        elif key == "pencil_order":
            state.settings = replace(s, pencil_order=_cycle(PENCIL_ORDERS, s.pencil_order))
        elif key in MODULES:
            chosen = set(s.modules) ^ {key}
            state.settings = replace(s, modules=tuple(m for m in MODULES if m in chosen))
        elif key == "seed" and state.seed_code is None and not state.today:
            state.today = True  # random → the day's deal → a typed code (D-2)
        elif key == "seed":
            state.today = False
            state.screen = Screen.SEED_ENTRY
            state.seed_characters = [*(state.seed_code or ""), ""]
            state.cursor = 0
        elif key == "language":
            state.settings = replace(s, language=_cycle(LANGUAGES, s.language))

    def deal_new_game(self) -> None:
        """A fresh deal from the remembered setup, its summary up: what power-on with no
        saved game shows, so that the first NEXT already moves the game forward."""
        self._start_game()

    def _start_game(self) -> None:
        """A new game of the remembered setup; a solo player who lays their own pencils
        does so first (C-8)."""
        state = self._state
        s = state.settings
        if s.players == 1 and s.pencil_order == "own":
            last = state.setup.pencil_order if state.setup is not None else None
            colours = city(s.city).colours
            state.pencil_preference = last if last and set(last) == set(colours) else colours
            state.setup = None
            state.pencil_choice = []
            state.cursor = colours.index(state.pencil_preference[0])
            state.screen = Screen.PENCIL_ORDER
            return
        self._begin(None)

    def _begin(self, pencil_order: tuple[str, ...] | None) -> None:
        state = self._state
        s = state.settings
        city_name = CityName(s.city)
        daily = None
        if state.today:  # D-2: the date picks the code, so every box deals the same cards
            day = self._today()
            seed, daily = daily_seed(day, city_name), day.isoformat()
        else:
            seed = state.seed_code or self._seed_source()
        modules = tuple(Module(m) for m in s.modules)
        state.setup = Setup(city_name, s.players, modules, seed, pencil_order, daily)
        state.seed_code = None
        state.today = False
        state.pencil_choice = []
        state.progress = Progress()
        state.scores = []
        state.entry = 0
        state.recorded = False
        state.screen = Screen.SUMMARY
        self._new_table()

    def _new_table(self) -> None:
        """A new game: phones that joined the last one must join again."""
        self.game += 1
        self.join_code = self._code_source()
        self._phone_seats = set()

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

    def _on_pencil_order(self, press: Press) -> None:
        """NEXT/BACK offer the next or previous pencil not laid yet, MENU lays it; the
        last one is implied. A held BACK takes the last one back (none: the setup)."""
        state = self._state
        colours = city(state.settings.city).colours
        chosen = state.pencil_choice
        if press.button is Button.BACK and press.gesture is Gesture.HOLD:
            if chosen:
                state.cursor = colours.index(chosen.pop())
            else:
                state.screen = Screen.SETUP
                state.cursor = [row.key for row in self._setup_rows()].index("pencil_order")
            return
        free = [index for index, colour in enumerate(colours) if colour not in chosen]
        if press.button is not Button.MENU:
            step = 1 if press.button is Button.NEXT else -1
            state.cursor = free[(free.index(state.cursor) + step) % len(free)]
            return
        chosen.append(colours[state.cursor])
        left = [colour for colour in colours if colour not in chosen]
        if len(left) == 1:
            self._begin((*chosen, left[0]))
        else:  # offer next the colour that came next last time
            preferred = [c for c in state.pencil_preference if c in left] or left
            state.cursor = colours.index(preferred[0])

    def _finish_seed(self, code: str) -> None:
        state = self._state
        state.seed_code = normalize_seed(code) if code else None
        state.screen = Screen.SETUP
        state.cursor = [row.key for row in self._setup_rows()].index("seed")

    # the game -------------------------------------------------------------------------------
    def _open_menu(self) -> None:
        state = self._state
        state.under = state.screen
        state.screen = Screen.MENU
        state.cursor = 0

    def _on_summary(self, press: Press) -> None:
        state = self._state
        if press.button is Button.NEXT:
            state.screen = Screen.ROUND_START
        else:  # BACK or MENU: change the setup; no card was revealed yet, nothing is lost
            state.screen = Screen.SETUP
            state.cursor = 0
            state.setup = None

    def _on_round_start(self, press: Press) -> None:
        state = self._state
        if press.button is Button.NEXT:
            self._reveal()
        elif press.button is Button.BACK:
            if state.progress.round == 1:
                state.screen = Screen.SUMMARY
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
        state.screen = Screen.TURN
        state.chime = "reveal" if state.settings.sound else None

    def _on_turn(self, press: Press) -> None:
        state = self._state
        if press.button is Button.NEXT:
            if state.progress.round_over(self._current_deal()):
                state.screen = Screen.ROUND_END
                state.chime = "round_end" if state.settings.sound else None
            else:
                self._reveal()
        elif press.button is Button.BACK:
            # The card goes back on top of the deck: the same card comes again on NEXT.
            self._step(forward=False)
            if state.progress.revealed == 0:
                state.screen = Screen.ROUND_START
        else:
            self._open_menu()

    def _on_round_end(self, press: Press) -> None:
        state = self._state
        if press.button is Button.NEXT:
            state.screen = Screen.PENCIL_PASS if state.progress.round < ROUNDS else Screen.GAME_END
        elif press.button is Button.BACK:
            state.screen = Screen.TURN
        else:
            self._open_menu()

    def _on_pencil_pass(self, press: Press) -> None:
        state = self._state
        if press.button is Button.NEXT:
            self._step(forward=True)  # past the round's last turn: the next round's start
            state.screen = Screen.ROUND_START
        elif press.button is Button.BACK:
            state.screen = Screen.ROUND_END
        else:
            self._open_menu()

    def _on_game_end(self, press: Press) -> None:
        state = self._state
        if press.button is Button.NEXT:
            assert state.setup is not None
            fields = 1 if state.setup.solo else 2 * state.setup.players
            if len(state.scores) != fields:
                state.scores = [0] * fields
            self._load_field(0)
            state.screen = Screen.SCORE_ENTRY
            if press.gesture is Gesture.HOLD and sheet_counts(state.setup):
                self._open_sheet()  # the first seat's score sheet, one press from here
        elif press.button is Button.BACK:
            state.screen = Screen.ROUND_END
        else:
            self._open_menu()

    def _load_field(self, entry: int, digit: int = 0) -> None:
        """Put the cursor on field `entry`, its digits showing its value."""
        state = self._state
        state.entry = entry
        state.digits = list(digits_of(state.scores[entry], self._field()))
        state.digit = digit

    def _field(self) -> NumberField:
        return score_field(self._current_setup(), self._state.entry)

    def _turn_digit(self, press: Press, field: NumberField) -> int:
        """NEXT/BACK on the digit under the cursor (a held NEXT: five); its new value."""
        state = self._state
        step = HOLD_STEP if press.gesture is Gesture.HOLD else 1
        step = step if press.button is Button.NEXT else -1
        state.digits = list(turned(state.digits, state.digit, step, field))
        return value_of(state.digits)

    def _on_score_entry(self, press: Press) -> None:
        """Digit by digit (nsdevice.session.digits): NEXT/BACK turn the digit, a held NEXT
        by five; MENU moves on a digit, past the last to the next field. BACK on an empty
        field, or a held BACK, goes back (from the first: to the game's end); a held MENU
        on a total opens that seat's score sheet."""
        state = self._state
        if press.gesture is Gesture.REPEAT:  # one press, one step: a wheel never races
            return
        setup = self._current_setup()
        fields = score_fields(setup, state.scores)
        here = fields.index(state.entry) if state.entry in fields else fields.index(state.entry - 1)
        field = self._field()
        if press.button is Button.MENU:
            if press.gesture is Gesture.HOLD:
                if score_entry_view(setup, state.scores, state.entry, "en").sheet:
                    self._open_sheet()
            elif state.digit + 1 < field.width:
                state.digit += 1
            elif here + 1 < len(fields):
                self._load_field(fields[here + 1])
            else:
                self._finish()
            return
        back = press.button is Button.BACK
        if back and press.gesture is Gesture.HOLD and state.digit > 0:
            state.digit -= 1
        elif back and (press.gesture is Gesture.HOLD or untouched(state.digits, state.digit)):
            if here == 0:
                state.screen = Screen.GAME_END  # nothing entered yet: back to the game's end
            else:
                self._load_field(fields[here - 1])
        else:
            state.scores[state.entry] = self._turn_digit(press, field)

    def _open_sheet(self) -> None:
        state = self._state
        state.sheet = [0] * len(sheet_counts(self._current_setup()))
        state.screen = Screen.SCORE_SHEET
        self._load_count(0)

    def _load_count(self, step: int) -> None:
        state = self._state
        state.sheet_step = step
        state.digits = list(digits_of(state.sheet[step], self._count_field()))
        state.digit = 0

    def _count_field(self) -> NumberField:
        counts = sheet_counts(self._current_setup())
        return counting_field(counts[self._state.sheet_step][1].most)

    def _leave_sheet(self, total: int | None) -> None:
        """Back to the seat's total: filled from the sheet, the cursor on its last digit so
        one MENU takes it; or (skipped) as it was."""
        state = self._state
        state.screen = Screen.SCORE_ENTRY
        if total is None:
            self._load_field(state.entry)
            return
        state.scores[state.entry] = total
        self._load_field(state.entry, digit=self._field().width - 1)

    def _on_score_sheet(self, press: Press) -> None:
        """The same digits as the score entry, one count of the sheet after another; a held
        MENU skips to typing the total in."""
        state = self._state
        if press.gesture is Gesture.REPEAT:
            return
        setup = self._current_setup()
        field = self._count_field()
        steps = len(state.sheet)
        if press.button is Button.MENU:
            if press.gesture is Gesture.HOLD:
                self._leave_sheet(None)
            elif state.digit + 1 < field.width:
                state.digit += 1
            elif state.sheet_step + 1 < steps:
                self._load_count(state.sheet_step + 1)
            else:
                total = sheet_sum(setup, state.sheet)
                if total is not None:  # else the sheet says which counts cannot be right
                    self._leave_sheet(total)
            return
        back = press.button is Button.BACK
        if back and press.gesture is Gesture.HOLD and state.digit > 0:
            state.digit -= 1
        elif back and (press.gesture is Gesture.HOLD or untouched(state.digits, state.digit)):
            if state.sheet_step == 0:
                self._leave_sheet(None)
            else:
                self._load_count(state.sheet_step - 1)
        else:
            state.sheet[state.sheet_step] = self._turn_digit(press, field)

    def _finish(self) -> None:
        state = self._state
        state.screen = Screen.RESULT
        if state.recorded:
            return
        setup = state.setup
        assert setup is not None
        modules = tuple(m.value for m in setup.modules)
        if setup.solo:  # read before this game joins the records; per module set (C-13)
            state.best_before = self.records.best_solo(setup.city.value, modules)
        result = self._result_view()
        totals = (result.total,) if setup.solo else tuple(s.total for s in result.seats)
        self.records.record(
            FinishedGame(
                city=setup.city.value,
                players=setup.players,
                modules=modules,
                seed=setup.seed,
                totals=totals,
                adjusted=result.adjusted if setup.solo else None,
                tier=result.tier if setup.solo else None,
                winners=() if setup.solo else result.winners,
                daily=setup.daily,
            )
        )
        state.recorded = True

    def _on_result(self, press: Press) -> None:
        state = self._state
        if press.button is Button.NEXT:
            self._start_game()  # the same setup again, a new deal: NEXT always goes forward
        elif press.button is Button.BACK:
            state.screen = Screen.SCORE_ENTRY
            self._load_field(score_fields(self._current_setup(), state.scores)[-1])
        else:
            self._open_menu()

    # overlays -------------------------------------------------------------------------------
    def _on_menu(self, press: Press) -> None:
        state = self._state
        key = self._chosen(press, self._menu_rows())
        s = state.settings
        if key == "resume":
            state.screen = self._under()
        elif key == "show_setup":
            state.screen = Screen.RECALL
        elif key in ("restart_round", "new_game", "shutdown"):
            self._ask(key)
        elif key == "language":
            state.settings = replace(s, language=_cycle(LANGUAGES, s.language))
        elif key == "sound":
            state.settings = replace(s, sound=not s.sound)
        elif key == "voice":
            state.settings = replace(s, voice=not s.voice)
        elif key == "volume":
            state.settings = replace(s, volume=s.volume % VOLUME_LEVELS + 1)
        elif key == "brightness":
            state.settings = replace(s, brightness=s.brightness % BRIGHTNESS_LEVELS + 1)
        elif key == "about":
            state.screen = Screen.ABOUT
        elif key == "phones":
            state.screen = Screen.PHONES
        elif key == "history":
            self._read_history = self.records.history()
            state.screen = Screen.HISTORY
            state.cursor = 0  # the page shown, while the history is up

    def _ask(self, question: str) -> None:
        state = self._state
        if state.screen is not Screen.MENU:
            state.under = state.screen
        state.question = question
        state.screen = Screen.CONFIRM

    def _on_confirm(self, press: Press) -> None:
        state = self._state
        if press.button is not Button.NEXT:  # BACK or MENU: no
            state.screen = Screen.MENU if state.question != "back_to_round" else self._under()
            if state.screen is Screen.MENU:
                state.cursor = 0
            return
        question = state.question
        if question == "back_to_round":
            self._step(forward=False)  # from a round's start: the end of the one before
            state.screen = Screen.PENCIL_PASS
        elif question == "restart_round":
            state.progress = Progress(state.progress.round, 0)  # same cards (D-1)
            state.screen = Screen.ROUND_START
        elif question == "new_game":
            self._start_game()  # the remembered setup; BACK or MENU there changes it
        elif question == "shutdown":
            state.screen = Screen.SHUTDOWN
            state.request = "shutdown"

    def _on_about(self, press: Press) -> None:
        self._state.screen = Screen.MENU

    def _on_recall(self, press: Press) -> None:
        self._state.screen = self._under()

    def _history(self) -> History:
        if self._read_history is None:  # restored onto the history: read it again
            self._read_history = self.records.history()
        return self._read_history

    def _on_history(self, press: Press) -> None:
        """NEXT and BACK turn the pages (round and round); MENU, or any button when all of
        it fits one page, goes back to the menu with the history row chosen."""
        state = self._state
        pages = len(history_pages(self._history(), self._today()))
        if press.button is Button.MENU or pages == 1:
            state.screen = Screen.MENU
            state.cursor = [row.key for row in self._menu_rows()].index("history")
            self._read_history = None
            return
        step = 1 if press.button is Button.NEXT else -1
        state.cursor = (state.cursor + step) % pages

    def _on_phones(self, press: Press) -> None:
        if press.button is Button.NEXT:
            self.join_code = self._code_source()  # phones that joined must join again
        else:
            self._state.screen = Screen.MENU

    # --- phones ----------------------------------------------------------------------------
    def enter_score(self, seat: int, total: int, best_line: int) -> bool:
        """A seat's score from its phone, at the game's end; the result shows once every
        seat is in. False (nothing changes) when no game is being scored or out of range."""
        state = self._state
        setup = state.setup
        scoring = {Screen.GAME_END, Screen.SCORE_ENTRY, Screen.SCORE_SHEET}
        showing = state.under if SCREENS[state.screen].kind is Kind.OVERLAY else state.screen
        if setup is None or state.recorded or showing not in scoring:
            return False
        low, high = SCORE_LIMITS
        if not (1 <= seat <= setup.players and low <= total <= high and low <= best_line <= high):
            return False
        fields = 1 if setup.solo else 2 * setup.players
        if len(state.scores) != fields:
            state.scores = [0] * fields
        if setup.solo:
            state.scores[0] = total
        else:
            state.scores[2 * seat - 2 : 2 * seat] = [total, best_line]
        self._phone_seats.add(seat)
        if showing is Screen.SCORE_ENTRY:  # the field on the box shows the phone's value
            self._load_field(state.entry, state.digit)
        if len(self._phone_seats) == setup.players:
            self._load_field(score_fields(setup, state.scores)[-1])
            self._finish()  # over any menu too: the table asked for the result
            state.under = None
        return True

    def type_digit(self, character: str) -> bool:
        """A digit typed on a keyboard ("0".."9", "-" for the minus sign): it sets the digit
        under the cursor of the score entry or sheet, then moves on as MENU does. False
        (nothing changes) anywhere else, or where the field has no such character."""
        state = self._state
        if self.notices or state.screen not in (Screen.SCORE_ENTRY, Screen.SCORE_SHEET):
            return False
        sheet = state.screen is Screen.SCORE_SHEET
        field = self._count_field() if sheet else self._field()
        wanted = MINUS if character == "-" else character
        if wanted not in field.wheel(state.digit):
            return False
        digits = [*state.digits]
        digits[state.digit] = wanted
        if not fits(digits, field):  # beyond the field's end: held there, as a turn would be
            digits = list(digits_of(value_of(digits), field))
        state.digits = digits
        value = value_of(state.digits)
        if sheet:
            state.sheet[state.sheet_step] = value
        else:
            state.scores[state.entry] = value
        self.press(Press(Button.MENU))
        return True

    def table(self) -> views.TableView:
        """What the phones may see now (never the deck's order: only shown screens)."""
        state = self._state
        setup = state.setup
        if setup is None:
            return views.TableView(self.game, self.join_code, None)
        entry = SCREENS[state.screen]
        beneath = state.under if entry.kind is Kind.OVERLAY else state.screen
        if beneath is None or SCREENS[beneath].kind is not Kind.GAME:
            return views.TableView(self.game, self.join_code, None)
        deal = self._current_deal()
        return views.TableView(
            game=self.game,
            code=self.join_code,
            view=SCREENS[beneath].view(self),
            city=setup.city.value,
            players=setup.players,
            pencils=seat_pencils(deal, min(state.progress.round, ROUNDS)),
            line_scoring=deal.city.line_scoring,
            scoring=beneath in (Screen.GAME_END, Screen.SCORE_ENTRY, Screen.SCORE_SHEET)
            and not state.recorded,
            seats_in=tuple(sorted(self._phone_seats)),
        )

    def _on_shutdown(self, press: Press) -> None:
        pass  # the box is going down; presses no longer matter

    # --- saving ----------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The whole session as plain JSON-able values (a few numbers and names)."""
        state = self._state
        setup = state.setup
        # Choices made since version 1 are written only when made, so a game without them
        # saves exactly as it did before they existed (tests/test_saved_games.py).
        added: dict[str, Any] = {}
        if state.today:
            added["today"] = True
        if state.pencil_choice:
            added["pencil_choice"] = list(state.pencil_choice)
        return {
            **added,
            "version": SNAPSHOT_VERSION,
            "settings": state.settings.as_dict(),
            "screen": _name(state.screen if state.screen is not Screen.SHUTDOWN else state.under)
            or "setup",
            "setup": None
            if setup is None
            else {
                "city": setup.city.value,
                "players": setup.players,
                "modules": [m.value for m in setup.modules],
                "seed": setup.seed,
                **({} if setup.pencil_order is None else {"pencil_order": setup.pencil_order}),
                **({} if setup.daily is None else {"daily": setup.daily}),
            },
            "round": state.progress.round,
            "revealed": state.progress.revealed,
            "cursor": state.cursor,
            "seed_code": state.seed_code,
            "seed_characters": list(state.seed_characters),
            "under": _name(state.under),
            "question": state.question,
            "scores": list(state.scores),
            "entry": state.entry,
            "digits": list(state.digits),
            "digit": state.digit,
            "sheet": list(state.sheet),
            "sheet_step": state.sheet_step,
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
        version = data.get("version")
        if version not in (1, SNAPSHOT_VERSION):
            raise ValueError(f"saved session version {version!r}")
        session = cls(Settings.from_dict(data["settings"]), **kwargs)
        state = session._state
        raw = data["setup"]
        if raw is not None:
            order = raw.get("pencil_order")
            state.setup = Setup(
                CityName(raw["city"]),
                int(raw["players"]),
                tuple(raw["modules"]),
                raw["seed"],
                None if order is None else tuple(order),
                raw.get("daily"),
            )
        state.progress = Progress(int(data["round"]), int(data["revealed"]))
        state.screen = Screen(str(data["screen"]))  # ValueError for a name that is no screen
        state.cursor = int(data["cursor"])
        state.seed_code = data["seed_code"]
        state.seed_characters = [str(c) for c in data["seed_characters"]]
        state.today = data.get("today", False) is True
        state.pencil_choice = [str(c) for c in data.get("pencil_choice", [])]
        state.under = Screen(str(data["under"])) if data["under"] else None
        state.question = str(data["question"])
        state.scores = [int(v) for v in data["scores"]]
        state.entry = int(data["entry"])
        if version == 1:  # before digits: a score entry shows its field's value, cursor first
            if Screen.SCORE_ENTRY in (state.screen, state.under):
                session._load_field(state.entry)
        else:
            state.digits = [str(d) for d in data["digits"]]
            state.digit = int(data["digit"])
            state.sheet = [int(v) for v in data["sheet"]]
            state.sheet_step = int(data["sheet_step"])
        state.recorded = bool(data["recorded"])
        best = data.get("best_before")
        state.best_before = None if best is None else int(best)
        session._check()
        return session

    def _check(self) -> None:
        """Refuse a snapshot that would put the box in an impossible place."""
        state = self._state
        kind = SCREENS[state.screen].kind
        assert kind is not Kind.MESSAGE, state.screen  # never saved: the box was going down
        if kind in (Kind.GAME, Kind.OVERLAY):
            assert state.setup is not None
            deal = self.deal
            assert deal is not None
            assert 1 <= state.progress.round <= ROUNDS
            turns = len(deal.rounds[state.progress.round - 1].turns)
            assert 0 <= state.progress.revealed <= turns
            if state.screen is Screen.TURN:
                assert state.progress.revealed >= 1
            if state.screen in (Screen.ROUND_END, Screen.PENCIL_PASS, Screen.GAME_END):
                assert state.progress.revealed == turns
        if kind is Kind.OVERLAY:
            assert state.under is not None and SCREENS[state.under].kind is Kind.GAME
        if state.screen in (Screen.SCORE_ENTRY, Screen.RESULT):
            assert state.scores and 0 <= state.entry < len(state.scores)
        self._check_digits()
        if state.screen is Screen.SEED_ENTRY:
            assert 0 <= state.cursor < len(state.seed_characters) <= SEED_MAX_LENGTH + 1
        colours = city(state.settings.city).colours
        chosen = state.pencil_choice
        assert len(set(chosen)) == len(chosen) < len(colours) - 1, chosen
        assert set(chosen) <= set(colours), chosen
        if state.screen is Screen.PENCIL_ORDER:
            assert state.settings.players == 1 and state.settings.pencil_order == "own"
            assert 0 <= state.cursor < len(colours) and colours[state.cursor] not in chosen
        check_values(state, setup_rows=self._setup_rows(), menu_rows=self._menu_rows(),
                     seed_characters=SEED_CHARACTERS, score_limits=SCORE_LIMITS)  # fmt: skip
        view = self.view()  # builds every field the screen needs, or fails here
        assert view.screen

    def _check_digits(self) -> None:
        """A restored score entry or sheet: its digits are ones its field shows, and they
        hold the value saved beside them."""
        state = self._state
        showing = {state.screen, state.under}
        if Screen.SCORE_ENTRY in showing or Screen.SCORE_SHEET in showing:
            assert state.setup is not None and state.scores
            assert 0 <= state.entry < len(state.scores)
        if Screen.SCORE_ENTRY in showing:
            field = self._field()
            value = state.scores[state.entry]
        elif Screen.SCORE_SHEET in showing:
            setup = self._current_setup()
            assert state.entry % 2 == 0 or setup.solo  # a sheet adds up a total
            assert len(state.sheet) == len(sheet_counts(setup))
            assert 0 <= state.sheet_step < len(state.sheet)
            assert all(0 <= v <= 99 for v in state.sheet)
            field = self._count_field()
            value = state.sheet[state.sheet_step]
        else:
            return
        assert fits(state.digits, field), state.digits
        assert 0 <= state.digit < field.width
        assert value_of(state.digits) == value, (state.digits, value)

    def copy(self) -> Session:
        """An independent session in the same place, with the same records and seed source:
        made from the saved form (`snapshot()` through JSON), as a restart would see it."""
        import json

        saved = json.loads(json.dumps(self.snapshot()))
        return Session.restore(
            saved,
            capabilities=self.capabilities,
            records=self.records,
            seed_source=self._seed_source,
            today=self._today,
        )


def _cycle(options: tuple[str, ...], current: str, step: int = 1) -> str:
    index = options.index(current) if current in options else -1
    return options[(index + step) % len(options)]


def _name(screen: Screen | None) -> str:
    """A screen as a snapshot writes it: its plain name, "" for none."""
    return screen.value if screen is not None else ""


@dataclass(frozen=True, slots=True)
class Entry:
    """One screen: where it stands, what a press does there, and the view it shows."""

    kind: Kind
    press: Callable[[Session, Press], None]
    view: Callable[[Session], views.View]
    in_round: bool = False  # a round is under way: the menu offers to restart it
    over: bool = False  # the game is over: its deal code may be shown (D-2)


# Every screen, once. Adding a screen: docs/ARCHITECTURE.md, "Adding a screen".
SCREENS: dict[Screen, Entry] = {
    Screen.SETUP: Entry(Kind.SETUP, Session._on_setup, Session._view_setup),
    Screen.SEED_ENTRY: Entry(Kind.SETUP, Session._on_seed_entry, Session._view_seed_entry),
    Screen.PENCIL_ORDER: Entry(
        Kind.SETUP, Session._on_pencil_order, Session._view_pencil_order
    ),
    Screen.SUMMARY: Entry(Kind.GAME, Session._on_summary, Session._view_summary),
    Screen.ROUND_START: Entry(
        Kind.GAME, Session._on_round_start, Session._view_round_start, in_round=True
    ),
    Screen.TURN: Entry(Kind.GAME, Session._on_turn, Session._view_turn, in_round=True),
    Screen.ROUND_END: Entry(
        Kind.GAME, Session._on_round_end, Session._view_round_end, in_round=True
    ),
    Screen.PENCIL_PASS: Entry(Kind.GAME, Session._on_pencil_pass, Session._view_pencil_pass),
    Screen.GAME_END: Entry(Kind.GAME, Session._on_game_end, Session._view_game_end, over=True),
    Screen.SCORE_ENTRY: Entry(
        Kind.GAME, Session._on_score_entry, Session._view_score_entry, over=True
    ),
    Screen.SCORE_SHEET: Entry(
        Kind.GAME, Session._on_score_sheet, Session._view_score_sheet, over=True
    ),
    Screen.RESULT: Entry(Kind.GAME, Session._on_result, Session._view_result, over=True),
    Screen.MENU: Entry(Kind.OVERLAY, Session._on_menu, Session._view_menu),
    Screen.CONFIRM: Entry(Kind.OVERLAY, Session._on_confirm, Session._view_confirm),
    Screen.ABOUT: Entry(Kind.OVERLAY, Session._on_about, Session._view_about),
    Screen.RECALL: Entry(Kind.OVERLAY, Session._on_recall, Session._view_recall),
    Screen.SHUTDOWN: Entry(Kind.MESSAGE, Session._on_shutdown, Session._view_shutdown),
    Screen.PHONES: Entry(Kind.OVERLAY, Session._on_phones, Session._view_phones),
    Screen.HISTORY: Entry(Kind.OVERLAY, Session._on_history, Session._view_history),
}

# The game screens by name, for benchmarks/reliability/ (read from the table above).
GAME_SCREENS = tuple(s.value for s, e in SCREENS.items() if e.kind is Kind.GAME)
