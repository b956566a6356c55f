"""One realistic example of every screen, for screenshots and the layout tests.

Every screen the session shows is built by the session's own builders (each screen's
slice in `nsdevice.session.screens`), so a screenshot cannot show what the box never
does; this module only picks the situations and values. The game screens come from real deals
(`deal_game`), so the cards, pencils and pairings are ones the box can actually show.
Seeds are found by a fixed search, so the gallery is the same on every run. No pygame
here: views are plain data.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import date
from functools import cache, partial

from nsdevice import views
from nsdevice.rules import scoring
from nsdevice.rules.cards import Special
from nsdevice.rules.cities import CityName
from nsdevice.rules.cities import city as city_data
from nsdevice.rules.deal import Deal, Round, Setup, Turn, daily_seed, deal_game
from nsdevice.rules.modules import Module
from nsdevice.rules.progress import Progress
from nsdevice.rules.room import ROOM, Result, rank
from nsdevice.session import MODULES, Capabilities, Settings
from nsdevice.session.hardware_test import hardware_test_view
from nsdevice.session.roster import Roster
from nsdevice.session.screens.common import row_index
from nsdevice.session.screens.game import (
    deck_view,
    game_end_view,
    pencil_pass_view,
    round_end_view,
    round_so_far_view,
    round_start_view,
    summary_view,
    turn_view,
)
from nsdevice.session.screens.history import history_view
from nsdevice.session.screens.menu import (
    about_view,
    confirm_view,
    menu_rows,
    menu_view,
    shutdown_view,
)
from nsdevice.session.screens.notice import notice_view
from nsdevice.session.screens.phones import PAGE_STEP, WIFI_STEP, phones_view
from nsdevice.session.screens.room import listed, room_results_view, room_tables_view, table_rows
from nsdevice.session.screens.score_sheet import sheet_counts, sheet_view
from nsdevice.session.screens.scores import result_view, score_entry_view
from nsdevice.session.screens.setup import (
    pencil_order_view,
    seed_entry_view,
    setup_rows,
    setup_view,
)
from nsdevice.session.settings import History

SEARCH = 2000  # seeds tried when looking for a deal that shows a given situation
DAILY_EXAMPLE = "2026-11-23"  # the date a gallery's day's deal was dealt on
PHONE_ADDRESSES = ("http://192.168.1.23:8414/", "http://nsdevice.local:8414/")  # an example table
# the box's own Wi-Fi (issue 31), with a password as the box draws one
HOTSPOT = views.Hotspot("nextstation-7k3q", "k7dm-x4qp-9wre", "http://10.42.0.1:8414/")

Finder = Callable[[Round, Turn], bool]


def _deal(city: str, players: int, modules: tuple[str, ...], seed: str) -> Deal:
    return deal_game(Setup(CityName(city), players, tuple(Module(m) for m in modules), seed))


@cache  # a pure search over fixed seeds: remember each answer for the process
def _seed_for(city: str, players: int, modules: tuple[str, ...], situation: str) -> str | None:
    finder = SITUATIONS[situation]
    for number in range(SEARCH):
        seed = f"GALLERY{number}"
        deal = _deal(city, players, modules, seed)
        if any(finder(r, t) for r in deal.rounds for t in r.turns):
            return seed
    return None


def _first(deal: Deal, finder: Finder) -> Progress:
    """Where in the deal the situation first shows: its turn just revealed."""
    for round_ in deal.rounds:
        for turn in round_.turns:
            if finder(round_, turn):
                return Progress(round_.number, turn.number)
    raise LookupError("no such turn in this deal")


JOKERS = (Special.JOKER, Special.FREE_ENTRY)  # C-6; Paris's free entry plays as one (P-3)


def _joker(turn: Turn) -> bool:
    return turn.card.special in JOKERS


def _joker_card(city: str) -> str:
    """The name of the city's joker-like card, from its deck (`joker` or `free_entry`)."""
    return next(c.special for c in city_data(city).deck if c.special in JOKERS).value


