"""Logical button events: the only thing the session ever hears from hardware.

Every input back end (GPIO, serial board, keyboard, script) turns its own
signals into `Edge`s (a button went down or up at a time) or, for scripted
play, straight into `Press`es. The `ButtonTracker` turns edges into presses:
debounce, tap, hold and hold-repeat, all on an injectable clock so tests
never sleep.
"""

from __future__ import annotations

import math
import mmap
import os
import queue
import threading
from collections.abc import Callable
from enum import StrEnum
from typing import Protocol

from nsdevice.rules.frozen import dataclass


class Button(StrEnum):
    NEXT = "next"
    BACK = "back"
    MENU = "menu"


class Gesture(StrEnum):
    TAP = "tap"
    HOLD = "hold"
    REPEAT = "repeat"  # fired again and again while a held button stays down


@dataclass(frozen=True, slots=True)
class Edge:
    """A raw, possibly bouncing, change of one button: `down` True when pressed.

    `debounced` marks an edge its source has debounced already (the USB board does
    its own): the tracker takes it as it is, so two quick taps stay two taps.
    """

    button: Button
    down: bool
    at: float  # seconds on the tracker's clock (time.monotonic by default)
    debounced: bool = False


@dataclass(frozen=True, slots=True)
class Press:
    """One logical press: what a screen reacts to."""

    button: Button
    gesture: Gesture = Gesture.TAP

    def __str__(self) -> str:
        if self.gesture is Gesture.TAP:
            return self.button.value
        return f"{self.gesture.value}:{self.button.value}"

    @classmethod
    def parse(cls, word: str) -> Press:
        """`next`, `hold:menu`, `repeat:back` → Press; ValueError on anything else."""
        gesture_word, _, button_word = word.strip().lower().rpartition(":")
        try:
            gesture = Gesture(gesture_word) if gesture_word else Gesture.TAP
            return cls(Button(button_word), gesture)
        except ValueError:
            raise ValueError(f"unknown key {word.strip()!r}") from None


@dataclass(frozen=True, slots=True)
class Stop:
    """Asks the loop to finish: the script ran out, or the window was closed."""

    reason: str = ""


@dataclass(frozen=True, slots=True)
class Scored:
    """A seat's score sent from a phone at the game's end (nsdevice.web)."""

    seat: int
    total: int
    best_line: int
    game: int  # the game it was entered for: a score for an earlier game is dropped
    counts: tuple[int, ...] = ()  # the sheet's counts in the box's sheet order (issue 34)


@dataclass(frozen=True, slots=True)
class LineSent:
    """A seat's line of a round sent from its phone as the game goes (issue 34)."""

    seat: int
    round: int
    counts: tuple[int, ...]  # the line's counts, as the city scores a line (S-T, S-P)
    game: int  # the game it was sent for: a line for an earlier game is dropped


@dataclass(frozen=True, slots=True)
class Named:
    """The name a one-table seat's phone joined with (issue 34)."""

    seat: int
    name: str
    game: int


@dataclass(frozen=True, slots=True)
class Typed:
    """A digit (or the minus sign) typed on the terminal: it sets the digit under the score
    entry's cursor at once. Only a keyboard sends it; buttons turn digits with presses."""

    character: str  # "0".."9" or "-"


@dataclass(frozen=True, slots=True)
class Dropped:
    """Edges an input had to let go because the inbox was full (a flood): presses were
    lost, and the box says so. Sent once there is room again, at most every few seconds."""

    edges: int


@dataclass(frozen=True, slots=True)
class Joined:
    """A player of a room game joined from a phone (nsdevice.web): their table (the first
    joiner gives its size), their seat at it and the name the ranking shows."""

    table: int  # 1..rules.room.MOST_TABLES
    size: int  # players at that table, 1..4
    seat: int  # 1..size
    name: str  # checked by the page: 1..NAME_LENGTH printable characters
    game: int  # the game it was sent for: a join for an earlier game is dropped
    claim: str = ""  # the hash of the seat's claim (the page drew the claim, the phone keeps it)
    leaving: tuple[int, int] | None = None  # (table, seat) the same claim held until now
    ticket: int = 0  # the page's number for this join: the box says which it has looked at


