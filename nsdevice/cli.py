"""`nsdevice` on the command line: run the box, or use the rules core directly.

The one dispatcher: `options.parse` turns argv into one frozen dataclass per command, and
`command` hands it to its `command_*` function here; running the box and checking a build
are planned and opened by `runner`. A user's mistake is one
line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import json
import os
import random
import stat
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from nsdevice.errors import UsageError
from nsdevice.options import (
    DealOptions,
    FirstbootOptions,
    HwtestOptions,
    Options,
    ResultsOptions,
    RunOptions,
    ScoreOptions,
    ScreenshotOptions,
    SimulateOptions,
    UpdateOptions,
    parse,
    parse_size,
)
from nsdevice.rules import scoring
from nsdevice.rules.cards import StationCard
from nsdevice.rules.cities import CityName, city
from nsdevice.rules.deal import Deal, Round, Setup, deal_as_dict, deal_game, draw_seed
from nsdevice.rules.modules import Module, mixes_card_modules, parse_modules
from nsdevice.rules.room import (
    NAME_LENGTH,
    Result,
    RoomKey,
    merge,
    rank,
    read_results,
    results_csv,
    results_json,
    table_rounds,
)
from nsdevice.runner import check_hardware, run

USAGE_ERROR = 2
ECHO_LIMIT = 80  # characters of an argument echoed in an error line
LINE_LIMIT = 400  # room for a cause and its fix (missing_hardware), still one line
# bytes: a full room (99 tables of 4) writes about 25 kB, so 1 MB holds some forty full
# rooms merged; a bigger file is not a room's results (issue 32), and reading one this
# size takes about a second
RESULTS_FILE_LIMIT = 1_000_000


def readable(message: str, argv: Sequence[str] = ()) -> str:
    """One line a person can read: echoed arguments cut to `ECHO_LIMIT` characters with an
    ellipsis, characters that are not printable (newlines, escapes, bytes that were not
    UTF-8) written as escapes, and the whole line at most `LINE_LIMIT` characters."""
    for argument in sorted(argv, key=len, reverse=True):
        if len(argument) > ECHO_LIMIT:
            for form in (repr(argument)[1:-1], argument):
                message = message.replace(form, _cut(form))
    message = "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)
    message = " ".join(_cut(word) for word in message.split(" "))
    return _cut(message, LINE_LIMIT, keep_end=False)


def _cut(text: str, limit: int = ECHO_LIMIT, *, keep_end: bool = True) -> str:
    """`text` in at most `limit` characters. A long word loses its middle, not its end:
    the end of a path is the file's name, what a person needs to see."""
    if len(text) <= limit:
        return text
    if not keep_end:
        return text[: limit - 1] + "…"
    head = limit // 3
    return text[:head] + "…" + text[len(text) - (limit - head - 1) :]


def _face(card: StationCard) -> str:
    face = card.symbol or card.special
    assert face is not None  # every card has a symbol or a special (StationCard checks)
    return f"{card.kind.value} {face.value}"


def _print_deal(deal: Deal) -> None:
    setup = deal.setup
    modules = ", ".join(m.value for m in setup.modules) or "none"
    print(f"{setup.city.value.title()}, {setup.players} player(s), modules: {modules}")
    print(f"seed: {setup.seed}")
    if deal.objectives:
        print(f"objectives: {', '.join(deal.objectives)}")
    if deal.city_gates:
        print("city gates: " + ", ".join(f"{c} {b}" for c, b in deal.city_gates))
    if deal.pencil_powers:
        print("pencil powers: " + ", ".join(f"{c} {p}" for c, p in deal.pencil_powers))
    if deal.solo_order:
        print(f"pencil order: {', '.join(deal.solo_order)}")
    for round_ in deal.rounds:
        pencils = ", ".join(f"{slot} {colour}" for slot, colour in round_.pencils)
        print(f"\nround {round_.number}: controller seat {round_.controller}; pencils {pencils}")
        if round_.pairing:
            print(f"  pairing: {round_.pairing.symbol.value} -> {round_.pairing.effect}")
        for turn in round_.turns:
            faces = " + ".join(_face(card) for card in turn.cards)
            notes = []
            if turn.switch_effect is False:
                notes.append("switch: no effect")
            if turn.paired_effect:
                active = "" if turn.paired_effect_active else " (no effect)"
                notes.append(f"paired: {turn.paired_effect}{active}")
            extra = f"  [{'; '.join(notes)}]" if notes else ""
            print(f"  {turn.number:2}. {faces}  (underground {turn.underground_seen}/5){extra}")


