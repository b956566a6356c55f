"""`dataclass` as the standard library's, made cheap to define for frozen data.

A frozen dataclass compiles six methods from source text when its module is imported
(`__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__`, `__delattr__`). The box
defines about a hundred before its first frame: on the Pi Zero 2 W that compiling was a
third of the start (issue 23, counted with benchmarks/pi_cost.py). Here the standard
decorator only gathers the fields (and makes the slots). `__init__`, `__eq__` and `__hash__`
are compiled from the same text as the standard's, but at their first call, so a class the
start never uses costs no compiling, and once for each shape of fields, each class given
that code with its own names; the repr and the refusal to change a field are small
functions shared or made from the fields. They behave as the standard ones: equal only to
an instance of the very same class with equal compared fields, the same hash for equal
values, the same repr, `FrozenInstanceError` on assignment, `__post_init__` called,
defaults and default factories as given. Type checkers see the standard decorator.

The fields themselves are gathered here too, not by the standard decorator: its general
path (string annotations matched against ClassVar, InitVar and KW_ONLY, a docstring made
from `inspect.signature`, the class made again for its slots by a general routine) cost
0.5-0.9 M instructions a class on the Pi, 80 M of the start (issue 35). A class that needs
any of that generality (a ClassVar, an InitVar, a base that is not frozen data of ours,
slots of its own) is given to the standard decorator instead. `dataclasses.fields`,
`replace`, `asdict` and pattern matching see the same fields, as `tests/test_frozen.py`
checks against the standard decorator.

    from nsdevice.rules.frozen import dataclass

    @dataclass(frozen=True, slots=True)
    class Thing: ...
"""

from __future__ import annotations

import builtins
import dataclasses
import functools
import reprlib
import sys
import types
import typing
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

__all__ = ["dataclass"]

# methods the standard decorator makes; a class that writes one itself gets the standard
OWN = ("__init__", "__eq__", "__hash__", "__repr__", "__setattr__", "__delattr__")
MISSING = dataclasses.MISSING
FIELD = dataclasses._FIELD  # type: ignore[attr-defined]  # what a field is to `fields()`
CLASS_VARIABLE = dataclasses._FIELD_CLASSVAR  # type: ignore[attr-defined]


def _standard_needed(cls: type, options: dict[str, Any]) -> bool:
    if not options.get("frozen", False) or not cls.__dict__.keys().isdisjoint(OWN):
        return True
    if any(options.get(name, False) for name in ("order", "unsafe_hash", "kw_only")):
        return True
    if not all(options.get(name, True) for name in ("init", "repr", "eq")):
        return True
    if options.get("weakref_slot", False) or "__slots__" in cls.__dict__:
        return True
    # a base the standard made frozen would refuse a subclass that is not, to it
    params = getattr(cls, "__dataclass_params__", None)
    if params is not None and params.frozen:
        return True
    return not _plain_fields(cls)


def _plain_fields(cls: type) -> bool:
    """Every annotation a plain field's, written as text (`from __future__ import
    annotations`); no `field()` without an annotation; the bases' slots, if any, a tuple."""
    annotations = vars(cls).get("__annotations__", {})  # the class's own, as text
    for text in annotations.values():
        if not isinstance(text, str):
            return False
        if _special(text) and not _class_variable(cls, text):
            return False
    for name, value in cls.__dict__.items():
        if isinstance(value, dataclasses.Field) and name not in annotations:
            return False
    for base in cls.__mro__[1:-1]:
        slots = base.__dict__.get("__slots__")
        if slots is not None and not isinstance(slots, tuple):
            return False
    return True


def _special(text: str) -> bool:
    """Words that make an annotation more than a field's type: the standard decorator's
    own business, but for a plain `ClassVar` (`_class_variable`)."""
    return "ClassVar" in text or "InitVar" in text or "KW_ONLY" in text


def _class_variable(cls: type, text: str) -> bool:
    """`ClassVar[...]` (or `typing.ClassVar[...]`) naming typing's own in the class's
    module, as the standard decorator reads a string annotation; nothing else special."""
    head, _, rest = text.partition("[")
    if _special(rest):
        return False
    module = sys.modules.get(cls.__module__)
    space = vars(module) if module is not None else {}
    words = head.strip().split(".")
    if words == ["ClassVar"]:
        return space.get("ClassVar") is typing.ClassVar
    return len(words) == 2 and words[1] == "ClassVar" and space.get(words[0]) is typing


