"""Issue 26, item 1, read back from the pictures: every page of every turn screen that
`nsdevice screenshot --hardware display-hat-mini` writes (every city in English, Tokyo in
every other language) shows the underground count as figures, "k/5", with k this turn's
count (C-4). The PNGs are read by an OCR engine (Debian's tesseract-ocr; .ci/run installs
it when missing), not by the layout's own record, so a count hidden under the card, drawn
off the glass or left off a page fails.

Where to look comes from the layout's record of the page (`Drawing`, role "underground"),
what is there from the PNG's pixels: that line, cut out with a margin, greyed, inverted
(dark figures on light, as the engine reads best) and doubled, is read as one line of
figures and "/". Every page goes to one tesseract run (a list of images, one page of
text each), so the whole check costs one process.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pygame
import pytest

from nsdevice.displays.painter import Painter
from nsdevice.gallery import example_views
from nsdevice.hardware.profiles import load_profile
from nsdevice.screenshots import render_all
from nsdevice.texts import Words

TESSERACT = shutil.which("tesseract")
pytestmark = pytest.mark.skipif(
    TESSERACT is None, reason="needs Debian's tesseract-ocr (.ci/run installs it)"
)
AROUND = 8  # pixels of the page kept round the count's line
PAGE = re.compile(r"(?P<city>[a-z]+)-(?P<screen>turn[a-z-]*?)(?:-page(?P<page>\d+))?\.png")
COUNT = re.compile(r"(\d)\s*/\s*5")


def _page(path: Path, root: Path) -> tuple[str, str, str, int]:
    """The page's city, language, screen and page number, from its file's name."""
    language = path.parent.name if path.parent != root else "en"
    found = PAGE.fullmatch(path.name)
    assert found, path.name
    return found["city"], language, found["screen"], int(found["page"] or 1)


def test_every_page_of_every_turn_shows_the_count_as_k_of_5_by_ocr(tmp_path: Path) -> None:
    profile = load_profile("display-hat-mini")
    panel = profile.panel()
    shots = tmp_path / "shots"
    written = render_all(shots, profile.display.size(), panel,
                         screens=lambda name: name.startswith("turn"))  # fmt: skip
    assert len(written) >= 40  # the turns of three cities and five languages, all pages
    painter = Painter(diagonal_inches=panel.diagonal_inches)
    surface = pygame.Surface(profile.display.size())
    lines = tmp_path / "lines"
    lines.mkdir()
    listed, expected = [], []
    for index, path in enumerate(written):
        city, language, screen, page = _page(path, shots)
        view = panel.placed(dict(example_views(city, language))[screen])
        drawing = painter.paint(view, surface, Words(language), page - 1)
        boxes = [p.rect for p in drawing.texts if p.role == "underground"]
        assert len(boxes) == 1, (path.name, boxes)
        x, y, w, h = boxes[0]
        picture = pygame.image.load(str(path))
        box = pygame.Rect(x - AROUND, y - AROUND, w + 2 * AROUND, h + 2 * AROUND)
        cut = picture.subsurface(box.clip(picture.get_rect()))
        line = pygame.transform.scale_by(
            pygame.transform.invert(pygame.transform.grayscale(cut)), 2
        )
        pygame.image.save(line, str(lines / f"{index:03d}.png"))
        listed.append(str(lines / f"{index:03d}.png"))
        expected.append((path, language, view.underground_seen))
    (tmp_path / "list.txt").write_text("\n".join(listed) + "\n")
    assert TESSERACT is not None
    read = subprocess.run(
        [TESSERACT, str(tmp_path / "list.txt"), "-", "--psm", "7",
         "-c", "tessedit_char_whitelist=0123456789/"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "OMP_THREAD_LIMIT": "1"},  # one core: the suite runs beside it
        check=True,
    ).stdout
    pages = read.split("\f")[: len(written)]
    assert len(pages) == len(written)
    wrong = []
    for (path, _, seen), text in zip(expected, pages, strict=True):
        counts = [int(k) for k in COUNT.findall(text)]
        if counts != [seen]:
            wrong.append(f"{path.relative_to(tmp_path)}: read {text.strip()!r}, wanted {seen}/5")
    assert wrong == []
    assert {language for _, language, _ in expected} == {"en", "de", "es", "fr", "it"}
