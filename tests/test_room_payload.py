"""A real room game's tables as the phones get them (issue 25): the session's own table
views through the page's payload, every screen in every language. The page's own room
tests dress one-table views as a room's; here nothing is dressed, so a seam between the
two (a view the payload or the voice cannot take) shows. It did: the pencil pass's
table view leaves its room part at home, and its phrases then asked for seat 0's
controller, which has no words: the payload failed, and with it every phone's stream."""

from __future__ import annotations

import pytest

from nsdevice.locale import LANGUAGES
from nsdevice.session import ScreenName, Session, Settings
from nsdevice.texts import words
from nsdevice.voice import phrase_ids, phrase_text
from nsdevice.web.payload import Artwork, payload


@pytest.mark.parametrize("players", [1, 4])
def test_every_screen_of_a_room_game_makes_a_payload_in_every_language_C10(players):
    session = Session(Settings(room=True, players=players), seed_source=lambda: "ROOMLOAD")
    session.deal_new_game()
    seen = set()
    for number in range(1, 200):
        table = session.table()
        seen.add(session.screen)
        for language in LANGUAGES:
            data = payload(number, table, language, Artwork())
            assert data["screen"] == session.screen.value
        # a room's tables each keep their own controller (C-10): none is named to all
        assert not any(i.startswith("controller.") for i in phrase_ids(table.view))
        assert all(phrase_text(i, "en") for i in phrase_ids(table.view))
        if session.screen is ScreenName.ROOM_RESULTS:
            break
        session.next()
    assert {ScreenName.PENCIL_PASS, ScreenName.ROUND_START, ScreenName.TURN} <= seen
    assert ScreenName.ROOM_RESULTS in seen


def test_a_room_phone_is_told_no_controller_and_no_table_size_but_its_own_C10():
    """Issue 34: the room's phones read "Seat 0 turns the cards" on the pencil pass and
    "Tokyo · 4 players" on the summary. Every screen now, in every language: no
    controller line and no player count in the lines (each phone names its own table's
    size from `sizes`), the join code and the address nowhere."""
    session = Session(Settings(room=True), seed_source=lambda: "ROOMWORDS")
    session.deal_new_game()
    session.join(3, 1, 1, "Ann")
    for number in range(1, 200):
        table = session.table()
        for language in LANGUAGES:
            said = words(language)
            data = payload(number, table, language, Artwork())
            shown = [text for text, _ in data["lines"]] + [data["title"]]
            assert not [role for _, role in data["lines"] if role == "controller"]
            counts = [said.players(n) for n in range(1, 5)]
            assert not [line for line in shown if any(count in line for count in counts)]
            assert session.join_code not in str(data) and data["players"] == 0
            assert data["room"]["sizes"] == counts
            if session.screen is ScreenName.SUMMARY:
                assert shown[0] == f"{said.city('tokyo')} · {data['words']['room']}"
        if session.screen is ScreenName.ROOM_RESULTS:
            break
        session.next()
