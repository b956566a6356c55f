#!/usr/bin/env python3
"""Compare two screenshot galleries (`nsdevice screenshot --out DIR`) file by file.

Usage: python tools/compare_galleries.py BEFORE AFTER

Lists every PNG that differs in bytes, or that is only in one of the two folders;
exit status 0 when the galleries are identical, 1 when anything differs, 2 on bad usage.
"""

from __future__ import annotations

import sys
from pathlib import Path


def differences(before: Path, after: Path) -> list[str]:
    """One line per differing file, as `differs: PATH`, `only in BEFORE: PATH`, etc."""
    old = {p.relative_to(before) for p in before.rglob("*.png")}
    new = {p.relative_to(after) for p in after.rglob("*.png")}
    lines = [f"only in {before}: {p}" for p in sorted(old - new)]
    lines += [f"only in {after}: {p}" for p in sorted(new - old)]
    lines += [
        f"differs: {p}"
        for p in sorted(old & new)
        if (before / p).read_bytes() != (after / p).read_bytes()
    ]
    return lines


def main(argv: list[str]) -> int:
    if len(argv) != 2 or not all(Path(a).is_dir() for a in argv):
        print("usage: python tools/compare_galleries.py BEFORE_DIR AFTER_DIR", file=sys.stderr)
        return 2
    before, after = (Path(a) for a in argv)
    lines = differences(before, after)
    for line in lines:
        print(line)
    count = len(list(before.rglob("*.png")))
    print(f"{count} files in {before}, {len(lines)} differences", file=sys.stderr)
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
