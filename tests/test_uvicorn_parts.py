"""nsdevice.web.uvicorn_parts: uvicorn's server without its command line (issue 23's memory)."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
import sys
from nsdevice.web.uvicorn_parts import load_without_command_line
load_without_command_line()
from uvicorn.config import Config
from uvicorn.server import Server
import uvicorn.lifespan.on  # takes Config from the package
print(sorted(m for m in ("click", "multiprocessing", "uvicorn.main") if m in sys.modules))
import uvicorn
print(callable(uvicorn.run), uvicorn.__version__ != "", "click" in sys.modules)
"""


def test_the_page_server_loads_without_click_and_the_package_stays_whole() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=60, check=True
    )
    # nothing of the command line until someone asks the package for more
    assert done.stdout.splitlines() == ["[]", "True True True"]
