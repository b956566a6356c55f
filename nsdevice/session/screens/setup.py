"""Before a game: the setup list, the deal code typed in, a solo player's own pencil row.

Each screen's press handler (`on_…`) and view (`show_…`, over a pure builder `…_view`
that the gallery shares) side by side; `RECORDS` are their screens, one record each.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import partial

from nsdevice import views
from nsdevice.inputs.events import Button, Gesture, Press
from nsdevice.rules.cities import CityName, city
from nsdevice.rules.deal import SEED_MAX_LENGTH, Setup, daily_seed, normalize_seed
from nsdevice.rules.modules import Module, mixes_card_modules
from nsdevice.rules.progress import Progress
from nsdevice.rules.room import SEATS
from nsdevice.session.context import Album, Context, Screen
from nsdevice.session.names import Kind, ScreenName
from nsdevice.session.roster import Roster
from nsdevice.session.screens.common import (
    change_language,
    chosen,
    cycle,
    hints,
    keep_language_undo,
    list_hints,
    row_index,
    undo_language,
)
from nsdevice.session.settings import CITIES, MODULES, PENCIL_ORDERS, Settings

SEED_CHARACTERS = ("", *"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")  # "" ends the code
ROOM = "room"  # the players row's value past 4: one box calls the cards for a whole room


# --- the setup ------------------------------------------------------------------------------
def setup_rows(
    settings: Settings, seed_code: str | None, today: bool = False
) -> tuple[views.Row, ...]:
    """`today`: the day's deal was chosen (D-2); the deal row shows it instead of a code."""
    own = lays_a_row(settings) and city(settings.city).own_pencil_order  # C-8, city data
    return (
        views.Row("start"),
        views.Row("city", settings.city),
        views.Row("players", ROOM if settings.room else str(settings.players)),
        *((views.Row("pencil_order", settings.pencil_order),) if own else ()),
        *(views.Row(m, "on" if m in settings.modules else "off") for m in MODULES),
        views.Row("seed", "today" if today else seed_code or "random"),
        views.Row("language", settings.language),
    )


def setup_view(
    settings: Settings,
    seed_code: str | None,
    cursor: int,
    today: bool = False,
    language_before: str = "",
) -> views.SetupView:
    """`seed_code`: a code typed in to replay a deal; None for a random one (or the day's
    deal, when `today`); `language_before`: the language one BACK puts back, if any."""
    rows = setup_rows(settings, seed_code, today)
    return views.SetupView(
        rows=rows,
        cursor=cursor,
        city=settings.city,
        players=settings.players,
        modules=settings.modules,
        seed=seed_code,
        mix_warning=mixes_card_modules(tuple(Module(m) for m in settings.modules)),
        hints=list_hints(rows, cursor, language_before),
        language=settings.language,
    )


def session_setup_rows(session: Context) -> tuple[views.Row, ...]:
    state = session.state
    return setup_rows(state.settings, state.seed_code, state.today)


def show_setup(session: Context) -> views.SetupView:
    state = session.state
    return setup_view(
        state.settings, state.seed_code, state.cursor, state.today, state.language_before
    )


def on_setup(session: Context, press: Press) -> None:
    state = session.state
    if undo_language(session, press):
        return
    key = chosen(session, press, session_setup_rows(session))
    keep_language_undo(session, key)
    s = state.settings
    if key == "start":
        start_game(session)
    elif key == "city":
        state.settings = replace(s, city=cycle(CITIES, s.city))
    elif key == "players":  # 1, 2, 3, 4, a room, 1 …
        if s.room:
            state.settings = replace(s, players=1, room=False)
        elif s.players == SEATS:
            state.settings = replace(s, room=True)
        else:
            state.settings = replace(s, players=s.players + 1)
    elif key == "pencil_order":
        state.settings = replace(s, pencil_order=cycle(PENCIL_ORDERS, s.pencil_order))
    elif key in MODULES:
        picked = set(s.modules) ^ {key}
        state.settings = replace(s, modules=tuple(m for m in MODULES if m in picked))
    elif key == "seed" and state.seed_code is None and not state.today:
        state.today = True  # random → the day's deal → a typed code (D-2)
    elif key == "seed":
        state.today = False
        state.screen = ScreenName.SEED_ENTRY
        state.seed_characters = [*(state.seed_code or ""), ""]
        state.cursor = 0
    elif key == "language":
        change_language(session)


