"""The game's vocabulary: names of symbols, colours, powers, rows, buttons, and the short
notes the turn and round-start screens show.

Each table below is built once, its words marked with `N_` for the catalogs; a word is
translated only when it is asked for. Words that belong to one city (its name, what it
calls its underground cards, its objectives' titles) are in that city's data file.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable

from nsdevice import views
from nsdevice.locale import N_, translations
from nsdevice.rules import scoring
from nsdevice.rules.cards import Kind, StationCard
from nsdevice.rules.cities import city as city_data

LANGUAGE_NAMES = {  # each language names itself, so it can be found from any other
    "en": "English",
    "es": "Español",
    "de": "Deutsch",
    "it": "Italiano",
    "fr": "Français",
}

SYMBOLS = {
    "square": N_("Square"),
    "circle": N_("Circle"),
    "triangle": N_("Triangle"),
    "pentagon": N_("Pentagon"),
}
SPECIALS = {"joker": N_("Joker"), "switch": N_("Switch"), "free_entry": N_("Free entry")}
COLOURS = {
    "purple": N_("Purple"),
    "blue": N_("Blue"),
    "pink": N_("Pink"),
    "brown": N_("Brown"),
    "orange": N_("Orange"),
    "green": N_("Green"),
}
EFFECTS = {  # T-SP-4: the special-station effects
    "switch": N_("Switch"),
    "joker_double_track": N_("Joker + double track"),
    "extension": N_("Extension"),
    "double_station": N_("Double station"),
}
BONUSES = {  # P-CG-3: the city-gate bonuses
    "switch_free_entry": N_("Switch + free entry"),
    "double_free_entry": N_("Double free entry"),
    "double_quarter": N_("Double quarter"),
    "double_stop": N_("Double stop"),
}
CORNERS = {
    "nw": N_("North-west"),
    "ne": N_("North-east"),
    "sw": N_("South-west"),
    "se": N_("South-east"),
}
POWERS = {  # L-PP: the pencil powers
    "repeat": N_("Repeat"),
    "joker": N_("Joker"),
    "switch": N_("Switch"),
    "double": N_("Double"),
}
MODULES = {
    "objectives": N_("Objectives"),
    "special_stations": N_("Special stations"),
    "city_gates": N_("City gates"),
    "pencil_powers": N_("Pencil powers"),
}
JOKER_EXTRAS = {  # what a joker allows, by the city's rule (C-6, T-3, P-3)
    "double_track": N_("Any symbol, double track allowed"),
    "guided_tour": N_("Any station, or one via a monument"),
    "": N_("Any symbol"),
}
TIERS = {  # S-SOLO: our own title and line for each of the six tiers
    1: (N_("Still reading the map"), N_("Every network starts somewhere.")),
    2: (N_("Weekend rider"), N_("The trains run, mostly.")),
    3: (N_("Daily commuter"), N_("A network people can rely on.")),
    4: (N_("Line planner"), N_("Smart branches, busy interchanges.")),
    5: (N_("Network architect"), N_("The whole city rides your lines.")),
    6: (N_("Master of the metro"), N_("A map for the history books.")),
}
ACTIONS = {  # the legend for one button on one screen
    "reveal": N_("Reveal"),
    "undo": N_("Undo"),
    "menu": N_("Menu"),
    "menu_cards": N_("Menu, hold: cards"),  # the turn: a held MENU shows the module cards
    "up": N_("Up"),
    "down": N_("Down"),
    "select": N_("Select"),
    "start": N_("Start"),
    "continue": N_("Next"),
    "back": N_("Back"),
    "yes": N_("Yes"),
    "no": N_("No"),
    "plus": N_("More"),
    "minus": N_("Less"),
    "plus_five": N_("+1, hold +5"),
    "minus_one": N_("−1"),
    "next_digit": N_("Next digit"),
    "done": N_("Done"),
    "ok": N_("OK"),
    "skip": N_("Skip"),
    "scores": N_("Scores"),
    "new_game": N_("New game"),
    "change": N_("Change"),
    "next_character": N_("Next"),
    "setup": N_("Setup"),
    "renew": N_("New code"),
    "take": N_("Take"),
    "next_page": N_("Next page"),
    "to_top": N_("To the top"),  # a list's last row: NEXT goes round to the first
    "to_end": N_("To the end"),  # its first row: BACK goes round to the last
    "previous_page": N_("Previous"),
    "free": N_("Free it"),  # the caller frees the seat or table chosen (a room's tables)
}
MONTHS = (  # short month names, for the day's deal (D-2)
    N_("Jan"),
    N_("Feb"),
    N_("Mar"),
    N_("Apr"),
    N_("May"),
    N_("Jun"),
    N_("Jul"),
    N_("Aug"),
    N_("Sep"),
    N_("Oct"),
    N_("Nov"),
    N_("Dec"),
)
BUTTONS = {"next": N_("NEXT"), "back": N_("BACK"), "menu": N_("MENU")}
# Each field of the score sheet (S-T-END, S-P-END), as the player counts it off the map:
# the box's sheet and the phone's both name their fields from here (`sheet_count`), by the
# keys of `rules.scoring.sheet_items`; `interchanges_N` for each number of lines meeting.
SHEET_COUNTS = {
    "districts": N_("Districts crossed"),  # S-T: a line's districts
    "stations": N_("Stations in the line's busiest district"),  # S-T: the most in one
    "quarters": N_("Quarters crossed"),  # S-P: a line's quarters
    "stops": N_("Stops in the line's busiest quarter"),  # S-P: the most in one
    "monuments": N_("Monuments on the line"),  # S-P: 2 points each
    "stamps": N_("Points of your stamps"),
    "ring_unconnected": N_("Ring stations no line reaches"),
    "overpasses_once": N_("Overpasses crossed once"),
    "overpasses_twice": N_("Overpasses crossed twice"),
    "interchanges": N_("Stations where {lines} lines meet"),
    "objectives": N_("Objectives met"),  # C-11: asked only when objectives are played
}


class Vocabulary:
    """The game's words in one language. Cheap to build; `words(language)` keeps one."""

    def __init__(self, language: str) -> None:
        self.language = language
        self._: Callable[[str], str] = translations(language).gettext

    # --- game vocabulary -------------------------------------------------------------------
    def city(self, name: str) -> str:
        return self._(city_data(name).words.name)

    def symbol(self, name: str | None) -> str:
        return self._(SYMBOLS[name]) if name is not None else ""

    def special(self, name: str | None) -> str:
        return self._(SPECIALS[name]) if name is not None else ""

    def face(self, card: StationCard) -> str:
        if card.symbol is not None:
            return self.symbol(card.symbol.value)
        return self.special(card.special.value if card.special else None)

    def kind(self, kind: Kind | str, city: str) -> str:
        """The card kind's one word in this city and edition, wherever the card is named
        (the glossary's `[cards.<city>]` table says where each word comes from)."""
        if Kind(kind) is Kind.STREET:
            return self._("Street")
        return self._(city_data(city).words.underground)

    def colour(self, name: str) -> str:
        return self._(COLOURS[name])

    def effect(self, name: str) -> str:
        return self._(EFFECTS[name])

    def bonus(self, name: str) -> str:
        return self._(BONUSES[name])

    def corner(self, name: str) -> str:
        return self._(CORNERS[name])

    def power(self, name: str) -> str:
        return self._(POWERS[name])

    def module(self, name: str) -> str:
        return self._(MODULES[name])

    def objective(self, city: str, name: str) -> str:
        """C-11: a short title for each shared objective, in our words."""
        return self._(city_data(city).words.objectives[name])

    def joker_extra(self, name: str) -> str:
        return self._(JOKER_EXTRAS[name])

    def slot(self, slot: str, players: int) -> str:
        """A pencil's place: a seat, or the spare spot on the table (C-8, D-7)."""
        _ = self._
        if slot == "table":  # 3 players: between the last seat and seat 1, on seat 1's right
            return _("Table, right of seat {seat}").format(seat=1)
        if slot.startswith("table-"):  # 2 players: a spot on each seat's left (C-8)
            return _("Table, left of seat {seat}").format(seat=slot.removeprefix("table-"))
        if players == 1:
            return _("You")
        return _("Seat {seat}").format(seat=slot)

    def tier(self, tier: int) -> tuple[str, str]:
        """S-SOLO: the tier's title and its line."""
        title, line = TIERS[tier]
        return self._(title), self._(line)

    def action(self, name: str) -> str:
        """The legend for one button on one screen ("language:de": that language's own
        name, as the list shows it: BACK undoing a change reads in the language it brings)."""
        if name.startswith("language:"):
            return LANGUAGE_NAMES[name.removeprefix("language:")]
        return self._(ACTIONS[name])

    def button(self, name: str) -> str:
        return self._(BUTTONS[name])

    def on_off(self, value: bool) -> str:
        return self._("On") if value else self._("Off")

    def players(self, players: int) -> str:
        if players == 1:
            return self._("Solo")
        return self._("{count} players").format(count=players)

    # --- the round start and the turn (drawn by their own layouts, words from here) -------
    def pencil_line(self, pencil: views.SeatPencil, players: int) -> str:
        """A seat and its pencil ("Seat 2: Brown"), with its power (L-PP). The start station
        is written for no pencil (docs/decisions/0007): every sheet prints each start in
        its pencil's colour, and the box knows some starts only unconfirmed or not at all;
        the painted builds draw the start's symbol beside each pencil whose start it knows."""
        text = self.labelled(self.slot(pencil.slot, players), self.colour(pencil.colour))
        if pencil.power:  # L-PP: the power travels with the pencil
            text += " · " + self.power(pencil.power)
        return text

    def controller(self, seat: int) -> str:
        return self._("Seat {seat} turns the cards").format(seat=seat)

    def pairing(self, pairing: views.Pairing) -> str:
        return f"{self.symbol(pairing.symbol)} → {self.effect(pairing.effect)}"

    def underground(self, seen: int, total: int, city: str) -> str:
        """How many of the round's underground cards are out, in the city's own word (C-4)."""
        return self._(city_data(city).words.underground_count).format(seen=seen, total=total)

    def switch_note(self, effect: bool | None) -> str:
        if effect is None:
            return ""
        return self._("Branch from any station") if effect else self._("Switch: no effect yet")

    def paired_note(self, effect: str | None, active: bool | None) -> str:
        if effect is None:
            return ""
        if active is False:
            return self._("{effect}: no effect yet").format(effect=self.effect(effect))
        return self._("Special: {effect}").format(effect=self.effect(effect))

    def joker_note(self, view: views.TurnView) -> str:
        """What a joker (C-6, T-3) or a free entry (P-3) allows; "" for other cards.
        The city's own rule comes with the view (`joker_extra`, from its data file)."""
        card = view.cards[-1] if view.cards else None
        if card is None or card.symbol is not None:
            return ""
        return self.joker_extra(view.joker_extra)

    def last_turn(self) -> str:
        return self._("Last turn of the round")

    def deck_heading(self) -> str:
        """Over the round's cards not revealed yet (C-2, C-3)."""
        return self._(DECK_HEADING)

    def phone(self) -> dict[str, str]:
        """The phone page's own words (its buttons, labels and score sheet); a sheet's
        fields by `sheet_count`'s keys, prefixed "count_" ("count_stations")."""
        said = {key: self._(text) for key, text in PHONE.items()}
        counts = {f"count_{key}": self.sheet_count(key) for key in sheet_count_keys()}
        return {**said, **counts, "next": self.button("next"), "back": self.button("back")}

    def sheet_count(self, key: str) -> str:
        """One field of the score sheet as the player counts it ("Stations in the line's
        busiest district"), by its key in `rules.scoring.sheet_items` ("interchanges_3":
        the stations where 3 lines meet; "interchanges" alone keeps its {lines})."""
        if key.startswith("interchanges_"):
            return self._(SHEET_COUNTS["interchanges"]).format(
                lines=key.removeprefix("interchanges_")
            )
        return self._(SHEET_COUNTS[key])

    def labelled(self, label: str, value: object) -> str:
        """"label: value" as the language writes it (French puts a no-break space before ':')."""
        return self._(LABELLED).format(label=label, value=value)

    def seed(self, code: str) -> str:
        return self._("Deal code: {code}").format(code=code)

    def daily(self, iso_date: str) -> str:
        """That a game was the day's deal, and which day's (D-2)."""
        day = datetime.date.fromisoformat(iso_date)
        date = self._("{day} {month}").format(day=day.day, month=self._(MONTHS[day.month - 1]))
        return self._("Today's deal · {date}").format(date=date)


