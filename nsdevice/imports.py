"""Parts of a library without its package `__init__` (issue 23: the box's start and memory).

Some libraries' `__init__` imports everything they have: gpiozero's every device family
(boards, SPI devices, tones). The box needs a few of its modules. `without_init("gpiozero")`
puts the package's module in place with its `__init__` not run, so `from
gpiozero.input_devices import Button` loads only what that needs. The first time anything
else is asked of the package itself (`gpiozero.Device`), its `__init__` runs then: the
package stays whole for whoever needs all of it.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Mapping
from types import ModuleType
from typing import Any


def without_init(name: str, parts: Mapping[str, str] | None = None) -> None:
    """Make package `name` importable part by part (an ImportError when it is not
    installed; nothing to do when it is already imported). `parts` names what the
    package's own names are, as "module" or "module:name", for those a caller reads from
    the package itself (`pygame.Surface`, `pygame.draw`): each is imported when first read,
    and anything else read from the package runs its `__init__`."""
    if name not in sys.modules:
        sys.modules[name] = _package(name, parts or {})


def held_back(package: str, parts: tuple[str, ...]) -> None:
    """Keep `parts` of `package` from loading with its `__init__`, which tries every part
    and carries on without those that fail to import (pygame's: its sound modules and the
    codec libraries they map, ~3 MB, on a box whose voice may be off), whenever that
    `__init__` runs. `part` loads one when it is first needed; a part already loaded stays."""
    modules: dict[str, Any] = sys.modules  # where None says "not importable"
    for name in parts:
        modules.setdefault(f"{package}.{name}", None)


def part(name: str) -> ModuleType:
    """Module `name` (e.g. "pygame.mixer"), loaded now if `held_back` kept its package's
    parts back (all of them come back: one part may import another)."""
    package = name.rpartition(".")[0]
    for held in [key for key, module in sys.modules.items() if module is None]:
        if held.startswith(f"{package}."):
            del sys.modules[held]
    return importlib.import_module(name)


def gpiozero_by_parts() -> None:
    """gpiozero made importable part by part (`without_init`), and its devices module
    spared importlib.metadata (issue 35: 1.5 MB with the email, zipfile and csv modules it
    loads). gpiozero imports `entry_points` only to look up a pin factory named in
    GPIOZERO_PIN_FACTORY, and tries the `importlib_metadata` backport first: it gets one
    whose `entry_points` loads the standard library's when called; anything else asked of
    it comes from the standard library's too.

    Nor do buttons load what gpiozero's input and pin modules import for other devices
    (issue 35: 0.5 MB of the box's memory): `statistics`, whose median and mean a smoothed
    sensor averages with, and colorzero, whose `Color` an RGB LED answers its colour as when
    asked (the box only sets it, from a tuple); both load fractions and decimal. Each is a
    stand-in whose functions load the real module when first called; anything else read of
    it loads it too."""
    modules: dict[str, Any] = sys.modules
    if "importlib_metadata" not in modules:
        modules["importlib_metadata"] = _metadata_when_asked()
    if "gpiozero" not in modules:  # its modules not imported yet: none has taken the real ones
        called = {"statistics": ("median", "mean"), "colorzero": ("Color",)}
        for name, functions in called.items():
            modules.setdefault(name, _calls_when_called(name, functions))
    without_init("gpiozero")


def _metadata_when_asked() -> ModuleType:
    module = ModuleType("importlib_metadata", "importlib.metadata, loaded when first asked")

    def entry_points(**selection: Any) -> Any:
        return importlib.import_module("importlib.metadata").entry_points(**selection)

    def __getattr__(key: str) -> Any:
        if key.startswith("__"):  # the import system's own questions (`__path__`…)
            raise AttributeError(key)
        return getattr(importlib.import_module("importlib.metadata"), key)

    module.entry_points = entry_points  # type: ignore[attr-defined]
    module.__getattr__ = __getattr__  # type: ignore[method-assign]
    return module


def without_openssl() -> None:
    """hashlib and hmac on CPython's own SHA-2 and HMAC, never OpenSSL's (issue 35): its
    libcrypto is 3 MB of the box's memory, for a checksum of a few kB a save (and the page's
    keys). Both modules are written to go without `_hashlib`, with the same digests. To call
    before anything imports hashlib: a process that has loaded `_hashlib` keeps it."""
    modules: dict[str, Any] = sys.modules  # where None says "not importable"
    modules.setdefault("_hashlib", None)


def lean_asyncio() -> None:
    """asyncio for the phones' page (issue 35) without what it never uses there:
    - `ssl`: the page serves plain HTTP, and `ssl` is 1.8 MB of anonymous memory with
      OpenSSL's two libraries. asyncio is written to go without it and keeps that.
    - `subprocess` (with `_posixsubprocess` and `fcntl`): asyncio imports it for its
      subprocess transports, which the page never starts; asyncio.subprocess reads its
      three constants as it loads, which the stand-in has, and anything else read of it
      loads the real module (`_when_used`).
    - `logging` (0.3 MB): asyncio and concurrent.futures each ask for a logger as they
      load and write to it only on an error; each gets one that loads logging then
      (`_logger_when_used`). asyncio.futures reads `logging.DEBUG` as it loads: the
      stand-in has the levels.
    Whatever imports any of them later gets the real one. Nothing to do once asyncio is
    loaded; a module loaded already stays."""
    modules: dict[str, Any] = sys.modules  # where None says "not importable"
    if "asyncio" in modules:
        return
    tls = "ssl" not in modules
    if tls:
        modules["ssl"] = None
    stand_ins = []
    if "subprocess" not in modules:
        stand_in = modules["subprocess"] = _when_used("subprocess")
        for constant, value in (("PIPE", -1), ("STDOUT", -2), ("DEVNULL", -3)):
            setattr(stand_in, constant, value)  # subprocess's own values
        stand_ins.append(stand_in)
    if "logging" not in modules:
        stand_ins.append(_logging_when_used())
    try:
        importlib.import_module("asyncio")
    finally:
        if tls and modules.get("ssl", False) is None:
            del modules["ssl"]
        for stand_in in stand_ins:
            if modules.get(stand_in.__name__) is stand_in:
                del modules[stand_in.__name__]


LEVELS = {"CRITICAL": 50, "ERROR": 40, "WARNING": 30, "INFO": 20, "DEBUG": 10, "NOTSET": 0}


def _logging_when_used() -> ModuleType:
    """A stand-in for `logging` (put in `sys.modules`): its levels, and `getLogger` giving
    a logger that loads the real module when first used; anything else read of it loads
    the real module."""
    stand_in = _when_used("logging")
    for level, value in LEVELS.items():  # logging's own values
        setattr(stand_in, level, value)
    stand_in.getLogger = _LoggerWhenUsed  # type: ignore[attr-defined]
    sys.modules["logging"] = stand_in
    return stand_in


class _LoggerWhenUsed:
    """The logger of that name, looked up (logging loaded) only when first used. Its debug
    and info lines, while logging is not loaded, are dropped as logging would drop them:
    nothing can have set a level or a handler yet, and the default is WARNING (asyncio's
    loop says "Using selector" as it starts)."""

    def __init__(self, name: str | None = None) -> None:
        self._name = name

    def debug(self, *arguments: Any, **options: Any) -> None:
        if _logging_loaded():
            self.__getattr__("debug")(*arguments, **options)

    def info(self, *arguments: Any, **options: Any) -> None:
        if _logging_loaded():
            self.__getattr__("info")(*arguments, **options)

    def __getattr__(self, key: str) -> Any:
        stand_in = sys.modules.get("logging")
        if isinstance(stand_in, ModuleType) and getattr(stand_in, "getLogger", None) is (
            _LoggerWhenUsed
        ):
            del sys.modules["logging"]
        real = importlib.import_module("logging").getLogger(self._name)
        return getattr(real, key)


def _logging_loaded() -> bool:
    """Whether the real logging module is loaded (not the stand-in)."""
    module = sys.modules.get("logging")
    return module is not None and getattr(module, "getLogger", None) is not _LoggerWhenUsed


class _CallsWhenCalled(ModuleType):
    """A stand-in module whose functions load the real module when first called."""


def loaded_when_used(name: str) -> None:
    """Module `name` loaded only when something first reads from it, not when imported (a
    module a library imports for what the box never asks of it); nothing to do when it is
    loaded already."""
    if name not in sys.modules:
        sys.modules[name] = _when_used(name)
        package, _, child = name.rpartition(".")
        if package:  # as the import system sets a submodule on its package
            setattr(importlib.import_module(package), child, sys.modules[name])


def _calls_when_called(name: str, functions: tuple[str, ...]) -> ModuleType:
    """A stand-in for module `name` whose `functions` call the real module's, loading it
    then; anything else read of it is read from the real module."""
    stand_in = _CallsWhenCalled(name, f"{name}, loaded when first called")

    def real() -> ModuleType:
        if sys.modules.get(name) is stand_in:
            del sys.modules[name]
        return importlib.import_module(name)

    def calling(function: str) -> Any:
        def call(*arguments: Any, **options: Any) -> Any:
            return getattr(real(), function)(*arguments, **options)

        call.__name__ = call.__qualname__ = function
        return call

    def __getattr__(key: str) -> Any:
        if key.startswith("__"):  # the import system's own questions (`__path__`…)
            raise AttributeError(key)
        return getattr(real(), key)

    for function in functions:
        setattr(stand_in, function, calling(function))
    stand_in.__getattr__ = __getattr__  # type: ignore[method-assign]
    return stand_in


def _when_used(name: str) -> ModuleType:
    """A stand-in for module `name`, whose first attribute read loads the real module in its
    place (the import system then sets it on its package too) and answers from it."""
    stand_in = ModuleType(name, f"{name}, loaded when first used")

    def __getattr__(key: str) -> Any:
        if key.startswith("__"):  # the import system's own questions (`__path__`…)
            raise AttributeError(key)
        if sys.modules.get(name) is stand_in:
            del sys.modules[name]
        return getattr(importlib.import_module(name), key)

    stand_in.__getattr__ = __getattr__  # type: ignore[method-assign]
    return stand_in


def _package(name: str, parts: Mapping[str, str]) -> ModuleType:
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ImportError(f"{name} is not installed")
    package = importlib.util.module_from_spec(spec)
    loader = spec.loader
    whole: list[bool] = []

    def __getattr__(key: str) -> Any:  # the rest of the package: run its __init__ now
        if key in parts and not whole:
            module, _, attribute = parts[key].partition(":")
            value = importlib.import_module(module)
            value = getattr(value, attribute) if attribute else value
            setattr(package, key, value)
            return value
        if not whole:
            whole.append(True)
            loader.exec_module(package)
            if key in vars(package):
                return vars(package)[key]
        raise AttributeError(f"module {name!r} has no attribute {key!r}")

    package.__getattr__ = __getattr__  # type: ignore[method-assign]
    return package
