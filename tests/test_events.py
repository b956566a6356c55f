"""ButtonTracker: debounce, tap, hold, repeat and two-button mashing, on a fake clock."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nsdevice.inputs.events import (
    Button,
    ButtonTracker,
    Edge,
    Gesture,
    Press,
    QueueInbox,
    Stop,
)

NEXT, BACK, MENU = Button.NEXT, Button.BACK, Button.MENU
TAP, HOLD, REPEAT = Gesture.TAP, Gesture.HOLD, Gesture.REPEAT


def down(button: Button, at: float) -> Edge:
    return Edge(button, True, at)


def up(button: Button, at: float) -> Edge:
    return Edge(button, False, at)


def play(tracker: ButtonTracker, edges: list[Edge], until: float) -> list[tuple[float, Press]]:
    """Drive the tracker as a punctual loop would: `due` at each deadline, edges in between."""
    timed: list[tuple[float, Press]] = []

    def run_due(limit: float) -> None:
        while (deadline := tracker.next_deadline()) is not None and deadline <= limit:
            timed.extend((deadline, press) for press in tracker.due(deadline))

    for edge in edges:
        run_due(edge.at)
        timed.extend((edge.at, press) for press in tracker.feed(edge))
    run_due(until)
    return timed


def presses(timed: list[tuple[float, Press]]) -> list[Press]:
    return [press for _, press in timed]


def chatter(button: Button, start: float, count: int, step: float) -> list[Edge]:
    """`count` edges alternating down, up, down... every `step` seconds from `start`."""
    return [Edge(button, i % 2 == 0, start + i * step) for i in range(count)]


# --- tap ---------------------------------------------------------------------------------


def test_short_press_is_one_tap_sent_on_release() -> None:
    tracker = ButtonTracker()
    assert tracker.feed(down(NEXT, 0.0)) == []
    assert tracker.feed(up(NEXT, 0.2)) == [Press(NEXT, TAP)]
    assert tracker.due(10.0) == []


def test_first_edge_is_taken_at_once_without_debounce_latency() -> None:
    tracker = ButtonTracker(debounce=0.03)
    tracker.feed(down(NEXT, 5.0))
    assert tracker.is_down(NEXT)
    assert tracker.next_deadline() == pytest.approx(5.8)  # the hold clock starts at the edge


def test_release_just_before_hold_time_is_a_tap_not_a_hold() -> None:
    tracker = ButtonTracker(hold=0.8)
    timed = play(tracker, [down(NEXT, 0.0), up(NEXT, 0.799)], until=5.0)
    assert presses(timed) == [Press(NEXT, TAP)]


def test_two_quick_deliberate_taps_are_two_taps() -> None:
    edges = [down(BACK, 0.0), up(BACK, 0.08), down(BACK, 0.16), up(BACK, 0.24)]
    assert presses(play(ButtonTracker(), edges, until=5.0)) == [Press(BACK, TAP)] * 2


# --- hold and repeat ---------------------------------------------------------------------


def test_hold_fires_once_at_hold_time_and_its_release_sends_nothing() -> None:
    tracker = ButtonTracker(hold=0.8, repeat=0.15)
    tracker.feed(down(MENU, 0.0))
    assert tracker.due(0.79) == []
    assert tracker.due(0.8) == [Press(MENU, HOLD)]
    assert tracker.due(0.8) == []
    assert tracker.feed(up(MENU, 0.9)) == []
    assert tracker.next_deadline() is None


def test_held_button_repeats_every_interval_after_the_hold() -> None:
    tracker = ButtonTracker(hold=0.8, repeat=0.15)
    timed = play(tracker, [down(NEXT, 0.0), up(NEXT, 1.3)], until=5.0)
    assert presses(timed) == [Press(NEXT, HOLD)] + [Press(NEXT, REPEAT)] * 3
    assert [at for at, _ in timed] == pytest.approx([0.8, 0.95, 1.1, 1.25])


def test_repeat_speeds_up_after_fast_after_seconds_of_holding() -> None:
    tracker = ButtonTracker(hold=0.8, repeat=0.15, fast_repeat=0.05, fast_after=2.0)
    timed = play(tracker, [down(NEXT, 0.0), up(NEXT, 3.28)], until=5.0)
    repeat_times = [at for at, press in timed if press.gesture is REPEAT]
    slow = [0.8 + 0.15 * k for k in range(1, 15)]  # 0.95 ... 2.90: under 2 s past the hold
    fast = [2.9 + 0.05 * k for k in range(1, 8)]  # 2.95 ... 3.25
    assert repeat_times == pytest.approx(slow + fast)


def test_held_through_many_due_calls_gives_one_hold_then_steady_repeats() -> None:
    tracker = ButtonTracker(hold=0.8, repeat=0.15, fast_after=100.0)
    tracker.feed(down(BACK, 0.0))
    emitted: list[tuple[float, Press]] = []
    for tick in range(1, 301):  # a loop waking every 10 ms for three seconds
        now = tick / 100
        emitted.extend((now, press) for press in tracker.due(now))
    assert [press.gesture for _, press in emitted].count(HOLD) == 1
    assert emitted[0] == (0.8, Press(BACK, HOLD))
    repeats = [at for at, press in emitted if press.gesture is REPEAT]
    # repeats stay on the 0.15 s grid from the hold (no drift from the 10 ms wakes)
    assert len(repeats) == 14  # 0.95, 1.10, ... 2.90
    assert repeats[-1] == pytest.approx(2.9)
    assert all(press.button is BACK for _, press in emitted)


def test_late_caller_gets_one_repeat_not_a_burst_of_missed_ones() -> None:
    tracker = ButtonTracker(hold=0.8, repeat=0.15)
    tracker.feed(down(NEXT, 0.0))
    assert tracker.due(0.8) == [Press(NEXT, HOLD)]
    assert tracker.due(2.0) == [Press(NEXT, REPEAT)]
    assert tracker.next_deadline() is not None and tracker.next_deadline() > 2.0


def test_late_caller_still_gets_hold_not_tap_for_a_long_press() -> None:
    tracker = ButtonTracker(hold=0.8)
    tracker.feed(down(NEXT, 0.0))
    # the loop never called due: the release alone must still count the press as a hold
    assert tracker.feed(up(NEXT, 1.0)) == [Press(NEXT, HOLD)]
    assert tracker.due(9.0) == []


# --- debounce and chatter ----------------------------------------------------------------


def test_chatter_at_press_gives_one_tap() -> None:
    edges = [*chatter(NEXT, 0.0, 5, 0.004), up(NEXT, 0.2)]  # down up down up down ... up
    assert presses(play(ButtonTracker(), edges, until=5.0)) == [Press(NEXT, TAP)]


def test_chatter_storm_longer_than_debounce_never_double_taps() -> None:
    storm = chatter(NEXT, 0.0, 100, 0.005)  # half a second of 5 ms chatter, ends released
    assert presses(play(ButtonTracker(debounce=0.03), storm, until=5.0)) == [Press(NEXT, TAP)]


def test_chatter_storm_ending_held_is_one_hold_and_no_tap() -> None:
    storm = chatter(MENU, 0.0, 101, 0.005)  # ends down at 0.5 s and stays down
    timed = play(ButtonTracker(hold=0.8), [*storm, up(MENU, 0.9)], until=5.0)
    assert timed == [(0.8, Press(MENU, HOLD))]  # the hold clock runs from the first edge


def test_bounce_at_release_does_not_start_a_second_press() -> None:
    edges = [down(BACK, 0.0), up(BACK, 0.2), down(BACK, 0.202), up(BACK, 0.204)]
    assert presses(play(ButtonTracker(), edges, until=5.0)) == [Press(BACK, TAP)]


def test_release_inside_bounce_is_taken_once_contact_settles_never_a_phantom_hold() -> None:
    tracker = ButtonTracker(debounce=0.03, hold=0.8)
    tracker.feed(down(NEXT, 0.0))
    assert tracker.feed(up(NEXT, 0.01)) == []  # looks like bounce for now
    assert tracker.next_deadline() == pytest.approx(0.04)
    assert tracker.due(0.04) == [Press(NEXT, TAP)]
    assert not tracker.is_down(NEXT)
    assert tracker.due(10.0) == []


def test_hold_waits_while_the_contact_bounces_and_tap_wins_if_it_was_released() -> None:
    tracker = ButtonTracker(debounce=0.03, hold=0.8)
    for edge in chatter(NEXT, 0.0, 158, 0.005):  # bounces until up at 0.785, quiet at 0.815
        assert tracker.feed(edge) == []
    assert tracker.due(0.81) == []  # no HOLD: the contact reads up
    assert tracker.due(0.82) == [Press(NEXT, TAP)]


def test_redundant_edges_are_ignored() -> None:
    tracker = ButtonTracker(hold=0.8)
    assert tracker.feed(up(NEXT, 0.0)) == []  # up while up: button held since boot, say
    assert not tracker.is_down(NEXT) and tracker.next_deadline() is None
    tracker.feed(down(NEXT, 1.0))
    tracker.feed(down(NEXT, 1.5))  # down while down must not restart the hold clock
    assert tracker.due(1.8) == [Press(NEXT, HOLD)]


# --- two buttons -------------------------------------------------------------------------


def test_second_button_pressed_while_first_is_down_is_ignored_entirely() -> None:
    edges = [down(NEXT, 0.0), down(BACK, 0.1), up(BACK, 0.2), up(NEXT, 0.3)]
    assert presses(play(ButtonTracker(), edges, until=5.0)) == [Press(NEXT, TAP)]


def test_second_button_still_down_after_first_release_never_fires() -> None:
    edges = [down(NEXT, 0.0), down(BACK, 0.1), up(NEXT, 0.2), up(BACK, 3.0)]
    assert presses(play(ButtonTracker(), edges, until=5.0)) == [Press(NEXT, TAP)]


def test_no_new_press_starts_while_an_ignored_button_is_still_down() -> None:
    edges = [
        *[down(NEXT, 0.0), down(BACK, 0.1), up(NEXT, 0.2)],
        *[down(NEXT, 0.4), up(NEXT, 0.5), up(BACK, 0.6)],  # NEXT again while BACK is down
    ]
    assert presses(play(ButtonTracker(), edges, until=5.0)) == [Press(NEXT, TAP)]


def test_held_button_keeps_repeating_while_another_is_mashed() -> None:
    edges = [down(NEXT, 0.0), down(MENU, 0.85), up(MENU, 0.9), up(NEXT, 1.0)]
    timed = play(ButtonTracker(hold=0.8, repeat=0.15), edges, until=5.0)
    assert presses(timed) == [Press(NEXT, HOLD), Press(NEXT, REPEAT)]


def test_buttons_pressed_one_after_another_each_count() -> None:
    edges = [down(NEXT, 0.0), up(NEXT, 0.1), down(BACK, 0.2), up(BACK, 0.3)]
    assert presses(play(ButtonTracker(), edges, until=5.0)) == [
        Press(NEXT, TAP),
        Press(BACK, TAP),
    ]


# --- deadlines and time ------------------------------------------------------------------


def test_next_deadline_is_none_when_idle_so_the_loop_can_block() -> None:
    tracker = ButtonTracker()
    assert tracker.next_deadline() is None
    play(tracker, [down(NEXT, 0.0), up(NEXT, 0.1)], until=5.0)
    assert tracker.next_deadline() is None


def test_next_deadline_follows_hold_then_repeat() -> None:
    tracker = ButtonTracker(hold=0.8, repeat=0.15)
    tracker.feed(down(NEXT, 1.0))
    assert tracker.next_deadline() == pytest.approx(1.8)
    tracker.due(1.8)
    assert tracker.next_deadline() == pytest.approx(1.95)


def test_next_deadline_is_none_while_only_an_ignored_button_is_down() -> None:
    tracker = ButtonTracker()
    play(tracker, [down(NEXT, 0.0), down(BACK, 0.1), up(NEXT, 0.2)], until=0.5)
    assert tracker.is_down(BACK)
    assert tracker.next_deadline() is None


def test_time_running_backwards_is_taken_as_the_latest_time() -> None:
    tracker = ButtonTracker(hold=0.8)
    tracker.due(1.0)
    tracker.feed(down(NEXT, 0.5))  # stamped before the last due: counts from 1.0
    assert tracker.due(1.5) == []
    assert tracker.due(1.8) == [Press(NEXT, HOLD)]


@pytest.mark.parametrize(
    "timings",
    [{"debounce": 0.8, "hold": 0.8}, {"debounce": -0.1}, {"repeat": 0}, {"fast_repeat": -1}],
)
def test_nonsense_timings_are_refused(timings: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        ButtonTracker(**timings)


def test_zero_debounce_takes_every_edge() -> None:
    edges = chatter(NEXT, 0.0, 6, 0.001)
    assert presses(play(ButtonTracker(debounce=0.0), edges, until=1.0)) == [Press(NEXT, TAP)] * 3


# --- properties --------------------------------------------------------------------------

# Gaps mix bounce-sized, tap-sized and hold-sized times, plus exact boundaries.
gaps = st.one_of(
    st.sampled_from([0.0, 0.001, 0.03, 0.15, 0.8]),
    st.floats(0.0, 0.05),
    st.floats(0.0, 2.0),
)
Step = tuple[str, Button, bool, float]


def steps(buttons: list[Button]) -> st.SearchStrategy[list[Step]]:
    step = st.tuples(
        st.sampled_from(["edge", "edge", "due"]), st.sampled_from(buttons), st.booleans(), gaps
    )
    return st.lists(step, max_size=60)


class Recorder:
    """Runs steps and splits what comes out into presses, one list per accepted down edge."""

    def __init__(self, tracker: ButtonTracker) -> None:
        self.tracker = tracker
        self.presses: dict[Button, list[list[Gesture]]] = {button: [] for button in Button}
        self.started_while_other_down: dict[Button, list[bool]] = {b: [] for b in Button}

    def call(self, action: Callable[..., list[Press]], *args: object) -> list[Press]:
        before = {button: self.tracker.is_down(button) for button in Button}
        deadline = self.tracker.next_deadline()
        result = action(*args)
        after = {button: self.tracker.is_down(button) for button in Button}
        if action == self.tracker.due and result:
            # the deadline contract: due never has something before next_deadline said so
            assert deadline is not None and deadline <= args[0]  # type: ignore[operator]
        started = [button for button in Button if after[button] and not before[button]]
        for button in started:
            self.presses[button].append([])
            others = [other for other in Button if other != button]
            # Mashed only if another button stayed down across the call. When another one
            # settled in the same call, the order inside the call decides and the model
            # cannot see it, so that press is left unjudged.
            held = any(before[o] and after[o] for o in others)
            changed = any(before[o] != after[o] for o in others)
            self.started_while_other_down[button].append(held and len(started) == 1 and not changed)
        for press in result:
            assert before[press.button] or after[press.button], "a press with no press under way"
            self.presses[press.button][-1].append(press.gesture)
        return result

    def run(self, script: list[Step]) -> float:
        now = 0.0
        for kind, button, is_down, gap in script:
            now += gap
            # due first, so each call moves at most one contact's level (attribution stays exact)
            self.call(self.tracker.due, now)
            if kind == "edge":
                self.call(self.tracker.feed, Edge(button, is_down, now))
        self.call(self.tracker.due, now + 100.0)
        return now


def assert_press_shapes(recorder: Recorder) -> None:
    for per_press in recorder.presses.values():
        for gestures in per_press:
            # one physical press: nothing yet, one TAP, or one HOLD then only REPEATs
            assert gestures in ([], [TAP]) or (
                gestures[0] is HOLD and set(gestures[1:]) <= {REPEAT}
            ), gestures


@given(steps([NEXT]))
def test_property_one_button_never_more_taps_or_holds_than_accepted_presses(
    script: list[Step],
) -> None:
    tracker = ButtonTracker()
    recorder = Recorder(tracker)
    raw, last_edge = False, -1.0
    now = 0.0
    for kind, button, is_down, gap in script:
        now += gap
        recorder.call(tracker.due, now)
        if kind != "edge":
            continue
        recorder.call(tracker.feed, Edge(button, is_down, now))
        if is_down != raw:
            if now - last_edge >= tracker.debounce:
                # leading edge: after a quiet contact the change is taken at once
                assert tracker.is_down(button) == is_down
            raw, last_edge = is_down, now
    recorder.call(tracker.due, now + 100.0)

    gestures = [g for press in recorder.presses[NEXT] for g in press]
    assert gestures.count(TAP) + gestures.count(HOLD) <= len(recorder.presses[NEXT])
    for press in recorder.presses[NEXT]:
        if HOLD in press:
            assert TAP not in press[press.index(HOLD) :]
    assert_press_shapes(recorder)
    if not raw:  # released at the end: nothing left to wake up for
        assert tracker.next_deadline() is None


@given(steps([NEXT, BACK, MENU]))
def test_property_mashing_buttons_never_fires_a_press_begun_while_another_was_down(
    script: list[Step],
) -> None:
    recorder = Recorder(ButtonTracker())
    recorder.run(script)
    assert_press_shapes(recorder)
    for button in Button:
        for press, mashed in zip(
            recorder.presses[button], recorder.started_while_other_down[button], strict=True
        ):
            if mashed:
                assert press == []


def test_queue_inbox_returns_everything_waiting_in_order() -> None:
    inbox = QueueInbox()
    items = [down(NEXT, 0.0), Press(BACK, HOLD), Stop("done")]
    for item in items:
        inbox.put(item)
    assert inbox.get(timeout=0) == items
    assert inbox.get(timeout=0) == []
