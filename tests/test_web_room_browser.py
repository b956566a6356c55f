"""A room game's phones in a real headless Chromium (issue 25).

- Against a published room table (the test plays the session's part): a player joins a
  table with a name, a size and a seat, sees their pencil this round, the table's spare
  and their pencil next round, sends their sheet, and finds their line marked in the
  room's ranking. The name carries markup: the page shows it as text, never as HTML.
  When the box no longer lists the seat (the caller freed it), the join box comes back.
- Against a real box's room (`nsdevice run --room`'s session, loop and page): two phones
  at tables of 3 and 1 see rules.room's pencil for their size and seat, send their sheets
  at the room's end, and the caller screen's ranking shows both. Then the caller frees
  one seat with the box's own buttons, and that phone shows the join box again.

The page allows one seat a phone (an address): the second phone's requests say they come
from 127.0.0.2 (X-Forwarded-For, which the page's server takes only from the box itself, loopback).

About 10 s for the two."""

from __future__ import annotations

import json

import pytest

from nsdevice import views
from nsdevice.inputs.events import Button, Joined, Press, QueueInbox, RoomScored
from nsdevice.rules import room as rules_room
from nsdevice.web.seating import claim_hash
from nsdevice.web.sheet import score_sheet
from tests.browser import CHROMIUM, DRIVER, MISSING, chromium
from tests.test_web import to_game_end, to_turn, tokyo
from tests.test_web_browser import free_port, wait
from tests.test_web_room import room_table

pytestmark = pytest.mark.skipif(not (CHROMIUM and DRIVER), reason=MISSING)

NAME = "<b>Zoë</b> & co"  # markup in a name is only text on every phone
SHEET = {"line-1-0": 5, "line-1-1": 4, "line-2-0": 6, "line-2-1": 3, "stamps": 20}


def test_a_phone_joins_a_room_table_sees_its_pencil_scores_and_is_ranked():
    from selenium.webdriver.common.by import By

    from nsdevice.runner.web import open_web

    session = tokyo()
    inbox = QueueInbox()
    web = open_web(("127.0.0.1", free_port()), inbox)
    to_turn(session, 2)
    web.publish(room_table(session))
    web.start()
    browser = chromium(390, 844)
    try:
        assert web.started.wait(20), "the page did not start"
        browser.get(f"http://127.0.0.1:{web.port}/")
        wait(lambda: browser.find_element(By.ID, "room-join").is_displayed(), what="the form")
        assert not browser.find_element(By.ID, "join").is_displayed()  # not the one-table form
        browser.find_element(By.ID, "room-name").send_keys(NAME)
        browser.find_element(By.ID, "room-table").send_keys("7")
        browser.find_element(By.ID, "room-sizes-3").click()
        browser.find_element(By.ID, "room-seats-2").click()
        browser.find_element(By.ID, "room-code").send_keys(session.join_code)
        browser.find_element(By.ID, "room-join-button").click()
        wait(lambda: browser.find_element(By.ID, "pencil").is_displayed(), what="the pencil")
        [joined] = inbox.get(0)
        assert joined == Joined(7, 3, 2, NAME, session.game, joined.claim, None, joined.ticket)
        kept = json.loads(browser.execute_script("return localStorage['nsdevice.claim']"))
        assert (kept["table"], kept["seat"]) == (7, 2) and claim_hash(kept["claim"]) == joined.claim
        seated = (views.RoomSeat(7, 2, NAME),)
        web.publish(room_table(session, ((7, 3),), seated))
        table = room_table(session)
        assert table.room is not None
        pencil = browser.find_element(By.ID, "pencil")
        mine = {p.slot: p.colour for p in table.room.rows[2]}  # a table of three, round 1
        wait(lambda: pencil.get_attribute("data-colour") == mine["2"], what="seat 2's pencil")
        after = {p.slot: p.colour for p in table.room.next_rows[2]}
        assert browser.find_element(By.ID, "pass").get_attribute("data-colour") == after["2"]
        spares = browser.find_elements(By.CSS_SELECTOR, "#spares li")
        assert [s.get_attribute("data-colour") for s in spares] == [mine["table"]]  # C-8
        title = browser.find_element(By.ID, "seat-title").text
        assert title == f"{NAME} · Table 7, seat 2"

        to_game_end(session)
        web.publish(room_table(session, ((7, 3),), seated))
        wait(lambda: browser.find_elements(By.ID, "line-1-0"), what="the score sheet")
        assert not browser.find_element(By.ID, "pencil").is_displayed()  # the game is over
        for field, value in SHEET.items():
            box = browser.find_element(By.ID, field)
            box.clear()
            box.send_keys(str(value))
        browser.find_element(By.ID, "send").click()
        said = browser.find_element(By.ID, "sheet-sent-text")
        wait(lambda: said.text.startswith("Sent"), what="the box's answer")
        sheet = {"lines": [[5, 4], [6, 3]], "stamps": 20, "ring_unconnected": 0,
                 "interchanges": {"3": 0, "4": 0, "5": 0}, "objectives": 0}  # fmt: skip
        scored = score_sheet("districts", sheet)
        assert inbox.get(0) == [RoomScored(7, 2, scored.total, scored.best_line, session.game)]

        # the session ranks the room (rules.room.rank); a player at table 3 did better
        results = [rules_room.Result("A", 7, 2, NAME, scored.total, scored.best_line),
                   rules_room.Result("A", 3, 1, "Ann", scored.total + 5, 10)]  # fmt: skip
        ranking = tuple(
            views.RoomPlace(p.place, r.table, r.seat, r.name, r.total, r.best_line, p.table_winner)
            for p in rules_room.rank(results)
            for r in (p.result,)
        )
        web.publish(room_table(session, ((7, 3), (3, 1)), seated, ranking))
        wait(lambda: browser.find_elements(By.CSS_SELECTOR, "#ranking-rows tr.me"), what="rank")
        lines = browser.find_elements(By.CSS_SELECTOR, "#ranking-rows tr")
        me = browser.find_element(By.CSS_SELECTOR, "#ranking-rows tr.me")
        cells = [c.text for c in me.find_elements(By.TAG_NAME, "td")]
        assert cells == ["2", f"{NAME} ★", "7", str(scored.total), str(scored.best_line)]
        assert lines.index(me) == 1
        # nothing the players typed became markup: no <b> anywhere on the page
        assert browser.find_elements(By.CSS_SELECTOR, "main b") == []
        web.publish(room_table(session, ((7, 3),), ()))  # the caller freed the seat
        wait(lambda: browser.find_element(By.ID, "room-join").is_displayed(), what="join box")
        said = browser.find_element(By.ID, "room-join-said").text
        assert said == "Your seat was freed on the box. Join again to play on."
        assert not browser.find_element(By.ID, "mine").is_displayed()
    finally:
        browser.quit()
        web.close()


