"""The documentation as a whole: the site builds with --strict (no broken link or anchor, no
page left out of the navigation), the README stays short and its test command is CI's, its
numbers are true, and history stays in the changelog."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.markdown_pages import markdown_files

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"




def test_the_site_builds_strict(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    home = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "Quick start" in home and 'href="docs/guide/playing.html"' in home
    assert (tmp_path / "docs" / "rules.html").is_file()
    assert (tmp_path / "docs" / "reference" / "json-screens.html").is_file()
    assert (tmp_path / "hardware" / "README.html").is_file() or (
        tmp_path / "hardware" / "index.html"
    ).is_file()


def test_the_readme_is_short() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 150


def readme_commands() -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def test_ci_runs_the_readmes_test_command_exactly() -> None:
    test_command = [line for line in readme_commands() if "'.[dev]'" in line]
    assert len(test_command) == 1, "one test command in the README's Quick start"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert test_command[0] in ci, ".ci/run must run the README's test command as written"
    assert any(".venv/bin/nsdevice run" in line for line in readme_commands())


def test_the_pi_steps_are_where_the_userland_check_reads_them() -> None:
    """tools/pi-userland-check runs the blocks marked <!-- pi-steps: NAME --> of one page."""
    tool = (ROOT / "tools" / "pi-userland-check").read_text(encoding="utf-8")
    body = tool.split("readme_block()", 1)[1].split("\n}", 1)[0]
    pages = re.findall(r'"\$here/([^"]+)"', body)
    assert len(pages) == 1, pages
    page = (ROOT / pages[0]).read_text(encoding="utf-8")
    for name in ("raspberry-pi-os", "other-arm64"):
        assert f"<!-- pi-steps: {name}" in page, f"{pages[0]} lacks the {name} steps"


def test_the_clip_count_and_size_written_are_the_shipped_ones() -> None:
    clips = ROOT / "nsdevice" / "voice" / "clips"
    manifest = json.loads((clips / "manifest.json").read_text(encoding="utf-8"))
    listed = sum(len(phrases) for phrases in manifest["clips"].values())
    files = sorted(clips.glob("*/*.ogg"))
    megabytes = sum(path.stat().st_size for path in files) / 1e6
    assert listed == len(files)
    written: list[Path] = []
    for path in markdown_files():
        text = path.read_text(encoding="utf-8")
        for count, size in re.findall(r"(\d[\d,]*) Ogg Vorbis clips(?:, ([\d.]+) MB)?", text):
            written.append(path)
            assert int(count.replace(",", "")) == listed, f"{path.relative_to(ROOT)}: {count}"
            if size:
                assert abs(float(size) - megabytes) < 0.05, f"{path.relative_to(ROOT)}: {size} MB"
    assert README in written, "the README says how many clips ship"
    assert ROOT / "docs" / "guide" / "voice.md" in written, "the voice page says it too"


MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
DATED = re.compile(
    rf"\b\d{{4}}-\d{{2}}-\d{{2}}\b|\b\d{{1,2}} ({MONTHS})\b|\b({MONTHS}) \d{{1,2}}\b"
    r"|\bissues? #?\d+|#\d+\b",
    re.IGNORECASE,
)


def headings(text: str) -> list[str]:
    found: list[str] = []
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#{1,6} ", line):
            found.append(line)
    return found


def test_no_heading_carries_a_date_or_an_issue_outside_the_changelog() -> None:
    found = [
        f"{path.relative_to(ROOT)}: {heading}"
        for path in markdown_files()
        if path != ROOT / "CHANGELOG.md"
        for heading in headings(path.read_text(encoding="utf-8"))
        if DATED.search(heading)
    ]
    assert found == [], "history goes to CHANGELOG.md; a reference is headed by its subject"


def test_the_heading_check_sees_dates_and_issues() -> None:
    for heading in ("## Figures of 2026-11-22", "## Issue 13", "### A room (issue 25)",
                    "## Measured on 23 November", "## #31 follow-up"):
        assert DATED.search(heading), heading
    for heading in ("## Press on the PC", "## 200 kills", "## Python 3.11", "## Pi Zero 2 W"):
        assert not DATED.search(heading), heading
    assert headings("# A\n```\n# not a heading\n```\n## B") == ["# A", "## B"]
