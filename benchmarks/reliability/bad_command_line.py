"""`bad_command_line`: bad options for every command: one line on stderr, exit status 2."""

from __future__ import annotations

import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from benchmarks.reliability.harness import (
    BOX,
    ENV,
    Report,
    working_folder,
)


def bad_command_lines(folder: Path) -> list[list[str]]:
    """Bad input for every command; each must be refused with one line and status 2."""
    bad_toml = folder / "broken.toml"
    bad_toml.write_text("[display\nkind = 'window'\n")
    bad_pins = folder / "pins.toml"
    bad_pins.write_text(
        'name = "pins"\n[display]\nkind = "window"\nwidth = 480\nheight = 320\n'
        '[input]\nkind = "gpio"\n[input.buttons]\nnext = 99\nback = 99\nmenu = -3\n'
    )
    a_file = folder / "a-file"
    a_file.write_text("")
    state = ["--state-dir", str(folder / "state")]
    script = ["--input", "script", "--keys", "next", "--display", "json", *state]
    return [
        [],
        ["launch"],
        ["--colour"],
        ["run", "--display", "hologram"],
        ["run", "--input", "telepathy"],
        ["run", "--size", "10x10"],
        ["run", "--size", "wide"],
        ["run", "--size", "480x320x2"],
        ["run", "--size", "99999x320"],
        ["run", "--hardware", "no-such-build"],
        ["run", "--hardware", str(bad_toml)],
        ["run", "--hardware", str(bad_pins)],
        ["run", "--hardware", "/etc/hostname"],
        ["run", "--keys", "next", "--display", "json", *state],
        ["run", "--input", "script", "--display", "json", *state],
        ["run", "--input", "script", "--keys", "next,jump", "--display", "json", *state],
        ["run", "--input", "script", "--keys", "hold:", "--display", "json", *state],
        ["run", *script, "--shutdown-command", '"unclosed'],
        ["run", *script, "--frobnicate"],
        ["deal"],
        ["deal", "--city", "atlantis", "--players", "2"],
        ["deal", "--city", "tokyo", "--players", "0"],
        ["deal", "--city", "tokyo", "--players", "two"],
        ["deal", "--city", "tokyo", "--players", "2", "--seed", "no spaces!"],
        ["deal", "--city", "tokyo", "--players", "2", "--seed", "A" * 17],
        ["deal", "--city", "tokyo", "--players", "2", "--modules", "teleporters"],
        ["deal", "--city", "tokyo", "--players", "2", "extra"],
        ["score", "--city", "tokyo", "--line", "5by4"],
        ["score", "--city", "paris", "--stamps", "10"],  # a Paris sheet has no stamps
        ["score", "--city", "tokyo", "--stamps", "7"],  # Tokyo's stamps come in fives
        ["score", "--city", "tokyo", "--line", "99x4"],
        ["score", "--city", "tokyo", *["--line", "1x1"] * 5],
        ["score", "--city", "tokyo", "--interchanges", "9:1"],
        ["score", "--city", "tokyo", "--interchanges", "3:x"],
        ["score", "--city", "tokyo", "--stamps", "-1"],
        ["score", "--city", "tokyo", "--total", "lots"],
        ["score", "--city", "tokyo", "--total", "5", "--stamps", "3"],
        ["score", "--city", "london", "--line", "2x2"],
        ["score", "--city", "tokyo", "--total", "10", "--solo-modules", "9"],
        ["simulate", "--city", "tokyo", "--rounds", "0"],
        ["simulate", "--city", "tokyo", "--rounds", "-5"],
        ["simulate", "--city", "tokyo", "--rounds", "1e6"],
        ["simulate", "--city", "rome"],
        ["simulate", "--city", "tokyo", "--seed", ""],
        ["screenshot"],
        ["screenshot", "--out", str(folder / "shots"), "--size", "5x5"],
        ["screenshot", "--out", str(folder / "shots"), "--size", "huge"],
        ["screenshot", "--out", str(a_file / "below-a-file")],
        ["results"],
        ["results", str(folder / "no-such-results.csv")],
        ["results", str(a_file)],  # empty: not a room's results
        ["results", str(bad_toml), "--csv"],
        # firstboot and update always name a tree of their own here: a bad line must
        # never reach this machine's /etc or /opt
        ["firstboot", "--root", str(folder)],
        ["firstboot", "--settings", str(folder / "none.toml"), "--root", str(folder / "no-root")],
        ["firstboot", "--settings", str(a_file), "--root", str(a_file)],
        ["update", "--opt", str(folder / "opt")],
        ["update", str(folder / "no-such-bundle.tar"), "--opt", str(folder / "opt")],
        ["update", str(a_file), "--opt", str(folder / "opt")],  # empty: not a bundle
        ["update", str(a_file), "--opt", str(folder / "opt"), "--public-key", str(bad_toml)],
        ["hwtest"],
        ["hwtest", "--hardware", "no-such-build"],
        ["hwtest", "--hardware", str(bad_toml)],
        ["hwtest", "--hardware", "desktop", "--timeout", "soon"],
        ["hwtest", "--hardware", "desktop", "--timeout", "-1"],
        ["hwtest", "--hardware", "desktop", "--timeout", "nan"],
    ]


def bad_command_line(*, workers: int = 4, workdir: Path | None = None) -> Report:
    """Every bad command line: exit status 2, exactly one line on stderr, no traceback."""
    report = Report("bad_command_line")
    with working_folder(workdir) as base:
        commands = bad_command_lines(base)

        def one(arguments: list[str]) -> subprocess.CompletedProcess:
            return subprocess.run(
                [*BOX, *arguments], capture_output=True, text=True, env=ENV, timeout=60,
                stdin=subprocess.DEVNULL, cwd=base,
            )  # fmt: skip

        with ThreadPoolExecutor(max_workers=workers) as pool:
            for arguments, result in zip(commands, pool.map(one, commands), strict=True):
                report.add("command_lines")
                word = arguments[0] if arguments and not arguments[0].startswith("-") else "-"
                report.counts.setdefault("commands", [])
                if word not in report.counts["commands"]:
                    report.counts["commands"].append(word)
                lines = result.stderr.strip().splitlines()
                if result.returncode != 2 or len(lines) != 1 or "Traceback" in result.stderr:
                    shown = " ".join(arguments)
                    report.fail(
                        f"`nsdevice {shown}`: exit {result.returncode}, "
                        f"{len(lines)} stderr lines: {result.stderr.strip()[-200:]!r}"
                    )
    return report
