"""A room game: many tables on one deal, and the room's results (issue 25; RULES C-8, C-12, D-1).

One box calls the cards for a whole room. Every table plays the same cards (the cards
never depend on the player count, D-1); each table size has its own pencil row, drawn from
the deal's seed, so every table of one size, in this room or any other room on the same
code, passes the same pencils. The room's results travel as a small CSV (or JSON) keyed
by the deal code, city and modules, so the files of several rooms on one code merge into
one ranking with no server: the code is the shared state.
"""

from __future__ import annotations

import io
import itertools
import json
import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from nsdevice.rules.cities import CityName
from nsdevice.rules.deal import Round, Setup, deal_game, normalize_seed
from nsdevice.rules.frozen import dataclass
from nsdevice.rules.modules import Module, canonical
from nsdevice.rules.scoring import SeatScore, winner

MOST_TABLES = 99  # table numbers 1..99
NAME_LENGTH = 20  # a player's name (and a room's label): 1..20 printable characters, stripped
ROOM = "A"  # a box's own room label; `merge` makes labels distinct when two files share one
SEATS = 4  # C-1
LARGEST = 99_999  # no sheet comes near; bounds what a hand-edited file may claim
COLUMNS = (  # the results file's header, in this order (room-spec.md)
    *("code", "city", "modules"),  # the key, on every row
    *("room", "table", "seat", "name"),
    *("place", "total", "best_line", "table_winner"),
)
FORMULA_STARTS = "=+-@"  # what a spreadsheet would run as a formula
MODULE_JOIN = "+"
# A results file is read from anywhere (a stick, a mail): bounded before it is believed.
FIELD_LIMIT = 200  # characters of a CSV field: a name is 20, every module joined under 100
JSON_DEPTH = 3  # {"ranking": [{...}]}: the deepest a results file nests


class MarksOnly(ValueError):
    """A name made of combining marks alone: nothing for them to sit on (D-15)."""


def player_name(text: str, what: str = "name") -> str:
    """A player's name (or a room's label) as the room keeps it: composed (NFC, so "Zoë"
    typed as "e" and a diaeresis is the same name, and counts 3), stripped, 1 to
    NAME_LENGTH printable characters, not only combining marks (MarksOnly, D-15).
    ValueError says what is wrong in one line."""
    if not isinstance(text, str):  # a file's 7 or {"a": 1} is not a name
        raise ValueError(f"{what} must be text, not {_shown(text)}")
    name = unicodedata.normalize("NFC", text).strip()
    if not 1 <= len(name) <= NAME_LENGTH:
        raise ValueError(f"{what} must be 1 to {NAME_LENGTH} characters, not {text!r}")
    if not name.isprintable():
        raise ValueError(f"{what} must be printable characters, not {text!r}")
    if all(unicodedata.category(c).startswith("M") or c.isspace() for c in name):
        raise MarksOnly(f"{what} must hold a letter, not only marks, not {text!r}")
    return name


def table_rounds(setup: Setup, size: int) -> tuple[Round, ...]:
    """The four rounds a table of `size` plays on `setup`'s deal: the same cards for every
    table (the cards never depend on the player count, D-1), pencils by C-8 for its size,
    drawn from the deal's seed (so every table of one size, in any room on this code, has
    the same rows); size 1: the solo order (C-8 solo). Controller per C-10."""
    if not 1 <= size <= SEATS:
        raise ValueError(f"a table seats 1 to {SEATS} players, not {size}")
    # A solo row a player laid by hand is one table's choice, not the code's: a room's
    # solo tables all take the drawn order so that rooms on one code still match.
    return deal_game(replace(setup, players=size, pencil_order=None)).rounds


@dataclass(frozen=True, slots=True)
class Result:
    """One player's score in a room: `room` tells rooms apart once files are merged."""

    room: str
    table: int
    seat: int
    name: str
    total: int
    best_line: int

    def __post_init__(self) -> None:
        # Results come from phones and from files people can edit: checked at the door.
        object.__setattr__(self, "room", player_name(self.room, "room"))
        object.__setattr__(self, "name", player_name(self.name))
        _whole(self.table, "table", 1, MOST_TABLES)
        _whole(self.seat, "seat", 1, SEATS)
        _whole(self.total, "total", -LARGEST, LARGEST)
        _whole(self.best_line, "best_line", -LARGEST, LARGEST)

    @property
    def seat_in_room(self) -> tuple[str, int, int]:
        """(room, table, seat): who this is, for telling tables and seats apart."""
        return (self.room, self.table, self.seat)


