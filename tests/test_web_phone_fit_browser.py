"""Every phone page fits a phone (issue 34), in a real headless Chromium at 390×844.

A one-table game and a room game are walked through every page a phone shows: before
and after joining, the round's start, a turn, the pencil pass, the score sheet open, sent
and (room) opened again, the result, and a phone that only watches. On each page, in each
of the five languages:

- nothing is wider than the viewport, and nothing spills out of its own box (the
  ranking's columns, a label, the code field's digits);
- no "Seat 0" (a room has no controller line: every table turns its own cards);
- the phone's own table size and no other ("Solo" at a room's table of one, never the
  room's four);
- the join code field shows all eight digits.

The test plays the loop's part: it publishes the session's table and hands the box what
the phones sent. With NSDEVICE_PHONE_SHOTS=folder, each page is also saved there as a
PNG to look at (never into the repository). About 40 s."""

from __future__ import annotations

import base64
import os
from pathlib import Path

import pytest

from nsdevice.inputs.events import Joined, QueueInbox, RoomScored, Scored
from nsdevice.locale import LANGUAGES
from nsdevice.session import Capabilities, ScreenName, Session, Settings
from nsdevice.texts import words
from tests.browser import CHROMIUM, DRIVER, MISSING, chromium
from tests.test_web_browser import free_port, wait

pytestmark = pytest.mark.skipif(not (CHROMIUM and DRIVER), reason=MISSING)

WIDTH, HEIGHT = 390, 844  # a phone's viewport, in CSS pixels
CODE = "87040219"  # eight digits, as the box draws them
SHOTS = os.environ.get("NSDEVICE_PHONE_SHOTS", "")
TOKYO_SHEET = {"line-1-0": 5, "line-1-1": 4, "line-2-0": 6, "line-2-1": 3, "stamps": 20}
PARIS_SHEET = {"line-1-0": 7, "line-1-1": 5, "line-1-2": 5, "overpasses_once": 3}

# What on the page is wider than the viewport or than its own box: the page's width,
# each element shown that reaches past the viewport's right or left edge, and each whose
# content is wider than its box (a cut column, an input's hidden digits). Read from the
# layout itself, so a new element is checked the day it comes.
OVERFLOWS = """
const width = document.documentElement.clientWidth;
const found = [];
const name = (node) => node.tagName.toLowerCase() + (node.id ? "#" + node.id : "")
  + (node.className && typeof node.className === "string" ? "." + node.className : "")
  + " " + JSON.stringify((node.innerText || node.value || "").slice(0, 40));
if (document.documentElement.scrollWidth > width) {
  found.push("the page is " + document.documentElement.scrollWidth + " px wide");
}
for (const node of document.querySelectorAll("body *")) {
  if (!node.getClientRects().length) continue;  // not shown
  const box = node.getBoundingClientRect();
  if (box.right > width + 0.5 || box.left < -0.5) {
    found.push(name(node) + " spans " + Math.round(box.left) + "-" + Math.round(box.right));
  }
  if (node.clientWidth > 0 && node.scrollWidth > node.clientWidth + 1) {
    found.push(name(node) + " holds " + node.scrollWidth + " px in " + node.clientWidth);
  }
}
return found;
"""


def shown_text(browser) -> str:
    return browser.execute_script("return document.body.innerText")


