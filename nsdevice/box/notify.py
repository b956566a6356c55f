"""Tell systemd we are up and alive (sd_notify), with nothing beyond the standard library."""

from __future__ import annotations

import array
import os
import select
import socket
from collections.abc import Mapping

BARRIER_SECONDS = 5.0  # the longest a barrier waits for systemd to read what was sent
MOST_PING_SECONDS = 4.0  # the longest an idle loop goes without a watchdog ping


class Notifier:
    """READY=1 after the first frame; WATCHDOG=1 from the loop. Silent without NOTIFY_SOCKET."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        if address.startswith("@"):  # an abstract socket name
            address = "\0" + address[1:]
        self._address = address or None
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        mine = not pid or pid == str(os.getpid())
        # Ping at half the watchdog period, as systemd's documentation recommends, and at
        # least every MOST_PING_SECONDS: a gap between pings then says the loop is stuck,
        # whatever WatchdogSec the unit sets (an idle box with 15 s pinged every 7.5 s).
        self.watchdog_interval: float | None = (
            min(int(usec) / 2_000_000, MOST_PING_SECONDS)
            if usec.isdigit() and int(usec) > 0 and mine
            else None
        )

    @property
    def active(self) -> bool:
        return self._address is not None

    def send(self, message: str) -> None:
        if self._address is None:
            return
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.connect(self._address)
                sock.sendall(message.encode())
        except OSError:
            pass  # systemd gone or socket unreachable: the game goes on

    def status(self, text: str) -> None:
        """What `systemctl status` shows on its Status: line; it waits (at most
        BARRIER_SECONDS) until systemd has read it, so a process about to exit does not
        take the line with it (systemd drops a message from a main process already gone)."""
        self.send("STATUS=" + " ".join(text.split()))  # one line
        self._barrier()

    def _barrier(self) -> None:
        """sd_notify_barrier: send BARRIER=1 with a pipe's write end; systemd closes its
        copy once it has read every earlier message, and the read end sees the end."""
        if self._address is None:
            return
        read_end, write_end = os.pipe()
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.connect(self._address)
                rights = array.array("i", [write_end]).tobytes()
                sock.sendmsg([b"BARRIER=1"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, rights)])
            os.close(write_end)
            write_end = -1
            select.select([read_end], [], [], BARRIER_SECONDS)
        except OSError:
            pass  # no systemd to wait for
        finally:
            os.close(read_end)
            if write_end >= 0:
                os.close(write_end)

    def ready(self) -> None:
        self.send("READY=1")

    def watchdog(self) -> None:
        if self.watchdog_interval is not None:
            self.send("WATCHDOG=1")

    def stopping(self) -> None:
        self.send("STOPPING=1")