SITUATIONS: dict[str, Finder] = {
    "plain": lambda r, t: (
        t.number == 4
        and t.card.symbol is not None
        and t.switch_effect is None
        and not t.last
        and t.paired_effect is None
    ),
    "switch-no-effect": lambda r, t: t.switch_effect is False and t.card.symbol is not None,
    "switch": lambda r, t: t.switch_effect is True and t.number >= 4,
    "paired-effect": lambda r, t: t.paired_effect_active is True and t.number >= 3 and not t.last,
    "paired-no-effect": lambda r, t: t.paired_effect_active is False,
    "joker": lambda r, t: _joker(t) and t.number >= 3 and t.switch_effect is None,
    "last": lambda r, t: t.last and len(r.turns) >= 9,
}


def _game_turns(city: str, language: str) -> Iterator[tuple[str, views.View]]:
    def revealed(deal: Deal, progress: Progress) -> views.View:
        # as the session shows it right after NEXT, with the sound on
        return replace(turn_view(deal, progress, language), chime="reveal")

    many = (city, 3, MODULES)
    plain = _deal(*many, _seed_for(*many, "plain") or "A")
    yield "turn", revealed(plain, _first(plain, SITUATIONS["plain"]))
    yield "turn-first", revealed(plain, Progress(round=1, revealed=1))
    joker_name = f"turn-{_joker_card(city).replace('_', '-')}"  # as the city's cards call it
    for name, situation in (
        ("turn-switch-no-effect", "switch-no-effect"),
        ("turn-switch", "switch"),
        ("turn-paired-effect", "paired-effect"),
        ("turn-paired-no-effect", "paired-no-effect"),
        (joker_name, "joker"),
        ("turn-last", "last"),
    ):
        seed = _seed_for(*many, situation)
        if seed is None:  # a situation the city never shows (P-4: a switch always works)
            continue
        deal = _deal(*many, seed)
        yield name, revealed(deal, _first(deal, SITUATIONS[situation]))


def _round_so_far(city: str, language: str) -> Iterator[tuple[str, views.View]]:
    """The round's cards from the menu: a long round at its last card, and one not begun."""
    many = (city, 3, MODULES)
    deal = _deal(*many, _seed_for(*many, "last") or "A")
    yield "round-so-far", round_so_far_view(deal, _first(deal, SITUATIONS["last"]), language)
    yield "round-so-far-none", round_so_far_view(deal, Progress(round=2), language)
    # what is left in the deck: mid-round, and at the round's last card
    yield "deck", deck_view(deal, Progress(round=1, revealed=4), language)
    yield "deck-last", deck_view(deal, _first(deal, SITUATIONS["last"]), language)


def _sheets(language: str, solo: Deal, table: Deal) -> Iterator[tuple[str, views.View]]:
    """The score sheet walk-through (S-T-END, S-P-END): a line's second count at a table,
    a solo game's interchanges and its last count (the objectives when played); none for
    a city without line scoring."""
    if not sheet_counts(solo.setup):
        return

    def counts(setup: Setup) -> list[int]:
        layout = sheet_counts(setup)
        example = (5, 4, 3, 6, 2, 4, 7, 3, 1, 2, 1, 0, 1, 1, 0, 1, 1)
        padded = (*example, *(0,) * len(layout))  # zeros for any further counts
        return [min(v, c.most or 99) for v, (_, c) in zip(padded, layout, strict=False)]

    def step(setup: Setup, key: str) -> int:
        return next(n for n, (_, c) in enumerate(sheet_counts(setup)) if c.key.startswith(key))

    at_table = counts(table.setup)
    second_line = next(n for n, (i, _) in enumerate(sheet_counts(table.setup)) if i == 1) + 1
    yield "score-sheet-line", sheet_view(table.setup, 2, at_table, second_line, language, cursor=1)
    alone = counts(solo.setup)
    changes = step(solo.setup, "interchanges_") + 1
    yield "score-sheet-interchanges", sheet_view(solo.setup, 0, alone, changes, language)
    yield "score-sheet-last", sheet_view(solo.setup, 0, alone, len(alone) - 1, language)


