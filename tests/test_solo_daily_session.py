"""Issue 11 at the box: the solo player's own pencil order (RULES C-8) and the day's deal
(D-1, D-2), pressed through a `Session` as a player would, and the day's deal through
two real `nsdevice run` processes with the clock fixed."""

import datetime
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from nsdevice.inputs.events import Button, Gesture, Press
from nsdevice.rules.cities import CityName, city
from nsdevice.rules.deal import daily_seed
from nsdevice.session import FinishedGame, ScreenName, Session, Settings
from nsdevice.session.digits import presses_for
from nsdevice.session.screens.fields import TOTAL_FIELD
from nsdevice.session.settings import NoRecords
from nsdevice.session.snapshot import ONE_TABLE_VERSION
from nsdevice.texts import words

NEXT, BACK, MENU = Press(Button.NEXT), Press(Button.BACK), Press(Button.MENU)
HOLD_BACK = Press(Button.BACK, Gesture.HOLD)
DAY = datetime.date(2026, 11, 23)
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "LANG": "C"}


@dataclass
class Kept(NoRecords):
    """Records that keep what they are given (and read nothing back)."""

    games: list[FinishedGame] = field(default_factory=list)

    def record(self, game: FinishedGame) -> None:
        self.games.append(game)


def choose(session: Session, key: str) -> None:
    """On the setup list: move the cursor to the row `key` and press MENU on it."""
    rows = [row.key for row in session.view().rows]
    while session.view().cursor != rows.index(key):
        session.press(NEXT)
    session.press(MENU)


def lay(session: Session, order: tuple[str, ...]) -> None:
    """On the pencil-order screen: offer each wanted colour with NEXT, take it with MENU;
    the fourth is implied."""
    for colour in order[:3]:
        assert session.screen is ScreenName.PENCIL_ORDER
        for _ in range(4):
            if session.view().offered == colour:
                break
            session.press(NEXT)
        assert session.view().offered == colour
        session.press(MENU)


def own_order_session(name: str, modules: tuple[str, ...]) -> Session:
    settings = Settings(city=name, players=1, modules=modules, pencil_order="own")
    return Session(settings, seed_source=lambda: "SOLO11")


def tokyo_laid_out_of_order() -> tuple[Session, tuple[str, ...]]:
    """A solo Tokyo game whose player laid the pencils in an order not the city's own."""
    colours = city(CityName.TOKYO).colours
    order = (colours[3], colours[1], colours[0], colours[2])
    session = own_order_session("tokyo", ())
    choose(session, "start")
    lay(session, order)
    return session, order


def play_to_the_end(session: Session) -> dict[str, list]:
    """NEXT through the whole game, noting each round start's and pencil pass's pencil,
    the phones' pencils and every turn's cards; then a score and the result."""
    seen: dict[str, list] = {"round_start": [], "pencil_pass": [], "phones": [], "cards": []}
    session.press(NEXT)  # the summary
    while session.screen is not ScreenName.GAME_END:
        view = session.view()
        if session.screen is ScreenName.ROUND_START:
            assert [p.slot for p in view.pencils] == ["1"]
            seen["round_start"].append(view.pencils[0].colour)
            seen["phones"].append(session.table().pencils[0].colour)
        elif session.screen is ScreenName.PENCIL_PASS:
            seen["pencil_pass"].append(view.solo_next)
            title = words("en").page(view).title
            assert title == "Your next pencil" and "pass" not in title.lower()
        elif session.screen is ScreenName.TURN:
            seen["cards"].append(view.cards)
        session.press(NEXT)
    session.press(NEXT)  # to the score entry
    for press in presses_for(1, TOTAL_FIELD):  # a total of 1, digit by digit: the result
        session.press(press)
    assert session.screen is ScreenName.RESULT
    return seen


GAMES = [  # C-8: only Tokyo's rules let a solo player lay the pencils in their own order
    (name, modules)
    for name in ("tokyo",)
    for modules in ((), ("pencil_powers",), ("objectives", "special_stations", "city_gates"))
]


@pytest.mark.parametrize(("name", "modules"), GAMES)
def test_solo_prompts_follow_the_players_own_pencil_order_C8_D1(name, modules):
    colours = city(CityName(name)).colours
    order = (colours[2], colours[0], colours[3], colours[1])  # not the city's own order
    session = own_order_session(name, modules)
    choose(session, "start")
    assert session.screen is ScreenName.PENCIL_ORDER
    lay(session, order)
    assert session.screen is ScreenName.SUMMARY
    assert session.view().solo_order == order
    assert session.deal.setup.pencil_order == order
    seen = play_to_the_end(session)
    assert seen["round_start"] == list(order)
    assert seen["phones"] == list(order)
    assert seen["pencil_pass"] == list(order[1:])  # before rounds 2, 3 and 4

    # The same code, drawn order: the same cards (D-1); the same code and row: the same deal.
    drawn = Session(Settings(city=name, players=1, modules=modules), seed_source=lambda: "SOLO11")
    choose(drawn, "start")
    assert drawn.screen is ScreenName.SUMMARY and drawn.deal.setup.pencil_order is None
    assert play_to_the_end(drawn)["cards"] == seen["cards"]
    again = own_order_session(name, modules)
    choose(again, "start")
    lay(again, order)
    assert again.deal == session.deal


