"""A room's joins, renames and sheets reach the loop in batches (issue 32, item 4): a
burst costs one frame and one save, batches' saves are at least ROOM_PERIOD apart, the
buttons' inbox never fills with them, and a press always goes before a batch.

Behaviour only: how fast any of it runs is measured in benchmarks/crowd.py (--storm)."""

from __future__ import annotations

import itertools
import threading
import time
from typing import Any

from nsdevice import views
from nsdevice.box.loop import ROOM_DEFER, ROOM_PERIOD, Loop
from nsdevice.displays import Display
from nsdevice.inputs.events import (
    ButtonTracker,
    Dropped,
    Joined,
    Press,
    QueueInbox,
    RoomScored,
    RoomWaiting,
    Stop,
)
from nsdevice.inputs.room_inbox import ROOM_BOUND, RoomInbox
from nsdevice.session import ScreenName, Session, Settings


class Recording(Display):
    """Each frame with how many room seats the session had when it was drawn."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.shown: list[tuple[str, int]] = []

    def show(self, view: views.View) -> None:
        room = self.session.state.room
        self.shown.append((view.screen, len(room.seats) if room is not None else -1))


class Box:
    """A room game's loop with the runner's wiring: the page's items go to `room`."""

    def __init__(self, seed: str = "BATCH32", clock: Any = time.monotonic) -> None:
        self.session = Session(Settings(room=True), seed_source=lambda: seed)
        self.session.deal_new_game()
        self.inbox = QueueInbox()
        self.room = RoomInbox(self.inbox)
        self.display = Recording(self.session)
        self.saves: list[tuple[float, str, int, int]] = []  # (when, screen, seats, scores)
        self.after_save: list[Any] = []  # called with each save's number, once each
        self.stopped = threading.Event()  # set when the loop's run returns
        self.loop = Loop(session=self.session, display=self.display, inbox=self.inbox,
                         tracker=ButtonTracker(), save=self.save, room_inbox=self.room,
                         clock=clock)  # fmt: skip

    def save(self, snapshot: dict[str, Any]) -> None:
        room = snapshot["room"]
        self.saves.append((time.monotonic(), snapshot.get("screen", ""),
                           len(room["seats"]), len(room["scores"])))  # fmt: skip
        for hook in self.after_save:
            hook(len(self.saves))

    def run(self) -> int:
        done: list[int] = []
        def run() -> None:
            done.append(self.loop.run())
            self.stopped.set()

        runner = threading.Thread(target=run)
        runner.start()
        runner.join(20)
        assert not runner.is_alive(), "the loop did not stop"
        return done[0]

    def join(self, number: int, name: str = "") -> Joined:
        table, seat = number // 4 + 1, number % 4 + 1
        return Joined(table, 4, seat, name or f"P{number}", self.session.game)


def test_a_burst_of_joins_is_one_frame_and_one_save_and_one_wake_up():
    box = Box()
    for number in range(300):
        assert box.room.put(box.join(number))
    assert box.inbox.get(0) == [RoomWaiting()]  # one wake-up for the whole burst
    box.inbox.put(RoomWaiting())
    box.after_save.append(lambda count: box.inbox.put(Stop()))
    assert box.run() == 0
    assert [seats for _, _, seats, _ in box.saves] == [300]
    assert box.display.shown == [("summary", 0), ("summary", 300)]  # the first frame, then one


