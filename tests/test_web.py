"""The phones' page (issue 14) without a browser: what a watcher sees, who may act, and
that bad requests get a 4xx and change nothing. The browser itself: test_web_browser.py."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from starlette.testclient import TestClient

from nsdevice import views
from nsdevice.inputs.events import Button, Press, QueueInbox, Scored
from nsdevice.rules import scoring
from nsdevice.session import Capabilities, ScreenName, Session, Settings
from nsdevice.web.app import MOST_BODY, make_app
from nsdevice.web.guard import BURST, TRIES, Budget
from nsdevice.web.payload import Artwork
from nsdevice.web.sheet import Sheet, SheetError, score_sheet
from nsdevice.web.stage import Stage

NEXT, MENU = Press(Button.NEXT), Press(Button.MENU)
TOKYO_SHEET = {
    "lines": [[5, 4], [5, 5], [6, 3], [4, 3]],
    "stamps": 20,
    "ring_unconnected": 3,
    "interchanges": {"3": 0, "4": 1, "5": 0},
    "objectives": 0,
}


def codes(*values: str):
    it = iter(values)
    return lambda: next(it)


def tokyo(players: int = 3, code_source=None) -> Session:
    session = Session(
        Settings(city="tokyo", players=players),
        capabilities=Capabilities(phones=("http://127.0.0.1:8414/",)),
        seed_source=lambda: "PHONES",
        code_source=code_source or codes("111111", "222222", "333333", "444444"),
    )
    while session.screen is not ScreenName.SUMMARY:  # the setup's first row starts the game
        session.press(MENU)
    return session


def to_turn(session: Session, turns: int = 1) -> None:
    while session.screen is not ScreenName.TURN:
        session.press(NEXT)
    for _ in range(turns - 1):
        session.press(NEXT)


def to_game_end(session: Session) -> None:
    while session.screen is not ScreenName.GAME_END:
        session.press(NEXT)


class Table:
    """A page over a session, with the loop's part played by the test: what a phone
    sends arrives in `inbox`; `show()` publishes the session as the loop would."""

    def __init__(self, session: Session, buttons: bool = False) -> None:
        self.session = session
        self.stage = Stage()
        self.inbox = QueueInbox()
        self.budget = Budget()
        app = make_app(self.stage, self.inbox.put, Artwork(), buttons, self.budget)
        self.client = TestClient(app, base_url="http://localhost:8414")
        self.client.__enter__()
        self.show()

    def join(self, seat: int, code: str | None = None) -> dict[str, str]:
        """A phone joined for `seat`: the header its acts carry."""
        key = {"X-Join-Code": code or self.session.join_code}
        answer = self.client.post("/join", json={"seat": seat}, headers=key)
        assert answer.status_code == 200, answer.text
        return {"X-Seat-Token": answer.json()["token"]}

    def show(self) -> None:
        self.stage.publish(self.session.table())

    def deliver(self) -> list[Scored]:
        """What phones sent, handed to the session as the loop hands it."""
        items = [item for item in self.inbox.get(0) if isinstance(item, Scored)]
        for item in items:
            if item.game == self.session.game:
                self.session.enter_score(item.seat, item.total, item.best_line)
        self.show()
        return items

    def close(self) -> None:
        self.client.__exit__(None, None, None)


@pytest.fixture
def table():
    made = Table(tokyo())
    yield made
    made.close()


def test_anyone_may_watch_the_revealed_cards_and_nothing_more_D1(table):
    to_turn(table.session, 3)
    table.show()
    answer = table.client.get("/state?lang=en")
    assert answer.status_code == 200
    data = answer.json()
    view = table.session.view()
    assert isinstance(view, views.TurnView)
    assert [card["symbol"] for card in data["cards"]] == [
        (c.symbol or c.special).value for c in view.cards
    ]
    assert len(data["earlier"]) == 2
    text = answer.text
    assert table.session.join_code not in text  # the code is for the box's screen only
    deal = table.session.deal
    assert deal is not None
    shown = {c.id for c in view.cards} | {c.id for t in view.earlier for c in t.cards}
    unseen = [c.id for turn in deal.rounds[0].turns[3:] for c in turn.cards]
    assert unseen and not shown & set(unseen)
    assert "PHONES" not in text  # the deal code (which gives the deck's order) is not shown


def test_the_phone_speaks_its_own_language_not_the_boxs(table):
    to_turn(table.session)
    table.show()
    german = table.client.get("/state?lang=de").json()
    english = table.client.get("/state?lang=xx").json()  # unknown: English
    assert german["language"] == "de" and english["language"] == "en"
    assert german["words"]["seat"] == "Spieler" and english["words"]["seat"] == "Seat"
    assert german["title"] != english["title"]


def test_each_seat_sees_its_pencil_this_round_C8(table):
    to_turn(table.session)
    table.show()
    data = table.client.get("/state").json()
    view = table.session.table()
    seats = [p for p in view.pencils if p.slot.isdigit()]
    assert [(p["seat"], p["colour"]) for p in data["pencils"]] == [
        (int(p.slot), p.colour) for p in seats
    ]
    assert len(data["pencils"]) == 3


def test_after_the_game_the_phone_shows_no_pencil_and_no_box_button_hint_C8(table):
    """At the game's end a phone can only send its sheet: no "your pencil this round",
    no "Hold NEXT…" for the box's buttons; the box itself keeps its hint."""
    to_game_end(table.session)
    table.show()
    data = table.client.get("/state").json()
    assert data["screen"] == "game_end" and data["pencils"] == []
    assert all("NEXT" not in text for text, _ in data["lines"]), data["lines"]
    from nsdevice.texts import words

    box = words("en").page(table.session.view())
    assert any("Hold NEXT" in line.text for line in box.lines)
    table.session.next()  # the score entry: its digit hints are the box's alone too
    table.show()
    data = table.client.get("/state").json()
    assert data["screen"] == "score_entry" and data["pencils"] == []
    assert all("Hold" not in text for text, _ in data["lines"]), data["lines"]