def _results(
    city: str, language: str, solo: Deal, plain_solo: Deal, tables: dict[int, Deal]
) -> Iterator[tuple[str, views.View]]:
    """Score entry and results: a solo game with every module, a new solo best, and
    tables won on total, on the best line, and shared."""
    tiers = city_data(city).tier_upper_bounds
    solo_total = tiers[2] + 4 + 10 * len(solo.setup.modules)
    three_scores = (142, 31, 156, 36, 149, 40)
    solo_entry = score_entry_view(solo.setup, (solo_total,), 0, language, cursor=1)
    yield "score-entry-solo", solo_entry  # the cursor on the tens
    tied = (156, 31, 156, 38, 149, 0)  # seats 1 and 2 tied: seat 2's best line (C-12)
    yield "score-entry-best-line", score_entry_view(tables[3].setup, tied, 3, language, cursor=2)
    yield from _sheets(language, solo, tables[3])
    best_before = scoring.solo_adjusted(solo_total, len(solo.setup.modules)) + 12  # not beaten
    yield "result-solo", result_view(solo.setup, (solo_total,), best_before, language)
    yield (
        "result-solo-new-best",
        result_view(plain_solo.setup, (tiers[4] + 9,), tiers[3], language),
    )
    day = datetime.date.fromisoformat(DAILY_EXAMPLE)  # D-2: the day's deal, as dealt that day
    daily = replace(plain_solo.setup, seed=daily_seed(day, CityName(city)), daily=DAILY_EXAMPLE)
    yield "result-solo-daily", result_view(daily, (tiers[3] + 2,), tiers[3] + 7, language)
    for name, deal, scores in (
        ("result-players", tables[3], three_scores),
        ("result-tie-best-line", tables[4], (151, 33, 151, 38, 120, 30, 147, 41)),
        ("result-shared", tables[2], (133, 35, 133, 35)),
    ):
        yield name, result_view(deal.setup, scores, None, language)


def example_views(
    city: str, language: str = "en", size: tuple[int, int] | None = None
) -> list[tuple[str, views.View]]:
    """Named examples of every screen in `views.ALL_VIEWS` for `city`.

    `size` is accepted for the screenshot command's convenience; views are the same at
    every size (layout is the painter's business).
    """
    del size
    three = _deal(city, 3, MODULES, "TABLE3")
    two = _deal(city, 2, ("objectives",), "TABLE2")
    four = _deal(city, 4, (), "TABLE4")
    solo = _deal(city, 1, MODULES, "SOLO1")
    plain_solo = _deal(city, 1, (), "SOLO2")
    chosen = partial(Settings, city=city, language=language)

    def setup_on(key: str, settings: Settings, today: bool = False) -> views.SetupView:
        """The setup with its cursor on the row `key` (rows are named, never counted)."""
        cursor = row_index(setup_rows(settings, None, today), key)
        return setup_view(settings, None, cursor, today)

    mixed, own = chosen(players=1, modules=MODULES), chosen(players=1, pencil_order="own")
    menu_settings = chosen(sound=True, voice=True, volume=3, brightness=4)
    full_menu = Capabilities(brightness=True, shutdown=True)
    examples: list[tuple[str, views.View]] = [
        ("setup", setup_on("start", chosen(players=3, modules=("objectives",)))),
        ("setup-mix-warning", setup_on("city_gates", mixed)),
        # C-8 solo's own row; D-2 the day's deal
        ("setup-solo-own-order-today", setup_on("seed", own, today=True)),
        ("seed-entry", seed_entry_view(("K", "7", "P", "2", "X", ""), 3, language)),
        ("pencil-order", pencil_order_view(city, city_data(city).colours[2:3], 3, language)),
        ("summary", summary_view(two, language)),
        ("summary-all-modules", summary_view(solo, language)),
        ("summary-plain", summary_view(plain_solo, language)),
        ("round-start-3-players", round_start_view(three, 2, language)),
        ("round-start-2-players", round_start_view(two, 1, language)),
        ("round-start-4-players", round_start_view(four, 3, language)),
        ("round-start-solo", round_start_view(solo, 1, language)),
        *_game_turns(city, language),
        *_round_so_far(city, language),
        ("round-end", replace(round_end_view(three, 2, language), chime="round_end")),
        ("pencil-pass-3-players", pencil_pass_view(three, 2, language)),
        ("pencil-pass-2-players", pencil_pass_view(two, 3, language)),
        ("pencil-pass-solo", pencil_pass_view(solo, 4, language)),
        ("game-end", game_end_view(three.setup, language)),
        ("game-end-solo", game_end_view(solo.setup, language)),
        *_results(city, language, solo, plain_solo, {2: two, 3: three, 4: four}),
        (
            "menu",
            menu_view(
                menu_settings,
                full_menu,
                in_round=True,  # over a turn, so that the round can be restarted
                cursor=row_index(menu_rows(menu_settings, full_menu, True), "shutdown"),
            ),
        ),
    ]
    for question, progress in (
        ("back_to_round", Progress(round=3)),
        ("restart_round", Progress(round=3)),
        ("new_game", Progress(round=3)),
        ("shutdown", Progress()),
    ):
        name = f"confirm-{question.replace('_', '-')}"
        examples.append((name, confirm_view(question, progress, language)))
    examples.append(("about", about_view(city, language)))
    examples.append(("phones", phones_view(PHONE_ADDRESSES, "40621538", language)))
    for step, name in ((WIFI_STEP, "phones-wifi"), (PAGE_STEP, "phones-hotspot")):
        view = phones_view(PHONE_ADDRESSES, "40621538", language, HOTSPOT, step)
        examples.append((name, view))
    examples.append(("about-game-over", about_view(city, language, three.setup.seed)))
    for notice, detail in (
        ("store_damaged", "/var/lib/nsdevice/state.db.damaged-20250101-101500"),
        ("store_unwritable", "/var/lib/nsdevice: read-only file system"),
        ("store_full", "/var/lib/nsdevice"),
        ("store_read_only", "/var/lib/nsdevice"),
        ("store_rewound", "nsdevice.sqlite3.damaged-20261123-101500"),
        ("display_fallback", "st7789 library not installed: pip install 'nsdevice[pi]'"),
        ("input_fallback", ""),
        ("presses_dropped", ""),
        ("voice_broken", "/opt/nsdevice/voice/clips/manifest.json: not a voice manifest"),
        ("settings_line", 'nsdevice.toml line 4: language "nl" is not one of en, es, de, it, fr'),
    ):
        examples.append(
            (f"notice-{notice.replace('_', '-')}", notice_view(notice, detail, language))
        )
    examples.append(("shutdown", shutdown_view(language)))
    examples += _history(city, language)
    examples += _hardware_test(language)
    examples += _room(city, language)
    return examples