def sheet_count_keys() -> tuple[str, ...]:
    """Every field key a score sheet may have (`scoring.sheet_items`'), each number of
    lines meeting at an interchange its own ("interchanges_3")."""
    meet = sorted({*scoring.TOKYO_INTERCHANGES, *scoring.PARIS_INTERCHANGES})
    plain = tuple(key for key in SHEET_COUNTS if key != "interchanges")
    return plain + tuple(f"interchanges_{lines}" for lines in meet)


DECK_HEADING = N_("Left in the deck")  # the box's tracker heading, the phones' and a screen's
LABELLED = N_("{label}: {value}")  # a label and its value (French spaces its colon)

# The phone page's own words (nsdevice.web); the game's words come from the methods above.
PHONE = {
    "waiting": N_("Waiting for a game on the box"),
    "deck": DECK_HEADING,
    "seat": N_("Seat"),
    "choose_seat": N_("Your seat"),
    "your_pencil": N_("Your pencil this round"),
    "next_pencil": N_("Your pencil next round"),
    "join": N_("Join"),
    "join_code": N_("Join code (on the box: Menu, Phones)"),
    "joined": N_("Joined: you may enter scores"),
    "refused": N_("That code is not the box's current one"),
    "score_sheet": N_("Score sheet"),
    "line": N_("Line"),
    "total": N_("Total"),
    "best_line": N_("Best line"),
    "send": N_("Send to the box"),
    "sent": N_("Sent: total {total}, best line {best}"),
    "earlier": N_("Earlier this round"),
    "labelled": LABELLED,
    # a room game's (issue 25): joining a table, and the ranking of all tables
    "name": N_("Your name"),
    "table_number": N_("Table number"),
    "table_size": N_("Players at your table"),
    "room_code": N_("Join code (on the big screen)"),
    "table_seat": N_("Table {table}, seat {seat}"),
    "table_taken": N_("That table has another number of players"),
    # a seat is its player's (issue 32)
    "seat_taken": N_("That seat is taken: only its player's phone can join it again"),
    "one_seat": N_("This phone already holds a seat"),
    "one_table": N_("This phone already opened a table"),
    "seat_freed": N_("Your seat was freed on the box. Join again to play on."),
    "fill_in": N_("Fill in every field"),
    "busy": N_("The box is busy. Trying again…"),
    "ranking": N_("Ranking of all tables"),
    "place": N_("Rank"),
    "player": N_("Name"),
    "table": N_("Table"),
    "table_winner": N_("Won their table"),
    "your_rank": N_("Your rank: {place} of {count}"),
    "deal_code": N_("Deal code: {code}"),
    # a room phone's own table, in its header (issue 34): "Tokyo · Room" before it joins
    "room": N_("Room"),
    "room_place": N_("Room · table {table} · {players}"),
    "change_sheet": N_("Change my sheet"),
    "name_marks": N_("Write your name with at least one letter"),
    # a seat's line sent as the game goes (issue 34), the box's own words for the line
    "line_round": N_("Line of round {round}"),
    "line_sent": N_("Sent: {points} points"),
}