class RoomBox:
    """A box calling a room game as `nsdevice run --room --web` wires it: the session, the
    loop on its own thread, the page beside it, a paced script of presses; its display
    keeps the last view it drew (the caller screen)."""

    def __init__(self, port: int, seed: str) -> None:
        import threading

        from nsdevice.box.loop import Loop
        from nsdevice.displays import Display
        from nsdevice.inputs.events import ButtonTracker
        from nsdevice.runner.web import open_web
        from nsdevice.session import Capabilities, Session, Settings
        from tests.test_web_browser import _Holding

        self.session = Session(
            Settings(room=True, city="tokyo"),
            capabilities=Capabilities(phones=(f"http://127.0.0.1:{port}/",)),
            seed_source=lambda: seed,
        )
        self.session.deal_new_game()
        self.inbox = _Holding(QueueInbox())
        self.web = open_web(("127.0.0.1", port), self.inbox._inbox)
        self.shown: list[views.View] = []
        box = self

        class Recording(Display):
            def show(self, view: views.View) -> None:
                box.shown.append(view)

        self.loop = Loop(self.session, Recording(), self.inbox, ButtonTracker(),
                         publish=self.web.publish)  # fmt: skip
        self.thread = threading.Thread(target=self.loop.run, daemon=True)

    def start(self) -> None:
        self.web.start()
        self.thread.start()
        assert self.web.started.wait(20), "the page did not start"

    def press_next(self, screen, seconds: float = 60.0, after: int = 0) -> None:
        """NEXT (`after` presses, then on) until the box shows `screen`, counted on a copy
        of its session, paced as a caller in a brisk room would press; returns once the
        box shows what the copy does."""
        import time

        from nsdevice.inputs.events import Button, Press

        copy = self.session.copy()
        presses = 0
        while presses < after or copy.screen is not screen:
            copy.press(Press(Button.NEXT))
            presses += 1
        for _ in range(presses):
            assert self.inbox.put(Press(Button.NEXT), 1.0)
            time.sleep(0.02)
        wait(lambda: self.session.table().view == copy.table().view, seconds, str(screen))

    def close(self) -> None:
        from nsdevice.inputs.events import Stop

        self.inbox._inbox.put(Stop("test over"))
        self.thread.join(5)
        self.web.close()


