"""No skip hides a check on a fresh machine (issue 32): .ci/run installs the Debian
packages of the commands in .ci/tools, and under CI a test that skips naming one of those
commands fails (tests/conftest.py). Also the tools that build a Debian root read their
mirror from the machine's apt sources (tools/debian-mirror), never from the repository
(tests/test_no_registry_hosts.py keeps every registry's host name out of it)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import avoidable, ci_tools

REPOSITORY = Path(__file__).resolve().parent.parent
MIRROR_TOOL = REPOSITORY / "tools" / "debian-mirror"


def test_the_commands_of_the_skips_that_ci_must_not_allow_are_listed():
    listed = ci_tools()
    for command in ("chromium", "chromedriver", "tesseract", "systemd-nspawn", "mmdebstrap",
                    "systemd-analyze", "systemctl", "setpriv", "zbarimg"):  # fmt: skip
        assert command in listed
    for package in ("chromium-driver", "tesseract-ocr", "systemd-container", "util-linux"):
        assert package in listed


def test_every_skip_for_a_tool_in_the_tests_names_it_as_ci_sees_it():
    """The skips of tests/ that wait on a Debian tool: each reason names a command or a
    package of .ci/tools, so that under CI it fails (the reasons as written today)."""
    listed = ci_tools()
    from tests import browser, test_appliance_network, test_small_turn_ocr, test_systemd

    reasons = [
        browser.MISSING,
        test_appliance_network.needs_zbar.mark.kwargs["reason"],
        test_small_turn_ocr.pytestmark.mark.kwargs["reason"],
        test_systemd.needs_systemd_analyze.mark.kwargs["reason"],
    ]
    assert all(avoidable(reason, listed) for reason in reasons), reasons


def test_ci_run_installs_from_the_same_list_and_nothing_else():
    script = (REPOSITORY / ".ci" / "run").read_text(encoding="utf-8")
    assert "done <.ci/tools" in script
    installs = re.findall(r"apt-get install[^\n]*", script)
    assert installs and all(line.endswith("$missing") for line in installs)
    assert "NSDEVICE_REQUIRE_CI_TOOLS=1" in script


def test_a_skip_reason_names_a_listed_command_only_as_a_whole_word():
    tools = frozenset({"chromium", "systemd-nspawn", "tesseract"})
    assert avoidable("needs Debian's chromium and chromium-driver", tools) == "chromium"
    assert avoidable("needs systemd-nspawn and mmdebstrap (.ci/run …)", tools) == "systemd-nspawn"
    assert avoidable("needs Debian's tesseract-ocr (.ci/run installs it)", tools) is None
    assert avoidable("needs Debian's tesseract-ocr", tools | {"tesseract-ocr"}) == "tesseract-ocr"
    assert avoidable("the seed rulebooks are not beside this repository", tools) is None


def run_skipping_tests(tmp_path: Path, **environ: str) -> subprocess.CompletedProcess[str]:
    """pytest over three skipping tests, with this repository's conftest and tool list."""
    (tmp_path / ".ci").mkdir()
    shutil.copy(REPOSITORY / ".ci" / "tools", tmp_path / ".ci" / "tools")
    (tmp_path / "tests").mkdir()
    shutil.copy(REPOSITORY / "tests" / "conftest.py", tmp_path / "tests" / "conftest.py")
    (tmp_path / "tests" / "test_skips.py").write_text(
        "import pytest\n"
        "def test_browser():\n    pytest.skip('needs chromium')\n"
        "@pytest.mark.skipif(True, reason='needs systemd-nspawn (.ci/run installs it)')\n"
        "def test_boot():\n    pass\n"
        "def test_rulebooks():\n    pytest.skip('the seed rulebooks are not here')\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "NSDEVICE_REQUIRE_CI_TOOLS")}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-rA",
         "tests"],
        cwd=tmp_path, capture_output=True, text=True, env={**env, **environ}, timeout=120,
    )  # fmt: skip


def test_off_ci_a_missing_tool_is_a_skip(tmp_path):
    result = run_skipping_tests(tmp_path)
    assert result.returncode == 0, result.stdout
    assert "3 skipped" in result.stdout


@pytest.mark.parametrize("variable", [{"CI": "true"}, {"NSDEVICE_REQUIRE_CI_TOOLS": "1"}])
def test_under_ci_a_skip_for_a_tool_ci_installs_fails(tmp_path, variable):
    result = run_skipping_tests(tmp_path, **variable)
    assert result.returncode == 1, result.stdout
    # a skip in the call fails the test; one in its setup (skipif) is an error: both fail
    assert "1 failed, 1 skipped, 1 error" in result.stdout
    assert "skipped for want of chromium, which .ci/run installs" in result.stdout
    assert "skipped for want of systemd-nspawn" in result.stdout


# --- the Debian mirror ----------------------------------------------------------------------


def mirror(etc: Path, **environ: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "NSDEVICE_DEBIAN_MIRROR"}
    return subprocess.run(
        [sys.executable, str(MIRROR_TOOL), "--etc", str(etc)],
        capture_output=True, text=True, env={**env, **environ}, timeout=30,
    )  # fmt: skip


def sources(etc: Path, name: str, text: str) -> None:
    folder = etc / "apt" / "sources.list.d"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")


def test_the_mirror_comes_from_a_deb822_sources_file_skipping_other_archives(tmp_path):
    sources(tmp_path, "extra.sources", "Types: deb\nURIs: http://example.test/node\n"
            "Suites: nodistro\nComponents: main\n")  # fmt: skip
    sources(tmp_path, "main.sources",
            "Types: deb\n# a comment\nURIs: http://mirror.example.test/debian-security\n"
            "Suites: bookworm-security\n\n"
            "Types: deb-src deb\nURIs: http://mirror.example.test/debian/\n"
            "Suites: bookworm bookworm-updates\nComponents: main\n")  # fmt: skip
    result = mirror(tmp_path)
    assert (result.returncode, result.stdout) == (0, "http://mirror.example.test/debian\n")


def test_the_mirror_comes_from_a_one_line_sources_list(tmp_path):
    (tmp_path / "apt").mkdir()
    (tmp_path / "apt" / "sources.list").write_text(
        "# deb http://commented.example.test/debian bookworm main\n"
        "deb [arch=amd64 signed-by=/usr/share/keyrings/x.gpg] http://proxy.test:3142/debian "
        "trixie main contrib\n"
    )
    assert mirror(tmp_path).stdout == "http://proxy.test:3142/debian\n"


def test_the_environment_wins_and_no_mirror_is_one_line_and_exit_2(tmp_path):
    sources(tmp_path, "off.sources", "Enabled: no\nTypes: deb\nURIs: http://x.test/debian\n"
            "Suites: bookworm\n")  # fmt: skip
    none = mirror(tmp_path)
    assert none.returncode == 2 and none.stdout == "" and none.stderr.count("\n") == 1
    assert "NSDEVICE_DEBIAN_MIRROR" in none.stderr
    chosen = mirror(tmp_path, NSDEVICE_DEBIAN_MIRROR="http://local.test/debian")
    assert chosen.stdout == "http://local.test/debian\n"