def _cheap(cls: type, options: dict[str, Any]) -> type:
    plain = {**options, "init": False, "repr": False, "eq": False, "frozen": False}
    every, fields = _gathered(cls)
    compared = tuple(f.name for f in fields if f.compare)
    hashed = tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash))
    shown = [f.name for f in fields if f.repr]
    names = [f.name for f in fields]

    # __init__, __eq__ and __hash__ run often (views are made and compared on every press,
    # cards in every simulated round): each is compiled, as the standard's, at its first
    # call, and the class keeps that one. (`cls` is the class as finally made, below.)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        made = _compiled_init(cls, fields)
        cls.__init__ = made  # type: ignore[misc]
        made(self, *args, **kwargs)

    def __eq__(self: Any, other: object) -> Any:
        if other.__class__ is not self.__class__:  # the standard's answer, nothing compiled:
            return NotImplemented  # (a new screen's view, compared with the last one)
        made = _compiled(cls, "__eq__", compared)
        cls.__eq__ = made  # type: ignore[method-assign]
        return made(self, other)

    def __hash__(self: Any) -> int:
        made = _compiled(cls, "__hash__", hashed)
        cls.__hash__ = made  # type: ignore[method-assign]
        return int(made(self))

    @reprlib.recursive_repr()
    def __repr__(self: Any) -> str:
        inside = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
        return f"{self.__class__.__qualname__}({inside})"

    def __getstate__(self: Any) -> list[Any]:  # slots and no __dict__: what pickle keeps
        return [getattr(self, name) for name in names]

    def __setstate__(self: Any, state: list[Any]) -> None:
        for name, value in zip(names, state, strict=True):
            object.__setattr__(self, name, value)

    methods: dict[str, Any] = {"__init__": __init__, "__eq__": __eq__, "__hash__": __hash__}
    methods.update(__repr__=__repr__, __setattr__=_refuse_assign, __delattr__=_refuse_delete)
    if options.get("slots", False):
        methods.update(__getstate__=__getstate__, __setstate__=__setstate__)
    for name, method in methods.items():
        if method.__module__ == __name__ and method.__qualname__.startswith("_cheap."):
            method.__qualname__ = f"{cls.__qualname__}.{name}"
    # the standard's record of the class, as `dataclasses.dataclass(cls, **plain)` leaves it
    methods["__dataclass_params__"] = _parameters(tuple(sorted(plain.items())))
    methods["__dataclass_fields__"] = every
    if plain.get("match_args", True) and "__match_args__" not in cls.__dict__:
        methods["__match_args__"] = tuple(f.name for f in fields if f.init)
    if not cls.__doc__:  # the standard's would be the signature, found at some cost
        methods["__doc__"] = f"{cls.__name__}({', '.join(names)})"
    if options.get("slots", False):
        cls = _with_slots(cls, names, methods)  # the methods above now find this class
    else:
        for name, method in methods.items():
            setattr(cls, name, method)
    return cls


def _gathered(cls: type) -> tuple[dict[str, dataclasses.Field[Any]], list[dataclasses.Field[Any]]]:
    """The fields the standard decorator would find in a class `_plain_fields` passed (the
    bases' first; class variables among them, as its records keep them) and those that
    are not class variables; each default left as a class attribute, as it leaves it."""
    every: dict[str, dataclasses.Field[Any]] = {}
    for base in cls.__mro__[-1:0:-1]:
        every.update(getattr(base, "__dataclass_fields__", {}))
    for name, text in vars(cls).get("__annotations__", {}).items():
        default = getattr(cls, name, MISSING)
        if isinstance(default, dataclasses.Field):
            field = default
        else:
            if isinstance(default, types.MemberDescriptorType):  # a base's slot
                default = MISSING
            field = dataclasses.field(default=default)  # type: ignore[arg-type]
        field.name, field.type = name, text
        shared = _special(text)  # _plain_fields let only ClassVar by
        field._field_type = CLASS_VARIABLE if shared else FIELD  # type: ignore[attr-defined]
        if shared and (field.default_factory is not MISSING or field.kw_only is not MISSING):
            raise TypeError(f"class variable {name} cannot have a default factory or kw_only")
        if not shared and field.kw_only is MISSING:
            field.kw_only = False
        if not shared and field.default.__class__.__hash__ is None:  # no shared list
            raise ValueError(
                f"mutable default {type(field.default)} for field {name} is not allowed:"
                " use default_factory"
            )
        every[name] = field
        if isinstance(cls.__dict__.get(name), dataclasses.Field):
            if field.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, field.default)
    fields = [f for f in every.values() if f._field_type is FIELD]  # type: ignore[attr-defined]
    return every, fields


def _with_slots(cls: type, names: list[str], methods: dict[str, Any]) -> type:
    """The class made again with a slot for each field (those of the bases' slots left to
    them) and `methods` in it from the start, as the standard decorator's `slots=True`."""
    inherited = {name for base in cls.__mro__[1:-1] for name in base.__dict__.get("__slots__", ())}
    space = {**cls.__dict__, **methods}
    space["__slots__"] = tuple(name for name in names if name not in inherited)
    for name in (*names, "__dict__", "__weakref__"):
        space.pop(name, None)
    slotted = type(cls)(cls.__name__, cls.__bases__, space)
    slotted.__qualname__ = cls.__qualname__
    return slotted


@functools.cache
def _parameters(options: tuple[tuple[str, Any], ...]) -> Any:
    """The standard's record of a decorator's parameters, made once per set of them."""

    class Example:
        """(A docstring spares the standard decorator the signature it would write.)"""

    return dataclasses.dataclass(Example, **dict(options)).__dataclass_params__  # type: ignore[attr-defined]


