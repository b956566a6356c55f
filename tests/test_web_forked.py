"""The phones' page's process forked from the box before its hardware opens (issue 35:
the pages both need are shared, not loaded twice), as `nsdevice run --web` starts it: it
still serves from a process of its own, yields to the box, never maps pygame, and ends
with the box, killed or closed, told to serve or not."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.test_web_process import BOX, ENV, POLICY, ROOT, _stat, _state, free_port

# The box's order in `runner.run`: the page forked first, then pygame (the display), then
# the page told to serve after the first table.
FORKED_BOX = """
import os, sys
from nsdevice.runner.web import open_web, web_early
address = ("127.0.0.1", int(sys.argv[1]))
forked = web_early(address)
assert forked is not None, "no fork"
import pygame
pygame.display.init()  # the box's display, opened after the fork
from nsdevice.inputs.events import QueueInbox
from nsdevice.session import Session
web = open_web(address, QueueInbox(), forked=forked)
if sys.argv[2] == "serve":
    web.publish(Session().table())
    web.start()
    assert web.started.wait(30)
    assert web.process is forked
    print(forked.pid, flush=True)
    sys.stdin.read()
else:  # the box closes before its first frame: the page was never told to serve
    web.start()
    web.close()
    print(forked.pid, web.process.returncode, flush=True)
