"""The JSON screens' reference (docs/reference/json-screens.md) is generated from the view
dataclasses by tools/json_reference.py: it must be current, and it must say exactly the
keys that `nsdevice run --display json` prints for each screen."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tools import json_reference

try:  # the screens' records own the list of views once each screen is declared once
    from nsdevice.session.screens import ALL_VIEWS
except ImportError:
    from nsdevice.views import ALL_VIEWS

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "reference" / "json-screens.md"


def documented_keys() -> tuple[set[str], dict[str, set[str]]]:
    """The page's common keys and each screen's own, read back from its tables."""
    common: set[str] = set()
    screens: dict[str, set[str]] = {}
    current: set[str] | None = common
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"^#{2,3} (.*)$", line)
        if heading:
            name = re.fullmatch(r"`(\w+)`", heading.group(1))
            current = screens.setdefault(name.group(1), set()) if name else None
            continue
        row = re.match(r"^\| `(\w+)` \|", line)
        if row and current is not None:
            current.add(row.group(1))
    return common, screens


def test_the_page_is_current() -> None:
    assert json_reference.main(["--check"]) == 0, "run python tools/json_reference.py"


def test_a_stale_page_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stale = tmp_path / "json-screens.md"
    stale.write_text(PAGE.read_text(encoding="utf-8").replace("`cursor`", "`pointer`", 1))
    assert json_reference.main(["--check", "--out", str(stale)]) == 1
    assert capsys.readouterr().err.count("\n") == 1
    assert json_reference.main(["--out", str(stale)]) == 0
    assert json_reference.main(["--check", "--out", str(stale)]) == 0


def test_every_screen_and_field_is_on_the_page() -> None:
    common, screens = documented_keys()
    assert common == {"screen", "say", "language", "hints", "chime"}
    assert set(screens) == {view.screen for view in ALL_VIEWS}
    assert set(json_reference.screen_views()) == set(ALL_VIEWS)
    for view in ALL_VIEWS:
        fields = {name for name in view.__dataclass_fields__} - common
        assert screens[view.screen] == fields, view.screen


def test_the_page_says_what_the_box_prints(tmp_path: Path) -> None:
    """A scripted game through summary, round start, turns, the menu and its pages: each
    line has exactly the common keys and its screen's keys as the page lists them."""
    keys = "next,next,next,back,menu,next,next,menu,back,menu,next,next,next,next,next,menu"
    done = subprocess.run(
        [sys.executable, "-m", "nsdevice", "run", "--input", "script", "--keys", keys,
         "--display", "json", "--state-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=120, check=True,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
    )
    common, screens = documented_keys()
    seen: set[str] = set()
    for line in done.stdout.splitlines():
        shown = json.loads(line)
        seen.add(shown["screen"])
        assert set(shown) == common | screens[shown["screen"]], shown["screen"]
    assert len(seen) >= 4, seen
