"""A room game in the session (issue 25): one box calls the cards for every table; the
tables join and send their sheets from phones (`Joined`, `RoomScored`), the roster is
saved with the game, and the table view gives each size's pencils from rules.room."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from nsdevice import views
from nsdevice.box.loop import Loop
from nsdevice.inputs.events import ButtonTracker, Joined, QueueInbox, RoomScored, Stop
from nsdevice.rules.deal import ROUNDS, Setup
from nsdevice.rules.room import table_rounds
from nsdevice.session import ScreenName, Session, Settings
from nsdevice.session.screens.common import round_pencils

ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "LANG": "C"}


def room_session(seed: str = "ROOM25", **settings: object) -> Session:
    session = Session(Settings(room=True, **settings), seed_source=lambda: seed)  # type: ignore[arg-type]
    session.deal_new_game()
    return session


def to_screen(session: Session, screen: ScreenName) -> None:
    while session.screen is not screen:
        session.next()


def test_the_players_row_offers_a_room_after_four_and_the_room_deals_the_same_cards_D1():
    session = Session(Settings(players=4), seed_source=lambda: "SAME")
    rows = session.view().rows
    session.state.cursor = [row.key for row in rows].index("players")
    session.menu()
    assert session.settings.room and session.view().rows[session.state.cursor].value == "room"
    session.state.cursor = 0
    session.menu()  # start
    assert session.state.room is not None and session.screen is ScreenName.SUMMARY
    one_table = Session(Settings(players=3), seed_source=lambda: "SAME")
    one_table.deal_new_game()
    # the cards never depend on the count (D-1): a room plays a one-table game's cards
    cards = [[t.cards for t in r.turns] for r in session.current_deal().rounds]
    assert cards == [[t.cards for t in r.turns] for r in one_table.current_deal().rounds]
    session.state.cursor = 0
    session.back()  # back to the setup; past a room, one player
    session.state.cursor = [row.key for row in session.view().rows].index("players")
    session.menu()
    assert (session.settings.players, session.settings.room) == (1, False)


def test_a_room_game_plays_through_to_the_rooms_results_C4():
    session = room_session()
    seen = []
    while session.screen is not ScreenName.ROOM_RESULTS:
        seen.append(session.screen)
        session.next()
    assert ScreenName.GAME_END not in seen and ScreenName.SCORE_ENTRY not in seen
    assert seen.count(ScreenName.ROUND_START) == ROUNDS
    assert seen.count(ScreenName.PENCIL_PASS) == ROUNDS - 1
    view = session.view()
    assert isinstance(view, views.RoomResultsView) and view.seed == "ROOM25"  # D-2: over now
    session.back()
    assert session.screen is ScreenName.ROUND_END


@pytest.mark.parametrize("round_number", range(1, ROUNDS + 1))
def test_the_table_views_rows_are_rules_rooms_for_every_size_C8(round_number):
    session = room_session(city="paris", modules=("pencil_powers",))
    to_screen(session, ScreenName.ROUND_START)
    for _ in range(round_number - 1):
        to_screen(session, ScreenName.PENCIL_PASS)
        session.next()
    assert session.state.progress.round == round_number
    setup = session.current_setup()
    deal = session.current_deal()
    expected = tuple(
        round_pencils(deal, table_rounds(setup, size)[round_number - 1]) for size in (1, 2, 3, 4)
    )
    room = session.table().room
    assert room is not None and room.rows == expected
    assert [len(row) for row in room.rows] == [1, 4, 4, 4]  # C-8: solo; spares at 2 and 3
    assert {p.slot for p in room.rows[1]} == {"1", "2", "table-1", "table-2"}
    assert {p.slot for p in room.rows[2]} == {"1", "2", "3", "table"}
    if round_number < ROUNDS:
        nxt = tuple(
            round_pencils(deal, table_rounds(setup, s)[round_number]) for s in (1, 2, 3, 4)
        )
        assert room.next_rows == nxt
    else:
        assert room.next_rows == ()
    shown = session.view()
    assert isinstance(shown, views.RoundStartView) and shown.room is not None
    assert shown.room.rows == expected and shown.controller == 0  # each table its own (C-10)
    assert room.code == ""  # D-2: the deal code would tell the cards to come


def test_two_boxes_on_one_code_give_the_same_rows_and_cards_D1():
    first, second = room_session("TWIN"), room_session("TWIN")
    for box in (first, second):
        to_screen(box, ScreenName.TURN)
    assert first.table().room == second.table().room
    assert first.table().view == second.table().view  # the cards (the join codes differ)


def test_joins_fix_a_tables_size_by_its_first_joiner_and_a_seat_takes_the_newer_name():
    session = room_session()
    assert session.join(7, 3, 1, "Ana")
    assert not session.join(7, 2, 2, "Bo")  # the table is registered for 3
    assert session.join(7, 3, 3, "Bo")
    assert session.join(7, 3, 1, "Anabel")  # joined again: the newer name
    assert not session.join(7, 3, 1, "Anabel")  # the same again changes nothing
    room = session.table().room
    assert room is not None
    assert room.tables == ((7, 3),)
    assert room.seats == (views.RoomSeat(7, 1, "Anabel"), views.RoomSeat(7, 3, "Bo"))


@pytest.mark.parametrize(
    ("table", "size", "seat", "name"),
    [(0, 2, 1, "A"), (100, 2, 1, "A"), (5, 0, 1, "A"), (5, 5, 1, "A"), (5, 2, 3, "A"),
     (5, 2, 0, "A"), (5, 2, 1, ""), (5, 2, 1, "x" * 21), (5, 2, 1, "tab\there"),
     (True, 2, 1, "A")],
)  # fmt: skip
def test_a_join_out_of_range_is_ignored(table, size, seat, name):
    session = room_session()
    assert not session.join(table, size, seat, name)
    assert session.table().room.seats == ()


def test_a_one_table_game_takes_no_room_items():
    session = Session(Settings(players=2), seed_source=lambda: "ONE")
    session.deal_new_game()
    assert not session.join(1, 2, 1, "Ana")
    assert session.table().room is None and "room" not in session.snapshot()
    assert session.snapshot()["version"] == 2  # an older box still resumes it


def test_sheets_are_taken_only_at_the_rooms_end_and_ranked_C12():
    session = room_session()
    session.join(1, 2, 1, "Ana")
    session.join(1, 2, 2, "Bo")
    session.join(2, 1, 1, "Cy")
    assert not session.room_score(1, 1, 100, 30)  # the game is not over
    to_screen(session, ScreenName.ROOM_RESULTS)
    assert session.table().scoring
    assert not session.room_score(3, 1, 100, 30)  # nobody joined there
    assert not session.room_score(1, 1, 100, -1)  # a best line below zero
    assert session.room_score(1, 1, 120, 30)
    assert session.room_score(1, 2, 120, 34)  # C-12: the best line breaks the tie
    assert session.room_score(2, 1, 120, 34)  # still tied: the same place
    ranking = session.table().room.ranking
    assert [(p.place, p.name, p.table_winner) for p in ranking] == [
        (1, "Bo", True), (1, "Cy", True), (3, "Ana", False)
    ]
    view = session.view()
    assert isinstance(view, views.RoomResultsView) and view.ranking == ranking
    session.menu()  # the menu over the results: still the room's end
    assert session.room_score(1, 1, 125, 30)
    assert session.table().room.ranking[0].name == "Ana"


def test_a_player_alone_at_a_table_of_two_is_no_winner_of_it_until_the_other_sheet_D14():
    session = room_session()
    session.join(1, 2, 1, "Ana")
    session.join(1, 2, 2, "Bo")
    to_screen(session, ScreenName.ROOM_RESULTS)
    assert session.room_score(1, 1, 90, 20)
    ranking = session.table().room.ranking
    assert [(p.name, p.table_winner) for p in ranking] == [("Ana", False)]
    assert session.room_score(1, 2, 80, 10)
    ranking = session.table().room.ranking
    assert [(p.name, p.table_winner) for p in ranking] == [("Ana", True), ("Bo", False)]


def test_the_results_go_to_pages_of_eight_and_next_turns_them():
    session = room_session()
    for table in range(1, 6):
        for seat in (1, 2, 3, 4):
            session.join(table, 4, seat, f"P{table}{seat}")
    to_screen(session, ScreenName.ROOM_RESULTS)
    for table in range(1, 6):
        for seat in (1, 2, 3, 4):
            session.room_score(table, seat, 50 + table * 4 + seat, 10)
    pages = []
    for _ in range(3):
        view = session.view()
        assert isinstance(view, views.RoomResultsView)
        pages.append([p.name for p in view.ranking])
        session.next()
    assert [len(page) for page in pages] == [8, 8, 4] and session.view().page == 1
    ranking = session.table().room.ranking
    assert [name for page in pages for name in page] == [p.name for p in ranking]


def test_a_restored_room_keeps_its_roster_and_scores():
    session = room_session()
    session.join(4, 2, 1, "Ana")
    session.join(4, 2, 2, "Bo")
    to_screen(session, ScreenName.ROOM_RESULTS)
    session.room_score(4, 2, 99, 20)
    saved = json.loads(json.dumps(session.snapshot()))
    assert saved["version"] == 3 and saved["room"]["tables"] == [[4, 2]]
    again = Session.restore(saved)
    assert again.table().room == session.table().room
    assert again.view() == session.view()
    assert again.room_score(4, 1, 80, 15)


def test_a_restored_room_mid_round_keeps_the_roster_and_the_deal():
    session = room_session()
    session.join(9, 4, 2, "Di")
    to_screen(session, ScreenName.TURN)
    session.next()
    again = Session.restore(json.loads(json.dumps(session.snapshot())))
    # the same turn and roster (a restart draws a new join code: phones join again)
    assert again.table() == replace(session.table(), code=again.join_code, game=again.game)


@pytest.mark.parametrize(
    "damage",
    [
        {"tables": [[4, 5]], "seats": [], "scores": []},  # a size past 4
        {"tables": [[4, 2]], "seats": [[4, 3, "Ana"]], "scores": []},  # a seat past the size
        {"tables": [], "seats": [[4, 1, "Ana"]], "scores": []},  # a table nobody registered
        {"tables": [[4, 2]], "seats": [[4, 1, "Ana"]], "scores": [[4, 2, 10, 3]]},  # no seat
        {"tables": [[4, 2], [4, 2]], "seats": [], "scores": []},  # twice
        {"tables": [[4, 2]], "seats": [[4, 1, ""]], "scores": []},  # no name
        {"tables": "x"},
    ],
)
def test_a_damaged_room_is_refused_so_the_store_sets_it_aside(damage):
    session = room_session()
    saved = json.loads(json.dumps(session.snapshot()))
    saved["room"] = damage
    with pytest.raises(ValueError):
        Session.restore(saved)


def test_room_results_in_a_one_table_game_are_refused():
    session = room_session()
    to_screen(session, ScreenName.ROOM_RESULTS)
    saved = json.loads(json.dumps(session.snapshot()))
    del saved["room"]
    with pytest.raises(ValueError):
        Session.restore(saved)


def test_the_loop_takes_joins_and_sheets_for_this_game_only_with_a_frame_and_a_save():
    from nsdevice.displays import Display

    class Recording(Display):
        def __init__(self) -> None:
            self.shown: list[views.View] = []

        def show(self, view: views.View) -> None:
            self.shown.append(view)

    session = room_session()
    saves: list[dict] = []
    published: list[views.TableView] = []
    inbox = QueueInbox()
    display = Recording()
    loop = Loop(session=session, display=display, inbox=inbox, tracker=ButtonTracker(),
                save=saves.append, publish=published.append)  # fmt: skip
    game = session.game
    for item in (
        Joined(3, 2, 1, "Ana", game),
        Joined(3, 2, 2, "Bo", game - 1),  # an earlier game's: dropped
        Joined(3, 4, 2, "Bo", game),  # another size than the table's: ignored
        RoomScored(3, 1, 90, 20, game),  # not at the end yet: ignored
        Stop(),
    ):
        inbox.put(item)
    loop.run()
    assert len(saves) == 1 and saves[0]["room"]["seats"] == [[3, 1, "Ana"]]
    summary = display.shown[-1]
    assert isinstance(summary, views.SummaryView) and summary.room is not None
    assert summary.room.players == 1 and summary.room.tables == 1  # the caller's count
    assert published[-1].room is not None and published[-1].room.seats[0].name == "Ana"
    # the phones never get the join code, the address or every size's pencils inside the
    # game's view: only the room's counts (issue 34: their cut-down room)
    phones_call = published[-1].view.room  # type: ignore[union-attr]
    assert phones_call == views.RoomCall(tables=1, players=1)
    to_screen(session, ScreenName.ROOM_RESULTS)
    for item in (RoomScored(3, 1, 90, 20, game - 1), RoomScored(3, 1, 90, 20, game), Stop()):
        inbox.put(item)
    loop.run()
    assert len(saves) == 2 and saves[-1]["room"]["scores"] == [[3, 1, 90, 20]]
    results = display.shown[-1]
    assert isinstance(results, views.RoomResultsView) and results.ranking[0].name == "Ana"


def run_box(state: Path, keys: str, *extra: str) -> list[dict]:
    command = [sys.executable, "-m", "nsdevice", "run", "--input", "script", "--display", "json",
               "--no-web", "--state-dir", str(state), "--keys", keys, *extra]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, env=ENV, timeout=60)
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def test_run_room_plays_a_whole_game_with_the_script_input_and_json_display(tmp_path):
    setup = Setup("london", 4, ("objectives",), "ROOMRUN")
    turns = sum(len(r.turns) for r in table_rounds(setup, 4))
    # summary → (round start, its turns, round end, pencil pass) × 4 → the room's results
    presses = 1 + turns + 2 * ROUNDS + (ROUNDS - 1)
    screens = run_box(tmp_path, ",".join(["next"] * presses), "--room", "--city", "london",
                      "--seed", "roomrun", "--modules", "objectives")  # fmt: skip
    names = [screen["screen"] for screen in screens]
    assert names[0] == "summary" and names[-1] == "room_results"
    assert names.count("turn") == turns and "game_end" not in names
    first = screens[0]
    assert first["city"] == "london" and first["modules"] == ["objectives"]
    assert len(first["room"]["code"]) == 8  # the join code, for a harness to read
    assert screens[-1]["seed"] == "ROOMRUN" and screens[-1]["ranking"] == []
    assert all(screen["say"] for screen in screens if screen["screen"] == "turn")  # the caller
    # run again with --room: the room's game resumes where it stood
    again = run_box(tmp_path, "back", "--room", "--city", "london", "--seed", "ROOMRUN",
                    "--modules", "objectives")  # fmt: skip
    assert [s["screen"] for s in again] == ["room_results", "round_end"]


def test_the_caller_says_each_card_as_a_one_table_game_does_and_no_tables_controller_C10():
    from nsdevice.voice import phrase_ids

    room, one = room_session("VOICE"), Session(Settings(players=4), seed_source=lambda: "VOICE")
    one.deal_new_game()
    to_screen(room, ScreenName.ROUND_START)
    to_screen(one, ScreenName.ROUND_START)
    assert phrase_ids(room.view()) == ("round.1.4",)  # every table has its own controller
    assert any(i.startswith("controller.") for i in phrase_ids(one.view()))
    for _ in range(4):
        room.next()
        one.next()
        assert phrase_ids(room.view()) == phrase_ids(one.view())  # the same card, said
    to_screen(room, ScreenName.PENCIL_PASS)
    assert phrase_ids(room.view()) == ("pass_pencils",)
    to_screen(room, ScreenName.ROOM_RESULTS)
    assert phrase_ids(room.view()) == ("game_over",)


def test_the_ranking_follows_a_newer_name_and_a_newer_sheet():
    session = room_session()
    session.join(2, 2, 1, "Ana")
    to_screen(session, ScreenName.ROOM_RESULTS)
    session.room_score(2, 1, 90, 20)
    assert [p.name for p in session.table().room.ranking] == ["Ana"]
    session.join(2, 2, 1, "Anabel")  # the seat joined again: the newer name, ranked
    session.room_score(2, 1, 95, 21)  # a corrected sheet replaces the first
    ranking = session.table().room.ranking
    assert [(p.name, p.total) for p in ranking] == [("Anabel", 95)]
    assert session.view().ranking == ranking
