"""A phone's row as the game goes, and a one-table seat's name (issue 34): `POST /line` for
the phone's own seat once the round's last card is out, kept by the box as its own line
entry keeps a line (S-T, S-P); a line sent while the box has that very line open is shown
there, never dropped; names given at the join are on the result and in the history."""

from __future__ import annotations

import pytest

from nsdevice import views
from nsdevice.inputs.events import Button, Gesture, LineSent, Named, Press, Scored
from nsdevice.rules import scoring
from nsdevice.session import ScreenName
from nsdevice.session.settings import FinishedGame, NoRecords
from nsdevice.texts import words
from nsdevice.web.wire import item_frame, item_of
from tests.test_web import TOKYO_SHEET, Table, tokyo

HOLD_NEXT = Press(Button.NEXT, Gesture.HOLD)
NEXT, MENU = Press(Button.NEXT), Press(Button.MENU)


class Kept(NoRecords):
    """Remembers the games recorded."""

    def __init__(self) -> None:
        self.games: list[FinishedGame] = []

    def record(self, game: FinishedGame) -> None:
        self.games.append(game)


def deliver(table: Table) -> list[object]:
    """What the phones sent, handed to the session as the loop hands it (`Loop.take`)."""
    items = table.inbox.get(0)
    session = table.session
    for item in items:
        if getattr(item, "game", None) != session.game:
            continue
        if isinstance(item, LineSent):
            session.enter_line(item.seat, item.round, item.counts)
        elif isinstance(item, Named):
            session.name_seat(item.seat, item.name)
        elif isinstance(item, Scored):
            session.enter_score(item.seat, item.total, item.best_line, item.counts)
    table.show()
    return items


def join(table: Table, seat: int, name: str = "") -> dict[str, str]:
    key = {"X-Join-Code": table.session.join_code}
    body = {"seat": seat, **({"name": name} if name else {})}
    answer = table.client.post("/join", json=body, headers=key)
    assert answer.status_code == 200, answer.text
    return {"X-Seat-Token": answer.json()["token"]}


def to_round_end(table: Table, number: int = 1) -> None:
    session = table.session
    while session.screen is not ScreenName.ROUND_END or session.progress.round != number:
        session.press(NEXT)
    table.show()


@pytest.fixture
def table():
    made = Table(tokyo())
    yield made
    made.close()


def test_a_phones_row_is_kept_as_the_boxs_line_entry_keeps_it_S_T(table):
    token = join(table, 2)
    to_round_end(table)
    answer = table.client.post("/line", json={"seat": 2, "round": 1, "line": [5, 4]}, headers=token)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"round": 1, "points": scoring.tokyo_line(5, 4)}
    deliver(table)
    assert table.session.state.lines == {2: {1: (5, 4)}}
    assert table.session.view().running == (None, 20, None)
    assert table.client.get("/state").json()["lines_in"] == [[2, 1, [5, 4]]]
    # the box's own line entry opens on the phone's line for that seat
    table.session.press(HOLD_NEXT)
    table.session.press(Press(Button.MENU, Gesture.HOLD))  # seat 1 skipped
    assert [c.value for c in table.session.view().counts] == [5, 4]


@pytest.mark.parametrize(
    ("seat", "number", "line", "status"),
    [
        (1, 1, [5, 4], 403),  # another seat's: the phone joined for seat 2
        (2, 2, [5, 4], 409),  # round 2 has not ended
        (2, 1, [14, 4], 422),  # 14 districts: Tokyo has 13
        (2, 1, [5, 4, 1], 422),  # a Tokyo line has two counts
        (2, 0, [5, 4], 422),  # no round 0
    ],
)
def test_a_row_for_another_seat_or_a_round_not_over_or_that_no_sheet_has_is_refused_S_T(
    table, seat, number, line, status
):
    token = join(table, 2)
    to_round_end(table)
    answer = table.client.post(
        "/line", json={"seat": seat, "round": number, "line": line}, headers=token
    )
    assert answer.status_code == status, answer.text
    assert deliver(table) == []


