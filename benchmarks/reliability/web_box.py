"""What the web checks share: a real `nsdevice run --web 127.0.0.1:PORT` driven through
its terminal keys, its join code read off its own Phones screen, and plain HTTP over
loopback from any 127.0.0.0/8 address (Linux routes the whole /8 to `lo`).

Everything here talks to loopback only, and every socket has a timeout.
"""

from __future__ import annotations

import json
import resource
import selectors
import socket
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from benchmarks.reliability.harness import BOX, ENV

BOX_FILE_LIMIT = 1024  # the box starts with the usual soft limit and lifts it itself


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def lift_own_file_limit(wanted: int = 4096) -> None:
    """The checker holds hundreds of sockets itself."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


def loopback(number: int) -> str:
    """The `number`th loopback address past 127.0.0.1 (127.0.0.2, …, 127.0.1.0, …)."""
    number += 2
    return f"127.{number // 65536 % 256}.{number // 256 % 256}.{number % 256}"


def _box_limit() -> None:  # in the child, before exec: the usual soft limit
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(BOX_FILE_LIMIT, hard), hard))


def stop(process: subprocess.Popen[bytes]) -> None:
    """End a box as systemd would (SIGTERM), and kill it if it has not gone in 10 s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


@dataclass
class WebBox:
    """The box with its page; `screens` collects its JSON screens as they come."""

    folder: Path
    port: int = field(default_factory=free_port)
    screens: list[dict[str, Any]] = field(default_factory=list)
    options: tuple[str, ...] = ()  # more of `nsdevice run`'s options (`--room`, …)

    def __post_init__(self) -> None:
        command = [*BOX, "run", "--display", "json", "--input", "keyboard",
                   "--state-dir", str(self.folder), "--web", f"127.0.0.1:{self.port}",
                   *self.options]  # fmt: skip
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=ENV, preexec_fn=_box_limit,
        )  # fmt: skip
        self._changed = threading.Condition()
        assert self.process.stdout is not None
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()

    def _read(self, stream: IO[bytes]) -> None:
        for line in stream:
            try:
                screen = json.loads(line)
            except ValueError:
                continue
            with self._changed:
                self.screens.append(screen)
                self._changed.notify_all()

    def wait_screen(self, name: str, after: int = 0, seconds: float = 30) -> dict[str, Any]:
        deadline = time.monotonic() + seconds
        with self._changed:
            while True:
                for screen in self.screens[after:]:
                    if screen.get("screen") == name:
                        return screen
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"the box never showed {name}")
                self._changed.wait(left)

    def keys(self, keys: str, pause: float = 0.05) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        for key in keys:
            stdin.write(key.encode())
            stdin.flush()
            time.sleep(pause)

    def wait_page(self, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the box ended: {self.process.stderr.read()!r}")  # type: ignore[union-attr]
            try:
                if ask(self.port, get("/state", self.port))[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise TimeoutError("the page never answered")

    def join_code(self) -> str:
        """Open the Phones screen from the menu (as a player would) and read the code."""
        seen = len(self.screens)
        self.keys("nm")  # the round's start, then its menu (MENU on a summary is the setup)
        menu = self.wait_screen("menu", seen)
        rows = [row["key"] if isinstance(row, dict) else row for row in menu.get("rows", [])]
        steps = rows.index("phones") if "phones" in rows else 6
        seen = len(self.screens)
        self.keys("n" * steps + "m")
        code = str(self.wait_screen("phones", seen)["code"])
        seen = len(self.screens)
        self.keys("b")  # back to the menu; the code stays
        self.wait_screen("menu", seen)
        return code

    def close(self) -> None:
        stop(self.process)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()


def get(path: str, port: int, extra: str = "") -> bytes:
    return (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{extra}"
            "Connection: close\r\n\r\n").encode()  # fmt: skip


def post(path: str, port: int, body: dict[str, Any], extra: str = "") -> bytes:
    data = json.dumps(body).encode()
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{extra}Connection: close\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
    ).encode() + data


def connect(port: int, source: str = "127.0.0.1", timeout: float = 5) -> socket.socket:
    sock = socket.socket()
    sock.settimeout(timeout)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def ask(
    port: int, request: bytes, source: str = "127.0.0.1", timeout: float = 5
) -> tuple[int, dict[str, Any] | None]:
    """One request on its own connection: the status and the JSON body (if any)."""
    with connect(port, source, timeout) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    try:
        return status, json.loads(body)
    except ValueError:
        return status, None


class Streams:
    """Event streams held open by one selector thread: `count` of them, at most `per`
    per source address. They read what comes (a phone on the table) unless `reading`
    is False (a phone asleep: the box's buffers fill and stay full)."""

    def __init__(self, port: int, count: int, per: int = 4, first: int = 1000,
                 reading: bool = True) -> None:  # fmt: skip
        self.sockets: list[socket.socket] = []
        self.refused = 0
        self.events = 0
        self._selector = selectors.DefaultSelector()
        self._stop = threading.Event()
        for index in range(count):
            sock = connect(port, loopback(first + index // per))
            sock.sendall(get("/events", port).replace(b"Connection: close\r\n", b""))
            self.sockets.append(sock)
            if reading:
                sock.setblocking(False)
                self._selector.register(sock, selectors.EVENT_READ)
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while not self._stop.is_set():
            for key, _ in self._selector.select(0.2):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                try:
                    chunk = sock.recv(65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    self._selector.unregister(sock)
                    continue
                if chunk.startswith(b"HTTP/1.1 503"):
                    self.refused += 1
                self.events += chunk.count(b"data: ")

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        for sock in self.sockets:
            sock.close()
        self._selector.close()


def to_game_end(box: WebBox, most: int = 400) -> None:
    """From the menu `join_code` leaves: resume, then NEXT until the game's end."""
    menu = box.screens[-1]
    box.keys("b" * int(menu.get("cursor", 0)) + "m")  # up to "resume", taken
    for _ in range(most):
        if box.screens and box.screens[-1].get("screen") == "game_end":
            return
        box.keys("n", pause=0.03)
    box.wait_screen("game_end", len(box.screens) - 1, seconds=5)