def test_london_pencil_powers_travel_with_the_chosen_pencils_in_tokyo_C8_L_PP_X2():
    colours = city(CityName.TOKYO).colours
    order = tuple(reversed(colours))
    session = own_order_session("tokyo", ("pencil_powers",))
    choose(session, "start")
    lay(session, order)
    powers = dict(session.deal.pencil_powers)
    session.press(NEXT)
    for number, colour in enumerate(order, start=1):
        view = session.view()
        assert view.screen == "round_start" and view.round == number
        assert (view.pencils[0].colour, view.pencils[0].power) == (colour, powers[colour])
        while session.screen is not ScreenName.PENCIL_PASS and number < 4:
            session.press(NEXT)
        session.press(NEXT)


@pytest.mark.parametrize("name", ["paris", "london"])
def test_a_city_whose_rules_draw_the_solo_order_offers_no_order_of_ones_own_C8(name):
    """Paris lays the solo pencils in a random order (seed 002); London's rules at hand
    say nothing of a choice. The setup has no pencil-order row there, and an own order
    remembered from Tokyo deals a drawn one."""
    session = own_order_session(name, ())
    assert "pencil_order" not in [row.key for row in session.view().rows]
    choose(session, "start")
    assert session.screen is ScreenName.SUMMARY and session.deal.setup.pencil_order is None
    tokyo = own_order_session("tokyo", ())
    assert "pencil_order" in [row.key for row in tokyo.view().rows]


def test_the_picker_skips_taken_pencils_and_a_held_back_takes_one_back_C8():
    session = own_order_session("tokyo", ())
    colours = city(CityName.TOKYO).colours
    choose(session, "start")
    view = session.view()
    assert (view.chosen, view.offered, view.left) == ((), colours[0], colours)
    session.press(MENU)  # the first colour
    offered = []
    for _ in range(4):  # NEXT cycles through the three left, never the one taken
        offered.append(session.view().offered)
        session.press(NEXT)
    assert offered == [colours[1], colours[2], colours[3], colours[1]]
    session.press(BACK)
    assert session.view().offered == colours[1]
    session.press(BACK)  # backwards past the start, skipping the taken one
    assert session.view().offered == colours[3]
    session.press(HOLD_BACK)  # take the first one back
    assert session.view().chosen == () and session.view().offered == colours[0]
    session.press(HOLD_BACK)  # nothing laid: back to the setup, on the row that led here
    assert session.screen is ScreenName.SETUP
    assert session.view().rows[session.view().cursor].key == "pencil_order"


def test_pencil_order_row_is_solo_only_and_remembered_C8():
    session = Session(Settings(players=2))
    assert "pencil_order" not in [row.key for row in session.view().rows]
    for _ in range(4):  # 2 → 3 → 4 → a room → 1: solo
        choose(session, "players")
    rows = {row.key: row.value for row in session.view().rows}
    assert rows["pencil_order"] == "drawn"
    choose(session, "pencil_order")
    assert session.settings.pencil_order == "own"
    saved = session.snapshot()
    assert saved["settings"]["pencil_order"] == "own"
    assert Session.restore(json.loads(json.dumps(saved))).settings.pencil_order == "own"
    choose(session, "pencil_order")
    assert session.settings.pencil_order == "drawn"
    assert "pencil_order" not in session.snapshot()["settings"]  # as saved before the row


def test_settings_from_before_the_pencil_order_row_still_load_C8():
    old = {"city": "paris", "players": 1, "modules": [], "language": "de", "sound": True,
           "brightness": 5}  # fmt: skip
    assert Settings.from_dict(old).pencil_order == "drawn"
    assert Settings.from_dict({**old, "pencil_order": "own"}).pencil_order == "own"
    with pytest.raises(ValueError):
        Settings.from_dict({**old, "pencil_order": "sideways"})


def test_a_game_with_its_own_order_restores_mid_pick_and_mid_game_C8_D1():
    session = own_order_session("tokyo", ("objectives",))
    colours = city(CityName.TOKYO).colours
    choose(session, "start")
    session.press(NEXT)
    session.press(MENU)  # the second colour laid first
    restored = Session.restore(json.loads(json.dumps(session.snapshot())))
    view = restored.view()
    assert view.screen == "pencil_order" and view.chosen == (colours[1],)
    lay(restored, (colours[3], colours[0]))  # the last one is implied
    order = (colours[1], colours[3], colours[0], colours[2])
    assert restored.deal.solo_order == order
    for _ in range(20):
        restored.press(NEXT)
    again = Session.restore(json.loads(json.dumps(restored.snapshot())))
    assert again.deal == restored.deal
    assert again.view() == replace(restored.view(), chime=None)  # a chime sounds only once