"""


def _box(mode: str) -> tuple[subprocess.Popen[str], int]:
    port = free_port()
    box = subprocess.Popen([sys.executable, "-c", FORKED_BOX, str(port), mode], cwd=ROOT,
                           env=ENV, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           text=True)  # fmt: skip
    return box, port


def _ends(process: Path) -> bool:
    deadline = time.monotonic() + 30
    while process.exists() and "Z" not in _state(process) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not process.exists() or "Z" in _state(process)


def test_the_forked_page_serves_yields_never_maps_pygame_and_ends_when_the_box_is_killed():
    box, port = _box("serve")
    try:
        assert box.stdout is not None
        pid = int(box.stdout.readline())
        page, own = Path(f"/proc/{pid}"), Path(f"/proc/{box.pid}")
        # forked, not a new interpreter: the box's own command line, and its child
        assert (page / "cmdline").read_bytes() == (own / "cmdline").read_bytes()
        assert _stat(page)[1] == box.pid  # the parent's pid
        assert "SDL" in (own / "maps").read_text()  # the box opened its display…
        maps = (page / "maps").read_text()
        assert "pygame" not in maps and "SDL" not in maps  # …after the fork
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as answer:
            assert answer.status == 200 and b"<html" in answer.read().lower()
        assert _stat(page)[16] > _stat(own)[16]  # it yields a busy processor to the box,
        assert _stat(page)[POLICY] == os.SCHED_IDLE  # in the idle class (the box is not)
        assert _stat(own)[POLICY] == os.SCHED_OTHER
        cores = os.sched_getaffinity(box.pid)  # and on one core of the box's
        assert os.sched_getaffinity(pid) == ({max(cores)} if len(cores) > 1 else cores)
        box.send_signal(signal.SIGKILL)
        box.wait(30)
        assert _ends(page), "the page outlived the box"
    finally:
        box.kill()
        box.wait(30)


def test_a_box_that_closes_before_its_first_frame_ends_its_forked_page():
    box, _ = _box("close")
    out, _ = box.communicate(timeout=60)
    pid, status = out.split()
    assert box.returncode == 0 and status == "0"
    assert _ends(Path(f"/proc/{pid}"))


THREADED = """
import threading
from nsdevice.web.forked import Forked
stop = threading.Event()
threading.Thread(target=stop.wait).start()
print(Forked.fork())
stop.set()
"""


def test_no_fork_once_a_thread_runs_the_box_then_starts_its_page_as_before():
    """A fork copies the other threads' locks, held or not: the box spawns the page then."""
    done = subprocess.run([sys.executable, "-c", THREADED], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "None"


def test_nsdevice_run_forks_its_page_and_neither_maps_openssl(tmp_path: Path):
    port = free_port()
    command = [sys.executable, "-m", "nsdevice", "run", "--display", "json", "--input",
               "keyboard", "--web", f"127.0.0.1:{port}", "--state-dir", str(tmp_path)]  # fmt: skip
    box = subprocess.Popen(command, cwd=ROOT, env=ENV, stdin=subprocess.PIPE,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)  # fmt: skip
    try:
        own = Path(f"/proc/{box.pid}")
        deadline = time.monotonic() + 60
        children: list[str] = []
        while not children and time.monotonic() < deadline:
            time.sleep(0.05)
            children = (own / "task" / str(box.pid) / "children").read_text().split()
        assert children, "no page's process"
        page = Path(f"/proc/{children[0]}")
        assert (page / "cmdline").read_bytes() == (own / "cmdline").read_bytes()
        assert os.path.basename(os.readlink(page / "exe")) == os.path.basename(
            os.readlink(own / "exe")
        )
        # serving, and neither process maps OpenSSL (issue 35: imports.without_openssl,
        # without_tls): the box's checksums and the page's keys on CPython's own SHA-256
        served = False
        while not served and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
                    served = answer.status == 200
            except OSError:
                time.sleep(0.1)
        assert served, "the page never served"
        for process in (own, page):
            maps = (process / "maps").read_text()
            assert "libcrypto" not in maps and "libssl" not in maps, process
    finally:
        box.kill()
        box.wait(30)


# `nsdevice run --web` up to its page's fork, which answers what the box has imported then.
AT_THE_FORK = """
import json, os, runpy, sys
import nsdevice.web.forked
def fork(cls):
    box_only = ("nsdevice.session", "nsdevice.session.screens", "nsdevice.store", "sqlite3")
    print(json.dumps([name for name in box_only if name in sys.modules]), flush=True)
    os._exit(0)
nsdevice.web.forked.Forked.fork = classmethod(fork)
sys.argv = ["nsdevice", "run", "--display", "json", "--input", "keyboard",
            "--web", "127.0.0.1:" + sys.argv[1], "--state-dir", sys.argv[2]]
runpy.run_module("nsdevice", run_name="__main__", alter_sys=True)
"""


def test_the_page_is_forked_before_the_box_imports_its_session_and_store(tmp_path: Path):
    """Issue 35: what the box alone runs (the session's screens, the store and SQLite) is
    imported after the fork: loaded before it, every page of it the box then rewrote
    stayed behind in the page's process as a stale copy (the page's memory 1 MB more)."""
    command = [sys.executable, "-c", AT_THE_FORK, str(free_port()), str(tmp_path)]
    done = subprocess.run(command, cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("forked", [True, False], ids=["forked", "spawned"])
def test_the_pages_process_never_imports_starlette_anyio_or_uvicorn(forked: bool):
    """Issue 35: the page answers through its own ASGI layer (web.asgi), not Starlette and
    anyio (2.7 MB of the page's memory), and serves with its own server on asyncio and h11
    (web.serving), not uvicorn (0.7 MB). Python's own import log (PYTHONPROFILEIMPORTTIME,
    which a forked or spawned page keeps) names each module either process loads, whether
    starting or answering; the box's own imports hold no server (test_web_run)."""
    port = free_port()
    script, mode = (FORKED_BOX, ["serve"]) if forked else (BOX, [])
    box = subprocess.Popen([sys.executable, "-c", script, str(port), *mode], cwd=ROOT,
                           env={**ENV, "PYTHONPROFILEIMPORTTIME": "1"}, stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert box.stdout is not None
        box.stdout.readline()  # the page serves
        for path in ("/", "/state", "/symbol/none.png", "/nowhere"):
            with contextlib.suppress(urllib.error.HTTPError):  # a 404 is an answer too
                urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30).close()
        _, log = box.communicate("", timeout=60)  # the box ends, and its page with it
    finally:
        box.kill()
        box.wait(30)
    imported = {line.rpartition("|")[2].strip() for line in log.splitlines()
                if line.startswith("import time:")}  # fmt: skip
    assert {"h11", "nsdevice.web.serving", "nsdevice.web.asgi"} <= imported  # the page's
    others = ("starlette", "anyio", "uvicorn")
    assert sorted(name for name in imported if name.partition(".")[0] in others) == []
