"""uvicorn's server and its settings, without its command line.

`import uvicorn` runs the package's `__init__`, which imports `uvicorn.main`: click, the
multiprocessing supervisors and the rest of a command line the box never runs, 2.3 MB of
the Display HAT Mini build's memory (issue 23). The page needs only `uvicorn.config` and
`uvicorn.server`; they are loaded under the package's module with its `__init__` not run
yet. Anything else asked of the package later (`uvicorn.run`, `uvicorn.__version__`) runs
that `__init__` then, so the package stays whole for whoever needs all of it.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType
from typing import Any


def load_without_command_line() -> None:
    """Load `uvicorn.config` and `uvicorn.server`; ImportError when uvicorn is missing."""
    if "uvicorn" not in sys.modules:
        sys.modules["uvicorn"] = _package_without_init()
    from uvicorn.config import Config
    from uvicorn.server import Server

    package = sys.modules["uvicorn"]
    # what uvicorn's own modules take from the package (its lifespan: `from uvicorn import Config`)
    for name, value in (("Config", Config), ("Server", Server)):
        if name not in vars(package):
            setattr(package, name, value)


def _package_without_init() -> ModuleType:
    spec = importlib.util.find_spec("uvicorn")
    if spec is None or spec.loader is None:
        raise ImportError("uvicorn is not installed")
    package = importlib.util.module_from_spec(spec)
    loader = spec.loader
    whole: list[bool] = []

    def __getattr__(name: str) -> Any:  # the rest of the package: run its __init__ now
        if not whole:
            whole.append(True)
            loader.exec_module(package)
            if name in vars(package):
                return vars(package)[name]
        raise AttributeError(f"module 'uvicorn' has no attribute {name!r}")

    package.__getattr__ = __getattr__  # type: ignore[method-assign]
    return package
