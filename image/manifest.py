"""The file part of the image's manifest: every file and link of a root tree, sorted,
with its size and SHA-256 (a link: its target), one a line.

    python3 image/manifest.py TREE

image/build.sh writes it beside the image, followed by the Debian packages' and the
Python distributions' versions. In Python rather than a shell loop: two processes a file
for some 30,000 files took minutes."""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path


def entries(tree: Path) -> Iterator[str]:
    found: list[tuple[str, str]] = []
    device = tree.stat().st_dev
    for folder, names, files in os.walk(tree):
        # stay on the tree's own file system (as find -xdev): no /proc or /dev mounted in it
        names[:] = [n for n in names if (Path(folder) / n).lstat().st_dev == device]
        for name in files + [n for n in names if (Path(folder) / n).is_symlink()]:
            path = Path(folder) / name
            shown = "/" + str(path.relative_to(tree))
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                found.append((shown, f"{shown} -> {os.readlink(path)}"))
            elif stat.S_ISREG(info.st_mode):
                digest = hashlib.sha256()
                with path.open("rb") as file:
                    for block in iter(lambda: file.read(1 << 20), b""):
                        digest.update(block)
                found.append((shown, f"{shown} {info.st_size} {digest.hexdigest()}"))
    for _, line in sorted(found):
        yield line


if __name__ == "__main__":
    for line in entries(Path(sys.argv[1])):
        print(line)
