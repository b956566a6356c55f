"""Whole screens in words: each view's title and its page (lines of text, each with a role).

Which page a view gets is chosen by the view's type (`Words.page` dispatches on it), so
a new screen's words are one `@page.register` method here. The roles say what a line
is (a heading, a warning, the number being set…); the graphic layout styles lines by
role from one table, and the terminal prints them as they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import singledispatchmethod

from nsdevice import views
from nsdevice.locale import N_
from nsdevice.rules import scoring
from nsdevice.texts.vocabulary import LANGUAGE_NAMES, Vocabulary
from nsdevice.texts.vocabulary import PHONE as PHONE_WORDS


class Role(Enum):
    """What one line of a page is."""

    ITEM = "item"  # an ordinary line
    HEADING = "heading"  # over the lines below it
    ROW = "row"  # a line of a list with a cursor
    WARNING = "warning"  # advice the players should not miss
    VALUE = "value"  # the number being set
    NOTE = "note"  # a quieter line: an introduction, where we are in a sequence
    DETAIL = "detail"  # small print, for whoever fixes the box
    FORMULA = "formula"  # how to score, to read off the screen
    HEADLINE = "headline"  # the line that matters most: the winner, the tier reached
    CONTROLLER = "controller"  # who turns the cards next
    PENCIL = "pencil"  # one pencil's move
    CODE = "code"  # the deal code being typed


class Form(Enum):
    """How a page as a whole is read."""

    LINES = "lines"  # lines one below the other
    LIST = "list"  # rows with a cursor, then any warnings
    MESSAGE = "message"  # a sentence or two to read: larger, centred
    CENTRED = "centred"  # one number to set, centred
    COLUMNS = "columns"  # a long summary: may flow into two columns
    CODE = "code"  # the deal code, one box per character


@dataclass(frozen=True, slots=True)
class Line:
    text: str
    role: Role = Role.ITEM


@dataclass(frozen=True, slots=True)
class Page:
    """A screen's words, for screens laid out as a title and lines of text."""

    title: str
    lines: tuple[Line, ...] = ()
    emphasis: tuple[int, ...] = ()  # indexes of lines to mark (a list's cursor, a value set)
    form: Form = Form.LINES


def _items(texts: list[str] | tuple[str, ...], role: Role = Role.ITEM) -> list[Line]:
    return [Line(text, role) for text in texts]


ROWS = {  # the lines of the setup and the menu
    "city": N_("City"),
    "players": N_("Players"),
    "pencil_order": N_("Pencil order"),
    "objectives": N_("Objectives"),
    "special_stations": N_("Special stations"),
    "city_gates": N_("City gates"),
    "pencil_powers": N_("Pencil powers"),
    "seed": N_("Deal"),
    "language": N_("Language"),
    "start": N_("Start the game"),
    "resume": N_("Back to the game"),
    "show_setup": N_("Show this game's cards"),
    "restart_round": N_("Restart this round"),
    "new_game": N_("New game"),
    "sound": N_("Sound"),
    "voice": N_("Voice"),
    "volume": N_("Volume"),
    "brightness": N_("Brightness"),
    "shutdown": N_("Shut down"),
    "about": N_("About"),
    "phones": N_("Phones"),
    "history": N_("History"),
}
SWITCHED_ROWS = frozenset(
    {"objectives", "special_stations", "city_gates", "pencil_powers", "sound", "voice"}
)


