"""The rules live inside the repository: every rule ID cited anywhere (C-4, T-SP-3, P-CG,
S-T-END, D-7 …, and the same IDs at the end of test names: `_C4`, `_TSP3`, `_S_T_END`) is
defined in docs/rules.md, and rules.md defines nothing twice."""

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"

# Where citations are looked for: the package, its tests, tools, benchmarks and docs.
CITING = ("nsdevice", "tests", "benchmarks", "tools", "docs", "hardware", "firmware", "README.md")
SKIPPED_SUFFIXES = {".png", ".mo", ".ogg", ".wav", ".jpg", ".pyc", ".bin", ".uf2"}

# An ID: a family letter, optional upper-case parts, then a number or a part (C-4, T-SP-3,
# P-CG, S-T-END). Never inside a longer word (X-Forwarded is not one).
CITED = re.compile(r"(?<![\w-])[CDTPLSX](?:-[A-Z]+)*-(?:\d+|[A-Z]+)(?![\w-])")
# A rule's definition: the bold ID opening a row of a table in rules.md.
DEFINED = re.compile(r"^\| \*\*([A-Z][A-Z0-9-]*)\*\* \|", re.MULTILINE)
# The upper-case tail of a test's name: `test_round_ends_on_fifth_underground_C4`.
TEST_TAIL = re.compile(r"def (test_\w*?)((?:_[CDTPLSX][A-Z0-9]*)(?:_[A-Z][A-Z0-9]*)*)\(")


def defined_ids() -> list[str]:
    return DEFINED.findall(RULES.read_text(encoding="utf-8"))


def citing_files() -> Iterator[Path]:
    for name in CITING:
        top = ROOT / name
        paths = [top] if top.is_file() else sorted(top.rglob("*"))
        for path in paths:
            skipped = path.suffix in SKIPPED_SUFFIXES or "__pycache__" in path.parts
            if path.is_file() and not skipped:
                yield path


def read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return ""


def split_tail(tokens: list[str], known: set[str]) -> list[str] | None:
    """The tail's tokens read as a run of IDs written without hyphens (`S_T_END_C11` is
    S-T-END and C-11), or None when they do not read so."""
    if not tokens:
        return []
    for end in range(len(tokens), 0, -1):
        joined = "".join(tokens[:end])
        if joined in known:
            rest = split_tail(tokens[end:], known)
            if rest is not None:
                return [joined, *rest]
    return None


def test_every_cited_rule_id_is_defined_in_rules_md() -> None:
    defined = set(defined_ids())
    undefined: list[str] = []
    for path in citing_files():
        for cited in sorted(set(CITED.findall(read_text(path)))):
            if cited not in defined:
                undefined.append(f"{path.relative_to(ROOT)}: {cited}")
    assert undefined == [], "rule IDs cited but not defined in docs/rules.md"


def test_every_rule_id_at_the_end_of_a_test_name_is_defined() -> None:
    by_squeezed = {rule.replace("-", ""): rule for rule in defined_ids()}
    unreadable: list[str] = []
    count = 0
    for top in ("tests", "benchmarks"):
        for path in sorted((ROOT / top).rglob("*.py")):
            for name, tail in TEST_TAIL.findall(read_text(path)):
                count += 1
                if split_tail(tail.strip("_").split("_"), set(by_squeezed)) is None:
                    unreadable.append(f"{path.relative_to(ROOT)}: {name}{tail}")
    assert count > 50, "the test names' rule tails were not found: has the naming changed?"
    assert unreadable == [], "test names ending in IDs that docs/rules.md does not define"


def test_the_id_scanners_see_what_they_must() -> None:
    """The scanners themselves: what counts as a citation, and how a test name's tail reads."""
    text = "C-4, T-SP-3 and P-CG; S-T-END (D-7). Not X-Forwarded-For, UTF-8 or ABC-4."
    assert CITED.findall(text) == ["C-4", "T-SP-3", "P-CG", "S-T-END", "D-7"]
    known = {"C11", "ST", "STEND", "TSP3", "LPP", "X2", "C8"}
    assert split_tail(["S", "T", "S", "T", "END", "C11"], known) == ["ST", "STEND", "C11"]
    assert split_tail(["C8", "L", "PP", "X2"], known) == ["C8", "LPP", "X2"]
    assert split_tail(["C99"], known) is None
    tail = TEST_TAIL.search("def test_round_ends_on_fifth_underground_S_T_END_C4():")
    assert tail is not None and tail.group(2) == "_S_T_END_C4"
    assert TEST_TAIL.search("def test_the_refusal_holds_under_python_O():") is None


def test_rules_md_defines_each_id_once_with_a_source() -> None:
    ids = defined_ids()
    assert len(ids) == len(set(ids)), "an ID defined twice in docs/rules.md"
    # the families the box's code and data are built on are all there
    for needed in ("C-1", "C-14", "T-SP-4", "P-CG-3", "L-PP", "X-5", "S-SOLO", "D-11"):
        assert needed in ids
    rows = [line for line in RULES.read_text(encoding="utf-8").splitlines() if DEFINED.match(line)]
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert len(cells) >= 3 and all(cells), f"a rule row with an empty cell: {row[:60]}"
