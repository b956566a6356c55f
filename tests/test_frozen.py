"""nsdevice.rules.frozen: frozen data made without compiling, behaving as the standard's."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest

from nsdevice.rules import frozen


def pair(**options: Any) -> tuple[type, type]:
    """The same class through the standard decorator and through ours."""
    made = []
    for decorate in (dataclasses.dataclass, frozen.dataclass):

        class Seat:
            number: int
            name: str = "seat"
            scratch: list[int] = dataclasses.field(default_factory=list, compare=False)
            hidden: str = dataclasses.field(default="", repr=False)

        made.append(decorate(**options)(Seat))
    return made[0], made[1]


@pytest.mark.parametrize("options", [{"frozen": True}, {"frozen": True, "slots": True}])
def test_frozen_data_behaves_as_the_standard(options: dict[str, Any]) -> None:
    standard, cheap = pair(**options)
    for cls in (standard, cheap):
        first, same, other = cls(1, "a", [1]), cls(1, "a", [2]), cls(2, "a")
        assert first == same and hash(first) == hash(same)  # scratch is not compared
        assert first != other and first != (1, "a") and first.__eq__(object()) is NotImplemented
        assert dataclasses.replace(first, number=2) == other
        with pytest.raises(dataclasses.FrozenInstanceError):
            first.number = 3  # type: ignore[misc]
    assert repr(cheap(1, "a", [1], "x")) == repr(standard(1, "a", [1], "x"))
    assert [f.name for f in dataclasses.fields(cheap)] == ["number", "name", "scratch", "hidden"]
    assert cheap.__match_args__ == standard.__match_args__
    assert cheap.__eq__ is not standard.__eq__  # ours, not compiled


def test_a_subclass_instance_is_not_equal_even_with_equal_fields() -> None:
    @frozen.dataclass(frozen=True, slots=True)
    class View:
        screen: str

    @frozen.dataclass(frozen=True, slots=True)
    class TurnView(View):
        pass

    assert View("turn") != TurnView("turn") and TurnView("turn") == TurnView("turn")
    assert hash(TurnView("turn")) == hash(TurnView("turn"))


def test_slotted_frozen_data_copies_and_shows_a_cycle() -> None:
    @frozen.dataclass(frozen=True, slots=True)
    class Row:
        cells: list[Any]

    row = Row([1])
    assert copy.deepcopy(row) == row and copy.deepcopy(row) is not row
    row.cells.append(row)
    assert repr(row).endswith(".<locals>.Row(cells=[1, ...])")


def test_a_class_with_its_own_methods_or_order_gets_the_standard_ones() -> None:
    @frozen.dataclass(frozen=True, order=True)
    class Tier:
        rank: int

    @frozen.dataclass(frozen=True)
    class Shown:
        word: str

        def __repr__(self) -> str:
            return self.word

    assert Tier(1) < Tier(2) and hash(Tier(1)) == hash(Tier(1))

    assert repr(Shown("hello")) == "hello" and Shown("a") == Shown("a")


def test_the_box_data_pickles() -> None:
    from nsdevice.views import Hint

    hint = Hint("next", "reveal", edge="left")
    assert pickle.loads(pickle.dumps(hint)) == hint


def test_the_first_call_makes_the_standard_init() -> None:
    made = []
    for decorate in (dataclasses.dataclass, frozen.dataclass):

        class Deal:
            seed: str
            cards: list[str] = dataclasses.field(default_factory=list)
            round: int = 1
            drawn: int = dataclasses.field(default=0, init=False)

            def __post_init__(self) -> None:
                if self.round < 1:
                    raise ValueError("a round counts from 1")

        made.append(decorate(frozen=True, slots=True)(Deal))
    standard, cheap = made
    for arguments in [("A",), ("A", ["x"]), ("A", ["x"], 3)]:
        assert repr(cheap(*arguments)) == repr(standard(*arguments))
    assert cheap("A").cards is not cheap("A").cards  # a fresh list each time
    assert cheap(seed="B", round=2) == cheap("B", [], 2)
    with pytest.raises(ValueError, match="round"):
        cheap("A", round=0)
    with pytest.raises(TypeError):
        cheap("A", drawn=2)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        cheap()  # type: ignore[call-arg]


def test_a_field_without_default_after_one_with_is_refused_at_the_first_call() -> None:
    @frozen.dataclass(frozen=True)
    class Wrong:
        first: int = 0
        second: int  # type: ignore[misc]

    with pytest.raises(TypeError, match="non-default argument"):
        Wrong(1, 2)
