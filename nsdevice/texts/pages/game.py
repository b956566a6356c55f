"""The game's pages: the summary, a round's start, the turns, a round's end, the pencils
passed on, and the game's end."""

from __future__ import annotations

from nsdevice import views
from nsdevice.locale import N_
from nsdevice.rules.cards import Kind
from nsdevice.texts.pages.base import (
    Form,
    Line,
    Page,
    Role,
    items,
    register_page,
    register_title,
)
from nsdevice.texts.pages.room import RoomPages

TITLES: dict[type[views.View], str] = {
    views.SummaryView: N_("This game"),
    views.PencilPassView: N_("Pass the pencils"),
    views.GameEndView: N_("Game over"),
    views.DeckView: N_("Left in the deck"),
}
LINE_SCORING = {  # how each city scores a round's line (S-T, S-P; London: on the sheet)
    "districts": N_("districts × best district's stations"),
    "quarters": N_("quarters × best quarter's stops + 2 per monument"),
    "": N_("count it on your sheet"),
}


class GamePages(RoomPages):
    """The words of the game's own screens."""

    @register_title
    def _round_start_title(self, view: views.RoundStartView) -> str:
        return self._("Round {number} of {rounds}").format(number=view.round, rounds=view.rounds)

    @register_title
    def _turn_title(self, view: views.TurnView) -> str:
        return self._("Round {number} · Turn {turn}").format(number=view.round, turn=view.turn)

    @register_title
    def _round_end_title(self, view: views.RoundEndView) -> str:
        return self._("Round {number} is over").format(number=view.round)

    @register_title
    def _pencil_pass_title(self, view: views.PencilPassView) -> str:
        if view.players == 1:  # nobody to pass to: the player takes up the next one
            return self._("Your next pencil")
        return self._(TITLES[views.PencilPassView])

    @register_page
    def _summary(self, view: views.SummaryView) -> Page:
        _ = self._
        players = self._("Room") if view.room else self.players(view.players)
        lines = [Line(f"{self.city(view.city)} · {players}")]
        if view.room:
            lines += self.room_join(view.room)
        if view.objectives:
            lines.append(Line(_("Objectives, 10 points each:"), Role.HEADING))
            lines += items([f"  {self.objective(view.city, o)}" for o in view.objectives])
        if view.city_gates:
            lines.append(Line(_("City gates:"), Role.HEADING))
            gates = view.city_gates
            lines += items(["  " + self.labelled(self.corner(c), self.bonus(b)) for c, b in gates])
        if view.pencil_powers:
            lines.append(Line(_("Pencil powers:"), Role.HEADING))
            powers = view.pencil_powers
            lines += items(["  " + self.labelled(self.colour(c), self.power(p)) for c, p in powers])
        if view.solo_order:
            lines.append(Line(_("Pencils, in order:"), Role.HEADING))
            lines.append(Line("  " + ", ".join(self.colour(c) for c in view.solo_order)))
        if "special_stations" in view.modules:
            lines.append(Line(_("Special stations: a new pair each round")))
        if view.mix_warning:
            lines.append(Line(_("Several card modules: one is advised"), Role.WARNING))
        if len(lines) == 1 or (view.room and not view.modules):
            lines.append(Line(_("No modules: the plain game.")))
        return Page(self.title(view), tuple(lines), form=Form.COLUMNS)

    @register_page
    def _round_start(self, view: views.RoundStartView) -> Page:
        lines = []
        if view.players > 1 and view.controller:  # none in a room: each table keeps its own (C-10)
            lines.append(Line(self.controller(view.controller), Role.CONTROLLER))
        lines += items([self.pencil_line(p, view.players) for p in view.pencils], Role.PENCIL)
        if view.room:
            lines += self.room_rows(view.room)
        if view.pairing:
            pairing = self._("Special station: {pairing}").format(
                pairing=self.pairing(view.pairing)
            )
            lines.append(Line(pairing))
        return Page(self.title(view), tuple(lines))

    @register_page
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
        return Page(self.title(view), tuple(items(lines)))

    @register_title
    def _round_so_far_title(self, view: views.RoundSoFarView) -> str:
        return self._("Round {number} so far").format(number=view.round)

    @register_page
    def _round_so_far(self, view: views.RoundSoFarView) -> Page:
        _ = self._
        if not view.turns:
            line = Line(_("No card revealed yet this round."))
            return Page(self.title(view), (line,), form=Form.MESSAGE)
        seen = self.underground(view.underground_seen, view.underground_total, view.city)
        lines = [Line(seen, Role.NOTE)]
        for turn in view.turns:
            cards = " + ".join(f"{self.kind(c.kind, view.city)} {self.face(c)}" for c in turn.cards)
            lines.append(Line(_("Turn {turn}: {cards}").format(turn=turn.number, cards=cards)))
        return Page(self.title(view), tuple(lines), form=Form.COLUMNS)

    @register_page
    def _deck(self, view: views.DeckView) -> Page:
        """Each kind's cards still to come, underground first: it ends the round (C-4)."""
        seen = self.underground(view.underground_seen, view.underground_total, view.city)
        lines = [Line(seen, Role.NOTE)]
        for kind in (Kind.UNDERGROUND, Kind.STREET):
            faces = [self.face(card) for card in view.remaining if card.kind is kind]
            lines.append(Line(self.labelled(self.kind(kind, view.city), ", ".join(faces) or "—")))
        return Page(self.title(view), tuple(lines))

    @register_page
    def _round_end(self, view: views.RoundEndView) -> Page:
        _ = self._
        lines = items(
            [_("Draw the last section of this turn."), _("Then score this round's line:")]
        )
        lines.append(Line(_(LINE_SCORING[view.line_scoring]), Role.FORMULA))
        return Page(self.title(view), tuple(lines), form=Form.MESSAGE)

    @register_page
    def _pencil_pass(self, view: views.PencilPassView) -> Page:
        _ = self._
        if view.room:  # every table passes its own; each size's next pencils
            lines = [Line(self.pass_note(), Role.NOTE)]
            return Page(self.title(view), (*lines, *self.room_rows(view.room)))
        if view.players == 1:  # solo: the next pencil in the row
            colour = self.colour(view.solo_next or "")
            line = Line(_("Round {number}: {colour}").format(number=view.round, colour=colour))
            return Page(self.title(view), (line,))
        lines = [Line(_("Every pencil moves one place left."), Role.NOTE)]
        lines += items(
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

    @register_page
    def _game_end(self, view: views.GameEndView) -> Page:
        _ = self._
        ask = _("Enter your final score.") if view.players == 1 else _("Enter scores for a winner?")
        lines = items([self.seed(view.seed), ask])
        if view.sheet:
            lines.append(Line(_("Hold NEXT: add it up on the score sheet"), Role.BUTTONS))
        return Page(self.title(view), tuple(lines), form=Form.MESSAGE)