def _whole(value: object, what: str, lowest: int, highest: int) -> None:
    if type(value) is not int or not lowest <= value <= highest:
        raise ValueError(f"{what} must be a whole number {lowest} to {highest}, not {value!r}")


@dataclass(frozen=True, slots=True)
class Placed:
    place: int  # 1-based; players still tied after the best line share it (1, 2, 2, 4)
    result: Result
    table_winner: bool  # won, or shares the win of, their own table (C-12)


def rank(
    results: Sequence[Result], sizes: Mapping[tuple[str, int], int] | None = None
) -> tuple[Placed, ...]:
    """Best total first; a tie broken by the best line (C-12 across the room); still tied:
    the same place (1, 2, 2, 4). `table_winner` per (room, table) by rules.scoring.winner.
    `sizes`: each (room, table)'s seats, where known (a box's own room): a table's winner
    is named only once every one of its seats has a result (D-14); a table it does not
    name, and every table without `sizes` (merged files), as its results stand."""
    _refuse_repeats(results)
    tables: dict[tuple[str, int], list[Result]] = {}
    for result in results:
        tables.setdefault((result.room, result.table), []).append(result)
    known = sizes or {}
    winners = {
        (room, table, seat)
        for (room, table), seated in tables.items()
        if len(seated) >= known.get((room, table), 0)
        for seat in winner([SeatScore(r.seat, r.total, r.best_line) for r in seated]).winners
    }
    # Within a shared place the order is only for a steady display: by room, table, seat.
    ordered = sorted(results, key=lambda r: (-r.total, -r.best_line, r.seat_in_room))
    placed: list[Placed] = []
    for index, result in enumerate(ordered):
        place = index + 1
        if placed and _standing(placed[-1].result) == _standing(result):
            place = placed[-1].place
        placed.append(Placed(place, result, result.seat_in_room in winners))
    return tuple(placed)


def _standing(result: Result) -> tuple[int, int]:
    return (result.total, result.best_line)


def _refuse_repeats(results: Sequence[Result]) -> None:
    seen: set[tuple[str, int, int]] = set()
    for result in results:
        if result.seat_in_room in seen:
            room, table, seat = result.seat_in_room
            raise ValueError(f"room {room} table {table} seat {seat} is scored twice")
        seen.add(result.seat_in_room)


