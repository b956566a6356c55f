"""The only place that knows everything: inputs → session → display, store and systemd.

It blocks on the inbox (no polling): an untouched box sleeps until a button, a hold
deadline, the watchdog or a page turn wakes it (a view drawn as pages on a small panel),
and it draws only when the view changed or its page turns.

A room's joins, renames and sheets come as batches (`RoomInbox`): presses first, then
every one waiting applied at once, with one frame and one save for the lot, a batch at
most every ROOM_PERIOD seconds; so a storm of phones costs the caller at most ten frames
and saves a second, and a press never waits behind a queue of them. While the caller is
pressing, a batch goes right after a press's frame and save (when the next press is
furthest away), or once the buttons have been still for ROOM_QUIET, or at the latest
ROOM_DEFER after its turn; and never while an input waits in the inbox (an edge that came
during a save goes first), unless it is that late.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import singledispatchmethod
from typing import Any

from nsdevice.box.notify import Notifier
from nsdevice.displays import Display
from nsdevice.inputs.events import (
    Abandoned,
    Busy,
    ButtonTracker,
    Dropped,
    Edge,
    Inbox,
    Item,
    Joined,
    LineSent,
    Named,
    Press,
    RoomScored,
    RoomWaiting,
    Scored,
    Stop,
    Typed,
)
from nsdevice.inputs.room_inbox import ROOM_BOUND, RoomInbox, RoomItem
from nsdevice.session import Session, held_buttons
from nsdevice.session.holds import EVERY_BUTTON
from nsdevice.views import TableView, View

DROPPED_NOTICE = "presses_dropped"  # texts: some presses were lost in a flood
# Seconds from one batch of the room's joins and sheets to the next: their frames and
# saves (an fsync each, slow on an SD card) at most ten a second, whatever the phones send.
ROOM_PERIOD = 0.1
# After a press a batch waits for the next press's frame or this much stillness...
ROOM_QUIET = 0.25
# ...and, while a button is down or the caller keeps pressing, at most this long.
ROOM_DEFER = 1.0
# What the room's phones put in the buttons' inbox: never a frame the caller waits for.
ROOM_ITEMS = (Joined, RoomScored, Abandoned, RoomWaiting)


@dataclass
class Loop:
    """Inputs to the session, each change to the display, the store and systemd."""

    session: Session
    display: Display
    inbox: Inbox
    tracker: ButtonTracker
    save: Callable[[dict[str, Any]], object] = lambda snapshot: None
    notifier: Notifier = field(default_factory=lambda: Notifier({}))
    outputs: Sequence[Callable[[View], None]] = ()  # e.g. an LED showing the card's kind
    clock: Callable[[], float] = time.monotonic
    on_request: Callable[[str], None] = lambda request: None
    # the phones' page (nsdevice.web): handed each new table without waiting; None: no page
    publish: Callable[[TableView], None] | None = None
    # a step the store could not take at once (another connection held its lock) is tried
    # again from here: the seconds until the next try, or None when nothing waits
    retry: Callable[[], float | None] = lambda: None
    # held from an input's arrival until its frame is out: the phones' fan-out and the
    # voice wait on it, so a press never queues behind their work (shared with them)
    busy: Busy = field(default_factory=Busy)
    # the page's joins, renames and sheets (None: only what comes in the inbox itself)
    room_inbox: RoomInbox | None = None
    # what the first frame does not need (the profile's buttons and LED: issue 35), opened
    # once it is out; the outputs it gives join `outputs`
    later: Callable[[], Sequence[Callable[[View], None]]] = lambda: ()
    _shown: View | None = None
    _published: TableView | None = None
    _brightness: int | None = None
    _page_due: float | None = None  # when the display turns to the view's next page
    _retry_in: float | None = None  # seconds until the saver tries a refused step again
    # room items that came in the inbox itself (tests, benchmarks): batched all the same
    _room_waiting: list[RoomItem] = field(default_factory=list)
    _room_next: float = -math.inf  # when the next batch of room items may be applied
    _pressed_at: float = -math.inf  # when the loop last handled a press
    _presses: int = 0  # presses handled so far
    _room_seen: float | None = None  # when the loop first saw the waiting batch
    _early: list[Item] = field(default_factory=list)  # inputs that came before a batch
    _owed: bool = False  # a batch was drawn and its step not saved yet (a press came)

    def draw(self) -> None:
        view = self.session.view()
        # a tap shows on the press edge unless a hold of that button means more here
        self.tracker.on_press_edge = EVERY_BUTTON - held_buttons(view.screen)
        if view == self._shown:
            self.busy.done()
            self._publish()  # a phone's score may change the table and not the screen
            return
        self.display.show(view)
        self._page_due = self._page_deadline()
        if view.chime:  # the session sets one only when sound is on
            self.display.chime(view.chime)
        for output in self.outputs:
            output(view)
        self._shown = view
        brightness = self.session.settings.brightness
        if brightness != self._brightness and self.display.supports_brightness:
            self.display.set_brightness(brightness)
        self._brightness = brightness
        self.busy.done()  # the frame is out: the phones' fan-out and the voice may go on
        self._publish()  # after the frame: the box first, then the phones

    def _publish(self) -> None:
        if self.publish is not None:
            table = self.session.table()
            if table != self._published:
                self.publish(table)
                self._published = table

    def handle(self, press: Press) -> None:
        self.busy.start()  # (a second press in one batch: the first one's frame freed it)
        self.session.press(press)
        self._draw_then_save()
        self._pressed_at = self.clock()
        self._presses += 1

    def score(self, scored: Scored) -> None:
        if scored.game == self.session.game and self.session.enter_score(
            scored.seat, scored.total, scored.best_line, scored.counts
        ):
            self._draw_then_save()

    def room(self, batch: Sequence[RoomItem]) -> bool:
        """Room players joined, renamed or sent sheets, or tables were left: each for
        this game only (an earlier game's is dropped); one frame for the whole batch when
        it changed anything, and True: its step is then owed to the store (`_save`)."""
        changed = False
        for item in batch:
            changed = self._take_room_item(item) or changed
        if changed:
            self.draw()
            self._owed = True
        return changed

    def _take_room_item(self, item: RoomItem) -> bool:
        return item.game == self.session.game and self._room_item(item)

    # One inbox item or room item each, chosen by its type: a new kind of item is one more
    # method here, not one more branch in `run`.
    @singledispatchmethod
    def _room_item(self, item: RoomScored) -> bool:
        return self.session.room_score(item.table, item.seat, item.total, item.best_line)

    @_room_item.register
    def _joined(self, item: Joined) -> bool:
        return self.session.join(
            item.table, item.size, item.seat, item.name, item.claim, item.leaving, item.ticket
        )

    @_room_item.register
    def _abandoned(self, item: Abandoned) -> bool:
        return self.session.free_idle_table(item.table)

    @singledispatchmethod
    def take(self, item: Press) -> bool:
        """One item from the inbox, in the order it came; True when the box is to stop.
        Anything not registered below is a press made whole elsewhere (a script's)."""
        self.handle(item)
        return False

    @take.register
    def _edge(self, item: Edge) -> bool:
        for press in self.tracker.feed(item):
            self.handle(press)
        return False

    @take.register
    def _stop(self, item: Stop) -> bool:
        self._room_turn(self.clock(), force=True)  # what the phones were told is taken,
        self.busy.done()  # and saved, before the box stops
        self.notifier.stopping()
        return True

    @take.register
    def _waiting(self, item: RoomWaiting) -> bool:
        return False  # only a wake-up: the batch goes after every press

    @take.register
    def _scored(self, item: Scored) -> bool:
        self.score(item)
        return False

    @take.register
    def _line(self, item: LineSent) -> bool:
        """A seat's line from its phone (issue 34): for this game only."""
        if item.game == self.session.game and self.session.enter_line(
            item.seat, item.round, item.counts
        ):
            self._draw_then_save()
        return False

    @take.register
    def _named(self, item: Named) -> bool:
        """A one-table seat's name from its phone's join: for this game only."""
        if item.game == self.session.game and self.session.name_seat(item.seat, item.name):
            self._draw_then_save()
        return False

    @take.register
    def _typed(self, item: Typed) -> bool:
        self.typed(item)
        return False

    @take.register
    def _dropped(self, item: Dropped) -> bool:
        self.dropped()
        return False

    @take.register(Joined)
    @take.register(RoomScored)
    @take.register(Abandoned)
    def _room_arrived(self, item: RoomItem) -> bool:
        self._room_waiting.append(item)
        return False

    def _room_turn(self, now: float, pressed: bool = False, force: bool = False) -> None:
        """The waiting room items as one batch, when its turn has come (`force`: now).
        `pressed`: a press's frame and save are just out, so the next press is far. An
        input that came meanwhile (the next edge, during a save) goes first: the batch
        waits for the loop's next turn, unless it is overdue (ROOM_DEFER)."""
        if not self._room_pending():
            return
        if self._room_seen is None:
            self._room_seen = now
        overdue = force or now >= self._room_latest()
        if not overdue:
            if now < self._room_next:
                return
            pressing = any(self.tracker.is_down(button) for button in EVERY_BUTTON)
            stirring = pressing or now < self._pressed_at + ROOM_QUIET
            if stirring and not pressed:
                return  # a press's frame may be coming: the batch waits for it
            if self._inputs_waiting():
                return  # presses always first: they are taken, then the batch
        self._room_seen = None
        batch = self._room_waiting
        self._room_waiting = []
        if self.room_inbox is not None:
            batch += self.room_inbox.take()
        if not batch and not self._owed:
            return
        self.busy.start()  # the page's fan-out waits for this frame too
        # An input that came during the batch's frame goes before its save (an fsync):
        # the press's own step, saved after its frame, takes the batch with it.
        if (self.room(batch) or self._owed) and (overdue or not self._inputs_waiting()):
            self._save()
        self.busy.done()
        self._room_next = self.clock() + ROOM_PERIOD  # from the end of its save

    def _inputs_waiting(self) -> bool:
        """Whether an input came since the loop last looked: kept for the loop's next
        turn (`_early`). The room's own items that came join the waiting batch."""
        early = self.inbox.get(0)
        if _any_input(early):
            self._early = early
            return True
        for item in early:
            self.take(item)
        return False

    def _room_latest(self) -> float:
        """When a waiting batch goes, however busy the caller's buttons are."""
        seen = self._room_seen if self._room_seen is not None else self.clock()
        return max(self._room_next, seen) + ROOM_DEFER

    def _room_pending(self) -> bool:
        return (
            self._owed
            or bool(self._room_waiting)
            or (self.room_inbox is not None and len(self.room_inbox) > 0)
        )

    def typed(self, typed: Typed) -> None:
        if self.session.type_digit(typed.character):
            self._draw_then_save()

    def dropped(self) -> None:
        """An input lost presses in a flood: a notice says so (one at a time: a flood
        that goes on does not stack them)."""
        if all(notice != DROPPED_NOTICE for notice, _ in self.session.notices):
            self.session.notices.append((DROPPED_NOTICE, ""))
            self.draw()

    def _draw_then_save(self) -> None:
        # Picture first: the save waits on the disk (an fsync, tens of ms on an SD card)
        # and resume promises only "this step or the one before", so the frame need not.
        # The save still ends before the next item is handled.
        self.draw()
        self._save()

    def _save(self) -> None:
        """The session's step to the store: every change so far, a batch's owed one too."""
        self._owed = False
        notices = len(self.session.notices)
        self.save(self.session.snapshot())
        # a notice the save gave the session (e.g. the disk is full) shows now; the save
        # changes nothing else a view shows, so without one the view is not built again
        if len(self.session.notices) != notices:
            self.draw()

    def run(self) -> int:
        """Run until a Stop arrives or the session asks to shut down; the exit status."""
        self.draw()
        self.notifier.ready()
        self._open_later()
        while True:
            self.notifier.watchdog()
            items, self._early = self._early or self.inbox.get(self._timeout()), []
            presses_before = self._presses
            if _any_input(items):
                self.busy.start()
            for item in items:
                if self.take(item):
                    return 0
            due = self.tracker.due(self.clock())
            if due:
                self.busy.start()
            for press in due:
                self.handle(press)
            self.busy.done()  # an edge that made no press, a score that changed nothing
            # the presses of this wake-up went first; the room's batch now, if its turn
            self._room_turn(
                self.clock(),
                pressed=self._presses != presses_before,
                force=len(self._room_waiting) >= ROOM_BOUND,
            )
            if self._page_due is not None and self.clock() >= self._page_due:
                self.display.next_page()
                self._page_due = self._page_deadline()
            waiting = self.retry()
            if waiting is not None or self._retry_in is not None:
                self.draw()  # a retry's notice (a lock held long) shows without a press
            self._retry_in = waiting
            request = self.session.request
            if request is not None:
                self.notifier.stopping()
                self.on_request(request)
                return 0

    def _open_later(self) -> None:
        outputs = self.later()
        self.outputs = [*self.outputs, *outputs]
        shown = self._shown
        if shown is not None:
            for output in outputs:
                output(shown)  # (an LED) shows the frame already out

    def _page_deadline(self) -> float | None:
        seconds = self.display.page_seconds()
        return None if seconds is None else self.clock() + seconds

    def _timeout(self) -> float | None:
        waits = []
        deadline = self.tracker.next_deadline()
        if deadline is not None:
            waits.append(max(0.0, deadline - self.clock()))
        if self._page_due is not None:  # a view drawn as pages: wake to turn the page
            waits.append(max(0.0, self._page_due - self.clock()))
        if self.notifier.watchdog_interval is not None:
            waits.append(self.notifier.watchdog_interval)
        if self._retry_in is not None:
            waits.append(self._retry_in)
        if self._room_pending():  # a batch waits for its turn, or for the caller's pause
            still = min(self._pressed_at + ROOM_QUIET, self._room_latest())
            due = max(self._room_next, still)
            waits.append(max(ROOM_PERIOD / 10, due - self.clock()))
        return min(waits) if waits else None


def _any_input(items: list[Any]) -> bool:
    """Whether anything among `items` is more than the room's news (a join, a sheet):
    an edge, a key, a stop, which the caller is waiting to see."""
    return any(not isinstance(item, ROOM_ITEMS) for item in items)
