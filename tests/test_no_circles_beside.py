"""No circle of imports among the scripts beside the package (issue 33): benchmarks/ and
tools/, whose modules import each other both as `benchmarks.x` and, where a script puts
its own folder on the path, as plain `x`; imports inside functions count."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("benchmarks", "tools")


def script_modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module in the folders, by its dotted name from the repository's root."""
    found = {}
    for folder in FOLDERS:
        for path in (root / folder).rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imported(path: Path, name: str, modules: dict[str, Path]) -> set[str]:
    """The modules of `modules` that the module `name` at `path` imports, by any path."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's own package up
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([base] if base else [])])
            targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        for target in targets:
            for candidate in (target, f"{package}.{target}" if package else target):
                if candidate in modules and candidate != name:
                    found.add(candidate)
    return found


def import_circle(root: Path = ROOT) -> tuple[str, ...] | None:
    modules = script_modules(root)
    graph = {name: imported(path, name, modules) for name, path in modules.items()}
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        return tuple(error.args[1])
    return None


def test_no_circle_in_benchmarks_or_tools():
    assert import_circle() is None


def test_a_circle_through_a_plain_import_inside_a_function_is_found(tmp_path):
    for folder in FOLDERS:
        (tmp_path / folder).mkdir()
    (tmp_path / "benchmarks" / "measure.py").write_text(
        "def late():\n    from phones import Page\n"
    )
    (tmp_path / "benchmarks" / "phones.py").write_text("from benchmarks.measure import late\n")
    (tmp_path / "tools" / "alone.py").write_text("import benchmarks.measure\n")
    circle = import_circle(tmp_path)
    assert circle is not None and set(circle) == {"benchmarks.measure", "benchmarks.phones"}
