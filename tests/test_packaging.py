"""The project as a user installs it: not editable, from a built wheel, into its own venv.

Every other test runs from the editable install (`pip install -e`), which sees the
checkout's files whether or not they were declared as package data; this one would catch
a profile that stays behind when the package is installed the ordinary way.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
SHIPPED_NAMES = sorted(path.stem for path in (REPOSITORY / "nsdevice" / "profiles").glob("*.toml"))
SYSTEM_PROFILES = Path("/etc/nsdevice/profiles")

RESOLVE = """
import json, sys
import nsdevice, nsdevice.hardware.profiles as hardware
from nsdevice.voice import clips
names = sys.argv[1:]
spoken = [c for entries in clips.manifest().clips.values() for c in entries.values()]
print(json.dumps({
    "package": nsdevice.__file__,
    "shipped": str(hardware.SHIPPED_PROFILES),
    "found": {name: str(hardware.find_profile(name)) for name in names},
    "loaded": {name: hardware.load_profile(name).name for name in names},
    "voice": str(clips.folder()),
    "clips": len(spoken),
    "clips_present": sum((clips.folder() / c.file).is_file() for c in spoken),
}))
"""


def pip(*arguments: str | Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", *map(str, arguments)],
        check=True,
    )


def test_a_non_editable_install_finds_every_profile_by_name(tmp_path: Path) -> None:
    # Build from a copy so the build's files never land in the checkout.
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPOSITORY / name, source / name)
    shutil.copytree(
        REPOSITORY / "nsdevice", source / "nsdevice", ignore=shutil.ignore_patterns("__pycache__")
    )
    wheels = tmp_path / "wheels"
    # No build isolation and no dependencies: the test venv's setuptools builds it offline.
    pip("wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", wheels, source)
    (wheel,) = wheels.glob("nsdevice-*.whl")

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    python = venv / "bin" / "python"
    pip("--python", python, "install", "--no-deps", "--no-index", wheel)

    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    environment.pop("NSDEVICE_PROFILES", None)
    result = subprocess.run(
        [python, "-c", RESOLVE, *SHIPPED_NAMES],
        cwd=tmp_path,  # not the checkout: `import nsdevice` must find the installed copy
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(result.stdout)

    assert Path(report["package"]).is_relative_to(venv)
    shipped = Path(report["shipped"])
    assert shipped.is_relative_to(venv)
    assert sorted(path.stem for path in shipped.glob("*.toml")) == SHIPPED_NAMES
    assert SHIPPED_NAMES  # four builds today; an empty folder must not pass
    for name in SHIPPED_NAMES:
        # /etc/nsdevice/profiles overrides the package where an install.sh has written it
        override = SYSTEM_PROFILES / f"{name}.toml"
        expected = override if override.is_file() else shipped / f"{name}.toml"
        assert Path(report["found"][name]) == expected
        assert report["loaded"][name] == name
    # the speech ships too (issue 24): the manifest and every clip it names
    assert Path(report["voice"]).is_relative_to(venv)
    assert report["clips"] > 0
    assert report["clips_present"] == report["clips"]
