"""The loop: presses in, one frame per change out, systemd told, never busy-waiting."""

from __future__ import annotations

import os
import socket
import threading

from nsdevice.box.loop import Loop
from nsdevice.box.notify import Notifier
from nsdevice.displays import Display
from nsdevice.inputs.events import Button, ButtonTracker, Edge, Press, QueueInbox, Stop
from nsdevice.session import Session, Settings


class RecordingDisplay(Display):
    supports_brightness = True

    def __init__(self) -> None:
        self.shown = []
        self.chimes = []
        self.brightness = []

    def show(self, view) -> None:
        self.shown.append(view)

    def chime(self, name: str) -> None:
        self.chimes.append(name)

    def set_brightness(self, level: int) -> None:
        self.brightness.append(level)

    def inbox(self):
        return None

    def close(self) -> None:
        pass


def make_loop(**kwargs) -> tuple[Loop, RecordingDisplay, QueueInbox]:
    display = RecordingDisplay()
    inbox = QueueInbox()
    session = Session(Settings(players=2), seed_source=lambda: "LOOP")
    loop = Loop(session=session, display=display, inbox=inbox, tracker=ButtonTracker(), **kwargs)
    return loop, display, inbox


def test_each_press_draws_once_and_saves_and_stop_exits_zero():
    saved = []
    loop, display, inbox = make_loop(save=saved.append)
    for word in ("menu", "next", "next", "next"):
        inbox.put(Press.parse(word))
    inbox.put(Stop("done"))
    assert loop.run() == 0
    assert [v.screen for v in display.shown] == ["setup", "summary", "round_start", "turn", "turn"]
    assert len(saved) == 4
    assert display.chimes == ["reveal", "reveal"]
    assert display.brightness == [5]


def test_a_press_that_changes_nothing_draws_nothing():
    loop, display, inbox = make_loop()
    inbox.put(Press.parse("menu"))  # setup → summary
    inbox.put(Press.parse("menu"))  # summary → menu
    inbox.put(Press.parse("back"))  # cursor up
    inbox.put(Stop())
    loop.run()
    assert len(display.shown) == 4
    assert display.shown[-1] != display.shown[-2]


def test_chattering_edges_make_one_press():
    loop, display, inbox = make_loop()
    t = 100.0
    for down in (True, False, True, False, True, False):  # 5 ms apart: one bouncy tap
        inbox.put(Edge(Button.MENU, down, t))
        t += 0.005
    inbox.put(Edge(Button.MENU, False, t + 0.2))
    inbox.put(Stop())
    loop.run()
    assert [v.screen for v in display.shown] == ["setup", "summary"]


def test_idle_loop_blocks_without_a_timeout():
    loop, _display, _inbox = make_loop()
    assert loop._timeout() is None  # no deadline, no watchdog: sleep until a press


class PagedDisplay(RecordingDisplay):
    """A display whose turn view is two pages (as on the 2-inch panel): 5 s, then 3 s."""

    def __init__(self) -> None:
        super().__init__()
        self.pages = 0
        self.current = None

    def show(self, view) -> None:
        super().show(view)
        self.current, self.pages = view, 0

    def page_seconds(self) -> float | None:
        if self.current is None or self.current.screen != "turn":
            return None
        return (5.0, 3.0)[self.pages % 2]

    def next_page(self) -> None:
        self.pages += 1


class ClockInbox(QueueInbox):
    """An inbox whose wait moves a fake clock on by the timeout asked for, so the test
    sees how long the loop would sleep and what it does when it wakes."""

    def __init__(self, clock: list[float], stop_after: int) -> None:
        super().__init__()
        self.clock, self.timeouts, self.stop_after = clock, [], stop_after

    def get(self, timeout):
        self.timeouts.append(timeout)
        queued = super().get(0)
        if queued:
            return queued
        if len(self.timeouts) > self.stop_after:
            return [Stop()]
        self.clock[0] += timeout if timeout is not None else 1000.0
        return []