class Phones:
    """The page over `session`, a browser whose windows are phones, and the loop's part:
    `settle` hands the box what the phones sent and publishes the table."""

    def __init__(self, session: Session, buttons: bool = False) -> None:
        from nsdevice.runner.web import open_web

        self.session = session
        self.inbox = QueueInbox()
        self.web = open_web(("127.0.0.1", free_port()), self.inbox, buttons=buttons)
        self.web.publish(session.table())
        self.web.start()
        assert self.web.started.wait(20), "the page did not start"
        self.browser = chromium(WIDTH, HEIGHT)
        self.pages = 0

    def close(self) -> None:
        self.browser.quit()
        self.web.close()

    def open(self) -> None:
        """The page in this window, as a phone 390 px wide shows it (tests.browser's
        emulated viewport: a headless window is 500 px wide at least; checked)."""
        self.browser.get(f"http://127.0.0.1:{self.web.port}/")
        self.rendered("en")
        viewport = self.browser.execute_script("return [innerWidth, innerHeight]")
        assert viewport == [WIDTH, HEIGHT]

    def settle(self) -> None:
        """What the phones sent reaches the box (as the loop hands it), then the table."""
        self.arrived()
        self.web.publish(self.session.table())

    def arrived(self) -> int:
        """Hands the box what the phones sent; how many items came."""
        items = self.inbox.get(0)
        for item in items:
            if isinstance(item, Joined):
                self.session.join(item.table, item.size, item.seat, item.name, item.claim,
                                  item.leaving, item.ticket)  # fmt: skip
            elif isinstance(item, RoomScored):
                self.session.room_score(item.table, item.seat, item.total, item.best_line)
            elif isinstance(item, Scored):
                self.session.enter_score(item.seat, item.total, item.best_line)
        return len(items)

    def next_until(self, screen: ScreenName) -> None:
        while self.session.screen is not screen:
            self.session.next()
        self.settle()

    def rendered(self, language: str) -> None:
        """The page shows the latest table, in `language`."""
        number = self.web.published
        wait(
            lambda: self.browser.execute_script(
                "const seen = window.nsdeviceSeen || [];"
                "return seen.length > 0 && seen[seen.length - 1].number === arguments[0]"
                " && document.documentElement.lang === arguments[1]",
                number,
                language,
            ),
            30,
            f"table {number} in {language}",
        )

    def fresh(self, act):
        """`act` again when the page redrew its element in between (a new table renders
        the seat buttons and the sheet's fields anew): a person would tap again."""
        from selenium.common.exceptions import StaleElementReferenceException

        for _ in range(20):
            try:
                return act()
            except StaleElementReferenceException:
                continue
        return act()

    def click(self, element_id: str) -> None:
        self.fresh(lambda: self.browser.find_element("id", element_id).click())

    def type(self, element_id: str, text: str) -> None:
        def typed() -> None:
            box = self.browser.find_element("id", element_id)
            box.clear()
            box.send_keys(text)

        self.fresh(typed)

    def shown(self, element_id: str) -> bool:
        def looked() -> bool:
            found = self.browser.find_elements("id", element_id)
            return bool(found) and found[0].is_displayed()

        return bool(self.fresh(looked))

    def each_language(self, what: str, size: int) -> dict[str, str]:
        """Checks the page as it is now in every language (see the module's docstring);
        `size`: the phone's own table's. The text shown in each language, by language."""
        texts = {}
        for language in LANGUAGES:
            self.speak(language)
            said = words(language)
            text = shown_text(self.browser)
            texts[language] = text
            where = f"{what} in {language}"
            found = self.browser.execute_script(OVERFLOWS)
            assert found == [], f"{where}: " + "; ".join(found)
            for zero in (said.slot("0", 4), said.controller(0)):
                assert zero not in text, f"{where}: {zero!r}"
            others = [said.players(n) for n in range(1, 5) if n != size]
            assert [o for o in others if o in text] == [], f"{where}: another table's size"
            self.pages += 1
            if SHOTS:
                self.shot(f"{what}-{language}")
        self.speak("en")
        return texts

    def speak(self, language: str) -> None:
        """The player picks `language` from the page's list (its options are filled in
        when the page loads: chosen by value, as a tap on one would)."""
        self.browser.execute_script(
            "const choice = document.getElementById('language');"
            "choice.value = arguments[0];"
            "choice.dispatchEvent(new Event('change'));",
            language,
        )
        self.rendered(language)

    def shot(self, name: str) -> None:
        """The whole page as a PNG (beyond the viewport), to look at."""
        folder = Path(SHOTS)
        folder.mkdir(parents=True, exist_ok=True)
        picture = self.browser.execute_cdp_cmd(
            "Page.captureScreenshot", {"captureBeyondViewport": True, "format": "png"}
        )
        (folder / f"{name}.png").write_bytes(base64.b64decode(picture["data"]))

    def code_fits(self, element_id: str) -> None:
        """All eight digits of a join code typed into the field are in view."""
        self.type(element_id, CODE)
        widths = self.browser.execute_script(
            "const box = document.getElementById(arguments[0]);"
            "return [box.scrollWidth, box.clientWidth, box.value]",
            element_id,
        )
        assert widths[2] == CODE
        assert widths[0] <= widths[1], f"{element_id}: {widths[0]} px of digits in {widths[1]}"