ROOM_MODULES = {  # a room game's example: the objectives and the city's own module
    "tokyo": ("objectives", "special_stations"),
    "paris": ("objectives", "city_gates"),
    "london": ("objectives", "pencil_powers"),
}
ROOM_PLAYERS = (  # (table, seat, name, total, best line): tables of 1 to 4, a tie at the top
    (1, 1, "Ana", 131, 36), (1, 2, "Bruno", 118, 31), (1, 3, "Chloé", 131, 36),
    (2, 1, "Dmitri", 142, 38), (2, 2, "Eva", 127, 33), (3, 1, "Farida", 109, 30),
    (4, 1, "Giulia", 125, 35), (4, 2, "Hugo", 136, 37), (4, 3, "Ines", 98, 28),
    (4, 4, "Jonas", 121, 32), (5, 1, "Kenji", 139, 40), (5, 2, "Lea", 116, 29),
)  # fmt: skip


def room_call(deal: Deal, round_number: int, tables: int = 5, players: int = 12) -> views.RoomCall:
    """A room's caller screens as a room of `tables` tables would show them."""
    return views.RoomCall(
        code="40621538",
        address=PHONE_ADDRESSES[0],
        rows=table_rows(deal, round_number),
        tables=tables,
        players=players,
    )


def room_ranking(count: int) -> tuple[views.RoomPlace, ...]:
    """The first `count` sheets of the example room, ranked by rules.room."""
    results = [Result(ROOM, *player) for player in ROOM_PLAYERS[:count]]
    return tuple(
        views.RoomPlace(p.place, p.result.table, p.result.seat, p.result.name, p.result.total,
                        p.result.best_line, p.table_winner)
        for p in rank(results)
    )  # fmt: skip


def room_roster(scored: int) -> Roster:
    """The example room's tables and seats, the first `scored` sheets in."""
    roster = Roster()
    sizes = {table: max(s for t, s, *_ in ROOM_PLAYERS if t == table) for table, *_ in ROOM_PLAYERS}
    for table, seat, name, _total, _best in ROOM_PLAYERS:
        roster.join(table, sizes[table], seat, name)
    for table, seat, _name, total, best in ROOM_PLAYERS[:scored]:
        roster.score(table, seat, total, best)
    return roster


