"""What the box says for a view: a pure function of the view, as a few short phrases.

Each phrase has an id (`symbol.triangle`, `count.3.5`) and, in each language, one text:
the clip `tools/voice.py` renders. A view is said as a row of phrases ("Triangle ·
Underground · 3 of 5"), so a handful of clips per language covers every card, count and
round: nothing is synthesised at the table. `CATALOGUE` lists every phrase the box can
say; a test plays whole games to prove `say` never leaves it.

The words are this project's, through the catalogs: the game's own words come from
`nsdevice.texts` (the screen's word for a symbol is the voice's word), the few spoken-only
lines are marked `N_` here. Speech is terse on purpose: a reveal is over in about two
seconds, well before the next card.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from nsdevice import views
from nsdevice.locale import N_, translations
from nsdevice.rules.cards import Kind
from nsdevice.rules.cities import CityName
from nsdevice.rules.frozen import dataclass
from nsdevice.texts import Words, words
from nsdevice.texts.vocabulary import (
    BONUSES,
    COLOURS,
    CORNERS,
    EFFECTS,
    JOKER_EXTRAS,
    POWERS,
    SPECIALS,
    SYMBOLS,
    TIERS,
)

ROUNDS = 4  # C-1
SEATS = 4  # C-1
UNDERGROUND_CARDS = 5  # C-4: a round ends on its fifth underground card
SEAT_SLOTS = ("you", "1", "2", "3", "4")  # C-8: "you" is the solo player's own pencil

# Spoken-only lines (the screen says these its own way)
COUNT = N_("{seen} of {total}")
NO_EFFECT = N_("No effect yet")
POWER = N_("Power: {power}")
PASS_PENCILS = N_("Pass the pencils")
NEXT_PENCIL = N_("Next pencil")
CITY_GATES = N_("City gates")
BOTH = N_("{first} and {second}")  # the screen's "+" between two effects, said aloud

# One phrase's text in one language, from the words of that language and its gettext.
Wording = Callable[[Words, Callable[[str], str]], str]


@dataclass(frozen=True, slots=True)
class Phrase:
    id: str
    text: str


def _phrase(build: Callable[..., str], *values: object) -> Wording:
    """A phrase worded by `build(words, gettext, *values)` (one table entry)."""
    return lambda w, _: build(w, _, *values)


def _catalogue() -> dict[str, Wording]:
    """Every phrase id the box can say, and how each is worded in a language."""
    t: dict[str, Wording] = {}
    for symbol in SYMBOLS:
        t[f"symbol.{symbol}"] = _phrase(lambda w, _, s: w.symbol(s), symbol)
    for special in SPECIALS:
        t[f"special.{special}"] = _phrase(lambda w, _, s: w.special(s), special)
    t["kind.street"] = _phrase(lambda w, _: w.kind(Kind.STREET, "tokyo"))
    for city in CityName:  # each city's own word for its underground cards
        t[f"kind.underground.{city.value}"] = _phrase(
            lambda w, _, c: w.kind(Kind.UNDERGROUND, c), city.value
        )
    for seen in range(UNDERGROUND_CARDS + 1):
        t[f"count.{seen}.{UNDERGROUND_CARDS}"] = _phrase(
            lambda w, _, n: _(COUNT).format(seen=n, total=UNDERGROUND_CARDS), seen
        )
    t["last_turn"] = _phrase(lambda w, _: w.last_turn())
    t["switch.branch"] = _phrase(lambda w, _: w.switch_note(True))
    t["switch.no_effect"] = _phrase(lambda w, _: _(NO_EFFECT))
    for extra in JOKER_EXTRAS:
        t[f"joker.{extra or 'any'}"] = _phrase(lambda w, _, e: w.joker_extra(e), extra)
    for effect in EFFECTS:
        t[f"paired.{effect}"] = _phrase(lambda w, _, e: w.paired_note(e, True), effect)
        t[f"paired.{effect}.waiting"] = _phrase(lambda w, _, e: w.paired_note(e, False), effect)
        for symbol in SYMBOLS:  # T-SP-2: the round's pairing, said at its start
            t[f"pairing.{symbol}.{effect}"] = _phrase(
                lambda w, _, s, e: _("Special station: {pairing}").format(
                    pairing=f"{w.symbol(s)}, {w.effect(e)}"
                ),
                symbol,
                effect,
            )
    for number in range(1, ROUNDS + 1):
        t[f"round.{number}.{ROUNDS}"] = _phrase(
            lambda w, _, n: _("Round {number} of {rounds}").format(number=n, rounds=ROUNDS),
            number,
        )
        t[f"round_end.{number}"] = _phrase(
            lambda w, _, n: _("Round {number} is over").format(number=n), number
        )
    for seat in range(1, SEATS + 1):
        t[f"controller.{seat}"] = _phrase(lambda w, _, s: w.controller(s), seat)
        t[f"winner.{seat}"] = _phrase(lambda w, _, s: _("Seat {seat} wins!").format(seat=s), seat)
    for size in range(2, SEATS + 1):  # C-12: a shared win names its seats
        for seats in combinations(range(1, SEATS + 1), size):
            t["shared." + "-".join(map(str, seats))] = _phrase(
                lambda w, _, s: _("Shared win: seats {seats}").format(seats=", ".join(s)),
                tuple(map(str, seats)),
            )
    for colour in COLOURS:
        t[f"colour.{colour}"] = _phrase(lambda w, _, c: w.colour(c), colour)
        for slot in SEAT_SLOTS:  # a seat and its pencil in one breath: "Seat 2, Pink"
            t[f"pencil.{slot}.{colour}"] = _phrase(
                lambda w, _, s, c: (
                    f"{w.slot('1', 1) if s == 'you' else w.slot(s, 2)}, {w.colour(c)}"
                ),
                slot,
                colour,
            )
    for power in POWERS:  # L-PP: the power travels with the pencil
        t[f"power.{power}"] = _phrase(lambda w, _, p: _(POWER).format(power=w.power(p)), power)
    t["pass_pencils"] = _phrase(lambda w, _: _(PASS_PENCILS))
    t["next_pencil"] = _phrase(lambda w, _: _(NEXT_PENCIL))
    t["city_gates"] = _phrase(lambda w, _: _(CITY_GATES))
    for corner in CORNERS:  # P-CG-1: each corner's bonus, for the whole game
        for bonus in BONUSES:
            t[f"gate.{corner}.{bonus}"] = _phrase(
                lambda w, _, c, b: w.labelled(w.corner(c), w.bonus(b)), corner, bonus
            )
    t["pencil_powers"] = _phrase(lambda w, _: w.module("pencil_powers"))
    t["game_over"] = _phrase(lambda w, _: _("Game over"))
    for tier in TIERS:  # S-SOLO: the tier's number, then its title
        t[f"tier.{tier}"] = _phrase(lambda w, _, n: _("Tier {tier} of 6").format(tier=n), tier)
        t[f"tier_title.{tier}"] = _phrase(lambda w, _, n: w.tier(n)[0], tier)
    return t


CATALOGUE: dict[str, Wording] = _catalogue()


def phrase_text(phrase_id: str, language: str) -> str:
    """The words of one phrase in `language` (KeyError: an id the catalogue lacks)."""
    gettext = translations(language).gettext
    return _said(CATALOGUE[phrase_id](words(language), gettext), gettext)


def _said(text: str, gettext: Callable[[str], str]) -> str:
    """`text` as it is said: the screen's "Joker + double track" is "Joker and double
    track" aloud (a voice reads "+" as "plus")."""
    first, *rest = text.split(" + ")
    for second in rest:
        first = gettext(BOTH).format(first=first, second=second)
    return first