def test_no_action_without_the_join_code(table):
    to_game_end(table.session)
    table.show()
    body = {"seat": 1, "sheet": TOKYO_SHEET}
    assert table.client.post("/join", json={"seat": 1}).status_code == 403
    wrong = {"X-Join-Code": "99999999"}
    assert table.client.post("/join", json={"seat": 1}, headers=wrong).status_code == 403
    assert table.client.post("/score", json=body).status_code == 403
    right = {"X-Join-Code": table.session.join_code}  # the code joins; it does not act
    assert table.client.post("/score", json=body, headers=right).status_code == 403
    forged = {"X-Seat-Token": "1." + "0" * 32}
    assert table.client.post("/score", json=body, headers=forged).status_code == 403
    table.client.cookies.set("code", table.session.join_code)  # a cookie is never a key
    assert table.client.post("/score", json=body).status_code == 403
    assert table.deliver() == []


def test_old_codes_are_refused_after_a_new_game():
    session = tokyo()
    table = Table(session)
    try:
        old = session.join_code
        token = table.join(1)
        to_turn(session)
        session.press(MENU)
        while session.view().cursor != [r.key for r in session.view().rows].index("new_game"):
            session.press(NEXT)
        session.press(MENU)
        session.press(NEXT)  # yes, a new game
        while session.screen is not ScreenName.SUMMARY:
            session.press(MENU)
        table.show()
        assert session.join_code != old
        old_key = {"X-Join-Code": old}
        assert table.client.post("/join", json={"seat": 1}, headers=old_key).status_code == 403
        to_game_end(session)
        table.show()
        body = {"seat": 1, "sheet": TOKYO_SHEET}
        assert table.client.post("/score", json=body, headers=token).status_code == 403
        new = {"X-Join-Code": session.join_code}
        joined = table.client.post("/join", json={"seat": 1}, headers=new).json()
        assert joined["game"] == session.game and joined["seat"] == 1
        again = {"X-Seat-Token": joined["token"]}
        assert table.client.post("/score", json=body, headers=again).status_code == 200
    finally:
        table.close()


