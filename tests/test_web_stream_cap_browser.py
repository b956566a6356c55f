"""Phones come back (issue 32, item 7), in a real headless Chromium: with every event
stream the box takes already held (a bound of one here, `WebSide(streams=1)`: the same
503 a room's 1,001st phone gets), a new phone still shows the card, read from /state,
and follows the next one; once a stream is free the phone's stream resumes by itself
(its retries back off, with jitter) and the cards come on it again. About 10 s."""

from __future__ import annotations

import socket
import time

import pytest

from nsdevice import views
from nsdevice.inputs.events import Button, Press, QueueInbox
from nsdevice.session import ScreenName, Session, Settings
from nsdevice.web.payload import Artwork
from nsdevice.web.server import WebSide
from tests.browser import CHROMIUM, DRIVER, MISSING, chromium
from tests.test_web_browser import free_port, wait

pytestmark = pytest.mark.skipif(not (CHROMIUM and DRIVER), reason=MISSING)


def artwork() -> Artwork:
    from nsdevice.displays import artwork as drawn

    return Artwork(drawn.symbol_pngs(), drawn.card_colours(), drawn.pencil_colours())


def symbols(session: Session) -> list[str]:
    view = session.view()
    assert isinstance(view, views.TurnView)
    return [(card.symbol or card.special).value for card in view.cards]  # type: ignore[union-attr]


def hold_a_stream(port: int) -> socket.socket:
    """Another phone's stream, open and admitted (its first table has come)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    seen = b""
    while b"data:" not in seen:
        chunk = sock.recv(65536)
        assert chunk, f"the stream was refused: {seen[:200]!r}"
        seen += chunk
    assert seen.startswith(b"HTTP/1.1 200")
    return sock


def test_a_phone_refused_a_stream_shows_the_card_and_its_stream_resumes(tmp_path):
    session = Session(Settings(city="tokyo", players=1), seed_source=lambda: "COMEBACK32")
    session.press(Press(Button.MENU))  # the setup's first row starts the game
    while session.screen is not ScreenName.TURN:
        session.next()
    port = free_port()
    web = WebSide("127.0.0.1", port, QueueInbox().put, artwork, streams=1)
    web.publish(session.table())
    web.start()
    browser = None
    held: socket.socket | None = None
    try:
        assert web.started.wait(30), "the page did not start"
        held = hold_a_stream(port)  # the box's one stream is taken
        browser = chromium()
        browser.get(f"http://127.0.0.1:{port}/")

        def shown(via: str, cards: list[str]) -> bool:
            seen = browser.execute_script("return nsdeviceSeen")
            return any(e["via"] == via and e["cards"] == cards for e in seen)

        first = symbols(session)
        wait(lambda: shown("state", first), 10, "the card read from /state")
        assert not any(e["via"] == "stream" for e in browser.execute_script("return nsdeviceSeen"))
        session.next()  # the next card, still with no stream for this phone
        web.publish(session.table())
        second = symbols(session)
        wait(lambda: shown("state", second), 10, "the next card, polled")

        held.close()  # a stream is free: the phone's next try takes it
        held = None
        wait(lambda: shown("stream", second), 15, "the stream to resume")
        session.next()
        web.publish(session.table())
        third = symbols(session)
        wait(lambda: shown("stream", third), 10, "the next card on the stream")
        time.sleep(2.5)  # longer than a poll's interval: the polling stopped with the stream
        seen = browser.execute_script("return nsdeviceSeen")
        resumed = next(i for i, e in enumerate(seen) if e["via"] == "stream")
        assert all(e["via"] != "state" for e in seen[resumed:])
    finally:
        if held is not None:
            held.close()
        if browser is not None:
            browser.quit()
        web.close()
