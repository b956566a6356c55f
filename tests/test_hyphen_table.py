"""The box's hyphenation tables (tools/hyphen_table.py): current with the catalogs, so a
changed translation cannot leave a long word without its breaks, and read without pyphen."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from nsdevice.displays.hyphens import SOFT_HYPHEN, TABLE_NAME, Hyphens
from nsdevice.locale import LANGUAGES
from tools import hyphen_table


def test_the_tables_are_current() -> None:
    assert hyphen_table.main(["--check"]) == 0, "run python tools/hyphen_table.py"


def test_a_changed_translation_makes_its_table_stale(tmp_path: Path) -> None:
    locale = tmp_path / "nsdevice" / "locale"
    shutil.copytree(hyphen_table.LOCALE, locale, ignore=shutil.ignore_patterns("*.mo", "*.py"))
    po = locale / "de" / "LC_MESSAGES" / "nsdevice.po"
    po.write_text(po.read_text("utf-8") + '\nmsgid "Zz"\nmsgstr "Zusatzstationsfeld"\n', "utf-8")
    assert hyphen_table.main(["--check", "--locale", str(locale)]) == 1
    assert hyphen_table.main(["--locale", str(locale)]) == 0
    assert hyphen_table.main(["--check", "--locale", str(locale)]) == 0
    assert SOFT_HYPHEN in Hyphens(locale).hyphenated("Zusatzstationsfeld", "de")


def test_a_word_not_in_the_table_is_left_whole(tmp_path: Path) -> None:
    (tmp_path / "de").mkdir()
    (tmp_path / "de" / TABLE_NAME).write_text("# a table\ndop-pel-sta-tion\n", "utf-8")
    hyphens = Hyphens(tmp_path)
    assert hyphens.hyphenated("DOPPELSTATION Wunderbaum", "de") == (
        f"DOP{SOFT_HYPHEN}PEL{SOFT_HYPHEN}STA{SOFT_HYPHEN}TION Wunderbaum"
    )
    assert hyphens.hyphenated("Doppelstation", "it") == "Doppelstation"  # no table


def test_the_box_hyphenates_without_importing_pyphen() -> None:
    script = (
        "import sys\n"
        "from nsdevice.displays.hyphens import Hyphens\n"
        f"for language in {LANGUAGES!r}:\n"
        "    Hyphens().hyphenated('Interchanges Doppelstation', language)\n"
        "assert 'pyphen' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True)
