"""The phones' page as the runner opens it: the address from the options, the addresses
phones are shown, and the page wired to the box's inbox."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from nsdevice.options import RunOptions
from nsdevice.runner.planning import notice, usage

if TYPE_CHECKING:
    from nsdevice.inputs.events import Busy, Inbox, Item
    from nsdevice.inputs.room_inbox import RoomInbox
    from nsdevice.web.forked import Forked
    from nsdevice.web.server import WebSide


def web_address(options: RunOptions) -> tuple[str, int] | None:
    """Where to serve the phones' page; None for no page (no --web, an empty one, --no-web)."""
    text = options.web
    if not text or options.no_web:
        return None
    from nsdevice.web.server import parse_address

    try:
        return parse_address(text)
    except ValueError as error:
        raise usage(str(error)) from None


def phone_addresses(host: str, port: int) -> tuple[str, ...]:
    """Where phones find the page: this machine's address on the network (for the QR
    code) and its mDNS name; the bound address itself when it is a single one."""
    import socket

    if host not in ("0.0.0.0", "::", ""):
        return (f"http://{host}:{port}/",)
    addresses = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.255.255.255", 9))  # a datagram socket sends nothing on connect
        addresses.append(f"http://{probe.getsockname()[0]}:{port}/")
    addresses.append(f"http://{socket.gethostname()}.local:{port}/")
    return tuple(addresses)


def open_web(
    address: tuple[str, int],
    inbox: Inbox,
    buttons: bool = False,
    busy: Busy | None = None,
    room: RoomInbox | None = None,
    forked: Forked | None = None,
) -> WebSide:
    """The phones' page, ready to start; its symbols are drawn by the box's own painter.
    `busy`: the loop's, so the page's fan-out steps aside while a frame is made. `room`:
    the loop's, where joins, renames and sheets wait for their batch (None: the inbox).
    `forked`: the page's process forked early (`web_early`), else it is spawned."""
    from nsdevice.inputs.events import Abandoned, Joined, RoomScored
    from nsdevice.web.payload import Artwork
    from nsdevice.web.server import WebSide

    def artwork() -> Artwork:
        from nsdevice.displays import artwork as drawn

        return Artwork(drawn.symbol_pngs(), drawn.card_colours(), drawn.pencil_colours())

    def put(item: Item) -> bool:
        # never waits: the page's event loop must not stall on a full inbox; it tells the
        # phone to try again instead (503), so a full inbox loses no player silently
        if room is not None and isinstance(item, Joined | RoomScored | Abandoned):
            return room.put(item)  # never crowding the buttons out of their inbox
        return inbox.put(item)

    host, port = address
    return WebSide(
        host, port, put, artwork, on_error=notice, buttons=buttons, busy=busy, forked=forked
    )


def web_early(address: tuple[str, int] | None) -> Forked | None:
    """The page's process forked now, before the hardware opens (issue 35: it shares the
    box's pages instead of loading its own copies); None without the page, or where a
    thread already runs."""
    if address is None:
        return None
    from nsdevice.web.forked import Forked

    return Forked.fork()
