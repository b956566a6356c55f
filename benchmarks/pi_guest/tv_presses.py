"""Runs inside the arm64 userland under qemu (benchmarks/pi_cost.py), or on a PC: the TV
profile's box painting at 1920×1080 (`--hardware tv --display window --size 1920x1080`
with SDL's dummy driver: kmsdrm's painting), taps NEXT through the real loop.

    python tv_presses.py STATE_DIR SEED WARM_UP PRESSES [--room PORT]
                         [--page-marks FIFO --page-python PATH]

The presses come as a script's do (`--input script`): whole NEXT presses put in a plain
queue inbox, which is the inbox the TV build waits on (its serial board has no event loop
of its own). `Loop.run` runs on the main thread as in `nsdevice run`; this script's own
thread puts each tap and waits until the loop has handled it (the loop asks its inbox
for more: press, frame, save and the room's turn are done).

With `--room` it is the room's caller, as `nsdevice run --room --web 127.0.0.1:PORT`
wires it (`runner._open_box`'s page, room inbox and busy byte; no voice): the page runs
in its own process, and the host (pi_cost.py) joins the phones and holds their event
streams. The page is started as a new interpreter (the box's way when a thread already
runs), not forked early as `nsdevice run` now does: a forked child would carry the
counting plugin's counter and file with it; a press's work in either process is the
same. The conversation, one line each way on stdin and stdout:

    → ready CODE            the page answers; CODE is the room's join code
    ← joined N              the host's N players have been answered
      (the script waits until the room seats N, then taps the warm-up)
    → published NUMBER      after each measured tap: the table's number for the page
    ← delivered             every stream has it (or "late": past the host's wait)
    → screens S1 S2 ...     the screen after each tap; then it ends

Without `--room` it prints only the screens. The first WARM_UP taps bring the game to its
turns; around each of the next PRESSES it calls getppid(), which the counting plugin
marks, from the tap's start to the end of its frame, save and (in the room) the phones'
delivery. With `--page-marks FIFO` it also writes a line to FIFO at the same two
moments: the page's process (started through pi_cost's counting wrapper, `--page-python`,
which runs page_marks.py) marks them in its own count, so a tap's cost there is read the
same way.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path
from typing import IO

from nsdevice import runner
from nsdevice.box.loop import Loop
from nsdevice.inputs.events import Busy, ButtonTracker, Inbox, Item, Press, QueueInbox, Stop
from nsdevice.inputs.room_inbox import RoomInbox
from nsdevice.options import RunOptions
from nsdevice.runner.opening import open_display
from nsdevice.session import Capabilities, Session, Settings
from nsdevice.store import Store

NEXT = Press.parse("next")
SIZE = "1920x1080"
JOIN_WAIT = 900.0  # seconds for the room to seat the host's players (qemu is slow)


class CountingInbox:
    """A plain queue inbox that knows how many presses the loop has finished with: every
    press it handed out once the loop asks again (the loop asks only when done). The
    page's wake-ups (`RoomWaiting`) and items come through it too: not counted."""

    def __init__(self) -> None:
        self._inbox = QueueInbox()
        self._changed = threading.Condition()
        self._handed = 0
        self.finished = 0

    def put(self, item: Item, wait: float = 0.0) -> bool:
        return self._inbox.put(item, wait)

    def get(self, timeout: float | None) -> list[Item]:
        with self._changed:
            self.finished = self._handed
            self._changed.notify_all()
        items = self._inbox.get(timeout)
        with self._changed:
            self._handed += sum(isinstance(item, Press) for item in items)
        return items

    def wait_finished(self, count: int) -> None:
        with self._changed:
            self._changed.wait_for(lambda: self.finished >= count)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("state_dir", type=Path)
    parser.add_argument("seed")
    parser.add_argument("warm_up", type=int)
    parser.add_argument("presses", type=int)
    parser.add_argument("--room", type=int, metavar="PORT", help="the room caller, its page here")
    parser.add_argument("--page-marks", type=Path, metavar="FIFO")
    parser.add_argument("--page-python", metavar="PATH", help="what starts the page's process")
    return parser.parse_args()


def main() -> int:
    args = parse_args()
    options = RunOptions(
        hardware="tv", display="window", size=SIZE, input="script", keys="next",
        room=args.room is not None, web=None if args.room is None else f"127.0.0.1:{args.room}",
    )  # fmt: skip
    chosen = runner.plan(options)
    display, _ = open_display(chosen)
    inbox = CountingInbox()
    address = None if args.room is None else ("127.0.0.1", args.room)
    phones = runner.phone_addresses(*address) if address else ()
    capabilities = Capabilities(panel=runner.panel(chosen, []), phones=phones)
    store = Store.open(args.state_dir).store
    settings = Settings(language="en", room=args.room is not None)
    session = Session(settings, capabilities=capabilities, records=store)
    session.deal_new_game(seed=args.seed)
    busy = Busy()
    room = RoomInbox(inbox)
    web = runner.open_web(address, inbox, False, busy, room) if address else None
    loop = Loop(
        session, display, inbox, ButtonTracker(**runner.tracker_options(chosen)),
        save=store.save, publish=web.publish if web else None, busy=busy, room_inbox=room,
    )  # fmt: skip
    if web is not None:
        if args.page_python:  # pi_cost.py's counting wrapper (page_marks.py)
            sys.executable = args.page_python
        web.start()
    taps = threading.Thread(
        target=tap, args=(args, session, inbox, web, sys.stdin, sys.stdout), daemon=True
    )
    taps.start()
    try:
        loop.run()
    finally:
        if web is not None:
            web.close()
        display.close()
        store.close()
    taps.join()
    return 0


def tap(
    args: argparse.Namespace,
    session: Session,
    inbox: CountingInbox,
    web: runner.WebSide | None,
    answers: IO[str],
    out: IO[str],
) -> None:
    """The script's side: the host's players joined, then every tap in turn."""

    def say(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    marks = open(args.page_marks, "w") if args.page_marks else None  # noqa: SIM115

    def mark() -> None:
        os.getppid()  # the plugin's mark in this process
        if marks is not None:
            marks.write("mark\n")
            marks.flush()

    put = 0
    screens = []
    try:
        if web is not None:
            if not web.started.wait(JOIN_WAIT):
                raise RuntimeError("the page never answered")
            say(f"ready {session.table().code}")
            joined = int(answers.readline().split()[1])
            seated(session, joined)
        for number in range(args.warm_up + args.presses):
            measured = number >= args.warm_up
            if measured:
                mark()
            put_one(inbox, NEXT)
            put += 1
            inbox.wait_finished(put)
            if measured and web is not None:
                say(f"published {web.published}")
                answers.readline()
            if measured:
                mark()
            screens.append(session.view().screen)
        say("screens " + " ".join(screens))
    finally:
        put_one(inbox, Stop("taps done"))
        if marks is not None:
            marks.close()


def put_one(inbox: Inbox, item: Item) -> None:
    if not inbox.put(item, 10.0):
        raise RuntimeError("the loop's inbox stayed full")


def seated(session: Session, players: int) -> None:
    """Waits (before the measured taps) until the room seats `players`."""
    deadline = time.monotonic() + JOIN_WAIT
    while (room := session.state.room) is None or len(room.seats) < players:
        if time.monotonic() > deadline:
            raise RuntimeError(f"the room never seated {players} players")
        time.sleep(0.5)


if __name__ == "__main__":
    sys.exit(main())