def test_a_row_during_the_round_and_at_the_games_end_is_refused(table):
    token = join(table, 1)
    table.session.press(NEXT)
    table.session.press(NEXT)  # round 1's first card: no line yet
    table.show()
    body = {"seat": 1, "round": 1, "line": [3, 3]}
    assert table.client.post("/line", json=body, headers=token).status_code == 409
    while table.session.screen is not ScreenName.GAME_END:
        table.session.press(NEXT)
    table.show()  # the game's end takes whole sheets
    assert table.client.post("/line", json=body, headers=token).status_code == 409


def test_a_row_sent_while_the_box_has_that_line_open_is_shown_there_not_dropped_S_T(table):
    """The pitfall: the box's line entry on seat 1's line of round 1, a digit already
    turned, when seat 1's phone sends it. The page answered 200, so the box takes it: the
    entry shows the phone's counts, and MENU through them keeps them."""
    token = join(table, 1)
    to_round_end(table)
    session = table.session
    session.press(HOLD_NEXT)
    session.press(NEXT)  # 10 districts on the box, not taken yet
    body = {"seat": 1, "round": 1, "line": [6, 3]}
    assert table.client.post("/line", json=body, headers=token).status_code == 200
    deliver(table)
    view = session.view()
    assert session.screen is ScreenName.LINE_ENTRY and view.seat == 1
    assert ([c.value for c in view.counts], view.digits) == ([6, 3], ("0", "6"))
    for _ in range(4):  # both counts' two digits: taken as shown
        session.press(MENU)
    assert session.view().seat == 2 and session.state.lines == {1: {1: (6, 3)}}


def test_names_from_the_phones_are_on_the_result_and_in_the_history_C12():
    records = Kept()
    session = tokyo()
    session.records = records
    table = Table(session)
    try:
        names = {1: "Ana", 2: "Bernd", 3: "Chloé"}
        tokens = {seat: join(table, seat, name) for seat, name in names.items()}
        deliver(table)
        while session.screen is not ScreenName.GAME_END:
            session.press(NEXT)
        table.show()
        for seat, stamps in ((1, 20), (2, 30), (3, 5)):
            body = {"seat": seat, "sheet": {**TOKYO_SHEET, "stamps": stamps}}
            assert table.client.post("/score", json=body, headers=tokens[seat]).status_code == 200
            deliver(table)
        result = session.view()
        assert isinstance(result, views.ResultView)
        assert [s.name for s in result.seats] == ["Ana", "Bernd", "Chloé"]
        page = words("en").page(result)
        assert page.lines[0].text == "Bernd wins!"
        assert records.games[-1].names == ("Ana", "Bernd", "Chloé")
        phone = table.client.get("/state?lang=en").json()
        shown = [text for text, _ in phone["lines"]]
        assert "Bernd wins!" in shown
        # each phone's sheet gives its seat's breakdown, on the phones too (S-T-END)
        lines = sum(scoring.tokyo_line(d, s) for d, s in TOKYO_SHEET["lines"])
        for seat, stamps in zip(result.seats, (20, 30, 5), strict=True):
            assert sum(part.points for part in seat.parts) == seat.total
            assert (seat.parts[0].points, seat.parts[1].points) == (lines, stamps)
        assert f"Lines: {lines} · Tourist stamps: 30 · Green ring: −9 · Interchanges: 15" in shown
    finally:
        table.close()


def test_a_name_that_is_none_is_refused_at_the_join(table):
    key = {"X-Join-Code": table.session.join_code}
    answer = table.client.post("/join", json={"seat": 1, "name": "   "}, headers=key)
    assert answer.status_code == 422
    assert deliver(table) == []


def test_a_line_and_a_name_cross_the_pages_socket_as_they_were_sent():
    for item in (LineSent(2, 3, (7, 5, 1), 4), Named(1, "Zoë", 4)):
        assert item_of(item_frame(item)[5:]) == item
