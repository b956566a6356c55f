"""The loop, the painter and the phones' payload find a view's piece through the screens'
records or one `singledispatch` each, never an `isinstance` ladder over view types
(issue 33): a new screen adds its own piece beside its kind, and touches none of them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from nsdevice import views

ROOT = Path(__file__).resolve().parents[1]
CHOOSERS = ("nsdevice/box/loop.py", "nsdevice/displays/painter.py", "nsdevice/web/payload.py")
VIEW_TYPES = frozenset(
    name
    for name, value in vars(views).items()
    if isinstance(value, type) and issubclass(value, views.View)
)


def isinstance_over_views(source: str) -> list[tuple[int, str]]:
    """Each `isinstance(…, T)` whose types name a view type (`views.T` or a bare `T`)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "isinstance"):
            continue
        if len(node.args) != 2:
            continue
        named = {
            part.attr if isinstance(part, ast.Attribute) else getattr(part, "id", "")
            for part in ast.walk(node.args[1])
        }
        for name in sorted(named & VIEW_TYPES):
            found.append((node.lineno, name))
    return found


@pytest.mark.parametrize("path", CHOOSERS)
def test_no_isinstance_over_view_types(path):
    assert isinstance_over_views((ROOT / path).read_text(encoding="utf-8")) == []


def test_a_ladder_over_view_types_is_found():
    ladder = (
        "def f(view):\n"
        "    if isinstance(view, views.TurnView):\n"
        "        return 1\n"
        "    if isinstance(view, views.SummaryView | PhonesView):\n"
        "        return 2\n"
        "    return isinstance(view, int)\n"
    )
    assert isinstance_over_views(ladder) == [(2, "TurnView"), (4, "PhonesView"), (4, "SummaryView")]


def test_the_loop_takes_each_inbox_item_by_one_dispatch_not_a_ladder():
    """Presses, edges, sheets, room items and Stop reach the loop's `take`, chosen by type;
    the only `isinstance` left in the loop asks whether a wake-up holds more than room news."""
    from nsdevice.box.loop import Loop
    from nsdevice.inputs import events

    source = (ROOT / "nsdevice/box/loop.py").read_text(encoding="utf-8")
    calls = [
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "isinstance"
    ]
    assert len(calls) <= 1
    registry = vars(Loop)["take"].dispatcher.registry
    kinds = ("Edge", "Stop", "Scored", "Typed", "Dropped", "Joined", "RoomScored", "Abandoned",
             "RoomWaiting")  # fmt: skip
    for kind in kinds:
        assert getattr(events, kind) in registry, kind