@pytest.mark.parametrize(
    "change",
    [
        {"pencil_choice": ["purple", "purple"]},
        {"pencil_choice": ["purple", "blue", "pink"]},
        {"pencil_choice": ["green"]},
        {"cursor": 0},  # purple is offered, but already laid
    ],
)
def test_a_damaged_pencil_pick_is_refused_on_restore_C8(change):
    session = own_order_session("tokyo", ())
    choose(session, "start")
    session.press(MENU)  # purple laid
    saved = {**json.loads(json.dumps(session.snapshot())), **change}
    with pytest.raises(ValueError):
        Session.restore(saved)


def test_todays_deal_comes_from_the_injected_date_and_shows_on_the_result_D2():
    kept = Kept()
    session = Session(
        Settings(city="paris", players=1), records=kept, today=lambda: DAY,
        seed_source=lambda: "RANDOM",
    )  # fmt: skip
    choose(session, "seed")
    assert {row.key: row.value for row in session.view().rows}["seed"] == "today"
    assert words("en").row(session.view().rows[session.view().cursor]) == "Deal: Today"
    restored = Session.restore(json.loads(json.dumps(session.snapshot())), today=lambda: DAY)
    assert {row.key: row.value for row in restored.view().rows}["seed"] == "today"
    choose(session, "start")
    setup = session.deal.setup
    assert (setup.seed, setup.daily) == (daily_seed(DAY, CityName.PARIS), "2026-11-23")
    play_to_the_end(session)
    result = session.view()
    assert result.daily == "2026-11-23"
    assert "Today's deal · 23 Nov" in [line.text for line in words("en").page(result).lines]
    assert "Reparto del día · 23 nov" in [line.text for line in words("es").page(result).lines]
    assert kept.games[-1].daily == "2026-11-23"
    assert kept.games[-1].seed == daily_seed(DAY, CityName.PARIS)
    session.press(NEXT)  # a new game of the same setup: a random deal again
    assert (session.deal.setup.seed, session.deal.setup.daily) == ("RANDOM", None)


def test_a_random_or_typed_game_is_not_the_days_deal_D2():
    kept = Kept()
    session = Session(Settings(players=1), records=kept, seed_source=lambda: "RANDOM")
    choose(session, "start")
    play_to_the_end(session)
    assert session.view().daily is None and kept.games[-1].daily is None
    assert all("Today" not in line.text for line in words("en").page(session.view()).lines)


def test_the_deal_row_cycles_random_today_and_a_typed_code_D2():
    session = Session(Settings(players=2), today=lambda: DAY)
    choose(session, "seed")
    choose(session, "seed")  # today → type a code
    assert session.screen is ScreenName.SEED_ENTRY
    session.press(Press(Button.MENU, Gesture.HOLD))  # an empty code: random again
    assert {row.key: row.value for row in session.view().rows}["seed"] == "random"
    assert session.snapshot().get("today") is None  # not saved when not chosen


def test_todays_deal_on_the_same_date_is_the_same_on_two_boxes_D2():
    def first_cards(day: datetime.date) -> list:
        session = Session(Settings(city="london", players=3), today=lambda: day)
        choose(session, "seed")
        choose(session, "start")
        session.press(NEXT)
        cards = []
        for _ in range(3):
            session.press(NEXT)
            cards.append(session.view().cards)
        return cards

    assert first_cards(DAY) == first_cards(DAY)
    assert first_cards(DAY) != first_cards(DAY + datetime.timedelta(days=1))


def run_box(state: Path, keys: list[str], today: str) -> tuple[list[dict], str, int]:
    command = [sys.executable, "-m", "nsdevice", "run", "--input", "script", "--display",
               "json", "--state-dir", str(state), "--keys", ",".join(keys)]  # fmt: skip
    env = {**ENV, "NSDEVICE_TODAY": today}
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)
    screens = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return screens, done.stderr, done.returncode


# From power-on's summary (Tokyo, 2 players): the setup, down to "Deal" (start, city,
# players, four modules, deal), today's deal, back up to "Start", then the first 3 cards.
TODAY_KEYS = ["menu", *["next"] * 7, "menu", *["back"] * 7, "menu", "next", *["next"] * 3]