def command_deal(args: DealOptions) -> int:
    modules = _modules(args.modules, "nsdevice deal")
    seed = args.seed or draw_seed(random.SystemRandom())
    deal = deal_game(Setup(CityName(args.city), args.players, modules, seed))
    if mixes_card_modules(modules):
        print(
            "warning: the rulebooks advise one of special_stations, city_gates and "
            "pencil_powers at a time",
            file=sys.stderr,
        )
    tables = [table_rounds(deal.setup, size) for size in range(1, 5)] if args.room else []
    if args.json:
        data = deal_as_dict(deal)
        if args.room:  # keyed by table size, as a phone picks its row (room-spec.md)
            data["room"] = {str(n): _pencil_rows(rounds) for n, rounds in enumerate(tables, 1)}
        print(json.dumps(data, indent=1))
    else:
        _print_deal(deal)
        if args.room:
            print("\nroom: every table of a size, in any room on this code, passes these pencils")
            for size, rounds in enumerate(tables, start=1):
                for round_ in rounds:
                    pencils = ", ".join(f"{slot} {colour}" for slot, colour in round_.pencils)
                    print(
                        f"  table of {size}, round {round_.number}: "
                        f"controller seat {round_.controller}; pencils {pencils}"
                    )
    return 0


def _pencil_rows(rounds: Sequence[Round]) -> list[dict[str, Any]]:
    return [
        {"number": r.number, "controller": r.controller, "pencils": dict(r.pencils)}
        for r in rounds
    ]


def _modules(text: str, command: str) -> tuple[Module, ...]:
    try:
        return parse_modules(text)
    except ValueError as error:
        raise UsageError(f"{command}: {error}") from None