def say(view: views.View) -> tuple[Phrase, ...]:
    """What the box says when `view` appears, in the view's language; () for silence."""
    return tuple(Phrase(i, phrase_text(i, view.language)) for i in phrase_ids(view))


def phrase_ids(view: views.View) -> tuple[str, ...]:
    """The phrases said for `view`, in order; () for a screen that says nothing."""
    match view:
        case views.TurnView():
            return _turn(view)
        case views.RoundStartView():
            return _round_start(view)
        case views.RoundEndView():
            return (f"round_end.{view.round}",)
        case views.PencilPassView():
            if view.players == 1:
                return ("next_pencil", f"colour.{view.solo_next}") if view.solo_next else ()
            # a room: every table passes its own and keeps its own controller (C-10); the
            # phones' copy of the view leaves the room part at home, but names none either
            if view.room or not view.next_controller:
                return ("pass_pencils",)
            return ("pass_pencils", f"controller.{view.next_controller}")
        case views.SummaryView():
            return _reminders(view)
        case views.GameEndView() | views.RoomResultsView():  # said once: sheets come in
            return ("game_over",)
        case views.ResultView():
            return _result(view)
    return ()


def _turn(view: views.TurnView) -> tuple[str, ...]:
    if not view.cards:
        return ()
    said: list[str] = []
    if len(view.cards) > 1:  # C-5: the switch, then the card revealed with it
        said += [
            "special.switch",
            "switch.no_effect" if view.switch_effect is False else "switch.branch",
        ]
    card = view.cards[-1]
    if card.symbol is not None:
        said.append(f"symbol.{card.symbol.value}")
    elif card.special is not None:
        said.append(f"special.{card.special.value}")
    kind = "street" if card.kind is Kind.STREET else f"underground.{view.city}"
    said += [f"kind.{kind}", f"count.{view.underground_seen}.{view.underground_total}"]
    if card.symbol is None and card.special is not None and card.special.value != "switch":
        said.append(f"joker.{view.joker_extra or 'any'}")  # C-6, T-3, P-3
    if card.special is not None and card.special.value == "switch" and len(view.cards) == 1:
        said.append("switch.no_effect" if view.switch_effect is False else "switch.branch")
    if view.paired_effect is not None:  # T-SP-3 (D-10: not yet on turns 1–2)
        waiting = ".waiting" if view.paired_effect_active is False else ""
        said.append(f"paired.{view.paired_effect}{waiting}")
    if view.last:  # C-4
        said.append("last_turn")
    return tuple(said)


