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
    Pages,
    Role,
    items,
    page_for,
    title_for,
)
from nsdevice.texts.pages.room import pass_note, room_join, room_rows, room_size

LINE_SCORING = {  # how each city scores a round's line (S-T, S-P; London: on the sheet)
    # the line's busiest district (quarter): the sheet's field says it so (SHEET_COUNTS)
    "districts": N_("districts × busiest district's stations"),
    "quarters": N_("quarters × busiest quarter's stops + 2 per monument"),
    "": N_("count it on your sheet"),
}


@title_for(views.RoundStartView)
def _round_start_title(words: Pages, view: views.RoundStartView) -> str:
    return words._("Round {number} of {rounds}").format(number=view.round, rounds=view.rounds)


@title_for(views.TurnView)
def _turn_title(words: Pages, view: views.TurnView) -> str:
    return words._("Round {number} · Turn {turn}").format(number=view.round, turn=view.turn)


@title_for(views.RoundEndView)
def _round_end_title(words: Pages, view: views.RoundEndView) -> str:
    return words._("Round {number} is over").format(number=view.round)


@title_for(views.PencilPassView)
def _pencil_pass_title(words: Pages, view: views.PencilPassView) -> str:
    if view.players == 1:  # nobody to pass to: the player takes up the next one
        return words._("Your next pencil")
    return words._(words.titles[views.PencilPassView])


@page_for(
    views.SummaryView, title=N_("This game"), row=("show_setup", N_("Show this game's cards"))
)
def _summary(words: Pages, view: views.SummaryView) -> Page:
    _ = words._
    players = words._("Room") if view.room else words.players(view.players)
    lines = [Line(f"{words.city(view.city)} · {players}")]
    if view.room:
        lines += room_join(words, view.room)
    if view.objectives:
        lines.append(Line(_("Objectives, 10 points each:"), Role.HEADING))
        lines += items([f"  {words.objective(view.city, o)}" for o in view.objectives])
    if view.city_gates:
        lines.append(Line(_("City gates:"), Role.HEADING))
        gates = view.city_gates
        lines += items(["  " + words.labelled(words.corner(c), words.bonus(b)) for c, b in gates])
    if view.pencil_powers:
        lines.append(Line(_("Pencil powers:"), Role.HEADING))
        powers = view.pencil_powers
        lines += items(["  " + words.labelled(words.colour(c), words.power(p)) for c, p in powers])
    if view.solo_order:
        lines.append(Line(_("Pencils, in order:"), Role.HEADING))
        lines.append(Line("  " + ", ".join(words.colour(c) for c in view.solo_order)))
    if "special_stations" in view.modules:
        lines.append(Line(_("Special stations: a new pair each round")))
    if view.mix_warning:
        lines.append(Line(_("Several card modules: one is advised"), Role.WARNING))
    if len(lines) == 1 or (view.room and not view.modules):
        lines.append(Line(_("No modules: the plain game.")))
    return Page(words.title(view), tuple(lines), form=Form.COLUMNS)


@page_for(views.RoundStartView)
def _round_start(words: Pages, view: views.RoundStartView) -> Page:
    lines = []
    if view.players > 1 and view.controller:  # none in a room: each table keeps its own (C-10)
        lines.append(Line(words.controller(view.controller), Role.CONTROLLER))
    lines += items([words.pencil_line(p, view.players) for p in view.pencils], Role.PENCIL)
    if view.room:
        lines += room_rows(words, view.room)
    if view.pairing:
        pairing = words._("Special station: {pairing}").format(pairing=words.pairing(view.pairing))
        lines.append(Line(pairing))
    return Page(words.title(view), tuple(lines))


@page_for(views.TurnView)
def _turn(words: Pages, view: views.TurnView) -> Page:
    lines = [
        " + ".join(f"{words.kind(c.kind, view.city)} {words.face(c)}" for c in view.cards),
        words.underground(view.underground_seen, view.underground_total, view.city),
    ]
    for note in (
        words.joker_note(view),
        words.switch_note(view.switch_effect),
        words.paired_note(view.paired_effect, view.paired_effect_active),
    ):
        if note:
            lines.append(note)
    if view.last:
        lines.append(words.last_turn())
    if view.earlier:
        faces = ", ".join(words.face(t.cards[-1]) for t in view.earlier)
        lines.append(words._("Before: {cards}").format(cards=faces))
    return Page(words.title(view), tuple(items(lines)))


@title_for(views.RoundSoFarView)
def _round_so_far_title(words: Pages, view: views.RoundSoFarView) -> str:
    return words._("Round {number} so far").format(number=view.round)


