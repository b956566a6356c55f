"""The `run`, `screenshot` and `hwtest` commands (placeholder until the box lands)."""

from __future__ import annotations

import argparse


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    pass


def dispatch(args: argparse.Namespace) -> int:
    raise NotImplementedError(args.command)