def _round_start(view: views.RoundStartView) -> tuple[str, ...]:
    said = [f"round.{view.round}.{view.rounds}"]
    if view.players > 1 and view.controller:  # a room's tables keep their own (C-10)
        said.append(f"controller.{view.controller}")
    for pencil in view.pencils:
        if pencil.slot.startswith("table"):
            continue  # the table's spare pencil (C-8): on the screen, not worth the breath
        slot = "you" if view.players == 1 else pencil.slot
        said.append(f"pencil.{slot}.{pencil.colour}")
        if pencil.power:  # L-PP: the power travels with the pencil
            said.append(f"power.{pencil.power}")
    if view.pairing is not None:  # T-SP-2
        said.append(f"pairing.{view.pairing.symbol}.{view.pairing.effect}")
    return tuple(said)


def _reminders(view: views.SummaryView) -> tuple[str, ...]:
    """The setup's reminders that hold all game: city gates (P-CG-1), pencil powers (L-PP)."""
    if view.recall:
        return ()
    said: list[str] = []
    if view.city_gates:
        said.append("city_gates")
        said += [f"gate.{corner}.{bonus}" for corner, bonus in view.city_gates]
    if view.pencil_powers:
        said.append("pencil_powers")
        for colour, power in view.pencil_powers:
            said += [f"colour.{colour}", f"power.{power}"]
    return tuple(said)


def _result(view: views.ResultView) -> tuple[str, ...]:
    if view.solo:
        return (f"tier.{view.tier}", f"tier_title.{view.tier}") if view.tier else ()
    if len(view.winners) == 1:
        return (f"winner.{view.winners[0]}",)
    if view.winners:
        return ("shared." + "-".join(map(str, sorted(view.winners))),)
    return ()
