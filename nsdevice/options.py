"""The command line's options, as typed data: one frozen dataclass per command.

`parse` turns argv into one of them (`RunOptions`, `DealOptions`, …); nothing past this
module reads an `argparse.Namespace`. Each dataclass's fields are its parser's
destinations, name for name: a flag added to a parser without its field (or the other
way round) fails on the first parse (`_options`), and tests/test_options.py checks every
flag against the command table (docs/reference/commands.md).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any, NoReturn

from nsdevice import __version__
from nsdevice.errors import UsageError
from nsdevice.hardware import backends
from nsdevice.locale import LANGUAGES
from nsdevice.rules.cities import CityName
from nsdevice.rules.deal import normalize_seed
from nsdevice.rules.frozen import dataclass

AUTO = "auto"
DISPLAYS = (AUTO, *backends.DISPLAYS)
INPUTS = (AUTO, *backends.INPUTS)
CITIES = tuple(c.value for c in CityName)


@dataclass(frozen=True, slots=True)
class RunOptions:
    """`nsdevice run`: the box. Strings stay as typed; `runner.planning.plan` checks them together
    (a size, a profile, keys that go with a script), since one flag's meaning hangs on
    another's."""

    display: str = AUTO
    input: str = AUTO
    keys: str | None = None  # with --input script: presses such as next,back,hold:menu
    pace: float | None = None  # with --input script: seconds between presses
    size: str | None = None  # WIDTHxHEIGHT
    hardware: str | None = None  # a profile's name or a .toml path
    port: str | None = None  # the serial button board's port
    state_dir: str | None = None
    shutdown_command: str | None = None
    web: str | None = None  # [HOST:]PORT of the phones' page
    no_web: bool = False
    phone_buttons: bool = False  # the controller's joined phone may press NEXT and BACK
    voice: bool = False  # say each card aloud (kept as the menu's Voice)
    language: str | None = None  # the box's language (kept)
    room: bool = False  # call the cards for a whole room of tables (issue 25)
    # the game: a one-table game's (or with --room, the room's) city, players, modules and
    # deal code, kept as the setup; a saved game of exactly that setup is resumed
    city: str | None = None
    players: int | None = None  # a one-table game's only: a room's tables choose their own
    seed: str | None = None  # the deal code (random if left out)
    modules: str | None = None  # comma-separated module names
    settings: str | None = None  # the card's nsdevice.toml: hardware, language, voice
    hotspot: str | None = None  # the box's own Wi-Fi, described while it is up (firstboot)


@dataclass(frozen=True, slots=True)
class DealOptions:
    city: str
    players: int
    modules: str = ""
    seed: str | None = None  # None: a random one
    json: bool = False
    room: bool = False  # also every table size's pencils, as a room game on this code plays


@dataclass(frozen=True, slots=True)
class ScoreOptions:
    city: str
    line: tuple[str, ...] = ()
    stamps: int = 0
    ring_unconnected: int = 0
    interchanges: str = ""
    overpasses_once: int = 0
    overpasses_twice: int = 0
    objectives: int = 0
    total: int | None = None
    solo_modules: int | None = None
    json: bool = False


@dataclass(frozen=True, slots=True)
class SimulateOptions:
    city: str
    rounds: int = 100_000
    seed: str = "SIMULATE"
    json: bool = False


@dataclass(frozen=True, slots=True)
class ScreenshotOptions:
    out: str
    size: str | None = None
    hardware: str | None = None


@dataclass(frozen=True, slots=True)
class ResultsOptions:
    files: tuple[str, ...]  # rooms' results files (CSV or JSON) played on one code
    csv: bool = False
    json: bool = False


@dataclass(frozen=True, slots=True)
class HwtestOptions:
    hardware: str
    timeout: float = 30.0


@dataclass(frozen=True, slots=True)
class FirstbootOptions:
    settings: str  # the card's nsdevice.toml
    root: str = "/"  # another tree (an image being built, a test): nothing is run there


@dataclass(frozen=True, slots=True)
class UpdateOptions:
    bundle: str  # a signed release bundle
    opt: str = "/opt/nsdevice"  # where the releases and `current` live
    public_key: str | None = None  # the release key (PEM); the one shipped when left out


Options = (
    RunOptions
    | DealOptions
    | ScoreOptions
    | SimulateOptions
    | ScreenshotOptions
    | ResultsOptions
    | HwtestOptions
    | FirstbootOptions
    | UpdateOptions
)
RUN_HELP = "run the box (window, Pi screen, terminal or JSON)"
COMMANDS: Mapping[str, type[Options]] = {
    "run": RunOptions,
    "deal": DealOptions,
    "score": ScoreOptions,
    "simulate": SimulateOptions,
    "screenshot": ScreenshotOptions,
    "results": ResultsOptions,
    "hwtest": HwtestOptions,
    "firstboot": FirstbootOptions,
    "update": UpdateOptions,
}


