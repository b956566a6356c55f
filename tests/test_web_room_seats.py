"""A room seat belongs to its player, and no phone squats the room (issue 32), over HTTP
with the box's own loop and session behind the page: a join goes through the inbox, the
real `Loop` hands it to the session's roster, and the table it publishes is what the page
checks the next join against.

- a rejoin, a rename or a sheet for a claimed seat needs its claim (403 without it, name
  and sheet unchanged); the claim survives a restart and a new game clears it;
- one seat and one table a phone (an IPv6 /64 as one): five phones trying every table
  leave a real table of four its seats;
- a table nobody at it follows for 10 minutes before the first card is freed (a fake
  clock), not a moment before, and never once the cards are out;
- the caller frees a seat or a table from the box's buttons (`--input script --display
  json`, end to end) and the phones are told.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from nsdevice import views
from nsdevice.box.loop import Loop
from nsdevice.displays import Display
from nsdevice.inputs.events import Abandoned, ButtonTracker, QueueInbox, Stop
from nsdevice.session import ScreenName, Session, Settings
from nsdevice.session.roster import Roster
from nsdevice.store.database import Store
from nsdevice.web.app import make_app
from nsdevice.web.guard import Budget
from nsdevice.web.payload import Artwork
from nsdevice.web.seating import IDLE, Seating, claim_hash
from nsdevice.web.stage import Stage
from tests.test_web import TOKYO_SHEET

ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "LANG": "C"}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Silent(Display):
    def show(self, view: views.View) -> None:
        pass


class Box:
    """A room game's box and its page: the test's HTTP goes to the page, `settle` runs
    the box's loop over what the page put in its inbox (as the loop's thread would)."""

    def __init__(self, session: Session | None = None) -> None:
        self.session = session or room_session()
        self.stage = Stage()
        self.inbox = QueueInbox()
        self.clock = Clock()
        self.saves: list[dict] = []
        self.loop = Loop(session=self.session, display=Silent(), inbox=self.inbox,
                         tracker=ButtonTracker(), save=self.saves.append,
                         publish=self.stage.publish)  # fmt: skip
        self.app = make_app(self.stage, self.inbox.put, Artwork(), False,
                            Budget(burst=10_000), clock=self.clock)  # fmt: skip
        self.client = TestClient(self.app, base_url="http://localhost:8414")
        self.client.__enter__()
        self.settle()

    def settle(self) -> None:
        """The loop takes everything in the inbox (and draws, saves, publishes)."""
        self.inbox.put(Stop())
        self.loop.run()

    def phone(self, address: str) -> TestClient:
        return TestClient(self.app, base_url="http://localhost:8414", client=(address, 1))

    def join(self, address: str, name: str, table: int, size: int, seat: int,
             claim: str | None = None):  # fmt: skip
        body = {"name": name, "table": table, "size": size, "seat": seat}
        if claim is not None:
            body["claim"] = claim
        headers = {"X-Join-Code": self.session.join_code}
        return self.phone(address).post("/room/join", json=body, headers=headers)

    def sheet(self, token: str, sheet: dict = TOKYO_SHEET):
        headers = {"X-Seat-Token": token}
        return self.client.post("/room/score", json={"sheet": sheet}, headers=headers)

    def roster(self) -> Roster:
        assert self.session.state.room is not None
        return self.session.state.room

    def room_payload(self) -> dict:
        return self.client.get("/state").json()["room"]

    def following(self, address: str) -> None:
        """A phone at `address` holds an event stream open (the page's count of streams)."""
        events = next(r for r in self.app.app.routes if getattr(r, "path", "") == "/events")
        assert events.app.watchers.admit(address)  # type: ignore[attr-defined]

    def close(self) -> None:
        self.client.__exit__(None, None, None)


def room_session(seed: str = "SEATS32") -> Session:
    session = Session(Settings(room=True), seed_source=lambda: seed)
    session.deal_new_game()
    return session


def to_results(box: Box) -> None:
    while box.session.screen is not ScreenName.ROOM_RESULTS:
        box.session.next()
    box.loop.draw()  # the loop publishes the results' table


@pytest.fixture
def box():
    made = Box()
    yield made
    made.close()


# --- a seat belongs to its player -------------------------------------------------------------
def test_a_rejoin_without_the_seats_claim_is_refused_and_changes_neither_name_nor_sheet(box):
    alice = box.join("10.0.0.1", "Alice", 3, 2, 1)
    assert alice.status_code == 200, alice.text
    claim, token = alice.json()["claim"], alice.json()["token"]
    assert len(claim) >= 22 and claim not in (box.session.join_code, token)
    box.settle()
    to_results(box)
    assert box.sheet(token).status_code == 200
    box.settle()
    scored = box.roster().scores[(3, 1)]
    for tries in ({}, {"claim": ""}, {"claim": "guess"}, {"claim": claim_hash(claim)}):
        mallory = box.join("10.0.0.66", "Mallory", 3, 2, 1, **tries)
        assert mallory.status_code == 403, (tries, mallory.text)
        assert mallory.json()["why"] == "seat_taken" and "token" not in mallory.json()
    box.settle()
    assert box.roster().seats[(3, 1)] == "Alice" and box.roster().scores[(3, 1)] == scored
    ranking = box.client.get("/room/results.json").json()["ranking"]
    assert [(p["name"], p["total"]) for p in ranking] == [("Alice", scored[0])]


def test_with_its_claim_the_player_rejoins_renames_and_sends_again_from_any_address(box):
    alice = box.join("10.0.0.1", "Alice", 3, 2, 1).json()
    box.settle()
    again = box.join("10.0.0.2", "Alicia", 3, 2, 1, claim=alice["claim"])  # another Wi-Fi
    assert again.status_code == 200, again.text
    assert again.json()["claim"] == alice["claim"]
    box.settle()
    assert box.roster().seats[(3, 1)] == "Alicia"
    to_results(box)
    assert box.sheet(again.json()["token"]).status_code == 200


def test_a_sheet_needs_the_seats_own_token_and_a_freed_seats_token_ends(box):
    alice = box.join("10.0.0.1", "Alice", 3, 2, 1).json()
    box.settle()
    box.roster().free(3, 1)  # the caller frees it (the page below, through the buttons)
    box.loop.draw()
    bob = box.join("10.0.0.2", "Bob", 3, 2, 1)
    assert bob.status_code == 200
    box.settle()
    to_results(box)
    assert box.sheet(alice["token"]).status_code == 403  # the seat is Bob's now
    assert box.sheet(bob.json()["token"]).status_code == 200


def test_two_phones_at_once_cannot_both_take_one_free_seat(box):
    """The second join comes before the box has looked at the first: the page's own
    memory of the joins it took refuses it."""
    assert box.join("10.0.0.1", "Ana", 4, 2, 2).status_code == 200
    assert box.join("10.0.0.2", "Bo", 4, 2, 2).status_code == 403
    box.settle()
    assert box.roster().seats == {(4, 2): "Ana"}


def test_a_claim_survives_the_boxs_restart_and_a_new_game_clears_it(box):
    alice = box.join("10.0.0.1", "Alice", 3, 2, 1).json()
    box.settle()
    saved = box.saves[-1]["room"]["seats"]
    assert saved == [[3, 1, "Alice", claim_hash(alice["claim"])]]  # the hash, not the claim
    assert alice["claim"] not in json.dumps(box.saves[-1])
    restarted = Box(box.session.copy())  # a new secret, a new join code; the roster saved
    try:
        assert restarted.join("10.0.0.66", "Mallory", 3, 2, 1).status_code == 403
        back = restarted.join("10.0.0.1", "Alice", 3, 2, 1, claim=alice["claim"])
        assert back.status_code == 200, back.text
        restarted.settle()
        restarted.session.deal_new_game()  # a new game: a new room, every claim gone
        restarted.loop.draw()
        assert restarted.join("10.0.0.66", "Mallory", 3, 2, 1).status_code == 200
    finally:
        restarted.close()


def test_a_saved_room_from_before_claims_restores_and_its_seats_next_join_claims_them():
    roster = Roster.from_dict({"tables": [[2, 2]], "seats": [[2, 1, "Ana"]], "scores": []})
    assert roster.claims == {} and roster.join(2, 2, 1, "Ana", "a" * 64)
    assert roster.claims == {(2, 1): "a" * 64} and not roster.join(2, 2, 1, "Eve", "b" * 64)
    for damaged in ([2, 1, "Ana", "not a hash"], [2, 1, "Ana", "a" * 64, "more"]):
        with pytest.raises(ValueError):
            Roster.from_dict({"tables": [[2, 2]], "seats": [damaged], "scores": []})


# --- no squatting -----------------------------------------------------------------------------
def test_five_phones_trying_to_open_every_table_leave_a_real_table_of_four_its_seats(box):
    squatters = [f"127.0.0.{n}" for n in range(2, 7)]
    taken = 0
    for table in range(1, 100):
        for address in squatters:
            answer = box.join(address, f"S{table}", table, 1, 1)
            taken += answer.status_code == 200
            assert answer.status_code in (200, 403, 409), answer.text  # taken, or refused
    box.settle()
    assert taken == 5 and len(box.roster().tables) == 5  # one table and one seat a phone
    players = [box.join(f"127.0.1.{seat}", f"P{seat}", 42, 4, seat) for seat in range(1, 5)]
    assert [answer.status_code for answer in players] == [200] * 4
    box.settle()
    assert box.roster().tables[42] == 4 and len(box.roster().seats) == 9


def test_an_ipv6_64_is_one_phone_and_a_phone_moves_its_seat_with_its_claim(box):
    first = box.join("2001:db8::1", "Ana", 7, 2, 1).json()
    box.settle()
    refused = box.join("2001:db8::2:3", "Ana", 8, 2, 1)  # the same /64
    assert refused.status_code == 409 and refused.json()["why"] == "one_seat"
    moved = box.join("2001:db8::2:3", "Ana", 8, 2, 1, claim=first["claim"])
    assert moved.status_code == 200, moved.text
    box.settle()
    # the seat moved; table 7 had no one else, so it is gone
    assert box.roster().seats == {(8, 1): "Ana"} and 7 not in box.roster().tables
    assert box.join("2001:db8:0:1::9", "Bo", 7, 3, 1).status_code == 200  # another /64


def test_a_phone_opens_one_table_while_it_stands(box):
    ana = box.join("10.0.0.1", "Ana", 5, 2, 1).json()
    assert box.join("10.0.0.2", "Bo", 5, 2, 2).status_code == 200
    box.settle()
    refused = box.join("10.0.0.1", "Ana", 6, 2, 1, claim=ana["claim"])  # table 5 goes on
    assert refused.status_code == 409 and refused.json()["why"] == "one_table"
    assert box.join("10.0.0.1", "Ana", 5, 2, 1, claim=ana["claim"]).status_code == 200


def test_a_table_nobody_follows_is_freed_after_ten_minutes_before_the_first_card_not_before(box):
    box.join("10.0.0.1", "Ana", 3, 2, 1)
    box.join("10.0.0.2", "Bo", 9, 1, 1)
    box.settle()
    box.following("10.0.0.2")  # Bo's phone has its stream open: table 9 is followed
    box.clock.now += IDLE - 1
    box.client.get("/state")  # the page looks on its own requests (and every 15 s)
    assert box.inbox.get(0) == []
    box.clock.now += 1
    box.client.get("/state")
    assert box.inbox.get(0) == [Abandoned(3, box.session.game)]
    box.inbox.put(Abandoned(3, box.session.game))
    box.settle()
    assert box.roster().tables == {9: 1} and box.roster().seats == {(9, 1): "Bo"}
    assert box.room_payload()["seated"] == {"9": 1}
    # the table's number is free again, for any size
    assert box.join("10.0.0.3", "Cy", 3, 4, 2).status_code == 200


def test_once_the_first_card_is_out_no_table_is_freed_for_being_idle(box):
    box.join("10.0.0.1", "Ana", 3, 2, 1)
    box.settle()
    while box.session.state.progress.revealed == 0:
        box.session.next()
    box.loop.draw()
    box.clock.now += 3 * IDLE
    box.client.get("/state")
    assert box.inbox.get(0) == []
    assert not box.session.free_idle_table(3)  # the box refuses it too
    assert box.roster().seats == {(3, 1): "Ana"}


def test_the_page_names_an_idle_table_once_a_while_not_on_every_look():
    clock = Clock()
    watching: set[str] = set()
    seating = Seating(lambda: watching, clock)
    session = room_session()
    session.join(4, 2, 1, "Ana", "a" * 64)
    table = session.table()
    assert seating.abandoned(table) == []
    clock.now += IDLE
    assert seating.abandoned(table) == [4]
    seating.freeing(4)
    assert seating.abandoned(table) == []  # asked once; again only after another IDLE
    clock.now += IDLE
    assert seating.abandoned(table) == [4]


# --- the caller frees seats and tables --------------------------------------------------------
def test_the_phones_are_told_their_seat_is_gone(box):
    box.join("10.0.0.1", "Ana", 3, 2, 1)
    box.join("10.0.0.2", "Bo", 3, 2, 2)
    box.settle()
    assert box.room_payload()["seated"] == {"3": 0b11}
    box.roster().free(3, 2)
    box.loop.draw()
    assert box.room_payload()["seated"] == {"3": 0b01}
    box.roster().free(3)
    box.loop.draw()
    assert box.room_payload()["seated"] == {} and box.roster().tables == {}


def room_rows(view: dict) -> list[tuple[int, int, str]]:
    return [(row["table"], row["seat"], row["name"]) for row in view["rows"]]


def run_box(state: Path, keys: str) -> list[dict]:
    command = [sys.executable, "-m", "nsdevice", "run", "--room", "--input", "script",
               "--display", "json", "--no-web", "--state-dir", str(state),
               "--keys", keys]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, env=ENV, timeout=60)
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def test_the_caller_frees_a_seat_and_a_table_from_the_boxs_buttons(tmp_path):
    """End to end: a room saved with three tables; `nsdevice run --input script
    --display json` opens the menu's Tables and seats, frees Ana's seat, then table 5."""
    session = room_session()
    for table, size, seat, name in ((3, 2, 1, "Ana"), (3, 2, 2, "Bo"), (5, 1, 1, "Cy"),
                                    (7, 3, 2, "Di")):  # fmt: skip
        assert session.join(table, size, seat, name, f"{table}{seat}".ljust(64, "0"))
    session.next()  # the first round's start, where MENU opens the menu
    opened = Store.open(tmp_path)
    opened.store.save(session.snapshot())
    opened.store.close()
    menu = run_box(tmp_path, "menu")[-1]
    assert menu["screen"] == "menu"
    down = [row["key"] for row in menu["rows"]].index("room_tables")
    keys = ["next"] * down + ["menu"]  # Tables and seats
    keys += ["next", "next", "menu", "menu"]  # Ana's seat: chosen, then freed
    keys += ["next", "menu", "menu"]  # table 5: chosen, then freed
    shown = run_box(tmp_path, ",".join(keys))
    lists = [view for view in shown if view["screen"] == "room_tables"]
    assert room_rows(lists[0]) == [(3, 0, ""), (3, 1, "Ana"), (3, 2, "Bo"), (5, 0, ""),
                                   (5, 1, "Cy"), (7, 0, ""), (7, 2, "Di")]  # fmt: skip
    asked = [view for view in lists if view["freeing"]]
    assert [room_rows(view)[view["cursor"] - 1] for view in asked] == [(3, 1, "Ana"), (5, 0, "")]
    assert asked[0]["hints"][2]["action"] == "free"
    assert room_rows(lists[-1]) == [(3, 0, ""), (3, 2, "Bo"), (7, 0, ""), (7, 2, "Di")]
    assert lists[-1]["players"] == 2 and lists[-1]["tables"] == 2
    again = run_box(tmp_path, "back")  # a restart: what was freed stays freed
    assert room_rows(again[0]) == room_rows(lists[-1])
