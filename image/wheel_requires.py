"""Print a wheel's or a pyproject.toml's requirements, one a line: the plain ones, or
those of one extra.

    python3 image/wheel_requires.py WHEEL|pyproject.toml [EXTRA]

image/build.sh fetches the Pi's wheels with it (the standard library only)."""

from __future__ import annotations

import re
import sys
import tomllib
import zipfile
from email.parser import Parser


def requirements(wheel: str, extra: str | None = None) -> list[str]:
    if wheel.endswith(".toml"):
        with open(wheel, "rb") as file:
            project = tomllib.load(file)["project"]
        listed = project["optional-dependencies"][extra] if extra else project["dependencies"]
        return [str(line).replace(" ", "") for line in listed]
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = Parser().parsestr(archive.read(name).decode())
    found = []
    for line in metadata.get_all("Requires-Dist") or []:
        requirement, _, marker = line.partition(";")
        wanted = re.search(r"extra\s*==\s*['\"]([^'\"]+)['\"]", marker)
        if (wanted.group(1) if wanted else None) == extra:
            found.append(requirement.replace(" ", ""))
    return found


if __name__ == "__main__":
    print("\n".join(requirements(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)))
