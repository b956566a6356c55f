"""Connections that cannot starve the page (issue 22): every connection is counted by
address and in all, and one that has not finished sending its request is closed after
`REQUEST_SECONDS`.

Uvicorn's own `limit_concurrency` (the page's server until issue 35) counted idle event
streams and half-sent requests alike and timed neither out, so 63 idle streams refused
every phone. Here:

- a connection waiting for its request (headers or body not all there yet, or idle
  between requests) is closed `REQUEST_SECONDS` after it started waiting;
- an address holds at most `PER_ADDRESS` connections; past that its new ones are closed;
- the box holds at most `most` connections (under the process's file limit); when full,
  a newcomer takes the place of the connection that has waited longest for its
  request, so a flood of half-sent requests cannot keep a phone out;
- the moment a phone goes its connection leaves the count (the event stream itself
  ends at once too: see `app.py`), and TCP keepalive finds a phone that vanished.

Imported in the page's process only, with its server (`web.serving`, process.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import resource
import socket
from collections import OrderedDict
from typing import Any

import h11

from nsdevice.web.serving import Connection

REQUEST_SECONDS = 10.0  # a phone sends a whole request in well under this
PER_ADDRESS = 32  # a phone's browser uses six at most, plus its event stream and tabs
MOST_CONNECTIONS = 2000  # 500 watchers need 500; the rest for pages, joins and floods
SPARE_FILES = 100  # files the box keeps for itself: its database, serial, the panel
WRITE_BUFFER = 32 * 1024  # bytes queued for a phone that stopped reading, at most
WAITING = (h11.IDLE, h11.SEND_BODY)


def raise_file_limit(wanted: int = MOST_CONNECTIONS + SPARE_FILES) -> int:
    """Lift the process's soft limit on open files towards `wanted` (never above the
    hard limit, which systemd sets to 524288 by default); the connections it allows."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
    allowed = MOST_CONNECTIONS if soft == resource.RLIM_INFINITY else soft - SPARE_FILES
    return max(16, min(MOST_CONNECTIONS, allowed))


class Doorman:
    """The count of open connections, shared by every connection's protocol."""

    def __init__(
        self,
        most: int = MOST_CONNECTIONS,
        per_address: int = PER_ADDRESS,
        request_seconds: float = REQUEST_SECONDS,
    ) -> None:
        self.most, self.per_address, self.request_seconds = most, per_address, request_seconds
        self.by_address: dict[str, int] = {}
        self.total = 0
        self.waiting: OrderedDict[Any, None] = OrderedDict()  # oldest first
        self.closed_waiting = 0  # half-sent or idle connections closed, for the figures
        self.refused = 0

    def admit(self, address: str) -> bool:
        if self.by_address.get(address, 0) >= self.per_address:
            self.refused += 1
            return False
        if self.total >= self.most:
            if not self.waiting:
                self.refused += 1
                return False
            oldest = next(iter(self.waiting))
            oldest.close_waiting()  # leaves the count at once
        self.by_address[address] = self.by_address.get(address, 0) + 1
        self.total += 1
        return True

    def leave(self, address: str) -> None:
        left = self.by_address.get(address, 0) - 1
        if left > 0:
            self.by_address[address] = left
        else:
            self.by_address.pop(address, None)
        self.total -= 1


def guarded(doorman: Doorman) -> type[Connection]:
    """The page's connection (`web.serving`), counted by `doorman` and timed out while
    waiting."""

    class Guarded(Connection):
        _address = ""
        _counted = False
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            self._address = self.client[0] if self.client else "?"
            if not doorman.admit(self._address):
                self.transport.abort()
                return
            self._counted = True
            self.transport.set_write_buffer_limits(high=WRITE_BUFFER)
            _keep_alive(self.transport)
            self._watch()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_waiting()
            if self._counted:
                self._counted = False
                doorman.leave(self._address)
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._watch()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._watch()

        def _watch(self) -> None:
            """Start or stop the wait for a whole request, by h11's view of the peer."""
            if not self._counted or self.transport.is_closing():
                return
            if self.conn.their_state in WAITING:
                if self._deadline is None:
                    self._deadline = self.loop.call_later(
                        doorman.request_seconds, self.close_waiting
                    )
                    doorman.waiting[self] = None
            else:
                self._stop_waiting()

        def _stop_waiting(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None
            doorman.waiting.pop(self, None)

        def close_waiting(self) -> None:
            """Too slow with its request, or the oldest waiting when the box is full."""
            self._stop_waiting()
            doorman.closed_waiting += 1
            if self._counted:
                self._counted = False
                doorman.leave(self._address)
            self.transport.abort()

    return Guarded


def _keep_alive(transport: asyncio.Transport) -> None:
    """Probe an idle connection after 30 s, so a phone gone without a word (out of
    range, battery flat) frees its place within a minute, not TCP's quarter hour."""
    sock = transport.get_extra_info("socket")
    if sock is None:
        return
    with contextlib.suppress(OSError, AttributeError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, 30)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, 10)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, 3)