def one_table() -> Session:
    """Paris (its sheet asks three counts a line) with objectives, the controller's phone
    pressing NEXT and BACK: the longest one-table pages."""
    session = Session(
        Settings(city="paris", players=3, modules=("objectives",)),
        capabilities=Capabilities(phones=("http://127.0.0.1:8414/",)),
        seed_source=lambda: "PHONEFIT",
        code_source=lambda: CODE,
    )
    session.deal_new_game()
    return session


def a_room() -> Session:
    session = Session(
        Settings(room=True, city="tokyo"),
        capabilities=Capabilities(phones=("http://127.0.0.1:8414/",)),
        seed_source=lambda: "ROOMFIT",
        code_source=lambda: CODE,
    )
    session.deal_new_game()
    return session


def fill_sheet(phones: Phones, sheet: dict[str, int]) -> None:
    for field, value in sheet.items():
        phones.type(field, str(value))


def test_every_page_of_a_one_table_phone_fits_a_phone_in_five_languages():
    phones = Phones(one_table(), buttons=True)
    session = phones.session
    try:
        phones.open()
        phones.code_fits("code")
        phones.each_language("table-summary", 3)
        phones.next_until(ScreenName.ROUND_START)
        phones.click("seat-1")  # round 1's controller (C-10): NEXT and BACK on the phone
        phones.each_language("table-round-start-watching", 3)
        phones.type("code", CODE)
        phones.click("join-button")
        wait(lambda: not phones.shown("code"), 30, "the join box folded away")
        assert phones.shown("press-next")
        # the phone's own pencil without its seat again ("Your pencil this round: Green")
        pencil = phones.browser.find_element("id", "pencil-text").text
        assert pencil.startswith("Your pencil this round: ") and "Seat" not in pencil
        phones.each_language("table-round-start-joined", 3)
        for screen in (ScreenName.TURN, ScreenName.ROUND_END, ScreenName.PENCIL_PASS):
            phones.next_until(screen)
            phones.each_language(f"table-{screen.value}", 3)
        phones.next_until(ScreenName.GAME_END)
        wait(lambda: phones.shown("line-1-0"), 30, "the score sheet")
        phones.each_language("table-sheet-open", 3)
        fill_sheet(phones, PARIS_SHEET)
        phones.click("send")
        wait(lambda: phones.arrived() > 0, 30, "the sheet at the box")
        phones.settle()
        wait(lambda: phones.shown("sheet-sent"), 30, "the sheet folded to its line")
        assert not phones.shown("line-1-0") and not phones.shown("send")
        assert not phones.shown("sheet-change")  # a table's seat sends once: no reopening
        phones.each_language("table-sheet-sent", 3)
        for seat, total in ((2, 40), (3, 31)):
            session.enter_score(seat, total, 9)
        phones.settle()
        assert session.screen is ScreenName.RESULT
        assert not phones.shown("sheet-change")
        phones.each_language("table-result", 3)
        phones.browser.switch_to.new_window("window")
        phones.open()
        phones.each_language("table-result-watching", 3)
    finally:
        phones.close()


