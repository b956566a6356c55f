"""The box's behaviour: which screen is up, where the game stands, what a press does.

Like python-chess's board: `press()` moves it, `snapshot()` saves it as a few plain
values and `Session.restore()` brings it back, always over the same fixed deal
(RULES D-1), so undo, redo and resume never reshuffle. What each screen does is its
slice (`nsdevice.session.screens`); the session only keeps the state and hands each
press to the screen's entry in the one table.
"""

from __future__ import annotations

import json
from typing import Any

from nsdevice import views
from nsdevice.inputs.events import Button, Gesture, Press
from nsdevice.rules.progress import Progress
from nsdevice.session import snapshot, valid
from nsdevice.session.context import Context
from nsdevice.session.names import ScreenName
from nsdevice.session.screens import SCREENS
from nsdevice.session.screens.lines import enter_line, name_seat
from nsdevice.session.screens.notice import notice_view
from nsdevice.session.screens.phones import table_view
from nsdevice.session.screens.room import first_card_out, room_scoring
from nsdevice.session.screens.scores import enter_score, set_typed_digit
from nsdevice.session.screens.setup import start_game
from nsdevice.session.settings import Settings

SNAPSHOT_VERSION = snapshot.VERSION


class Session(Context):
    """One box: feed it presses, ask it for the view."""

    screens = SCREENS

    # --- reading ---------------------------------------------------------------------------
    @property
    def settings(self) -> Settings:
        return self.state.settings

    @property
    def screen(self) -> ScreenName:
        return self.state.screen

    @property
    def request(self) -> str | None:
        return self.state.request

    @property
    def progress(self) -> Progress:
        return self.state.progress

    def view(self) -> views.View:
        """What the screen shows now: the first notice, else the screen's own view."""
        state = self.state
        if self.notices:
            notice, detail = self.notices[0]
            return self.capabilities.panel.placed(notice_view(notice, detail, self.language))
        view: views.View = self.screens[state.screen].view(self)
        if state.chime:  # in the placed copy: one copy of the view, not two
            return self.capabilities.panel.placed(view, chime=state.chime)
        return self.capabilities.panel.placed(view)

    def table(self) -> views.TableView:
        """What the phones may see now (never the deck's order: only shown screens)."""
        return table_view(self)

    # --- pressing --------------------------------------------------------------------------
    def press(self, press: Press) -> None:
        """React to one logical press. Holds act as taps unless a screen gives them a meaning;
        repeats are ignored everywhere, so a held button never flips a run of cards (the
        score entry turns a digit by five on the hold itself)."""
        state = self.state
        state.chime = None
        if self.notices:
            self.notices.pop(0)
            return
        if press.gesture is Gesture.REPEAT:
            return
        self.screens[state.screen].press(self, press)
        valid.check_move(self, press)  # the same description a restore holds to

    def next(self) -> None:
        self.press(Press(Button.NEXT))

    def back(self) -> None:
        self.press(Press(Button.BACK))

    def menu(self) -> None:
        self.press(Press(Button.MENU))

    def deal_new_game(self, seed: str | None = None) -> None:
        """A fresh deal from the remembered setup, its summary up: what power-on with no
        saved game shows, so that the first NEXT already moves the game forward. `seed`:
        the deal code to play (a written one, `normalize_seed`); None draws one."""
        self.state.seed_code = seed
        self.state.today = False if seed else self.state.today
        start_game(self)

    def plays_room(self, seed: str | None = None) -> bool:
        """A room game of the remembered setup is under way (on deal code `seed`, if
        given): `nsdevice run --room` resumes it rather than dealing a new one."""
        return self.state.room is not None and self._plays_setup(seed)

    def plays_table(self, seed: str | None = None) -> bool:
        """A one-table game of exactly the remembered setup (its city, players and modules;
        deal code `seed`, if given) is under way: `nsdevice run --city … --players …`
        resumes it rather than dealing a new one, so those flags can stay in a service's
        options."""
        setup = self.state.setup
        return (
            self.state.room is None
            and setup is not None
            and setup.players == self.settings.players
            and self._plays_setup(seed)
        )

    def _plays_setup(self, seed: str | None) -> bool:
        setup = self.state.setup
        settings = self.settings
        return (
            setup is not None
            and setup.city.value == settings.city
            and {m.value for m in setup.modules} == set(settings.modules)
            and (seed is None or setup.seed == seed)
        )

    def type_digit(self, character: str) -> bool:
        """A digit typed on a keyboard ("0".."9", "-" for the minus sign): it sets the digit
        under the cursor of the score entry or sheet, then moves on as MENU does. False
        (nothing changes) anywhere else, or where the field has no such character."""
        if not set_typed_digit(self, character):
            return False
        self.press(Press(Button.MENU))
        return True

    # --- phones ----------------------------------------------------------------------------
    def enter_score(
        self, seat: int, total: int, best_line: int, counts: tuple[int, ...] = ()
    ) -> bool:
        """A seat's score from its phone, at the game's end; the result shows once every
        seat is in. False (nothing changes) when no game is being scored or out of range.
        `counts`: the phone's sheet in the box's sheet order, for the result's breakdown."""
        if enter_score(self, seat, total, best_line, counts):
            valid.check_move(self, "a phone's score")
            return True
        return False

    def enter_line(self, seat: int, number: int, counts: tuple[int, ...]) -> bool:
        """A seat's line of round `number` from its phone, as the game goes (issue 34);
        False (nothing changes) when it does not fit (`screens.lines.enter_line`)."""
        if enter_line(self, seat, number, counts):
            valid.check_move(self, "a phone's line")
            return True
        return False

    def name_seat(self, seat: int, name: str) -> bool:
        """The name a one-table seat's phone joined with; False when nothing changes."""
        if name_seat(self, seat, name):
            valid.check_move(self, "a phone's name")
            return True
        return False

    def join(
        self,
        table: int,
        size: int,
        seat: int,
        name: str,
        claim: str = "",
        leaving: tuple[int, int] | None = None,
        ticket: int = 0,
    ) -> bool:
        """A room player's join from their phone (the loop checks it is for this game):
        False (nothing changes) in a one-table game or when it does not fit (`Roster`).
        `ticket`: the page's number for it, told back in the table whatever came of it."""
        room = self.state.room
        if room is None:
            return False
        room.taken = max(room.taken, ticket)
        # no check_move: a join only adds to the roster, whose own join refuses what does
        # not fit, and never moves the box; a storm's joins come in batches between presses
        return room.join(table, size, seat, name, claim, leaving)

    def free_idle_table(self, table: int) -> bool:
        """A table nobody at it follows (the page's word): freed before the game's first
        card only; once cards are out a table keeps its players, whoever watches."""
        room = self.state.room
        return room is not None and not first_card_out(self) and room.free(table)

    def room_score(self, table: int, seat: int, total: int, best_line: int) -> bool:
        """A room player's sheet, taken only while the room's results are up."""
        room = self.state.room
        scored = room_scoring(self) and room is not None
        if scored and room is not None and room.score(table, seat, total, best_line):
            valid.check_move(self, "a phone's sheet")
            return True
        return False

    # --- saving ----------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The whole session as plain JSON-able values (a few numbers and names)."""
        return snapshot.take(self)

    @classmethod
    def restore(cls, data: dict[str, Any], **kwargs: Any) -> Session:
        """Rebuild a session from `snapshot()`; ValueError when the data does not fit a game."""
        try:
            snapshot.version(data)
            session = cls(Settings.from_dict(data["settings"]), **kwargs)
            snapshot.load(session, data)
            valid.check(session)
        except (KeyError, TypeError, AttributeError, IndexError, AssertionError,
                RecursionError) as error:  # fmt: skip
            raise ValueError(f"saved session does not fit: {error!r}") from error
        return session

    def copy(self) -> Session:
        """An independent session in the same place, with the same records and seed source:
        made from the saved form (`snapshot()` through JSON), as a restart would see it."""
        saved = json.loads(json.dumps(self.snapshot()))
        return Session.restore(
            saved,
            capabilities=self.capabilities,
            records=self.records,
            seed_source=self.seed_source,
            today=self.today,
        )
