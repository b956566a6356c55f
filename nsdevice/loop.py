"""The only place that knows everything: inputs → session → display, store and systemd.

It blocks on the inbox (no polling): an untouched box sleeps until a button, a hold
deadline, the watchdog or a page turn wakes it (a view drawn as pages on a small panel),
and it draws only when the view changed or its page turns.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from nsdevice.displays import Display
from nsdevice.inputs.events import (
    Abandoned,
    Busy,
    ButtonTracker,
    Dropped,
    Edge,
    Inbox,
    Joined,
    Press,
    RoomScored,
    Scored,
    Stop,
    Typed,
)
from nsdevice.notify import Notifier
from nsdevice.session import Session, held_buttons
from nsdevice.session.holds import EVERY_BUTTON
from nsdevice.views import TableView, View

DROPPED_NOTICE = "presses_dropped"  # texts: some presses were lost in a flood


@dataclass
class Loop:
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
    _shown: View | None = None
    _published: TableView | None = None
    _brightness: int | None = None
    _page_due: float | None = None  # when the display turns to the view's next page
    _retry_in: float | None = None  # seconds until the saver tries a refused step again

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

    def score(self, scored: Scored) -> None:
        if scored.game == self.session.game and self.session.enter_score(
            scored.seat, scored.total, scored.best_line
        ):
            self._draw_then_save()

    def room(self, item: Joined | RoomScored | Abandoned) -> None:
        """A room player joined or sent a sheet, or a table was left: for this game only
        (an earlier game's is dropped); a frame and a save when it changed anything."""
        if item.game != self.session.game:
            return
        if isinstance(item, Joined):
            changed = self.session.join(
                item.table, item.size, item.seat, item.name, item.claim, item.leaving, item.ticket
            )
        elif isinstance(item, Abandoned):
            changed = self.session.free_idle_table(item.table)
        else:
            changed = self.session.room_score(item.table, item.seat, item.total, item.best_line)
        if changed:
            self._draw_then_save()

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
        while True:
            self.notifier.watchdog()
            timeout = self._timeout()
            items = self.inbox.get(timeout)
            if items:
                self.busy.start()
            for item in items:
                if isinstance(item, Stop):
                    self.busy.done()
                    self.notifier.stopping()
                    return 0
                if isinstance(item, Scored):
                    self.score(item)
                    continue
                if isinstance(item, Typed):
                    self.typed(item)
                    continue
                if isinstance(item, Dropped):
                    self.dropped()
                    continue
                if isinstance(item, Joined | RoomScored | Abandoned):
                    self.room(item)
                    continue
                presses = self.tracker.feed(item) if isinstance(item, Edge) else [item]
                for press in presses:
                    self.handle(press)
            due = self.tracker.due(self.clock())
            if due:
                self.busy.start()
            for press in due:
                self.handle(press)
            self.busy.done()  # an edge that made no press, a score that changed nothing
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
        return min(waits) if waits else None