TITLES: dict[type[views.View], str] = {  # the titles that need no numbers
    views.SetupView: N_("New game"),
    views.SeedEntryView: N_("Deal code"),
    views.PencilOrderView: N_("Your pencil order"),
    views.SummaryView: N_("This game"),
    views.PencilPassView: N_("Pass the pencils"),
    views.GameEndView: N_("Game over"),
    views.ResultView: N_("Result"),
    views.SheetView: N_("Score sheet"),
    views.MenuView: N_("Menu"),
    views.ConfirmView: N_("Are you sure?"),
    views.AboutView: N_("About"),
    views.NoticeView: N_("Notice"),
    views.ShutdownView: N_("Shutting down"),
    views.HardwareTestView: N_("Hardware check"),
    views.PhonesView: N_("Phones"),
    views.HistoryView: N_("History"),
}
QUESTIONS = {
    "back_to_round": N_("Go back into round {round}?"),
    "restart_round": N_("Start round {round} again with the same cards?"),
    "new_game": N_("Leave this game and set up a new one?"),
    "shutdown": N_("Shut the box down now?"),
}
NOTICES = {
    "store_damaged": N_("The saved game could not be read. It was set aside."),
    "store_unwritable": N_("Games cannot be saved here; playing without saving."),
    "store_full": N_("Cannot save: the card is full. Play goes on, but a power cut would lose it."),
    "store_read_only": N_(
        "Cannot save: the card is read-only. Play goes on, but a power cut would lose it."
    ),
    "store_rewound": N_("The newest save was damaged: the game goes on from an earlier step."),
    "display_fallback": N_("No screen found; showing text instead."),
    "input_fallback": N_("Buttons not found; using the keyboard."),
}
LINE_SCORING = {  # how each city scores a round's line (S-T, S-P; London: on the sheet)
    "districts": N_("districts × best district's stations"),
    "quarters": N_("quarters × best quarter's stops + 2 per monument"),
    "": N_("count it on your sheet"),
}
WHY_WON = {
    "total": "",
    "best_line": N_("Tie broken by the best line"),
    "shared": N_("Same total and same best line"),
}
PENCIL_ORDERS = {"drawn": N_("Drawn"), "own": N_("My own")}  # C-8 solo
SHEET_ITEMS = {  # the score sheet's items (S-T-END, S-P-END), as the walk-through names them
    "line": N_("Line of round {round}"),
    "stamps": N_("Tourist stamps"),
    "ring": N_("Green ring"),
    "overpasses": N_("Overpasses"),
    "interchanges": N_("Interchanges"),
    "objectives": N_("Objectives"),
}
SHEET_WHY = {  # one line each: how the item scores, in our words
    "stamps": N_("Corner districts 10, other outer districts 5"),
    "ring": N_("−3 for each ring station no line of yours reaches"),
    "overpasses": N_("2 for each crossed once, 6 for each crossed twice"),
    "interchanges": N_("Points for each station where lines meet:"),
    "objectives": N_("10 for each objective met"),
}
SHEET_COUNTS = {  # what the player reads off the sheet for each count
    "districts": N_("Districts crossed"),
    "stations": N_("Most stations in one district"),
    "quarters": N_("Quarters crossed"),
    "stops": N_("Most stops in one quarter"),
    "monuments": N_("Monuments on the line"),
    "stamps": N_("Points of your stamps"),
    "ring_unconnected": N_("Ring stations no line reaches"),
    "overpasses_once": N_("Overpasses crossed once"),
    "overpasses_twice": N_("Overpasses crossed twice"),
    "objectives": N_("Objectives met"),
}
LED_COLOURS = {"red": N_("red"), "green": N_("green"), "blue": N_("blue")}


