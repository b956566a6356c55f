"""`dataclass` as the standard library's, made cheap to define for frozen data.

A frozen dataclass compiles six methods from source text when its module is imported
(`__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__`, `__delattr__`). The box
defines about a hundred before its first frame: on the Pi Zero 2 W that compiling was a
third of the start (issue 23, counted with benchmarks/pi_cost.py). Here the standard
decorator only gathers the fields (and makes the slots). `__init__`, `__eq__` and `__hash__`
are compiled from the same text as the standard's, but at their first call, so a class the
start never uses costs no compiling; the repr and the refusal to change a field are small
functions shared or made from the fields. They behave as the standard ones: equal only to
an instance of the very same class with equal compared fields, the same hash for equal
values, the same repr, `FrozenInstanceError` on assignment, `__post_init__` called,
defaults and default factories as given. Type checkers see the standard decorator.

    from nsdevice.rules.frozen import dataclass

    @dataclass(frozen=True, slots=True)
    class Thing: ...
"""

from __future__ import annotations

import dataclasses
import reprlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

__all__ = ["dataclass"]

# methods the standard decorator makes; a class that writes one itself gets the standard
OWN = ("__init__", "__eq__", "__hash__", "__repr__", "__setattr__", "__delattr__")
MISSING = dataclasses.MISSING


def _standard_needed(cls: type, options: dict[str, Any]) -> bool:
    if not options.get("frozen", False) or any(name in cls.__dict__ for name in OWN):
        return True
    if any(options.get(name, False) for name in ("order", "unsafe_hash", "kw_only")):
        return True
    if not all(options.get(name, True) for name in ("init", "repr", "eq")):
        return True
    # a base the standard made frozen would refuse a subclass that is not, to it
    params = getattr(cls, "__dataclass_params__", None)
    return bool(params is not None and params.frozen)


def _cheap(cls: type, options: dict[str, Any]) -> type:
    plain = {**options, "init": False, "repr": False, "eq": False, "frozen": False}
    cls = dataclasses.dataclass(cls, **plain)
    fields = dataclasses.fields(cls)
    compared = tuple(f.name for f in fields if f.compare)
    hashed = tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash))
    shown = [f.name for f in fields if f.repr]
    names = [f.name for f in fields]

    # __init__, __eq__ and __hash__ run often (views are made and compared on every press,
    # cards in every simulated round): each is compiled, as the standard's, at its first
    # call, and the class keeps that one.
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        made = _compiled_init(cls, fields)
        cls.__init__ = made  # type: ignore[misc]
        made(self, *args, **kwargs)

    def __eq__(self: Any, other: object) -> Any:
        made = _compiled(cls, "__eq__", ("self", "other"), _comparison(compared))
        cls.__eq__ = made  # type: ignore[method-assign]
        return made(self, other)

    def __hash__(self: Any) -> int:
        made = _compiled(cls, "__hash__", ("self",), f"  return hash({_values('self', hashed)})")
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

    methods = {"__init__": __init__, "__eq__": __eq__, "__hash__": __hash__}
    methods.update(__repr__=__repr__, __setattr__=_refuse_assign, __delattr__=_refuse_delete)
    if options.get("slots", False):
        methods.update(__getstate__=__getstate__, __setstate__=__setstate__)
    for name, method in methods.items():
        if method.__module__ == __name__ and method.__qualname__.startswith("_cheap."):
            method.__qualname__ = f"{cls.__qualname__}.{name}"
        setattr(cls, name, method)
    return cls


def _refuse_assign(self: Any, name: str, value: Any) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _refuse_delete(self: Any, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def _compiled_init(cls: type, fields: tuple[dataclasses.Field[Any], ...]) -> Any:
    """The `__init__` the standard decorator would write for a frozen class."""
    scope: dict[str, Any] = {"MISSING": MISSING, "setter": object.__setattr__}
    parameters, body, seen_default = ["self"], [], False
    for index, field in enumerate(fields):
        default, factory = f"default_{index}", f"factory_{index}"
        scope[default], scope[factory] = field.default, field.default_factory
        has_default = field.default is not MISSING or field.default_factory is not MISSING
        if field.init:
            if has_default:
                seen_default = True
                parameters.append(
                    f"{field.name}={default if field.default is not MISSING else 'MISSING'}"
                )
            elif seen_default:
                raise TypeError(f"non-default argument {field.name!r} follows default argument")
            else:
                parameters.append(field.name)
            value = field.name
            if field.default_factory is not MISSING:
                value = f"{factory}() if {field.name} is MISSING else {field.name}"
        elif field.default_factory is not MISSING:
            value = f"{factory}()"
        elif field.default is not MISSING:
            value = default
        else:
            continue
        body.append(f"  setter(self, {field.name!r}, {value})")
    if hasattr(cls, "__post_init__"):
        body.append("  self.__post_init__()")
    return _compiled(cls, "__init__", parameters, "\n".join(body or ["  pass"]), scope)


def _compiled(
    cls: type, name: str, parameters: Sequence[str], body: str, scope: dict[str, Any] | None = None
) -> Any:
    scope = {} if scope is None else scope
    exec(f"def {name}({', '.join(parameters)}):\n{body}", scope)  # our text, from field names
    made = scope[name]
    made.__qualname__ = f"{cls.__qualname__}.{name}"
    return made


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
