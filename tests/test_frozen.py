"""nsdevice.rules.frozen: frozen data made without compiling, behaving as the standard's."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from typing import Any, ClassVar

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


def records(cls: type) -> list[tuple[Any, ...]]:
    """What the standard decorator keeps of each field, class variables too."""
    kept = vars(cls)["__dataclass_fields__"].values()
    names = ("name", "type", "default", "default_factory", "init", "repr", "hash", "compare")
    return [
        (*(getattr(f, name) for name in names), dict(f.metadata), f.kw_only, f._field_type)
        for f in kept
    ]


@pytest.mark.parametrize("slots", [False, True])
def test_class_variables_and_a_base_are_gathered_as_the_standard_gathers_them(slots: bool) -> None:
    plain = {"init": False, "repr": False, "eq": False, "frozen": False, "slots": slots}
    made = []
    for decorate in (dataclasses.dataclass(**plain), frozen.dataclass(frozen=True, slots=slots)):

        @decorate
        class View:
            screen: ClassVar[str] = ""
            language: str = "en"

        @decorate
        class TurnView(View):
            screen: ClassVar[str] = "turn"
            card: str = dataclasses.field(default="", metadata={"kind": "card"})
            notes: tuple[str, ...] = dataclasses.field(default=(), compare=False, repr=False)
            seen: list[str] = dataclasses.field(default_factory=list, hash=True)

        made.append((View, TurnView))
    (standard_base, standard), (cheap_base, cheap) = made
    assert records(cheap_base) == records(standard_base) and records(cheap) == records(standard)
    assert cheap.__match_args__ == standard.__match_args__ == ("language", "card", "notes", "seen")
    assert vars(cheap).get("__slots__") == vars(standard).get("__slots__")
    assert repr(vars(cheap)["__dataclass_params__"]) == repr(vars(standard)["__dataclass_params__"])
    assert cheap.screen == "turn" and type(vars(cheap)["card"]) is type(vars(standard)["card"])
    assert cheap(card="x").screen == "turn" and cheap_base().screen == ""
    assert [f.name for f in dataclasses.fields(cheap)] == ["language", "card", "notes", "seen"]


def test_a_shared_list_as_a_default_is_refused_as_the_standard_refuses_it() -> None:
    for decorate in (dataclasses.dataclass, frozen.dataclass):
        with pytest.raises(ValueError, match="mutable default"):

            @decorate(frozen=True)
            class Round:
                cards: list[str] = []  # noqa: RUF012


def test_frozen_data_is_gathered_without_the_standard_decorator(monkeypatch: Any) -> None:
    """Issue 35: the standard decorator's general path cost the start 80 M instructions on
    the Pi; a view (a ClassVar names its screen, a base gives the language) goes without it."""
    processed: list[str] = []
    process = dataclasses._process_class  # type: ignore[attr-defined]

    def counted(cls: type, *arguments: Any) -> type:
        processed.append(cls.__qualname__)
        return process(cls, *arguments)  # type: ignore[no-any-return]

    @frozen.dataclass(frozen=True, slots=True)
    class View:  # the first class with these options: the parameters' record is made once
        screen: ClassVar[str] = ""
        language: str = "en"

    monkeypatch.setattr(dataclasses, "_process_class", counted)

    @frozen.dataclass(frozen=True, slots=True)
    class TurnView(View):
        screen: ClassVar[str] = "turn"
        card: str = ""

    assert processed == [] and TurnView(card="x") == TurnView("en", "x") != View()
    assert repr(TurnView(card="x")).endswith("TurnView(language='en', card='x')")


def test_classes_of_one_shape_share_the_compiled_init_each_with_its_own_names() -> None:
    """Issue 35: the compiler ran for each class's first instance (25 M instructions before
    the Pi's first frame); it now runs once for each shape of fields."""

    @frozen.dataclass(frozen=True, slots=True)
    class Seat:
        number: int
        name: str = "seat"
        marks: list[int] = dataclasses.field(default_factory=list)

    @frozen.dataclass(frozen=True, slots=True)
    class Table:
        size: int
        city: str = "tokyo"
        seats: list[int] = dataclasses.field(default_factory=list)

    compiled = frozen._init_code.cache_info().misses
    assert Seat(1) == Seat(1, "seat", []) and Seat(name="x", number=2).name == "x"
    assert frozen._init_code.cache_info().misses <= compiled + 1
    assert Table(4, seats=[1]) == Table(size=4, city="tokyo", seats=[1])
    assert frozen._init_code.cache_info().misses <= compiled + 1  # the same code, renamed
    assert Seat(1).marks is not Seat(1).marks and Table(2).seats == []
    with pytest.raises(TypeError, match="'size'"):
        Table()  # type: ignore[call-arg]
    assert Seat.__init__.__qualname__.endswith("Seat.__init__")
    assert list(inspect.signature(Table).parameters) == ["size", "city", "seats"]


def test_classes_of_one_shape_share_the_compiled_eq_and_hash_each_with_its_own_names() -> None:
    """Issue 35: the compiler ran for each class's first comparison and first hash (0.4 M
    instructions a class on the Pi, in the first round's end and pencil pass); it now
    runs once for each count of fields, and each class compares and hashes its own."""

    @frozen.dataclass(frozen=True, slots=True)
    class Pencil:
        colour: str
        length: float = 2.4
        hidden: int = dataclasses.field(default=0, compare=False)

    @frozen.dataclass(frozen=True)
    class Corner:
        name: str
        turn: int = 0

    @dataclasses.dataclass(frozen=True)
    class Standard:
        colour: str
        length: float = 2.4

    compiled = frozen._method_code.cache_info().misses
    assert Pencil("red") != Corner("red") and Pencil("red").__eq__(Corner("red")) is NotImplemented
    assert frozen._method_code.cache_info().misses == compiled  # no field was compared
    assert Pencil("red") == Pencil("red", 2.4, hidden=3) != Pencil("red", 3.0)
    assert hash(Pencil("red", hidden=1)) == hash(Standard("red")) == hash(("red", 2.4))
    made = frozen._method_code.cache_info().misses
    assert made <= compiled + 2
    assert Corner("nw") == Corner("nw", 0) != Corner("ne") and Corner("nw") != ("nw", 0)
    assert hash(Corner("se", 2)) == hash(("se", 2)) and Corner("nw").__eq__(1) is NotImplemented
    assert frozen._method_code.cache_info().misses == made  # the same code, renamed
    assert Pencil.__eq__.__qualname__.endswith("Pencil.__eq__")
    assert Corner.__hash__.__qualname__.endswith("Corner.__hash__")