def test_renewing_the_code_on_the_phones_screen_refuses_the_old_one(table):
    session = table.session
    old = session.join_code
    session.press(NEXT)  # the round's start: MENU opens the menu there (the setup on a summary)
    session.press(MENU)
    while session.view().cursor != [r.key for r in session.view().rows].index("phones"):
        session.press(NEXT)
    session.press(MENU)
    assert session.screen is ScreenName.PHONES
    view = session.view()
    assert isinstance(view, views.PhonesView) and view.code == old
    session.press(NEXT)  # a new code
    assert session.join_code != old and session.view().code == session.join_code
    table.show()
    old_key = {"X-Join-Code": old}
    assert table.client.post("/join", json={"seat": 1}, headers=old_key).status_code == 403


def test_wrong_codes_are_rate_limited_per_address_within_the_boxs_budget(table):
    for _ in range(TRIES):
        assert table.client.post("/join", headers={"X-Join-Code": "00000000"}).status_code == 403
    right = {"X-Join-Code": table.session.join_code}
    assert table.client.post("/join", json={"seat": 1}, headers=right).status_code == 429
    other = TestClient(table.client.app, base_url="http://localhost:8414", client=("10.0.0.7", 1))
    assert other.post("/join", json={"seat": 1}, headers=right).status_code == 200


def test_phone_scores_make_the_boxs_ending_card_S_T_END():
    session = tokyo()
    table = Table(session)
    try:
        to_game_end(session)
        table.show()
        tokens = {seat: table.join(seat) for seat in (1, 2, 3)}
        sheets = {1: TOKYO_SHEET, 2: {**TOKYO_SHEET, "stamps": 30}, 3: {**TOKYO_SHEET, "stamps": 5}}
        for seat, sheet in sheets.items():
            body = {"seat": seat, "sheet": sheet}
            answer = table.client.post("/score", json=body, headers=tokens[seat])
            assert answer.status_code == 200, answer.text
            table.deliver()
            if seat < 3:
                assert session.screen is ScreenName.GAME_END  # waits for every seat
        result = session.view()
        assert isinstance(result, views.ResultView)
        lines = [scoring.tokyo_line(d, s) for d, s in TOKYO_SHEET["lines"]]
        first = scoring.tokyo_total(lines, stamps=20, ring_unconnected=3, interchanges={4: 1})
        assert [(s.seat, s.total, s.best_line) for s in result.seats] == [
            (1, first, max(lines)),
            (2, first + 10, max(lines)),
            (3, first - 15, max(lines)),
        ]
        assert result.winners == (2,)
        # once the result is up, the page takes no more scores
        again = table.client.post(
            "/score", json={"seat": 1, "sheet": TOKYO_SHEET}, headers=tokens[1]
        )
        assert again.status_code == 409
    finally:
        table.close()


def test_the_loop_publishes_each_new_table_and_drops_scores_of_an_earlier_game():
    from nsdevice.box.loop import Loop
    from nsdevice.inputs.events import ButtonTracker, Stop
    from tests.test_loop import RecordingDisplay

    session = tokyo(players=2)
    to_game_end(session)
    published: list[views.TableView] = []
    inbox = QueueInbox()
    saved: list[dict] = []
    loop = Loop(session, RecordingDisplay(), inbox, ButtonTracker(), save=saved.append,
                publish=published.append)  # fmt: skip
    for item in (Scored(1, 50, 20, session.game - 1), Scored(3, 50, 20, session.game)):
        inbox.put(item)  # an earlier game's, and a seat the game does not have
    inbox.put(Scored(1, 50, 20, session.game))
    inbox.put(Scored(2, 60, 25, session.game))
    inbox.put(Stop())
    assert loop.run() == 0
    assert len(saved) == 2  # only the two good scores changed the game
    assert [t.seats_in for t in published] == [(), (1,), (1, 2)]
    assert published[-1].view is not None and published[-1].view.screen == "result"
    result = session.view()
    assert isinstance(result, views.ResultView) and result.winners == (2,)