def lays_a_row(settings: Settings) -> bool:
    """A solo game: one player uses the pencils in a row (C-8); a room's solo tables take
    the drawn row, the same in every room on the code (rules.room)."""
    return settings.players == 1 and not settings.room


def lays_own_pencils(settings: Settings) -> bool:
    """C-8: a solo player who chose their own pencil order, in a city whose rules allow
    it (a choice made in Tokyo is kept, and Paris still draws the order)."""
    return (
        lays_a_row(settings)
        and settings.pencil_order == "own"
        and city(settings.city).own_pencil_order
    )


def start_game(session: Context) -> None:
    """A new game of the remembered setup; a solo player who lays their own pencils
    does so first (C-8)."""
    state = session.state
    s = state.settings
    if lays_own_pencils(s):
        last = state.setup.pencil_order if state.setup is not None else None
        colours = city(s.city).colours
        state.pencil_preference = last if last and set(last) == set(colours) else colours
        state.leave_game()
        state.pencil_choice = []
        state.cursor = colours.index(state.pencil_preference[0])
        state.screen = ScreenName.PENCIL_ORDER
        return
    _begin(session, None)


def _begin(session: Context, pencil_order: tuple[str, ...] | None) -> None:
    state = session.state
    s = state.settings
    city_name = CityName(s.city)
    daily = None
    if state.today:  # D-2: the date picks the code, so every box deals the same cards
        day = session.today()
        seed, daily = daily_seed(day, city_name), day.isoformat()
    else:
        seed = state.seed_code or session.seed_source()
    modules = tuple(Module(m) for m in s.modules)
    # a room deals as the largest table: the cards never depend on the count (D-1), and
    # each table size's pencils come from rules.room
    players = SEATS if s.room else s.players
    state.setup = Setup(city_name, players, modules, seed, pencil_order, daily)
    state.room = Roster() if s.room else None
    state.under = None  # the last game's screen beneath the menu: none of this one's
    state.seed_code = None
    state.today = False
    state.pencil_choice = []
    state.progress = Progress()
    state.forget_scores()
    state.screen = ScreenName.SUMMARY
    session.new_table()


# --- the deal code ----------------------------------------------------------------------------
def seed_entry_view(characters: Sequence[str], cursor: int, language: str) -> views.SeedEntryView:
    return views.SeedEntryView(
        characters=tuple(characters),
        cursor=cursor,
        hints=hints(next="change", back="change", menu="next_character"),
        language=language,
    )


def show_seed_entry(session: Context) -> views.SeedEntryView:
    state = session.state
    return seed_entry_view(state.seed_characters, state.cursor, session.language)


def on_seed_entry(session: Context, press: Press) -> None:
    """NEXT/BACK change the character under the cursor, MENU moves on; MENU on the blank
    end, or a held MENU anywhere, finishes. An empty code means a random deal."""
    state = session.state
    chars = state.seed_characters
    index = state.cursor
    if press.button is not Button.MENU:
        step = 1 if press.button is Button.NEXT else -1
        chars[index] = cycle(SEED_CHARACTERS, chars[index], step)
        return
    if press.gesture is Gesture.HOLD:
        _finish_seed(session, "".join(chars))
    elif chars[index] == "":
        _finish_seed(session, "".join(chars[:index]))
    elif index + 1 == SEED_MAX_LENGTH:
        _finish_seed(session, "".join(chars[:SEED_MAX_LENGTH]))
    else:
        state.cursor += 1
        if state.cursor == len(chars):
            chars.append("")


def _finish_seed(session: Context, code: str) -> None:
    state = session.state
    state.seed_code = normalize_seed(code) if code else None
    state.screen = ScreenName.SETUP
    state.cursor = row_index(session_setup_rows(session), "seed")