class Words(Vocabulary):
    """The wording for one language: the vocabulary, and every screen's title and page."""

    # --- rows of the list screens ---------------------------------------------------------
    def row(self, row: views.Row) -> str:
        label = self._(ROWS[row.key])
        value = self.row_value(row)
        return self.labelled(label, value) if value else label

    def row_value(self, row: views.Row) -> str:
        value = row.value
        if value is None:
            return ""
        if row.key == "city":
            return self.city(value)
        if row.key == "players":
            return self._("Solo") if value == "1" else value
        if row.key in SWITCHED_ROWS:
            return self.on_off(value == "on")
        if row.key == "pencil_order":
            return self._(PENCIL_ORDERS[value])
        if row.key == "seed":
            named = {"random": self._("Random"), "today": self._("Today")}
            return named.get(value, value)
        if row.key == "language":
            return LANGUAGE_NAMES[value]
        return value

    # --- titles ---------------------------------------------------------------------------
    @singledispatchmethod
    def title(self, view: views.View) -> str:
        title = TITLES.get(type(view))
        return self._(title) if title is not None else view.screen

    @title.register
    def _round_start_title(self, view: views.RoundStartView) -> str:
        return self._("Round {number} of {rounds}").format(number=view.round, rounds=view.rounds)

    @title.register
    def _turn_title(self, view: views.TurnView) -> str:
        return self._("Round {number} · Turn {turn}").format(number=view.round, turn=view.turn)

    @title.register
    def _round_end_title(self, view: views.RoundEndView) -> str:
        return self._("Round {number} is over").format(number=view.round)

    @title.register
    def _pencil_pass_title(self, view: views.PencilPassView) -> str:
        if view.players == 1:  # nobody to pass to: the player takes up the next one
            return self._("Your next pencil")
        return self._(TITLES[views.PencilPassView])

    @title.register
    def _score_entry_title(self, view: views.ScoreEntryView) -> str:
        _ = self._
        if view.solo:
            return _("Your final score")
        if view.field == "total":
            return _("Seat {seat}: total").format(seat=view.seat)
        return _("Seat {seat}: best line").format(seat=view.seat)

    @title.register
    def _history_title(self, view: views.HistoryView) -> str:
        title = self._("History")
        return f"{title} {view.page}/{view.pages}" if view.pages > 1 else title

    def _score_sheet_title(self, view: views.SheetView) -> str:
        if view.solo:
            return self._(TITLES[views.SheetView])
        return self._("Seat {seat}: score sheet").format(seat=view.seat)

    @title.register
    def _result_title(self, view: views.ResultView) -> str:
        return self.tier(view.tier)[0] if view.solo else self._(TITLES[views.ResultView])

    # --- pages ----------------------------------------------------------------------------
    @singledispatchmethod
    def page(self, view: views.View) -> Page:
        """Title and lines for any screen; the graphic displays draw turn and round start
        themselves but the terminal uses this for every screen."""
        raise TypeError(f"no page for {type(view).__name__}")

    def _list_page(self, view: views.SetupView | views.MenuView, extra: list[Line]) -> Page:
        rows = [Line(self.row(row), Role.ROW) for row in view.rows]
        return Page(self.title(view), (*rows, *extra), emphasis=(view.cursor,), form=Form.LIST)

    @page.register
    def _setup(self, view: views.SetupView) -> Page:
        warning = self._("Several card modules: one is advised")
        return self._list_page(view, [Line(warning, Role.WARNING)] if view.mix_warning else [])

    @page.register
    def _menu(self, view: views.MenuView) -> Page:
        return self._list_page(view, [])

    @page.register
    def _seed_entry(self, view: views.SeedEntryView) -> Page:
        code = "".join(c or "·" for c in view.characters)
        lines = (
            Line(code, Role.CODE),
            Line(self._("The same code deals the same cards."), Role.NOTE),
        )
        return Page(self.title(view), lines, emphasis=(0,), form=Form.CODE)

    @page.register
    def _pencil_order(self, view: views.PencilOrderView) -> Page:
        _ = self._
        lines = [Line(_("Lay the pencils in the order you will use them."), Role.NOTE)]
        row = [*view.chosen, view.offered]
        for number, colour in enumerate(row, start=1):
            text = _("Round {number}: {colour}").format(number=number, colour=self.colour(colour))
            lines.append(Line(text, Role.PENCIL))
        if view.chosen:
            lines.append(Line(_("Hold BACK to take the last one back."), Role.NOTE))
        return Page(self.title(view), tuple(lines), emphasis=(len(row),))

    @page.register
    def _summary(self, view: views.SummaryView) -> Page:
        _ = self._
        lines = [Line(f"{self.city(view.city)} · {self.players(view.players)}")]
        if view.objectives:
            lines.append(Line(_("Objectives, 10 points each:"), Role.HEADING))
            lines += _items([f"  {self.objective(view.city, o)}" for o in view.objectives])
        if view.city_gates:
            lines.append(Line(_("City gates:"), Role.HEADING))
            gates = view.city_gates
            lines += _items(["  " + self.labelled(self.corner(c), self.bonus(b)) for c, b in gates])
        if view.pencil_powers:
            lines.append(Line(_("Pencil powers:"), Role.HEADING))
            powers = view.pencil_powers
            lines += _items(
                ["  " + self.labelled(self.colour(c), self.power(p)) for c, p in powers]
            )
        if view.solo_order:
            lines.append(Line(_("Pencils, in order:"), Role.HEADING))
            lines.append(Line("  " + ", ".join(self.colour(c) for c in view.solo_order)))
        if "special_stations" in view.modules:
            lines.append(Line(_("Special stations: a new pair each round")))
        if view.mix_warning:
            lines.append(Line(_("Several card modules: one is advised"), Role.WARNING))
        if len(lines) == 1:
            lines.append(Line(_("No modules: the plain game.")))
        return Page(self.title(view), tuple(lines), form=Form.COLUMNS)

    @page.register
    def _round_start(self, view: views.RoundStartView) -> Page:
        lines = []
        if view.players > 1:
            lines.append(Line(self.controller(view.controller), Role.CONTROLLER))
        lines += _items([self.pencil_line(p, view.players) for p in view.pencils], Role.PENCIL)
        if view.pairing:
            pairing = self._("Special station: {pairing}").format(
                pairing=self.pairing(view.pairing)
            )
            lines.append(Line(pairing))
        return Page(self.title(view), tuple(lines))

    @page.register
    def _turn(self, view: views.TurnView) -> Page:
        lines = [
            " + ".join(f"{self.kind(c.kind, view.city)} {self.face(c)}" for c in view.cards),
            self.underground(view.underground_seen, view.underground_total, view.city),
        ]
        for note in (
            self.joker_note(view),
            self.switch_note(view.switch_effect),
            self.paired_note(view.paired_effect, view.paired_effect_active),
        ):
            if note:
                lines.append(note)
        if view.last:
            lines.append(self.last_turn())
        if view.earlier:
            faces = ", ".join(self.face(t.cards[-1]) for t in view.earlier)
            lines.append(self._("Before: {cards}").format(cards=faces))
        return Page(self.title(view), tuple(_items(lines)))

    @page.register
    def _round_end(self, view: views.RoundEndView) -> Page:
        _ = self._
        lines = _items(
            [_("Draw the last section of this turn."), _("Then score this round's line:")]
        )
        lines.append(Line(_(LINE_SCORING[view.line_scoring]), Role.FORMULA))
        return Page(self.title(view), tuple(lines), form=Form.MESSAGE)

    @page.register
    def _pencil_pass(self, view: views.PencilPassView) -> Page:
        _ = self._
        if view.players == 1:  # solo: the next pencil in the row
            colour = self.colour(view.solo_next or "")
            line = Line(_("Round {number}: {colour}").format(number=view.round, colour=colour))
            return Page(self.title(view), (line,))
        lines = [Line(_("Every pencil moves one place left."), Role.NOTE)]
        lines += _items(
            [
                self.labelled(
                    self.colour(m.colour),
                    f"{self.slot(m.from_slot, view.players)} → "
                    f"{self.slot(m.to_slot, view.players)}",
                )
                for m in view.moves
            ],
            Role.PENCIL,
        )
        lines.append(Line(self.controller(view.next_controller), Role.CONTROLLER))
        return Page(self.title(view), tuple(lines))

    @page.register
    def _game_end(self, view: views.GameEndView) -> Page:
        _ = self._
        ask = _("Enter your final score.") if view.players == 1 else _("Enter scores for a winner?")
        lines = _items([self.seed(view.seed), ask])
        if view.sheet:
            lines.append(Line(_("Hold NEXT: add it up on the score sheet"), Role.NOTE))
        return Page(self.title(view), tuple(lines), form=Form.MESSAGE)

    @page.register
    def _score_entry(self, view: views.ScoreEntryView) -> Page:
        _ = self._
        step = _("{step} of {steps}").format(step=view.step + 1, steps=view.steps)
        lines = [
            Line("".join(view.digits), Role.CODE),
            Line(step, Role.NOTE),
            Line(_("Hold NEXT: +5 · hold BACK: digit before"), Role.NOTE),
        ]
        if view.sheet:
            lines.append(Line(_("Hold MENU: add it up on the score sheet"), Role.NOTE))
        elif view.field == "total" and not view.line_scoring:
            city = self.city(view.city)
            lines.append(Line(_("{city}: enter the total, no sheet to add up").format(city=city)))
        return Page(self.title(view), tuple(lines), emphasis=(0,), form=Form.CODE)

    @page.register
    def _score_sheet(self, view: views.SheetView) -> Page:
        _ = self._
        item = _(SHEET_ITEMS[view.item]).format(round=view.number)
        where = _("{step} of {steps}").format(step=view.step + 1, steps=view.steps)
        lines = [
            Line("".join(view.digits), Role.CODE),
            Line(f"{item} · {where}", Role.HEADING),
            Line(self.sheet_count(view.counts[view.count].key), Role.ITEM),
            Line(self.sheet_why(view), Role.FORMULA),
        ]
        if view.points is None or view.running is None:
            lines.append(Line(_("These counts cannot all be right"), Role.WARNING))
        else:
            sums = _("{points} points · total so far {total}").format(
                points=self.sheet_sum(view), total=view.running
            )
            lines.append(Line(sums, Role.ITEM))
            if view.module_penalty and view.step + 1 == view.steps:  # C-13, after the sheet
                solo = _("Solo: −{penalty} for modules on the result").format(
                    penalty=view.module_penalty
                )
                lines.append(Line(solo, Role.NOTE))
        lines.append(Line(_("Hold MENU: skip, type the total in"), Role.NOTE))
        return Page(self.title(view), tuple(lines), emphasis=(0,), form=Form.CODE)

    def sheet_count(self, key: str) -> str:
        if key.startswith("interchanges_"):
            lines = key.removeprefix("interchanges_")
            where_lines_meet = PHONE_WORDS["interchanges"]  # the phone sheet's own words
            return self._(where_lines_meet).format(lines=lines)
        return self._(SHEET_COUNTS[key])

    def sheet_why(self, view: views.SheetView) -> str:
        """How the item scores: a line by its city's rule, the rest by the item."""
        if view.item == "line":
            return self._(LINE_SCORING[view.line_scoring])
        why = self._(SHEET_WHY[view.item])
        if view.item == "interchanges":
            table = (
                scoring.TOKYO_INTERCHANGES
                if view.line_scoring == "districts"
                else (scoring.PARIS_INTERCHANGES)
            )
            pairs = ", ".join(f"{lines}→{points}" for lines, points in sorted(table.items()))
            return f"{why} {pairs}"
        return why

    def sheet_sum(self, view: views.SheetView) -> str:
        """The item's points, with a line's product written out (the points come from the
        rules, this only shows the counts they were made of)."""
        values = [c.value for c in view.counts]
        if view.item != "line":
            return str(view.points)
        if view.line_scoring == "districts":
            return f"{values[0]} × {values[1]} = {view.points}"
        monuments = scoring.PARIS_MONUMENT_POINTS
        return f"{values[0]} × {values[1]} + {monuments} × {values[2]} = {view.points}"

    @page.register
    def _result(self, view: views.ResultView) -> Page:
        _ = self._
        daily = [Line(self.daily(view.daily))] if view.daily else []
        if not view.solo:
            lines = [*self.winner_lines(view), *daily, Line(self.seed(view.seed))]
            return Page(self.title(view), tuple(lines), form=Form.MESSAGE)
        sums = _("{total} points − {penalty} for modules = {adjusted}").format(
            total=view.total, penalty=view.penalty, adjusted=view.adjusted
        )
        tier = _("Tier {tier} of 6").format(tier=view.tier)
        lines = [
            Line(sums),
            Line(self.tier(view.tier)[1]),
            Line(f"{tier} · {self.band(view.tier_low, view.tier_high)}", Role.HEADLINE),
        ]
        city = self.city(view.city)
        if view.new_best:
            lines.append(Line(_("New best in {city}!").format(city=city)))
        elif view.personal_best is not None:
            best = (
                _("Best in {city} with these modules: {points}")
                if view.modules_used
                else _("Best in {city} without modules: {points}")
            )
            lines.append(Line(best.format(city=city, points=view.personal_best)))
        lines += daily
        lines.append(Line(self.seed(view.seed)))
        return Page(self.title(view), tuple(lines), emphasis=(2,), form=Form.MESSAGE)

    def band(self, low: int | None, high: int | None) -> str:
        """S-SOLO: a tier's scores, both ends included (D-4)."""
        if low is None:
            return self._("up to {high}").format(high=high)
        if high is None:
            return self._("{low} and up").format(low=low)
        return f"{low}–{high}"

    def winner_lines(self, view: views.ResultView) -> tuple[Line, ...]:
        """Who won and why, then each seat's scores (or that none were entered)."""
        _ = self._
        if not view.seats:
            return (Line(_("Scores not entered."), Role.HEADLINE),)
        top = max(s.total for s in view.seats)
        tied = sum(s.total == top for s in view.seats) > 1  # C-12: only their best lines count
        seats = [
            _("Seat {seat}: {total} ({best})").format(seat=s.seat, total=s.total, best=s.best_line)
            if tied and s.total == top
            else _("Seat {seat}: {total}").format(seat=s.seat, total=s.total)
            for s in view.seats
        ]
        if len(view.winners) == 1:
            head = _("Seat {seat} wins!").format(seat=view.winners[0])
        else:
            head = _("Shared win: seats {seats}").format(
                seats=", ".join(str(s) for s in view.winners)
            )
        why = WHY_WON[view.decided_by]
        return (
            Line(head, Role.HEADLINE),
            *((Line(_(why)),) if why else ()),
            *_items(seats),
        )

    @page.register
    def _confirm(self, view: views.ConfirmView) -> Page:
        question = self._(QUESTIONS[view.question]).format(round=view.round)
        return Page(self.title(view), (Line(question),), form=Form.MESSAGE)

    @page.register
    def _about(self, view: views.AboutView) -> Page:
        _ = self._
        code = self.seed(view.seed) if view.seed else _("The deal code shows when the game ends.")
        edges = _("Solo tiers include both ends: in {city}, {top} is tier 1, {next} tier 2.")
        edge = edges.format(
            city=self.city(view.city), top=view.first_tier_top, next=view.first_tier_top + 1
        )
        lines = [f"nsdevice {view.version}", _("A card deck for Next Station."), code]
        return Page(
            self.title(view),
            (*_items(lines), Line(edge, Role.NOTE)),
            form=Form.MESSAGE,
        )

    @page.register
    def _history(self, view: views.HistoryView) -> Page:
        _ = self._
        if view.section == "games":
            head = _("{city}: last games").format(city=self.city(view.city))
            lines = [Line(head, Role.HEADING), *_items([self.played(g) for g in view.games])]
        elif view.section == "bests":
            lines = [Line(_("Solo bests, by modules played"), Role.HEADING)]
            lines += _items([self.best(b) for b in view.bests])
        elif view.section == "daily":
            streak = _("Daily deals in a row: {days}").format(days=view.streak)
            played = _("Days with a daily deal: {days}").format(days=view.days_played)
            lines = [Line(streak, Role.HEADLINE), Line(played, Role.NOTE)]
            if view.bests:
                lines.append(Line(_("Best daily score"), Role.HEADING))
                lines += _items(
                    [
                        self.labelled(self.city(b.city), f"{b.adjusted} · {b.played_on}")
                        for b in view.bests
                    ]
                )
        else:
            lines = [Line(_("No finished games yet."))]
        return Page(self.title(view), tuple(lines))

    def played(self, game: views.PlayedGame) -> str:
        """One finished game on a line: when, who, and its score or winner."""
        _ = self._
        if game.players == 1:
            text = _("{date} · Solo · {points} · tier {tier}").format(
                date=game.played_on, points=game.adjusted, tier=game.tier
            )
        elif len(game.winners) == 1:
            text = _("{date} · {count} players · seat {seat} won with {points}").format(
                date=game.played_on,
                count=game.players,
                seat=game.winners[0],
                points=game.totals[game.winners[0] - 1],
            )
        else:
            text = _("{date} · {count} players · shared win: seats {seats}").format(
                date=game.played_on,
                count=game.players,
                seats=",\u00a0".join(str(seat) for seat in game.winners),  # kept on one line
            )
        daily = _("daily deal")
        return f"{text} · {daily}" if game.daily else text

    def best(self, best: views.BestScore) -> str:
        """A solo best: the city, the module set it was played with, the score."""
        modules = " + ".join(self.module(m) for m in best.modules) or self._("no modules")
        return self.labelled(f"{self.city(best.city)} · {modules}", best.adjusted)

    @page.register
    def _notice(self, view: views.NoticeView) -> Page:
        lines = [Line(self._(NOTICES[view.notice]))]
        if view.detail:
            lines.append(Line(view.detail, Role.DETAIL))
        return Page(self.title(view), tuple(lines), form=Form.MESSAGE)

    @page.register
    def _phones(self, view: views.PhonesView) -> Page:
        _ = self._
        lines = (
            Line(_("Scan the code to see the table on your phone.")),
            *(Line(address, Role.DETAIL) for address in view.addresses),
            Line(_("Join code: {code}").format(code=view.code), Role.HEADLINE),
        )
        return Page(self.title(view), lines)

    @page.register
    def _shutdown(self, view: views.ShutdownView) -> Page:
        line = Line(self._("Unplug when the screen goes dark."))
        return Page(self.title(view), (line,), form=Form.MESSAGE)

    @page.register
    def _hwtest(self, view: views.HardwareTestView) -> Page:
        _ = self._
        if view.step == "pattern":
            lines = [_("Sharp text and four colour bars?"), _("Press any button to go on.")]
        elif view.step == "press":
            lines = [_("Press {button} now.").format(button=self.button(view.button or "next"))]
        elif view.step == "led":
            colour = _(LED_COLOURS[view.led or "red"])
            lines = [_("The light should be {colour}.").format(colour=colour)]
        else:
            lines = [_("All buttons answered.") if not view.failed else _("Some buttons failed.")]
        if view.passed:
            names = ", ".join(self.button(b) for b in view.passed)
            lines.append(_("Working: {buttons}").format(buttons=names))
        if view.failed:
            names = ", ".join(self.button(b) for b in view.failed)
            lines.append(_("No answer: {buttons}").format(buttons=names))
        return Page(self.title(view), tuple(_items(lines)), form=Form.MESSAGE)