def test_the_sheet_scores_as_nsdevice_score_does_S_T_END_S_P_END():
    command = [
        sys.executable, "-m", "nsdevice", "score", "--city", "tokyo", "--json",
        "--line", "5x4", "--line", "5x5", "--line", "6x3", "--line", "4x3",
        "--stamps", "20", "--ring-unconnected", "3", "--interchanges", "4:1",
    ]  # fmt: skip
    said = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
    assert score_sheet("districts", TOKYO_SHEET).total == said["total"]
    paris = {
        "lines": [[7, 5, 5], [4, 3, 0]],
        "overpasses_once": 2,
        "overpasses_twice": 1,
        "interchanges": {"2": 1, "3": 1, "4": 0},
        "objectives": 1,
    }
    lines = [scoring.paris_line(7, 5, 5), scoring.paris_line(4, 3, 0)]
    expected = scoring.paris_total(
        lines, overpasses_once=2, overpasses_twice=1, interchanges={2: 1, 3: 1}, objectives=1
    )
    assert score_sheet("quarters", paris) == Sheet(expected, max(lines))
    assert score_sheet("", {"total": 88, "best_line": 30}) == Sheet(88, 30)


@pytest.mark.parametrize(
    "sheet",
    [
        {**TOKYO_SHEET, "extra": 1},  # unknown field
        {k: v for k, v in TOKYO_SHEET.items() if k != "stamps"},  # missing field
        {**TOKYO_SHEET, "stamps": True},
        {**TOKYO_SHEET, "stamps": 2.5},
        {**TOKYO_SHEET, "stamps": -1},
        {**TOKYO_SHEET, "stamps": 61},  # more than the map has (S-T-END)
        {**TOKYO_SHEET, "lines": []},
        {**TOKYO_SHEET, "lines": [[1, 2]] * 5},
        {**TOKYO_SHEET, "lines": [[14, 2]]},  # 13 districts at most
        {**TOKYO_SHEET, "interchanges": {"2": 1, "3": 0, "4": 0, "5": 0}},
        [],
        "sheet",
    ],
)
def test_bad_sheets_are_refused_with_a_reason(sheet):
    with pytest.raises(SheetError):
        score_sheet("districts", sheet)


def _malformed(rng: random.Random, token: dict) -> tuple[str, str, dict, bytes]:
    """One bad request: fuzzed JSON, a huge body, a bad seat, a path outside the page."""
    key = {**token, "Content-Type": "application/json"}
    kind = rng.randrange(7)
    if kind == 0:  # bytes that are not JSON
        return "POST", "/score", key, bytes(rng.randrange(256) for _ in range(rng.randrange(80)))
    if kind == 1:  # a huge body
        return "POST", "/score", key, b"{" + b" " * (MOST_BODY + rng.randrange(1, 200_000))
    if kind == 2:  # a bad seat
        seat = rng.choice([0, -1, 4, 99, "1", None, 1.5, True, [1]])
        return "POST", "/score", key, json.dumps({"seat": seat, "sheet": TOKYO_SHEET}).encode()
    if kind == 3:  # JSON of the wrong shape, deep nesting, unknown fields
        body = rng.choice(
            [
                "[" * 5000 + "]" * 5000,
                json.dumps({"seat": 1, "sheet": TOKYO_SHEET, "admin": True}),
                json.dumps({"seat": 1}),
                json.dumps({"seat": 1, "sheet": {**TOKYO_SHEET, "lines": [[rng.random()]]}}),
                json.dumps(rng.random()),
                "null",
            ]
        )
        return "POST", "/score", key, body.encode()
    if kind == 4:  # paths outside the page's own assets
        path = rng.choice(
            [
                "/../../etc/passwd",
                "/%2e%2e/%2e%2e/etc/passwd",
                "/assets/../app.py",
                "/symbol/../../etc/passwd.png",
                "/symbol/nothing.png",
                "/phone.js/../../../etc/passwd",
                "/nsdevice/web/app.py",
                "/.git/config",
            ]
        )
        return "GET", path, {}, b""
    if kind == 5:  # methods the page does not take
        method = rng.choice(["PUT", "DELETE", "PATCH"])
        return method, rng.choice(["/", "/score", "/join"]), key, b""
    sheet = dict(TOKYO_SHEET)  # a fuzzed field value
    field = rng.choice(list(sheet))
    sheet[field] = rng.choice([-5, 10**9, "x", None, {}, [], 1e308, "NaN"])
    return "POST", "/score", key, json.dumps({"seat": 1, "sheet": sheet}).encode()


