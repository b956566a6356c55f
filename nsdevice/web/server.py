"""The web side's thread: waits for the box's first frame, then serves the page.

Starlette and uvicorn are imported on that thread after the first frame, so the box's
cold start does not pay for them. `publish` is the loop's output; `close` stops it.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Any

from nsdevice.inputs.events import Busy, Item
from nsdevice.views import TableView
from nsdevice.web.payload import Artwork
from nsdevice.web.stage import Stage

DEFAULT_PORT = 8414
FIRST_FRAME_WAIT = 30.0  # seconds: a box that never draws never serves
SETTLE = 0.2  # seconds after the first frame before the page loads its server


def parse_address(text: str) -> tuple[str, int]:
    """`[HOST:]PORT` → (host, port); ValueError naming what is wrong."""
    host, sep, port = text.rpartition(":")
    if not sep:
        host = "0.0.0.0"
    host = host.strip("[]") or "0.0.0.0"
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ValueError(f"--web wants [HOST:]PORT with a port from 1 to 65535, not {text!r}")
    return host, int(port)


class WebSide:
    def __init__(
        self,
        host: str,
        port: int,
        inbox_put: Callable[[Item], bool],
        artwork: Callable[[], Artwork],
        on_error: Callable[[str], None] = lambda message: None,
        buttons: bool = False,
        busy: Busy | None = None,
        streams: int | None = None,  # event streams open at once: None, the page's own bound
    ) -> None:
        self._buttons = buttons
        self._streams = streams
        self.host, self.port = host, port
        self.stage = Stage(busy)  # busy: the loop's, so the fan-out lets a frame go first
        self._inbox_put = inbox_put
        self._artwork = artwork
        self._on_error = on_error
        self._server: Any = None
        self.doorman: Any = None  # the web thread's count of connections, once it serves
        self._stop_soon: Callable[[], object] = lambda: None
        self._stopping = threading.Event()
        self.started = threading.Event()  # set once the page answers
        self._thread = threading.Thread(target=self._serve, name="nsdevice-web", daemon=True)

    def publish(self, table: TableView) -> None:
        self.stage.publish(table)

    def start(self) -> None:
        self._thread.start()

    def _serve(self) -> None:
        if not self.stage.wait_first(FIRST_FRAME_WAIT):
            return
        # The first table comes with the first frame, just before the loop tells systemd
        # it is ready: let that go first, the imports below would compete for the GIL.
        if self._stopping.wait(SETTLE):
            return
        try:
            # drawn before the server's modules are loaded: its big working pictures are
            # freed at once, so they add to a smaller total (the box's peak memory, issue 23)
            artwork = self._artwork()
            import asyncio

            from nsdevice.imports import provide, without_init

            # uvicorn's __init__ would load its command line (click, multiprocessing): 2.3 MB
            without_init("uvicorn")
            from uvicorn.config import Config
            from uvicorn.server import Server as UvicornServer

            provide("uvicorn", Config=Config, Server=UvicornServer)  # its lifespan takes Config

            from nsdevice.web.app import MOST_WATCHERS, make_app
            from nsdevice.web.doorman import Doorman, guarded, raise_file_limit
            from nsdevice.web.guard import own_names

            side = self

            class Server(UvicornServer):
                async def main_loop(self) -> None:
                    """Wait for `close` instead of uvicorn's ten checks a second: an idle
                    page wakes the box for nothing."""
                    stopped = asyncio.Event()
                    loop = asyncio.get_running_loop()
                    side._stop_soon = lambda: loop.call_soon_threadsafe(stopped.set)
                    side.started.set()
                    if not side._stopping.is_set():
                        await stopped.wait()

            # Connections are counted and timed out by the doorman, not by uvicorn's
            # limit_concurrency (which idle streams and half-sent requests exhausted).
            self.doorman = doorman = Doorman(raise_file_limit())
            names = own_names([self.host] if self.host not in ("0.0.0.0", "::") else [])
            app = make_app(
                self.stage, self._inbox_put, artwork, self._buttons, None, names,
                streams=self._streams if self._streams is not None else MOST_WATCHERS,
            )  # fmt: skip
            config = Config(
                app,
                host=self.host,
                port=self.port,
                log_level="warning",
                access_log=False,
                lifespan="on",
                timeout_graceful_shutdown=1,
                http=guarded(doorman),
                ws="none",  # the page has no websocket: its modules would cost 1.2 MB
                date_header=False,  # it would go stale: nothing ticks to refresh it
            )
            self._server = server = Server(config)
            if self._stopping.is_set():
                return
            server.run()
            if not server.started:
                self._on_error(f"the phones' page could not start on {self.host}:{self.port}")
        except (Exception, SystemExit) as error:  # the box goes on without its page
            self._on_error(f"the phones' page stopped ({error})")

    def close(self) -> None:
        self._stopping.set()
        self.stage.release()  # a thread still waiting for the first frame; the streams
        if self._server is not None:
            self._server.should_exit = True
        with contextlib.suppress(RuntimeError):  # its event loop may be gone already
            self._stop_soon()
        if self._thread.is_alive():
            self._thread.join(timeout=3)