def _room(city: str, language: str) -> list[tuple[str, views.View]]:
    """A room game (issue 25): the caller's screens, and the results as sheets come in."""
    deal = _deal(city, 4, ROOM_MODULES[city], "ROOM25")
    progress = Progress(round=2, revealed=len(deal.rounds[1].turns) - 2)
    turn = replace(turn_view(deal, progress, language, room_call(deal, 2)), chime="reveal")
    players = len(ROOM_PLAYERS)

    def results(scored: int) -> views.RoomResultsView:
        return room_results_view(deal.setup, room_ranking(scored), 1, language, players, 5)

    return [
        ("room-summary", summary_view(deal, language, room=room_call(deal, 1, 0, 0))),
        ("room-round-start", round_start_view(deal, 2, language, room_call(deal, 2))),
        ("room-turn", turn),
        ("room-pencil-pass", pencil_pass_view(deal, 3, language, room_call(deal, 3))),
        ("room-results-waiting", results(0)),
        ("room-results-filling", results(5)),
        ("room-results", results(players)),
        ("room-tables", room_tables_view(listed(room_roster(0)), 2, "", language, players)),
        # the caller chose table 4's second seat once: choosing it again frees it
        ("room-tables-freeing", room_tables_view(
            listed(room_roster(5)), 12, "4:2", language, players)),
    ]


HISTORY_TODAY = date(2026, 11, 23)  # the history examples' "today", for a fixed streak


def _history(city: str, language: str) -> list[tuple[str, views.View]]:
    """The history's pages: a city's last games (solo, tables, a daily deal), the bests,
    the daily deals, and a box that has finished no game yet."""
    bounds = city_data(city).tier_upper_bounds

    def solo(
        on: str, adjusted: int, modules: tuple[str, ...] = (), daily: bool = False
    ) -> views.PlayedGame:
        tier = scoring.solo_tier(city_data(city), adjusted)
        total = adjusted + scoring.MODULE_PENALTY * len(modules)
        return views.PlayedGame(on, city, 1, modules, (total,), (), adjusted, tier,
                                on if daily else None)  # fmt: skip

    games = (
        solo("2026-11-23", bounds[3] + 3, ("objectives",), daily=True),
        views.PlayedGame("2026-11-22", city, 3, (), (142, 156, 149), (2,)),
        solo("2026-11-22", bounds[2] - 2, daily=True),
        views.PlayedGame("2026-11-18", city, 4, (), (133, 120, 133, 101), (1, 3)),
        solo("2026-11-15", bounds[4] + 6, ("objectives", "city_gates", "pencil_powers")),
    )
    best = partial(views.BestScore, city)
    history = History(
        games=games,
        bests=(
            best((), bounds[2] - 2, "2026-11-22"),
            best(("objectives",), bounds[3] + 3, "2026-11-23"),
            best(("objectives", "city_gates", "pencil_powers"), bounds[4] + 6, "2026-11-15"),
            best(("special_stations", "city_gates"), bounds[1] + 1, "2026-10-30"),
        ),
        daily_days=("2026-11-23", "2026-11-22", "2026-11-21", "2026-11-19"),
        best_daily=(best(("objectives",), bounds[3] + 3, "2026-11-23"),),
    )
    return [
        ("history", history_view(history, HISTORY_TODAY, 0, language)),
        ("history-bests", history_view(history, HISTORY_TODAY, 1, language)),
        ("history-daily", history_view(history, HISTORY_TODAY, 2, language)),
        ("history-empty", history_view(History(), HISTORY_TODAY, 0, language)),
    ]


def _hardware_test(language: str) -> list[tuple[str, views.View]]:
    """`nsdevice hwtest`'s steps, built as the check builds them."""
    return [
        ("hwtest-pattern", hardware_test_view("pattern", language)),
        ("hwtest-press", hardware_test_view("press", language, button="back", passed=("next",))),
        (
            "hwtest-led",
            hardware_test_view("led", language, led="green", passed=("next", "back", "menu")),
        ),
        (
            "hwtest-done",
            hardware_test_view("done", language, passed=("next", "menu"), failed=("back",)),
        ),
    ]
