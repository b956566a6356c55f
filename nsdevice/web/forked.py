"""The phones' page's process forked from the box early (issue 35): shared pages, not copies.

Started as a new interpreter, the page loaded its own copy of everything both processes
need (the interpreter's own modules, the rules, the views, the payload's words): about
10 MB counted twice. Forked from the box before the box opens its hardware (no pygame, no
display, no thread yet), it shares those pages with the box instead, as long as neither
writes them: `gc.freeze()` first, so that neither process's collector writes to the
objects they share.

The forked process waits, doing nothing, until the box's first frame is out: then the box
(`web.server.WebSide`) sends it the word to serve with the loop's `Busy` byte, and it
becomes the page (`web.process.forked`), importing its server only then. It ends as the
spawned page does, when the box's end of its socket closes (the box closing, or killed);
a box that never serves (no first frame, the page off) just closes it.

Where a thread already runs (a fork would copy its locks held), `fork` answers None and
the box starts the page as a new interpreter, as before.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import os
import signal
import socket
import sys
import threading

GO = b"G"  # the box's word to serve, carrying the Busy byte's descriptor


class Forked:
    """The page's process, forked and waiting; shaped as the `subprocess.Popen` that the
    box otherwise starts (pid, returncode, wait, kill)."""

    def __init__(self, pid: int, mine: socket.socket) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._mine: socket.socket | None = mine

    @classmethod
    def fork(cls) -> Forked | None:
        """The page's process, forked now; None where a thread runs already."""
        if threading.active_count() != 1:
            return None
        mine, theirs = socket.socketpair()
        for stream in (sys.stdout, sys.stderr):
            stream.flush()  # else the child would write the box's buffered lines again
        gc.freeze()  # what exists now is shared: neither collector writes to it
        pid = os.fork()
        if pid == 0:  # the page's process: never returns
            mine.close()
            _wait_then_serve(theirs)
        theirs.close()
        return cls(pid, mine)

    def go(self, busy: int) -> socket.socket:
        """The box's end of the page's socket, once the page is told to serve."""
        mine = self.take()
        socket.send_fds(mine, [GO], [busy])
        return mine

    def take(self) -> socket.socket:
        if self._mine is None:
            raise RuntimeError("the forked page was told to serve already")
        mine, self._mine = self._mine, None
        return mine

    def close(self) -> None:
        """For a box that never serves: the page's process ends (its socket closes)."""
        if self._mine is not None:
            self._mine.close()
            self._mine = None
        import subprocess  # (only here and in `wait`: the box's start needs none of it)

        with contextlib.suppress(subprocess.TimeoutExpired):
            self.wait(0)

    def poll(self) -> int | None:
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid == self.pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if timeout is None:
            _, status = os.waitpid(self.pid, 0)
            self.returncode = os.waitstatus_to_exitcode(status)
            return self.returncode
        done = threading.Event()
        while self.poll() is None:  # no waitpid with a timeout: a child ends in ms
            if timeout <= 0:
                import subprocess

                raise subprocess.TimeoutExpired(f"page {self.pid}", timeout)
            done.wait(0.01)
            timeout -= 0.01
        assert self.returncode is not None
        return self.returncode

    def kill(self) -> None:
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, 9)


def _wait_then_serve(theirs: socket.socket) -> None:
    """In the forked process: wait for the box's word, serve, and end (never return into
    the box's own code, whose stack this process still holds)."""
    status = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the box's to handle
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)  # the box's input is not the page's
        os.dup2(null, 1)  # nor its output: `--display json` writes its screens there
        os.close(null)
        _, descriptors, _, _ = socket.recv_fds(theirs, 1, 1)
        if descriptors:
            # by name: the box's own modules never import the server (import-linter); this
            # process is the page's, no longer the box's
            process = importlib.import_module("nsdevice.web.process")
            status = process.forked(theirs, descriptors[0])
        else:
            status = 0  # the box closed without serving
    except BaseException:  # whatever it is, this process must end here
        import traceback

        traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stderr.flush()
        os._exit(status)