class Parser(argparse.ArgumentParser):
    def __init__(self, *arguments: Any, **options: Any) -> None:
        options.setdefault("formatter_class", _formatter)
        super().__init__(*arguments, **options)

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def _formatter(prog: str) -> argparse.HelpFormatter:
    """argparse's own formatter, told the terminal's width: asking it itself, argparse
    loads shutil, and with it the bz2 and lzma modules and libraries (0.6 MB of the box's
    memory, issue 35), each time a parser is made, though the box never prints its help."""
    return argparse.HelpFormatter(prog, width=_columns() - 2)


def _columns() -> int:
    """The terminal's width as shutil.get_terminal_size finds it: $COLUMNS, else the
    terminal's own, else 80."""
    with contextlib.suppress(KeyError, ValueError):
        if (columns := int(os.environ["COLUMNS"])) > 0:
            return columns
    with contextlib.suppress(AttributeError, ValueError, OSError):
        if sys.__stdout__ is not None:
            return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
    return 80


def parse(argv: Sequence[str] | None = None) -> Options:
    """argv (without the program name; None: sys.argv) as the command's options."""
    words = list(sys.argv[1:] if argv is None else argv)
    # `run` named first is parsed by a parser that has only it: the other commands'
    # arguments cost the box's start 8 M instructions on the Pi (issue 35); its help and
    # its errors read the same. Anything else meets every command.
    namespace = build_parser(run_only=words[:1] == ["run"]).parse_args(words)
    return _options(COMMANDS[namespace.command], vars(namespace))


def _options(kind: type[Options], parsed: Mapping[str, Any]) -> Options:
    # `append` collects a list; frozen data keeps a tuple
    values: dict[str, Any] = {
        key: tuple(value) if isinstance(value, list) else value
        for key, value in parsed.items()
        if key != "command"
    }
    names = {field.name for field in fields(kind)}
    if set(values) != names:  # a parser and its dataclass drifted apart: a bug, said plainly
        raise TypeError(f"{kind.__name__} fields {sorted(names)} != flags {sorted(values)}")
    return kind(**values)


def parse_size(text: str) -> tuple[int, int]:
    width, sep, height = text.lower().partition("x")
    if not (sep and width.isdigit() and height.isdigit()):
        raise ValueError(f"size must look like 480x320, not {text!r}")
    size = (int(width), int(height))
    if not (160 <= size[0] <= 4096 and 120 <= size[1] <= 4096):
        raise ValueError(f"size {text} is outside 160x120 to 4096x4096")
    return size


def _seed(text: str) -> str:
    try:
        return normalize_seed(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _players(text: str) -> int:
    try:
        players = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"players must be a number, not {text!r}") from None
    if not 1 <= players <= 4:
        raise argparse.ArgumentTypeError(f"players must be 1 to 4, not {players}")
    return players


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected zero or more, not {value}")
    return value


def _rounds(text: str) -> int:
    value = _count(text)
    if value == 0:
        raise argparse.ArgumentTypeError("expected at least 1 round")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, not {text!r}") from None
    if not 0 < value < 86_400:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(f"expected 0 to 86400 seconds (not 0), not {text}")
    return value


def _city(text: str) -> str:
    name = text.strip().lower()
    if name not in CITIES:
        raise argparse.ArgumentTypeError(f"unknown city {text!r} (choose {', '.join(CITIES)})")
    return name