def _interchanges(text: str, allowed: Sequence[int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        lines, sep, count = part.partition(":")
        if not (sep and lines.isdigit() and count.isdigit()) or int(lines) not in allowed:
            keys = ", ".join(f"{n}:COUNT" for n in allowed)
            raise UsageError(f"nsdevice score: bad --interchanges {part!r} (use {keys})")
        counts[int(lines)] = counts.get(int(lines), 0) + int(count)
    return counts


def _line(text: str, with_monuments: bool) -> tuple[int, int, int]:
    """A line as its sheet writes it: DxS, and in Paris +M when it has monuments (a
    line without any is DxS, as on the sheet)."""
    body, plus, monuments = text.partition("+")
    districts, times, stations = body.lower().partition("x")
    parts = [districts, stations] + ([monuments] if plus else [])
    shape = "DxS or DxS+M, e.g. 7x5+5" if with_monuments else "DxS, e.g. 5x4"
    if not times or (plus and not with_monuments) or not all(p.isdigit() for p in parts):
        raise UsageError(f"nsdevice score: bad --line {text!r} (use {shape})")
    return int(districts), int(stations), int(monuments) if plus else 0


def _sheet_score(args: ScoreOptions) -> tuple[int, list[int]]:
    """The total through the same sheet the box walks through (scoring.sheet_total), and
    each given line's points; lines not given count 0."""
    town = city(args.city)
    items = scoring.sheet_items(town, objectives=True)
    paris = town.line_scoring == "quarters"
    table = scoring.PARIS_INTERCHANGES if paris else scoring.TOKYO_INTERCHANGES
    counts = _interchanges(args.interchanges, tuple(table))
    width = len(scoring.LINE_COUNTS[town.line_scoring])
    lines = [_line(text, paris)[:width] for text in args.line]
    given = {
        "stamps": args.stamps,
        "ring_unconnected": args.ring_unconnected,
        "overpasses_once": args.overpasses_once,
        "overpasses_twice": args.overpasses_twice,
        "objectives": args.objectives,
        **{f"interchanges_{n}": counts.get(n, 0) for n in table},
    }
    on_sheet = {count.key for item in items for count in item.counts}
    for key, value in given.items():  # a count this city's sheet has no place for
        if value and key not in on_sheet:
            option = f"--{key.replace('_', '-')}"
            raise UsageError(f"nsdevice score: {town.words.name} sheets have no {option}")
    values: list[tuple[int, ...]] = []
    for item in items:
        if item.key == "line":
            given_line = item.number <= len(lines)
            values.append(lines[item.number - 1] if given_line else (0,) * len(item.counts))
        else:
            values.append(tuple(given[count.key] for count in item.counts))
    total = scoring.sheet_total(town, items, values)
    return total, [scoring.line_points(town, line) for line in lines]


def score_result(args: ScoreOptions) -> dict[str, Any]:
    name = args.city
    parts_given = any(
        [
            args.line,
            args.stamps,
            args.ring_unconnected,
            args.interchanges,
            args.overpasses_once,
            args.overpasses_twice,
            args.objectives,
        ]
    )
    if len(args.line) > 4:
        raise UsageError("nsdevice score: at most 4 --line (one per round)")
    result: dict[str, Any] = {"city": name}
    if args.total is not None:
        if parts_given:
            raise UsageError("nsdevice score: give --total or the parts, not both")
        total = args.total
    elif city(name).line_scoring:
        total, result["lines"] = _sheet_score(args)
    else:
        # A city whose data gives no line scoring (London) takes totals only.
        raise UsageError(
            f"nsdevice score: {city(name).words.name} scores are entered with --total N"
        )
    result["total"] = total
    if args.solo_modules is not None:
        adjusted = scoring.solo_adjusted(total, args.solo_modules)
        result["solo_adjusted"] = adjusted
        result["tier"] = scoring.solo_tier(city(name), adjusted)
    return result


def command_score(args: ScoreOptions) -> int:
    try:
        result = score_result(args)
    except ValueError as error:
        raise UsageError(f"nsdevice score: {error}") from None
    if args.json:
        print(json.dumps(result))
        return 0
    if "lines" in result:
        print("lines: " + " ".join(str(line) for line in result["lines"]))
    print(f"total: {result['total']}")
    if "tier" in result:
        adjusted, tier = result["solo_adjusted"], result["tier"]
        print(f"solo, after the module penalty: {adjusted} (tier {tier} of 6)")
    return 0


def command_simulate(args: SimulateOptions) -> int:
    from nsdevice.rules.simulation import simulate

    started = time.perf_counter()
    result = simulate(args.city, args.rounds, args.seed)
    seconds = time.perf_counter() - started
    rate = args.rounds / seconds if seconds > 0 else float("inf")
    if args.json:
        print(
            json.dumps(
                {
                    "city": result.city,
                    "rounds": result.rounds,
                    "seed": args.seed,
                    "turns": {str(k): v for k, v in result.turns.items()},
                    "switch_revealed": result.switch_revealed,
                    "switch_no_effect": result.switch_no_effect,
                    "seconds": round(seconds, 4),
                    "rounds_per_second": round(rate),
                }
            )
        )
        return 0
    print(f"{result.city}: {result.rounds} rounds (seed {args.seed})")
    print("turns  rounds   share")
    for turns, count in result.turns.items():
        print(f"{turns:5}  {count:7}  {count / result.rounds:6.1%}")
    print(
        f"switch revealed in {result.switch_revealed / result.rounds:.1%} of rounds, "
        f"without effect in {result.switch_no_effect / result.rounds:.1%}"
    )
    print(f"{rate:,.0f} rounds per second ({seconds:.3f} s)")
    return 0


def command_screenshot(args: ScreenshotOptions) -> int:
    from nsdevice.screenshots import render_all  # late: it brings pygame

    panel = None
    size = (480, 320)
    if args.hardware:
        from nsdevice.hardware.profiles import ProfileError, load_profile

        try:
            profile = load_profile(args.hardware)
        except ProfileError as error:
            raise UsageError(f"nsdevice screenshot: {error}") from None
        panel, size = profile.panel(), profile.display.size()
    try:
        size = parse_size(args.size) if args.size else size
    except ValueError as error:
        raise UsageError(f"nsdevice screenshot: {error}") from None
    try:
        files = render_all(Path(args.out), size=size, panel=panel)
    except OSError as error:  # a folder that cannot be made or written: the user's to fix
        reason = error.strerror or str(error)
        raise UsageError(f"nsdevice screenshot: cannot write to {args.out}: {reason}") from None
    print(f"{len(files)} screens written to {args.out}")
    return 0


def _results_file(path: str) -> tuple[RoomKey, tuple[Result, ...]]:
    """A room's results file, read only if it is a regular file of at most
    RESULTS_FILE_LIMIT bytes (a FIFO, a device or a folder is refused at once, never
    waited on); any way it is not a results file is one UsageError line."""
    try:
        data = _regular_file(path, RESULTS_FILE_LIMIT)
    except OSError as error:
        reason = error.strerror or str(error)
        raise UsageError(f"nsdevice results: cannot read {path}: {reason}") from None
    except ValueError as error:
        raise UsageError(f"nsdevice results: {path}: {error}") from None
    try:
        return read_results(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise UsageError(f"nsdevice results: {path}: not a room results file (not text)") from None
    except ValueError as error:
        raise UsageError(f"nsdevice results: {path}: {error}") from None


def _regular_file(path: str, limit: int) -> bytes:
    """The bytes of `path` when it is a regular file of at most `limit` bytes; ValueError
    saying what it is otherwise. Opened without blocking, so a FIFO never stalls the open,
    and read no further than the limit, so a file that grows while read stays bounded."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise ValueError(f"not a regular file ({_file_kind(status.st_mode)})")
        if status.st_size > limit:
            raise ValueError(f"over {limit:,} bytes ({status.st_size:,}): not a room's results")
        with open(descriptor, "rb", closefd=False) as file:
            data = file.read(limit + 1)
    finally:
        os.close(descriptor)
    if len(data) > limit:
        raise ValueError(f"over {limit:,} bytes: not a room's results")
    return data


def _file_kind(mode: int) -> str:
    kinds = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a pipe"), (stat.S_ISSOCK, "a socket"),
             (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))  # fmt: skip
    return next((name for test, name in kinds if test(mode)), "not a file")


def _print_results(key: RoomKey, results: Sequence[Result]) -> None:
    placed = rank(results)
    modules = ", ".join(m.value for m in key.modules) or "none"
    rooms = len({r.room for r in results})
    tables = len({(r.room, r.table) for r in results})
    print(f"{key.city.value.title()}, code {key.code}, modules: {modules}")
    print(f"{len(results)} player(s) at {tables} table(s) in {rooms} room(s)\n")
    room_width = max(len("room"), *(len(r.room) for r in results))
    heading = f"{'name':{NAME_LENGTH + 2}}  {'room':{room_width}}"
    print(f"place  {heading}  table  seat  total  best line")
    for entry in placed:
        r = entry.result
        mark = "*" if entry.table_winner else " "
        print(
            f"{entry.place:5}  {r.name:{NAME_LENGTH}} {mark}  {r.room:{room_width}}"
            f"  {r.table:5}  {r.seat:4}  {r.total:5}  {r.best_line:9}"
        )
    print("\n* won their table (a tie goes to the best line; still tied, they share it)")


def command_results(args: ResultsOptions) -> int:
    """Merge the rooms' files into one ranking: no server, the deal code is the shared state."""
    files = [_results_file(path) for path in args.files]
    try:
        key, results = merge(files)
    except ValueError as error:  # "file 2 was played on …": numbered as given
        named = ", ".join(f"file {n} = {path}" for n, path in enumerate(args.files, start=1))
        raise UsageError(f"nsdevice results: {error} ({named})") from None
    if args.csv:
        sys.stdout.write(results_csv(key, results))
    elif args.json:
        print(json.dumps(results_json(key, results), indent=1, ensure_ascii=False))
    else:
        _print_results(key, results)
    return 0


def command_firstboot(args: FirstbootOptions) -> int:
    """The system as the card's settings file says (run as root by
    nsdevice-firstboot.service at every boot, as `python -m nsdevice.appliance.firstboot`)."""
    from nsdevice.appliance.firstboot import command

    return command(Path(args.settings), Path(args.root))


def command_update(args: UpdateOptions) -> int:
    """A signed release, switched to only once it is up (nsdevice.appliance.update)."""
    from nsdevice.appliance.bundle import BundleRefused
    from nsdevice.appliance.update import UpdateFailed, update

    bundle = Path(args.bundle)
    try:
        key = Path(args.public_key).read_bytes() if args.public_key else None
    except OSError as error:
        raise UsageError(f"nsdevice update: --public-key: {error.strerror}") from None
    if not bundle.is_file():
        raise UsageError(f"nsdevice update: {args.bundle}: no such file")
    try:
        update(bundle, opt=Path(args.opt), public_key=key)
    except BundleRefused as refused:
        raise UsageError(f"nsdevice update: {args.bundle} refused: {refused}") from None
    except UpdateFailed as failed:
        print(f"nsdevice update: {failed}", file=sys.stderr)
        return 1
    except OSError as error:  # not root, a full card: said before anything was switched
        where = error.filename or args.opt
        raise UsageError(f"nsdevice update: {where}: {error.strerror} (run as root)") from None
    return 0


def command(options: Options) -> int:
    """Run the command these options are for."""
    match options:
        case RunOptions():
            return run(options)
        case DealOptions():
            return command_deal(options)
        case ScoreOptions():
            return command_score(options)
        case SimulateOptions():
            return command_simulate(options)
        case ScreenshotOptions():
            return command_screenshot(options)
        case ResultsOptions():
            return command_results(options)
        case HwtestOptions():
            return check_hardware(options)
        case FirstbootOptions():
            return command_firstboot(options)
        case UpdateOptions():
            return command_update(options)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return command(parse(argv))
    except UsageError as error:
        print(readable(str(error), sys.argv[1:] if argv is None else argv), file=sys.stderr)
        return USAGE_ERROR
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `nsdevice deal | head`: the reader left, nothing to report
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