def test_a_thousand_malformed_requests_get_4xx_and_change_nothing():
    session = tokyo()
    table = Table(session)
    try:
        to_game_end(session)
        table.show()
        rng = random.Random(14)
        statuses = set()
        token = table.join(1)
        for _ in range(1000):
            method, path, headers, body = _malformed(rng, token)
            answer = table.client.request(method, path, headers=headers, content=body)
            assert 400 <= answer.status_code < 500, (method, path, body[:80], answer.text)
            statuses.add(answer.status_code)
            assert "root:" not in answer.text
        assert statuses >= {404, 405, 413, 422}
        assert table.deliver() == []  # nothing reached the box
        assert session.screen is ScreenName.GAME_END
        good = table.client.post("/score", json={"seat": 1, "sheet": TOKYO_SHEET}, headers=token)
        assert good.status_code == 200  # and the page still works
    finally:
        table.close()


def test_the_page_serves_only_its_own_files(table):
    for path, kind in (("/", "text/html"), ("/phone.js", "javascript"), ("/phone.css", "css")):
        answer = table.client.get(path)
        assert answer.status_code == 200 and kind in answer.headers["content-type"]
        assert "default-src 'self'" in answer.headers["content-security-policy"]
    assert table.client.get("/index.html").status_code == 404
    assert table.client.get("/assets/phone.js").status_code == 404


def test_a_joined_phone_cannot_flood_the_box_with_scores(table):
    from nsdevice.web.app import ACTIONS

    to_game_end(table.session)
    table.show()
    key = table.join(1)
    body = {"seat": 1, "sheet": TOKYO_SHEET}
    tries = ACTIONS + 10
    answers = [
        table.client.post("/score", json=body, headers=key).status_code for _ in range(tries)
    ]
    assert answers == [200] * ACTIONS + [429] * 10
    assert len(table.deliver()) == ACTIONS


def test_the_stage_wakes_waiting_streams_and_a_reconnecting_phone_gets_the_latest():
    import asyncio
    import threading

    stage = Stage()
    first, second = tokyo().table(), tokyo(players=2).table()

    async def follow() -> list:
        stage.bind()
        got = []
        stage.publish(first)
        number, table = await stage.next_after(-1)  # a new stream: the latest at once
        got.append(table)
        # the loop's thread publishes while this stream waits: no polling, a wake-up
        threading.Timer(0.05, stage.publish, (second,)).start()
        number, table = await asyncio.wait_for(stage.next_after(number), 5)
        got.append(table)
        reconnected = await stage.next_after(-1)  # a phone coming back: the latest
        got.append(reconnected[1])
        threading.Timer(0.05, stage.release).start()  # the box closes: streams end
        got.append(await asyncio.wait_for(stage.next_after(number), 5))
        return got

    assert asyncio.run(follow()) == [first, second, second, None]