def _refuse_assign(self: Any, name: str, value: Any) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _refuse_delete(self: Any, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def _compiled_init(cls: type, fields: Sequence[dataclasses.Field[Any]]) -> Any:
    """The `__init__` the standard decorator would write for a frozen class.

    Its text depends on the fields' names only through names, so it is compiled once for
    each shape of fields (which take a default, a factory, no argument; a `__post_init__`
    or not), with stand-in names, and each class gets that code with its own names put in
    (`CodeType.replace`): the compiler ran for each class's first instance, 46 times before
    the box's first frame, 25 M instructions on the Pi (issue 35). The function is the one
    the text would give: the same parameters, defaults, messages and steps."""
    scope: dict[str, Any] = {"MISSING": MISSING, "setter": object.__setattr__}
    shape, defaults, seen_default = [], [], False
    for index, field in enumerate(fields):
        has_default = field.default is not MISSING or field.default_factory is not MISSING
        if field.default_factory is not MISSING:
            scope[f"factory_{index}"] = field.default_factory
        elif field.default is not MISSING:
            scope[f"default_{index}"] = field.default
        if field.init:
            if has_default:
                seen_default = True
                defaults.append(field.default)  # MISSING stands for a factory's
            elif seen_default:
                raise TypeError(f"non-default argument {field.name!r} follows default argument")
            kind = "factory" if field.default_factory is not MISSING else "argument"
        elif field.default_factory is not MISSING:
            kind = "factory only"
        else:
            kind = "default only" if field.default is not MISSING else "none"
        shape.append(kind)
    code = _init_code(tuple(shape), hasattr(cls, "__post_init__"))
    named = {f"field_{index}": field.name for index, field in enumerate(fields)}
    code = code.replace(
        co_varnames=tuple(named.get(name, name) for name in code.co_varnames),
        co_consts=tuple(named.get(c, c) if isinstance(c, str) else c for c in code.co_consts),
        co_qualname=f"{cls.__qualname__}.__init__",
    )
    return types.FunctionType(code, scope, "__init__", tuple(defaults) or None)


@functools.cache
def _init_code(shape: tuple[str, ...], post_init: bool) -> types.CodeType:
    """The code of `__init__` for fields of `shape`, named field_0, field_1... (its
    parameters, and the names it gives `setter`), as the standard decorator writes it."""
    parameters, body = ["self"], []
    for index, kind in enumerate(shape):
        name = f"field_{index}"
        if kind in ("argument", "factory"):
            parameters.append(name)
        value = {
            "argument": name,
            "factory": f"factory_{index}() if {name} is MISSING else {name}",
            "factory only": f"factory_{index}()",
            "default only": f"default_{index}",
        }.get(kind)
        if value is not None:
            body.append(f"  setter(self, {name!r}, {value})")
    if post_init:
        body.append("  self.__post_init__()")
    scope: dict[str, Any] = {}
    exec(f"def __init__({', '.join(parameters)}):\n" + "\n".join(body or ["  pass"]), scope)
    return scope["__init__"].__code__  # type: ignore[no-any-return]


def _compiled(cls: type, name: str, fields: Sequence[str]) -> Any:
    """`__eq__` or `__hash__` of `fields` (their names), as the standard decorator writes
    it: compiled once for each count of fields, with stand-in names, and each class given
    that code with its own names put in, as `_compiled_init` does (the compiler ran for
    each class's first comparison or hash: 0.4 M instructions a class on the Pi, the
    first round's end compiling 0.43 M and the first pencil pass 0.82 M, issue 35)."""
    named = {f"field_{index}": field for index, field in enumerate(fields)}
    code = _method_code(name, len(fields))
    code = code.replace(
        co_names=tuple(named.get(word, word) for word in code.co_names),
        co_qualname=f"{cls.__qualname__}.{name}",
    )
    return types.FunctionType(code, {"__builtins__": builtins}, name)


@functools.cache
def _method_code(name: str, count: int) -> types.CodeType:
    """The code of `__eq__` or `__hash__` for `count` fields named field_0, field_1...
    (the attributes it reads), as the standard decorator writes it."""
    names = [f"field_{index}" for index in range(count)]
    if name == "__eq__":
        text = f"def __eq__(self, other):\n{_comparison(names)}"
    else:
        text = f"def __hash__(self):\n  return hash({_values('self', names)})"
    scope: dict[str, Any] = {}
    exec(text, scope)  # our text, from stand-in names
    return scope[name].__code__  # type: ignore[no-any-return]


def _values(owner: str, names: Sequence[str]) -> str:
    """A tuple display of the fields, as the standard's methods build it: "(self.a,self.b,)"."""
    return "(" + "".join(f"{owner}.{name}," for name in names) + ")"


def _comparison(names: Sequence[str]) -> str:
    return (
        "  if other.__class__ is self.__class__:\n"
        f"    return {_values('self', names)} == {_values('other', names)}\n"
        "  return NotImplemented"
    )


def _dataclass(cls: type | None = None, /, **options: Any) -> Any:
    def wrap(cls: type) -> type:
        if _standard_needed(cls, options):
            return dataclasses.dataclass(cls, **options)
        return _cheap(cls, options)

    return wrap if cls is None else wrap(cls)


if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _dataclass