@dataclass(frozen=True, slots=True)
class RoomScored:
    """A room player's score sheet, scored on the page (rules.scoring), at the game's end."""

    table: int
    seat: int
    total: int
    best_line: int
    game: int


@dataclass(frozen=True, slots=True)
class Abandoned:
    """A room table nobody at it has followed for a while before the game's first card
    (nsdevice.web): the box frees it, so a phone cannot hold a table it left."""

    table: int
    game: int


@dataclass(frozen=True, slots=True)
class RoomWaiting:
    """Joins or sheets wait in the room's own inbox (inputs.room_inbox): only a wake-up,
    sent once until the loop takes them."""


Item = (
    Edge
    | Press
    | Stop
    | Scored
    | Typed
    | Dropped
    | Joined
    | RoomScored
    | Abandoned
    | RoomWaiting
    | LineSent
    | Named
)


# Room in an inbox. A person makes a few edges a second and the loop takes each in well
# under a millisecond, so a full inbox means something is flooding it (a faulty or hostile
# serial board, a chattering contact): what comes then is refused, never kept in memory.
INBOX_BOUND = 256


class Inbox(Protocol):
    """Where inputs drop their items; the loop blocks on `get`. `put` is thread-safe.

    An inbox holds at most `INBOX_BOUND` items. `put` says whether it took the item: when
    full it waits up to `wait` seconds for room, then refuses. A source that must not lose
    an item (a script, a Stop) waits again; one that can mend (the serial board, whose next
    line says every button's state) keeps its belief unchanged and goes on.
    """

    def put(self, item: Item, wait: float = 0.0) -> bool: ...

    def get(self, timeout: float | None) -> list[Item]:
        """Block until at least one item arrives or `timeout` seconds pass; return all waiting."""
        ...


def offer(items: queue.Queue[Item], item: Item, wait: float = 0.0) -> bool:
    """Put `item` in a bounded queue, waiting up to `wait` seconds for room; False if full."""
    try:
        if wait > 0:
            items.put(item, timeout=wait)
        else:
            items.put_nowait(item)
    except queue.Full:
        return False
    return True


class QueueInbox:
    """The plain inbox: a bounded thread-safe queue. Back ends with no event loop of their
    own use it."""

    def __init__(self, bound: int = INBOX_BOUND) -> None:
        self._queue: queue.Queue[Item] = queue.Queue(maxsize=bound)

    def put(self, item: Item, wait: float = 0.0) -> bool:
        return offer(self._queue, item, wait)

    def get(self, timeout: float | None) -> list[Item]:
        try:
            items = [self._queue.get(timeout=timeout)]
        except queue.Empty:
            return []
        while True:
            try:
                items.append(self._queue.get_nowait())
            except queue.Empty:
                return items


class Busy:
    """Whether the loop is turning an input into its frame: the box's other threads (the
    voice's decoding, the page's items) and the phones' page in its own process wait for
    the frame before doing their own work, so a press never waits behind them for the
    interpreter or a core. Thread-safe."""

    def __init__(self) -> None:
        self._free = threading.Event()
        self._free.set()
        self._shared: mmap.mmap | None = None  # one byte another process reads (`share`)
        self._descriptor = -1

    def share(self) -> int:
        """A file descriptor of one byte of shared memory that says 1 while a frame is
        being made, for another process's `BusyMirror` (the same one each call)."""
        if self._shared is None:
            descriptor = os.memfd_create("nsdevice-busy")  # Linux's, as the box's
            os.ftruncate(descriptor, 1)
            self._shared = mmap.mmap(descriptor, 1)
            self._shared[0] = 0 if self._free.is_set() else 1
            self._descriptor = descriptor
        return self._descriptor

    def start(self) -> None:
        """On the loop's thread: an input arrived; its frame is not out yet."""
        self._free.clear()
        if self._shared is not None:
            self._shared[0] = 1

    def done(self) -> None:
        """On the loop's thread: the frame is out (or the input needed none)."""
        if self._shared is not None:
            self._shared[0] = 0
        self._free.set()

    @property
    def busy(self) -> bool:
        return not self._free.is_set()

    def wait(self, timeout: float) -> bool:
        """On another thread: wait until no frame is being made, at most `timeout`
        seconds (a loop stuck for longer does not stop the others); True when free."""
        return self._free.wait(timeout)