def test_next_and_back_from_the_controllers_phone_only_when_the_table_allows_it_C3():
    session = tokyo()
    for allowed in (False, True):
        table = Table(session, buttons=allowed)
        try:
            to_turn(session, 2)
            table.show()
            view = session.view()
            assert isinstance(view, views.TurnView)
            key = table.join(view.controller)
            mine = {"seat": view.controller, "button": "next"}
            answer = table.client.post("/press", json=mine, headers=key)
            if not allowed:  # the box's own setting (`--phone-buttons`) is off
                assert answer.status_code == 403
                assert table.inbox.get(0) == []
                continue
            assert table.client.post("/press", json=mine).status_code == 403  # not joined
            other_seat = view.controller % 3 + 1
            other = {"seat": other_seat, "button": "next"}
            assert table.client.post("/press", json=other, headers=key).status_code == 403
            theirs = table.join(other_seat)  # joined for a seat that is not turning cards
            assert table.client.post("/press", json=other, headers=theirs).status_code == 409
            for bad in ({"seat": True, "button": "next"}, {"seat": 1, "button": "menu"},
                        {"seat": 1, "button": "next", "x": 1}):  # fmt: skip
                assert table.client.post("/press", json=bad, headers=key).status_code == 422
            assert answer.status_code == 200
            back = {"seat": view.controller, "button": "back"}
            assert table.client.post("/press", json=back, headers=key).status_code == 200
            assert table.inbox.get(0) == [Press(Button.NEXT), Press(Button.BACK)]
            assert table.client.get("/state").json()["buttons"] is True
        finally:
            table.close()


def test_a_phone_joined_for_seat_1_cannot_score_seat_2_and_the_boxs_buttons_can():
    session = tokyo()
    table = Table(session)
    try:
        to_game_end(session)
        table.show()
        mine = table.join(1)
        theirs = {"seat": 2, "sheet": {**TOKYO_SHEET, "stamps": 0}}
        refused = table.client.post("/score", json=theirs, headers=mine)
        assert refused.status_code == 403 and "seat 1" in refused.json()["error"]
        assert table.inbox.get(0) == []  # nothing reached the box
        ok = table.client.post("/score", json={"seat": 1, "sheet": TOKYO_SHEET}, headers=mine)
        assert ok.status_code == 200
        assert [item.seat for item in table.deliver()] == [1]
        # the table's own buttons still set any seat, seat 2 included
        session.press(NEXT)  # the game's end → the score entry
        view = session.view()
        while not (isinstance(view, views.ScoreEntryView) and view.seat == 2):
            session.press(MENU)  # on through the digits and fields
            view = session.view()
        assert view.field == "total" and view.value == 0
        session.press(NEXT)
        corrected = session.view()
        assert isinstance(corrected, views.ScoreEntryView)
        assert corrected.seat == 2 and corrected.value != 0
    finally:
        table.close()


def test_a_seat_token_is_for_its_game_seat_and_code_only():
    from nsdevice.web.guard import Seats

    seats = Seats(b"k" * 32)
    token = seats.issue(3, 1, "12345678")
    assert seats.seat_of(token, 3, "12345678") == 1
    assert seats.seat_of(token, 4, "12345678") is None  # a new game
    assert seats.seat_of(token, 3, "87654321") is None  # a renewed code
    assert seats.seat_of(token.replace("1.", "2.", 1), 3, "12345678") is None  # another seat
    assert seats.seat_of(token, 3, "") is None
    assert Seats(b"j" * 32).seat_of(token, 3, "12345678") is None  # another box's


def test_wrong_codes_are_limited_for_the_whole_box_whatever_the_address():
    clock = [0.0]
    budget = Budget(clock=lambda: clock[0])
    checked = 0
    for tick in range(6000):  # a minute of 100 tries a second, each from a fresh address
        clock[0] = tick / 100
        address = f"127.{tick // 65536}.{tick // 256 % 256}.{tick % 256}"
        if budget.closed(address) is None:
            budget.missed(address)
            checked += 1
    assert checked <= 60 and budget.checked_wrong == checked
    assert checked >= BURST  # it does check some: the box is not simply shut
    clock[0] = 61.2
    assert budget.closed("127.200.0.1") is None  # a fresh address may try again


def test_a_flood_of_addresses_does_not_clear_an_addresss_lock():
    clock = [0.0]
    budget = Budget(burst=10**6, refill=1e-9, clock=lambda: clock[0])
    for _ in range(TRIES):
        budget.missed("10.0.0.1")
    assert budget.closed("10.0.0.1") is not None
    for number in range(20_000):  # not enough to forget the most recent thousands
        budget.missed(f"10.1.{number // 256}.{number % 256}")
        if number < 3000:
            assert budget.closed("10.0.0.1") is not None