def test_two_phones_join_a_real_boxs_room_and_the_caller_ranks_their_sheets():
    """`nsdevice run --room`'s session end to end: two tables of different sizes, each
    phone's pencil from rules.room's row for its size, both sheets in the caller
    screen's ranking and on both phones."""
    from selenium.webdriver.common.by import By

    from nsdevice.session import ScreenName

    box = RoomBox(free_port(), "ROOMWEB")
    box.start()
    browser = chromium(390, 844)
    try:
        url = f"http://127.0.0.1:{box.web.port}/"
        players = [("Ann", 7, 3, 2), ("<i>Bo</i>", 2, 1, 1)]  # name, table, size, seat
        phones = []
        for name, table, size, seat in players:
            if phones:  # another phone: another address (see the module's docstring)
                browser.switch_to.new_window("window")
                browser.execute_cdp_cmd("Network.enable", {})
                forwarded = {"headers": {"X-Forwarded-For": "127.0.0.2"}}
                browser.execute_cdp_cmd("Network.setExtraHTTPHeaders", forwarded)
            browser.get(url)
            phones.append(browser.current_window_handle)
            wait(lambda: browser.find_element(By.ID, "room-join").is_displayed(), what="form")
            for field, value in (("room-name", name), ("room-table", table)):
                browser.find_element(By.ID, field).clear()  # one browser: a phone's last
                browser.find_element(By.ID, field).send_keys(str(value))
            browser.find_element(By.ID, f"room-sizes-{size}").click()
            browser.find_element(By.ID, f"room-seats-{seat}").click()
            browser.find_element(By.ID, "room-code").send_keys(box.session.join_code)
            browser.find_element(By.ID, "room-join-button").click()
            wait(lambda: browser.find_element(By.ID, "mine").is_displayed(), what="joining")
        wait(lambda: len(box.session.table().room.seats) == 2, what="the box to seat both")
        box.press_next(ScreenName.ROUND_START)
        setup = box.session.current_setup()
        for phone, (name, _, size, seat) in zip(phones, players, strict=True):
            browser.switch_to.window(phone)
            row = dict(rules_room.table_rounds(setup, size)[0].pencils)
            pencil = browser.find_element(By.ID, "pencil")
            wait(lambda p=pencil, c=row[str(seat)]: p.get_attribute("data-colour") == c,
                 what=f"{name}'s pencil")  # fmt: skip
        box.press_next(ScreenName.ROOM_RESULTS)
        sheets = {"Ann": SHEET, "<i>Bo</i>": {"line-1-0": 3, "line-1-1": 3}}
        for phone, (name, *_) in zip(phones, players, strict=True):
            browser.switch_to.window(phone)
            wait(lambda: browser.find_elements(By.ID, "line-1-0"), what="the score sheet")
            for field, value in sheets[name].items():
                box_field = browser.find_element(By.ID, field)
                box_field.clear()
                box_field.send_keys(str(value))
            browser.find_element(By.ID, "send").click()
            said = browser.find_element(By.ID, "sheet-sent-text")
            wait(lambda s=said: s.text.startswith("Sent"), what="the box's answer")
        # the caller screen's ranking shows both sheets, best first (58 and 3 x 3 = 9)
        wait(lambda: isinstance(box.shown[-1], views.RoomResultsView)
             and len(box.shown[-1].ranking) == 2, what="the caller's ranking")  # fmt: skip
        ranking = box.shown[-1].ranking
        assert [(p.place, p.table, p.seat, p.name, p.total) for p in ranking] == [
            (1, 7, 2, "Ann", 58), (2, 2, 1, "<i>Bo</i>", 9)]  # fmt: skip
        for phone, (name, *_) in zip(phones, players, strict=True):
            browser.switch_to.window(phone)
            wait(lambda: len(browser.find_elements(By.CSS_SELECTOR, "#ranking-rows tr")) == 2,
                 what="the phone's ranking")  # fmt: skip
            me = browser.find_element(By.CSS_SELECTOR, "#ranking-rows tr.me")
            assert me.find_elements(By.TAG_NAME, "td")[1].text.startswith(name)
            assert browser.find_elements(By.CSS_SELECTOR, "main i") == []  # text, not markup
        # the caller frees Ann's seat from the box's own buttons (Menu, Tables and seats)
        copy = box.session.copy()
        copy.menu()
        down = [row.key for row in copy.view().rows].index("room_tables")  # type: ignore[attr-defined]
        rows = [Button.MENU, *[Button.NEXT] * down, Button.MENU]  # the list: back, 2, Bo, 7, Ann
        for button in [*rows, *[Button.NEXT] * 4, Button.MENU, Button.MENU]:
            assert box.inbox.put(Press(button), 1.0)
        wait(lambda: (7, 2) not in box.session.state.room.seats, what="the caller to free it")
        browser.switch_to.window(phones[0])
        wait(lambda: browser.find_element(By.ID, "room-join").is_displayed(), what="join box")
        assert browser.find_element(By.ID, "room-join-said").text.startswith("Your seat was freed")
        browser.switch_to.window(phones[1])
        assert browser.find_element(By.ID, "mine").is_displayed()  # Bo keeps his seat
    finally:
        browser.quit()
        box.close()