def test_a_view_in_pages_wakes_the_loop_only_to_turn_the_page():
    clock = [0.0]
    display = PagedDisplay()
    inbox = ClockInbox(clock, stop_after=5)
    session = Session(Settings(players=2), seed_source=lambda: "LOOP")
    loop = Loop(session=session, display=display, inbox=inbox, tracker=ButtonTracker(),
                clock=lambda: clock[0])  # fmt: skip
    for word in ("menu", "next", "next"):  # to the first card: a turn, in two pages
        inbox.put(Press.parse(word))
    loop.run()
    assert display.shown[-1].screen == "turn"
    # after the presses: asleep 5 s on the card, 3 s on the notes, 5 s, ... no other wake
    assert inbox.timeouts[1:] == [5.0, 3.0, 5.0, 3.0, 5.0]
    assert display.pages >= 3 and len(display.shown) == 4  # pages turned, nothing redrawn


def test_a_view_in_one_picture_sleeps_until_a_press():
    clock = [0.0]
    display = PagedDisplay()
    inbox = ClockInbox(clock, stop_after=2)
    session = Session(Settings(players=2), seed_source=lambda: "LOOP")
    loop = Loop(session=session, display=display, inbox=inbox, tracker=ButtonTracker(),
                clock=lambda: clock[0])  # fmt: skip
    loop.run()
    assert display.shown[-1].screen != "turn" and inbox.timeouts == [None, None, None]
    assert display.pages == 0


def test_systemd_hears_ready_after_the_first_frame_and_watchdog_pings(tmp_path):
    address = str(tmp_path / "notify")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(address)
    server.settimeout(2)
    notifier = Notifier({"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "2000000",
                         "WATCHDOG_PID": str(os.getpid())})  # fmt: skip
    assert notifier.watchdog_interval == 1.0
    loop, display, inbox = make_loop(notifier=notifier)
    assert loop._timeout() == 1.0
    threading.Timer(0.3, lambda: inbox.put(Stop())).start()
    loop.run()
    messages = []
    server.settimeout(0.2)
    try:
        while True:
            messages.append(server.recv(64).decode())
    except TimeoutError:
        pass
    assert messages[0] == "READY=1"
    assert "WATCHDOG=1" in messages
    assert display.shown  # READY came after a frame was drawn
    server.close()


def test_an_idle_box_pings_the_watchdog_at_least_every_four_seconds_whatever_the_unit_sets():
    # The service sets WatchdogSec=15: half of it would leave 7.5 s between an idle box's pings.
    def notifier(usec: str) -> Notifier:
        pid = str(os.getpid())
        return Notifier({"NOTIFY_SOCKET": "/x", "WATCHDOG_USEC": usec, "WATCHDOG_PID": pid})

    service, short = notifier("15000000"), notifier("3000000")
    assert service.watchdog_interval == 4.0
    assert short.watchdog_interval == 1.5  # a shorter period keeps its half


def test_notifier_is_silent_without_systemd():
    notifier = Notifier({})
    assert not notifier.active and notifier.watchdog_interval is None
    notifier.ready()  # must not raise


def test_shutdown_request_runs_the_hook_and_exits():
    requests = []
    loop, display, inbox = make_loop(on_request=requests.append)
    loop.session.capabilities = type(loop.session.capabilities)(shutdown=True)
    for word in ("menu", "next", "next", "menu"):  # start, round start, first card, menu
        inbox.put(Press.parse(word))
    rows = None
    inbox.put(Stop())
    loop.run()
    rows = [r.key for r in loop.session.view().rows]
    # walk to "shut down" and confirm
    inbox2 = QueueInbox()
    loop.inbox = inbox2
    for _ in range(rows.index("shutdown")):
        inbox2.put(Press.parse("next"))
    inbox2.put(Press.parse("menu"))
    inbox2.put(Press.parse("next"))
    assert loop.run() == 0
    assert requests == ["shutdown"]
    assert display.shown[-1].screen == "shutdown"


def test_a_notice_raised_by_a_failed_save_reaches_the_screen():
    """Saving may come before or after the frame; either way a save that could not be made
    puts its notice on screen within the same press (the Saver appends to the notices)."""
    from nsdevice.box.saving import Saver
    from nsdevice.store import CannotSave, Store

    class FullCard(Store):
        def save(self, snapshot: dict) -> bool:
            raise CannotSave("store_full", "database or disk is full")

    saver = Saver(FullCard(Store.in_memory()._db, None), where="/card", log=lambda line: None)
    loop, display, inbox = make_loop(save=saver)
    saver.notices = loop.session.notices
    inbox.put(Press.parse("menu"))
    inbox.put(Stop("done"))
    loop.run()
    assert display.shown[-1].screen == "notice" and display.shown[-1].notice == "store_full"