def test_an_ipv6_machine_is_one_address_not_a_fresh_budget_each():
    from nsdevice.web.guard import address_key

    budget = Budget(burst=10**6, refill=1e-9)
    for host in range(TRIES):
        budget.missed(f"2001:db8:1:2::{host + 1:x}")
    assert budget.closed("2001:db8:1:2:abcd::99") is not None
    assert budget.closed("2001:db8:1:3::1") is None
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7"


@pytest.mark.parametrize(
    "host, answered",
    [
        ("localhost:8414", True),
        ("127.0.0.1:8414", True),
        ("[::1]:8414", True),
        ("box.local:8414", True),
        ("box:8414", True),
        ("evil.example:8414", False),  # a name rebound to the box's address
        ("box.local.evil.example", False),
        ("", False),
    ],
)
def test_only_the_boxs_own_names_are_answered(host, answered):
    session = tokyo()
    stage = Stage()
    stage.publish(session.table())
    names = frozenset({"localhost", "127.0.0.1", "::1", "box", "box.local"})
    app = make_app(stage, QueueInbox().put, Artwork(), names=names)
    with TestClient(app, base_url="http://localhost:8414") as client:
        answer = client.get("/state", headers={"Host": host})
        assert (answer.status_code == 200) is answered
        if not answered:
            assert answer.status_code == 421


def test_the_address_a_connection_reached_is_an_own_name():
    from nsdevice.web.guard import own_host

    names = frozenset({"localhost"})
    assert own_host("192.168.1.20:8414", names, "192.168.1.20")
    assert not own_host("192.168.1.21:8414", names, "192.168.1.20")
    assert own_host("[fe80::1]:8414", names, "fe80::1")


def test_no_cross_site_request_acts_or_spends_the_budget(table):
    to_game_end(table.session)
    table.show()
    right = {"X-Join-Code": table.session.join_code}
    sites = [
        {"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"},
        {"Origin": "http://evil.example"},
        {"Origin": "http://localhost:9999"},  # the same machine, another port: another site
        {"Sec-Fetch-Site": "same-site"},
        {"Origin": "null"},
    ]
    for headers in sites:
        for _ in range(TRIES + 2):  # more than would lock the address out
            wrong = {**headers, "X-Join-Code": "00000000"}
            assert table.client.post("/join", json={"seat": 1}, headers=wrong).status_code == 403
        joined = table.client.post("/join", json={"seat": 1}, headers={**headers, **right})
        assert joined.status_code == 403  # not even with the right code
    assert table.budget.checked_wrong == 0  # none was checked, so nobody is locked out
    same = {"Origin": "http://localhost:8414", "Sec-Fetch-Site": "same-origin"}
    token = table.client.post("/join", json={"seat": 1}, headers={**same, **right}).json()
    body = {"seat": 1, "sheet": TOKYO_SHEET}
    forged = {"Origin": "http://evil.example", "X-Seat-Token": token["token"]}
    assert table.client.post("/score", json=body, headers=forged).status_code == 403
    assert table.deliver() == []
    mine = {**same, "X-Seat-Token": token["token"]}
    assert table.client.post("/score", json=body, headers=mine).status_code == 200


def test_the_phones_see_what_is_left_in_the_deck_as_the_big_screens_do_C2_C3(table):
    to_turn(table.session, 3)
    table.show()
    data = table.client.get("/state?lang=de").json()
    view = table.session.view()
    assert isinstance(view, views.TurnView)
    left = view.remaining
    assert [(c["kind"], c["symbol"]) for c in data["deck"]] == [
        (c.kind.value, (c.symbol or c.special).value) for c in left
    ]
    # C-2: the round's 11 cards are the ones face up and the ones left; nothing twice
    shown = len(view.cards) + sum(len(t.cards) for t in view.earlier)
    assert len(data["deck"]) == 11 - shown
    assert data["words"]["deck"] == "Noch im Stapel"
    assert all("id" not in c for c in data["deck"])  # kinds and symbols, in the city's order