def build_parser(*, run_only: bool = False) -> Parser:
    """The command line's parser: every command, or only `run`."""
    parser = Parser(prog="nsdevice", description="The Next Station table companion.")
    parser.add_argument("--version", action="version", version=f"nsdevice {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    if run_only:
        add_run_arguments(commands.add_parser("run", help=RUN_HELP))
        return parser

    run_box = commands.add_parser("run", help=RUN_HELP)
    add_run_arguments(run_box)

    deal = commands.add_parser("deal", help="print a whole game for a setup and seed")
    deal.add_argument("--city", type=_city, required=True)
    deal.add_argument("--players", type=_players, required=True)
    deal.add_argument("--modules", default="", help="comma-separated module names")
    deal.add_argument("--seed", type=_seed, help="1-16 letters or digits (random if left out)")
    deal.add_argument("--json", action="store_true")
    deal.add_argument(
        "--room", action="store_true", help="also each table size's pencils in a room game"
    )

    score = commands.add_parser("score", help="add up a final score; solo tier and penalty")
    score.add_argument("--city", type=_city, required=True)
    score.add_argument(
        "--line", action="append", default=[], help="Tokyo DxS; Paris DxS, or DxS+M (monuments)"
    )
    score.add_argument("--stamps", type=_count, default=0, help="Tokyo: in fives, 0 to 60")
    score.add_argument("--ring-unconnected", type=_count, default=0)
    score.add_argument("--interchanges", default="", help="LINES:COUNT,... e.g. 3:1,4:2")
    score.add_argument("--overpasses-once", type=_count, default=0)
    score.add_argument("--overpasses-twice", type=_count, default=0)
    score.add_argument("--objectives", type=_count, default=0)
    score.add_argument("--total", type=int, help="the final total instead of its parts")
    score.add_argument("--solo-modules", type=_count, help="modules played in a solo game")
    score.add_argument("--json", action="store_true")

    simulate = commands.add_parser("simulate", help="play many rounds; the rules speed benchmark")
    simulate.add_argument("--city", type=_city, required=True)
    simulate.add_argument("--rounds", type=_rounds, default=100_000)
    simulate.add_argument("--seed", type=_seed, default="SIMULATE")
    simulate.add_argument("--json", action="store_true")

    screenshot = commands.add_parser("screenshot", help="render every screen to PNG files")
    screenshot.add_argument("--out", required=True, help="folder for the PNG files")
    screenshot.add_argument("--size", default=None, help="WIDTHxHEIGHT (480x320)")
    screenshot.add_argument(
        "--hardware", default=None, help="a build's profile: its panel's size and button labels"
    )

    results = commands.add_parser(
        "results", help="merge rooms' results files on one code into one ranking"
    )
    results.add_argument("files", nargs="+", metavar="FILE", help="a room's results.csv or .json")
    form = results.add_mutually_exclusive_group()
    form.add_argument("--csv", action="store_true", help="the merged results as CSV")
    form.add_argument("--json", action="store_true", help="the merged results as JSON")

    hwtest = commands.add_parser("hwtest", help="check the buttons, LED and screen of a build")
    hwtest.add_argument("--hardware", required=True, help="profile name or .toml path")
    hwtest.add_argument("--timeout", type=_seconds, default=30.0, help="seconds to wait per button")

    firstboot = commands.add_parser(
        "firstboot", help="set up the system from the card's nsdevice.toml (root; every boot)"
    )
    firstboot.add_argument("--settings", required=True, help="the nsdevice.toml to follow")
    firstboot.add_argument(
        "--root", default="/", help="set up this tree instead of the running system"
    )

    update = commands.add_parser(
        "update", help="install a signed release bundle; keep it only once it is up"
    )
    update.add_argument("bundle", metavar="FILE", help="a release bundle (nsdevice-VERSION.tar)")
    update.add_argument(
        "--opt", default="/opt/nsdevice", help="where the releases live (/opt/nsdevice)"
    )
    update.add_argument("--public-key", default=None, help="the release key to check against (PEM)")
    return parser


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--display",
        choices=DISPLAYS,
        default=AUTO,
        help="where to draw (auto: window on a desktop, else the Pi's screen)",
    )
    parser.add_argument(
        "--input",
        choices=INPUTS,
        default=AUTO,
        help="where presses come from (auto: the hardware profile or keyboard)",
    )
    parser.add_argument(
        "--keys", default=None, help="with --input script: presses such as next,back,hold:menu"
    )
    parser.add_argument(
        "--pace", type=float, default=None, help="with --input script: seconds between presses"
    )
    parser.add_argument("--size", default=None, help="window size WIDTHxHEIGHT (480x320)")
    parser.add_argument("--hardware", default=None, help="hardware profile name or .toml path")
    parser.add_argument("--port", default=None, help="serial port of the button board")
    parser.add_argument("--state-dir", default=None, help="where the game is kept")
    parser.add_argument(
        "--shutdown-command", default=None, help="offer 'shut down' in the menu, running this"
    )
    parser.add_argument(
        "--web",
        default=None,
        metavar="[HOST:]PORT",
        help="serve the phones' page there (the service uses 0.0.0.0:8414)",
    )
    parser.add_argument(
        "--phone-buttons",
        action="store_true",
        help="with --web: the controller's joined phone may press NEXT and BACK",
    )
    parser.add_argument(
        "--no-web", action="store_true", help="no phones' page, whatever --web says"
    )
    parser.add_argument(
        "--voice", action="store_true", help="say each card aloud (kept as the menu's Voice)"
    )
    parser.add_argument(
        "--language", choices=LANGUAGES, default=None, help="the box's language (kept)"
    )
    parser.add_argument(
        "--room",
        action="store_true",
        help="call the cards for a whole room: every table on one deal, phones to join",
    )
    parser.add_argument(
        "--city", type=_city, default=None, help="the game's city (a saved game of it resumes)"
    )
    parser.add_argument(
        "--players", type=_players, default=None, help="the game's players, 1 to 4 (not --room)"
    )
    parser.add_argument(
        "--seed", type=_seed, default=None, help="the game's deal code (random if left out)"
    )
    parser.add_argument("--modules", default=None, help="the game's modules, comma-separated")
    parser.add_argument(
        "--settings",
        default=None,
        metavar="FILE",
        help="the card's nsdevice.toml: its hardware, language and voice",
    )
    parser.add_argument(
        "--hotspot",
        default=None,
        metavar="FILE",
        help="where the box's own Wi-Fi is described while it is up (the Phones screen)",
    )
