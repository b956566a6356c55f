#!/usr/bin/env python3
"""Screenshots of the phones' page for the docs, in Debian's headless Chromium.

Usage: python tools/phone_screens.py [--out docs/screens] [--room]

A 3-player Tokyo game is played on the box to round 1's fourth turn; seat 2's phone,
joined, is photographed at 390x844 (a phone) and 1280x800 (a tablet or laptop), then the
game is played to its end and the score sheet is photographed too.

`--room`: a room game instead (issue 25), as `nsdevice run --room` plays it: eleven
players at five tables join over HTTP, then a phone joins table 7 (three players) as
seat 2 and is photographed at 390x844 on round 1's third turn (room-phone-390x844.png)
and, once every sheet is in, at the room's ranking (room-phone-ranking-390x844.png).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def main() -> int:
    from selenium.webdriver.common.by import By

    from nsdevice.inputs.events import Button, Press
    from nsdevice.session import ScreenName
    from tests.browser import chromium
    from tests.test_web_browser import Box, free_port, wait

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screens"))
    parser.add_argument("--room", action="store_true", help="a room game's phone")
    arguments = parser.parse_args()
    out = Path(arguments.out)
    if arguments.room:
        return room(out)
    box = Box(free_port())
    box.start()
    browser = chromium(390, 844)
    try:
        browser.get(f"http://127.0.0.1:{box.web.port}/")
        box.play([Press(Button.MENU)], pace=0)
        wait(lambda: browser.find_elements(By.ID, "seat-2"), what="the seats")
        browser.find_element(By.ID, "seat-2").click()
        turns = 0
        while turns < 4:  # to round 1, turn 4: a card and three earlier ones
            box.play([Press(Button.NEXT)], pace=0)
            time.sleep(0.3)
            turns += box.session.screen is ScreenName.TURN
        time.sleep(0.5)
        for width, height in ((390, 844), (1280, 800)):
            screen = {"width": width, "height": height, "deviceScaleFactor": 1}
            screen["mobile"] = width < 600
            browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", screen)
            time.sleep(0.5)
            browser.save_screenshot(str(out / f"phone-{width}x{height}.png"))
        while box.session.screen is not ScreenName.GAME_END:
            box.play([Press(Button.NEXT)], pace=0)
            time.sleep(0.05)
        phone = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", phone)
        browser.find_element(By.ID, "code").send_keys(box.session.join_code)
        browser.find_element(By.ID, "join-button").click()
        wait(lambda: browser.find_elements(By.ID, "line-1-0"), what="the score sheet")
        browser.execute_script("document.getElementById('sheet').scrollIntoView()")
        time.sleep(0.3)
        browser.save_screenshot(str(out / "phone-score-sheet-390x844.png"))
    finally:
        browser.quit()
        box.close()
    print(f"wrote {out}/phone-390x844.png, phone-1280x800.png, phone-score-sheet-390x844.png")
    return 0


def room(out: Path) -> int:
    import json
    import urllib.request

    from selenium.webdriver.common.by import By

    from nsdevice.session import ScreenName
    from tests.browser import chromium
    from tests.test_web_browser import free_port, wait
    from tests.test_web_room_browser import RoomBox

    box = RoomBox(free_port(), "CAFE25")
    box.start()
    url = f"http://127.0.0.1:{box.web.port}/"
    others = [("Ann", 7, 3, 1), ("Bruno", 7, 3, 3), ("Chen", 1, 1, 1), ("Dita", 2, 2, 1),
              ("Emil", 2, 2, 2), ("Fay", 3, 4, 1), ("Gus", 3, 4, 2), ("Hana", 3, 4, 3),
              ("Ivo", 3, 4, 4), ("Jun", 4, 2, 1), ("Kim", 4, 2, 2)]  # fmt: skip
    tokens = {}
    for number, (name, table, size, seat) in enumerate(others):
        body = json.dumps({"name": name, "table": table, "size": size, "seat": seat})
        # each player's own phone: one seat an address (issue 32), told by X-Forwarded-For,
        # which the page takes from the box itself (loopback) only
        asked = urllib.request.Request(f"{url}room/join", body.encode(), method="POST", headers={
            "X-Join-Code": box.session.join_code, "Content-Type": "application/json",
            "X-Forwarded-For": f"127.0.0.{number + 10}"})  # fmt: skip
        with urllib.request.urlopen(asked) as answer:
            tokens[name] = json.load(answer)["token"]
    browser = chromium(390, 844)
    phone = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
    try:
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", phone)
        browser.get(url)
        wait(lambda: browser.find_element(By.ID, "room-join").is_displayed(), what="the form")
        browser.find_element(By.ID, "room-name").send_keys("Zoë")
        browser.find_element(By.ID, "room-table").send_keys("7")
        browser.find_element(By.ID, "room-sizes-3").click()
        browser.find_element(By.ID, "room-seats-2").click()
        browser.find_element(By.ID, "room-code").send_keys(box.session.join_code)
        browser.find_element(By.ID, "room-join-button").click()
        wait(lambda: browser.find_element(By.ID, "mine").is_displayed(), what="joining")
        box.press_next(ScreenName.ROUND_START)
        for _ in range(3):  # round 1's third turn: a card and two earlier ones
            box.press_next(ScreenName.TURN, after=1)
        time.sleep(0.5)
        browser.execute_script("window.scrollTo(0, 0)")
        time.sleep(0.3)
        browser.save_screenshot(str(out / "room-phone-390x844.png"))
        box.press_next(ScreenName.ROOM_RESULTS)
        for number, name in enumerate(tokens):  # every other player's sheet, then the phone's
            body = json.dumps({"sheet": {"lines": [[6 - number % 4, 4]], "stamps": 5 * number,
                                         "ring_unconnected": 0, "objectives": 0,
                                         "interchanges": {"3": 0, "4": 0, "5": 0}}})  # fmt: skip
            headers = {"X-Seat-Token": tokens[name], "Content-Type": "application/json"}
            asked = urllib.request.Request(f"{url}room/score", body.encode(), headers)
            urllib.request.urlopen(asked).close()
        wait(lambda: browser.find_elements(By.ID, "line-1-0"), what="the score sheet")
        for field, value in {"line-1-0": 5, "line-1-1": 4, "line-2-0": 6, "stamps": 20}.items():
            browser.find_element(By.ID, field).clear()
            browser.find_element(By.ID, field).send_keys(str(value))
        browser.find_element(By.ID, "send").click()
        wait(lambda: browser.find_elements(By.CSS_SELECTOR, "#ranking-rows tr.me"), what="rank")
        time.sleep(0.5)
        browser.execute_script("window.scrollTo(0, 0)")
        time.sleep(0.3)
        browser.save_screenshot(str(out / "room-phone-ranking-390x844.png"))
    finally:
        browser.quit()
        box.close()
    print(f"wrote {out}/room-phone-390x844.png, room-phone-ranking-390x844.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
