"""`nsdevice run --web`: the command line's options, and the page served by a real run,
started only after the box's first frame."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from nsdevice.session import Capabilities, Settings
from nsdevice.session.screens import SCREENS
from nsdevice.session.screens.menu import menu_rows
from nsdevice.web.server import parse_address


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run(*argv: str, timeout: float = 30) -> subprocess.CompletedProcess:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    command = [sys.executable, "-m", "nsdevice", "run", *argv]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)


def test_parse_address():
    assert parse_address("8414") == ("0.0.0.0", 8414)
    assert parse_address("127.0.0.1:9000") == ("127.0.0.1", 9000)
    assert parse_address("[::1]:9000") == ("::1", 9000)
    for bad in ("", "x", "0", "70000", "host:", "host:port"):
        with pytest.raises(ValueError):
            parse_address(bad)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("--web", "nowhere"), "--web wants [HOST:]PORT"),
        (("--pace", "1"), "--pace goes with --input script"),
        (("--input", "script", "--keys", "next", "--pace", "-1"), "--pace is 0 to 60"),
    ],
)
def test_bad_web_and_pace_options_say_one_line_and_exit_2(tmp_path, argv, said):
    result = run("--display", "json", "--state-dir", str(tmp_path), *argv)
    assert result.returncode == 2
    assert said in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_no_web_wins_over_web(tmp_path):
    port = free_port()
    result = run("--display", "json", "--input", "script", "--keys", "menu",
                 "--pace", "0.5", "--state-dir", str(tmp_path),
                 "--web", f"127.0.0.1:{port}", "--no-web")  # fmt: skip
    assert result.returncode == 0
    with socket.socket() as probe:  # nothing listens there
        assert probe.connect_ex(("127.0.0.1", port)) != 0


def _table(port: int) -> dict | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/state", timeout=2) as answer:
            return json.loads(answer.read())
    except OSError:
        return None


def _next_table(port: int, after: int, seconds: float) -> dict | None:
    """The page's first table numbered past `after`, or None after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        table = _table(port)
        if table is not None and table["number"] > after:
            return table
        time.sleep(0.1)
    return None


def test_a_run_serves_the_table_live_and_the_menu_offers_phones(tmp_path):
    """The keys come through the terminal, each once the page has shown the last: the server
    loads after the box's first frame, which under emulation takes many seconds, and a
    timed script would have ended before the page could watch it."""
    port = free_port()
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    command = [sys.executable, "-m", "nsdevice", "run", "--display", "json", "--input",
               "keyboard", "--state-dir", str(tmp_path), "--web", f"127.0.0.1:{port}"]  # fmt: skip
    box = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env)  # fmt: skip
    assert box.stdin is not None
    try:
        table = _next_table(port, -1, 120)
        assert table is not None, "the page never answered"
        tables = [table]
        # power-on's dealt summary, then round start and its first two cards
        for key in "nnn":
            box.stdin.write(key.encode())
            box.stdin.flush()
            table = _next_table(port, tables[-1]["number"], 30)
            assert table is not None, f"the page did not follow the box after {key!r}"
            tables.append(table)
        assert [t["screen"] for t in tables[-2:]] == ["turn", "turn"]
        assert tables[-1]["city"] and tables[-1]["players"] >= 1
        # the menu over the turn, down to the phones row (found by its key), opened; then
        # the end of input ends the run
        rows = menu_rows(Settings(), Capabilities(phones=("http://x/",)), True, SCREENS.values())
        down = [row.key for row in rows].index("phones")
        out, err = box.communicate(b"m" + b"n" * down + b"m", timeout=60)
    finally:
        box.kill()
    assert box.returncode == 0, err
    screens = [json.loads(line) for line in out.decode().splitlines()]
    phones = [s for s in screens if s["screen"] == "phones"]
    assert phones and phones[0]["addresses"] == [f"http://127.0.0.1:{port}/"]
    assert len(phones[0]["code"]) == 8 and phones[0]["code"].isdigit()


def test_the_box_never_loads_the_pages_server_before_or_after_its_first_frame():
    script = (
        "import sys, time\n"
        "from nsdevice.inputs.events import QueueInbox\n"
        "from nsdevice.runner.web import open_web as _open_web\n"
        "from nsdevice.session import Session\n"
        "web = _open_web(('127.0.0.1', 0), QueueInbox())\n"
        "web.start(); time.sleep(0.5)\n"
        "before = [m for m in ('uvicorn', 'starlette', 'asyncio') if m in sys.modules]\n"
        "web.publish(Session().table())\n"
        "assert web.started.wait(20)\n"
        "after = [m for m in ('uvicorn', 'starlette', 'asyncio') if m in sys.modules]\n"
        "web.close(); print(before, after)\n"
    )
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=60, env=env)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[] []"  # the page serves from its own process (issue 32)


@pytest.mark.parametrize("flags", [("--phone-buttons",), ()])
def test_phone_buttons_reach_the_page_as_the_readme_says(tmp_path, flags):
    """`nsdevice run --web … --phone-buttons` (once refused as an unknown argument): the
    page tells phones the controller's may press; without the flag it may not."""
    port = free_port()
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    command = [sys.executable, "-m", "nsdevice", "run", "--display", "json", "--input",
               "keyboard", "--state-dir", str(tmp_path), "--web", f"127.0.0.1:{port}",
               *flags]  # fmt: skip
    box = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, env=env)  # fmt: skip
    try:
        table = _next_table(port, -1, 120)
        _, err = box.communicate(b"", timeout=60)  # the end of input ends the run
    finally:
        box.kill()
    assert table is not None, err
    assert box.returncode == 0, err
    assert table["buttons"] is bool(flags)