@dataclass(frozen=True, slots=True)
class RoomKey:
    """What makes results comparable: the same cards (code, city) and the same sheet (modules)."""

    code: str
    city: CityName
    modules: tuple[Module, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", normalize_seed(self.code))
        object.__setattr__(self, "city", CityName(self.city))
        object.__setattr__(self, "modules", canonical(tuple(Module(m) for m in self.modules)))

    @classmethod
    def of(cls, setup: Setup) -> RoomKey:
        return cls(setup.seed, setup.city, setup.modules)

    def describe(self) -> str:
        modules = MODULE_JOIN.join(m.value for m in self.modules) or "no modules"
        return f"code {self.code}, {self.city.value}, {modules}"


def _safe(text: str) -> str:
    # A leading quote is what a spreadsheet hides; a name that starts with one gets one
    # too, so reading strips exactly one quote and every name comes back as it was.
    return "'" + text if text[:1] in FORMULA_STARTS + "'" else text


def _unsafe(text: str) -> str:
    return text[1:] if text.startswith("'") else text


def results_csv(
    key: RoomKey, results: Sequence[Result], sizes: Mapping[tuple[str, int], int] | None = None
) -> str:
    """The room's results, ranked, one row a player; every row carries the key so a row
    copied out of the file still says which deal it was scored on. `sizes`: as `rank`'s."""
    import csv  # only for a results file: the box and its page load no CSV module else

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    modules = MODULE_JOIN.join(m.value for m in key.modules)
    for placed in rank(results, sizes):
        r = placed.result
        where = (_safe(r.room), r.table, r.seat, _safe(r.name))
        score = (placed.place, r.total, r.best_line, "yes" if placed.table_winner else "no")
        writer.writerow((key.code, key.city.value, modules, *where, *score))
    return out.getvalue()


def results_json(
    key: RoomKey, results: Sequence[Result], sizes: Mapping[tuple[str, int], int] | None = None
) -> dict[str, Any]:
    """The same as `results_csv`, as data: the key once, then the ranking."""
    return {
        "code": key.code,
        "city": key.city.value,
        "modules": [m.value for m in key.modules],
        "ranking": [
            {
                "place": placed.place,
                "room": placed.result.room,
                "table": placed.result.table,
                "seat": placed.result.seat,
                "name": placed.result.name,
                "total": placed.result.total,
                "best_line": placed.result.best_line,
                "table_winner": placed.table_winner,
            }
            for placed in rank(results, sizes)
        ],
    }


def read_results(text: str) -> tuple[RoomKey, tuple[Result, ...]]:
    """A results file (the CSV, or the JSON form) back into its key and results; places and
    table winners are worked out again by `rank`, never trusted. ValueError: one clear line."""
    text = text.removeprefix("\ufeff")  # a spreadsheet that saved the file may add one
    if text.lstrip().startswith("{"):
        return _read_json(text)
    import csv

    reader = csv.reader(io.StringIO(text))
    rows = _bounded_rows(reader)
    header = next(rows, None)
    if header is None or tuple(cell.strip() for cell in header) != COLUMNS:
        raise ValueError(f"not a room results file (its first line is not {','.join(COLUMNS)})")
    key: RoomKey | None = None
    key_cells: tuple[str, ...] = ()  # the key as the last row wrote it: read once, not per row
    results: list[Result] = []
    for row in rows:
        number = reader.line_num
        if not any(cell.strip() for cell in row):
            continue  # a blank line, as an editor may leave at the end
        if len(row) != len(COLUMNS):
            raise ValueError(f"line {number}: {len(row)} fields, a result has {len(COLUMNS)}")
        cells = dict(zip(COLUMNS, row, strict=True))
        try:
            if key is None or tuple(row[:3]) != key_cells:
                modules = tuple(Module(m) for m in cells["modules"].split(MODULE_JOIN) if m)
                row_key = RoomKey(cells["code"], CityName(cells["city"]), modules)
                key_cells = tuple(row[:3])
            else:
                row_key = key
            result = Result(
                room=_unsafe(cells["room"]),
                table=_number(cells["table"]),
                seat=_number(cells["seat"]),
                name=_unsafe(cells["name"]),
                total=_number(cells["total"]),
                best_line=_number(cells["best_line"]),
            )
        except ValueError as error:
            raise ValueError(f"line {number}: {error}") from None
        if key is not None and row_key != key:
            raise ValueError(
                f"line {number}: {row_key.describe()}, the file began with {key.describe()}"
            )
        key = row_key
        results.append(result)
    return _checked(key, results)


def _bounded_rows(reader: Any) -> Iterator[list[str]]:
    """The reader's rows, each field at most FIELD_LIMIT characters; ValueError naming
    the line otherwise, or where the CSV itself is broken (a field over the csv module's
    own limit, a quote never closed)."""
    import csv

    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise ValueError(f"line {reader.line_num}: not CSV ({error})") from None
        longest = max(map(len, row), default=0)
        if longest > FIELD_LIMIT:
            raise ValueError(
                f"line {reader.line_num}: a field of {longest:,} characters "
                f"(a results file's are at most {FIELD_LIMIT})"
            )
        yield row


def _shown(value: object) -> str:
    """A value from a file, for an error line: its repr, cut short."""
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def _number(cell: str) -> int:
    text = cell.strip()
    digits = text.removeprefix("-")
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 6):
        raise ValueError(f"{cell!r} is not a whole number")
    return int(text)


