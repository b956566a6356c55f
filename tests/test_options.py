"""The command line as typed data: every flag the command table (docs/reference/commands.md)
shows is accepted by its command, every flag a command takes is in the table, and each
command's options arrive as its own frozen dataclass."""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import re
from pathlib import Path

import pytest

from nsdevice.errors import UsageError
from nsdevice.options import (
    COMMANDS,
    DealOptions,
    HwtestOptions,
    RunOptions,
    ScoreOptions,
    build_parser,
    parse,
)

README = Path(__file__).resolve().parent.parent / "docs" / "reference" / "commands.md"
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]*")


def readme_commands() -> dict[str, set[str]]:
    """Each command's row of the command table (docs/reference/commands.md): its flags."""
    section = README.read_text(encoding="utf-8").splitlines()
    start = next(number for number, line in enumerate(section) if line.startswith("|"))
    table = itertools.takewhile(lambda line: line.startswith("|"), section[start:])
    rows: dict[str, set[str]] = {}
    for line in table:
        found = re.match(r"\| `nsdevice (\w+)", line)
        if found:
            rows.setdefault(found.group(1), set()).update(FLAG.findall(line))
    return rows


def parser_flags() -> dict[str, set[str]]:
    subparsers = build_parser()._subparsers._group_actions[0]  # type: ignore[union-attr]
    assert isinstance(subparsers, argparse._SubParsersAction)
    return {
        name: {
            flag
            for action in parser._actions
            for flag in action.option_strings
            if flag.startswith("--") and flag != "--help"
        }
        for name, parser in subparsers.choices.items()
    }


def test_the_readme_table_has_a_row_for_every_command_and_no_other() -> None:
    assert set(readme_commands()) == set(parser_flags()) == set(COMMANDS)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_flag_in_the_readme_is_accepted_and_every_flag_is_in_the_readme(command) -> None:
    written, taken = readme_commands()[command], parser_flags()[command]
    assert written - taken == set(), f"the command table shows flags `nsdevice {command}` refuses"
    assert taken - written == set(), f"`nsdevice {command}` takes flags the table leaves out"


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_each_commands_dataclass_fields_are_its_parsers_destinations(command) -> None:
    subparsers = build_parser()._subparsers._group_actions[0]  # type: ignore[union-attr]
    parser = subparsers.choices[command]
    destinations = {action.dest for action in parser._actions if action.dest != "help"}
    kind = COMMANDS[command]
    assert {field.name for field in dataclasses.fields(kind)} == destinations
    with pytest.raises(dataclasses.FrozenInstanceError):  # frozen data
        setattr(object.__new__(kind), sorted(destinations)[0], None)


def test_run_options_are_frozen_data_with_the_flags_values() -> None:
    options = parse(["run", "--display", "json", "--web", "8414", "--phone-buttons"])
    assert options == RunOptions(display="json", web="8414", phone_buttons=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.display = "text"  # type: ignore[misc]
    assert parse(["run"]) == RunOptions()


def test_other_commands_get_their_own_options() -> None:
    assert parse(["deal", "--city", "Tokyo", "--players", "2", "--seed", "abc"]) == DealOptions(
        city="tokyo", players=2, seed="ABC"
    )
    score = parse(["score", "--city", "paris", "--line", "7x5+5", "--line", "1x1+0"])
    assert isinstance(score, ScoreOptions) and score.line == ("7x5+5", "1x1+0")
    assert parse(["hwtest", "--hardware", "desktop", "--timeout", "5"]) == HwtestOptions(
        "desktop", 5.0
    )


def test_a_bad_flag_is_a_usage_error_naming_the_command() -> None:
    with pytest.raises(UsageError, match="unrecognized arguments: --jump"):
        parse(["run", "--jump"])


def test_run_is_parsed_by_a_parser_with_only_run_and_reads_the_same(monkeypatch) -> None:
    """Issue 35: the box's start builds no other command's arguments (8 M instructions on
    the Pi); `run`'s options, help and errors are those of the whole parser."""
    import nsdevice.options

    built: list[bool] = []
    whole = nsdevice.options.build_parser

    def counted(*, run_only: bool = False) -> argparse.ArgumentParser:
        built.append(run_only)
        return whole(run_only=run_only)

    monkeypatch.setattr(nsdevice.options, "build_parser", counted)
    words = ["run", "--display", "json", "--city", "paris", "--players", "3", "--voice"]
    assert parse(words) == RunOptions(**{
        key: tuple(value) if isinstance(value, list) else value
        for key, value in vars(whole().parse_args(words)).items() if key != "command"
    })  # fmt: skip
    assert built == [True]
    only = whole(run_only=True)._subparsers._group_actions[0]  # type: ignore[union-attr]
    every = whole()._subparsers._group_actions[0]  # type: ignore[union-attr]
    assert list(only.choices) == ["run"]  # type: ignore[attr-defined]
    assert only.choices["run"].format_help() == every.choices["run"].format_help()  # type: ignore[attr-defined]
    with pytest.raises(UsageError, match=r"^nsdevice run: .*--players"):
        parse(["run", "--players", "9"])
    built.clear()
    with pytest.raises(UsageError, match="invalid choice: 'rn'"):
        parse(["rn"])
    assert built == [False]  # a wrong command meets every command


@pytest.mark.parametrize("columns", ["100", "60", "0", "wide"])
def test_the_help_is_argparses_own_at_the_terminals_width(monkeypatch, columns: str) -> None:
    """Issue 35: the parsers ask the terminal's width themselves, not through shutil (which
    loads bz2 and lzma); every command's help reads as argparse's own formatter writes it."""
    monkeypatch.setenv("COLUMNS", columns)
    ours = build_parser()
    theirs = build_parser()
    for parser in [theirs, *theirs._subparsers._group_actions[0].choices.values()]:  # type: ignore[union-attr]
        parser.formatter_class = argparse.HelpFormatter
    commands = ours._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    their_commands = theirs._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert ours.format_help() == theirs.format_help()
    for name, parser in commands.items():
        assert parser.format_help() == their_commands[name].format_help(), name
