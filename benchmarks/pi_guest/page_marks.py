"""Runs inside the arm64 userland under qemu (benchmarks/pi_cost.py): the phones' page's
own process, `nsdevice.web.process`, as the box starts it, with a thread that calls
getppid() (the counting plugin's mark) for each line written to FIFO; tv_presses.py
writes one at each of its own marks, so the page's count is read at the same moments.

    python page_marks.py FIFO -m nsdevice.web.process SOCKET BUSY

pi_cost.py's wrapper stands for the box's Python when it starts the page (the box runs
`sys.executable -m nsdevice.web.process SOCKET BUSY`).
"""

from __future__ import annotations

import os
import sys
import threading


def marks(fifo: str) -> None:
    with open(fifo) as lines:
        for _ in lines:
            os.getppid()


def main() -> int:
    fifo, option, module, *arguments = sys.argv[1:]
    if option != "-m":
        print("page_marks.py: FIFO -m MODULE ARGUMENTS...", file=sys.stderr)
        return 2
    threading.Thread(target=marks, args=(fifo,), daemon=True).start()
    from importlib import import_module

    started: int = import_module(module).main(arguments)
    return started


if __name__ == "__main__":
    sys.exit(main())
