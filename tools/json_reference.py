#!/usr/bin/env python3
"""Write the reference of the `--display json` screens from the view dataclasses.

Every screen's keys, the shape of each value and what it says come from
`nsdevice/views.py` itself: the fields of each view, their types, and the comment written
beside each field. So the page cannot drift from the code, and CI checks that it is
current (`--check`, in tests/test_json_reference.py).

    python tools/json_reference.py            # writes docs/reference/json-screens.md
    python tools/json_reference.py --check    # exit 1, saying so, when the page is stale
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import io
import re
import sys
import tokenize
import types
import typing
from collections.abc import Iterator, Sequence
from enum import Enum
from pathlib import Path
from typing import Any

from nsdevice import views

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "reference" / "json-screens.md"

HEADER = """\
# JSON screens

<!-- Written by tools/json_reference.py from nsdevice/views.py: edit those, not this page.
     CI fails when this page is stale (tools/json_reference.py --check). -->

`nsdevice run --display json` prints every screen the box shows as one line of JSON
([automation](automation.md) says how to drive it). This page is generated from the
screens' own definitions (`nsdevice/views.py`): each screen's keys, the shape of each
value, and the note written beside it in the code.

Every line has these keys, whatever the screen:

| key | value | what it says |
| --- | --- | --- |
| `screen` | text | which screen this is: one of the names below |
| `say` | list of {`id`, `text`} | what the box says for this screen, phrase by phrase |
"""

def screen_views() -> list[type[views.View]]:
    """Every screen's view: the box's own subclasses of View that name a screen, in the
    order they are written (read from the classes, so no list of screens is kept here)."""
    found: list[type[views.View]] = []
    waiting = list(views.View.__subclasses__())
    while waiting:
        cls = waiting.pop(0)
        waiting += cls.__subclasses__()
        # the class its module names: `slots=True` makes a dataclass anew, and the first
        # class can linger among the subclasses until it is collected
        named = getattr(sys.modules[cls.__module__], cls.__name__, None) is cls
        if cls.__module__.startswith("nsdevice.") and cls.screen and named and cls not in found:
            found.append(cls)
    return sorted(found, key=lambda cls: (cls.__module__, inspect.getsourcelines(cls)[1]))


def field_notes(cls: type) -> dict[str, str]:
    """The comment written beside each field in the class's source (`name: T = x  # …`)."""
    notes: dict[str, str] = {}
    source = inspect.getsource(cls)
    current: str | None = None
    line_of_current = -1
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        at_field = token.type == tokenize.NAME and token.start[1] == 4
        if at_field and token.start[0] != line_of_current:
            current, line_of_current = token.string, token.start[0]
        elif token.type == tokenize.COMMENT and current and token.start[0] == line_of_current:
            notes[current] = token.string.lstrip("#").strip()
    return notes


def first_paragraph(cls: type) -> str:
    doc = cls.__doc__ or ""
    if doc.startswith(cls.__name__ + "("):  # the dataclass's own signature, not a docstring
        return ""
    return " ".join(doc.split("\n\n")[0].split())


def anchor(cls: type) -> str:
    return cls.__name__.lower()


def shape(hint: Any, objects: dict[str, type]) -> str:
    """How a value of this type reads in the JSON, for a person."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        present = [arg for arg in args if arg is not type(None)]
        text = " or ".join(shape(arg, objects) for arg in present)
        return f"{text} or null" if len(present) < len(args) else text
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return f"list of {shape(args[0], objects)}"
        return "[" + ", ".join(shape(arg, objects) for arg in args) + "]"
    if isinstance(hint, type) and issubclass(hint, Enum):
        return "text: " + ", ".join(f"`{member.value}`" for member in hint)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        objects.setdefault(anchor(hint), hint)
        return f"[{hint.__name__}](#{anchor(hint)})"
    names = {str: "text", int: "number", bool: "true/false", float: "number"}
    if hint in names:
        return names[hint]
    raise ValueError(f"no JSON shape for {hint!r}: teach tools/json_reference.py")


def rows(cls: type, objects: dict[str, type], skip: Sequence[str] = ()) -> Iterator[str]:
    hints = typing.get_type_hints(cls, vars(sys.modules[cls.__module__]))
    notes: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if dataclasses.is_dataclass(klass):
            notes.update(field_notes(klass))
    for item in dataclasses.fields(cls):
        if item.name not in skip:
            # the code's comment, in JSON's words (Python's None is JSON's null)
            note = re.sub(r"\bNone\b", "null", notes.get(item.name, "")).replace("|", "\\|")
            yield f"| `{item.name}` | {shape(hints[item.name], objects)} | {note} |"


def page() -> str:
    objects: dict[str, type] = {}
    common = list(rows(views.View, objects))
    lines = [HEADER.rstrip("\n"), *common, "", "## Screens", ""]
    for view in screen_views():
        lines.append(f"### `{view.screen}`")
        lines.append("")
        about = first_paragraph(view)
        if about:
            lines += [about, ""]
        own = list(rows(view, objects, skip=[f.name for f in dataclasses.fields(views.View)]))
        if own:
            lines += ["| key | value | what it says |", "| --- | --- | --- |", *own, ""]
        else:
            lines += ["No keys beyond the common ones.", ""]
    lines += ["## Objects", "", "The values that are objects, by name.", ""]
    done: set[str] = set()
    while len(done) < len(objects):
        for name in sorted(set(objects) - done):
            done.add(name)
            cls = objects[name]
            lines += [f"### {cls.__name__}", ""]
            about = first_paragraph(cls)
            if about:
                lines += [about, ""]
            table = ["| key | value | what it says |", "| --- | --- | --- |"]
            lines += [*table, *rows(cls, objects), ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether it is current")
    parser.add_argument("--out", type=Path, default=PAGE, help="the page (default: %(default)s)")
    options = parser.parse_args(argv)
    text = page()
    if options.check:
        if not options.out.is_file() or options.out.read_text(encoding="utf-8") != text:
            print(f"{options.out} is stale: run python tools/json_reference.py", file=sys.stderr)
            return 1
        return 0
    options.out.parent.mkdir(parents=True, exist_ok=True)
    options.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