def join_room(phones: Phones, table: int, size: int, seat: int, name: str = "Zoë") -> None:
    phones.type("room-name", name)
    phones.type("room-table", str(table))
    phones.click(f"room-sizes-{size}")
    phones.click(f"room-seats-{seat}")
    phones.type("room-code", CODE)
    phones.click("room-join-button")
    wait(lambda: phones.arrived() > 0, 30, "the join at the box")
    phones.settle()
    wait(lambda: not phones.shown("room-join"), 30, "the join box folded away")
    phones.rendered("en")


def test_every_page_of_a_room_phone_fits_a_phone_in_five_languages_D14():
    """A phone at a room's table of one, then of three: its own size only, no controller
    line (every table turns its own cards), the sheet folded once sent and opened again
    by "Change my sheet"; its table's winner only once all three sheets are in (D-14)."""
    phones = Phones(a_room())
    session = phones.session
    try:
        phones.open()
        phones.code_fits("room-code")
        phones.each_language("room-summary-watching", 0)
        header = phones.browser.find_element("id", "city")
        assert header.text == "Tokyo · Room"
        # a name of marks alone is refused in the phone's own words (D-15)
        phones.type("room-name", "\u0301\u0308")
        phones.type("room-table", "3")
        phones.click("room-sizes-1")
        phones.click("room-seats-1")
        phones.type("room-code", CODE)
        phones.click("room-join-button")
        refused = words("en").phone()["name_marks"]
        wait(lambda: phones.browser.find_element("id", "room-join-said").text == refused, 30,
             "the refusal in the phone's words")  # fmt: skip
        join_room(phones, 3, 1, 1)
        assert header.text == "Room · table 3 · Solo"
        phones.each_language("room-summary-solo", 1)
        # the player opens the page afresh (a new tab: the seat's claim is kept) and moves
        # to a table of three, the claim along: table 3 is gone
        phones.browser.execute_script("sessionStorage.clear()")
        phones.open()
        join_room(phones, 7, 3, 2)
        assert session.table().room.tables == ((7, 3),)
        assert phones.browser.find_element("id", "city").text == "Room · table 7 · 3 players"
        for seat, name in ((1, "Ann"), (3, "Bo")):
            assert session.join(7, 3, seat, name)
        phones.settle()
        phones.each_language("room-summary-joined", 3)
        for screen in (ScreenName.ROUND_START, ScreenName.TURN, ScreenName.ROUND_END,
                       ScreenName.PENCIL_PASS):  # fmt: skip
            phones.next_until(screen)
            phones.each_language(f"room-{screen.value}", 3)
        phones.next_until(ScreenName.ROOM_RESULTS)
        wait(lambda: phones.shown("line-1-0"), 30, "the score sheet")
        phones.each_language("room-sheet-open", 3)
        fill_sheet(phones, TOKYO_SHEET)
        phones.click("send")
        wait(lambda: phones.arrived() > 0, 30, "the sheet at the box")
        phones.settle()
        wait(lambda: phones.shown("sheet-sent"), 30, "the sheet folded to its line")
        assert not phones.shown("line-1-0")
        # the only sheet in at table 7: nobody has won it yet (D-14)
        assert phones.browser.find_elements("css selector", "#ranking .won") == []
        phones.each_language("room-sheet-sent", 3)
        phones.click("sheet-change")
        wait(lambda: phones.shown("line-1-0"), 30, "the sheet open again")
        phones.each_language("room-sheet-again", 3)
        phones.type("stamps", "30")  # the correction, sent again: the line folds again
        phones.click("send")
        wait(lambda: phones.arrived() > 0, 30, "the corrected sheet at the box")
        phones.settle()
        wait(lambda: phones.shown("sheet-sent"), 30, "the sheet folded again")
        for seat, total in ((1, 70), (3, 31)):
            assert session.room_score(7, seat, total, 9)
        phones.settle()
        wait(lambda: phones.browser.find_elements("css selector", "#ranking .won"), 30, "★")
        phones.each_language("room-result", 3)
        phones.browser.switch_to.new_window("window")
        phones.open()
        phones.each_language("room-result-watching", 0)
    finally:
        phones.close()
