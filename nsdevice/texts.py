"""Every word the box shows, in the player's language.

All text is this project's own. Views carry keys; this module turns them into
sentences through gettext, so translators work on ordinary catalogs
(`nsdevice/locale/*/LC_MESSAGES/nsdevice.po`). Each `_()` literal below is a msgid.
"""

from __future__ import annotations

from dataclasses import dataclass

from nsdevice import views
from nsdevice.locale import translations
from nsdevice.rules.cards import Kind, StationCard

LANGUAGE_NAMES = {  # each language names itself, so it can be found from any other
    "en": "English",
    "es": "Español",
    "de": "Deutsch",
    "it": "Italiano",
    "fr": "Français",
}


@dataclass(frozen=True, slots=True)
class Page:
    """A screen's words, for screens laid out as a title and lines of text."""

    title: str
    lines: tuple[str, ...] = ()
    emphasis: tuple[int, ...] = ()  # indexes of lines to draw highlighted (a list's cursor)


class Words:
    """The wording for one language. Cheap to build; catalogs are cached."""

    def __init__(self, language: str) -> None:
        self.language = language
        self._ = translations(language).gettext

    # --- game vocabulary -------------------------------------------------------------------
    def city(self, name: str) -> str:
        _ = self._
        return {"tokyo": _("Tokyo"), "paris": _("Paris"), "london": _("London")}[name]

    def symbol(self, name: str | None) -> str:
        _ = self._
        return {
            "square": _("Square"),
            "circle": _("Circle"),
            "triangle": _("Triangle"),
            "pentagon": _("Pentagon"),
            None: "",
        }[name]

    def special(self, name: str | None) -> str:
        _ = self._
        return {
            "joker": _("Joker"),
            "switch": _("Switch"),
            "free_entry": _("Free entry"),
            None: "",
        }[name]

    def face(self, card: StationCard) -> str:
        if card.symbol is not None:
            return self.symbol(card.symbol.value)
        return self.special(card.special.value if card.special else None)

    def kind(self, kind: Kind | str, city: str) -> str:
        _ = self._
        if Kind(kind) is Kind.STREET:
            return _("Street")
        return _("Metro") if city == "paris" else _("Underground")

    def colour(self, name: str) -> str:
        _ = self._
        return {
            "purple": _("Purple"),
            "blue": _("Blue"),
            "pink": _("Pink"),
            "brown": _("Brown"),
            "orange": _("Orange"),
            "green": _("Green"),
        }[name]

    def effect(self, name: str) -> str:
        """T-SP-4: the special-station effects."""
        _ = self._
        return {
            "switch": _("Switch"),
            "joker_double_track": _("Joker + double track"),
            "extension": _("Extension"),
            "double_station": _("Double station"),
        }[name]

    def bonus(self, name: str) -> str:
        """P-CG-3: the city-gate bonuses."""
        _ = self._
        return {
            "switch_free_entry": _("Switch + free entry"),
            "double_free_entry": _("Double free entry"),
            "double_quarter": _("Double quarter"),
            "double_stop": _("Double stop"),
        }[name]

    def corner(self, name: str) -> str:
        _ = self._
        return {
            "nw": _("North-west"),
            "ne": _("North-east"),
            "sw": _("South-west"),
            "se": _("South-east"),
        }[name]

    def power(self, name: str) -> str:
        """L-PP: the pencil powers."""
        _ = self._
        return {
            "repeat": _("Repeat"),
            "joker": _("Joker"),
            "switch": _("Switch"),
            "double": _("Double"),
        }[name]

    def module(self, name: str) -> str:
        _ = self._
        return {
            "objectives": _("Objectives"),
            "special_stations": _("Special stations"),
            "city_gates": _("City gates"),
            "pencil_powers": _("Pencil powers"),
        }[name]

    def objective(self, city: str, name: str) -> str:
        """C-11: a short title for each shared objective, in our words."""
        _ = self._
        titles = {
            "tokyo": {
                "tourist_stamps": _("4 tourist stamps"),
                "big_interchange": _("A 4-line interchange"),
                "green_ring": _("The whole green ring"),
                "every_district": _("A station in each district"),
                "central_district": _("All 8 central stations"),
            },
            "paris": {
                "three_interchanges": _("3 interchanges of 3 lines"),
                "seven_quarters": _("A line through 7 quarters"),
                "six_monuments": _("6 monuments in all"),
                "two_overpasses": _("2 overpasses used twice"),
                "whole_quarter": _("A whole main quarter"),
            },
            "london": {
                "eight_interchanges": _("8 interchanges"),
                "all_districts": _("All 13 districts"),
                "tourist_sites": _("All 5 tourist sites"),
                "central_district": _("All 9 central stations"),
                "thames_crossings": _("6 Thames crossings"),
            },
        }
        return titles[city][name]

    def joker_extra(self, name: str) -> str:
        _ = self._
        return {
            "double_track": _("Any symbol, double track allowed"),
            "guided_tour": _("Any station, or one via a monument"),
            "": _("Any symbol"),
        }[name]

    def slot(self, slot: str, players: int) -> str:
        """A pencil's place: a seat, or the spare spot on the table (C-8, D-7)."""
        _ = self._
        if slot == "table":
            return _("Table, by seat {seat}").format(seat=1)
        if slot.startswith("table-"):
            return _("Table, by seat {seat}").format(seat=slot.removeprefix("table-"))
        if players == 1:
            return _("You")
        return _("Seat {seat}").format(seat=slot)

    def tier(self, tier: int) -> tuple[str, str]:
        """S-SOLO: our own title and line for each of the six tiers."""
        _ = self._
        return {
            1: (_("Still reading the map"), _("Every network starts somewhere.")),
            2: (_("Weekend rider"), _("The trains run, mostly.")),
            3: (_("Daily commuter"), _("A network people can rely on.")),
            4: (_("Line planner"), _("Smart branches, busy interchanges.")),
            5: (_("Network architect"), _("The whole city rides your lines.")),
            6: (_("Master of the metro"), _("A map for the history books.")),
        }[tier]

    def action(self, name: str) -> str:
        """The legend for one button on one screen."""
        _ = self._
        return {
            "reveal": _("Reveal"),
            "undo": _("Undo"),
            "menu": _("Menu"),
            "up": _("Up"),
            "down": _("Down"),
            "select": _("Select"),
            "start": _("Start"),
            "continue": _("Next"),
            "back": _("Back"),
            "yes": _("Yes"),
            "no": _("No"),
            "plus": _("More"),
            "minus": _("Less"),
            "done": _("Done"),
            "ok": _("OK"),
            "skip": _("Skip"),
            "scores": _("Scores"),
            "new_game": _("New game"),
            "change": _("Change"),
            "next_character": _("Next"),
        }[name]

    def button(self, name: str) -> str:
        _ = self._
        return {"next": _("NEXT"), "back": _("BACK"), "menu": _("MENU")}[name]

    def on_off(self, value: bool) -> str:
        _ = self._
        return _("On") if value else _("Off")

    # --- rows of the list screens ---------------------------------------------------------
    def row(self, row: views.Row) -> str:
        _ = self._
        labels = {
            "city": _("City"),
            "players": _("Players"),
            "objectives": _("Objectives"),
            "special_stations": _("Special stations"),
            "city_gates": _("City gates"),
            "pencil_powers": _("Pencil powers"),
            "seed": _("Deal"),
            "language": _("Language"),
            "start": _("Start the game"),
            "resume": _("Back to the game"),
            "show_setup": _("Show this game's cards"),
            "restart_round": _("Restart this round"),
            "new_game": _("New game"),
            "sound": _("Sound"),
            "brightness": _("Brightness"),
            "shutdown": _("Shut down"),
            "about": _("About"),
        }
        label = labels[row.key]
        value = self.row_value(row)
        return f"{label}: {value}" if value else label

    def row_value(self, row: views.Row) -> str:
        _ = self._
        value = row.value
        if value is None:
            return ""
        if row.key == "city":
            return self.city(value)
        if row.key == "players":
            return _("Solo") if value == "1" else value
        if row.key in ("objectives", "special_stations", "city_gates", "pencil_powers", "sound"):
            return self.on_off(value == "on")
        if row.key == "seed":
            return _("Random") if value == "random" else value
        if row.key == "language":
            return LANGUAGE_NAMES[value]
        return value

    # --- whole screens --------------------------------------------------------------------
    def title(self, view: views.View) -> str:
        _ = self._
        if isinstance(view, views.RoundStartView):
            return _("Round {number} of {rounds}").format(number=view.round, rounds=view.rounds)
        if isinstance(view, views.TurnView):
            return _("Round {number} · Turn {turn}").format(number=view.round, turn=view.turn)
        if isinstance(view, views.RoundEndView):
            return _("Round {number} is over").format(number=view.round)
        if isinstance(view, views.ScoreEntryView):
            if view.solo:
                return _("Your final score")
            if view.field == "total":
                return _("Seat {seat}: total").format(seat=view.seat)
            return _("Seat {seat}: best line").format(seat=view.seat)
        if isinstance(view, views.ResultView) and view.solo:
            return self.tier(view.tier)[0]
        return {
            "setup": _("New game"),
            "seed_entry": _("Deal code"),
            "summary": _("This game"),
            "pencil_pass": _("Pass the pencils"),
            "game_end": _("Game over"),
            "result": _("Result"),
            "menu": _("Menu"),
            "confirm": _("Are you sure?"),
            "about": _("About"),
            "notice": _("Notice"),
            "shutdown": _("Shutting down"),
            "hwtest": _("Hardware check"),
        }.get(view.screen, view.screen)

    def page(self, view: views.View) -> Page:
        """Title and lines for any screen; the graphic displays draw turn and round start
        themselves but the terminal uses this for every screen."""
        method = getattr(self, f"_page_{view.screen}")
        return method(view)

    def _list_page(self, view: views.SetupView | views.MenuView, extra: tuple[str, ...]) -> Page:
        lines = tuple(self.row(row) for row in view.rows)
        return Page(self.title(view), lines + extra, emphasis=(view.cursor,))

    def _page_setup(self, view: views.SetupView) -> Page:
        _ = self._
        extra = (_("Several card modules: one is advised"),) if view.mix_warning else ()
        return self._list_page(view, extra)

    def _page_menu(self, view: views.MenuView) -> Page:
        return self._list_page(view, ())

    def _page_seed_entry(self, view: views.SeedEntryView) -> Page:
        _ = self._
        code = "".join(c or "·" for c in view.characters)
        return Page(
            self.title(view),
            (code, _("The same code deals the same cards.")),
            emphasis=(0,),
        )

    def _page_summary(self, view: views.SummaryView) -> Page:
        _ = self._
        lines: list[str] = [
            f"{self.city(view.city)} · {self.players(view.players)}",
        ]
        if view.objectives:
            lines.append(_("Objectives, 10 points each:"))
            lines += [f"  {self.objective(view.city, o)}" for o in view.objectives]
        if view.city_gates:
            lines.append(_("City gates:"))
            lines += [f"  {self.corner(c)}: {self.bonus(b)}" for c, b in view.city_gates]
        if view.pencil_powers:
            lines.append(_("Pencil powers:"))
            lines += [f"  {self.colour(c)}: {self.power(p)}" for c, p in view.pencil_powers]
        if view.solo_order:
            lines.append(_("Pencils, in order:"))
            lines.append("  " + ", ".join(self.colour(c) for c in view.solo_order))
        if "special_stations" in view.modules:
            lines.append(_("Special stations: a new pair each round"))
        if view.mix_warning:
            lines.append(_("Several card modules: one is advised"))
        if len(lines) == 1:
            lines.append(_("No modules: the plain game."))
        return Page(self.title(view), tuple(lines))

    def players(self, players: int) -> str:
        _ = self._
        if players == 1:
            return _("Solo")
        return _("{count} players").format(count=players)

    def pencil_line(self, pencil: views.SeatPencil, players: int) -> str:
        _ = self._
        text = f"{self.slot(pencil.slot, players)}: {self.colour(pencil.colour)}"
        if pencil.start_symbol and not pencil.slot.startswith("table"):
            symbol = self.symbol(pencil.start_symbol)
            if pencil.start_unverified:  # our best reading of the rulebooks: check the map
                symbol += "?"
            text += " · " + _("start {symbol}").format(symbol=symbol)
        if pencil.power:  # L-PP: the power travels with the pencil
            text += " · " + self.power(pencil.power)
        return text

    def controller(self, seat: int) -> str:
        return self._("Seat {seat} turns the cards").format(seat=seat)

    def pairing(self, pairing: views.Pairing) -> str:
        return f"{self.symbol(pairing.symbol)} → {self.effect(pairing.effect)}"

    def _page_round_start(self, view: views.RoundStartView) -> Page:
        _ = self._
        lines = []
        if view.players > 1:
            lines.append(self.controller(view.controller))
        lines += [self.pencil_line(p, view.players) for p in view.pencils]
        if view.pairing:
            lines.append(_("Special station: {pairing}").format(pairing=self.pairing(view.pairing)))
        return Page(self.title(view), tuple(lines))

    def underground(self, seen: int, total: int, city: str) -> str:
        _ = self._
        if city == "paris":
            return _("Metro {seen}/{total}").format(seen=seen, total=total)
        return _("Underground {seen}/{total}").format(seen=seen, total=total)

    def switch_note(self, effect: bool | None) -> str:
        _ = self._
        if effect is None:
            return ""
        return _("Branch from any station") if effect else _("Switch: no effect yet")

    def paired_note(self, effect: str | None, active: bool | None) -> str:
        _ = self._
        if effect is None:
            return ""
        if active is False:
            return _("{effect}: no effect yet").format(effect=self.effect(effect))
        return _("Special: {effect}").format(effect=self.effect(effect))

    def joker_note(self, view: views.TurnView) -> str:
        """What a joker (C-6, T-3) or Paris's free entry (P-3) allows; "" for other cards.
        The city's own wording comes with the view (`joker_extra`, from its data file)."""
        card = view.cards[-1] if view.cards else None
        if card is None or card.symbol is not None:
            return ""
        return self.joker_extra(view.joker_extra)

    def last_turn(self) -> str:
        return self._("Last turn of the round")

    def _page_turn(self, view: views.TurnView) -> Page:
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
        return Page(self.title(view), tuple(lines))

    def _page_round_end(self, view: views.RoundEndView) -> Page:
        _ = self._
        lines = [_("Draw the last section of this turn."), _("Then score this round's line:")]
        lines.append(
            {
                "districts": _("districts × best district's stations"),
                "quarters": _("quarters × best quarter's stops + 2 per monument"),
                "": _("count it on your sheet"),
            }[view.line_scoring]
        )
        return Page(self.title(view), tuple(lines))

    def _page_pencil_pass(self, view: views.PencilPassView) -> Page:
        _ = self._
        if view.players == 1:
            colour = self.colour(view.solo_next or "")
            return Page(self.title(view), (_("Next pencil: {colour}").format(colour=colour),))
        lines = [_("Every pencil moves one place left.")]
        lines += [
            f"{self.colour(m.colour)}: {self.slot(m.from_slot, view.players)} → "
            f"{self.slot(m.to_slot, view.players)}"
            for m in view.moves
        ]
        lines.append(self.controller(view.next_controller))
        return Page(self.title(view), tuple(lines))

    def seed(self, code: str) -> str:
        return self._("Deal code: {code}").format(code=code)

    def _page_game_end(self, view: views.GameEndView) -> Page:
        _ = self._
        ask = _("Enter your final score.") if view.players == 1 else _("Enter scores for a winner?")
        return Page(self.title(view), (self.seed(view.seed), ask))

    def _page_score_entry(self, view: views.ScoreEntryView) -> Page:
        _ = self._
        step = _("{step} of {steps}").format(step=view.step + 1, steps=view.steps)
        return Page(self.title(view), (str(view.value), step), emphasis=(0,))

    def _page_result(self, view: views.ResultView) -> Page:
        _ = self._
        if view.solo:
            lines = [
                _("{total} points − {penalty} for modules = {adjusted}").format(
                    total=view.total, penalty=view.penalty, adjusted=view.adjusted
                ),
                self.tier(view.tier)[1],
                _("Tier {tier} of 6").format(tier=view.tier),
            ]
            if view.new_best:
                lines.append(_("New best in {city}!").format(city=self.city(view.city)))
            elif view.personal_best is not None:
                lines.append(
                    _("Best in {city}: {points}").format(
                        city=self.city(view.city), points=view.personal_best
                    )
                )
            lines.append(self.seed(view.seed))
            return Page(self.title(view), tuple(lines), emphasis=(2,))
        return Page(self.title(view), (*self.winner_lines(view), self.seed(view.seed)))

    def winner_lines(self, view: views.ResultView) -> tuple[str, ...]:
        _ = self._
        if not view.seats:
            return (_("Scores not entered."),)
        seats = [
            _("Seat {seat}: {total} ({best})").format(seat=s.seat, total=s.total, best=s.best_line)
            for s in view.seats
        ]
        if len(view.winners) == 1:
            head = _("Seat {seat} wins!").format(seat=view.winners[0])
        else:
            head = _("Shared win: seats {seats}").format(
                seats=", ".join(str(s) for s in view.winners)
            )
        why = {
            "total": "",
            "best_line": _("Tie broken by the best line"),
            "shared": _("Same total and same best line"),
        }[view.decided_by]
        return (head, *((why,) if why else ()), *seats)

    def _page_confirm(self, view: views.ConfirmView) -> Page:
        _ = self._
        question = {
            "back_to_round": _("Go back into round {round}?"),
            "restart_round": _("Start round {round} again with the same cards?"),
            "new_game": _("Leave this game and set up a new one?"),
            "shutdown": _("Shut the box down now?"),
        }[view.question].format(round=view.round)
        return Page(self.title(view), (question,))

    def _page_about(self, view: views.AboutView) -> Page:
        _ = self._
        code = self.seed(view.seed) if view.seed else _("The deal code shows when the game ends.")
        return Page(
            self.title(view),
            (f"nsdevice {view.version}", _("A card deck for Next Station."), code),
        )

    def _page_notice(self, view: views.NoticeView) -> Page:
        _ = self._
        text = {
            "store_damaged": _("The saved game could not be read. It was set aside."),
            "store_unwritable": _("Games cannot be saved here; playing without saving."),
            "store_full": _(
                "Cannot save: the card is full. Play goes on, but a power cut would lose it."
            ),
            "store_read_only": _(
                "Cannot save: the card is read-only. Play goes on, but a power cut would lose it."
            ),
            "store_rewound": _(
                "The newest save was damaged: the game goes on from an earlier step."
            ),
            "display_fallback": _("No screen found; showing text instead."),
            "input_fallback": _("Buttons not found; using the keyboard."),
        }[view.notice]
        lines = [text] + ([view.detail] if view.detail else [])
        return Page(self.title(view), tuple(lines))

    def _page_shutdown(self, view: views.ShutdownView) -> Page:
        return Page(self.title(view), (self._("Unplug when the screen goes dark."),))

    def _page_hwtest(self, view: views.HardwareTestView) -> Page:
        _ = self._
        if view.step == "pattern":
            lines = [_("Sharp text and four colour bars?"), _("Press any button to go on.")]
        elif view.step == "press":
            lines = [_("Press {button} now.").format(button=self.button(view.button or "next"))]
        elif view.step == "led":
            colour = {"red": _("red"), "green": _("green"), "blue": _("blue")}[view.led or "red"]
            lines = [_("The light should be {colour}.").format(colour=colour)]
        else:
            lines = [_("All buttons answered.") if not view.failed else _("Some buttons failed.")]
        if view.passed:
            names = ", ".join(self.button(b) for b in view.passed)
            lines.append(_("Working: {buttons}").format(buttons=names))
        if view.failed:
            names = ", ".join(self.button(b) for b in view.failed)
            lines.append(_("No answer: {buttons}").format(buttons=names))
        return Page(self.title(view), tuple(lines))
