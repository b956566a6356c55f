"""The values of a restored snapshot, checked against the deal before any press meets them.

A saved step that passed its checksum can still hold a value no press could have made (a
hand-edited file, an older box's bug): a cursor past the end of its list, a seed code that
is not one, a score outside the entry's range. Each would crash the box on the first
press, at every start. `check_values` refuses them with `ValueError`, so the store passes
over that step as damaged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from nsdevice.rules.deal import SEED_MAX_LENGTH, normalize_seed

QUESTIONS = ("back_to_round", "restart_round", "new_game", "shutdown")


def check_values(
    state: Any,
    *,
    setup_rows: Sequence[object],
    menu_rows: Sequence[object],
    seed_characters: Sequence[str],
    score_limits: tuple[int, int],
) -> None:
    """Raise ValueError naming the first value that does not fit; `state` is the session's."""
    _seed(state.seed_code, "seed code")
    if state.setup is not None and state.setup.seed != _seed(state.setup.seed, "deal seed"):
        raise ValueError(f"deal seed {state.setup.seed!r} is not in its written form")
    if len(state.seed_characters) > SEED_MAX_LENGTH + 1 or any(
        character not in seed_characters for character in state.seed_characters
    ):
        raise ValueError(f"seed characters {state.seed_characters!r}")
    rows = {"setup": setup_rows, "menu": menu_rows}.get(state.screen)
    if rows is not None and not _within(state.cursor, len(rows)):
        raise ValueError(f"cursor {state.cursor!r} outside the {len(rows)} rows of {state.screen}")
    if state.screen == "confirm":
        if state.question not in QUESTIONS:
            raise ValueError(f"unknown question {state.question!r}")
        if state.question == "back_to_round" and state.under != "round_start":
            raise ValueError("back_to_round asked away from a round's start")
    low, high = score_limits
    if any(not isinstance(v, int) or not low <= v <= high for v in state.scores):
        raise ValueError(f"scores {state.scores!r} outside {low} to {high}")
    if state.scores and not _within(state.entry, len(state.scores)):
        raise ValueError(f"entry {state.entry!r} outside {len(state.scores)} fields")
    if state.best_before is not None and not isinstance(state.best_before, int):
        raise ValueError(f"best_before {state.best_before!r}")


def _seed(code: object, what: str) -> str | None:
    if code is None:
        return None
    if not isinstance(code, str) or normalize_seed(code) != code:
        raise ValueError(f"{what} {code!r} is not a written seed code")
    return code


def _within(index: object, length: int) -> bool:
    return isinstance(index, int) and not isinstance(index, bool) and 0 <= index < length