def test_renames_and_sheets_come_in_the_same_batches():
    box = Box()
    session = box.session
    for number in range(8):
        box.room.put(box.join(number))
    box.after_save.append(lambda count: box.inbox.put(Stop()))
    box.run()
    while session.screen is not ScreenName.ROOM_RESULTS:  # the game's end: sheets are taken
        session.next()
    box.saves.clear()
    box.after_save[:] = [lambda count: box.inbox.put(Stop())]
    for number in range(8):
        box.room.put(box.join(number, name=f"Renamed {number}"))
        box.room.put(RoomScored(number // 4 + 1, number % 4 + 1, 40 + number, 9, session.game))
    box.run()
    assert [(seats, scores) for _, _, seats, scores in box.saves] == [(8, 8)]
    assert session.state.room is not None
    assert session.state.room.seats[(2, 4)] == "Renamed 7"


def test_a_join_storm_saves_at_most_once_a_room_period():
    box = Box()
    stop = threading.Event()
    sent = 120

    def storm() -> None:  # one join every 4 ms, as phones on a Wi-Fi might
        for number in range(sent):
            while not box.room.put(box.join(number % 396, name=f"N{number}")):
                time.sleep(0.001)
            time.sleep(0.004)
        stop.set()
        # The last batch may be saved before `stop` is set, and then no save comes to stop
        # the loop: stop it here once the last batch's turn has surely come and gone.
        if not box.stopped.wait(2 * ROOM_DEFER):
            box.inbox.put(Stop())

    def maybe_stop(count: int) -> None:
        if stop.is_set() and len(box.room) == 0:
            box.inbox.put(Stop())

    box.after_save.append(maybe_stop)
    started = time.monotonic()
    storming = threading.Thread(target=storm)
    storming.start()
    box.run()
    storming.join()
    took = time.monotonic() - started
    gaps = [later - earlier for (earlier, *_), (later, *_) in itertools.pairwise(box.saves)]
    assert min(gaps) > ROOM_PERIOD  # from a batch's save to the next batch's
    assert len(box.saves) <= took / ROOM_PERIOD + 1
    assert len(box.saves) < sent / 4  # batches, not one save a join
    assert box.session.state.room is not None and len(box.session.state.room.seats) == sent


def test_a_press_goes_before_the_batch_that_came_first():
    box = Box()
    for number in range(40):
        box.room.put(box.join(number))  # the wake-up is in the inbox before the press
    box.inbox.put(Press.parse("next"))
    box.after_save.append(lambda count: count == 2 and box.inbox.put(Stop()))
    box.run()
    # the press's frame and save with no join applied yet, then the batch's
    assert box.display.shown[:2] == [("summary", 0), ("round_start", 0)]
    assert [(screen, seats) for _, screen, seats, _ in box.saves][1][1] == 40
    assert box.saves[0][2] == 0


def test_a_press_during_a_storm_never_waits_for_the_next_batch():
    box = Box()
    for number in range(4):
        box.room.put(box.join(number))

    def during(count: int) -> None:
        if count == 1:  # right after the first batch's save: more joins, then a press
            for number in range(4, 40):
                box.room.put(box.join(number))
            box.inbox.put(Press.parse("next"))
        elif count == 3:
            box.inbox.put(Stop())

    box.after_save.append(during)
    box.run()
    frames = box.display.shown
    # the press's frame came with the first batch's 4 seats only: the second batch
    # (its turn ROOM_PERIOD after the first's save) came after it
    assert ("round_start", 4) in frames
    assert [seats for _, _, seats, _ in box.saves] == [4, 4, 40]


def test_while_the_caller_presses_a_batch_waits_for_a_press_and_goes_right_after_it():
    now = [0.0]  # the loop's clock stands still: the caller pressed "just now" for ever
    box = Box(clock=lambda: now[0])
    box.inbox.put(Press.parse("next"))
    box.after_save.append(lambda count: count == 3 and box.inbox.put(Stop()))
    running = threading.Thread(target=box.run)
    running.start()
    deadline = time.monotonic() + 10
    while not box.saves and time.monotonic() < deadline:
        time.sleep(0.01)
    box.room.put(box.join(0))  # a join while the caller is busy pressing
    time.sleep(0.5)  # the loop woke for it and left it waiting
    assert [seats for _, _, seats, _ in box.saves] == [0]
    box.inbox.put(Press.parse("next"))  # the next press: its frame and save, then the batch
    running.join(20)
    assert [(screen, seats) for _, screen, seats, _ in box.saves] == [
        ("round_start", 0), ("turn", 0), ("turn", 1)
    ]
    assert box.display.shown[-2:] == [("turn", 0), ("turn", 1)]


def test_what_the_phones_were_told_is_saved_before_the_box_stops():
    box = Box()
    box.room.put(box.join(0))
    box.after_save.append(lambda count: count == 1 and (box.room.put(box.join(1)),
                                                          box.inbox.put(Stop())))  # fmt: skip
    box.run()
    assert [seats for _, _, seats, _ in box.saves] == [1, 2]


def test_the_room_inbox_is_bounded_and_never_fills_the_buttons_inbox():
    inbox = QueueInbox(bound=4)
    room = RoomInbox(inbox)
    taken = [room.put(Joined(1, 4, 1, f"N{n}", 1)) for n in range(ROOM_BOUND + 50)]
    assert taken.count(True) == ROOM_BOUND and not any(taken[ROOM_BOUND:])
    assert inbox.get(0) == [RoomWaiting()]
    assert len(room.take()) == ROOM_BOUND and len(room) == 0
    for _ in range(4):
        inbox.put(Press.parse("next"))  # the buttons' inbox full of presses
    assert room.put(Joined(1, 4, 1, "Late", 1))  # kept; its wake-up refused for now
    assert inbox.get(0) == [Press.parse("next")] * 4
    assert room.put(Joined(1, 4, 2, "Later", 1))  # so the next one wakes the loop
    assert inbox.get(0) == [RoomWaiting()]
    assert [item.name for item in room.take()] == ["Late", "Later"]  # type: ignore[union-attr]


def test_the_runners_page_puts_joins_in_the_room_inbox_and_presses_in_the_buttons():
    from nsdevice.runner.web import open_web

    inbox = QueueInbox()
    room = RoomInbox(inbox)
    web = open_web(("127.0.0.1", 1), inbox, room=room)
    put = web._inbox_put  # what the page's routes call (web.app.make_app's inbox_put)
    assert put(Joined(1, 4, 1, "Ana", 1)) and put(RoomScored(1, 1, 50, 9, 1))
    assert put(Press.parse("next"))
    assert inbox.get(0) == [RoomWaiting(), Press.parse("next")]
    assert len(room.take()) == 2


def test_a_press_that_comes_during_a_saves_wait_goes_before_the_batch_due_then():
    """The next edge can come while a press's step is being saved (an SD card's fsync
    takes tens of ms): the batch whose turn came with that save waits for its frame."""
    box = Box()
    for number in range(40):
        box.room.put(box.join(number))
    box.inbox.put(Press.parse("next"))

    def during(count: int) -> None:
        if count == 1:  # the first press's save: the caller has pressed again meanwhile
            box.inbox.put(Press.parse("next"))
        elif count == 3:
            box.inbox.put(Stop())

    box.after_save.append(during)
    box.run()
    # both presses' frames and saves before the batch's (with the 40 seats)
    assert box.display.shown[1:] == [("round_start", 0), ("turn", 0), ("turn", 40)]
    assert [(screen, seats) for _, screen, seats, _ in box.saves] == [
        ("round_start", 0), ("turn", 0), ("turn", 40)
    ]


def test_a_wake_up_of_the_room_during_a_save_does_not_hold_the_batch_back():
    box = Box(clock=lambda: 0.0)  # the caller pressed "just now" for ever: no pause comes
    box.room.put(box.join(0))
    box.inbox.put(Press.parse("next"))

    def during(count: int) -> None:
        if count == 1:  # more joins (their wake-up) while the press's step is saved
            box.room.take()
            box.room.put(box.join(0))
            box.room.put(box.join(1))
        elif count == 2:
            box.inbox.put(Stop())

    box.after_save.append(during)
    box.run()
    # right after the press's save, as ever: the room's own wake-up is no press
    assert [(screen, seats) for _, screen, seats, _ in box.saves] == [
        ("round_start", 0), ("round_start", 2)
    ]


class Seen(Recording):
    """Frames and saves in one list, in the order they happened; `during_batch` runs
    once, as the first frame with room seats in it is drawn (a batch's)."""

    def __init__(self, box: Box, during_batch: Any) -> None:
        super().__init__(box.session)
        self.order: list[tuple[str, str, int]] = []
        self.during_batch = during_batch
        box.after_save.append(lambda count: self.order.append(("save", *box.saves[-1][1:3])))

    def show(self, view: views.View) -> None:
        super().show(view)
        self.order.append(("frame", *self.shown[-1]))
        if self.shown[-1][1] > 0 and self.during_batch is not None:
            self.during_batch, during = None, self.during_batch
            during()


def frames_and_saves_with_an_input_during_a_batch(item: Any) -> list[tuple[str, str, int]]:
    """40 joins as one batch; `item` arrives while the batch's frame is drawn; the box
    stops at its first save. Frames and saves in the order they happened."""
    box = Box()
    seen = Seen(box, lambda: box.inbox.put(item))
    box.display = box.loop.display = seen
    for number in range(40):
        box.room.put(box.join(number))
    box.after_save.append(lambda count: box.inbox.put(Stop()))
    box.run()
    return seen.order


def test_a_press_that_comes_during_a_batchs_frame_goes_before_its_save_which_it_takes():
    order = frames_and_saves_with_an_input_during_a_batch(Press.parse("next"))
    # the batch's frame, then the press's frame and one save holding both
    assert order == [
        ("frame", "summary", 0), ("frame", "summary", 40),
        ("frame", "round_start", 40), ("save", "round_start", 40),
    ]  # fmt: skip


def test_a_batchs_step_is_saved_once_the_input_that_came_instead_made_no_save():
    order = frames_and_saves_with_an_input_during_a_batch(Dropped(3))
    # the batch's frame, the notice's (no step of its own), then the batch's owed save
    assert order == [
        ("frame", "summary", 0), ("frame", "summary", 40),
        ("frame", "notice", 40), ("save", "summary", 40),
    ]  # fmt: skip
