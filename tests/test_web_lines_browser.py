"""Issue 34 in a real headless Chromium: a phone joins a one-table seat with a name, and at
the first round's end sends its seat's line from the page's own row (S-T); the box keeps
both (its line entry's lines, the seat's name), and the game's end sheet starts from it.
The box runs in-process as in test_web_browser. About 10 s."""

from __future__ import annotations

import pytest

from nsdevice.inputs.events import Button, Press
from nsdevice.rules import scoring
from nsdevice.session import ScreenName
from tests.browser import CHROMIUM, DRIVER, MISSING, chromium
from tests.test_web_browser import Box, free_port, wait

pytestmark = pytest.mark.skipif(not (CHROMIUM and DRIVER), reason=MISSING)


@pytest.fixture(scope="module")
def browser():
    driver = chromium()
    yield driver
    driver.quit()


def test_a_phone_named_at_its_join_sends_its_line_at_the_rounds_end_S_T(browser):
    from selenium.webdriver.common.by import By

    box = Box(free_port())
    box.start()
    try:
        browser.get(f"http://127.0.0.1:{box.web.port}/")
        box.play([Press(Button.MENU)], pace=0)  # the setup's first row starts the game
        wait(lambda: box.session.screen is ScreenName.SUMMARY, what="the game to start")
        wait(lambda: browser.find_elements(By.ID, "seat-2"), what="seats")
        browser.find_element(By.ID, "seat-2").click()
        browser.find_element(By.ID, "join-name").send_keys("Zoë")
        browser.find_element(By.ID, "code").send_keys(box.session.join_code)
        browser.find_element(By.ID, "join-button").click()
        wait(lambda: box.session.state.names == {2: "Zoë"}, what="the seat's name on the box")
        assert not browser.find_element(By.ID, "line-row").is_displayed()  # no round over yet
        copy = box.session.copy()
        presses = []
        while copy.screen is not ScreenName.ROUND_END:
            copy.press(Press(Button.NEXT))
            presses.append(Press(Button.NEXT))
        box.play(presses, pace=0.05)
        wait(lambda: box.session.screen is ScreenName.ROUND_END, 60, "the round's end")
        row = browser.find_element(By.ID, "line-row")
        wait(row.is_displayed, what="the line's row")
        assert browser.find_element(By.ID, "line-title").text == "Line of round 1"
        for part, value in (("districts", 6), ("stations", 4)):
            field = browser.find_element(By.ID, f"line-now-{part}")
            field.clear()
            field.send_keys(str(value))
        browser.find_element(By.ID, "line-send").click()
        said = browser.find_element(By.ID, "line-said")
        points = scoring.tokyo_line(6, 4)
        wait(lambda: said.text == f"Sent: {points} points", what="the box's answer")
        wait(lambda: box.session.state.lines == {2: {1: (6, 4)}}, what="the line on the box")
        wait(lambda: box.session.view().running == (None, points, None), what="the round's end")
        # at the game's end the phone's sheet starts from the line it gave
        copy = box.session.copy()
        presses = []
        while copy.screen is not ScreenName.GAME_END:
            copy.press(Press(Button.NEXT))
            presses.append(Press(Button.NEXT))
        box.play(presses, pace=0.05)
        wait(lambda: box.session.screen is ScreenName.GAME_END, 120, "the game's end")
        wait(lambda: browser.find_elements(By.ID, "line-1-0"), what="the score sheet")
        given = [browser.find_element(By.ID, f"line-1-{i}").get_attribute("value") for i in (0, 1)]
        assert given == ["6", "4"]
        assert browser.find_element(By.ID, "line-2-0").get_attribute("value") == "0"
    finally:
        box.close()