def _read_json(text: str) -> tuple[RoomKey, tuple[Result, ...]]:
    depth = _json_depth(text)
    if depth > JSON_DEPTH:
        raise ValueError(f"not a room results file (nested {depth:,} deep, not {JSON_DEPTH})")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        line = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ValueError(f"not a room results file ({line})") from None
    try:
        if not isinstance(data, dict):
            raise ValueError(f"not an object: {_shown(data)}")
        _typed(data, ("code", "city"), str)
        _typed(data, ("modules", "ranking"), list)
        if not all(isinstance(m, str) for m in data["modules"]):
            raise ValueError("modules must be a list of names")
        key = RoomKey(data["code"], CityName(data["city"]), tuple(map(Module, data["modules"])))
        results = []
        for number, entry in enumerate(data["ranking"], start=1):
            if not isinstance(entry, dict):
                raise ValueError(f"ranking entry {number} is not an object")
            _typed(entry, ("room", "name"), str, f"ranking entry {number}: ")
            results.append(Result(**{name: entry[name] for name in COLUMNS[3:7] + COLUMNS[8:10]}))
    except (ValueError, KeyError) as error:
        line = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ValueError(f"not a room results file ({line})") from None
    return _checked(key, results)


def _typed(data: dict[str, Any], names: Sequence[str], kind: type, where: str = "") -> None:
    """Each of `names` is in `data` and of `kind` (a JSON number for a name is refused, not
    turned into text); ValueError naming the first that is not."""
    for name in names:
        if name not in data:
            raise ValueError(f"{where}no {name!r}")
        if not isinstance(data[name], kind):
            kind_words = "text" if kind is str else "a list"
            raise ValueError(f"{where}{name} must be {kind_words}, not {_shown(data[name])}")


# Three passes, each linear whatever the text (no pattern here can backtrack): escapes
# out, then whole strings, then everything but brackets.
ESCAPE = re.compile(r"\\.", re.DOTALL)
STRING = re.compile(r'"[^"]*"')
NOT_BRACKET = re.compile(r"[^\[\]{}]+")
STEPS = {"[": 1, "{": 1, "]": -1, "}": -1}


def _json_depth(text: str) -> int:
    """How deep `text`'s brackets nest, brackets inside strings not counted: checked before
    the JSON reader sees it (100,000 brackets deep was a RecursionError)."""
    brackets = NOT_BRACKET.sub("", STRING.sub("", ESCAPE.sub("", text)))
    return max(itertools.accumulate(map(STEPS.__getitem__, brackets), initial=0))


def _checked(key: RoomKey | None, results: list[Result]) -> tuple[RoomKey, tuple[Result, ...]]:
    if key is None or not results:
        raise ValueError("the results file holds no results")
    _refuse_repeats(results)
    return key, tuple(results)


def merge(
    files: Sequence[tuple[RoomKey, Sequence[Result]]],
) -> tuple[RoomKey, tuple[Result, ...]]:
    """The results of several rooms (or boxes) on one code as one room's: tables of two
    rooms never mix, so a label a later file shares with an earlier one is renamed
    ("A" → "A-2"). ValueError when the files were played on different deals or sheets."""
    if not files:
        raise ValueError("no results files to merge")
    key = files[0][0]
    merged: list[Result] = []
    seen_files: list[frozenset[Result]] = []
    for number, (file_key, results) in enumerate(files, start=1):
        if file_key != key:
            raise ValueError(
                f"file {number} was played on {file_key.describe()}, file 1 on {key.describe()}"
            )
        # The same file given twice would count every player twice.
        if frozenset(results) in seen_files:
            raise ValueError(f"file {number} holds the same results as an earlier file")
        seen_files.append(frozenset(results))
        taken = {r.room for r in merged}
        labels = {room: _free_label(room, taken) for room in dict.fromkeys(r.room for r in results)}
        merged.extend(replace(r, room=labels[r.room]) for r in results)
    return key, tuple(merged)


def _free_label(room: str, taken: set[str]) -> str:
    label, count = room, 1
    while label in taken:
        count += 1
        suffix = f"-{count}"
        label = room[: NAME_LENGTH - len(suffix)] + suffix
    taken.add(label)
    return label