# --- a solo player's own pencil row (C-8) -----------------------------------------------------
def pencil_order_view(
    city_name: str, picked: Sequence[str], cursor: int, language: str
) -> views.PencilOrderView:
    """`picked`: the pencils laid so far; `cursor`: the offered colour's index among the
    city's colours (C-8)."""
    colours = city(city_name).colours
    return views.PencilOrderView(
        city=city_name,
        chosen=tuple(picked),
        offered=colours[cursor],
        left=tuple(c for c in colours if c not in picked),
        hints=hints(next="change", back="change", menu="take"),
        language=language,
    )


def show_pencil_order(session: Context) -> views.PencilOrderView:
    state = session.state
    return pencil_order_view(
        state.settings.city, state.pencil_choice, state.cursor, session.language
    )


def on_pencil_order(session: Context, press: Press) -> None:
    """NEXT/BACK offer the next or previous pencil not laid yet, MENU lays it; the
    last one is implied. A held BACK takes the last one back (none: the setup)."""
    state = session.state
    colours = city(state.settings.city).colours
    laid = state.pencil_choice
    if press.button is Button.BACK and press.gesture is Gesture.HOLD:
        if laid:
            state.cursor = colours.index(laid.pop())
        else:
            state.screen = ScreenName.SETUP
            state.cursor = row_index(session_setup_rows(session), "pencil_order")
        return
    free = [index for index, colour in enumerate(colours) if colour not in laid]
    if press.button is not Button.MENU:
        step = 1 if press.button is Button.NEXT else -1
        state.cursor = free[(free.index(state.cursor) + step) % len(free)]
        return
    laid.append(colours[state.cursor])
    left = [colour for colour in colours if colour not in laid]
    if len(left) == 1:
        _begin(session, (*laid, left[0]))
    else:  # offer next the colour that came next last time
        preferred = [c for c in state.pencil_preference if c in left] or left
        state.cursor = colours.index(preferred[0])


# --- the gallery's examples ---------------------------------------------------------------
def _setup_examples(album: Album) -> Iterator[tuple[str, views.View]]:
    chosen = partial(Settings, city=album.city, language=album.language)

    def setup_on(key: str, settings: Settings, today: bool = False) -> views.SetupView:
        """The setup with its cursor on the row `key` (rows are named, never counted)."""
        cursor = row_index(setup_rows(settings, None, today), key)
        return setup_view(settings, None, cursor, today)

    mixed, own = chosen(players=1, modules=MODULES), chosen(players=1, pencil_order="own")
    yield "setup", setup_on("start", chosen(players=3, modules=("objectives",)))
    yield "setup-mix-warning", setup_on("city_gates", mixed)
    # C-8 solo's own row; D-2 the day's deal
    yield "setup-solo-own-order-today", setup_on("seed", own, today=True)


def _seed_entry_examples(album: Album) -> Iterator[tuple[str, views.View]]:
    yield "seed-entry", seed_entry_view(("K", "7", "P", "2", "X", ""), 3, album.language)


def _pencil_order_examples(album: Album) -> Iterator[tuple[str, views.View]]:
    colours = city(album.city).colours
    yield "pencil-order", pencil_order_view(album.city, colours[2:3], 3, album.language)


SETUP = Screen(
    ScreenName.SETUP, Kind.SETUP, views.SetupView, on_setup, show_setup, _setup_examples
)
SEED_ENTRY = Screen(
    ScreenName.SEED_ENTRY,
    Kind.SETUP,
    views.SeedEntryView,
    on_seed_entry,
    show_seed_entry,
    _seed_entry_examples,
    holds=frozenset({Button.MENU}),  # a held MENU finishes the code
)
PENCIL_ORDER = Screen(
    ScreenName.PENCIL_ORDER,
    Kind.SETUP,
    views.PencilOrderView,
    on_pencil_order,
    show_pencil_order,
    _pencil_order_examples,
    holds=frozenset({Button.BACK}),  # a held BACK takes a pencil back
)
RECORDS = (SETUP, SEED_ENTRY, PENCIL_ORDER)
