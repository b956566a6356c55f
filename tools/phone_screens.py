#!/usr/bin/env python3
"""Screenshots of the phones' page for the docs, in Debian's headless Chromium.

Usage: python tools/phone_screens.py [--out docs/screens]

A 3-player Tokyo game is played on the box to round 1's fourth turn; seat 2's phone,
joined, is photographed at 390x844 (a phone) and 1280x800 (a tablet or laptop), then the
game is played to its end and the score sheet is photographed too.
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
    out = Path(parser.parse_args().out)
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


if __name__ == "__main__":
    sys.exit(main())