def test_a_save_that_gives_no_notice_leaves_the_view_built_once_per_press():
    """Issue 23: the view was built again after every save to catch a notice the save
    might give; the save changes nothing else a view shows, so only a notice does that."""
    saved = []
    loop, display, _ = make_loop(save=saved.append)
    built = []
    view = loop.session.view
    loop.session.view = lambda: built.append(1) or view()  # type: ignore[method-assign]
    loop.draw()
    built.clear()
    for word in ("menu", "next", "next"):
        loop.handle(Press.parse(word))
    assert len(saved) == 3 and len(built) == 3
    assert [v.screen for v in display.shown] == ["setup", "summary", "round_start", "turn"]


def test_a_step_a_locked_store_refused_is_retried_while_the_loop_sleeps_no_longer():
    """The saver says when to try again; the loop wakes for it, not only for a press."""
    clock = [0.0]
    inbox = ClockInbox(clock, stop_after=4)
    waits = iter([0.5, 0.25, None])
    tries: list[float] = []

    def retry():
        tries.append(clock[0])
        return next(waits, None)

    session = Session(Settings(players=2), seed_source=lambda: "RETRY")
    loop = Loop(session, RecordingDisplay(), inbox, ButtonTracker(), retry=retry)
    assert loop.run() == 0
    assert inbox.timeouts[:3] == [None, 0.5, 0.25]  # each wait as long as the saver asked
    assert [at - tries[0] for at in tries[:3]] == [0.0, 0.5, 0.75]  # tried when due
    assert inbox.timeouts[3] is None  # nothing waits: sleep until a press


def test_the_loop_is_busy_from_a_press_until_its_frame_is_out():
    """The phones' fan-out and the voice wait on `Loop.busy` (issue 22, 24): it must be
    held while a press becomes its frame and free before the phones, the save and sleep."""
    from nsdevice.inputs.events import Busy

    busy = Busy()
    seen: dict[str, list[bool]] = {"show": [], "publish": [], "save": []}

    class Watching(RecordingDisplay):
        def show(self, view) -> None:
            seen["show"].append(busy.busy)
            super().show(view)

    loop, _, inbox = make_loop(
        busy=busy,
        save=lambda snapshot: seen["save"].append(busy.busy),
        publish=lambda table: seen["publish"].append(busy.busy),
    )
    loop.display = Watching()
    for word in ("menu", "next", "next"):
        inbox.put(Press.parse(word))
    inbox.put(Stop("done"))
    assert loop.run() == 0
    assert seen["show"] == [False, True, True, True]  # the first frame had no press
    assert seen["save"] == [False, False, False]
    assert seen["publish"] and not any(seen["publish"])
    assert not busy.busy



def test_presses_lost_in_a_flood_are_said_on_screen_once():
    from nsdevice.inputs.events import Dropped

    loop, display, inbox = make_loop()
    inbox.put(Dropped(40))
    inbox.put(Dropped(12))  # the flood goes on: still one notice
    inbox.put(Stop())
    loop.run()
    notices = [view for view in display.shown if view.screen == "notice"]
    assert [view.notice for view in notices] == ["presses_dropped"]
    assert loop.session.notices == [("presses_dropped", "")]
    loop.session.press(Press.parse("next"))  # any button puts it away
    assert loop.session.view().screen == "setup"


def test_what_the_first_frame_does_not_need_opens_once_it_is_out_and_follows_the_views():
    """Issue 35: the profile's buttons and LED open after READY=1 (`Loop.later`); the LED's
    output is given the frame already out, then every new one."""
    order: list[str] = []

    class Told(Notifier):
        def ready(self) -> None:
            order.append("ready")

    lit: list[str] = []

    def later():
        order.append(f"later after {len(display.shown)} frame")
        return [lambda view: lit.append(view.screen)]

    loop, display, inbox = make_loop(notifier=Told({}), later=later)
    inbox.put(Press.parse("menu"))
    inbox.put(Stop("done"))
    assert loop.run() == 0
    assert order == ["ready", "later after 1 frame"]
    assert lit == ["setup", "summary"]
