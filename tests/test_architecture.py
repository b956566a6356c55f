"""The import graph (DESIGN.md "Layout"; `lint-imports` checks the layers in CI): no circle
of imports between the box's modules, counting imports made inside functions."""

from __future__ import annotations

import graphlib
import sys
import textwrap

import grimp
import pytest


def import_circle(package: str) -> tuple[str, ...] | None:
    """One circle of imports among `package`'s modules, or None. grimp reads every import
    statement, including those inside functions, which is where circles used to hide."""
    graph = grimp.build_graph(package, cache_dir=None)
    sorter = graphlib.TopologicalSorter(
        {module: graph.find_modules_directly_imported_by(module) for module in graph.modules}
    )
    try:
        sorter.prepare()
    except graphlib.CycleError as error:
        return tuple(error.args[1])
    return None


def test_the_box_has_no_import_circle():
    assert import_circle("nsdevice") is None


def test_imports_inside_functions_are_in_the_graph():
    # the command line imports the screenshot maker only when asked for screenshots
    graph = grimp.build_graph("nsdevice", cache_dir=None)
    assert graph.direct_import_exists(importer="nsdevice.cli", imported="nsdevice.screenshots")


def test_a_circle_through_an_import_inside_a_function_is_found(tmp_path, monkeypatch):
    package = tmp_path / "circled"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "low.py").write_text("def late():\n    from circled import high\n")
    (package / "high.py").write_text(textwrap.dedent("from circled import low\n"))
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        circle = import_circle("circled")
    finally:
        for name in [name for name in sys.modules if name.startswith("circled")]:
            del sys.modules[name]
    assert circle is not None and set(circle) == {"circled.low", "circled.high"}


@pytest.mark.parametrize("module", ["nsdevice.runner", "nsdevice.cli"])
def test_only_the_entry_point_imports_the_command_line_and_the_runner(module):
    graph = grimp.build_graph("nsdevice", cache_dir=None)
    inside = {module, *graph.find_descendants(module)}  # the runner is a package
    importers = set().union(*(graph.find_modules_that_directly_import(m) for m in inside))
    assert importers - inside <= {"nsdevice.__main__", "nsdevice.cli"}