class BusyMirror:
    """Another process's view of the loop's `Busy` (`Busy.share`'s descriptor): the
    phones' page reads it before work that would take a core from a frame."""

    def __init__(self, descriptor: int) -> None:
        self._shared = mmap.mmap(descriptor, 1, access=mmap.ACCESS_READ)

    @property
    def busy(self) -> bool:
        return self._shared[0] == 1


@dataclass(slots=True)
class _Contact:
    """What the tracker knows of one button's contact. Private and mutable on purpose."""

    level: bool = False  # debounced: presses are built from this
    raw: bool = False  # the latest edge reported, bounce or not
    raw_at: float = 0.0  # when `raw` last changed
    quiet_until: float = -math.inf  # an edge before this is bounce

    @property
    def settled(self) -> bool:
        return self.raw == self.level


@dataclass(slots=True)
class _Pressing:
    """The one press being tracked: a tap until `hold_at`, then a hold that repeats."""

    button: Button
    hold_at: float
    next_repeat: float | None = None  # set when the HOLD fires
    tapped: bool = False  # its TAP went out on the press edge: the rest of it is silent

    @property
    def held(self) -> bool:
        return self.next_repeat is not None


class ButtonTracker:
    """Turns raw `Edge`s into `Press`es: debounce, tap, hold and hold-repeat.

    Pure: no threads, no sleeping, no clock of its own. Time is the `at` of the
    edges fed and the `now` given to `due`; a time earlier than one already seen
    is taken as that latest time, so time never runs backwards (debounce alone
    compares a contact's edges by their own times, so a press and release that
    waited in the inbox together are not taken for bounce).

    Debounce is leading-edge: an edge on a contact that has been quiet for
    `debounce` seconds is taken at once, with no added latency. An edge sooner
    than that after the contact's previous edge is bounce and is ignored, and
    every such edge restarts the quiet period, so a chatter storm of any length
    gives one press, not one per `debounce`. Once the contact has been quiet for
    `debounce`, its last reported level is taken (at the time of that edge), so a
    release that arrived during bounce is never lost and never leaves a phantom
    hold.

    A press released before `hold` seconds is one TAP, sent on release. A press
    still down at `hold` seconds is one HOLD, then a REPEAT every `repeat`
    seconds, every `fast_repeat` seconds once it has been held `fast_after`
    seconds past the HOLD (scrolling speeds up); its release sends nothing.
    While the contact bounces, HOLD and REPEAT wait for it to settle. Each call
    sends at most one HOLD or REPEAT: repeats missed because the caller was late
    are skipped, never sent in a burst.

    Only one press at a time: a button that goes down while another is down is
    ignored for that whole press, down and up, so mashing two buttons never
    makes a surprise action. The press already under way carries on.

    The buttons in `on_press_edge` (none unless the caller says) tap as soon as
    they go down: where a hold means nothing different (a reveal on a turn, a
    list's cursor) the picture need not wait for the finger to lift. Such a press
    sends nothing more: no HOLD, no REPEAT, nothing on release.
    """

    def __init__(
        self,
        *,
        debounce: float = 0.03,
        hold: float = 0.8,
        repeat: float = 0.15,
        fast_repeat: float = 0.05,
        fast_after: float = 2.0,
    ) -> None:
        if not 0 <= debounce < hold:
            raise ValueError(f"need 0 <= debounce < hold, got {debounce} and {hold}")
        if repeat <= 0 or fast_repeat <= 0 or fast_after < 0:
            raise ValueError("repeat intervals must be positive and fast_after not negative")
        self.debounce = debounce
        self.hold = hold
        self.repeat = repeat
        self.fast_repeat = fast_repeat
        self.fast_after = fast_after
        self._contacts = {button: _Contact() for button in Button}
        self._pressing: _Pressing | None = None
        self._now = -math.inf
        self.on_press_edge: frozenset[Button] = frozenset()

    def is_down(self, button: Button) -> bool:
        """Whether `button` is down after debounce (pressed, even if its press is ignored)."""
        return self._contacts[button].level

    def feed(self, edge: Edge) -> list[Press]:
        """Take one edge; return the presses it completes, after any that fell due before it."""
        at = max(edge.at, self._now)
        presses = self.due(at)  # a late caller still gets a HOLD before the release that ends it
        contact = self._contacts[edge.button]
        if edge.down == contact.raw:
            return presses  # redundant: no change of level
        # Bounce is judged on the contact's own edges at their own times: edges that
        # waited in the inbox while the loop drew and saved are no closer together for it.
        edge_at = max(edge.at, contact.raw_at)
        quiet = edge.debounced or edge_at >= contact.quiet_until
        contact.raw, contact.raw_at = edge.down, edge_at
        # A source that debounced already gets no second wait: that would merge quick taps.
        contact.quiet_until = edge_at if edge.debounced else edge_at + self.debounce
        if quiet:
            presses += self._take_level(edge.button, at)
        return presses

    def due(self, now: float) -> list[Press]:
        """Presses whose time has come by `now`: settled bounces, HOLDs, REPEATs."""
        now = self._now = max(now, self._now)
        presses: list[Press] = []
        while (step := self._next_step()) is not None and step[0] <= now:
            presses += step[1](now)
        return presses

    def next_deadline(self) -> float | None:
        """When `due` next has something to do; None when nothing is pending (block freely)."""
        step = self._next_step()
        return None if step is None else step[0]

    def _next_step(self) -> tuple[float, Callable[[float], list[Press]]] | None:
        steps: list[tuple[float, Callable[[float], list[Press]]]] = []
        for button, contact in self._contacts.items():
            if not contact.settled:
                steps.append((contact.quiet_until, self._settler(button)))
        pressing = self._pressing
        if pressing is not None and not pressing.tapped and self._contacts[pressing.button].raw:
            if pressing.next_repeat is None:
                steps.append((pressing.hold_at, self._fire_hold))
            else:
                steps.append((pressing.next_repeat, self._fire_repeat))
        return min(steps, key=lambda step: step[0], default=None)

    def _settler(self, button: Button) -> Callable[[float], list[Press]]:
        def settle(now: float) -> list[Press]:
            return self._take_level(button, self._contacts[button].raw_at)

        return settle

    def _take_level(self, button: Button, at: float) -> list[Press]:
        """The contact's raw level becomes its debounced level, as of `at`."""
        contact = self._contacts[button]
        contact.level = contact.raw
        if contact.level:
            others_down = any(c.level for b, c in self._contacts.items() if b is not button)
            if not others_down:
                assert self._pressing is None, "a press under way without its button down"
                edge = button in self.on_press_edge
                self._pressing = _Pressing(button, hold_at=at + self.hold, tapped=edge)
                return [Press(button, Gesture.TAP)] if edge else []
            return []
        pressing = self._pressing
        if pressing is None or pressing.button is not button:
            return []  # the release of an ignored press
        self._pressing = None
        return [] if pressing.held or pressing.tapped else [Press(button, Gesture.TAP)]

    def _fire_hold(self, now: float) -> list[Press]:
        pressing = self._pressing
        assert pressing is not None
        pressing.next_repeat = self._after(pressing, pressing.hold_at, now)
        return [Press(pressing.button, Gesture.HOLD)]

    def _fire_repeat(self, now: float) -> list[Press]:
        pressing = self._pressing
        assert pressing is not None and pressing.next_repeat is not None
        pressing.next_repeat = self._after(pressing, pressing.next_repeat, now)
        return [Press(pressing.button, Gesture.REPEAT)]

    def _after(self, pressing: _Pressing, tick: float, now: float) -> float:
        """The first repeat time after `now` on the press's schedule, starting from `tick`."""
        while tick <= now:
            held_for = tick - pressing.hold_at
            tick += self.repeat if held_for < self.fast_after else self.fast_repeat
        return tick