@page_for(views.RoundSoFarView, row=("round_so_far", N_("This round so far")))
def _round_so_far(words: Pages, view: views.RoundSoFarView) -> Page:
    _ = words._
    if not view.turns:
        line = Line(_("No card revealed yet this round."))
        return Page(words.title(view), (line,), form=Form.MESSAGE)
    seen = words.underground(view.underground_seen, view.underground_total, view.city)
    lines = [Line(seen, Role.NOTE)]
    for turn in view.turns:
        cards = " + ".join(f"{words.kind(c.kind, view.city)} {words.face(c)}" for c in turn.cards)
        lines.append(Line(_("Turn {turn}: {cards}").format(turn=turn.number, cards=cards)))
    return Page(words.title(view), tuple(lines), form=Form.COLUMNS)


@page_for(views.DeckView, title=N_("Left in the deck"), row=("deck", N_("Left in the deck")))
def _deck(words: Pages, view: views.DeckView) -> Page:
    """Each kind's cards still to come, underground first: it ends the round (C-4)."""
    seen = words.underground(view.underground_seen, view.underground_total, view.city)
    lines = [Line(seen, Role.NOTE)]
    for kind in (Kind.UNDERGROUND, Kind.STREET):
        faces = [words.face(card) for card in view.remaining if card.kind is kind]
        lines.append(Line(words.labelled(words.kind(kind, view.city), ", ".join(faces) or "—")))
    return Page(words.title(view), tuple(lines))


@page_for(
    views.PencilsView,
    title=N_("Pencils this round"),
    row=("pencils", N_("Pencils this round")),
)
def _pencils(words: Pages, view: views.PencilsView) -> Page:
    lines = []
    if view.players > 1 and view.controller:  # none in a room: each table keeps its own (C-10)
        lines.append(Line(words.controller(view.controller), Role.CONTROLLER))
    lines += items([words.pencil_line(p, view.players) for p in view.pencils], Role.PENCIL)
    for size, row in enumerate(view.rows, start=1):  # a room's: the seats' colours, in order
        colours = ", ".join(words.colour(p.colour) for p in row if not p.slot.startswith("table"))
        lines.append(Line(words.labelled(room_size(words, size), colours), Role.PENCIL))
    return Page(words.title(view), tuple(lines), form=Form.COLUMNS)


@page_for(views.RoundEndView)
def _round_end(words: Pages, view: views.RoundEndView) -> Page:
    _ = words._
    lines = items([_("Draw the last section of this turn."), _("Then score this round's line:")])
    lines.append(Line(_(LINE_SCORING[view.line_scoring]), Role.FORMULA))
    lines += items(  # the lines entered so far, seat by seat ("You" alone)
        tuple(
            words.labelled(words.slot(str(seat), 1 if view.solo else 2), total)
            for seat, total in enumerate(view.running, start=1)
            if total is not None
        )
    )
    if view.lines and view.solo:
        lines.append(Line(_("Hold NEXT: enter this round's line"), Role.BUTTONS))
    elif view.lines:
        lines.append(Line(_("Hold NEXT: enter each seat's line"), Role.BUTTONS))
    return Page(words.title(view), tuple(lines), form=Form.MESSAGE)


@page_for(views.PencilPassView, title=N_("Pass the pencils"))
def _pencil_pass(words: Pages, view: views.PencilPassView) -> Page:
    _ = words._
    if view.room:  # every table passes its own; each size's next pencils
        lines = [Line(pass_note(words), Role.NOTE)]
        return Page(words.title(view), (*lines, *room_rows(words, view.room)))
    if view.players == 1:  # solo: the next pencil in the row
        colour = words.colour(view.solo_next or "")
        line = Line(_("Round {number}: {colour}").format(number=view.round, colour=colour))
        return Page(words.title(view), (line,))
    lines = [Line(_("Every pencil moves one place left."), Role.NOTE)]
    lines += items(
        [
            words.labelled(
                words.colour(m.colour),
                f"{words.slot(m.from_slot, view.players)} → {words.slot(m.to_slot, view.players)}",
            )
            for m in view.moves
        ],
        Role.PENCIL,
    )
    lines.append(Line(words.controller(view.next_controller), Role.CONTROLLER))
    return Page(words.title(view), tuple(lines))


@page_for(views.GameEndView, title=N_("Game over"))
def _game_end(words: Pages, view: views.GameEndView) -> Page:
    _ = words._
    ask = (
        _("Enter your final score.")
        if view.players == 1
        else _("Enter each seat's score to see who wins.")
    )
    lines = items([words.seed(view.seed), ask])
    if view.sheet:
        lines.append(Line(_("Hold NEXT: add it up on the score sheet"), Role.BUTTONS))
    return Page(words.title(view), tuple(lines), form=Form.MESSAGE)
