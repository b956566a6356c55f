"""A room game's phone in a real headless Chromium (issue 25): a player joins a table with
a name, a size and a seat, sees their pencil this round, the table's spare and their pencil
next round, sends their sheet at the game's end, and finds their line marked in the room's
ranking. The name carries markup: the page must show it as text, never as HTML.

The page runs as `nsdevice run` wires it (runner.web.open_web); the room's tables are
published by the test from a one-table session dressed as a room game (test_web_room),
and the test plays the session's part with what the phone sent. A few seconds."""

from __future__ import annotations

import pytest

from nsdevice import views
from nsdevice.inputs.events import Joined, QueueInbox, RoomScored
from nsdevice.rules import room as rules_room
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
        assert inbox.get(0) == [Joined(7, 3, 2, NAME, session.game)]
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
        said = browser.find_element(By.ID, "sheet-said")
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
    finally:
        browser.quit()
        web.close()
