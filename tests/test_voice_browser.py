"""Issue 24 in a real headless Chromium: a phone that chose Spanish, once its speaker button
is tapped, plays the Spanish clips of the card the box reveals, fetched from the box's page.

The box is test_web_browser's (session, loop and web side in-process); the page's voice
script records the address of every clip it starts (`nsdeviceVoice.played`)."""

from __future__ import annotations

import pytest

from nsdevice import views
from nsdevice.inputs.events import Button, Press
from nsdevice.session import ScreenName
from nsdevice.voice import phrase_ids
from tests.browser import CHROMIUM, DRIVER, MISSING, chromium
from tests.test_web_browser import Box, free_port, wait

pytestmark = pytest.mark.skipif(not (CHROMIUM and DRIVER), reason=MISSING)


def test_a_phone_that_chose_spanish_says_the_revealed_card_in_spanish():
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser = chromium()
    box = Box(free_port())
    box.start()
    try:
        browser.get(f"http://127.0.0.1:{box.web.port}/")
        box.play([Press(Button.MENU), Press(Button.NEXT)], pace=0)  # start; the round's start
        wait(lambda: box.session.screen is ScreenName.ROUND_START, what="the round's start")
        wait(lambda: browser.find_elements(By.CSS_SELECTOR, "#language option"), what="languages")
        Select(browser.find_element(By.ID, "language")).select_by_value("es")
        wait(lambda: browser.execute_script("return document.documentElement.lang") == "es")
        speaker = browser.find_element(By.ID, "voice")
        assert speaker.get_attribute("aria-pressed") == "false"
        speaker.click()  # the one tap a browser asks for before a page may sound
        assert speaker.get_attribute("aria-pressed") == "true"

        box.play([Press(Button.NEXT)], pace=0)  # the first card
        wait(lambda: box.session.screen is ScreenName.TURN, what="the first card")
        turn = box.session.view()
        assert isinstance(turn, views.TurnView)
        wanted = [f"/voice/es/{phrase_id}.ogg" for phrase_id in phrase_ids(turn)]

        def played() -> list[str]:
            return browser.execute_script("return nsdeviceVoice.played")

        wait(lambda: played()[-len(wanted) :] == wanted, what=f"the phone to play {wanted}")
        fetched = browser.execute_script(
            "return performance.getEntriesByType('resource').map((e) => e.name)"
        )
        port = box.web.port
        assert all(f"http://127.0.0.1:{port}{url}" in fetched for url in wanted)
        assert not any("/voice/en/" in url for url in played())  # never the box's English
    finally:
        box.close()
        browser.quit()