def test_two_boxes_deal_the_same_first_cards_on_the_same_day_D2(tmp_path):
    runs = {
        box: run_box(tmp_path / box, TODAY_KEYS, day)
        for box, day in (("a", "2026-11-23"), ("b", "2026-11-23"), ("c", "2026-11-24"))
    }
    cards = {}
    for box, (screens, stderr, status) in runs.items():
        assert status == 0, stderr
        turns = [s for s in screens if s["screen"] == "turn"]
        assert [t["turn"] for t in turns] == [1, 2, 3]
        cards[box] = [t["cards"] for t in turns]
        setup = [s for s in screens if s["screen"] == "setup"][-1]
        assert {r["key"]: r["value"] for r in setup["rows"]}["seed"] == "today"
    assert cards["a"] == cards["b"]
    assert cards["a"] != cards["c"]


def test_a_bad_test_date_is_refused_with_one_line_D2(tmp_path):
    screens, stderr, status = run_box(tmp_path, ["next"], "23.11.2026")
    assert status == 2 and screens == []
    assert len(stderr.strip().splitlines()) == 1 and "NSDEVICE_TODAY" in stderr


def test_the_phone_tells_a_solo_player_the_next_pencil_of_their_own_row_C8():
    from nsdevice.web.payload import Artwork, payload

    session, order = tokyo_laid_out_of_order()
    while session.screen is not ScreenName.PENCIL_PASS:
        session.press(NEXT)
    data = payload(1, session.table(), "en", Artwork())
    assert data["title"] == "Your next pencil"
    assert [p["colour"] for p in data["pencils"]] == [order[0]]  # the round just played
    assert data["passes"]["1"]["colour"] == order[1]


# A solo game saved before the pencil order and the day's deal existed (as 6e659dd wrote it).
OLD_SOLO = (
    '{"best_before": null, "cursor": 0, "entry": 0, "question": "", "recorded": false, '
    '"revealed": 0, "round": 2, "scores": [], "screen": "round_start", "seed_characters": [], '
    '"seed_code": null, "settings": {"brightness": 5, "city": "london", "language": "en", '
    '"modules": ["pencil_powers"], "players": 1, "sound": true}, "setup": {"city": "london", '
    '"modules": ["pencil_powers"], "players": 1, "seed": "OLDSOLO"}, "under": "", "version": 1}'
)


def test_a_solo_game_saved_before_the_pencil_order_restores_drawn_and_saves_the_same_C8_D1():
    saved = json.loads(OLD_SOLO)
    session = Session.restore(saved)
    assert session.settings.pencil_order == "drawn"
    assert session.deal.setup.pencil_order is None and session.deal.setup.daily is None
    drawn = session.deal.solo_order
    assert session.view().pencils[0].colour == drawn[1]  # round 2's pencil of the drawn row
    # saved again: the old values unchanged, no pencil order and no day's deal written; only
    # the snapshot version and the digit entry's fields at rest are new
    resaved = json.loads(json.dumps(session.snapshot()))
    # a one-table game saves the version before room games (snapshot.ONE_TABLE_VERSION)
    assert (saved.pop("version"), resaved.pop("version")) == (1, ONE_TABLE_VERSION)
    added = {key: resaved.pop(key) for key in set(resaved) - set(saved)}
    assert added == {"digit": 0, "digits": [], "sheet": [], "sheet_step": 0}
    assert resaved == saved


def test_a_game_on_the_days_deal_stays_one_after_a_restart_D2():
    session = Session(Settings(players=1), today=lambda: DAY)
    choose(session, "seed")
    choose(session, "start")
    for _ in range(5):
        session.press(NEXT)
    saved = json.loads(json.dumps(session.snapshot()))
    assert saved["setup"]["daily"] == "2026-11-23"
    later = Session.restore(saved, today=lambda: DAY + datetime.timedelta(days=1))
    assert later.deal == session.deal  # the date was kept, not asked again
    saved["setup"]["daily"] = "someday"
    with pytest.raises(ValueError):
        Session.restore(saved)


def test_the_next_game_offers_the_last_own_order_first_three_menus_lay_it_again_C8():
    session, order = tokyo_laid_out_of_order()
    colours = city(CityName.TOKYO).colours
    play_to_the_end(session)
    session.press(NEXT)  # the result's NEXT: a new game, its pencils laid first
    assert session.screen is ScreenName.PENCIL_ORDER
    offered = []
    for _ in range(3):
        offered.append(session.view().offered)
        session.press(MENU)
    assert offered == list(order[:3])
    assert session.screen is ScreenName.SUMMARY and session.deal.setup.pencil_order == order
    # a player who wants another order still turns to it as before
    session.press(MENU)  # the summary's MENU: the setup
    choose(session, "start")
    lay(session, colours)
    assert session.deal.setup.pencil_order == colours


def test_a_first_game_offers_the_citys_order_as_before_C8():
    session = own_order_session("tokyo", ())
    choose(session, "start")
    assert session.view().offered == city(CityName.TOKYO).colours[0]
